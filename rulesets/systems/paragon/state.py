"""Paragon's play state (RULES.md 2 "Play state and combat"), never priced::

    {"pools": {"health": 20, "face": 20, "purity": 20, "stamina": 20,
               "heroism": 5, "dynama": 30, "morale": 12},   # current points, 0..maximum
     "corruption": 0,                  # no maximum; above Purity calls for resistance checks
     "incapacitation_resisted": false, # a Hero Point (or first aid) lifted the incapacitation
     "imposed": {"tired": true}}       # optional: conditions put on whatever the pools say

Hero Points are the current ``heroism`` pool. Conditions are read from the values:
health below half its maximum → incapacitated (unless resisted), 0 → bodily death;
face below 10 → disgraced, 0 → pariah (locked); purity 0 → spiritual death (locked;
with corruption > 0, fallen to the Scourge); stamina below 10 → winded, 0 → tired;
dynama 0 → paralysed; morale 0 → morale failure; corruption > purity → resistance
checks. A pool at 0 that is locked (health, face, purity) refuses every change.

``imposed`` (left out when empty) holds the conditions the GM (or a blow, a power, a forced march)
put on the character whatever its pools say: ``IMPOSABLE``, tired and incapacitated, the two the
effects catalogue applies natively (``content/effects.json``: its ``impose`` and ``lift`` actions,
each effect ``held_by`` its ``/imposed/<condition>``). An imposed incapacitation ends as the seed's
does (a Hero Point, first aid); an imposed tiredness when the character catches their breath (the
seed's way back from Stamina 0); its effect ends with it.
"""

from __future__ import annotations

from typing import Any

from rulesets.engine.clock import Passage, Span
from rulesets.engine.context import Context
from rulesets.engine.dice import Roller
from rulesets.engine.errors import StateError
from rulesets.engine.fields import action_amount, get_as, is_int
from rulesets.engine.pointer import ptr
from rulesets.engine.report import Issue, Report

from . import powers

#: The resources (RULES.md 2 "Derived"): maxima in the build, current points in the play state.
POOLS = ("health", "face", "purity", "stamina", "heroism", "dynama", "morale")

# Pools that, once at 0, stay there (bodily, social and spiritual death).
LOCKED_AT_ZERO = ("health", "face", "purity")
#: Conditions that may be imposed whatever the pools say (``impose`` / ``lift``).
IMPOSABLE = ("tired", "incapacitated")
#: Each condition in a word or two (the party page, the fight's row).
CONDITION_NAMES = {
    "bodily_death": "bodily death",
    "incapacitated": "incapacitated",
    "pariah": "pariah",
    "disgraced": "disgraced",
    "fallen": "fallen to the Scourge",
    "spiritual_death": "spiritual death",
    "resisting_corruption": "resisting corruption",
    "tired": "tired",
    "winded": "winded",
    "paralysed": "paralysed",
    "morale_failure": "morale failure",
}


def maxima(build: dict, report: Report, ctx: Context) -> dict[str, int]:
    """The pools' maxima: the derived resources, else the house defaults for this kind."""
    resources = report.derived.get("resources")
    if isinstance(resources, dict):
        return resources
    kind = "ordinary" if build.get("power_level") is None else "paragon"
    return dict(ctx.settings.get("resources", {}).get(kind, {}))


def initial_state(build: dict, report: Report, ctx: Context) -> dict[str, Any]:
    return {"pools": dict(maxima(build, report, ctx)), "corruption": 0, "incapacitation_resisted": False}


def normal(state: Any, build: dict, report: Report, ctx: Context) -> dict[str, Any]:
    """A usable copy of ``state`` (missing parts filled from a fresh state)."""
    fresh = initial_state(build, report, ctx)
    if not isinstance(state, dict):
        return fresh
    pools = get_as(state, "pools", dict, {})
    out = {
        "pools": {p: pools[p] if is_int(pools.get(p)) else fresh["pools"].get(p, 0) for p in POOLS},
        "corruption": state["corruption"] if is_int(state.get("corruption")) else 0,
        "incapacitation_resisted": state.get("incapacitation_resisted") is True,
    }
    imposed = state.get("imposed")
    if isinstance(imposed, dict):
        kept = {c: True for c in IMPOSABLE if imposed.get(c) is True}
        if kept:
            out["imposed"] = kept
    return out


