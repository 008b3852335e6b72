"""Which ruleset a product test runs on, asked of the registry (never named).

A product test (a sheet, a builder, an advancement, a fight) needs a ruleset as its vehicle. It
takes every registered ruleset (``SLUGS``, for ``pytest.mark.parametrize``) or, when running it on
each would multiply a slow test's cost, the first registered ruleset that can do what the test
needs (``first``): "a ruleset with play state pools", "with an awardable currency", "with gear".
What the test then expects is read from that ruleset's own answers and its folder's data
(rulesets/engine/examples.py), never one game's numbers. Tests of one game's rules live in
tests/rulesets/<slug>/ (tests/test_no_ruleset_names.py keeps it so).
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass

from rulesets.engine import registry
from rulesets.engine.ruleset import Ruleset

#: Every registered ruleset's slug, in the registry's order (the test plugin's last).
SLUGS: tuple[str, ...] = registry.slugs()


def first(need: Callable[[Ruleset], bool], what: str) -> str:
    """The first registered ruleset for which ``need`` holds; ``what`` words the need for the failure."""
    for ruleset in registry.all_rulesets():
        if need(ruleset):
            return ruleset.slug
    raise LookupError(f"no registered ruleset is {what}")


def every(need: Callable[[Ruleset], bool]) -> list[str]:
    """The slugs of every registered ruleset for which ``need`` holds."""
    return [ruleset.slug for ruleset in registry.all_rulesets() if need(ruleset)]


def other_than(slug: str) -> str:
    """A registered ruleset that is not ``slug`` (the first such)."""
    return first(lambda rs: rs.slug != slug, f"other than {slug}")


# ------------------------------------------------------------------ what a ruleset can do


def sheet_build(ruleset: Ruleset) -> dict:
    """The ruleset's sheet character (``content/examples.json`` ``sheet``), a fresh copy."""
    return ruleset.contract_data()["sheet"]


def play_sections(ruleset: Ruleset, build: dict | None = None) -> list[dict]:
    """The play-state sections the sheet shows for ``build`` (default: the sheet character), fresh."""
    build = build if build is not None else sheet_build(ruleset)
    report = ruleset.validate(build)
    return ruleset.state_sections(build, report, ruleset.initial_state(build, report))


def number_action(ruleset: Ruleset) -> tuple[dict, str] | None:
    """The first play-state action of the sheet character with a number field: (the action with each
    field at a sample value, that field's id); None when it has none."""
    for section in play_sections(ruleset):
        for spec in section.get("actions", []):
            fields = spec.get("fields", [])
            number = next((f["id"] for f in fields if f.get("kind") == "number"), None)
            if number:
                action = {"action": spec["action"]}
                for f in fields:
                    options = f.get("options") or []
                    first_option = options[0] if options else None
                    if isinstance(first_option, dict):
                        first_option = first_option.get("id")
                    action[f["id"]] = f.get("default") if f.get("default") not in (None, "") else first_option
                    if action[f["id"]] is None:
                        action[f["id"]] = max(1, f.get("min") or 1) if f.get("kind") == "number" else "x"
                return action, number
    return None


def awardable(ruleset: Ruleset) -> str | None:
    """The first currency the GM may award in the ruleset, or None."""
    return next(iter(ruleset.awardable_currencies), None)


def text_house_rule(ruleset: Ruleset) -> str | None:
    """The pointer of the ruleset's first house rule that is typed text, or None."""
    from characters.campaigns.house_rules import house_fields

    return next((f.pointer for f in house_fields(ruleset) if f.kind == "text"), None)


# ------------------------------------------------------------------ a fight


def _sample(param: dict) -> object:
    options = param.get("options") or []
    if options:
        first_option = options[0]
        return first_option.get("id") if isinstance(first_option, dict) else first_option
    if param.get("kind") == "number":
        return max(1, param.get("default") or param.get("min") or 1)
    return param.get("default") or "x"


