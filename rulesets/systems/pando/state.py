"""Pando's play state: harm on body parts, resistance harm, stamina and exhaustion.

The state object sits beside the build on a character and is never priced::

    {
      "stamina": 11,                                  # current stamina, 0..max_stamina
      "harm": {"left_arm": 2, "legs": 0, ...},        # body part → harm, 0..maimed amount; missing = 0
      "resistance_harm": {"awareness": 1},           # resistance → harm (each lowers it by 1); missing = 0
      "exhaustion": [{"type": "bleeding", "amount": 2}, {"type": "cold", "amount": 1}],
      "notes": "",
      "money": 5,                                     # W5: what the starting money left (money.py); missing = 0
      "chanced": ["lockpicking"]                      # skills chanced at leisure since the clock moved (W4)
    }

Harm statuses and healing follow the house defaults of ``content/house.json`` (RULES.md HD:
1–2 wounded, 3–4 lame, 5 maimed; wounded heal 1 per day of rest, lame 1 per week, maimed
never; active care by someone with Medicine heals 1 more per period). The hooks get the
campaign's ``Context``, so a campaign's house rules override these defaults here too.

Actions understood by ``apply`` (``{"action": name, ...fields}``):

=====================  ===========================================================
harm                   body_part, amount ≥ 1, protected? (subtract harm protection), bypass?
heal                   body_part, amount ≥ 1 (a maimed part never heals)
resistance_harm        resistance, amount ≥ 1
resistance_heal        resistance, amount ≥ 1
add_exhaustion         type (e.g. "bleeding"), amount ≥ 1
remove_exhaustion      type (every source of it), or index into the list; type and amount: the one
                       source of that type and amount (what a Bleeding effect added)
bandage                removes every Bleeding source
spend_stamina          amount ≥ 1 (refused when there is not that much)
regain_stamina         amount ≥ 1 (up to max stamina)
catch_breath           regain 1 + endurance stamina (HD)
rest                   minutes ≥ 5: stamina back to max
rest_day / rest_week   heal per the HD (care: true for active care with Medicine); stamina to max
set_notes              notes (text)
disarm / take_up       index (an equipment entry), item? (its name): knocked out of the hands
                       (``"disarmed": [index]``, carried until taken up again: W1 "Disarm")
spend_money            amount ≥ 1, what? (on what): refused beyond the money there is (money.py)
gain_money             amount ≥ 1, what? (where from)
take_at_leisure        skill: its action at leisure, no roll, its EP kept to spend (leisure.py; W4)
=====================  ===========================================================
"""

from __future__ import annotations

import copy
from typing import Any

from rulesets.engine.context import Context
from rulesets.engine.dice import Roller
from rulesets.engine.errors import StateError
from rulesets.engine.fields import get_as, is_int, whole_or
from rulesets.engine.pointer import ptr
from rulesets.engine.report import Issue, Report

from . import leisure, loadout, money
from . import outcomes as oc
from .character import HOUSE_NOTE, RESISTANCES, label, starting_money
from .character.common import DEFAULT_PARTS, DEFAULT_VITAL, amount_field
from .leisure import CHANCED, chanced

DAYS_PER_WEEK = 7


class Body:
    """The body parts a state refers to, the harm thresholds and the healing rates."""

    def __init__(self, build: dict, report: Report, catalogue: dict, house: dict):
        species_id = get_as(build, "species", str, "humanoid")
        species = catalogue.get("species", {}).get(species_id)
        protection = report.derived.get("protection")
        if isinstance(protection, dict):  # computed with the campaign's species, homebrew included
            self.parts = list(protection)
        elif species:
            self.parts = list(species["body_parts"])
        else:
            self.parts = list(DEFAULT_PARTS)
        self.vital = [p for p in (species or {}).get("vital", DEFAULT_VITAL) if p in self.parts]
        self.protection: dict[str, dict[str, int]] = protection if isinstance(protection, dict) else {}
        th = house.get("harm_thresholds", {})
        self.wounded, self.lame, self.maimed = th.get("wounded", 1), th.get("lame", 3), th.get("maimed", 5)
        self.healing = house.get("healing", {})
        self.wounded_speed_cost = house.get("wounded_speed_cost", 1)
        self.catch_breath = house.get("catch_breath", {"base": 1, "add_endurance": True})
        self.rest_minutes = house.get("rest_minutes", 5)
        self.max_stamina = report.derived.get("max_stamina")
        attrs = get_as(build, "attributes", dict, {})
        self.endurance = whole_or(attrs, "endurance", 0)
        self.resistances = report.derived.get("resistances")

    def status(self, harm: int) -> str:
        if harm >= self.maimed:
            return "maimed"
        if harm >= self.lame:
            return "lame"
        if harm >= self.wounded:
            return "wounded"
        return "healthy"

    def breath(self) -> int:
        """Stamina regained by Catch Breath (HD: 1 + endurance)."""
        rule = self.catch_breath
        return rule.get("base", 1) + (self.endurance if rule.get("add_endurance") else 0)

    def exhaustion_protection(self, kind: str) -> int:
        """The best cover against one exhaustion type: exhaustion hits the whole character, so a
        coat's protection counts once however many body parts it covers."""
        key = f"exhaustion:{kind}"
        return max((p.get(key, 0) for p in self.protection.values()), default=0)


