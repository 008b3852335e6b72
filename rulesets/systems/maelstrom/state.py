"""Maelstrom play state: the health track and current willpower (the roll buttons are in dice.py).

The state object (beside the build on the character, never priced)::

    {
      "health": [null | "bashing" | "lethal" | "aggravated", ...],  one box per level of the
                 health chart (8 by default: Bruised … Incapacitated), top first
      "willpower": 3,          current willpower, 0 … permanent
      "ignore_wounds": false,  a willpower dot was spent to ignore wound penalties for the next
                               action (once per turn; cleared by "end_action")
      "dead": false,           a fatal level was taken
      "acting_normally": false,  at 0 willpower: fully out of combat for a turn, the character acts
                               normally again, still at 0 dots (seed "Zero Willpower"; RULES W18)
      "crippled": {"left_arm": true},  limbs crippled at the Crippled level (limbs.py; RULES W20)
      "safe": false,           at a safe place to recover willpower (the GM says so; RULES W19)
      "resting": false,        actively resting there: a difficulty-8 willpower roll every 12 hours
      "safe_hours": 0,         hours at the safe place towards the next dot (recovery.py)
      "notes": ""
    }

The track is kept ordered by severity: more serious damage fills from the top
(aggravated, then lethal, then bashing). Once the Incapacitated box holds
bashing, a further level turns one bashing level into lethal (or into the more
serious type taken); once it holds lethal or aggravated, any further level is
fatal. The penalty of the lowest box holding damage comes off every action
pool (not willpower rolls); a full track or 0 current willpower incapacitates — at 0 willpower
until the character has been fully out of combat for a turn (``out_of_combat``: they act normally,
still at 0 dots) or an ally rallies them to 1 dot (``rallied``); losing willpower to 0 again
incapacitates again.

Actions for ``state_action`` (refusals raise ``StateError``):

- ``{"action": "damage", "levels": n, "type": "bashing"|"lethal"|"aggravated", "within_track"?: true}``
  (``within_track``: refused, ``maelstrom.track_full``, unless n empty boxes are left: the Wounds
  effect fills boxes and never turns bashing into lethal or kills)
- ``{"action": "heal", "levels": n, "type"?: …}``  least serious damage first, from the bottom
- ``{"action": "spend_willpower", "purpose": "ignore_wounds"|"automatic_success"}``
  (not the last dot for an automatic success: ``maelstrom.last_willpower``)
- ``{"action": "lose_willpower", "dots": n}``  a botched willpower roll
- ``{"action": "recover_willpower", "dots": n}``  rest: 1 dot per 12 safe hours (house rule
  ``willpower_recovery_hours``)
- ``{"action": "end_action"}``  the action that ignored wounds is over
- ``{"action": "out_of_combat"}``  at 0 willpower, fully out of combat for at least one turn (the
  GM marks it; in an encounter, a turn passed out of the fight): acts normally, still at 0 dots
  (``maelstrom.has_willpower`` above 0)
- ``{"action": "rally", "target": <character id>}``  spend a dot to restore an ally at 0 willpower
  to 1 dot (the ally's ``rallied``); ``Ruleset.ally_actions`` pairs them, the service applies both
- ``{"action": "safe_place", "safe": bool, "resting"?: bool}``  the GM says the character is (or
  is no longer) at a safe place, actively resting or not; arriving at 0 dots, the first dot comes
  back at once (seed "Recovering Willpower"); the clock does the rest (recovery.py)
- ``{"action": "cripple", "limb": "left_arm"|"right_arm"|"left_leg"|"right_leg"}``  the storyteller
  cripples a limb once the track has reached Crippled (``maelstrom.not_crippled`` before);
  ``{"action": "heal_limb", "limb": …}`` heals it (limbs.py says what a crippled limb refuses)
- ``{"action": "rallied", "by"?: name}``  restored to 1 dot by an ally (``maelstrom.has_willpower``
  above 0)
"""

from __future__ import annotations

import copy
from typing import Any

from rulesets.engine.context import Context
from rulesets.engine.dice import Roller
from rulesets.engine.errors import StateError
from rulesets.engine.fields import action_amount, is_int
from rulesets.engine.report import Issue, Report

from .character import House, house
from .limbs import LIMBS, crippled

