"""The GM's NPC library and the encounter page's "Add NPCs" form.

The library: build an NPC with the character builder, keep it, add N to an encounter. The NPC
builder is the character builder's sections (``characters.builder.forms`` and its section
templates) on a page of its own: an NPC is checked as an NPC (``npc_report``: the player budget
does not bind it, the panel says what it would cost).

"Add NPCs" (``encounter_add_npcs``): the GM picks one of the ruleset's ready NPCs or one of the
campaign's library NPCs, says how many and, if they like, what to call them; no JSON. htmx swaps
only the form's status line (``#add-npcs-status``: what was added, or why nothing was); the form
keeps what the GM picked and typed, and the new combatants reach every open page, this one
included, through the websocket as every change does. A plain POST redirects back to the page,
or shows it again with the reason (400). The form is its own fragment outside the actions panel,
so the panel's refreshes after each change never reset it either.

Thin views over ``combat.library.services`` (npc_save, npc_delete, encounter_add_from_library,
encounter_add_npcs).
"""

from __future__ import annotations

import copy
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from characters.builder.forms import build_from_post, builder_form, builder_meta
from characters.campaigns.selectors import campaign_for_user
from characters.selectors import builder_traits, is_campaign_gm
from combat.library import services
from combat.models import Encounter, LibraryNpc
from combat.presenters import encounter_npcs_to_add
from combat.selectors import encounter_for_user, encounter_is_gm, npc_archetypes, npc_library, npc_report
from combat.services import MAX_GROUP, InvalidInput
from combat.views import TEMPLATE as ENCOUNTER
from combat.views import _context, _message, _reply
from config.errors import SHOWN_INLINE, NotPermitted, RuleRefused
from config.forms import FormInputError, StorableTextForm, WholeNumberField, check_post, post_whole_number
from config.htmx import HtmxHttpRequest
from rulesets.engine import registry

TEMPLATE = "combat/npc_builder.html"
FRAGMENT = "combat/_add_npcs.html"
NAME_MAX = 100
PICK_MESSAGE = "Pick a ready NPC or one from the library."


def _gm_campaign(request: HtmxHttpRequest, campaign_id: int):
    campaign = campaign_for_user(request.user, campaign_id)  # 404 for outsiders
    if not is_campaign_gm(request.user, campaign):
        raise NotPermitted("Only the campaign's GM keeps its NPC library.")
    return campaign


def _cost_words(report: dict, label_of) -> str:
    """ "52 CP (the player budget is 40)": what the NPC would cost as a character."""
    parts = []
    for currency, spent in (report.get("spent") or {}).items():
        budget = (report.get("budget") or {}).get(currency)
        if not spent and not budget:
            continue
        words = f"{spent} {label_of(currency, spent)}"
        if isinstance(budget, int) and spent > budget:
            words += f" (over the player budget of {budget})"
        parts.append(words)
    return ", ".join(parts) or "nothing"


@login_required
@require_GET
def npc_library_page(request: HtmxHttpRequest, campaign_id: int) -> HttpResponse:
    """The campaign's saved NPCs and the ruleset's ready archetypes to start from."""
    campaign = _gm_campaign(request, campaign_id)
    ruleset, _, _ = builder_traits(campaign=campaign)
    label_of = ruleset.currency_label if ruleset else (lambda c, n=None: c)
    npcs = list(npc_library(campaign=campaign))
    for npc in npcs:
        npc.cost_words = _cost_words(npc.report or {}, label_of)
    return render(
        request,
        "combat/npc_library.html",
        {
            "campaign": campaign,
            "npcs": npcs,
            "archetypes": npc_archetypes(ruleset, campaign),
        },
    )


def _builder_context(
    campaign, build: dict, *, npc: LibraryNpc | None, error: str = "", archetype: str = ""
) -> dict[str, Any]:
    ruleset, _, traits = builder_traits(campaign=campaign)
    report = npc_report(campaign, build)
    report_dict = report.as_dict()
    label_of = ruleset.currency_label if ruleset else (lambda c, n=None: c)
    form = builder_form(
        traits, build, report_dict, currency_label=label_of, ruleset=ruleset, meta=builder_meta(ruleset)
    )
    currencies = []
    for c in report_dict.get("budget", {}) or {}:
        currencies.append(
            {
                "id": c,
                "label": label_of(c),
                "spent": report_dict.get("spent", {}).get(c, 0),
                "budget": report_dict.get("budget", {}).get(c, 0),
                "remaining": report_dict.get("remaining", {}).get(c, 0),
            }
        )
    url = (
        reverse("npc_edit", args=[campaign.pk, npc.pk])
        if npc is not None
        else reverse("npc_new", args=[campaign.pk])
    )
    return {
        "campaign": campaign,
        "ruleset": ruleset,
        "npc": npc,
        "form": form,
        "report": report_dict,
        "currencies": currencies,
        "builder_url": url,
        "error": error,
        "build": build,
        "archetype": archetype,
        "over_budget": [w for w in report_dict.get("warnings", []) if w.get("code") == "budget.exceeded"],
    }


