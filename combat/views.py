"""Encounter pages: the list of a campaign's encounters and the live encounter page.

Thin function views over ``combat.selectors`` (reads), ``combat.presenters`` (what the page shows) and
``combat.services`` (writes).
Every POST answers htmx with the changed parts (out of band, by stable ids) and a plain
form POST with a redirect back to the page, so the page works without JavaScript. Every open
page hears each change's version through the websocket and fetches what it shows
(``encounter_board``: combat/broadcast.py).

The effects' section (at the end): the GM puts an effect on a combatant (a PC or an NPC) for rounds of
this encounter, until the end of a combatant's turn, or until removed; and takes one off.

The form is the effects' own (characters/effects/forms.py: named effects of the ruleset, the
campaign's kept ones, a custom one from the ruleset's roll keys on every roll), with the combatant
to put it on, in its own section outside the actions panel (``#encounter-effects``), so the
panel's refreshes after each change never reset it. htmx swaps the section (what was done, or why
not: a 400 that changed nothing); the combatant's row, the log and the feed reach every open page
as every change does. A plain POST redirects back, or shows the page again
with the reason (400). Taking an effect off is a button of the GM's panel (``_reply`` as every
panel action). Players get 403, strangers 404.
"""

from __future__ import annotations

import json
import re
import uuid
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.middleware.csrf import get_token
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from characters.campaigns.selectors import campaign_context, campaign_for_user
from characters.effects import forms as effect_forms
from characters.effects.clock import Running
from characters.effects.selectors import campaign_saved_effects
from characters.obstacles.selectors import obstacle_view
from characters.selectors import is_campaign_gm
from combat import services
from combat.broadcast import render_live
from combat.fight import combatant_effects
from combat.models import Encounter
from combat.presenters import encounter_board as board_of
from combat.presenters import encounter_panel as panel_of
from combat.selectors import (
    campaign_characters_to_add,
    campaign_combat_rules,
    encounter_fight,
    encounter_for_user,
    encounter_is_gm,
    encounters_for_user,
)
from config.errors import SHOWN_INLINE, Conflict
from config.forms import FormInputError, check_json, check_post, post_text, post_whole_number, value_of
from config.htmx import HtmxHttpRequest

TEMPLATE = "combat/encounter_detail.html"
_INT = re.compile(r"^-?[0-9]{1,9}$")
NOT_PARAMS = {"csrfmiddlewaretoken", "combatant", "expected_version", "next", "private", "request_id"}


def _message(exc: Exception) -> str:
    if isinstance(exc, SHOWN_INLINE):
        return exc.message
    return str(exc) or "You may not do that."


def _panel_context(request: HtmxHttpRequest, encounter, fight, **extra) -> dict[str, Any]:
    """What the actions panel needs (and nothing of the board: the panel is fetched by every
    page after every change, so it stays cheap)."""
    gm = encounter_is_gm(request.user, encounter)
    panel = panel_of(fight=fight, user=request.user, is_gm=gm)
    mine = [f.id for f in fight.fighters if request.user.pk in f.controller_ids]
    can_next = encounter.status == encounter.Status.ACTIVE and (
        gm or any(i in mine for i in fight.current_ids)
    )
    ctx = {
        "encounter": encounter,
        "campaign": encounter.campaign,
        # The campaign's and this encounter's obstacles (W2): fetched with the panel by every page
        # after every change, so EP put in show at once everywhere.
        "obstacles": [obstacle_view(o, is_gm=gm) for o in fight.obstacles],
        "panel": panel,
        "is_gm": gm,
        "can_next": can_next,
        "mine": mine,
        # Every form of the panel carries the version it was drawn from and a fresh request id
        # (called by the template once per form): a stale form is refused, a repeat is one click.
        "expected_version": encounter.version,
        "current_ids": fight.current_ids,
        "request_id": _new_request_id,
    }
    if gm and encounter.status != encounter.Status.ENDED:
        ctx["characters_to_add"] = campaign_characters_to_add(fight=fight)
    if gm and encounter.status == encounter.Status.ACTIVE:
        # Each combatant's effects, with a button to take one off (no query: the fight has them).
        rows = [
            {"id": f.id, "name": f.name, "effects": combatant_effects(fight, f.state)} for f in fight.fighters
        ]
        ctx["gm_effects"] = [r for r in rows if r["effects"]]
    ctx.update(extra)
    return ctx