def fresh_state(body: Body) -> dict[str, Any]:
    return {
        "stamina": body.max_stamina if is_int(body.max_stamina) and body.max_stamina > 0 else 0,
        "harm": {p: 0 for p in body.parts},
        "resistance_harm": {r: 0 for r in RESISTANCES},
        "exhaustion": [],
        "notes": "",
    }


def normalise(state: Any, body: Body) -> dict[str, Any]:
    """A clean copy of ``state``: well-formed values kept, the rest back to their defaults."""
    out = fresh_state(body)
    if not isinstance(state, dict):
        return out
    if is_int(state.get("stamina")) and state["stamina"] >= 0:
        out["stamina"] = state["stamina"]
    harm = state.get("harm")
    if isinstance(harm, dict):
        for part, value in harm.items():
            if part in out["harm"] and is_int(value) and value >= 0:
                out["harm"][part] = min(value, body.maimed)
    rharm = state.get("resistance_harm")
    if isinstance(rharm, dict):
        for res, value in rharm.items():
            if res in out["resistance_harm"] and is_int(value) and value >= 0:
                out["resistance_harm"][res] = value
    exhaustion = state.get("exhaustion")
    if isinstance(exhaustion, list):
        out["exhaustion"] = [
            {"type": e["type"], "amount": e["amount"]}
            for e in exhaustion
            if isinstance(e, dict)
            and isinstance(e.get("type"), str)
            and is_int(e.get("amount"))
            and e["amount"] >= 0
        ]
    if isinstance(state.get("notes"), str):
        out["notes"] = state["notes"]
    held = disarmed(state)
    if held:
        out["disarmed"] = held
    out.update(money.kept(state))
    marked = chanced(state)
    if marked:
        out[CHANCED] = marked
    return out


def disarmed(state: Any) -> list[int]:
    """The equipment indices knocked out of the character's hands (W1 "Disarm": the wielded item
    becomes carried until a use-item action takes it up again); none: []."""
    raw = state.get("disarmed") if isinstance(state, dict) else None
    if not isinstance(raw, list):
        return []
    return sorted({i for i in raw if is_int(i) and i >= 0})


