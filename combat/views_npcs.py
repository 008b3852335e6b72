"""The encounter page's "Add NPCs" form: the GM picks one of the ruleset's ready NPCs or one of
the campaign's library NPCs, says how many and, if they like, what to call them; no JSON.

One view over ``combat.services.encounter_add_npcs`` (the API's ``encounter_add_combatant`` does
the work). htmx swaps only the form's status line (``#add-npcs-status``: what was added, or why
nothing was); the form keeps what the GM picked and typed, and the new combatants reach every
open page, this one included, through the websocket as every change does. A plain POST redirects
back to the page, or shows it again with the reason (400). The form is its own fragment outside
the actions panel, so the panel's refreshes after each change never reset it either.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from combat import services
from combat.models import Encounter
from combat.selectors import encounter_for_user, encounter_is_gm, encounter_npcs_to_add
from config.errors import SHOWN_INLINE
from config.forms import StorableTextForm, WholeNumberField
from config.htmx import HtmxHttpRequest
from rulesets.engine import registry

FRAGMENT = "combat/_add_npcs.html"
NAME_MAX = 100
PICK_MESSAGE = "Pick a ready NPC or one from the library."


class AddNpcsForm(StorableTextForm, forms.Form):
    """What the GM sends: ``pick`` ("archetype:<id>" or "npc:<id>", the option's value), ``count``
    and an optional ``name``. Which picks exist is the service's to say."""

    pick = forms.CharField(
        max_length=80, error_messages={"required": PICK_MESSAGE, "max_length": PICK_MESSAGE}
    )
    count = WholeNumberField(
        min_value=1,
        max_value=services.MAX_GROUP,
        error_messages={
            "required": f"How many: enter a whole number from 1 to {services.MAX_GROUP}.",
            "invalid": f"How many: enter a whole number from 1 to {services.MAX_GROUP}, such as 3.",
            "min_value": "How many: at least 1.",
            "max_value": f"How many: at most {services.MAX_GROUP} at a time.",
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
        max_count=services.MAX_GROUP,
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
    from combat.views import TEMPLATE, _context  # the encounter page, whole

    return render(request, TEMPLATE, _context(request, encounter, add_npcs_state=state), status=status)


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
