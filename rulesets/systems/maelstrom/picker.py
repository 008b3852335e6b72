"""Maelstrom's roll picker: the sheet composes a roll from two traits instead of listing one
button per attribute × ability pair (seed "Dice Pool": "Usually, this will be an attribute and an
ability. However, occasionally ... two attributes ... there should never be more than two").

The picker's inputs (form values, {name: [values]})::

    attribute        the first trait: an attribute id
    ability          the second trait: an ability id, another attribute's id, or "" (the attribute alone)
    specialties      names of the character's specialties of that ability this roll uses
    required         names of the advanced specialties the task requires (each not used: threshold +1)
    specialties_for  the ability the specialty boxes were drawn for (boxes of another are stale: ignored)
    willpower        "ignore_wounds": spend a willpower dot to roll without the wound penalty

The difficulty and threshold are the table's numbers of the sheet's roll form (odds_form.json),
set on the request afterwards like every roll's. The rules are dice.py's: a talent with no dots
rolls the attribute alone, a skill with no dots the attribute alone at difficulty +1
(``"unskilled"``), a knowledge with no dots cannot be attempted; specialties used ≤ the ability's
dots; the wound penalty comes off the pool unless a willpower dot is spent (state.py's
``spend_willpower`` "ignore_wounds", then ``end_action`` once the roll is made).
"""

from __future__ import annotations

from typing import Any

from rulesets.engine.context import Context
from rulesets.engine.errors import RollInputError
from rulesets.engine.fields import get_as, is_int, name_key
from rulesets.engine.report import Report

from . import character as build_rules
from . import limbs
from .state import effects, permanent_willpower

PICKED = "picked"
TEMPLATE = "maelstrom/roll_picker.html"
SPECIALTIES_TEMPLATE = "maelstrom/roll_picker_specialties.html"
WOUNDS_TEMPLATE = "maelstrom/roll_picker_wounds.html"
GROUPS = (("talent", "Talents"), ("skill", "Skills"), ("knowledge", "Knowledges"))
IGNORE_WOUNDS = "ignore_wounds"


def _one(inputs: dict[str, list[str]], name: str) -> str:
    values = inputs.get(name) or []
    return values[-1].strip() if values else ""


def _traits(build: Any, catalogue: dict) -> tuple[dict[str, int], dict[str, int]]:
    """(attribute → dots, ability → dots) of the build, catalogue order, whole numbers ≥ 0 only."""
    build = build if isinstance(build, dict) else {}
    raw_attrs = get_as(build, "attributes", dict, {})
    raw_abil = get_as(build, "abilities", dict, {})
    attrs = {
        k: raw_attrs[k] for k in catalogue["attributes"] if is_int(raw_attrs.get(k)) and raw_attrs[k] >= 0
    }
    abil = {}
    for key in catalogue["abilities"]:
        dots = raw_abil.get(key, 0)
        abil[key] = dots if is_int(dots) and dots >= 0 else 0
    return attrs, abil


def _own_specialties(build: Any, ctx: Context, ability: str) -> list[dict[str, str]]:
    """The character's specialties of ``ability``: [{"name", "kind"}], in the sheet's order."""
    out, seen = [], set()
    for entry in get_as(build if isinstance(build, dict) else {}, "specialties", list, []):
        if not isinstance(entry, dict) or entry.get("ability") != ability:
            continue
        name = entry.get("name")
        if not isinstance(name, str) or not name_key(name) or name_key(name) in seen:
            continue
        listed = build_rules.find_specialty(ctx, ability, name)
        kind = (listed or {}).get("kind") or entry.get("kind") or "general"
        seen.add(name_key(name))
        out.append({"name": name, "kind": "advanced" if kind == "advanced" else "general"})
    return out


def _requirable(ctx: Context, own: list[dict[str, str]], ability: str) -> list[str]:
    """The advanced specialties a task may require of ``ability``: the rulebook's (and homebrew's),
    then the character's own advanced ones the list does not name."""
    names, seen = [], set()
    for entry in ctx.catalogue.get("specialties", {}).values():
        if (
            entry.get("ability") == ability
            and entry.get("kind") == "advanced"
            and isinstance(entry.get("name"), str)
        ):
            if name_key(entry["name"]) not in seen:
                seen.add(name_key(entry["name"]))
                names.append(entry["name"])
    for spec in own:
        if spec["kind"] == "advanced" and name_key(spec["name"]) not in seen:
            seen.add(name_key(spec["name"]))
            names.append(spec["name"])
    return names


def _default_pair(attrs: dict[str, int], abil: dict[str, int], catalogue: dict) -> tuple[str, str]:
    """No roll picked yet: the character's best ability with its best common attribute."""
    if not attrs:
        return "", ""
    best = max(abil, key=lambda k: abil[k], default="")
    if not best or abil[best] == 0:
        return max(attrs, key=lambda k: attrs[k]), ""
    common = [a for a in catalogue["abilities"][best].get("common_attributes") or [] if a in attrs] or list(
        attrs
    )
    return max(common, key=lambda k: attrs[k]), best


