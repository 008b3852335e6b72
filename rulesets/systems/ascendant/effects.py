"""Ascendant's effects (engine/effects.py): its conditions as named effects, typed custom effects,
and the party page's headline numbers.

Named effects are the conditions
--------------------------------
The catalogue is ``content/conditions.json`` (``catalogue``): each condition is a *native* effect,
applied with the play state's ``add_condition`` (a valued one at the effect's value) and removed with
``remove_condition``, so the state's condition list stays the one truth and the sheet, the rolls and
the fight read it as before. The effect's ``changes`` only describe the condition's numbers
(``describe``): a condition's ``selector`` becomes the rolls it reaches — "all"; "attr:dex" → the
Dexterity skills, Evasion and Deflection; "attr:int" → the Intelligence skills, Clarity and every
Lore ("lore."); "attr:wis" → the Wisdom skills, Spirit and Perception; "skill.<id>", "defense.<id>"
and "perception" as they are — with Deflection, a threshold and not a roll, kept by name
(``"deflection"``). A valued condition's numbers are per point of its value.

The seed (002, "Game Basics") names no condition: it gives the typed rule (of each type only the
highest bonus and the worst penalty; untyped penalties all apply) and one example, an ally's song
giving a +1 status bonus (Inspired). Every other condition's numbers are the house's
(``house_default`` in conditions.json), and the effect's text says so (``HOUSE_TEXT``).

While an effect and its condition both stand, they agree: a play-state action that takes the
condition away (a rest, the sheet's "remove") ends the effects that put it there, and one that lowers
it (frightened 2 → 1) lowers them (``in_step``).

Typed custom effects
--------------------
A custom change ``{"target", "type", "value"}`` joins a request's ``modifiers``. An Ascendant
request's ``modifier`` already counts its ``modifiers`` (dice.py), so it is restacked with the new
ones by the seed's rule (``join``): a +2 status bonus beside frightened 2's −2 status penalty gives
0, beside inspired's +1 status bonus gives +2, not +3. ``"untyped"`` is a modifier without a type
(every one applies).
"""

from __future__ import annotations

from typing import Any

from rulesets.engine import effects as fx
from rulesets.engine.fields import is_int
from rulesets.engine.modifiers import stack

from .character import DEFENSES

#: What a house-default condition's effect says of its numbers.
HOUSE_TEXT = "Not in the rulebook's numbers: a house default."
#: The modifier type a custom effect names for "no type".
UNTYPED = "untyped"


#: Help the table may give a party roll (``Ruleset.roll_aids``): the seed's example of a bonus.
ROLL_AIDS: tuple[dict[str, Any], ...] = (
    {
        "id": "ally_song",
        "label": "An ally's song",
        "text": "A +1 status bonus to the roll; a character with a status bonus of +1 or more already "
        "gains nothing (only the highest status bonus applies).",
        "changes": [{"target": "all", "type": "status", "value": 1}],
    },
)


def targets_of(selector: Any, skills_cat: dict[str, dict]) -> list[str]:
    """The rollable ids (or id prefixes, or "deflection") a condition's ``selector`` reaches."""
    if not isinstance(selector, str):
        return []
    if selector in ("all", "perception", "deflection") or selector.startswith(
        ("skill.", "defense.", "lore.")
    ):
        return [selector]
    if selector in ("skill", "defense", "lore"):
        return [f"{selector}."]
    if selector.startswith("attr:"):
        attr = selector[5:]
        out = [f"skill.{sid}" for sid, skill in skills_cat.items() if skill.get("attribute") == attr]
        if attr == "wis":
            out.append("perception")
        out += [f"defense.{name}" for name, a in DEFENSES.items() if a == attr]
        if attr == "int":
            out.append("lore.")
        if attr == "dex":
            out.append("deflection")
        return out
    return [selector]  # "attack", "spell": rolls of a fight, by name


def describe(cond: dict[str, Any], skills_cat: dict[str, dict]) -> list[dict[str, Any]]:
    """A condition's typed modifiers as effect changes (per point of value for a valued one)."""
    out = []
    for mod in cond.get("modifiers") or ():
        if not isinstance(mod, dict):
            continue
        value = mod.get("per_value", mod.get("value"))
        if not is_int(value) or value == 0:
            continue
        kind = mod.get("type") or UNTYPED
        for target in targets_of(mod.get("selector"), skills_cat):
            out.append({"target": target, "type": kind, "value": value})
    return out


