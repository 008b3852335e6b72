"""The character sheet: derived numbers, play state edited in place, dice with odds, print.

Thin function views: they read through ``characters.selectors``, shape what the page shows
in ``characters.sheet.presenters`` and write through ``characters.sheet.services``. Every POST answers htmx with the partials it changed
(outerHTML swaps of stable ids) and a plain form POST with a redirect back to the
sheet, so the page works without JavaScript.
"""

from __future__ import annotations

import re
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.middleware.csrf import get_token
from django.shortcuts import redirect, render
from django.template.loader import get_template
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from characters.models import Character
from characters.selectors import character_for_user
from characters.sheet import services as play
from characters.sheet.presenters import roll_odds, roll_rows, sheet_context
from characters.sheet.selectors import character_roll, character_roll_log, roll_picker, sheet_rules
from config.errors import ApplicationError, BadInput, Conflict, RuleRefused
from config.forms import check_post, post_text, post_whole_number, value_of
from config.htmx import HtmxHttpRequest

TEMPLATE = "characters/sheet/sheet.html"


def _load(request: HtmxHttpRequest, character_id: int) -> Character:
    """The character if this user may see it; 404 otherwise (pages and htmx alike)."""
    return character_for_user(user=request.user, character_id=character_id)


def _partials(request: HtmxHttpRequest, context: dict, name: str) -> HttpResponse:
    """One htmx answer: a partial of the sheet that renders the swapped block and, with
    hx-swap-oob, every other block the change touched (sheet.html's "*-update" partials).

    Rendered without the request's context processors: the fragments need none of the
    page chrome (navigation badges cost queries), only the CSRF token of their forms."""
    html = get_template(f"{TEMPLATE}#{name}").render({**context, "csrf_token": get_token(request)})
    return HttpResponse(html)


def _refusal(exc: Exception) -> str:
    if isinstance(exc, ApplicationError):
        return exc.message
    if isinstance(exc, PermissionDenied):
        return str(exc) or "You may not do that."
    return str(exc)


# ------------------------------------------------------------------ pages


@login_required
@require_GET
def character_sheet(request: HtmxHttpRequest, character_id: int) -> HttpResponse:
    """The sheet page (also for drafts). ``?print=1`` gives the print layout;
    ``?roll=<id>`` shows that roll's result and odds chart."""
    character = character_for_user(user=request.user, character_id=character_id, for_sheet=True)
    rolls = character_roll_log(character=character, viewer=request.user, summary=True)
    shown_roll = None
    if request.GET.get("roll"):  # the log's rows are summaries: the shown roll comes whole
        shown_roll = character_roll(character=character, roll_id=request.GET["roll"], viewer=request.user)
    context = sheet_context(request, character, rolls=rolls, shown_roll=shown_roll)
    return render(request, TEMPLATE, context)


@login_required
@require_GET
def character_sheet_rolls(request: HtmxHttpRequest, character_id: int) -> HttpResponse:
    """The roll log block (htmx refresh; plain GET → the sheet)."""
    character = _load(request, character_id)
    if not request.htmx:
        return redirect(reverse("character_sheet", args=[character.pk]) + "#roll-log")
    rolls = roll_rows(character, character_roll_log(character=character, viewer=request.user, summary=True))
    return _partials(request, {"character": character, "rolls": rolls}, "roll-log")


@login_required
@require_GET
def character_sheet_roll(request: HtmxHttpRequest, character_id: int, roll_id: int) -> HttpResponse:
    """One logged roll with its odds chart (htmx: the result block; plain GET: the sheet showing it)."""
    character = _load(request, character_id)
    if not request.htmx:
        return redirect(reverse("character_sheet", args=[character.pk]) + f"?roll={roll_id}#roll-result")
    roll = character_roll(character=character, roll_id=roll_id, viewer=request.user)
    return _partials(
        request, {"character": character, "shown_roll": roll, "slug": character.ruleset}, "roll-result"
    )


@login_required
@require_GET
def character_sheet_live(request: HtmxHttpRequest, character_id: int) -> HttpResponse:
    """The sheet's blocks that follow the character live (play state, its effects, the numbers,
    the dice, the equipment and the version), for this viewer: what an open sheet fetches when
    its websocket says the character changed (characters/sheet/live.py). The same access check
    as the page (404 for whoever may not see it). Plain GET: the sheet."""
    character = _load(request, character_id)
    if not request.htmx:
        return redirect(reverse("character_sheet", args=[character.pk]))
    return _partials(request, sheet_context(request, character), "live-update")


# ------------------------------------------------------------------ writes