def check_body_state(state: Any, body: Body) -> list[Issue]:
    if not isinstance(state, dict):
        return [Issue("state.malformed", "", "The play state must be an object.")]
    issues: list[Issue] = []
    stamina = state.get("stamina")
    if stamina is not None:
        if not is_int(stamina) or stamina < 0:
            issues.append(Issue("state.malformed", "/stamina", "Stamina is a whole number of 0 or more."))
        elif is_int(body.max_stamina) and stamina > body.max_stamina:
            issues.append(
                Issue(
                    "state.stamina_above_maximum",
                    "/stamina",
                    f"Stamina is {stamina} but this character's max stamina is "
                    f"{body.max_stamina}: lower it to {body.max_stamina} or less.",
                )
            )
    harm = state.get("harm", {})
    if not isinstance(harm, dict):
        issues.append(Issue("state.malformed", "/harm", 'Harm is an object such as {"left_arm": 2}.'))
    else:
        for part, value in harm.items():
            path = ptr("harm", part)
            if part not in body.parts:
                issues.append(
                    Issue(
                        "state.unknown_body_part",
                        path,
                        f"This character has no body part {part!r} (it has {', '.join(body.parts)}).",
                    )
                )
            elif not is_int(value) or value < 0:
                issues.append(Issue("state.malformed", path, "Harm is a whole number of 0 or more."))
            elif value > body.maimed:
                issues.append(
                    Issue(
                        "state.harm_above_maximum",
                        path,
                        f"Harm never goes above the maiming amount, {body.maimed}{HOUSE_NOTE}: "
                        f"set it to {body.maimed} at most.",
                    )
                )
    rharm = state.get("resistance_harm", {})
    if not isinstance(rharm, dict):
        issues.append(
            Issue(
                "state.malformed", "/resistance_harm", 'Resistance harm is an object such as {"insight": 1}.'
            )
        )
    else:
        for res, value in rharm.items():
            path = ptr("resistance_harm", res)
            if res not in RESISTANCES:
                issues.append(
                    Issue(
                        "state.unknown_resistance",
                        path,
                        f"{res!r} is not a resistance: use awareness, insight or willpower.",
                    )
                )
            elif not is_int(value) or value < 0:
                issues.append(
                    Issue("state.malformed", path, "Resistance harm is a whole number of 0 or more.")
                )
    exhaustion = state.get("exhaustion", [])
    if not isinstance(exhaustion, list):
        issues.append(
            Issue(
                "state.malformed",
                "/exhaustion",
                'Exhaustion is a list such as [{"type": "bleeding", "amount": 2}].',
            )
        )
    else:
        for i, source in enumerate(exhaustion):
            if not (
                isinstance(source, dict)
                and isinstance(source.get("type"), str)
                and source["type"]
                and is_int(source.get("amount"))
                and source["amount"] >= 0
            ):
                issues.append(
                    Issue(
                        "state.malformed",
                        ptr("exhaustion", i),
                        'Each exhaustion source is {"type": "bleeding", "amount": n} with n ≥ 0.',
                    )
                )
    notes = state.get("notes")
    if notes is not None and not isinstance(notes, str):
        issues.append(Issue("state.malformed", "/notes", "Notes are text."))
    return issues + _marks_issues(state)


def _marks_issues(state: dict) -> list[Issue]:
    """Problems with the state's lists of marks: the weapons knocked away, the skills chanced."""
    issues = []
    held = state.get("disarmed", [])
    if not (isinstance(held, list) and all(is_int(i) and i >= 0 for i in held)):
        issues.append(
            Issue(
                "state.malformed", "/disarmed", "Disarmed items are a list of equipment numbers (0 or more)."
            )
        )
    marked = state.get(CHANCED, [])
    if not (isinstance(marked, list) and all(isinstance(s, str) and s for s in marked)):
        issues.append(
            Issue("state.malformed", f"/{CHANCED}", "The skills chanced at leisure are a list of skill ids.")
        )
    return issues + money.check(state)


def effects(state: Any, body: Body) -> dict[str, Any]:
    s = normalise(state, body)
    parts = {}
    speed_cost: dict[str, int] = {}
    labels: list[str] = []
    for part in body.parts:
        harm = s["harm"][part]
        status = body.status(harm)
        parts[part] = {"harm": harm, "status": status, "usable": status in ("healthy", "wounded")}
        if status == "wounded":
            speed_cost[part] = body.wounded_speed_cost
            labels.append(
                f"{label(part)} wounded: actions using it cost +{body.wounded_speed_cost} speed" + HOUSE_NOTE
            )
        elif status == "lame":
            labels.append(f"{label(part)} lame: cannot be used until healed" + HOUSE_NOTE)
        elif status == "maimed":
            labels.append(f"{label(part)} maimed: lost for good")
    dead = any(parts[p]["status"] == "maimed" for p in body.vital)
    if dead:
        labels.insert(0, "Dead: a maimed " + " or ".join(label(p).lower() for p in body.vital) + " is fatal.")
    by_type: dict[str, int] = {}
    for source in s["exhaustion"]:
        by_type[source["type"]] = by_type.get(source["type"], 0) + source["amount"]
    exhaustion = {}
    for kind, raw in by_type.items():
        protection = body.exhaustion_protection(kind)
        exhaustion[kind] = {"raw": raw, "protection": protection, "total": max(0, raw - protection)}
    total = sum(e["total"] for e in exhaustion.values())
    out: dict[str, Any] = {
        "body": parts,
        "speed_cost": speed_cost,
        "wounded_speed_cost": body.wounded_speed_cost,
        "unusable": [p for p in body.parts if not parts[p]["usable"]],
        "dead": dead,
        "exhaustion": {"by_type": exhaustion, "total": total},
        "stamina_loss_per_round": max(0, total - body.endurance),
        "labels": labels,
        "disarmed": s.get("disarmed", []),
    }
    if isinstance(body.resistances, dict):
        out["resistances"] = {r: body.resistances[r] - s["resistance_harm"].get(r, 0) for r in RESISTANCES}
    return out