def fight_action(encounter, combatant, *, gm: bool, target=None, untargeted: bool = False) -> dict | None:
    """The action ``combatant`` may take (now, or on its turn): the ruleset's ``combat_actions``
    (``player`` or ``gm``, rulesets/engine/examples.py) when it names one, else the first allowed one
    of its kind (at an enemy for a player's), ``target`` filled in when it takes one and each field at a sample value.
    With ``untargeted``: the first that takes no target (a move, a stance), not the named one.
    None when there is none."""
    from combat.fight import fighter_actions
    from combat.models import Encounter
    from combat.selectors import encounter_fight

    fight = encounter_fight(encounter=Encounter.objects.get(pk=encounter.pk))
    fighter = next(f for f in fight.fighters if f.id == combatant.pk)
    specs = fighter_actions(fight, fighter)
    wanted = (fight.ruleset.contract_data().get("combat_actions") or {}).get("gm" if gm else "player")
    if wanted and not untargeted:
        action = dict(wanted)
        spec = next((s for s in specs if s.id == action["action"]), None)
        if spec is not None and spec.target and "target" not in action and target is not None:
            action["target"] = target.pk
        return action
    for spec in specs:
        off_turn = spec.code.endswith("not_your_turn")  # what it may do once its turn comes
        if spec.gm != gm or not (spec.allowed or off_turn) or (spec.reaction and not gm):
            continue
        if untargeted and spec.target:
            continue
        if not gm and not untargeted and spec.target not in ("enemy", "any"):
            continue
        action = {"action": spec.id}
        if spec.target and target is not None:
            action["target"] = target.pk
        for param in spec.params:
            if isinstance(param, dict) and param.get("id"):
                action[param["id"]] = _sample(param)
        return action
    return None


def start_fight(*, slug: str, gm, owners, campaign=None, enemies: int = 1, builds=None, roller=None) -> dict:
    """An encounter of ``slug``: a character for each of ``owners`` (the sheet character, or
    ``builds`` in turn) against ``enemies`` of the ruleset's quick NPC in a group, started with
    ``roller`` (default: fixed dice). Returns ``campaign``, ``e``, ``characters``, ``pcs`` (their
    combatants) and ``foes``."""
    from combat import services
    from rulesets.engine.dice import FixedRoller
    from tests.characters.sheet.test_sheet_fixtures import make_character
    from tests.factories import make_campaign

    ruleset = registry.get(slug)
    assert ruleset is not None, slug
    campaign = campaign or make_campaign(gm=gm, ruleset=slug, players=list(owners))
    builds = list(builds or [])
    characters = [
        make_character(
            ruleset=slug, owner=owner, campaign=campaign, build=builds[i] if i < len(builds) else None
        )
        for i, owner in enumerate(owners)
    ]
    e = services.encounter_create(campaign=campaign, user=gm, name="Ambush")
    pcs = [services.encounter_add_combatant(encounter=e, user=gm, character=c)[0] for c in characters]
    npc = ruleset.quick_npc()
    foes = services.encounter_add_combatant(
        encounter=e, user=gm, name=npc.get("name") or "Foe", build=npc, count=enemies
    )
    services.encounter_start(encounter=e, user=gm, roller=roller or FixedRoller([1, 2, 3, 4, 5, 6] * 20))
    e.refresh_from_db()
    return {"campaign": campaign, "e": e, "characters": characters, "pcs": pcs, "foes": foes}


def turn_to(e, combatant, gm) -> None:
    """End turns (as the GM) until it is ``combatant``'s."""
    from combat import services
    from combat.models import Encounter
    from combat.selectors import encounter_fight

    for _ in range(40):
        if encounter_fight(encounter=Encounter.objects.get(pk=e.pk)).current_id == combatant.pk:
            return
        services.encounter_next_turn(encounter=e.pk, user=gm)
    raise AssertionError(f"never {combatant}'s turn")


# ------------------------------------------------------------------ changes of a build


def number_traits(ruleset: Ruleset) -> list[tuple[str, int | None]]:
    """The builder's numbers a player raises, as (JSON pointer, maximum or None), in the builder's
    order: "number" sections, the fields of "numbers" sections and the options of "ranks" sections."""
    out: list[tuple[str, int | None]] = []
    for section in ruleset.traits(ruleset.context()).get("sections", []):
        path, kind = section.get("path"), section.get("kind")
        if not isinstance(path, str):
            continue
        if kind == "number":
            out.append((path, section.get("max")))
        elif kind in ("numbers", "ranks"):
            for entry in section.get("fields" if kind == "numbers" else "options") or []:
                if isinstance(entry, dict) and "id" in entry:
                    out.append((f"{path}/{entry['id']}", entry.get("max")))
    return out


def _with(build: dict, changes: dict[str, object]) -> dict:
    from rulesets.engine.pointer import set_at

    out = copy.deepcopy(build)
    for pointer, value in changes.items():
        set_at(out, pointer, copy.deepcopy(value))
    return out


def _spent(report) -> dict[str, int]:
    return {c: v for c, v in report.spent.items() if v}


@dataclass(frozen=True)
class Advance:
    """An advancement of a build: the new build, the currency the GM awards for it and its cost."""

    build: dict
    currency: str
    cost: int
    changes: dict  # JSON pointer → the new value, as the builder's fields set them