DAMAGE_TYPES = ("bashing", "lethal", "aggravated")
#: How the sheet marks a health box holding each kind of damage.
DAMAGE_MARKS = {"bashing": "/", "lethal": "X", "aggravated": "✱"}
SEVERITY = {None: 0, "bashing": 1, "lethal": 2, "aggravated": 3}
STATE_KEYS = frozenset(
    {
        "health",
        "willpower",
        "ignore_wounds",
        "dead",
        "acting_normally",
        "crippled",
        "safe",
        "resting",
        "safe_hours",
        "notes",
    }
)


def chart_of(report: Report, default_chart: list[dict]) -> list[dict]:
    chart = report.derived.get("health_levels")
    return chart if isinstance(chart, list) and chart else default_chart


def permanent_willpower(build: dict, report: Report, start: int) -> int:
    value = report.derived.get("willpower", build.get("willpower") if isinstance(build, dict) else None)
    return value if is_int(value) and value >= 0 else start


def fresh_state(build: dict, report: Report, chart: list[dict], start: int) -> dict[str, Any]:
    return {
        "health": [None] * len(chart),
        "willpower": permanent_willpower(build, report, start),
        "ignore_wounds": False,
        "dead": False,
        "notes": "",
    }


def check_track(state: Any, chart: list[dict], permanent: int) -> list[Issue]:
    if not isinstance(state, dict):
        return [Issue("state.malformed", "", "The play state must be an object.")]
    issues: list[Issue] = []
    for key in state:
        if key not in STATE_KEYS:
            issues.append(Issue("state.unknown_key", f"/{key}", f"The Maelstrom play state has no {key!r}."))
    health = state.get("health", [])
    if not isinstance(health, list) or len(health) != len(chart):
        issues.append(Issue("state.malformed", "/health", f"health is a list of {len(chart)} boxes."))
    else:
        for i, box in enumerate(health):
            if box is not None and box not in DAMAGE_TYPES:
                issues.append(
                    Issue(
                        "state.malformed",
                        f"/health/{i}",
                        "A health box is empty (null) or holds bashing, lethal or aggravated damage.",
                    )
                )
        if not issues and [SEVERITY[b] for b in health] != sorted(
            (SEVERITY[b] for b in health), reverse=True
        ):
            issues.append(
                Issue(
                    "maelstrom.health_order",
                    "/health",
                    "More serious damage fills the track from "
                    "the top: aggravated, then lethal, then bashing, then empty boxes.",
                )
            )
    willpower = state.get("willpower", permanent)
    if not is_int(willpower):
        issues.append(Issue("state.malformed", "/willpower", "Current willpower is a whole number of dots."))
    elif willpower < 0:
        issues.append(Issue("state.below_minimum", "/willpower", "Current willpower cannot be below 0."))
    elif willpower > permanent:
        issues.append(
            Issue(
                "state.above_maximum",
                "/willpower",
                f"Current willpower {willpower} is above the permanent {permanent}.",
            )
        )
    held = state.get("crippled", {})
    if not isinstance(held, dict) or any(k not in LIMBS or not isinstance(v, bool) for k, v in held.items()):
        issues.append(
            Issue("state.malformed", "/crippled", f"Crippled limbs are {{limb: true}} of {', '.join(LIMBS)}.")
        )
    if "safe_hours" in state and not (is_int(state["safe_hours"]) and state["safe_hours"] >= 0):
        issues.append(
            Issue("state.malformed", "/safe_hours", "Hours at a safe place are a whole number ≥ 0.")
        )
    for key in ("ignore_wounds", "dead", "acting_normally", "safe", "resting"):
        if key in state and not isinstance(state[key], bool):
            issues.append(Issue("state.malformed", f"/{key}", f"{key} is true or false."))
    if "notes" in state and not isinstance(state["notes"], str):
        issues.append(Issue("state.malformed", "/notes", "Notes must be text."))
    return issues