def _pair(
    inputs: dict[str, list[str]], attrs: dict[str, int], abil: dict[str, int], catalogue: dict
) -> tuple[str, str]:
    """The (attribute, second trait) the inputs pick when both are the character's, else the defaults."""
    attribute, second = _one(inputs, "attribute"), _one(inputs, "ability")
    if attribute in attrs and (second == "" or second in abil or (second in attrs and second != attribute)):
        return attribute, second
    return _default_pair(attrs, abil, catalogue)


def picker(
    build: Any,
    report: Report,
    state: Any,
    inputs: dict[str, list[str]] | None,
    ctx: Context,
    chart: list[dict],
    start: int,
) -> dict[str, Any] | None:
    """What maelstrom/roll_picker.html draws: the traits with their dots (the chosen pair
    preselected), the chosen ability's specialties, the willpower offer and what blocks a roll."""
    catalogue = ctx.catalogue
    inputs = inputs or {}
    attrs, abil = _traits(build, catalogue)
    if not attrs:
        return None
    attribute, second = _pair(inputs, attrs, abil, catalogue)
    eff = effects(state, chart, permanent_willpower(build, report, start))
    names = {k: catalogue["attributes"][k]["name"] for k in attrs}
    groups = []
    for category, title in GROUPS:
        options = []
        for key, dots in abil.items():
            entry = catalogue["abilities"][key]
            if entry.get("category", "talent") != category:
                continue
            note = ""
            if not dots:
                note = {
                    "talent": "attribute alone",
                    "skill": "attribute alone, difficulty +1",
                    "knowledge": "cannot be attempted",
                }[category]
            lame = limbs.refusal(entry, limbs.crippled(state))
            if lame:
                note = lame
            options.append(
                {
                    "id": key,
                    "name": entry.get("name", key),
                    "dots": dots,
                    "note": note,
                    "disabled": (category == "knowledge" and not dots) or bool(lame),
                    "selected": key == second,
                }
            )
        if options:
            groups.append({"label": title, "options": options})
    stale = second != _one(inputs, "specialties_for") and "specialties_for" in inputs
    part = specialties_part(build, ctx, second if second in abil else "", inputs, abil, fresh=stale)
    penalty = eff["wound_penalty"]
    blocked = _blocked(eff)
    offer = penalty < 0 and eff["willpower"] >= 1 and not eff["ignore_wounds"] and not blocked
    wounds_shown = _wounds_shown(eff)
    stale_wounds = _stale_wounds(inputs, eff)
    return {
        "template": TEMPLATE,
        "specialties_template": SPECIALTIES_TEMPLATE,
        "wounds_template": WOUNDS_TEMPLATE,
        "refresh": [t for t, on in ((SPECIALTIES_TEMPLATE, stale), (WOUNDS_TEMPLATE, stale_wounds)) if on],
        "wounds_shown": wounds_shown,
        "attributes": [
            {"id": k, "name": names[k], "dots": v, "checked": k == attribute} for k, v in attrs.items()
        ],
        "second_attributes": [
            {"id": k, "name": names[k], "dots": v, "selected": k == second} for k, v in attrs.items()
        ],
        "ability_groups": groups,
        "alone": second == "",
        **part,
        "wound_penalty": penalty,
        "willpower": eff["willpower"],
        "offer_willpower": offer,
        # A play-state change since the box was drawn (a dot spent, a wound taken) unticks it.
        "spend_willpower": _one(inputs, "willpower") == IGNORE_WOUNDS and not stale_wounds,
        "blocked": blocked,
        "inputs": {"attribute": [attribute], "ability": [second], "specialties_for": [part["ability"]]},
    }


def _blocked(eff: dict[str, Any]) -> str:
    return "Dead." if eff["dead"] else "Incapacitated: cannot act." if eff["incapacitated"] else ""


def _wounds_shown(eff: dict[str, Any]) -> str:
    """What the wounds line shows (penalty, willpower left, what blocks a roll): the form sends it
    back, so that a play-state change since it was drawn redraws it."""
    return f"{eff['wound_penalty']}/{eff['willpower']}/{int(eff['ignore_wounds'])}/{_blocked(eff)}"


def _stale_wounds(inputs: dict[str, list[str]], eff: dict[str, Any]) -> bool:
    return "wounds_shown" in inputs and _one(inputs, "wounds_shown") != _wounds_shown(eff)