def advance(ruleset: Ruleset, build: dict | None = None) -> Advance | None:
    """An advancement of ``build`` (default: the sheet character) that the GM's award of one
    currency pays for: ``content/examples.json``'s ``advance`` (``{"set": {pointer: value}}``
    applied to the build) when the ruleset names one, else the first two of the builder's numbers
    (``number_traits``) that, each raised by one, are a legal advancement paid in one awardable
    currency (the first alone when the two together are not). Its cost is the rules' own price.
    None when there is none."""
    build = copy.deepcopy(build if build is not None else sheet_build(ruleset))
    named = ruleset.contract_data().get("advance")
    if named:
        return _priced(ruleset, build, named["set"])
    from rulesets.engine.pointer import resolve

    raises: list[tuple[str, int]] = []
    for pointer, top in number_traits(ruleset):
        value = resolve(build, pointer, None)
        value = 0 if value is None else value
        if isinstance(value, int) and not isinstance(value, bool) and (top is None or value < top):
            if _priced(ruleset, build, {pointer: value + 1}) is not None:
                raises.append((pointer, value + 1))
    if len(raises) >= 2:
        both = _priced(ruleset, build, dict(raises[:2]))
        if both is not None:
            return both
    return _priced(ruleset, build, dict(raises[:1])) if raises else None


def raised(ruleset: Ruleset, pointer: str, by: int = 1, build: dict | None = None) -> Advance | None:
    """The builder's number at ``pointer`` raised by ``by`` as an advancement of ``build`` (default:
    the sheet character), priced by the rules; None when it is not a legal one paid in one
    awardable currency."""
    from rulesets.engine.pointer import resolve

    build = copy.deepcopy(build if build is not None else sheet_build(ruleset))
    value = resolve(build, pointer, None)
    value = 0 if value is None else value
    if not isinstance(value, int) or isinstance(value, bool):
        return None
    return _priced(ruleset, build, {pointer: value + by})


def raisable(ruleset: Ruleset, build: dict | None = None) -> list[str]:
    """The pointers of the builder's numbers that, raised by one, are each an advancement of
    ``build`` (default: the sheet character) paid in an awardable currency."""
    return [pointer for pointer, _ in number_traits(ruleset) if raised(ruleset, pointer, 1, build)]


def advance_beyond(ruleset: Ruleset, amount: int) -> Advance | None:
    """Advancements of the sheet character one after another (``advance``) until they cost more than
    ``amount``, as one; None when they never do."""
    build, changes, total, currency = sheet_build(ruleset), {}, 0, None
    while total <= amount:
        step = advance(ruleset, build)
        if step is None or currency not in (None, step.currency):
            return None
        build, currency, total = step.build, step.currency, total + step.cost
        changes.update(step.changes)
    return Advance(build, currency, total, changes) if currency else None


def _priced(ruleset: Ruleset, build: dict, changes: dict) -> Advance | None:
    """``build`` with ``changes`` as an advancement of it: legal, and its cost (the rules' price) in
    one awardable currency; else None."""
    wanted = _with(build, changes)
    before = ruleset.validate(build)
    free = _with(wanted, {"/budget": {c: v + 10**6 for c, v in build.get("budget", {}).items()}})
    priced = ruleset.validate(free, phase="approval", previous=build)
    cost = {
        c: priced.spent.get(c, 0) - before.spent.get(c, 0)
        for c in set(priced.spent) | set(before.spent)
        if priced.spent.get(c, 0) != before.spent.get(c, 0)
    }
    if not priced.valid or len(cost) != 1:
        return None
    ((currency, amount),) = cost.items()
    if currency not in ruleset.awardable_currencies or amount <= 0:
        return None
    return Advance(wanted, currency, amount, dict(changes))


def broken(ruleset: Ruleset) -> dict:
    """A build of the ruleset its rules refuse: an invalid example of its folder (``examples/``), else
    the sheet character with its first bounded number above the bound, else without its name."""
    example = next((e for e in ruleset.example_builds() if not e.expect.get("valid")), None)
    if example is not None:
        return copy.deepcopy(example.build)
    build = sheet_build(ruleset)
    for pointer, top in number_traits(ruleset):
        if top is not None:
            return _with(build, {pointer: top + 1})
    return {**build, "name": ""}


def numbers_of(ruleset: Ruleset, build: dict, room: int = 2) -> list[tuple[str, int]]:
    """The builder's numbers of ``build`` that take ``room`` more than their value: (pointer, value)."""
    from rulesets.engine.pointer import resolve

    out = []
    for pointer, top in number_traits(ruleset):
        value = resolve(build, pointer, None)
        if isinstance(value, int) and not isinstance(value, bool) and (top is None or value + room <= top):
            out.append((pointer, value))
    return out


# ------------------------------------------------------------------ the sheet's gear


def stated_gear(ruleset: Ruleset) -> bool:
    """Whether the sheet character carries gear whose state the sheet offers to change (a loadout)."""
    block = ruleset.equipment(sheet_build(ruleset))
    return bool(block and block["states"] and any(row["has_state"] for row in block["rows"]))


