"""The GM's NPC library: build an NPC with the character builder, keep it, add N to an encounter.

The NPC builder is the character builder's sections (``characters.builder.forms`` and its section
templates) on a page of its own: an NPC is checked as an NPC (``npc_report``: the player
budget does not bind it, the panel says what it would cost). Thin views over
``combat.services`` (npc_save, npc_delete, encounter_add_from_library).
"""

from __future__ import annotations

import copy
from typing import Any

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
from combat import services
from combat.models import LibraryNpc
from combat.selectors import encounter_for_user, encounter_is_gm, npc_archetypes, npc_library, npc_report
from config.errors import NotPermitted, RuleRefused
from config.forms import FormInputError, check_post, post_whole_number
from config.htmx import HtmxHttpRequest

TEMPLATE = "combat/npc_builder.html"


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
        words = f"{spent} {label_of(currency)}"
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
    label_of = ruleset.currency_label if ruleset else (lambda c: c)
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
    label_of = ruleset.currency_label if ruleset else (lambda c: c)
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
        except (RuleRefused, services.InvalidInput) as exc:
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
    except services.InvalidInput as exc:
        raise Http404(str(exc.detail)) from None
    messages.success(request, "The NPC is out of the library.")
    return redirect(reverse("npc_library", args=[campaign.pk]))


@login_required
@require_POST
def encounter_add_from_library(request: HtmxHttpRequest, encounter_id: int) -> HttpResponse:
    """Add N of a library NPC to the encounter: the count field and Add."""
    from combat.views import _message, _reply  # the encounter page's own replies

    encounter = encounter_for_user(user=request.user, encounter_id=encounter_id)
    if not encounter_is_gm(
        request.user, encounter
    ):  # access first: a player's post is a 403 whatever it holds
        raise NotPermitted("Only the GM may add combatants.")
    check_post(request.POST)
    try:
        count = post_whole_number(
            request.POST, "count", label="How many", default=1, min_value=1, max_value=services.MAX_GROUP
        )
        npc_id = post_whole_number(request.POST, "npc", label="NPC", min_value=1)
    except FormInputError as exc:
        exc_message = str(exc)
        return _refuse(request, encounter, exc_message)
    try:
        created = services.encounter_add_from_library(
            encounter=encounter, user=request.user, npc_id=npc_id, count=count
        )
    except (RuleRefused, services.InvalidInput) as exc:
        return _refuse(request, encounter, _message(exc))
    return _reply(request, encounter, done=f"Added {', '.join(c.name for c in created)}.")


def _refuse(request: HtmxHttpRequest, encounter, message: str) -> HttpResponse:
    """Nothing added: htmx gets the panel with the reason (as every encounter form), a plain POST
    the page again with it, as a 400."""
    from combat.views import TEMPLATE as ENCOUNTER
    from combat.views import _context, _reply

    if request.htmx:
        return _reply(request, encounter, error=message)
    return render(request, ENCOUNTER, _context(request, encounter, panel_error=message), status=400)