def sections(
    state: Any, build: dict, body: Body, catalogue: dict, *, with_money: bool = False
) -> list[dict[str, Any]]:
    """The sheet's play-state sections (``Ruleset.state_sections``): stamina, resistances, the body,
    exhaustion, money (``with_money``, or when the state holds some) and the sample actions, one named
    step each."""
    s = normalise(state, body)
    fx = effects(s, body)
    return [
        _stamina_section(s, body),
        _resistance_section(s, fx),
        _body_section(s, fx, body, loadout.item_rows(build, catalogue)),
        _exhaustion_section(s, fx, body),
        *([money.section(s)] if with_money or money.KEY in s else []),
        _actions_section(catalogue),
    ]


def _stamina_section(s: dict, body: Body) -> dict[str, Any]:
    max_st = body.max_stamina if is_int(body.max_stamina) else None
    stamina_status = ""
    if max_st is not None and s["stamina"] < max_st:
        stamina_status = f"{max_st - s['stamina']} below max"
    return {
        "id": "stamina",
        "label": "Stamina",
        "kind": "pools",
        "items": [
            {
                "id": "stamina",
                "label": "Stamina",
                "path": "/stamina",
                "value": s["stamina"],
                "min": 0,
                "max": max_st,
                "status": stamina_status,
            }
        ],
        "actions": [
            {"action": "spend_stamina", "label": "Spend", "fields": [amount_field()]},
            {"action": "regain_stamina", "label": "Regain", "fields": [amount_field()]},
            {"action": "catch_breath", "label": f"Catch breath (+{body.breath()}){HOUSE_NOTE}", "fields": []},
            {
                "action": "rest",
                "label": f"Rest {body.rest_minutes} minutes (stamina to max)",
                "fields": [
                    {
                        "id": "minutes",
                        "label": "Minutes",
                        "kind": "number",
                        "min": body.rest_minutes,
                        "default": body.rest_minutes,
                    }
                ],
            },
        ],
    }


def _resistance_section(s: dict, fx: dict[str, Any]) -> dict[str, Any]:
    res_field = {
        "id": "resistance",
        "label": "Resistance",
        "kind": "choice",
        "options": [{"id": r, "label": label(r)} for r in RESISTANCES],
    }
    res_items = []
    for r in RESISTANCES:
        harm = s["resistance_harm"].get(r, 0)
        current = fx.get("resistances", {}).get(r)
        res_items.append(
            {
                "id": r,
                "label": label(r),
                "path": ptr("resistance_harm", r),
                "value": harm,
                "min": None,
                "max": None,
                "current": current,
                "status": f"{harm} harm"
                if current is None
                else f"{current} ({harm} harm)"
                if harm
                else f"{current}",
            }
        )
    return {
        "id": "resistances",
        "label": "Resistances",
        "kind": "pools",
        "items": res_items,
        "actions": [
            {
                "action": "resistance_harm",
                "label": "Harm a resistance",
                "fields": [res_field, amount_field()],
            },
            {
                "action": "resistance_heal",
                "label": "Remove resistance harm",
                "fields": [res_field, amount_field()],
            },
        ],
    }


def _body_section(s: dict, fx: dict[str, Any], body: Body, rows: dict[str, list[str]]) -> dict[str, Any]:
    """Harm per body part with its protection and the items on (or covering) it."""
    parts_field = {
        "id": "body_part",
        "label": "Body part",
        "kind": "choice",
        "options": [{"id": p, "label": label(p)} for p in body.parts],
    }
    care = {"id": "care", "label": "Active care from someone with Medicine", "kind": "flag", "default": False}
    return {
        "id": "body",
        "label": "Body",
        "kind": "body",
        "items": [
            {
                "id": p,
                "label": label(p),
                "path": ptr("harm", p),
                "harm": fx["body"][p]["harm"],
                "status": fx["body"][p]["status"],
                "max": body.maimed,
                "vital": p in body.vital,
                "protection": body.protection.get(p, {}),
                "equipment": rows.get(p, []),
            }
            for p in body.parts
        ],
        "help": f"1–{body.lame - 1} wounded (+{body.wounded_speed_cost} speed), "
        f"{body.lame}–{body.maimed - 1} lame (unusable), {body.maimed} maimed" + HOUSE_NOTE,
        "dead": fx["dead"],
        "actions": [
            {
                "action": "harm",
                "label": "Take harm",
                "fields": [
                    parts_field,
                    amount_field(),
                    {"id": "protected", "label": "Apply armour", "kind": "flag", "default": True},
                ],
            },
            {"action": "heal", "label": "Heal harm", "fields": [parts_field, amount_field()]},
            {"action": "rest_day", "label": "A day of rest", "fields": [care]},
            {"action": "rest_week", "label": "A week of rest", "fields": [care]},
        ],
    }