def check_state(state: Any, build: dict, report: Report, ctx: Context) -> list[Issue]:
    if not isinstance(state, dict):
        return [
            Issue(
                "state.malformed", "", 'The play state must be an object: {"pools": {...}, "corruption": 0}.'
            )
        ]
    issues = []
    top = maxima(build, report, ctx)
    pools = state.get("pools", {})
    if not isinstance(pools, dict):
        return [Issue("state.malformed", "/pools", "Pools must be an object of pool → current points.")]
    for pool, value in pools.items():
        path = ptr("pools", pool)
        if pool not in POOLS:
            issues.append(
                Issue("state.unknown", path, f"There is no pool {pool!r}; the pools are {', '.join(POOLS)}.")
            )
        elif not is_int(value):
            issues.append(Issue("state.malformed", path, f"Current {pool} must be a whole number."))
        elif value < 0:
            issues.append(Issue("state.below_minimum", path, f"Current {pool} cannot be below 0."))
        elif value > top.get(pool, 0):
            issues.append(
                Issue(
                    "state.above_maximum",
                    path,
                    f"Current {pool} {value} is above its maximum {top.get(pool, 0)}; lower it.",
                )
            )
    corruption = state.get("corruption", 0)
    if not is_int(corruption) or corruption < 0:
        issues.append(Issue("state.malformed", "/corruption", "Corruption must be a whole number ≥ 0."))
    flag = state.get("incapacitation_resisted", False)
    if not isinstance(flag, bool):
        issues.append(Issue("state.malformed", "/incapacitation_resisted", "This must be true or false."))
    imposed = state.get("imposed", {})
    if not isinstance(imposed, dict) or any(c not in IMPOSABLE or v is not True for c, v in imposed.items()):
        issues.append(
            Issue(
                "state.malformed",
                "/imposed",
                f"Imposed conditions are an object of {', '.join(IMPOSABLE)}, each true.",
            )
        )
    return issues


def conditions(state: dict, top: dict[str, int]) -> list[tuple[str, str]]:
    """The conditions a state implies: (id, text for the sheet)."""
    pools = state["pools"]
    imposed = state.get("imposed") or {}
    out = []
    health = pools["health"]
    if health == 0:
        out.append(
            ("bodily_death", "Bodily death: Health 0. The character leaves play (perhaps as a ghost).")
        )
    elif "incapacitated" in imposed or (
        health * 2 < top.get("health", 0) and not state["incapacitation_resisted"]
    ):
        why = "Health below half" if health * 2 < top.get("health", 0) else "unable to move or act"
        out.append(
            (
                "incapacitated",
                (
                    f"Incapacitated: {why}. Spend a Hero Point to recover, or "
                    "receive first aid (Healing vs TN 15)."
                ),
            )
        )
    if pools["face"] == 0:
        out.append(("pariah", "Pariah: social death; Face is locked at 0."))
    elif pools["face"] < 10:
        out.append(("disgraced", "Disgraced: Face below 10; acts of charity in the citadel restore it."))
    if pools["purity"] == 0:
        if state["corruption"] > 0:
            out.append(("fallen", "Fallen to the Scourge: Purity 0 with Corruption."))
        out.append(("spiritual_death", "Spiritual death: Purity is locked at 0."))
    elif state["corruption"] > pools["purity"]:
        out.append(("resisting_corruption", "Corruption exceeds Purity: roll checks to resist the Scourge."))
    tired = "one force die fewer on every check (a house default); catch your breath to end it"
    if pools["stamina"] == 0:
        out.append(("tired", f"Tired: Stamina 0, {tired}."))
    elif "tired" in imposed:
        out.append(("tired", f"Tired: worn out, {tired}."))
    if 0 < pools["stamina"] < 10:
        out.append(("winded", "Winded: Stamina below 10."))
    if pools["dynama"] == 0:
        out.append(("paralysed", "Paralysed: Dynama 0."))
    if pools["morale"] == 0:
        out.append(
            (
                "morale_failure",
                ("Morale failure: give up (surrender, flee, cease) or suffer severe penalties."),
            )
        )
    return out


def state_effects(build: dict, report: Report, ctx: Context, state: dict) -> dict[str, Any]:
    st = normal(state, build, report, ctx)
    found = conditions(st, maxima(build, report, ctx))
    ids = [c for c, _ in found]
    return {
        "conditions": ids,
        "labels": [text for _, text in found],
        "can_act": not {"bodily_death", "incapacitated", "paralysed"} & set(ids),
        "hero_points": st["pools"]["heroism"],
        "changes": native_changes(ids, ctx),
    }


