"""Ascendant play state: Stamina, Hero Points and conditions (beside the build, never priced).

::

    {"stamina": 16, "temp_stamina": 0, "hero_points": 1,
     "conditions": [{"id": "frightened", "value": 2}, {"id": "off_guard"}]}

Conditions come from ``content/conditions.json``; each lists typed modifiers with a
``selector`` — "all" (every check and threshold), "attr:<a>" (what adds that
attribute: its skills, its defense, and Deflection for dex), "deflection",
"perception", "skill.<id>", "defense.<id>" — and a fixed ``value`` or a
``per_value`` multiplied by the condition's value. They stack by
``rulesets.engine.modifiers.stack`` together with the feats' modifiers of the same number
(``derived["breakdown"]``): frightened 2 and sickened 1 are both status penalties, so only
−2 applies.
"""

from __future__ import annotations

import copy
from typing import Any

from rulesets.engine.context import Context
from rulesets.engine.dice import Roller
from rulesets.engine.errors import StateError
from rulesets.engine.fields import action_amount, get_as, is_int, lookup
from rulesets.engine.modifiers import stack
from rulesets.engine.pointer import ptr
from rulesets.engine.report import Issue, Report

from .character import DEFENSES

# ----------------------------------------------------------------- targets


def targets(derived: dict, skills_cat: dict) -> list[dict[str, Any]]:
    """Every number conditions can touch: checks (with their base modifier) and thresholds."""
    out: list[dict[str, Any]] = []
    if "skills" not in derived:
        return out
    feats = derived.get("breakdown") or {}

    def add(tid: str, group: str, value: int, check: bool, tags: set[str]) -> None:
        # A number with feat modifiers starts from its base, and the feats stack with the conditions.
        bd = feats.get(tid)
        out.append(
            {
                "id": tid,
                "group": group,
                "base": bd["base"] if bd else value,
                "check": check,
                "feat_modifiers": bd["modifiers"] if bd else [],
                "tags": tags,
            }
        )

    for skill, value in derived["skills"].items():
        attr = skills_cat.get(skill, {}).get("attribute")
        add(f"skill.{skill}", "skills", value, True, {"all", "skill", f"skill.{skill}", f"attr:{attr}"})
    if "perception" in derived:
        add("perception", "perception", derived["perception"], True, {"all", "perception", "attr:wis"})
    for name, value in derived.get("defenses", {}).items():
        add(
            f"defense.{name}",
            "defenses",
            value,
            True,
            {"all", "defense", f"defense.{name}", f"attr:{DEFENSES[name]}"},
        )
    for lore, value in derived.get("lore_modifiers", {}).items():
        add(f"lore.{lore}", "lores", value, True, {"all", "lore", f"lore.{lore}", "attr:int"})
    if "thresholds" in derived:
        add(
            "deflection",
            "thresholds",
            derived["thresholds"]["deflection"],
            False,
            {"all", "deflection", "attr:dex"},
        )
        spell_attr = derived.get("spell_attribute")
        if "spell" in derived["thresholds"]:  # a caster's spell threshold (W10) moves with its attribute
            add(
                "spell",
                "thresholds",
                derived["thresholds"]["spell"],
                False,
                {"all", "spell", f"attr:{spell_attr}"},
            )
    return out


#: What being encumbered is (W12, HD): the native condition Clumsy at this value, beside any other.
ENCUMBERED = {"id": "clumsy", "value": 1, "encumbered": True}


def loaded(state: Any, derived: dict) -> Any:
    """``state`` as the rolls read it: an encumbered character (``derived["encumbered"]``, more Bulk
    than ``bulk_limit``) is Clumsy 1 as well, a native condition stacked with the others by the typed
    rule (Clumsy 2 already there: still −2). Never stored, so it ends when the load does."""
    if not derived.get("encumbered"):
        return state
    state = state if isinstance(state, dict) else {}
    return {**state, "conditions": [*(state.get("conditions") or []), ENCUMBERED]}