def _exhaustion_section(s: dict, fx: dict[str, Any], body: Body) -> dict[str, Any]:
    return {
        "id": "exhaustion",
        "label": "Exhaustion",
        "kind": "list",
        "items": [
            {
                "index": i,
                "type": e["type"],
                "label": f"{label(e['type'])} {e['amount']}",
                "amount": e["amount"],
                "path": ptr("exhaustion", i),
                "protection": body.exhaustion_protection(e["type"]),
            }
            for i, e in enumerate(s["exhaustion"])
        ],
        "total": fx["exhaustion"]["total"],
        "status": f"Loses {fx['stamina_loss_per_round']} stamina at the start of each round "
        f"(total exhaustion {fx['exhaustion']['total']} − endurance {body.endurance}).",
        "actions": [
            {
                "action": "add_exhaustion",
                "label": "Add exhaustion",
                "fields": [
                    {"id": "type", "label": "Type", "kind": "text", "default": "bleeding"},
                    amount_field(),
                ],
            },
            {
                "action": "remove_exhaustion",
                "label": "Remove a source",
                "fields": [{"id": "type", "label": "Type", "kind": "text"}],
            },
            {"action": "bandage", "label": "Bandage (removes Bleeding)", "fields": []},
        ],
    }


def _actions_section(catalogue: dict) -> dict[str, Any]:
    actions = catalogue.get("actions", {})
    return {
        "id": "actions",
        "label": "Actions",
        "kind": "list",
        "help": "An action costs 1 speed, +1 for each earlier use this round, +1 if it uses a "
        "wounded body part.",
        "items": [
            {"id": a["id"], "label": a["name"], "text": a["text"], "trigger": a.get("trigger")}
            for a in actions.values()
        ],
    }


# --------------------------------------------------------------------- actions


def _need_int(action: dict, key: str, minimum: int = 1) -> int:
    value = action.get(key)
    if not is_int(value) or value < minimum:
        raise StateError(
            "state.invalid_amount", f"{label(key)} must be a whole number of {minimum} or more.", ptr(key)
        )
    return value


def _need_part(action: dict, body: Body) -> str:
    part = action.get("body_part")
    if not isinstance(part, str) or part not in body.parts:
        raise StateError(
            "state.unknown_body_part",
            f"This character has no body part {part!r}: choose one of {', '.join(body.parts)}.",
            "/body_part",
        )
    return part


def _need_resistance(action: dict) -> str:
    res = action.get("resistance")
    if res not in RESISTANCES:
        raise StateError(
            "state.unknown_resistance",
            f"{res!r} is not a resistance: use awareness, insight or willpower.",
            "/resistance",
        )
    return res


def _refuse_if_dead(s: dict, body: Body, what: str) -> None:
    if any(body.status(s["harm"][p]) == "maimed" for p in body.vital):
        raise StateError(
            "state.dead", f"This character is dead (a maimed vital body part): it cannot {what}."
        )


def _full_stamina(s: dict, body: Body) -> int:
    if is_int(body.max_stamina):
        s["stamina"] = max(0, body.max_stamina)
    return s["stamina"]


def _rest_heal(s: dict, body: Body, action: dict, period: str) -> list[str]:
    care = action.get("care") is True
    bonus = body.healing.get("care_bonus", 1) if care else 0
    day, week = body.healing.get("wounded_per_day", 1), body.healing.get("lame_per_week", 1)
    lines = []
    for part in body.parts:
        harm = s["harm"][part]
        status = body.status(harm)
        if status == "wounded":
            heal = (day + bonus) * (DAYS_PER_WEEK if period == "week" else 1)
        elif status == "lame" and period == "week":
            heal = week + bonus
        else:
            continue
        s["harm"][part] = max(0, harm - heal)
        lines.append(f"{label(part).lower()} {harm}→{s['harm'][part]}")
    return lines