def native_changes(held: list[str], ctx: Context) -> list[dict[str, Any]]:
    """What the conditions ``held`` do to the checks: the ``changes`` of the native effects of
    ``content/effects.json`` among them (tired: a force die fewer on every check), however the
    condition came (Stamina 0, or the effect), each named by its effect (``text``). The rolls
    (dice.py, the fight) add them; the engine leaves native effects' numbers to the ruleset."""
    catalogue = ctx.catalogue.get("effects") or {}
    out: list[dict[str, Any]] = []
    for cid in held:
        entry = catalogue.get(cid)
        if isinstance(entry, dict) and entry.get("apply"):
            out.extend({**change, "text": entry.get("name", cid)} for change in entry.get("changes") or ())
    return out


def _pool_status(pool: str, value: int, top: int, st: dict) -> str:
    if pool == "health":
        if value == 0:
            return "bodily death"
        if value * 2 < top:
            return "resisting" if st["incapacitation_resisted"] else "incapacitated"
    if pool == "face":
        return "pariah" if value == 0 else "disgraced" if value < 10 else ""
    if pool == "purity":
        return "spiritual death" if value == 0 else ""
    if pool == "stamina":
        return "tired" if value == 0 else "winded" if value < 10 else ""
    if pool == "dynama":
        return "paralysed" if value == 0 else ""
    if pool == "morale":
        return "morale failure" if value == 0 else ""
    return ""


def state_sections(build: dict, report: Report, ctx: Context, state: dict) -> list[dict[str, Any]]:
    st = normal(state, build, report, ctx)
    top = maxima(build, report, ctx)
    catalogue = ctx.catalogue.get("pools", {})
    amount = [
        {"id": "pool", "kind": "choice", "options": list(POOLS)},
        {"id": "amount", "kind": "number", "min": 1},
    ]
    items = [
        {
            "id": pool,
            "label": catalogue.get(pool, {}).get("name", pool.title()),
            "path": ptr("pools", pool),
            "value": st["pools"][pool],
            "min": 0,
            "max": top.get(pool, 0),
            "status": _pool_status(pool, st["pools"][pool], top.get(pool, 0), st),
        }
        for pool in POOLS
    ]
    found = conditions(st, top)
    return [
        {
            "id": "pools",
            "label": "Resources",
            "kind": "pools",
            "items": items,
            "actions": [
                {"action": "damage", "label": "Lose points", "fields": amount},
                {"action": "restore", "label": "Regain points", "fields": amount},
                {
                    "action": "resist_incapacitation",
                    "label": "Spend a Hero Point to resist incapacitation",
                    "fields": [],
                },
                {"action": "spend_hero_point", "label": "Spend a Hero Point", "fields": []},
                {"action": "first_aid", "label": "First aid (Healing vs TN 15 passed)", "fields": []},
                {"action": "catch_breath", "label": "Sit down and regulate your breathing", "fields": []},
            ],
        },
        {
            "id": "corruption",
            "label": "Corruption",
            "kind": "pools",
            "items": [
                {
                    "id": "corruption",
                    "label": "Corruption",
                    "path": "/corruption",
                    "value": st["corruption"],
                    "min": 0,
                    "max": None,
                    "status": "resisting" if st["corruption"] > st["pools"]["purity"] else "",
                }
            ],
            "actions": [
                {
                    "action": "corrupt",
                    "label": "Gain Corruption",
                    "fields": [{"id": "amount", "kind": "number", "min": 1}],
                },
                {
                    "action": "cleanse",
                    "label": "Cleanse Corruption",
                    "fields": [{"id": "amount", "kind": "number", "min": 1}],
                },
            ],
        },
        *_powers_section(build, ctx, st),
        {
            "id": "conditions",
            "label": "Conditions",
            "kind": "flags",
            "items": [{"id": cid, "label": text, "on": True} for cid, text in found],
        },
    ]