def gear_build(ruleset: Ruleset, entries: int) -> dict:
    """The sheet character carrying ``entries`` gear entries: its own, then its last entry that has a
    state, again and again."""
    build = sheet_build(ruleset)
    gear = build[ruleset.equipment_key]
    block = ruleset.equipment(build)
    last = next(row["index"] for row in reversed(block["rows"]) if row["has_state"])
    gear.extend(copy.deepcopy(gear[last]) for _ in range(entries - len(gear)))
    return build


def gear_changes(ruleset: Ruleset, build: dict, count: int) -> list[tuple[int, str]]:
    """``count`` entries of ``build`` (the last first) whose state the rules let change, each to a state
    other than its own, the rules accepting the changes one after another: (index, state)."""
    changes: list[tuple[int, str]] = []
    block = ruleset.equipment(build)
    for row in reversed(block["rows"]):
        if len(changes) == count:
            break
        if not row["has_state"]:
            continue
        for state, _ in block["states"]:
            if state != row["state"]:
                changed, _ = ruleset.equipment_change(build, row["index"], state)
                if ruleset.validate(changed).valid:
                    build = changed
                    changes.append((row["index"], state))
                    break
    if len(changes) < count:
        raise LookupError(f"fewer than {count} entries may change their state")
    return changes


# ------------------------------------------------------------------ the sheet's play state and dice


def pools(ruleset: Ruleset, build: dict | None = None) -> list[dict]:
    """The sheet character's pools with a maximum ({"id", "label", "path", "value", "max", ...}), in
    the order the sheet shows them."""
    return [
        item
        for section in play_sections(ruleset, build)
        if section.get("kind") == "pools"
        for item in section.get("items", [])
        if isinstance(item.get("max"), int) and isinstance(item.get("value"), int) and item.get("path")
    ]


def rollable(ruleset: Ruleset, build: dict | None = None) -> str | None:
    """The id of the sheet character's first roll button (not one its roll picker composes), or None."""
    build = build if build is not None else sheet_build(ruleset)
    report = ruleset.validate(build)
    state = ruleset.initial_state(build, report)
    found = [r for r in ruleset.rollables(build, report, state) if not r.get("picker")]
    return found[0]["id"] if found else None


def after(ruleset: Ruleset, state: dict, action: dict, build: dict | None = None) -> dict:
    """The play state the rules make of ``state`` by ``action`` (posted values as the sheet posts them,
    numbers as text), for the sheet character (or ``build``)."""
    build = build if build is not None else sheet_build(ruleset)
    report = ruleset.validate(build)
    typed = {k: int(v) if isinstance(v, str) and v.lstrip("-").isdigit() else v for k, v in action.items()}
    return ruleset.state_action(state, typed, build, report)[0]


def play_action(ruleset: Ruleset, index: int = 0) -> dict:
    """The ruleset's play action (``play_actions``, rulesets/engine/examples.py) as the services take
    it: numbers as numbers."""
    action = ruleset.contract_data()["play_actions"][index]
    return {k: int(v) if isinstance(v, str) and v.lstrip("-").isdigit() else v for k, v in action.items()}


def gm_harm(slug: str, build: dict | None = None) -> dict | None:
    """A GM action of the fight that changes a PC's sheet (harm, damage): the first of the GM's actions
    on a PC, each choice tried in turn, that changes the play state of the ruleset's character (the
    sheet character, or ``build``) in a throwaway encounter. None when none does."""
    import itertools

    from characters.models import Character
    from combat import services
    from combat.fight import fighter_actions
    from combat.models import Encounter
    from combat.selectors import encounter_fight
    from config.errors import ApplicationError
    from tests.factories import make_user

    gm, owner = make_user(), make_user()
    table = start_fight(slug=slug, gm=gm, owners=[owner], builds=[build] if build else None)
    e, pc, character = table["e"], table["pcs"][0], table["characters"][0]
    fight = encounter_fight(encounter=Encounter.objects.get(pk=e.pk))
    fighter = next(f for f in fight.fighters if f.id == pc.pk)
    for spec in fighter_actions(fight, fighter):
        if not spec.gm or spec.target or not spec.allowed:
            continue
        choices = []
        for param in spec.params:
            options = [o.get("id") if isinstance(o, dict) else o for o in param.get("options") or []]
            choices.append([(param["id"], o) for o in options] or [(param["id"], _sample(param))])
        for values in itertools.product(*choices):
            action = {"action": spec.id, **dict(values)}
            before = Character.objects.get(pk=character.pk).state
            try:
                services.encounter_act(encounter=e, user=gm, combatant_id=pc.pk, action=action)
            except ApplicationError:
                continue
            if Character.objects.get(pk=character.pk).state != before:
                return action
    return None