def _context(request: HtmxHttpRequest, encounter, **extra) -> dict[str, Any]:
    fight = encounter_fight(encounter=encounter)
    ctx = _panel_context(request, encounter, fight, **extra)
    ctx["board"] = board_of(fight=fight)
    return ctx


_FORMS: dict[str, str] = {}
_CSRF_SLOT = "__sheetforge_csrf_slot__"
_VERSION_SLOT = "__sheetforge_version_slot__"
_REQUEST_SLOT = "__sheetforge_request_slot__"


def _new_request_id() -> str:
    return uuid.uuid4().hex


def _render_forms(ctx: dict[str, Any]) -> None:
    """Render each action form of the panel once per content, process-wide: a form is a pure
    function of its action (spec, targets, odds), its fighter and the encounter — the same from
    one refresh to the next for most of them (the GM's forms of every
    combatant above all) — and the CSRF token, the version and the request id, which go in
    afterwards. A refusal of this form (``ctx["error_at"]``) is shown in it: rendered afresh."""
    act_url = reverse("encounter_act", args=[ctx["encounter"].pk])
    slots = {"act_url": act_url, "csrf_token": _CSRF_SLOT}
    slots |= {"expected_version": _VERSION_SLOT, "request_id": _REQUEST_SLOT}
    for block in [*ctx["panel"]["blocks"], *ctx["panel"]["gm_blocks"]]:
        fighter = block["fighter"]
        for row in block["actions"]:
            if ctx.get("error_at") == (fighter.id, row["spec"].id) and not ctx.get("error_placed"):
                ctx["error_placed"] = True
                row["html"] = render_to_string(
                    "combat/_action_form.html",
                    {"row": row, "fighter": fighter, "row_error": ctx["refusal"], **slots},
                )
                continue
            key = repr((act_url, fighter.id, row["spec"].as_dict(), row["targets"], row["odds"]))
            html = _FORMS.get(key)
            if html is None:
                html = render_to_string("combat/_action_form.html", {"row": row, "fighter": fighter, **slots})
                if len(_FORMS) > 4096:
                    _FORMS.clear()
                _FORMS[key] = html
            row["html"] = html


def _render_panel(request: HtmxHttpRequest, encounter, *, fight=None, **extra) -> str:
    """The panel fragment (every page fetches it after every change). Rendered without the
    context processors (the navigation's counts are not in it) and with its forms from
    ``_render_forms``: only the CSRF token, the version and the request ids are this request's.

    ``refusal`` with ``error_at`` (``(combatant id, action id)`` or ``"next"``): the refusal is
    shown in that form when the panel still has it, else at the top of the panel."""
    fight = fight or encounter_fight(encounter=encounter)
    ctx = _panel_context(request, encounter, fight, **extra)
    token = get_token(request)
    ctx["csrf_token"] = token
    _render_forms(ctx)
    if ctx.get("refusal"):
        if ctx.get("error_at") == "next" and ctx["can_next"]:
            ctx["next_error"] = ctx["refusal"]
        elif not ctx.get("error_placed"):
            ctx["panel_error"] = ctx["refusal"]
    html = str(render_to_string(f"{TEMPLATE}#encounter-panel", ctx))
    html = html.replace(_CSRF_SLOT, token).replace(_VERSION_SLOT, str(encounter.version))
    return _REQUEST_SLOTS.sub(lambda _: _new_request_id(), html)


_REQUEST_SLOTS = re.compile(re.escape(_REQUEST_SLOT))