def _powers_section(build: dict, ctx: Context, st: dict) -> list[dict[str, Any]]:
    """A paragon's powers (RULES.md W6): those known, each with its cost and what it does, the form
    to use one (spending Dynama) and ritual sword-worship (regaining it). Ordinary people: none."""
    if not powers.is_paragon(build):
        return []
    known = powers.known(build, ctx)
    have = st["pools"]["dynama"]
    dice_n = ctx.settings.get("sword_worship_dice", 1)
    items = [
        {
            "id": p["id"],
            "label": powers.describe(p, ctx),
            "status": "paralysed (Dynama 0)"
            if have == 0
            else "not enough Dynama"
            if p.get("cost", 0) > have
            else "",
            "text": p.get("text", ""),
        }
        for p in known
    ]
    actions: list[dict[str, Any]] = []
    if known:
        actions.append(
            {
                "action": "use_power",
                "label": "Use a power (spends its Dynama)",
                "fields": [
                    {"id": "power", "label": "Power", "kind": "choice", "options": powers.choices(build, ctx)}
                ],
            }
        )
    actions.append(
        {
            "action": "sword_worship",
            "label": f"Ritual sword-worship (regain {dice_n}d6 Dynama)",
            "fields": [],
        }
    )
    return [
        {
            "id": "powers",
            "label": "Powers",
            "kind": "list",
            "items": items,
            "help": "A paragon knows every power of each force held at the power's rank or more. Dynama "
            "regenerates with rest as the campaign's clock moves; at 0 the character is paralysed.",
            "actions": actions,
        }
    ]


def _pool(action: dict) -> str:
    pool = action.get("pool")
    path = action.get("path")
    if pool is None and isinstance(path, str) and path.startswith("/pools/"):
        pool = path[len("/pools/") :]  # the sheet's steppers name the pool by its path
    if pool not in POOLS:
        raise StateError("state.malformed", f"Name the pool: one of {', '.join(POOLS)}.", "/pool")
    return pool


def state_action(
    state: dict, action: dict, build: dict, report: Report, ctx: Context, roller: Roller | None = None
) -> tuple[dict, str]:
    """Apply one play-state action (``ACTIONS``) to a copy of ``state``: (new state, the log sentence).
    A refused action raises ``StateError``; the caller's state is never touched."""
    if not isinstance(action, dict):
        raise StateError("state.malformed", 'An action must be an object with an "action".')
    kind = action.get("action")
    if kind == "set" and action.get("pool") is None and not str(action.get("path", "")).startswith("/pools/"):
        # Another number with a stepper (Corruption): the generic "set a pool" of the sheet.
        raise StateError("state.unknown_action", "Paragon sets only its pools here.")
    step = ACTIONS.get(kind) if isinstance(kind, str) else None
    if step is None and kind not in ("use_power", "sword_worship"):
        raise StateError(
            "state.unknown_action",
            f"Paragon has no action {kind!r}; use damage, restore, set, resist_incapacitation, first_aid, "
            "spend_hero_point, catch_breath, use_power, sword_worship, corrupt, cleanse, impose or lift.",
            "/action",
        )
    st = normal(state, build, report, ctx)  # a fresh copy: the caller's state is never touched
    st["pools"] = dict(st["pools"])
    name = get_as(build, "name", str, "The character")
    if kind == "use_power":
        return powers.use(st, action, build, ctx, roller, name)
    if kind == "sword_worship":
        return powers.sword_worship(st, action, build, ctx, roller, maxima(build, report, ctx), name)
    assert step is not None  # refused above
    return step(st, action, maxima(build, report, ctx), name, roller)


def _change_pool(
    st: dict, action: dict, top: dict[str, int], name: str, roller: Roller | None
) -> tuple[dict, str]:
    """damage / restore / set a pool; locked pools refuse, conditions reached are named in the log."""
    pools = st["pools"]
    kind = action["action"]
    pool = _pool(action)
    if pool in LOCKED_AT_ZERO and pools[pool] == 0:
        what = {"health": "bodily death", "face": "a pariah's social death", "purity": "spiritual death"}[
            pool
        ]
        raise StateError(
            "paragon.pool_locked",
            f"{pool.title()} is locked at 0 by {what}; it cannot change.",
            ptr("pools", pool),
        )
    before = pools[pool]
    if kind == "set":
        value = action_amount(action, "value")
        if value > top.get(pool, 0):
            raise StateError(
                "state.above_maximum",
                f"{pool.title()} cannot be above its maximum {top.get(pool, 0)}.",
                "/value",
            )
        pools[pool] = value
    elif kind == "damage":
        pools[pool] = max(0, before - action_amount(action))
    else:
        pools[pool] = min(top.get(pool, 0), before + action_amount(action))
    log = f"{name}: {pool} {before} → {pools[pool]}."
    if pool == "health" and pools[pool] < before:
        st["incapacitation_resisted"] = False  # a new blow calls for a new Hero Point
    if pool == "health" and pools[pool] * 2 >= top.get("health", 0):
        st["incapacitation_resisted"] = False
    if pool == "stamina" and pools[pool] < before:
        log += _stamina_morale(st, before, pools[pool], roller)
    found = dict(conditions(st, top))
    for cid in (
        "bodily_death",
        "incapacitated",
        "pariah",
        "disgraced",
        "spiritual_death",
        "fallen",
        "tired",
        "paralysed",
        "morale_failure",
    ):
        if cid in found:
            log += " " + found[cid].split(":")[0] + "."
    return st, log