def specialties_part(
    build: Any,
    ctx: Context,
    ability: str,
    inputs: dict[str, list[str]],
    abil: dict[str, int],
    *,
    fresh: bool = False,
) -> dict[str, Any]:
    """The specialty boxes of ``ability`` (what roll_picker_specialties.html draws); ``fresh``: drawn
    for a newly chosen ability, nothing ticked."""
    own = _own_specialties(build, ctx, ability) if ability else []
    used = set() if fresh else {name_key(v) for v in inputs.get("specialties") or []}
    required = set() if fresh else {name_key(v) for v in inputs.get("required") or []}
    requirable = _requirable(ctx, own, ability) if ability else []
    return {
        "required_open": any(name_key(n) in required for n in requirable),
        "ability": ability,
        "ability_name": ctx.catalogue["abilities"][ability].get("name", ability) if ability else "",
        "ability_dots": abil.get(ability, 0) if ability else 0,
        "own_specialties": [{**s, "checked": name_key(s["name"]) in used} for s in own],
        "requirable": [{"name": n, "checked": name_key(n) in required} for n in requirable],
    }


def picked(
    build: Any,
    report: Report,
    state: Any,
    inputs: dict[str, list[str]],
    ctx: Context,
    chart: list[dict],
    start: int,
    difficulty: int,
) -> dict[str, Any]:
    """The rollable the picker's inputs compose (``Ruleset.picked_roll``); ``RollInputError``
    names the input the rules refuse."""
    catalogue = ctx.catalogue
    attrs, abil = _traits(build, catalogue)
    attribute, second = _one(inputs, "attribute"), _one(inputs, "ability")
    if attribute not in attrs:
        raise RollInputError("attribute", "Pick one of this character's attributes.")
    eff = effects(state, chart, permanent_willpower(build, report, start))
    if eff["dead"] or eff["incapacitated"]:
        raise RollInputError("attribute", "Dead." if eff["dead"] else "Incapacitated: cannot act.")
    names = {k: catalogue["attributes"][k]["name"] for k in attrs}
    pool = attrs[attribute]
    label = names[attribute]
    request: dict[str, Any] = {"pool": 0, "difficulty": difficulty, "threshold": 0}
    used: list[str] = []
    required: list[str] = []
    dots = 0
    if second in abil:
        entry = catalogue["abilities"][second]
        category = entry.get("category", "talent")
        dots = abil[second]
        label = f"{label} + {entry.get('name', second)}"
        why = limbs.refusal(entry, limbs.crippled(state))
        if why:
            raise RollInputError("ability", why)
        if not dots and category == "knowledge":
            raise RollInputError(
                "ability", f"{entry.get('name', second)} is a knowledge: with no dots it cannot be attempted."
            )
        if not dots and category == "skill":
            request["unskilled"] = True
        pool += dots
        if _one(inputs, "specialties_for") in ("", second):  # boxes drawn for another ability: stale
            own = {name_key(s["name"]): s["name"] for s in _own_specialties(build, ctx, second)}
            for name in inputs.get("specialties") or []:
                key = name_key(name)
                if key not in own:
                    raise RollInputError("specialties", f"{label}: this character has no specialty {name!r}.")
                if own[key] not in used:
                    used.append(own[key])
            if len(used) > dots:
                raise RollInputError(
                    "specialties",
                    f"{entry.get('name', second)} has {dots} dot{'' if dots == 1 else 's'}: a roll uses at most "
                    f"{dots} of its specialties.",
                )
            requirable = {
                name_key(n): n for n in _requirable(ctx, list(_own_specialties(build, ctx, second)), second)
            }
            for name in inputs.get("required") or []:
                key = name_key(name)
                if key not in requirable:
                    raise RollInputError(
                        "required", f"{name!r} is not an advanced specialty of {entry.get('name', second)}."
                    )
                if requirable[key] not in required:
                    required.append(requirable[key])
    elif second in attrs and second != attribute:
        pool += attrs[second]
        label = f"{label} + {names[second]}"
    elif second != "":
        raise RollInputError("ability", "Pick one of this character's abilities, another attribute, or none.")
    penalty = eff["wound_penalty"]
    rollable: dict[str, Any] = {"id": PICKED, "label": label, "group": "picked"}
    willpower = _one(inputs, "willpower")
    if willpower not in ("", IGNORE_WOUNDS):
        raise RollInputError("willpower", "Spend a willpower dot to ignore the wound penalty, or do not.")
    if _stale_wounds(inputs, eff):
        willpower = ""  # ticked before the play state changed (a dot already spent): not spent again
    if willpower == IGNORE_WOUNDS and penalty < 0:
        if eff["willpower"] < 1:
            raise RollInputError("willpower", "No willpower left to spend.")
        rollable["state_actions"] = [{"action": "spend_willpower", "purpose": IGNORE_WOUNDS}]
        rollable["after_actions"] = [{"action": "end_action"}]
        rollable["label"] = f"{label} (willpower spent: no wound penalty)"
        penalty = 0
    request["pool"] = min(30, max(0, pool + penalty))
    if used or required:
        request["ability_dots"] = dots
        if used:
            request["specialties"] = used
        if required:
            request["required"] = required
    rollable["request"] = request
    rollable["inputs"] = {"attribute": [attribute], "ability": [second]}
    if penalty:
        rollable["note"] = f"wound penalty {penalty}"
    return rollable