def _reply(
    request: HtmxHttpRequest,
    encounter,
    *,
    error: str = "",
    done: str = "",
    stale: bool = False,
    error_at=None,
) -> HttpResponse:
    """htmx: nothing after a change — the websocket tells every page, this one included, the new
    version, and each fetches what it shows once (``encounter_board``); a refusal (nothing changed, nothing
    broadcast) answers with this user's panel showing why (out of band), in the form that was
    used (``error_at``). A page that was out of date (``stale``: 409) gets the whole page as it
    is now — status, turn order, log and panel — so that it shows what the refusal is about.
    Otherwise a redirect."""
    if not request.htmx:
        if error:
            messages.error(request, error)
        elif done:
            messages.success(request, done)
        return redirect(reverse("encounter_detail", args=[encounter.pk]))
    if not error:
        return HttpResponse(status=204)
    encounter.refresh_from_db()
    if not stale:
        return HttpResponse(_render_panel(request, encounter, refusal=error, error_at=error_at, oob=True))
    fight = encounter_fight(encounter=encounter)
    board = render_live(board_of(fight=fight))
    panel = _render_panel(request, encounter, fight=fight, refusal=error, error_at=error_at, oob=True)
    return HttpResponse(board + panel, status=409)


# ------------------------------------------------------------------ pages


@login_required
@require_GET
def encounter_list(request: HtmxHttpRequest, campaign_id: int) -> HttpResponse:
    campaign = campaign_for_user(request.user, campaign_id)
    _, rules, why = campaign_combat_rules(campaign)
    return render(
        request,
        "combat/encounter_list.html",
        {
            "campaign": campaign,
            "encounters": encounters_for_user(user=request.user, campaign_id=campaign.pk),
            "is_gm": is_campaign_gm(request.user, campaign),
            "unsupported": why,
        },
    )


@login_required
@require_POST
def encounter_create(request: HtmxHttpRequest, campaign_id: int) -> HttpResponse:
    campaign = campaign_for_user(request.user, campaign_id)
    name = post_text(request.POST, "name", label="Name")
    try:
        encounter = services.encounter_create(campaign=campaign, user=request.user, name=name)
    except services.InvalidInput as exc:
        messages.error(request, _message(exc))
        return redirect(reverse("encounter_list", args=[campaign.pk]))
    return redirect(reverse("encounter_detail", args=[encounter.pk]))


@login_required
@require_GET
def encounter_detail(request: HtmxHttpRequest, encounter_id: int) -> HttpResponse:
    encounter = encounter_for_user(user=request.user, encounter_id=encounter_id)
    return render(request, TEMPLATE, _context(request, encounter))


@login_required
@require_GET
def encounter_panel(request: HtmxHttpRequest, encounter_id: int) -> HttpResponse:
    """This user's actions panel (fetched by each page after a live update)."""
    encounter = encounter_for_user(user=request.user, encounter_id=encounter_id)
    if not request.htmx:
        return redirect(reverse("encounter_detail", args=[encounter.pk]) + "#encounter-panel")
    return HttpResponse(_render_panel(request, encounter))


@login_required
@require_GET
def encounter_board(request: HtmxHttpRequest, encounter_id: int) -> HttpResponse:
    """What a page shows of the encounter, as it is now: the shared parts and this viewer's actions
    panel, each out of band and carrying the version it describes. What every open page fetches when
    the socket says the encounter is at a version it does not show yet, after a reconnect, or when
    it is shown again (combat/broadcast.py). ``?since=<version>``: the oldest version the page shows;
    when it is still the current one, 204 and nothing to swap."""
    encounter = encounter_for_user(user=request.user, encounter_id=encounter_id)
    if not request.htmx:
        return redirect(reverse("encounter_detail", args=[encounter.pk]))
    since = request.GET.get("since", "")
    if _INT.match(since) and int(since) == encounter.version:
        return HttpResponse(status=204)
    fight = encounter_fight(encounter=encounter)
    return HttpResponse(
        render_live(board_of(fight=fight)) + _render_panel(request, encounter, fight=fight, oob=True)
    )


# ------------------------------------------------------------------ writes


def _run(request: HtmxHttpRequest, encounter_id: int, fn, done: str = "", error_at=None) -> HttpResponse:
    encounter = encounter_for_user(user=request.user, encounter_id=encounter_id)
    try:
        result = fn(encounter)
    except SHOWN_INLINE as exc:
        # 200 on purpose for htmx: it does not swap 4xx answers, and the panel shows the refusal.
        # A stale page's 409 is swapped by the page's script (static/js/encounter.js).
        stale = isinstance(exc, Conflict)
        return _reply(request, encounter, error=_message(exc), stale=stale, error_at=error_at)
    return _reply(request, encounter, done=result if isinstance(result, str) else done)