def _action_from_post(request: HtmxHttpRequest) -> dict[str, Any]:
    """Form fields → a state action: whole numbers become ints (strictly: config.forms.value_of),
    empty fields are dropped. Text that cannot be stored raises FormInputError (a 400)."""
    check_post(request.POST)
    action: dict[str, Any] = {}
    for key in request.POST:
        if key in {"csrfmiddlewaretoken"}:
            continue
        values = [v for v in request.POST.getlist(key) if v != ""]
        if not values:
            continue
        converted = [value_of(v, field=key) for v in values]
        if all(isinstance(v, bool) for v in converted):
            action[key] = converted[-1]  # a checkbox after its hidden "false"
        else:
            action[key] = converted if len(converted) > 1 or key.endswith("[]") else converted[0]
    for key in [k for k in action if k.endswith("[]")]:
        action[key[:-2]] = action.pop(key)
    return action


@login_required
@require_POST
def character_state_action(request: HtmxHttpRequest, character_id: int) -> HttpResponse:
    """Apply one play-state action from a section's form (or a pool's +/− button)."""
    _load(request, character_id)  # a stranger gets the 404 before anything they posted is read
    action = _action_from_post(request)
    # The version the page showed: an absolute value (a pool's number box) is refused when stale.
    version = action.pop("version", None)
    error = None
    sentence = ""
    try:
        character, sentence = play.character_state_action(
            character_id=character_id, user=request.user, action=action, version=version
        )
    except (RuleRefused, Conflict, PermissionDenied) as exc:
        error = _refusal(exc)
        character = _load(request, character_id)
    if not request.htmx:
        if error:
            messages.error(request, error)
        else:
            messages.success(request, sentence or "Done.")
        return redirect(reverse("character_sheet", args=[character.pk]) + "#sheet-state")
    context = sheet_context(request, character, state_error=error, state_message=sentence)
    # The state block is the target; numbers, effects and roll buttons follow out of band.
    return _state_changed(_partials(request, context, "state-update"))


@login_required
@require_POST
def character_equipment(
    request: HtmxHttpRequest, character_id: int, index: int | None = None
) -> HttpResponse:
    """Change the state of a gear entry (the owner only; the GM gets 403). The sheet's gear block is
    one form: the Change button of an entry posts ``item`` (its index) and the block's fields of that
    entry carry the index before their names (``3-state``, ``3-arms``: the new state and the fields
    the ruleset's row keeps, handed on as they are). ``…/equipment/<index>/`` takes one entry's
    fields without the index (``state``, ``arms``)."""
    _load(request, character_id)
    check_post(request.POST, labels={"state": "Equipment state"})
    prefix = ""
    if index is None:
        index = post_whole_number(request.POST, "item", label="Equipment entry", min_value=0)
        prefix = f"{index}-"
    state: Any = request.POST.get(prefix + "state", "")
    kept = {
        name[len(prefix) :]: [v for v in request.POST.getlist(name) if v]
        for name in request.POST
        if name.startswith(prefix) and name not in (prefix + "state", "csrfmiddlewaretoken")
    }
    kept = {name: values for name, values in kept.items() if values}
    if kept:
        state = {"state": state, **kept}
    error = None
    try:
        character = play.character_equipment_state(
            character_id=character_id, user=request.user, index=index, state=state
        )
    except PermissionDenied:
        _load(request, character_id)  # a stranger still gets 404, not 403
        raise
    except RuleRefused as exc:
        error = _refusal(exc)
        character = _load(request, character_id)
    if not request.htmx:
        if error:
            messages.error(request, error)
        return redirect(reverse("character_sheet", args=[character.pk]) + "#sheet-equipment")
    context = sheet_context(request, character, equipment_error=error)
    return _state_changed(_partials(request, context, "equipment-update"))


#: The event a play-state or loadout change fires once its blocks have settled: the roll form's odds
#: preview (kept with the player's choices, hx-preserve) asks again, with the new wound penalty.
STATE_CHANGED = "sheet-state-changed"


def _state_changed(response: HttpResponse) -> HttpResponse:
    response["HX-Trigger-After-Settle"] = STATE_CHANGED
    return response


ROLL_INPUT_PREFIX = "in_"
#: Values of one roll input read at most (a checkbox list of specialties is a handful).
MAX_INPUT_VALUES = 64


@login_required
@require_GET
def character_roll_odds(request: HtmxHttpRequest, character_id: int) -> HttpResponse:
    """The odds chart of one roll with the numbers the player is setting (htmx, as the inputs
    change, before the roll); plain GET: the sheet."""
    character = _load(request, character_id)
    if not request.htmx:
        return redirect(reverse("character_sheet", args=[character.pk]) + "#sheet-rollables")
    check_post(request.GET)
    rules = sheet_rules(character=character)
    inputs = _roll_inputs_of(request.GET)
    context = {
        "character": character,
        "slug": character.ruleset,
        **roll_odds(rules, post_text(request.GET, "preview", label="Odds of", max_length=200), inputs),
    }
    response = _partials(request, context, "roll-odds")
    picker = roll_picker(rules, inputs) if inputs else None
    for template in (picker or {}).get("refresh") or []:
        # Parts of the picker the inputs show stale (the specialties of the ability just chosen, the
        # wounds after a play-state change), out of band: the control in use is not in them.
        part = get_template(template).render({"roll_picker": picker, "oob": True, "character": character})
        response.content += part.encode()
    return response