def _incapacitated(st: dict, top: dict[str, int]) -> bool:
    """Whether the state's incapacitation is there to lift (imposed, or Health below half unresisted)."""
    health = st["pools"]["health"]
    imposed = "incapacitated" in (st.get("imposed") or {})
    return health > 0 and (
        imposed or (health * 2 < top.get("health", 0) and not st["incapacitation_resisted"])
    )


def _lift_incapacitation(st: dict, top: dict[str, int]) -> None:
    """The incapacitation lifted, imposed or not: a Health below half stays resisted until the next blow."""
    _without_imposed(st, "incapacitated")
    if st["pools"]["health"] * 2 < top.get("health", 0):
        st["incapacitation_resisted"] = True


def _resist_incapacitation(
    st: dict, action: dict, top: dict[str, int], name: str, roller: Roller | None
) -> tuple[dict, str]:
    """Seed: "A combatant may resist incapacitation by expending one Hero Point. This can also be
    used to regain capacity on one's own after already being incapacitated"."""
    pools = st["pools"]
    if pools["health"] == 0:
        raise StateError("paragon.pool_locked", "Bodily death cannot be resisted.", "/pools/health")
    if not _incapacitated(st, top):
        raise StateError(
            "paragon.not_incapacitated",
            "Health is not below half its maximum (or the incapacitation is already lifted); "
            "keep the Hero Point.",
            "/pools/health",
        )
    _spend_hero_point(pools)
    _lift_incapacitation(st, top)
    return st, f"{name} spends a Hero Point and stays in the fight ({pools['heroism']} left)."


def _first_aid(
    st: dict, action: dict, top: dict[str, int], name: str, roller: Roller | None
) -> tuple[dict, str]:
    """Seed: "First aid applied after battle (Healing skill check vs TN 15) will remove the incapacitation"."""
    if not _incapacitated(st, top):
        raise StateError(
            "paragon.not_incapacitated",
            "First aid lifts incapacitation; this character is not incapacitated.",
            "/pools/health",
        )
    _lift_incapacitation(st, top)
    return st, f"First aid lifts {name}'s incapacitation."


def _spend_hero_points(
    st: dict, action: dict, top: dict[str, int], name: str, roller: Roller | None
) -> tuple[dict, str]:
    """``amount`` Hero Points (1 when left out) for what ``reason`` says (seizing the offensive, …)."""
    pools = st["pools"]
    amount = action_amount(action, low=1) if "amount" in action else 1
    _spend_hero_point(pools, amount)
    reason = action.get("reason")
    why = f" ({reason})" if isinstance(reason, str) and reason else ""
    what = "a Hero Point" if amount == 1 else f"{amount} Hero Points"
    return st, f"{name} spends {what}{why}; {pools['heroism']} left."


def _catch_breath(
    st: dict, action: dict, top: dict[str, int], name: str, roller: Roller | None
) -> tuple[dict, str]:
    pools = st["pools"]
    before = pools["stamina"]
    pools["stamina"] = top.get("stamina", 0)
    _without_imposed(st, "tired")  # its effect, held by it, ends with it
    return st, f"{name} sits down and regulates their breathing: stamina {before} → {pools['stamina']}."


def _condition(action: dict) -> str:
    condition = action.get("condition")
    if condition not in IMPOSABLE:
        raise StateError(
            "state.malformed", f"Name the condition: one of {', '.join(IMPOSABLE)}.", "/condition"
        )
    return condition


def _without_imposed(st: dict, condition: str) -> bool:
    """Take ``condition`` out of the imposed ones (the key left out when none are left): whether it was there."""
    imposed = dict(st.get("imposed") or {})
    if imposed.pop(condition, None) is None:
        return False
    if imposed:
        st["imposed"] = imposed
    else:
        st.pop("imposed", None)
    return True