def _expected(request: HtmxHttpRequest) -> dict[str, Any]:
    """The version the page was drawn from and the request's id, as the forms post them (a form
    from before they carried them has neither: it is applied as it always was)."""
    return {
        "expected_version": post_whole_number(
            request.POST, "expected_version", label="Version", default=None, min_value=0
        ),
        "request_id": post_text(request.POST, "request_id", label="Request", max_length=64) or None,
    }


@login_required
@require_POST
def encounter_add_combatant(request: HtmxHttpRequest, encounter_id: int) -> HttpResponse:
    def add(encounter):
        post = request.POST
        check_post(post, labels={"name": "Name", "group": "Group", "build": "Quick build"})
        if post.get("character"):
            character = post_whole_number(post, "character", label="Character", min_value=1)
            created = services.encounter_add_combatant(
                encounter=encounter, user=request.user, character=character
            )
        else:
            try:
                build = check_json(json.loads(post.get("build") or ""), field="build", label="Quick build")
            except (ValueError, RecursionError) as exc:
                if isinstance(exc, FormInputError):
                    raise
                raise services.InvalidInput("The quick build must be a JSON object.", "build") from None
            count = post_whole_number(post, "count", label="How many", default=1, min_value=0)
            created = services.encounter_add_combatant(
                encounter=encounter,
                user=request.user,
                name=post.get("name", ""),
                build=build,
                count=count,
                group=post.get("group", ""),
            )
        return f"Added {', '.join(c.name for c in created)}."

    return _run(request, encounter_id, add)


@login_required
@require_POST
def encounter_remove_combatant(
    request: HtmxHttpRequest, encounter_id: int, combatant_id: int
) -> HttpResponse:
    return _run(
        request,
        encounter_id,
        lambda e: services.encounter_remove_combatant(
            encounter=e, user=request.user, combatant_id=combatant_id
        ),
        "Removed.",
    )


@login_required
@require_POST
def encounter_start(request: HtmxHttpRequest, encounter_id: int) -> HttpResponse:
    return _run(
        request,
        encounter_id,
        lambda e: services.encounter_start(encounter=e, user=request.user),
        "The encounter has started.",
    )


@login_required
@require_POST
def encounter_next_turn(request: HtmxHttpRequest, encounter_id: int) -> HttpResponse:
    return _run(
        request,
        encounter_id,
        lambda e: services.encounter_next_turn(encounter=e, user=request.user, **_expected(request)),
        "Next turn.",
        error_at="next",
    )


@login_required
@require_POST
def encounter_end(request: HtmxHttpRequest, encounter_id: int) -> HttpResponse:
    return _run(
        request,
        encounter_id,
        lambda e: services.encounter_end(encounter=e, user=request.user),
        "The encounter has ended.",
    )


def _action_from_post(request: HtmxHttpRequest) -> dict[str, Any]:
    """The form's fields as an action request: whole numbers as ints, "true"/"false" as booleans
    (a flag is a hidden "false" followed by a checkbox "true"), empty fields left out. Strictly
    (config.forms.value_of): a NUL or a 40-digit number is a FormInputError (400), not a 500."""
    check_post(request.POST)
    action: dict[str, Any] = {}
    for key in request.POST:
        if key in NOT_PARAMS:
            continue
        value = request.POST.get(key, "")
        if value == "":
            continue
        action[key] = value_of(value, field=key)
    return action


@login_required
@require_POST
def encounter_act(request: HtmxHttpRequest, encounter_id: int) -> HttpResponse:
    def act(encounter):
        # Read only once the encounter is known to be this user's (_run): strangers get the 404.
        action = _action_from_post(request)
        combatant = post_whole_number(request.POST, "combatant", label="Combatant", default=None, min_value=1)
        private = request.POST.getlist("private")[-1:] == ["true"]  # a hidden "false", then the checkbox
        services.encounter_act(
            encounter=encounter,
            user=request.user,
            combatant_id=combatant,
            action=action,
            private=private,
            **_expected(request),
        )
        return ""

    return _run(request, encounter_id, act, error_at=_clicked(request))