def catalogue(conditions: dict[str, dict], skills_cat: dict[str, dict]) -> dict[str, fx.EffectKind]:
    """The conditions as native named effects (the module's docstring)."""
    out = {}
    for cid, cond in conditions.items():
        valued = bool(cond.get("valued"))
        house = bool(cond.get("house_default"))
        text = str(cond.get("text") or "")
        if house:
            text = f"{text} {HOUSE_TEXT}".strip()
        add: dict[str, Any] = {"action": "add_condition", "id": cid}
        if valued:
            add["value"] = "$value"
        entry = {
            "id": cid,
            "name": cond.get("name") or cid,
            "text": text,
            "valued": valued,
            "max": cond.get("max") if valued else None,
            "changes": describe(cond, skills_cat),
            "apply": [add],
            "remove": [{"action": "remove_condition", "id": cid}],
            "ends_on_rest": bool(cond.get("ends_on_rest")),
            "house_default": house,
        }
        out[cid] = fx.EffectKind.from_entry(entry)
    return out


def join(request: dict[str, Any], added: list[dict[str, Any]]) -> None:
    """Typed bonuses and penalties of effects join ``request``: its ``modifier`` restacked with its
    ``modifiers`` (which it counts) and the new ones, by the seed's rule."""
    counted = request.get("modifiers")
    counted = [m for m in counted if isinstance(m, dict)] if isinstance(counted, list) else []
    new = [{**m, "type": None if m.get("type") in (None, UNTYPED) else m["type"]} for m in added]
    modifier = request.get("modifier")
    if is_int(modifier):
        request["modifier"] = modifier - stack(counted)["total"] + stack(counted + new)["total"]
    request["modifiers"] = counted + new


def in_step(state: dict[str, Any], kinds: dict[str, fx.EffectKind]) -> dict[str, Any]:
    """``state`` with its native effects agreeing with its conditions: an effect whose condition is
    gone ends; one whose condition's value changed takes that value (its name and numbers too)."""
    entries = fx.active_entries(state)
    if not any(e.get("native") for e in entries):
        return state
    present = {
        c.get("id"): c
        for c in state.get("conditions") or ()
        if isinstance(c, dict) and isinstance(c.get("id"), str)
    }
    kept = []
    changed = False
    for entry in entries:
        kind = kinds.get(entry.get("effect") or "")
        if not entry.get("native") or kind is None:
            kept.append(entry)
            continue
        cond = present.get(kind.id)
        if cond is None:
            changed = True
            continue
        value = cond.get("value", 1) if kind.valued else None
        if kind.valued and is_int(value) and value != entry.get("value"):
            entry = {
                **entry,
                "value": value,
                "name": f"{kind.name} {value}",
                "changes": kind.changes_at(value),
            }
            changed = True
        kept.append(entry)
    if not changed:
        return state
    new = {**state, fx.STATE_KEY: kept}
    if not kept:
        new.pop(fx.STATE_KEY)
    return new


def signed(value: int) -> str:
    """A modifier as the dice read it: +2, −1, 0."""
    return f"+{value}" if value > 0 else f"−{abs(value)}" if value < 0 else "0"


def summary(
    derived: dict[str, Any], rollables: list[dict[str, Any]], thresholds: dict[str, Any]
) -> list[dict[str, Any]]:
    """The party page's headline numbers: level, Deflection (the threshold a blow must reach), a
    caster's spell threshold, Perception and the six defenses (the checks a character rolls against what the world does to
    them), each with the conditions and effects that stand applied."""
    if "defenses" not in derived:
        return []
    rolls = {r.get("id"): r.get("request") or {} for r in rollables}

    def modifier(rid: str, fallback: Any) -> Any:
        value = rolls.get(rid, {}).get("modifier", fallback)
        return signed(value) if is_int(value) else value

    deflection = thresholds.get("deflection", (derived.get("thresholds") or {}).get("deflection"))
    out: list[dict[str, Any]] = [{"label": "Level", "value": derived.get("level")}]
    if deflection is not None:
        out.append({"label": "Deflection", "value": deflection})
    spell = thresholds.get("spell", (derived.get("thresholds") or {}).get("spell"))
    if spell is not None:  # a caster's: what a foe's defense check must reach against its spells (W10)
        out.append({"label": "Spell threshold", "value": spell})
    out.append({"label": "Perception", "value": modifier("perception", derived.get("perception"))})
    for name in DEFENSES:
        if name in derived["defenses"]:
            out.append(
                {"label": name.title(), "value": modifier(f"defense.{name}", derived["defenses"][name])}
            )
    return out
