"""The encounter page's effects: the GM puts an effect on a combatant (a PC or an NPC) for rounds of
this encounter, until the end of a combatant's turn, or until removed; and takes one off.

The form is the effects' own (characters/effects/forms.py: named effects of the ruleset, the
campaign's kept ones, a custom one from the ruleset's roll keys on every roll), with the combatant
to put it on, in its own section outside the actions panel (``#encounter-effects``), so the
panel's refreshes after each change never reset it. htmx swaps the section (what was done, or why
not: a 400 that changed nothing); the combatant's row, the log and the feed reach every open page
through the websocket as every change does. A plain POST redirects back, or shows the page again
with the reason (400). Taking an effect off is a button of the GM's panel (``_reply`` as every
panel action). Players get 403, strangers 404.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from characters.effects import forms as effect_forms
from characters.effects.clock import Running
from characters.effects.selectors import campaign_saved_effects
from combat import services
from combat.models import Encounter
from combat.selectors import campaign_combat_rules, encounter_for_user, encounter_is_gm
from config.errors import SHOWN_INLINE
from config.forms import FormInputError, post_text, post_whole_number
from config.htmx import HtmxHttpRequest

FRAGMENT = "combat/_encounter_effects.html"


def encounter_effects_context(
    request: HtmxHttpRequest, encounter: Encounter, board: dict[str, Any] | None, state: Any = None
) -> dict[str, Any]:
    """The section's context for this user: shown to the GM of a running encounter (or of one that
    stopped running while they were at it: then only the reason). ``board``: the page's board when
    it has one (its combatants, no query); ``state``: the view's {"error", "done", "values"}."""
    from characters.campaigns.selectors import campaign_context

    state = state if isinstance(state, dict) else {}
    user = getattr(request, "user", None)
    gm = user is not None and encounter_is_gm(user, encounter)
    running = encounter.status == Encounter.Status.ACTIVE
    ctx: dict[str, Any] = {
        "show": gm and (running or bool(state.get("error"))),
        "open": gm and running,
        "error": state.get("error", ""),
        "done": state.get("done", ""),
        "encounter": encounter,
    }
    if not ctx["open"]:
        return ctx
    ruleset, _, _ = campaign_combat_rules(encounter.campaign)
    if ruleset is None:
        ctx["open"] = False
        return ctx
    combatants = _combatants(encounter, board)
    clock = Running(encounter.pk, encounter.round, encounter.name, tuple(combatants))
    made = effect_forms.offer(
        ruleset=ruleset,
        ctx=campaign_context(campaign=encounter.campaign, ruleset=ruleset),
        rollables=None,
        saved=campaign_saved_effects(campaign_id=encounter.campaign_id),
        running=[clock],
        rest=False,
        encounter_id=encounter.pk,
    )
    values = state.get("values")
    get = (lambda name: values.get(name, "")) if values is not None else (lambda name: "")
    ctx.update(
        offer=made,
        on=[{"id": cid, "name": name} for cid, name in combatants],
        values={
            "on": get("on"),
            "effect": get("effect"),
            "value": get("value") or "1",
            "custom_name": get("custom_name"),
            "save": get("save") == "on",
            "duration": get("duration") or "rounds",
            "rounds": get("rounds") or "1",
            "combatant": get("combatant"),
            "rows": [{"i": i, "what": get(f"what-{i}"), "amount": get(f"amount-{i}")} for i in made.rows],
        },
    )
    return ctx


def _combatants(encounter: Encounter, board: dict[str, Any] | None) -> list[tuple[int, str]]:
    """(id, name) of the encounter's combatants, in turn order then the others."""
    if board is not None:
        rows = [*board.get("ordered", []), *board.get("unordered", [])]
        return [(r["id"], r["name"]) for r in rows]
    order = list(encounter.order or [])
    found = dict(encounter.combatants.values_list("pk", "name"))
    return [(i, found[i]) for i in order if i in found] + [(i, n) for i, n in found.items() if i not in order]


def _answer(
    request: HtmxHttpRequest, encounter: Encounter, state: dict[str, Any], status: int
) -> HttpResponse:
    if request.htmx:
        context = {
            "fx_form": encounter_effects_context(request, encounter, None, state),
            "encounter": encounter,
        }
        return render(request, FRAGMENT, context, status=status)
    from combat.views import TEMPLATE, _context  # the encounter page, whole

    return render(request, TEMPLATE, _context(request, encounter, effects_state=state), status=status)


def _refused(request: HtmxHttpRequest, encounter: Encounter) -> HttpResponse:
    back = reverse("encounter_detail", args=[encounter.pk])
    context = {"message": "Only the GM puts effects on combatants and takes them off.", "back_url": back}
    return render(request, "form_refused.html", context, status=403)


@login_required
@require_POST
def encounter_effect_apply(request: HtmxHttpRequest, encounter_id: int) -> HttpResponse:
    encounter = encounter_for_user(user=request.user, encounter_id=encounter_id)  # 404 for strangers
    if not encounter_is_gm(request.user, encounter):  # access first: whatever a player posts, 403
        return _refused(request, encounter)
    values = request.POST
    context = encounter_effects_context(request, encounter, None)
    parsed = None
    name = ""
    try:
        if not context.get("open"):
            raise FormInputError(
                "on", "the encounter is not running: effects go on combatants of a running one."
            )
        on = post_whole_number(values, "on", label="On whom", min_value=1)
        name = next((c["name"] for c in context["on"] if c["id"] == on), "")
        if not name:
            raise FormInputError("on", "pick a combatant of this encounter.", label="On whom")
        parsed = effect_forms.parse(values, context["offer"])
        entry = services.encounter_effect_apply(
            encounter=encounter,
            user=request.user,
            combatant_id=on,
            spec=parsed.spec,
            duration=parsed.duration,
        )
    except (FormInputError, *SHOWN_INLINE) as exc:
        if isinstance(exc, FormInputError):
            message = str(exc)
        else:
            errors = getattr(exc, "errors", None) or []
            code = errors[0].get("code", "") if errors and isinstance(errors[0], dict) else ""
            message = effect_forms.refusal_text(code, exc.message, parsed=parsed, character_name=name)
        return _answer(request, encounter, {"error": message, "values": values}, 400)
    done = f"{entry['name']} is on {name}."
    if not request.htmx:
        messages.success(request, done)
        return redirect(reverse("encounter_detail", args=[encounter.pk]) + "#encounter-effects")
    encounter.refresh_from_db()
    return _answer(request, encounter, {"done": done, "values": effect_forms.kept_after(values)}, 200)


@login_required
@require_POST
def encounter_effect_remove(request: HtmxHttpRequest, encounter_id: int) -> HttpResponse:
    """The GM panel's "take it off" button: the panel's own answers (combat/views.py ``_run``)."""
    from combat.views import _run

    encounter = encounter_for_user(user=request.user, encounter_id=encounter_id)
    if not encounter_is_gm(request.user, encounter):
        return _refused(request, encounter)

    def remove(e: Encounter) -> str:
        combatant = post_whole_number(request.POST, "combatant", label="Combatant", min_value=1)
        effect = post_text(request.POST, "effect", label="Effect", max_length=40)
        services.encounter_effect_remove(
            encounter=e, user=request.user, combatant_id=combatant, effect_id=effect
        )
        return "Taken off."

    return _run(request, encounter_id, remove, "Taken off.", error_at=None)