def _roll_inputs_of(query) -> dict[str, list[str]]:
    """``in_target=14`` → {"target": ["14"]}: what the player set on the roll's form (the table's
    numbers, checked against the ruleset's odds form by ``sheet.selectors.roll_request``; the picks of
    its roll picker, checked by the ruleset's ``picked_roll``). Checked storable first."""
    check_post(query)
    return {
        k[len(ROLL_INPUT_PREFIX) :]: query.getlist(k)[:MAX_INPUT_VALUES]
        for k in query
        if k.startswith(ROLL_INPUT_PREFIX)
    }


def _roll_inputs_from_post(request: HtmxHttpRequest) -> dict[str, list[str]]:
    return _roll_inputs_of(request.POST)


#: The sheet's spend form's fields passed to the ruleset's spend (its own names: outcome, times_<id>…).
SPEND_FIELDS = re.compile(r"^(outcome|times_[a-z][a-z0-9_]*|body_part|target|obstacle|ep_to_obstacle)$")


@login_required
@require_POST
def character_spend_view(request: HtmxHttpRequest, character_id: int) -> HttpResponse:
    """Spend the last sheet roll's EP (play.character_spend_roll) from the Last roll block's form; the
    answer says what was bought, or why not (nothing changed, the EP stay)."""
    _load(request, character_id)
    check_post(request.POST)
    fields = {k: request.POST.get(k, "") for k in request.POST if SPEND_FIELDS.match(k)}
    message, error = "", None
    try:
        _, message = play.character_spend_roll(character_id=character_id, user=request.user, request=fields)
    except (RuleRefused, BadInput, PermissionDenied) as exc:
        error = _refusal(exc)
    character = _load(request, character_id)
    if not request.htmx:
        if error:
            messages.error(request, error)
        else:
            messages.success(request, message)
        return redirect(reverse("character_sheet", args=[character.pk]) + "#roll-result")
    context = sheet_context(request, character, spend_message=message, roll_error=error)
    response = _partials(request, context, "spend-update")
    if error is None:
        _state_changed(response)
    else:
        response.status_code = 400  # refused: the reason shows where the form was
    return response


#: The roll form's field of a "Chance it" button (``character_roll_view``).
CHANCE = "chance"


@login_required
@require_POST
def character_roll_view(request: HtmxHttpRequest, character_id: int) -> HttpResponse:
    """Roll one of the sheet's rollables on the server (chanced, from its "Chance it"); show the result
    and its odds, or why the rules refuse it."""
    before_state = _load(request, character_id).state
    # A roll's "Chance it" button posts its id as ``chance``: the roll chanced (``Ruleset.chance_roll``).
    chanced = CHANCE in request.POST
    rollable = post_text(request.POST, CHANCE if chanced else "rollable", label="Roll", max_length=200)
    error = None
    log = None
    try:
        log = play.character_roll(
            character_id=character_id,
            user=request.user,
            rollable_id=rollable,
            private=request.POST.get("private") == "true",
            inputs=_roll_inputs_from_post(request),
            chanced=chanced,
        )
    except (RuleRefused, PermissionDenied) as exc:
        error = _refusal(exc)
    character = _load(request, character_id)
    if not request.htmx:
        if log is None:  # refused: ``error`` says why
            if error:
                messages.error(request, error)
            return redirect(reverse("character_sheet", args=[character.pk]) + "#sheet-rollables")
        return redirect(reverse("character_sheet", args=[character.pk]) + f"?roll={log.pk}#roll-result")
    if log is not None and character.state != before_state:
        # The roll spent something (a willpower dot): the play state shows it too.
        context = sheet_context(request, character)
    else:
        context = {"character": character, "slug": character.ruleset}
    context.update(
        {
            "shown_roll": log,
            "roll_error": error,
            "here": log,
            "state_changed": log is not None and character.state != before_state,
            "rolls": roll_rows(
                character, character_roll_log(character=character, viewer=request.user, summary=True)
            )
            if log is not None
            else None,
        }
    )
    response = _partials(request, context, "roll-update")
    if context["state_changed"]:
        _state_changed(response)
    if log is None:
        response.status_code = 400  # refused: nothing was rolled (htmx swaps a 400: the reason shows)
    return response