def _start_build(request: HtmxHttpRequest, campaign, ruleset) -> dict:
    wanted = request.GET.get("archetype") or request.POST.get("_archetype") or ""
    archetypes = npc_archetypes(ruleset, campaign)
    chosen = next((a for a in archetypes if a["id"] == wanted), None)
    if chosen is not None:
        return copy.deepcopy(chosen["build"])
    if ruleset is None:
        return {}
    ctx = ruleset.context(campaign.house_rules, campaign.homebrew)
    return ruleset.blank_build("NPC", campaign.starting_budget or None, ctx)


def _builder(request: HtmxHttpRequest, campaign, npc: LibraryNpc | None) -> HttpResponse:
    ruleset, _, traits = builder_traits(campaign=campaign)
    base = copy.deepcopy(npc.build) if npc is not None else _start_build(request, campaign, ruleset)
    archetype = (
        (request.GET.get("archetype") or request.POST.get("_archetype") or "")[:60] if npc is None else ""
    )
    if request.method == "GET":
        return render(request, TEMPLATE, _builder_context(campaign, base, npc=npc, archetype=archetype))
    check_post(request.POST)  # a NUL or a lone surrogate is a 400 before the rules see it
    build = build_from_post(traits, request.POST, base, builder_meta(ruleset))
    if "_save" in request.POST:
        try:
            saved = services.npc_save(
                campaign=campaign, user=request.user, build=build, npc_id=npc.pk if npc is not None else None
            )
        except (RuleRefused, InvalidInput) as exc:
            ctx = _builder_context(campaign, build, npc=npc, error=str(exc.detail), archetype=archetype)
            return render(request, TEMPLATE, ctx, status=422 if isinstance(exc, RuleRefused) else 400)
        messages.success(request, f"{saved.name} is in the NPC library.")
        return redirect(reverse("npc_library", args=[campaign.pk]))
    ctx = _builder_context(campaign, build, npc=npc, archetype=archetype)
    if request.htmx:
        return HttpResponse(render_to_string(f"{TEMPLATE}#npc-update", ctx))
    return render(request, TEMPLATE, ctx)


@login_required
@require_http_methods(["GET", "POST"])
def npc_new(request: HtmxHttpRequest, campaign_id: int) -> HttpResponse:
    """Build a new NPC (from an archetype with ``?archetype=<id>``, else the ruleset's blank build)."""
    return _builder(request, _gm_campaign(request, campaign_id), None)


@login_required
@require_http_methods(["GET", "POST"])
def npc_edit(request: HtmxHttpRequest, campaign_id: int, npc_id: int) -> HttpResponse:
    campaign = _gm_campaign(request, campaign_id)
    npc = LibraryNpc.objects.filter(pk=npc_id, campaign=campaign).first()
    if npc is None:
        raise Http404("No such NPC.")
    return _builder(request, campaign, npc)


@login_required
@require_POST
def npc_delete(request: HtmxHttpRequest, campaign_id: int, npc_id: int) -> HttpResponse:
    campaign = _gm_campaign(request, campaign_id)
    try:
        services.npc_delete(campaign=campaign, user=request.user, npc_id=npc_id)
    except InvalidInput as exc:
        raise Http404(str(exc.detail)) from None
    messages.success(request, "The NPC is out of the library.")
    return redirect(reverse("npc_library", args=[campaign.pk]))


@login_required
@require_POST
def encounter_add_from_library(request: HtmxHttpRequest, encounter_id: int) -> HttpResponse:
    """Add N of a library NPC to the encounter: the count field and Add."""
    encounter = encounter_for_user(user=request.user, encounter_id=encounter_id)
    if not encounter_is_gm(
        request.user, encounter
    ):  # access first: a player's post is a 403 whatever it holds
        raise NotPermitted("Only the GM may add combatants.")
    check_post(request.POST)
    try:
        count = post_whole_number(
            request.POST, "count", label="How many", default=1, min_value=1, max_value=MAX_GROUP
        )
        npc_id = post_whole_number(request.POST, "npc", label="NPC", min_value=1)
    except FormInputError as exc:
        exc_message = str(exc)
        return _refuse(request, encounter, exc_message)
    try:
        created = services.encounter_add_from_library(
            encounter=encounter, user=request.user, npc_id=npc_id, count=count
        )
    except (RuleRefused, InvalidInput) as exc:
        return _refuse(request, encounter, _message(exc))
    return _reply(request, encounter, done=f"Added {', '.join(c.name for c in created)}.")


def _refuse(request: HtmxHttpRequest, encounter, message: str) -> HttpResponse:
    """Nothing added: htmx gets the panel with the reason (as every encounter form), a plain POST
    the page again with it, as a 400."""
    if request.htmx:
        return _reply(request, encounter, error=message)
    return render(request, ENCOUNTER, _context(request, encounter, panel_error=message), status=400)


# ------------------------------------------------------------------ the encounter page's "Add NPCs" form


