"""Our D&D's play state (RULES.md §4 "Play and scenes": hearts, dying, first aid,
recovery, rest, Heroic Inspiration); never priced.

Play state (never priced)::

    {"hp": 10,                 # 0..max_hp
     "unconscious": false,
     "dying": false,           # at 0 HP, counting down
     "dying_rounds": null,     # rounds left, rolled (1d4) on the first dying turn; null before
     "stable": false,          # first aid stopped the countdown (still 0 HP, unconscious)
     "dead": false,
     "inspiration": false,     # Heroic Inspiration: at most one
     "rested": true}           # optional: rested since the campaign clock's last new day (W17)

Actions (``state_action``): ``damage`` {amount} (to −20 HP or below in one blow:
dead; reaching 0 HP — or any damage to a stable character — starts dying), ``heal`` {amount}, ``dying_turn`` (the first one rolls the d4 countdown; each
one rolls a d20 for a miracle — a natural 20 wakes with 1 HP — and later ones count
a round down; none left: dead), ``first_aid`` {stat, td} or {result: "success"}
(stabilises a dying character at 0 HP), ``recover`` {td} (whole turn, not dying:
d20 + con ≥ TD regains con + 1 HP), ``rest`` {interrupted?} (8 hours, needs ≥ 1 HP: all HP back,
inspiration lost; one a day: a second before the campaign clock's next day is refused,
``ourdnd.already_rested``; an interrupted rest confers nothing and may be restarted),
``gain_inspiration``, ``spend_inspiration``, ``set_condition`` {condition: "unconscious" |
"dying", on} (the named effects Unconscious and Dying put into and take out of this state:
on, unconscious; off, awake — refused at 0 HP, where only healing or a miracle wakes; dying on
drops to 0 HP, unconscious and dying; off stops the countdown: stable, unconscious at 0 HP).

Effects (engine/effects.py) reach the two rolls these actions make: ``first_aid`` takes the
helper's roll ({stat, td, mode?}: the helper's effects are the combat's to apply), and ``recover``
rolls ``action["check"]`` when given, the request ``OurDnD.action_with_effects`` makes from the
character's own effects (``CHECK``: never a client's, the ruleset drops one it is sent). The named
effects Unconscious and Dying are held by the flags ``/unconscious`` and ``/dying`` (their catalogue
``held_by``): an action that clears the flag ends the effect.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from rulesets.engine.clock import Passage, Span
from rulesets.engine.context import Context
from rulesets.engine.dice import Roller
from rulesets.engine.errors import OddsError, StateError
from rulesets.engine.fields import action_amount, get_as, is_int
from rulesets.engine.pointer import ptr
from rulesets.engine.report import Issue, Report

from . import dice as dice_rules
from .character import hit_points, is_half_heart

#: The key of a ``recover`` action holding the check to roll, effects applied (set by the ruleset).
CHECK = "check"
#: The conditions ``set_condition`` turns on and off (the named effects Unconscious and Dying).
CONDITIONS = ("unconscious", "dying")


def max_hp(build: dict, report: Report, ctx: Context) -> int:
    if is_int(report.derived.get("max_hp")):
        return report.derived["max_hp"]
    hearts = build.get("hearts", 1)
    if not (is_half_heart(hearts) or (is_int(hearts) and hearts > 0)):
        hearts = 1
    return hit_points(hearts, ctx.settings.get("hp_per_heart", 10))


def initial_state(build: dict, report: Report, ctx: Context) -> dict[str, Any]:
    return {
        "hp": max_hp(build, report, ctx),
        "unconscious": False,
        "dying": False,
        "dying_rounds": None,
        "stable": False,
        "dead": False,
        "inspiration": False,
    }


FLAGS = ("unconscious", "dying", "stable", "dead", "inspiration")


def normal(state: Any, build: dict, report: Report, ctx: Context) -> dict[str, Any]:
    """``state`` read leniently: every key present, HP within 0..max, wrong types replaced by the opening values."""
    out = initial_state(build, report, ctx)
    if isinstance(state, dict):
        hp = state.get("hp")
        if is_int(hp):
            out["hp"] = max(0, min(out["hp"], hp))
        for flag in FLAGS:
            value = state.get(flag)
            if value is True or value is False:
                out[flag] = value
        rounds = state.get("dying_rounds")
        if is_int(rounds):
            out["dying_rounds"] = rounds
        if state.get("rested") is True:
            out["rested"] = True
    return out


def check_state(state: Any, build: dict, report: Report, ctx: Context) -> list[Issue]:
    if not isinstance(state, dict):
        return [Issue("state.malformed", "", 'The play state must be an object such as {"hp": 10}.')]
    issues = []
    top = max_hp(build, report, ctx)
    hp = state.get("hp", top)
    if not is_int(hp):
        issues.append(Issue("state.malformed", "/hp", "HP must be a whole number."))
    elif hp < 0:
        issues.append(Issue("state.below_minimum", "/hp", "HP stops at 0 (a character at 0 is dying)."))
    elif hp > top:
        issues.append(Issue("state.above_maximum", "/hp", f"HP {hp} is above the maximum {top}; lower it."))
    for flag in FLAGS:
        if flag in state and not isinstance(state[flag], bool):
            issues.append(Issue("state.malformed", ptr(flag), f"{flag} must be true or false."))
    rounds = state.get("dying_rounds")
    if rounds is not None and (not is_int(rounds) or rounds < 0):
        issues.append(
            Issue("state.malformed", "/dying_rounds", "Dying rounds are a whole number ≥ 0, or null.")
        )
    if "rested" in state and not isinstance(state["rested"], bool):
        issues.append(Issue("state.malformed", "/rested", "rested must be true or false."))
    for key in state:
        if key not in FLAGS and key not in ("hp", "dying_rounds", "rested"):
            issues.append(Issue("state.unknown", ptr(key), f"The play state has no {key!r}."))
    return issues


def _conditions(st: dict) -> list[tuple[str, str]]:
    out = []
    if st["dead"]:
        return [("dead", "Dead.")]
    if st["dying"]:
        left = (
            "countdown not rolled yet" if st["dying_rounds"] is None else f"{st['dying_rounds']} rounds left"
        )
        out.append(
            ("dying", f"Dying ({left}): first aid (INT or WIS vs TD) stabilises; a natural 20 is a miracle.")
        )
    elif st["stable"]:
        out.append(("stable", "Stable at 0 HP, unconscious: healing wakes them."))
    if st["unconscious"]:
        out.append(("unconscious", "Unconscious."))
    if st["inspiration"]:
        out.append(("inspiration", "Heroic Inspiration: re-roll any d20, or add a d12 to an effort roll."))
    return out


def state_effects(build: dict, report: Report, ctx: Context, state: dict) -> dict[str, Any]:
    st = normal(state, build, report, ctx)
    found = _conditions(st)
    return {
        "conditions": [c for c, _ in found],
        "labels": [t for _, t in found],
        "can_act": not (st["dead"] or st["unconscious"]),
        "inspiration": st["inspiration"],
    }


def state_sections(build: dict, report: Report, ctx: Context, state: dict) -> list[dict[str, Any]]:
    st = normal(state, build, report, ctx)
    top = max_hp(build, report, ctx)
    status = (
        "dead"
        if st["dead"]
        else "dying"
        if st["dying"]
        else "stable"
        if st["stable"]
        else "unconscious"
        if st["unconscious"]
        else ""
    )
    amount = [{"id": "amount", "kind": "number", "min": 1}]
    td = [{"id": "td", "kind": "number", "min": 1, "default": ctx.settings.get("default_td", 12)}]
    return [
        {
            "id": "health",
            "label": "Hit points",
            "kind": "pools",
            "items": [
                {
                    "id": "hp",
                    "label": "HP",
                    "path": "/hp",
                    "value": st["hp"],
                    "min": 0,
                    "max": top,
                    "status": status,
                }
            ],
            "actions": [
                {"action": "damage", "label": "Take damage", "fields": amount},
                {"action": "heal", "label": "Heal", "fields": amount},
                {"action": "recover", "label": "Recover (whole turn: d20 + CON vs TD)", "fields": td},
                {
                    "action": "rest",
                    "label": "Rest (8 hours, one a day)",
                    "fields": [
                        {
                            "id": "interrupted",
                            "label": "Interrupted (combat, an hour of walking or casting): no benefit",
                            "kind": "flag",
                            "default": False,
                        }
                    ],
                },
            ],
        },
        {
            "id": "dying",
            "label": "Dying",
            "kind": "flags",
            "items": [
                {"id": flag, "label": flag.replace("_", " ").capitalize(), "on": st[flag]}
                for flag in ("unconscious", "dying", "stable", "dead")
            ]
            + [
                {
                    "id": "dying_rounds",
                    "label": "Rounds left",
                    "on": st["dying_rounds"] is not None,
                    "value": st["dying_rounds"],
                }
            ],
            "actions": [
                {"action": "dying_turn", "label": "Dying turn (countdown and miracle roll)", "fields": []},
                {
                    "action": "first_aid",
                    "label": "First aid (INT or WIS vs TD)",
                    "fields": [{"id": "stat", "kind": "number", "min": 0}] + td,
                },
            ],
        },
        {
            "id": "inspiration",
            "label": "Heroic Inspiration",
            "kind": "flags",
            "items": [{"id": "inspiration", "label": "Heroic Inspiration", "on": st["inspiration"]}],
            "actions": [
                {"action": "gain_inspiration", "label": "Gain Heroic Inspiration", "fields": []},
                {"action": "spend_inspiration", "label": "Turn in Heroic Inspiration", "fields": []},
            ],
        },
    ]


def _check(roller: Roller, request: dict[str, Any]) -> tuple[bool, str]:
    """Roll a check ``{"stat", "td", "mode"}`` (dice.py): (whether it succeeds, the roll in words)."""
    try:
        roll = dice_rules.roll(request, roller)
    except OddsError as exc:
        raise StateError("state.malformed", str(exc), "/td") from None
    faces = roll["faces"]
    dice = (
        f"d20 {faces[0]}"
        if len(faces) == 1
        else f"2d20 ({request['mode']}) {faces[0]}, {faces[1]} → {roll['natural']}"
    )
    return roll["success"], f"{dice} + {request['stat']} vs TD {request['td']}"


def con_of(build: dict, report: Report) -> int:
    """CON as Recover adds it (gear bonuses included)."""
    con = report.derived.get("stats", {}).get("con", get_as(build, "stats", dict, {}).get("con", 0))
    return con if is_int(con) else 0


def recover_check(action: dict, build: dict, report: Report, ctx: Context) -> dict[str, Any] | None:
    """The check ``recover`` rolls before effects (d20 + CON vs the TD), None for a TD that is no
    whole number (the action refuses it)."""
    td = action.get("td", ctx.settings.get("default_td", 12))
    return {"stat": con_of(build, report), "td": td, "mode": "normal"} if is_int(td) else None


@dataclass(frozen=True)
class _Play:
    """One play-state action being applied: the new state ``st`` (a copy, read leniently), the
    request, the character and the campaign."""

    st: dict[str, Any]
    action: dict[str, Any]
    build: dict
    report: Report
    ctx: Context
    roller: Roller
    top: int  # max HP
    name: str


def _damage(p: _Play) -> tuple[dict, str]:
    """Seed "WHEN YOU REACH 0 HP" and "DEATH": 0 HP is dying; −20 HP (``instant_death_hp``) in one instant is dead."""
    st, action, ctx, name = p.st, p.action, p.ctx, p.name
    amount = action_amount(action)
    before = st["hp"]
    after = before - amount
    if after <= ctx.settings.get("instant_death_hp", -20):
        st.update(hp=0, dead=True, dying=False, stable=False, unconscious=True, dying_rounds=None)
        return st, f"{name} takes {amount} damage and is reduced to {after} HP in one blow: dead instantly."
    st["hp"] = max(0, after)
    log = f"{name} takes {amount} damage: HP {before} → {st['hp']}."
    if st["hp"] == 0 and amount > 0 and not st["dying"]:
        st.update(unconscious=True, dying=True, stable=False, dying_rounds=None)
        log += " Unconscious and dying: roll 1d4 on the next turn for the rounds left."
    return st, log


def _heal(p: _Play) -> tuple[dict, str]:
    """Seed "HEALING": HP back up to the maximum; above 0 a dying or stable character wakes."""
    st, action, top, name = p.st, p.action, p.top, p.name
    amount = action_amount(action)
    before = st["hp"]
    st["hp"] = min(top, before + amount)
    log = f"{name} heals {amount}: HP {before} → {st['hp']}."
    if st["hp"] > 0 and (st["dying"] or st["unconscious"] or st["stable"]):
        st.update(unconscious=False, dying=False, stable=False, dying_rounds=None)
        log += " Back on their feet."
    return st, log


def _dying_turn(p: _Play) -> tuple[dict, str]:
    """Seed "ROLL FOR DYING!" and "MIRACLE": the first turn rolls the countdown, each a d20."""
    st, ctx, roller, name = p.st, p.ctx, p.roller, p.name
    if not st["dying"]:
        raise StateError(
            "ourdnd.not_dying", f"{name} is not dying; there is nothing to count down.", "/dying"
        )
    log = f"{name} is dying."
    first = st["dying_rounds"] is None
    if first:
        st["dying_rounds"] = roller.d(ctx.settings.get("dying_die", 4))
        log += f" Countdown: {st['dying_rounds']} rounds."
    miracle = roller.d(20)
    if miracle == 20:
        st.update(hp=1, unconscious=False, dying=False, stable=False, dying_rounds=None)
        return st, log + " Miracle roll: natural 20! Back awake with 1 HP."
    log += f" Miracle roll: {miracle}."
    if not first:
        st["dying_rounds"] = max(0, st["dying_rounds"] - 1)
        log += f" {st['dying_rounds']} rounds left."
    if st["dying_rounds"] == 0:
        st.update(dead=True, dying=False, dying_rounds=None)
        log += f" {name} dies."
    return st, log


def _first_aid(p: _Play) -> tuple[dict, str]:
    """Seed "FIRST AID": INT or WIS vs TD stops the countdown, with no HP back."""
    st, action, roller, name = p.st, p.action, p.roller, p.name
    if not st["dying"]:
        raise StateError(
            "ourdnd.not_dying", f"{name} is not dying; first aid stops a dying countdown.", "/dying"
        )
    if action.get("result") == "success":
        ok, text = True, "a successful roll"
    else:
        bonus, td, mode = action.get("stat"), action.get("td"), action.get("mode") or "normal"
        if not is_int(bonus) or not is_int(td):
            raise StateError(
                "state.malformed",
                'First aid needs the helper\'s INT or WIS ("stat") and the '
                '"td", or {"result": "success"} for a roll made at the table.',
                "/stat",
            )
        if mode not in dice_rules.MODES:
            raise StateError("state.malformed", "The helper's roll is normal, easy or hard.", "/mode")
        ok, text = _check(roller, {"stat": bonus, "td": td, "mode": mode})
    if not ok:
        return st, f"First aid on {name} fails ({text}); the countdown goes on."
    st.update(dying=False, stable=True, dying_rounds=None, hp=0, unconscious=True)
    return st, f"First aid stabilises {name} ({text}): still unconscious at 0 HP, no longer dying."


def _recover(p: _Play) -> tuple[dict, str]:
    """Seed "RECOVER": the whole turn, not while dying; d20 + CON ≥ TD regains CON + 1 HP."""
    st, action, build, name = p.st, p.action, p.build, p.name
    if st["dying"] or st["unconscious"]:
        raise StateError("ourdnd.cannot_recover", f"{name} cannot recover while unconscious or dying.", "/hp")
    check = action.get(CHECK)
    if not isinstance(check, dict):
        check = recover_check(action, build, p.report, p.ctx)
    if check is None:
        raise StateError("state.malformed", '"td" must be a whole number.', "/td")
    con = con_of(build, p.report)  # what Recover regains: CON + 1, whatever the roll's effects
    ok, text = _check(p.roller, check)
    if not ok:
        return st, f"{name} tries to recover ({text}) and fails."
    before = st["hp"]
    st["hp"] = min(p.top, before + con + 1)
    return st, f"{name} recovers ({text}): HP {before} → {st['hp']}."


def _rest(p: _Play) -> tuple[dict, str]:
    """Seed "RESTING": needs ≥ 1 HP; all hearts back, Heroic Inspiration lost."""
    st, top, name = p.st, p.top, p.name
    if st.get("rested"):
        raise StateError(
            "ourdnd.already_rested",
            f"{name} has already rested in this 24-hour period (\"You can't benefit from more than one "
            "REST in a 24 hour period\"): the next rest comes with a new day on the campaign's clock.",
            "/rested",
        )
    if st["hp"] < 1:
        raise StateError(
            "ourdnd.rest_needs_hp",
            f"{name} needs at least 1 HP at the start of a rest; heal them first.",
            "/hp",
        )
    if p.action.get("interrupted") is True:
        # Seed "INTERRUPTING THE REST": "the REST confers no benefit and must be restarted".
        return st, f"{name}'s rest is interrupted: it confers no benefit and must be restarted."
    lost = " Heroic Inspiration is lost." if st["inspiration"] else ""
    st.update(hp=top, inspiration=False, rested=True)
    return st, f"{name} rests 8 hours and regains all hearts (HP {top}).{lost}"


def _gain_inspiration(p: _Play) -> tuple[dict, str]:
    """Seed "HEROIC INSPIRATION": one at a time."""
    st, name = p.st, p.name
    if st["inspiration"]:
        raise StateError(
            "ourdnd.inspiration_held",
            f"{name} already has Heroic Inspiration (one at most); "
            "give the new one to a party member who lacks it.",
            "/inspiration",
        )
    st["inspiration"] = True
    return st, f"{name} gains Heroic Inspiration."


def _spend_inspiration(p: _Play) -> tuple[dict, str]:
    """Turned in to re-roll a d20 or add a d12 to effort."""
    st, name = p.st, p.name
    if not st["inspiration"]:
        raise StateError(
            "ourdnd.no_inspiration", f"{name} has no Heroic Inspiration to turn in.", "/inspiration"
        )
    st["inspiration"] = False
    return st, f"{name} turns in Heroic Inspiration (re-roll a d20 or add a d12 to effort)."


def _set_condition(p: _Play) -> tuple[dict, str]:
    """The named effects Unconscious and Dying (content/effects.json): their ``apply`` and ``remove``."""
    st, action, name = p.st, p.action, p.name
    condition, on = action.get("condition"), action.get("on")
    if condition not in CONDITIONS:
        raise StateError("state.malformed", f"The condition is one of {', '.join(CONDITIONS)}.", "/condition")
    if not isinstance(on, bool):
        raise StateError("state.malformed", '"on" is true or false.', "/on")
    if condition == "unconscious" and on:
        if st["unconscious"]:
            return st, f"{name} is unconscious already."
        st["unconscious"] = True
        return st, f"{name} drops unconscious."
    if condition == "unconscious":
        if st["hp"] == 0 and (st["dying"] or st["stable"]):
            raise StateError(
                "ourdnd.unconscious_at_0",
                f"{name} is at 0 HP and stays unconscious until healed (or a miracle).",
                "/unconscious",
            )
        if not st["unconscious"]:
            return st, f"{name} is awake already."
        st["unconscious"] = False
        return st, f"{name} wakes up."
    if on:
        if st["dying"]:
            return st, f"{name} is dying already."
        before = st["hp"]
        st.update(hp=0, unconscious=True, dying=True, stable=False, dying_rounds=None)
        return st, (
            f"{name} drops to 0 HP (HP {before} → 0): unconscious and dying; roll 1d4 on the next turn "
            "for the rounds left."
        )
    if not st["dying"]:
        return st, f"{name} is not dying."
    st.update(dying=False, stable=True, dying_rounds=None, hp=0, unconscious=True)
    return st, f"{name}'s dying countdown stops: stable, still unconscious at 0 HP."


#: The actions, each a named step (seed: "HEALTH AND RECOVERY", "HEROIC INSPIRATION").
ACTIONS: dict[str, Callable[[_Play], tuple[dict, str]]] = {
    "damage": _damage,
    "heal": _heal,
    "dying_turn": _dying_turn,
    "first_aid": _first_aid,
    "recover": _recover,
    "rest": _rest,
    "gain_inspiration": _gain_inspiration,
    "spend_inspiration": _spend_inspiration,
    "set_condition": _set_condition,
}


def state_action(
    state: dict, action: dict, build: dict, report: Report, ctx: Context, roller: Roller | None = None
) -> tuple[dict, str]:
    """Apply one of ``ACTIONS`` to a copy of ``state``: (the new state, the log sentence), or
    ``StateError`` with the rule's code when the rules refuse it."""
    if not isinstance(action, dict):
        raise StateError("state.malformed", 'An action must be an object with an "action".')
    st = normal(state, build, report, ctx)
    kind = action.get("action")
    name = get_as(build, "name", str, "The character")
    if st["dead"] and kind not in ("gain_inspiration", "spend_inspiration"):
        raise StateError("ourdnd.dead", f"{name} is dead; no roll or rest brings them back.", "/dead")
    step = ACTIONS.get(kind) if isinstance(kind, str) else None
    if step is None:
        raise StateError(
            "state.unknown_action",
            f"Our D&D has no action {kind!r}; use damage, heal, dying_turn, first_aid, recover, rest, "
            "gain_inspiration, spend_inspiration or set_condition.",
            "/action",
        )
    return step(_Play(st, action, build, report, ctx, roller or Roller(), max_hp(build, report, ctx), name))


def time_passes(state: dict, build: dict, report: Report, *, span: Span, ctx: Context) -> Passage:
    """RULES.md W17 on the campaign's clock: a new day makes the next rest possible again."""
    if span.days <= 0 or not (isinstance(state, dict) and state.get("rested") is True):
        return Passage(state)
    name = get_as(build, "name", str, "The character")
    return Passage({**state, "rested": False}, [f"A new day: {name} may rest again."])