def condition_modifiers(conditions: dict[str, dict], state: Any, tags: set[str]) -> list[dict[str, Any]]:
    mods: list[dict[str, Any]] = []
    for entry in (state or {}).get("conditions", []) if isinstance(state, dict) else []:
        if not isinstance(entry, dict):
            continue
        cond = lookup(conditions, entry.get("id"))
        if cond is None:
            continue
        value = entry.get("value", 1) if is_int(entry.get("value", 1)) else 1
        source = cond["name"] + (f" {value}" if cond.get("valued") else "")
        if entry.get("encumbered"):
            source += " (encumbered)"
        for mod in cond.get("modifiers", []):
            if mod.get("selector") in tags:
                amount = mod["per_value"] * value if "per_value" in mod else mod.get("value", 0)
                mods.append({"value": amount, "type": mod.get("type"), "source": source})
    return mods


# ------------------------------------------------------------------- state


def check_pools(state: Any, derived: dict, conditions: dict, house: dict) -> list[Issue]:
    if not isinstance(state, dict):
        return [Issue("state.malformed", "", "The play state must be an object.")]
    issues: list[Issue] = []
    limits = {
        "stamina": derived.get("max_stamina"),
        "temp_stamina": None,
        "hero_points": house["hero_points_max"],
    }
    for key, top in limits.items():
        value = state.get(key)
        if value is None:
            continue
        if not is_int(value):
            issues.append(
                Issue("state.malformed", ptr(key), f"{key.replace('_', ' ')} must be a whole number.")
            )
        elif value < 0:
            issues.append(
                Issue("state.below_minimum", ptr(key), f"{key.replace('_', ' ')} cannot go below 0.")
            )
        elif top is not None and value > top:
            issues.append(
                Issue(
                    "state.above_maximum",
                    ptr(key),
                    f"{key.replace('_', ' ')} is {value}, above its maximum {top}.",
                )
            )
    conds = state.get("conditions", [])
    if not isinstance(conds, list):
        return issues + [Issue("state.malformed", "/conditions", 'Conditions are a list of {"id", "value"}.')]
    seen: set[str] = set()
    for i, entry in enumerate(conds):
        path = ptr("conditions", i)
        if not isinstance(entry, dict) or not isinstance(entry.get("id"), str):
            issues.append(Issue("state.malformed", path, 'A condition is {"id": "frightened", "value": 2}.'))
            continue
        cond = conditions.get(entry["id"])
        if cond is None:
            issues.append(
                Issue(
                    "state.unknown_condition",
                    path + "/id",
                    f"{entry['id']!r} is not a condition; use one of {', '.join(conditions)}.",
                )
            )
            continue
        if entry["id"] in seen:
            issues.append(
                Issue("state.duplicate", path, f"{cond['name']} is listed twice; keep the higher value.")
            )
        seen.add(entry["id"])
        value = entry.get("value", 1)
        if cond.get("valued"):
            if not is_int(value) or not 1 <= value <= cond.get("max", 99):
                issues.append(
                    Issue(
                        "state.above_maximum" if is_int(value) and value > 1 else "state.malformed",
                        path + "/value",
                        f"{cond['name']} takes a value from 1 to {cond.get('max', 99)}.",
                    )
                )
        elif value not in (1, None):
            issues.append(
                Issue("state.malformed", path + "/value", f"{cond['name']} has no value; leave it out.")
            )
    return issues


def _find(conds: list[dict], cid: str) -> dict | None:
    return next((c for c in conds if isinstance(c, dict) and c.get("id") == cid), None)


def apply_action(
    state: Any, action: Any, derived: dict, conditions: dict, house: dict, name: str
) -> tuple[dict, str]:
    """One play-state change: damage, heal, temp_stamina, add_condition, remove_condition, rest,
    hero_point. Returns (new state, a sentence); raises StateError when refused."""
    if not isinstance(action, dict) or not isinstance(action.get("action"), str):
        raise StateError("state.malformed", 'An action is {"action": "damage", "amount": 5}.')
    broken = [
        i
        for i in check_pools(state if isinstance(state, dict) else {}, derived, conditions, house)
        if i.code in ("state.malformed", "state.unknown_condition", "state.duplicate")
    ]
    if broken:  # repair the state first (the sheet's editor) rather than guess at it
        raise StateError(broken[0].code, broken[0].message, broken[0].path)
    top = derived.get("max_stamina")
    if top is None:
        raise StateError("state.unavailable", "This build's maximum Stamina is unknown; fix the build first.")
    step = ACTIONS.get(action["action"])
    if step is None:
        raise StateError(
            "state.unknown_action",
            f"Ascendant play-state actions are damage, heal, temp_stamina, "
            f"add_condition, remove_condition, rest and hero_point; not {action['action']!r}.",
            "/action",
        )
    table = _Table(state, derived, conditions, house, name, top)
    text = step(table, action)
    return table.new, text