def normalised(state: Any, chart: list[dict], permanent: int) -> dict[str, Any]:
    """A usable copy of a state (tolerant of missing keys; refuses a broken one)."""
    if state is None:
        state = {}
    if not isinstance(state, dict):
        raise StateError("state.malformed", "The play state must be an object.")
    out = copy.deepcopy(state)
    health = out.get("health")
    if health is None:
        health = [None] * len(chart)
    if not isinstance(health, list) or any(b is not None and b not in DAMAGE_TYPES for b in health):
        raise StateError("state.malformed", "The health track is damaged; reset it.", "/health")
    health = (health + [None] * len(chart))[: len(chart)]
    health.sort(key=lambda b: -SEVERITY[b])
    out["health"] = health
    wp = out.get("willpower", permanent)
    out["willpower"] = wp if is_int(wp) and 0 <= wp else permanent
    out["ignore_wounds"] = bool(out.get("ignore_wounds", False))
    out["dead"] = bool(out.get("dead", False))
    # Acting normally is only a thing at 0 willpower: a dot back (or a fresh drop to 0) ends it.
    out["acting_normally"] = out.get("acting_normally") is True and out["willpower"] == 0
    out["crippled"] = {k: True for k in crippled(out)}
    out["safe"] = out.get("safe") is True
    out["resting"] = out["safe"] and out.get("resting") is True
    hours = out.get("safe_hours", 0)
    out["safe_hours"] = hours if is_int(hours) and hours >= 0 and out["safe"] else 0
    out.setdefault("notes", "")
    return out


def set_willpower(s: dict, willpower: int) -> None:
    """Set current willpower (every action that changes it, and recovery.py, go through here). Acting normally at 0
    survives only staying at 0: a dot back ends it, and reaching 0 from above incapacitates afresh
    (seed "Zero Willpower")."""
    if willpower or s["willpower"]:
        s["acting_normally"] = False
    s["willpower"] = willpower


def effects(state: Any, chart: list[dict], permanent: int) -> dict[str, Any]:
    try:
        s = normalised(state, chart, permanent)
    except StateError:
        s = normalised({}, chart, permanent)
    health = s["health"]
    filled = sum(1 for b in health if b is not None)
    penalty, level = 0, None
    for i in range(filled - 1, -1, -1):
        if is_int(chart[i].get("penalty")):
            penalty = chart[i]["penalty"]
            break
    if filled:
        level = chart[filled - 1]["label"]
    full = filled == len(health)
    broken = s["willpower"] == 0 and not s["acting_normally"]
    incapacitated = full or broken
    labels = []
    if s["dead"]:
        labels.append("Dead")
    elif full:
        labels.append("Incapacitated: cannot act")
    elif level:
        labels.append(f"{level} ({penalty:+d} dice)" if penalty else level)
    if broken and not s["dead"]:
        labels.append("No willpower left: incapacitated")
    elif s["willpower"] == 0 and not s["dead"]:
        labels.append("No willpower left: acting normally (a safe place brings a dot back)")
    if s["ignore_wounds"]:
        labels.append("Ignoring wound penalties this action")
    for limb in crippled(s):
        labels.append(f"Crippled {LIMBS[limb]}")
    if s["safe"]:
        labels.append("At a safe place, actively resting" if s["resting"] else "At a safe place")
    return {
        "wound_penalty": 0 if s["ignore_wounds"] else penalty,
        "wound_level": level,
        "incapacitated": incapacitated or s["dead"],
        "dead": s["dead"],
        "willpower": s["willpower"],
        "willpower_max": permanent,
        "ignore_wounds": s["ignore_wounds"],
        "acting_normally": s["acting_normally"],
        "crippled": crippled(s),
        "safe": s["safe"],
        "resting": s["resting"],
        "damage": {t: sum(1 for b in health if b == t) for t in DAMAGE_TYPES},
        "labels": labels,
    }