def _clicked(request: HtmxHttpRequest) -> tuple[int, str] | None:
    """(combatant id, action id) of the form that was used, for showing its refusal in it."""
    combatant, action = request.POST.get("combatant", ""), request.POST.get("action", "")
    if _INT.match(combatant) and isinstance(action, str) and action:
        return int(combatant), action
    return None


# ------------------------------------------------------------------ effects on combatants

EFFECTS_FRAGMENT = "combat/_encounter_effects.html"


def encounter_effects_context(
    request: HtmxHttpRequest, encounter: Encounter, board: dict[str, Any] | None, state: Any = None
) -> dict[str, Any]:
    """The section's context for this user: shown to the GM of a running encounter (or of one that
    stopped running while they were at it: then only the reason). ``board``: the page's board when
    it has one (its combatants, no query); ``state``: the view's {"error", "done", "values"}."""
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
    combatants = _effects_combatants(encounter, board)
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


def _effects_combatants(encounter: Encounter, board: dict[str, Any] | None) -> list[tuple[int, str]]:
    """(id, name) of the encounter's combatants, in turn order then the others."""
    if board is not None:
        rows = [*board.get("ordered", []), *board.get("unordered", [])]
        return [(r["id"], r["name"]) for r in rows]
    order = list(encounter.order or [])
    found = dict(encounter.combatants.values_list("pk", "name"))
    return [(i, found[i]) for i in order if i in found] + [(i, n) for i, n in found.items() if i not in order]


def _effects_answer(
    request: HtmxHttpRequest, encounter: Encounter, state: dict[str, Any], status: int
) -> HttpResponse:
    if request.htmx:
        context = {
            "fx_form": encounter_effects_context(request, encounter, None, state),
            "encounter": encounter,
        }
        return render(request, EFFECTS_FRAGMENT, context, status=status)
    return render(request, TEMPLATE, _context(request, encounter, effects_state=state), status=status)


def _effects_refused(request: HtmxHttpRequest, encounter: Encounter) -> HttpResponse:
    back = reverse("encounter_detail", args=[encounter.pk])
    context = {"message": "Only the GM puts effects on combatants and takes them off.", "back_url": back}
    return render(request, "form_refused.html", context, status=403)


@login_required
@require_POST
def encounter_effect_apply(request: HtmxHttpRequest, encounter_id: int) -> HttpResponse:
    encounter = encounter_for_user(user=request.user, encounter_id=encounter_id)  # 404 for strangers
    if not encounter_is_gm(request.user, encounter):  # access first: whatever a player posts, 403
        return _effects_refused(request, encounter)
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
        return _effects_answer(request, encounter, {"error": message, "values": values}, 400)
    done = f"{entry['name']} is on {name}."
    if not request.htmx:
        messages.success(request, done)
        return redirect(reverse("encounter_detail", args=[encounter.pk]) + "#encounter-effects")
    encounter.refresh_from_db()
    return _effects_answer(request, encounter, {"done": done, "values": effect_forms.kept_after(values)}, 200)


@login_required
@require_POST
def encounter_effect_remove(request: HtmxHttpRequest, encounter_id: int) -> HttpResponse:
    """The GM panel's "take it off" button: the panel's own answers (``_run``)."""
    encounter = encounter_for_user(user=request.user, encounter_id=encounter_id)
    if not encounter_is_gm(request.user, encounter):
        return _effects_refused(request, encounter)

    def remove(e: Encounter) -> str:
        combatant = post_whole_number(request.POST, "combatant", label="Combatant", min_value=1)
        effect = post_text(request.POST, "effect", label="Effect", max_length=40)
        services.encounter_effect_remove(
            encounter=e, user=request.user, combatant_id=combatant, effect_id=effect
        )
        return "Taken off."

    return _run(request, encounter_id, remove, "Taken off.", error_at=None)