class _Table:
    """The state being changed by one action: a copy of it, with every pool filled in."""

    def __init__(self, state: Any, derived: dict, conditions: dict, house: dict, name: str, top: int):
        new = copy.deepcopy(state) if isinstance(state, dict) else {}
        for key in ("stamina", "temp_stamina", "hero_points", "conditions"):
            if new.get(key) is None:
                new.pop(key, None)
        new.setdefault("stamina", top)
        new.setdefault("temp_stamina", 0)
        new.setdefault("hero_points", house["hero_points_start"])
        new["conditions"] = self.conds = [c for c in new.get("conditions", []) if isinstance(c, dict)]
        self.new, self.derived, self.conditions, self.house, self.name, self.top = (
            new,
            derived,
            conditions,
            house,
            name,
            top,
        )

    def set_condition(self, cid: str, value: int) -> dict:
        """Add condition ``cid`` (a valued one at ``value`` or more); the entry now in the state."""
        cond = self.conditions[cid]
        current = _find(self.conds, cid)
        value = min(value, cond.get("max", 1)) if cond.get("valued") else 1
        if current is None:
            current = {"id": cid, "value": value} if cond.get("valued") else {"id": cid}
            self.conds.append(current)
        elif cond.get("valued"):
            current["value"] = max(current.get("value", 1), value)
        return current

    def drop(self, cid: str) -> None:
        self.conds[:] = [c for c in self.conds if c.get("id") != cid]


def _damage(t: _Table, action: dict) -> str:
    new, amount = t.new, action_amount(action, low=1)
    absorbed = min(new["temp_stamina"], amount)
    new["temp_stamina"] -= absorbed
    was = new["stamina"]
    new["stamina"] = max(0, was - (amount - absorbed))
    text = f"{t.name} takes {amount} damage" + (
        f" ({absorbed} absorbed by temporary Stamina)" if absorbed else ""
    )
    if new["stamina"] == 0 and was > 0:
        wounded = _find(t.conds, "wounded")
        dying = 1 + (wounded.get("value", 1) if wounded else 0)
        t.set_condition("dying", dying)
        t.set_condition("unconscious", 1)
        text += f" and falls unconscious, dying {min(dying, t.conditions['dying'].get('max', 4))}"
    return text + f": {new['stamina']}/{t.top} Stamina."


def _heal(t: _Table, action: dict) -> str:
    new, amount = t.new, action_amount(action, low=1)
    was = new["stamina"]
    new["stamina"] = min(t.top, was + amount)
    text = f"{t.name} recovers {new['stamina'] - was} Stamina: {new['stamina']}/{t.top}."
    if was == 0 and new["stamina"] > 0 and _find(t.conds, "dying"):
        t.drop("dying")
        t.drop("unconscious")
        wounded = _find(t.conds, "wounded")
        t.set_condition("wounded", (wounded.get("value", 1) + 1) if wounded else 1)
        text += " No longer dying (wounded rises by 1)."
    return text


def _temp_stamina(t: _Table, action: dict) -> str:
    t.new["temp_stamina"] = max(
        t.new["temp_stamina"], action_amount(action)
    )  # temporary Stamina does not add up
    return f"{t.name} has {t.new['temp_stamina']} temporary Stamina."


def _add_condition(t: _Table, action: dict) -> str:
    cid, conditions = action.get("id"), t.conditions
    if not isinstance(cid, str) or cid not in conditions:
        raise StateError(
            "state.unknown_condition",
            f"{cid!r} is not a condition; use one of {', '.join(conditions)}.",
            "/id",
        )
    value = action_amount(action, "value", low=1) if conditions[cid].get("valued") else 1
    now = t.set_condition(cid, value)
    return f"{t.name} is {conditions[cid]['name'].lower()}" + (
        f" {now['value']}." if conditions[cid].get("valued") else "."
    )