def sections(state: Any, chart: list[dict], permanent: int, recovery_hours: int = 12) -> list[dict[str, Any]]:
    try:
        s = normalised(state, chart, permanent)
    except StateError:
        s = normalised({}, chart, permanent)
    type_field = {
        "id": "type",
        "label": "Damage",
        "kind": "choice",
        "options": [{"id": t, "label": t.title()} for t in DAMAGE_TYPES],
    }
    levels_field = {"id": "levels", "label": "Levels", "kind": "number", "min": 1, "default": 1}
    dots_field = {"id": "dots", "label": "Dots", "kind": "number", "min": 1, "default": 1}
    eff = effects(s, chart, permanent)
    limb_field = {
        "id": "limb",
        "label": "Limb",
        "kind": "choice",
        "options": [{"id": k, "label": v.capitalize()} for k, v in LIMBS.items()],
    }
    limb_actions: list[dict[str, Any]] = []
    if reached_crippled(s["health"], chart) and len(crippled(s)) < len(LIMBS) and not s["dead"]:
        limb_actions.append(
            {"action": "cripple", "label": "Cripple a limb (the GM picks)", "fields": [limb_field]}
        )
    if crippled(s):
        limb_actions.append(
            {
                "action": "heal_limb",
                "label": "A crippled limb heals",
                "fields": [
                    {
                        **limb_field,
                        "options": [{"id": k, "label": LIMBS[k].capitalize()} for k in crippled(s)],
                    }
                ],
            }
        )
    zero: list[dict[str, Any]] = []
    if s["willpower"] == 0 and not s["acting_normally"] and not s["dead"]:
        zero.append(
            {"action": "out_of_combat", "label": "Out of combat for a turn: act again at 0", "fields": []}
        )
    if s["willpower"] > 0 and not s["dead"]:
        zero.append(
            {
                "action": "rally",
                "label": "Rally an ally at 0 willpower (1 dot)",
                # "character": the sheet offers the campaign's other characters in play.
                "fields": [{"id": "target", "label": "Who", "kind": "character"}],
            }
        )
    return [
        {
            "id": "health",
            "label": "Health",
            "kind": "track",
            "status": ", ".join(eff["labels"]),
            "items": [
                {
                    "label": level["label"],
                    "penalty": level.get("penalty"),
                    "damage": box,
                    "mark": DAMAGE_MARKS.get(box, "■") if box else "",
                    "severity": SEVERITY.get(box, 0),
                }
                for level, box in zip(chart, s["health"], strict=False)
            ],
            "actions": [
                {
                    "action": "damage",
                    "label": "Take damage",
                    "fields": [levels_field, {**type_field, "default": "bashing"}],
                },
                {
                    "action": "heal",
                    "label": "Heal",
                    "fields": [levels_field, {**type_field, "nullable": True}],
                },
                *limb_actions,
            ],
        },
        {
            "id": "willpower",
            "label": "Willpower",
            "kind": "pools",
            "items": [
                {
                    "id": "willpower",
                    "label": "Willpower",
                    "path": "/willpower",
                    "value": s["willpower"],
                    "min": 0,
                    "max": permanent,
                    "status": (
                        ("acting at 0" if s["acting_normally"] else "incapacitated")
                        if s["willpower"] == 0
                        else ""
                    ),
                },
            ],
            "actions": [
                {
                    "action": "spend_willpower",
                    "label": "Spend willpower",
                    "fields": [
                        {
                            "id": "purpose",
                            "label": "To",
                            "kind": "choice",
                            "options": [
                                {"id": "ignore_wounds", "label": "Ignore wound penalties this action"},
                                {
                                    "id": "automatic_success",
                                    "label": "Succeed automatically on a willpower roll",
                                },
                            ],
                        }
                    ],
                },
                {"action": "lose_willpower", "label": "Lose willpower (botch)", "fields": [dots_field]},
                {
                    "action": "recover_willpower",
                    "label": f"Recover willpower ({recovery_hours} safe hours a dot)",
                    "fields": [dots_field],
                },
                {"action": "end_action", "label": "End action", "fields": []},
                {
                    "action": "safe_place",
                    "label": "Safe place (the GM says so)",
                    "fields": [
                        {"id": "safe", "label": "At a safe place", "kind": "flag", "default": s["safe"]},
                        {
                            "id": "resting",
                            "label": "Actively resting",
                            "kind": "flag",
                            "default": s["resting"],
                        },
                    ],
                },
                *zero,
            ],
        },
    ]


def _count(action: dict, key: str) -> int:
    """A whole number ≥ 1 of levels or dots (1 when left out): the engine's ``action_amount``."""
    return action_amount(action if key in action else {**action, key: 1}, key, 1)


def _take_one(health: list, kind: str) -> str:
    """Put one level of ``kind`` on the track; returns "taken", "upgraded" or "fatal"."""
    if health[-1] is None:
        health[health.index(None)] = kind
        health.sort(key=lambda b: -SEVERITY[b])
        return "taken"
    if health[-1] == "bashing":
        # A full track with bashing in the Incapacitated box: one bashing level worsens.
        i = max(j for j, b in enumerate(health) if b == "bashing")
        health[i] = "lethal" if kind == "bashing" else kind
        health.sort(key=lambda b: -SEVERITY[b])
        return "upgraded"
    return "fatal"