def _impose(
    st: dict, action: dict, top: dict[str, int], name: str, roller: Roller | None
) -> tuple[dict, str]:
    """impose: a condition put on the character whatever its pools say (the effects' ``apply``)."""
    condition = _condition(action)
    if st["pools"]["health"] == 0:
        raise StateError("paragon.pool_locked", f"{name} is dead (Health 0).", "/pools/health")
    imposed = st.get("imposed") or {}
    if condition in imposed:
        raise StateError("paragon.already_imposed", f"{name} is {condition} already.", "/condition")
    st["imposed"] = {c: True for c in IMPOSABLE if c in imposed or c == condition}
    return st, f"{name} is {condition}."


def _lift(st: dict, action: dict, top: dict[str, int], name: str, roller: Roller | None) -> tuple[dict, str]:
    """lift: an imposed condition taken off again (the effects' ``remove``); the pools may still hold it."""
    condition = _condition(action)
    if not _without_imposed(st, condition):
        raise StateError("paragon.not_imposed", f"{name} is not {condition} by an effect.", "/condition")
    still = dict(conditions(st, top))
    if condition in still:
        return st, f"{name} is still {condition}: {still[condition].split(': ', 1)[1]}"
    return st, f"{name} is no longer {condition}."


def _corruption(
    st: dict, action: dict, top: dict[str, int], name: str, roller: Roller | None
) -> tuple[dict, str]:
    """corrupt / cleanse: Corruption has no maximum; above Purity it calls for resistance checks."""
    amount = action_amount(action)
    before = st["corruption"]
    st["corruption"] = before + amount if action["action"] == "corrupt" else max(0, before - amount)
    log = f"{name}: corruption {before} → {st['corruption']}."
    if st["corruption"] > st["pools"]["purity"] and st["pools"]["purity"] > 0:
        log += " Corruption exceeds Purity: roll to resist the Scourge."
    return st, log


#: The play-state actions, each a named step ``(state copy, action, maxima, name, roller) → (state, log)``.
ACTIONS = {
    "damage": _change_pool,
    "restore": _change_pool,
    "set": _change_pool,
    "resist_incapacitation": _resist_incapacitation,
    "first_aid": _first_aid,
    "spend_hero_point": _spend_hero_points,
    "catch_breath": _catch_breath,
    "corrupt": _corruption,
    "cleanse": _corruption,
    "impose": _impose,
    "lift": _lift,
}


def _spend_hero_point(pools: dict[str, int], amount: int = 1) -> None:
    """Spend ``amount`` Hero Points (the current heroism pool), or refuse when there are fewer."""
    have = pools["heroism"]
    if have < 1:
        raise StateError(
            "paragon.no_hero_points", "No Hero Points left; act boldly to regain them.", "/pools/heroism"
        )
    if have < amount:
        raise StateError(
            "paragon.no_hero_points",
            f"Only {have} Hero Point{'s' if have != 1 else ''} left, not the {amount} to spend; "
            "spend fewer, or act boldly to regain them.",
            "/pools/heroism",
        )
    pools["heroism"] -= amount


def _stamina_morale(st: dict, before: int, after: int, roller: Roller | None) -> str:
    """Stamina dropping below 10 costs 1d6 Morale, and dropping to 0 another 1d6 (seed)."""
    roller = roller or Roller()
    log = ""
    for crossed, why in ((before >= 10 > after, "below 10"), (before > 0 == after, "to 0: tired")):
        if crossed:
            loss = roller.d(6)
            was = st["pools"]["morale"]
            st["pools"]["morale"] = max(0, was - loss)
            log += f" Stamina {why}: lose {loss} Morale ({was} → {st['pools']['morale']})."
    return log


def time_passes(state: dict, build: dict, report: Report, *, span: Span, ctx: Context) -> Passage:
    """RULES.md W6 on the campaign's clock: Dynama regenerates ``dynama_per_hour_of_rest`` (HD 1) an
    hour, up to its maximum (RULINGS.md: every hour the clock moves is an hour of rest). The rule
    itself is ``powers.regenerate``, the one place Dynama comes back by the hour."""
    if not isinstance(state, dict):
        return Passage(state)
    top = maxima(build, report, ctx).get("dynama", 0)
    if not is_int(top):
        return Passage(state)
    after, sentence = powers.regenerate(state, build, top, span.hours, ctx)
    return Passage(after, [sentence] if sentence else [])