def _remove_condition(t: _Table, action: dict) -> str:
    cid, conditions = action.get("id"), t.conditions
    if not isinstance(cid, str) or (current := _find(t.conds, cid)) is None:
        raise StateError("state.not_present", f"{t.name} is not {cid}; nothing to remove.", "/id")
    if action.get("value") is not None and conditions.get(cid, {}).get("valued"):
        current["value"] = current.get("value", 1) - action_amount(action, "value", low=1)
        if current["value"] > 0:
            return f"{t.name}'s {conditions[cid]['name'].lower()} drops to {current['value']}."
    t.drop(cid)
    return f"{t.name} is no longer {conditions.get(cid, {}).get('name', cid).lower()}."


def _rest(t: _Table, action: dict) -> str:
    # HD: a night's rest gives back Constitution × level Stamina (at least level).
    new, conditions = t.new, t.conditions
    gain = t.derived.get("level", 1) * max(1, t.derived.get("attributes", {}).get("con", 0))
    was = new["stamina"]
    new["stamina"] = min(t.top, was + gain)
    new["temp_stamina"] = 0
    t.conds[:] = [c for c in t.conds if not conditions.get(c.get("id"), {}).get("ends_on_rest")]
    drained = _find(t.conds, "drained")
    if drained:
        drained["value"] = drained.get("value", 1) - 1
        if drained["value"] <= 0:
            t.drop("drained")
    if new["stamina"] == t.top:
        t.drop("wounded")
    if new["stamina"] > 0:
        t.drop("dying")
        t.drop("unconscious")
    return f"{t.name} rests and recovers {new['stamina'] - was} Stamina: {new['stamina']}/{t.top}."


def _hero_point(t: _Table, action: dict) -> str:
    delta = action.get("delta", -1)
    if not is_int(delta) or delta == 0:
        raise StateError("state.malformed", "delta is +1 (gain) or −1 (spend).", "/delta")
    after = t.new["hero_points"] + delta
    if after < 0:
        raise StateError("state.below_minimum", f"{t.name} has no Hero Point to spend.", "/delta")
    t.new["hero_points"] = min(t.house["hero_points_max"], after)
    return f"{t.name} {'spends' if delta < 0 else 'gains'} a Hero Point ({t.new['hero_points']} left)."


#: The play-state actions, each a named step.
ACTIONS = {
    "damage": _damage,
    "heal": _heal,
    "temp_stamina": _temp_stamina,
    "add_condition": _add_condition,
    "remove_condition": _remove_condition,
    "rest": _rest,
    "hero_point": _hero_point,
}


def labels_for(conditions: dict, state: Any) -> list[str]:
    out = []
    for entry in state.get("conditions", []) if isinstance(state, dict) else []:
        cond = conditions.get(entry.get("id")) if isinstance(entry, dict) else None
        if cond:
            value = entry.get("value", 1)
            why = " (encumbered: more Bulk than you carry)" if entry.get("encumbered") else ""
            out.append(
                f"{cond['name']}{f' {value}' if cond.get('valued') else ''}{why}: {cond.get('text', '')}"
            )
    return out


def effects(derived: dict, conditions: dict, state: Any, skills_cat: dict) -> dict[str, Any]:
    """Per check and threshold: the stacked condition modifiers, and the adjusted numbers."""
    checks: dict[str, Any] = {}
    thresholds: dict[str, int] = {}
    threshold_mods: dict[str, Any] = {}
    state = loaded(state, derived)
    for target in targets(derived, skills_cat):
        stacked = stack(target["feat_modifiers"] + condition_modifiers(conditions, state, target["tags"]))
        entry = {**stacked, "base": target["base"], "modifier": target["base"] + stacked["total"]}
        if target["check"]:
            checks[target["id"]] = entry
            if target["group"] == "defenses":  # a defense's threshold moves with its check
                name = target["id"].split(".", 1)[1]
                thresholds[name] = derived["thresholds"][name] - derived["defenses"][name] + entry["modifier"]
                threshold_mods[name] = stacked
        else:
            thresholds[target["id"]] = entry["modifier"]
            threshold_mods[target["id"]] = stacked
    dying = (
        _find([c for c in (state or {}).get("conditions", []) if isinstance(c, dict)], "dying")
        if isinstance(state, dict)
        else None
    )
    return {
        "checks": checks,
        "thresholds": thresholds,
        "threshold_modifiers": threshold_mods,
        "labels": labels_for(conditions, state),
        "dying": dying.get("value", 1) if dying else 0,
    }