def action(state: Any, act: Any, chart: list[dict], permanent: int) -> tuple[dict, str]:
    """Apply one play-state action (module docstring) to a copy of ``state``: (new state, log text)."""
    if not isinstance(act, dict) or not isinstance(act.get("action"), str):
        raise StateError("state.unknown_action", 'An action is an object such as {"action": "damage", ...}.')
    s = normalised(state, chart, permanent)
    step = _ACTIONS.get(act["action"])
    if step is None:
        raise StateError(
            "state.unknown_action",
            f"Maelstrom has no play-state action {act['action']!r}; use "
            "damage, heal, spend_willpower, lose_willpower, recover_willpower, end_action, "
            "out_of_combat, rally, rallied, safe_place, cripple or heal_limb.",
        )
    return step(s, act, chart, permanent)


def _damage(s: dict, act: dict, chart: list[dict], permanent: int) -> tuple[dict, str]:
    levels = _count(act, "levels")
    kind = act.get("type")
    if kind not in DAMAGE_TYPES:
        raise StateError("state.malformed", "Say which damage: bashing, lethal or aggravated.", "/type")
    if s["dead"]:
        raise StateError("maelstrom.dead", "This character is dead; no further damage applies.")
    empty = sum(1 for b in s["health"] if b is None)
    if act.get("within_track") is True and levels > empty:
        raise StateError(
            "maelstrom.track_full",
            f"The health track has {empty} empty box{'' if empty == 1 else 'es'} left, not {levels}.",
            "/levels",
        )
    for _ in range(levels):
        if _take_one(s["health"], kind) == "fatal":
            s["dead"] = True
            return s, f"Takes {levels} {kind} — a fatal wound: the character dies."
    eff = effects(s, chart, permanent)
    return s, f"Takes {levels} level{'s' if levels > 1 else ''} of {kind} damage; now {eff['wound_level']}."


def _heal(s: dict, act: dict, chart: list[dict], permanent: int) -> tuple[dict, str]:
    levels = _count(act, "levels")
    kind = act.get("type")
    health = s["health"]
    if kind is not None and kind not in DAMAGE_TYPES:
        raise StateError(
            "state.malformed", "Heal bashing, lethal or aggravated damage (or leave type out).", "/type"
        )
    if s["dead"]:
        raise StateError("maelstrom.dead", "The dead do not heal.")
    healable = [i for i, b in enumerate(health) if b is not None and (kind is None or b == kind)]
    if not healable:
        raise StateError(
            "maelstrom.no_damage", f"There is no {kind or ''} damage to heal.".replace("  ", " ")
        )
    healed = 0
    for i in sorted(healable, key=lambda j: (SEVERITY[health[j]], -j))[:levels]:
        health[i] = None
        healed += 1
    health.sort(key=lambda b: -SEVERITY[b])
    return s, f"Heals {healed} level{'s' if healed > 1 else ''}{' of ' + kind if kind else ''}."


def _spend_willpower(s: dict, act: dict, chart: list[dict], permanent: int) -> tuple[dict, str]:
    purpose = act.get("purpose")
    if purpose not in ("ignore_wounds", "automatic_success"):
        raise StateError(
            "state.malformed", 'Spend willpower to "ignore_wounds" or for an "automatic_success".', "/purpose"
        )
    if s["willpower"] < 1:
        raise StateError("maelstrom.no_willpower", "No willpower left to spend.", "/willpower")
    if purpose == "automatic_success":
        if s["willpower"] < 2:
            raise StateError(
                "maelstrom.last_willpower",
                "The last willpower dot cannot buy an automatic "
                "success: it would leave zero successes. Roll instead.",
                "/willpower",
            )
        set_willpower(s, s["willpower"] - 1)
        return s, f"Spends a willpower dot: succeeds automatically with {s['willpower']} successes."
    if s["ignore_wounds"]:
        raise StateError(
            "maelstrom.wounds_already_ignored",
            "Wound penalties are already ignored for this action (once per turn).",
            "/ignore_wounds",
        )
    set_willpower(s, s["willpower"] - 1)
    s["ignore_wounds"] = True
    return s, "Spends a willpower dot to ignore wound penalties for the next action."


def _lose_willpower(s: dict, act: dict, chart: list[dict], permanent: int) -> tuple[dict, str]:
    lost = min(_count(act, "dots"), s["willpower"])
    set_willpower(s, s["willpower"] - lost)
    tail = " — no willpower left: incapacitated." if s["willpower"] == 0 else "."
    return s, f"Loses {lost} willpower{tail}"