def apply(state: Any, action: Any, build: dict, body: Body) -> tuple[dict, str]:
    """One play-state change (``ACTIONS``, the table in this module's docstring); returns (new state,
    a sentence for the log) or raises StateError. ``state`` itself is never touched."""
    if not isinstance(action, dict) or not isinstance(action.get("action"), str):
        raise StateError("state.unknown_action", 'A state action is an object such as {"action": "harm", …}.')
    kind = action["action"]
    step = ACTIONS.get(kind)
    if step is None:
        raise StateError(
            "state.unknown_action",
            f"Pando has no state action {kind!r} (it has {', '.join(ACTIONS)}).",
            "/action",
        )
    name = get_as(build, "name", str, "The character")
    if kind == "disarm" and "index" not in action:  # outside a fight: the first wielded item
        action = {**action, **_first_wielded(build, state)}
    return step(normalise(copy.deepcopy(state), body), action, body, name)


def _first_wielded(build: dict, state: Any) -> dict[str, Any]:
    knocked = disarmed(state)
    for i, entry in enumerate(get_as(build, "equipment", list, [])):
        if isinstance(entry, dict) and entry.get("state") == "wielded" and i not in knocked:
            named = entry.get("item") or (entry.get("custom") or {}).get("name") or "weapon"
            return {"index": i, "item": label(str(named)).lower()}
    raise StateError(
        "pando.nothing_to_disarm", f"{get_as(build, 'name', str, 'The character')} wields nothing."
    )


def _harm(s: dict, action: dict, body: Body, name: str) -> tuple[dict, str]:
    """Harm to a body part, less its harm protection when ``protected`` (less ``bypass``)."""
    part, amount = _need_part(action, body), _need_int(action, "amount")
    blocked = 0
    if action.get("protected"):
        bypass = max(0, action["bypass"]) if is_int(action.get("bypass")) else 0
        blocked = min(amount, max(0, body.protection.get(part, {}).get("harm", 0) - bypass))
    before = s["harm"][part]
    s["harm"][part] = min(body.maimed, before + amount - blocked)
    status = body.status(s["harm"][part])
    note = f" ({blocked} stopped by armour)" if blocked else ""
    text = (
        f"{name} takes {amount} harm to the {label(part).lower()}{note}: "
        f"{before}→{s['harm'][part]}, {status}."
    )
    if status == "maimed" and part in body.vital:
        text += " A maimed " + label(part).lower() + " is fatal."
    return s, text


def _heal(s: dict, action: dict, body: Body, name: str) -> tuple[dict, str]:
    part, amount = _need_part(action, body), _need_int(action, "amount")
    before = s["harm"][part]
    if body.status(before) == "maimed":
        raise StateError(
            "state.cannot_heal",
            f"The {label(part).lower()} is maimed: it is lost for good and never heals.",
            "/body_part",
        )
    if before == 0:
        raise StateError(
            "state.nothing_to_heal", f"The {label(part).lower()} has no harm to heal.", "/body_part"
        )
    s["harm"][part] = max(0, before - amount)
    return s, f"{name}'s {label(part).lower()} heals: {before}→{s['harm'][part]}."


def _resistance(s: dict, action: dict, body: Body, name: str) -> tuple[dict, str]:
    """resistance_harm / resistance_heal: each point of harm lowers the resistance by 1."""
    res, amount = _need_resistance(action), _need_int(action, "amount")
    before = s["resistance_harm"].get(res, 0)
    if action["action"] == "resistance_heal":
        if before <= 0:
            raise StateError("state.nothing_to_heal", f"{label(res)} has no harm to remove.", "/resistance")
        s["resistance_harm"][res] = max(0, before - amount)
    else:
        s["resistance_harm"][res] = before + amount
    return s, f"{name}'s {res} harm: {before}→{s['resistance_harm'][res]}."