class AddNpcsForm(StorableTextForm, forms.Form):
    """What the GM sends: ``pick`` ("archetype:<id>" or "npc:<id>", the option's value), ``count``
    and an optional ``name``. Which picks exist is the service's to say."""

    pick = forms.CharField(
        max_length=80, error_messages={"required": PICK_MESSAGE, "max_length": PICK_MESSAGE}
    )
    count = WholeNumberField(
        min_value=1,
        max_value=MAX_GROUP,
        error_messages={
            "required": f"How many: enter a whole number from 1 to {MAX_GROUP}.",
            "invalid": f"How many: enter a whole number from 1 to {MAX_GROUP}, such as 3.",
            "min_value": "How many: at least 1.",
            "max_value": f"How many: at most {MAX_GROUP} at a time.",
        },
    )
    name = forms.CharField(
        required=False,
        max_length=NAME_MAX,
        error_messages={"max_length": f"Name: at most {NAME_MAX} characters, please."},
    )

    def clean_pick(self) -> tuple[str, str]:
        kind, _, key = self.cleaned_data["pick"].partition(":")
        if kind not in ("archetype", "npc") or not key:
            raise forms.ValidationError(PICK_MESSAGE)
        return kind, key

    def first_error(self) -> str:
        labels = {"name": "Name", "count": "How many", "pick": ""}
        for field, errors in self.errors.items():
            message = str(errors[0])
            label = labels.get(field, "")
            if label and not message.startswith(label):
                message = f"{label}: {message}"
            return message
        return PICK_MESSAGE


def add_npcs_context(request: HtmxHttpRequest, encounter: Encounter, state: Any = None) -> dict[str, Any]:
    """The form's context: shown to the GM of an encounter not yet ended (or ended while they
    were adding: then only the reason). ``state``: the view's {"error", "done", "values"}."""
    state = state if isinstance(state, dict) else {}
    user = getattr(request, "user", None)
    gm = user is not None and encounter_is_gm(user, encounter)
    open_ = gm and encounter.status != Encounter.Status.ENDED
    ctx: dict[str, Any] = {
        "show": gm and (open_ or bool(state.get("error"))),
        "open": open_,
        "error": state.get("error", ""),
        "done": state.get("done", ""),
    }
    if not open_:
        return ctx
    values = state.get("values") or {}
    offered = encounter_npcs_to_add(encounter=encounter)
    choices = [*offered["archetypes"], *offered["library"]]
    picked = values.get("pick") if any(o["value"] == values.get("pick") for o in choices) else None
    if picked is None and choices:
        picked = choices[0]["value"]
    ctx.update(
        archetypes=offered["archetypes"],
        library=offered["library"],
        picked=picked,
        count=values.get("count") or "1",
        name=values.get("name") or "",
        max_count=MAX_GROUP,
        name_max=NAME_MAX,
        ruleset_name=encounter_ruleset_name(encounter),
    )
    return ctx


def encounter_ruleset_name(encounter: Encounter) -> str:
    ruleset = registry.get(encounter.campaign.ruleset)
    return ruleset.name if ruleset is not None else ""


def _answer(
    request: HtmxHttpRequest, encounter: Encounter, state: dict[str, Any], status: int
) -> HttpResponse:
    if request.htmx:
        return render(request, f"{FRAGMENT}#add-npcs-status", {"npcs_form": state}, status=status)

    return render(request, ENCOUNTER, _context(request, encounter, add_npcs_state=state), status=status)


@login_required
@require_POST
def encounter_add_npcs(request: HtmxHttpRequest, encounter_id: int) -> HttpResponse:
    """Add N of one ready or library NPC; the form comes back saying what was added, or why not."""
    encounter = encounter_for_user(user=request.user, encounter_id=encounter_id)  # 404 for strangers
    if not encounter_is_gm(request.user, encounter):  # access first: whatever a player posts, 403
        back = reverse("encounter_detail", args=[encounter.pk])
        context = {"message": "Only the GM adds NPCs to an encounter.", "back_url": back}
        return render(request, "form_refused.html", context, status=403)
    form = AddNpcsForm(request.POST)
    values = {k: request.POST.get(k, "") for k in ("pick", "count", "name")}
    if not form.is_valid():
        return _answer(request, encounter, {"error": form.first_error(), "values": values}, 400)
    kind, key = form.cleaned_data["pick"]
    try:
        created = services.encounter_add_npcs(
            encounter=encounter,
            user=request.user,
            archetype=key if kind == "archetype" else None,
            npc_id=key if kind == "npc" else None,
            count=form.cleaned_data["count"],
            name=form.cleaned_data["name"],
        )
    except SHOWN_INLINE as exc:
        return _answer(request, encounter, {"error": exc.message, "values": values}, 400)
    done = f"Added {', '.join(c.name for c in created)}."
    if not request.htmx:
        messages.success(request, done)
        return redirect(reverse("encounter_detail", args=[encounter.pk]))
    return _answer(request, encounter, {"done": done}, 200)