# ------------------------------------------------------------------ the campaign's conditions


def conditions_of(ctx: Context) -> dict[str, dict]:
    """The conditions, with Dying's maximum the campaign's ``dying_max`` (at it, one dies)."""

    def conditions() -> dict[str, dict]:
        found = dict(ctx.catalogue.get("conditions", {}))
        top = ctx.settings.get("dying_max")
        if "dying" in found and isinstance(top, int) and top >= 1 and found["dying"].get("max") != top:
            found["dying"] = _dying_at(found["dying"], top)
        return found

    return ctx.memo("ascendant.conditions", conditions)


def conditions_for(ctx: Context, derived: dict) -> dict[str, dict]:
    """The campaign's conditions as they bear on one character: a feat such as Diehard raises the
    Dying maximum (``derived["dying_max_bonus"]``)."""
    found = conditions_of(ctx)
    bonus = derived.get("dying_max_bonus") if isinstance(derived, dict) else None
    if "dying" not in found or not is_int(bonus) or bonus == 0:
        return found
    top = max(1, found["dying"].get("max", 4) + bonus)
    return ctx.memo(("ascendant.conditions", top), lambda: {**found, "dying": _dying_at(found["dying"], top)})


def _dying_at(dying: dict, top: int) -> dict:
    text = dying.get("text", "").replace(f"dying {dying.get('max', 4)} ", f"dying {top} ")
    return {**dying, "max": top, "text": text}


# ------------------------------------------------------------------ the sheet


def initial(derived: dict, house: dict) -> dict[str, Any]:
    """A new character's play state: full Stamina, the campaign's starting Hero Points."""
    return {
        "stamina": derived.get("max_stamina", 0),
        "temp_stamina": 0,
        "hero_points": house["hero_points_start"],
        "conditions": [],
    }


def house_words(house: dict, defaults: dict) -> str:
    """The house defaults the table plays by, said as such (a campaign's change as its house rule):
    Hero Points, Dying and the multiple attack penalty (RULES.md amendment: "Record as HD")."""

    def whose(*keys: str) -> str:
        return "house default" if all(house.get(k) == defaults.get(k) for k in keys) else "house rule"

    def sizes(key: str) -> str:
        value = house.get(key)
        return "/".join(f"−{n}" for n in value) if isinstance(value, list) else "none"

    return (
        f"Hero Points: at most {house.get('hero_points_max')}, {house.get('hero_points_start')} at the start "
        f"of a session ({whose('hero_points_max', 'hero_points_start')}). Dying {house.get('dying_max')} is "
        f"death ({whose('dying_max')}). Multiple attack penalty {sizes('multiple_attack_penalty')}, agile "
        f"{sizes('agile_attack_penalty')} ({whose('multiple_attack_penalty', 'agile_attack_penalty')})."
    )