def _add_exhaustion(s: dict, action: dict, body: Body, name: str) -> tuple[dict, str]:
    kind_of = action.get("type")
    if not isinstance(kind_of, str) or not kind_of.strip():
        raise StateError("state.invalid", 'Name the exhaustion type, e.g. "bleeding" or "cold".', "/type")
    amount = _need_int(action, "amount")
    s["exhaustion"].append({"type": kind_of.strip().lower(), "amount": amount})
    return s, f"{name} gains {amount} exhaustion ({kind_of.strip().lower()})."


def _remove_exhaustion(s: dict, action: dict, body: Body, name: str) -> tuple[dict, str]:
    """remove_exhaustion (a ``type``, the source at ``index``, or with ``amount`` the one source of
    that type and amount) / bandage (every Bleeding source)."""
    bandage = action["action"] == "bandage"
    wanted: object  # a document's value, compared with each source's type
    if bandage:
        wanted, index = "bleeding", None
    else:
        wanted = action.get("type")
        index = action.get("index")
        if index is None and "amount" in action:
            amount = _need_int(action, "amount")
            index = next(
                (i for i, e in enumerate(s["exhaustion"]) if e["type"] == wanted and e["amount"] == amount),
                None,
            )
            if index is None:
                raise StateError(
                    "state.nothing_to_remove",
                    f"{name} has no {wanted} {amount} exhaustion to remove.",
                    "/type",
                )
        if index is not None and not (is_int(index) and 0 <= index < len(s["exhaustion"])):
            raise StateError(
                "state.nothing_to_remove", "There is no exhaustion source at that position.", "/index"
            )
    before = len(s["exhaustion"])
    if index is not None:
        removed = [s["exhaustion"].pop(index)]
    else:
        removed = [e for e in s["exhaustion"] if e["type"] == wanted]
        s["exhaustion"] = [e for e in s["exhaustion"] if e["type"] != wanted]
    if len(s["exhaustion"]) == before:
        raise StateError("state.nothing_to_remove", f"{name} has no {wanted} exhaustion to remove.", "/type")
    what = ", ".join(f"{e['type']} {e['amount']}" for e in removed)
    if bandage:
        return s, f"{name} is bandaged: removed {what}."
    return s, f"{name} loses exhaustion: {what}."


def _spend_stamina(s: dict, action: dict, body: Body, name: str) -> tuple[dict, str]:
    amount = _need_int(action, "amount")
    if amount > s["stamina"]:
        raise StateError(
            "state.not_enough_stamina", f"{name} has only {s['stamina']} stamina, not {amount}.", "/amount"
        )
    s["stamina"] -= amount
    return s, f"{name} spends {amount} stamina ({s['stamina']} left)."


def _regain_stamina(s: dict, action: dict, body: Body, name: str) -> tuple[dict, str]:
    """regain_stamina (``amount``) / catch_breath (HD: 1 + endurance), up to max stamina."""
    breath = action["action"] == "catch_breath"
    _refuse_if_dead(s, body, "regain stamina")
    amount = body.breath() if breath else _need_int(action, "amount")
    before = s["stamina"]
    cap = body.max_stamina if is_int(body.max_stamina) else before + amount
    if before >= cap:
        raise StateError("state.stamina_full", f"{name}'s stamina is already at its max ({cap}).", "/stamina")
    s["stamina"] = min(cap, before + amount)
    how = "catches their breath" if breath else "regains stamina"
    note = HOUSE_NOTE if breath else ""
    return s, f"{name} {how}: {before}→{s['stamina']}{note}."


def _rest(s: dict, action: dict, body: Body, name: str) -> tuple[dict, str]:
    """Seed: a rest of 5 minutes or more restores stamina (the length is a house default)."""
    _refuse_if_dead(s, body, "rest")
    minutes = action.get("minutes", body.rest_minutes)
    if not is_int(minutes) or minutes < body.rest_minutes:
        raise StateError(
            "state.rest_too_short",
            f"Only a rest of {body.rest_minutes} minutes or more restores stamina.",
            "/minutes",
        )
    before = s["stamina"]
    return s, f"{name} rests {minutes} minutes: stamina {before}→{_full_stamina(s, body)}."


def _rest_period(s: dict, action: dict, body: Body, name: str) -> tuple[dict, str]:
    """rest_day / rest_week: harm heals per the house default (more with active care), stamina to max."""
    _refuse_if_dead(s, body, "rest")
    period = "day" if action["action"] == "rest_day" else "week"
    lines = _rest_heal(s, body, action, period)
    _full_stamina(s, body)
    care = " with active care" if action.get("care") is True else ""
    healed = "; ".join(lines) if lines else "no harm heals"
    return s, f"{name} rests a {period}{care}: {healed}{HOUSE_NOTE}."