def _recover_willpower(s: dict, act: dict, chart: list[dict], permanent: int) -> tuple[dict, str]:
    dots = _count(act, "dots")
    if s["willpower"] >= permanent:
        raise StateError(
            "maelstrom.willpower_full", "Willpower is already at its permanent rating.", "/willpower"
        )
    gained = min(dots, permanent - s["willpower"])
    set_willpower(s, s["willpower"] + gained)
    return s, f"Recovers {gained} willpower ({s['willpower']} of {permanent})."


def _end_action(s: dict, act: dict, chart: list[dict], permanent: int) -> tuple[dict, str]:
    s["ignore_wounds"] = False
    return s, "The action is over; wound penalties apply again."


def _at_zero(s: dict, what: str) -> None:
    """Refuse ``what`` unless the character is at 0 willpower and alive."""
    if s["dead"]:
        raise StateError("maelstrom.dead", "This character is dead.")
    if s["willpower"] > 0:
        raise StateError(
            "maelstrom.has_willpower",
            f"{what} is for a character at 0 willpower; this one has {s['willpower']} "
            f"dot{'' if s['willpower'] == 1 else 's'} left.",
            "/willpower",
        )


def _out_of_combat(s: dict, act: dict, chart: list[dict], permanent: int) -> tuple[dict, str]:
    """Seed "Zero Willpower": "Once a character is longer directly threatened … they can recover by
    themselves and act normally. This requires being fully out of combat for at least one turn …
    However, this only resolves the incapacitation and does not recover a dot of willpower." """
    _at_zero(s, "Recovering out of combat")
    if s["acting_normally"]:
        raise StateError(
            "maelstrom.already_acting", "Already acting normally again (still at 0 willpower).", "/willpower"
        )
    s["acting_normally"] = True
    return s, (
        "Out of combat for a turn: collects themselves and acts normally again, still at 0 willpower "
        "(a safe place to rest brings a dot back)."
    )


def _rally(s: dict, act: dict, chart: list[dict], permanent: int) -> tuple[dict, str]:
    """The rallying ally's half (seed: "they may spend one dot of their own willpower to restore
    nearby incapacitated characters to one dot"); the last dot may go (then they are at 0)."""
    if s["dead"]:
        raise StateError("maelstrom.dead", "The dead rally no one.")
    if s["willpower"] < 1:
        raise StateError("maelstrom.no_willpower", "No willpower left to rally anyone with.", "/willpower")
    set_willpower(s, s["willpower"] - 1)
    who = act.get("target_name")
    whom = who.strip()[:120] if isinstance(who, str) and who.strip() else "an ally"
    tail = " — no willpower left: incapacitated." if s["willpower"] == 0 else "."
    return s, f"Spends a willpower dot to rally {whom}{tail}"


def _rallied(s: dict, act: dict, chart: list[dict], permanent: int) -> tuple[dict, str]:
    """The rallied character's half: back to one dot."""
    _at_zero(s, "Rallying")
    if permanent < 1:
        raise StateError(
            "maelstrom.no_willpower", "A permanent willpower of 0 cannot be rallied.", "/willpower"
        )
    set_willpower(s, 1)
    by = act.get("by")
    who = f" by {by.strip()[:120]}" if isinstance(by, str) and by.strip() else " by an ally"
    return s, f"Rallied{who}: back to 1 willpower, and acts again."


def reached_crippled(health: list, chart: list[dict]) -> bool:
    """Whether the track's damage has reached the chart's Crippled level (the one so named, else the
    last level before Incapacitated)."""
    names = [str(level.get("id") or level.get("label") or "").lower() for level in chart]
    at = names.index("crippled") if "crippled" in names else max(0, len(chart) - 2)
    return sum(1 for b in health if b is not None) > at


def _limb(act: dict) -> str:
    limb = act.get("limb")
    if limb not in LIMBS:
        raise StateError("state.malformed", f"Say which limb: {', '.join(LIMBS.values())}.", "/limb")
    return limb


def _cripple(s: dict, act: dict, chart: list[dict], permanent: int) -> tuple[dict, str]:
    limb = _limb(act)
    if s["dead"]:
        raise StateError("maelstrom.dead", "The dead are past crippling.")
    if not reached_crippled(s["health"], chart):
        raise StateError(
            "maelstrom.not_crippled",
            "The damage has not reached Crippled on the health track: no limb can be crippled yet.",
            "/health",
        )
    if limb in crippled(s):
        raise StateError("maelstrom.already_crippled", f"The {LIMBS[limb]} is already crippled.", "/crippled")
    s["crippled"] = {**s["crippled"], limb: True}
    return s, f"The {LIMBS[limb]} is crippled: it cannot be used to perform actions until healed."