def sections(
    derived: dict, state: Any, conditions: dict, house: dict, defaults: dict
) -> list[dict[str, Any]]:
    """The sheet's play-state blocks: the pools (Stamina, temporary Stamina, Hero Points), with the
    house defaults they follow, and conditions."""
    state = state if isinstance(state, dict) else {}
    conds = [c for c in state.get("conditions", []) if isinstance(c, dict)]
    condition_options = [
        {"id": cid, "label": c["name"], "help": c.get("text", ""), "valued": c.get("valued")}
        for cid, c in conditions.items()
    ]
    pools = {**_pools(derived, state, conds, house), "help": house_words(house, defaults)}
    return [
        pools,
        {
            "id": "conditions",
            "label": "Conditions",
            "kind": "list",
            "items": [
                {
                    "id": c.get("id"),
                    "path": ptr("conditions", i),
                    "value": c.get("value"),
                    "label": conditions.get(c.get("id"), {}).get("name", c.get("id")),
                    "help": conditions.get(c.get("id"), {}).get("text", ""),
                }
                for i, c in enumerate(conds)
            ],
            "actions": [
                {
                    "action": "add_condition",
                    "label": "Add a condition",
                    "fields": [
                        {"id": "id", "label": "Condition", "kind": "choice", "options": condition_options},
                        {"id": "value", "label": "Value", "kind": "number", "min": 1},
                    ],
                },
                {
                    "action": "remove_condition",
                    "label": "Remove or lower a condition",
                    "fields": [
                        {"id": "id", "label": "Condition", "kind": "choice", "options": condition_options},
                        {"id": "value", "label": "Lower by (empty: remove)", "kind": "number", "min": 1},
                    ],
                },
            ],
        },
    ]


def _pools(derived: dict, state: dict, conds: list[dict], house: dict) -> dict[str, Any]:
    top = derived.get("max_stamina")
    dying = next((c.get("value", 1) for c in conds if c.get("id") == "dying"), 0)
    status = (
        f"dying {dying}"
        if dying
        else ("unconscious" if any(c.get("id") == "unconscious" for c in conds) else "")
    )
    amount = [{"id": "amount", "label": "Amount", "kind": "number", "min": 1}]
    return {
        "id": "stamina",
        "label": "Stamina",
        "kind": "pools",
        "items": [
            {
                "id": "stamina",
                "label": "Stamina",
                "path": "/stamina",
                "value": state.get("stamina", top),
                "min": 0,
                "max": top,
                "status": status,
            },
            {
                "id": "temp_stamina",
                "label": "Temporary Stamina",
                "path": "/temp_stamina",
                "value": state.get("temp_stamina", 0),
                "min": 0,
                "max": None,
                "status": "",
            },
            {
                "id": "hero_points",
                "label": "Hero Points",
                "path": "/hero_points",
                "value": state.get("hero_points", house["hero_points_start"]),
                "min": 0,
                "max": house["hero_points_max"],
                "status": "",
            },
        ],
        "actions": [
            {"action": "damage", "label": "Take damage", "fields": amount},
            {"action": "heal", "label": "Heal", "fields": amount},
            {"action": "temp_stamina", "label": "Temporary Stamina", "fields": amount},
            {"action": "rest", "label": "Rest for the night", "fields": []},
            {"action": "hero_point", "label": "Spend a Hero Point", "fields": []},
        ],
    }


# ------------------------------------------ the engine's play-state hooks (engine/interfaces.py)
# Stamina, conditions, Dying (the functions above), under the campaign's conditions as they bear on
# the character (``conditions_for``).


def initial_state(build: dict, report: Report, *, ctx: Context) -> dict[str, Any]:
    return initial(report.derived, ctx.settings)


def check_state(state: Any, build: dict, report: Report, *, ctx: Context) -> list[Issue]:
    return check_pools(state, report.derived, conditions_for(ctx, report.derived), ctx.settings)


def state_effects(state: dict, build: dict, report: Report, *, ctx: Context) -> dict[str, Any]:
    """{"checks": {id: stacked}, "thresholds": {name: n}, "threshold_modifiers", "labels", "dying"}."""
    return effects(
        report.derived, conditions_for(ctx, report.derived), state, ctx.catalogue.get("skills", {})
    )


def state_sections(state: dict, build: dict, report: Report, *, ctx: Context) -> list[dict[str, Any]]:
    return sections(
        report.derived,
        state,
        conditions_for(ctx, report.derived),
        ctx.settings,
        ctx.tables.get("house") or {},
    )


def state_action(
    state: dict, action: dict, build: dict, report: Report, *, ctx: Context, roller: Roller | None = None
) -> tuple[dict, str]:
    name = get_as(build, "name", str, "The character")
    return apply_action(
        state, action, report.derived, conditions_for(ctx, report.derived), ctx.settings, name
    )