def _set_notes(s: dict, action: dict, body: Body, name: str) -> tuple[dict, str]:
    notes = action.get("notes")
    if not isinstance(notes, str):
        raise StateError("state.invalid", "Notes are text.", "/notes")
    s["notes"] = notes
    return s, f"{name}'s notes updated."


def _disarm(s: dict, action: dict, body: Body, name: str) -> tuple[dict, str]:
    """``disarm``: equipment entry ``index`` (named ``item``) is knocked away (carried); ``take_up``:
    wielded again."""
    index = _need_int(action, "index", 0)
    held = set(disarmed(s))
    what = action.get("item") if isinstance(action.get("item"), str) and action["item"] else "weapon"
    if action["action"] == "disarm":
        held.add(index)
        text = f"{name} is disarmed: the {what} is carried, no longer wielded."
    else:
        if index not in held:
            raise StateError("state.invalid", f"{name} was not disarmed of the {what}.", "/index")
        held.discard(index)
        text = f"{name} takes up the {what} again."
    if held:
        s["disarmed"] = sorted(held)
    else:
        s.pop("disarmed", None)
    return s, text


#: The play-state actions, each a named step ``(state copy, action, body, name) → (state, log)``.
ACTIONS = {
    "harm": _harm,
    "heal": _heal,
    "resistance_harm": _resistance,
    "resistance_heal": _resistance,
    "add_exhaustion": _add_exhaustion,
    "remove_exhaustion": _remove_exhaustion,
    "bandage": _remove_exhaustion,
    "spend_stamina": _spend_stamina,
    "regain_stamina": _regain_stamina,
    "catch_breath": _regain_stamina,
    "rest": _rest,
    "rest_day": _rest_period,
    "rest_week": _rest_period,
    "set_notes": _set_notes,
    "disarm": _disarm,
    "take_up": _disarm,
    "spend_money": money.spend,
    "gain_money": money.gain,
}


def body_of(build: dict, report: Report, ctx: Context) -> Body:
    """The body of ``build`` under the campaign's species (homebrew too) and house rules."""
    return Body(build if isinstance(build, dict) else {}, report, ctx.catalogue, ctx.settings)


# ------------------------------------------ the engine's play-state hooks (engine/interfaces.py)
# Harm on a body of parts: each hook works on the character's ``body_of`` its build.


def initial_state(build: dict, report: Report, *, ctx: Context) -> dict[str, Any]:
    """Full stamina, no harm, and the money the build's purchases left (W5, money.py)."""
    return {**fresh_state(body_of(build, report, ctx)), **money.opening(report)}


def check_state(state: Any, build: dict, report: Report, *, ctx: Context) -> list[Issue]:
    return check_body_state(state, body_of(build, report, ctx))


def state_effects(state: dict, build: dict, report: Report, *, ctx: Context) -> dict[str, Any]:
    return effects(state, body_of(build, report, ctx))


def state_sections(state: dict, build: dict, report: Report, *, ctx: Context) -> list[dict[str, Any]]:
    """The sheet's blocks; Money where the campaign gives starting money or the character holds some
    (W5); then each skill's EP at leisure and the form that takes one (leisure.py, W4), unless the
    campaign rolls every action (house rule ``leisure_ep`` "none")."""
    with_money = starting_money(ctx) > 0
    found = sections(state, build, body_of(build, report, ctx), ctx.catalogue, with_money=with_money)
    if not leisure.taken(ctx.settings):
        return found
    return [*found, leisure.section(state, *leisure.learned(build, report))]


def state_action(
    state: dict, action: dict, build: dict, report: Report, *, ctx: Context, roller: Roller | None = None
) -> tuple[dict, str]:
    body = body_of(build, report, ctx)
    if not (isinstance(action, dict) and action.get("action") == leisure.TAKE):
        return apply(state, action, build, body)
    if not leisure.taken(ctx.settings):
        raise StateError(
            "pando.no_leisure", "This campaign rolls every action (house rule): nothing is taken at leisure."
        )
    _refuse_if_dead(normalise(state, body), body, "act")
    return leisure.take(
        state,
        action,
        leisure.learned(build, report),
        oc.of_tools(build, ctx.catalogue),
        get_as(build, "name", str, "The character"),
    )