def _heal_limb(s: dict, act: dict, chart: list[dict], permanent: int) -> tuple[dict, str]:
    limb = _limb(act)
    if limb not in crippled(s):
        raise StateError("maelstrom.not_crippled", f"The {LIMBS[limb]} is not crippled.", "/crippled")
    s["crippled"] = {k: True for k in crippled(s) if k != limb}
    return s, f"The {LIMBS[limb]} heals: it can be used again."


def _safe_place(s: dict, act: dict, chart: list[dict], permanent: int) -> tuple[dict, str]:
    """Seed "Recovering Willpower": "Once a character is able to recover willpower, if they are at zero
    dots, they may immediately recover the first dot. Otherwise, they will regain 1 dot every 12
    hours" (the clock: recovery.py)."""
    safe, resting = act.get("safe"), act.get("resting", False)
    if not isinstance(safe, bool) or not isinstance(resting, bool):
        raise StateError(
            "state.malformed", "Say whether the character is at a safe place (and resting).", "/safe"
        )
    if s["dead"]:
        raise StateError("maelstrom.dead", "The dead recover nothing.")
    was = s["safe"]
    s["safe"], s["resting"] = safe, safe and resting
    if not safe:
        s["safe_hours"] = 0
        return s, "No longer at a safe place: willpower stops coming back."
    if not was:
        s["safe_hours"] = 0
    how = ", actively resting" if s["resting"] else ""
    if s["willpower"] == 0 and permanent > 0:
        set_willpower(s, 1)
        return s, f"At a safe place{how}: the first willpower dot comes back at once (1 of {permanent})."
    return s, f"At a safe place{how}: willpower comes back with the hours on the clock."


_ACTIONS = {
    "damage": _damage,
    "heal": _heal,
    "spend_willpower": _spend_willpower,
    "lose_willpower": _lose_willpower,
    "recover_willpower": _recover_willpower,
    "end_action": _end_action,
    "out_of_combat": _out_of_combat,
    "rally": _rally,
    "rallied": _rallied,
    "safe_place": _safe_place,
    "cripple": _cripple,
    "heal_limb": _heal_limb,
}


def house_of(ctx: Context) -> House:
    """The campaign's house rules (``build.House``), read once per context; the defaults are the
    ruleset's ``content/house.json``, which every context of the ruleset carries in its tables."""
    return house(ctx, ctx.tables["house"])


def play_of(build: dict, report: Report, ctx: Context) -> tuple[list[dict], int, House]:
    """(health chart, permanent willpower, house rules) of a build in the campaign."""
    h = house_of(ctx)
    return chart_of(report, h.health_chart), permanent_willpower(build, report, h.willpower_start), h


#: ``action`` under a name the interface's keyword argument ``action`` does not hide.
apply_action = action


# ------------------------------------------ the engine's play-state hooks (engine/interfaces.py)
# The health track and willpower, under the campaign's house rules (``play_of``).


def initial_state(build: dict, report: Report, *, ctx: Context) -> dict[str, Any]:
    h = house_of(ctx)
    return fresh_state(build, report, chart_of(report, h.health_chart), h.willpower_start)


def check_state(state: Any, build: dict, report: Report, *, ctx: Context) -> list[Issue]:
    chart, permanent, _ = play_of(build, report, ctx)
    return check_track(state, chart, permanent)


def state_effects(state: dict, build: dict, report: Report, *, ctx: Context) -> dict[str, Any]:
    chart, permanent, _ = play_of(build, report, ctx)
    return effects(state, chart, permanent)


def state_sections(state: dict, build: dict, report: Report, *, ctx: Context) -> list[dict[str, Any]]:
    chart, permanent, h = play_of(build, report, ctx)
    return sections(state, chart, permanent, h.willpower_recovery_hours)


def state_action(
    state: dict, action: dict, build: dict, report: Report, *, ctx: Context, roller: Roller | None = None
) -> tuple[dict, str]:
    chart, permanent, _ = play_of(build, report, ctx)
    return apply_action(state, action, chart, permanent)
