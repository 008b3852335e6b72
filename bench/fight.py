"""The fight the combat benches run, taken from a ruleset's contract data (rulesets/engine/examples.py):
its sheet character and typical build as the two PCs, its quick NPC as the enemies, and the actions
timed: ``combat_actions`` of ``content/examples.json`` when it names them
(``{"player": {"action": id, ...}, "gm": {"action": id, ...}}``), else the first action the PC may
take on its turn against an enemy and the first GM action, each field at a sample value.

The ruleset is ``BENCH_RULESET`` when set, else the registry's first. Needs Django set up."""

from __future__ import annotations

import os
from typing import Any


def bench_ruleset():
    from rulesets.engine import registry

    slug = os.environ.get("BENCH_RULESET") or registry.slugs()[0]
    ruleset = registry.get(slug)
    if ruleset is None:
        raise SystemExit(f"BENCH_RULESET={slug!r} is not a ruleset; use one of {', '.join(registry.slugs())}")
    return ruleset


def _sample(param: dict[str, Any]) -> Any:
    options = param.get("options") or []
    if options:
        first = options[0]
        return first.get("id") if isinstance(first, dict) else first
    if param.get("kind") == "number":
        return max(1, param.get("default") or param.get("min") or 1)
    return param.get("default") or "x"


def _chosen(specs, wanted: dict[str, Any] | None, *, gm: bool, enemy: int) -> dict[str, Any] | None:
    """The action to time: the named one, else the first allowed one of its kind (with a target when
    it takes one), each field at a sample value."""
    if wanted:
        action = dict(wanted)
        spec = next((s for s in specs if s.id == action["action"]), None)
        if spec is not None and spec.target and "target" not in action:
            action["target"] = enemy
        return action
    for spec in specs:
        if spec.gm != gm or not spec.allowed or (spec.reaction and not gm):
            continue
        if not gm and spec.target not in ("enemy", "any"):
            continue
        action: dict[str, Any] = {"action": spec.id}
        if spec.target:
            action["target"] = enemy
        for param in spec.params:
            if isinstance(param, dict) and param.get("id"):
                action[param["id"]] = _sample(param)
        return action
    return None


def build_fight(
    *, players: list, gm, campaign_name: str = "Bench table", pcs: int = 2, enemies: int = 4, lone: int = 0
) -> dict[str, Any]:
    """A campaign of the bench ruleset with ``players`` (the first ``pcs`` with a character each), an
    encounter of those PCs against a group of ``enemies`` quick NPCs and ``lone`` more on their own,
    started, and turned until the first PC acts. Returns the ids and the actions to time (``player_action``, ``gm_action``: None when the
    ruleset has none)."""
    from combat import services
    from combat.fight import fighter_actions
    from combat.models import Encounter
    from combat.selectors import encounter_fight
    from rulesets.engine.dice import FixedRoller
    from tests.characters.sheet.test_sheet_fixtures import make_character
    from tests.factories import make_campaign

    ruleset = bench_ruleset()
    data = ruleset.contract_data()
    campaign = make_campaign(gm=gm, ruleset=ruleset.slug, players=players, name=campaign_name)
    pcs_made = [
        make_character(ruleset=ruleset.slug, owner=owner, campaign=campaign, build=build)
        for owner, build in zip(players[:pcs], (data["sheet"], data["typical"]), strict=False)
    ]
    e = services.encounter_create(campaign=campaign, user=gm, name="Bench")
    c_pc = services.encounter_add_combatant(encounter=e, user=gm, character=pcs_made[0])[0]
    for pc in pcs_made[1:]:
        services.encounter_add_combatant(encounter=e, user=gm, character=pc)
    npc = ruleset.quick_npc()
    foes = services.encounter_add_combatant(
        encounter=e, user=gm, name=npc.get("name") or "Foe", build=npc, count=enemies
    )
    if lone:
        services.encounter_add_combatant(encounter=e, user=gm, name="Lone", build=npc, count=lone, group="")
    services.encounter_start(encounter=e, user=gm, roller=FixedRoller([1, 2, 3, 4, 5, 6] * 20))
    for _ in range(enemies + lone + len(pcs_made)):
        fight = encounter_fight(encounter=Encounter.objects.get(pk=e.pk))
        if fight.current_id == c_pc.pk:
            break
        services.encounter_next_turn(encounter=e.pk, user=gm)
    fight = encounter_fight(encounter=Encounter.objects.get(pk=e.pk))
    specs = {f.id: fighter_actions(fight, f) for f in fight.fighters}
    wanted = data.get("combat_actions") or {}
    c_pc.refresh_from_db()
    return {
        "ruleset": ruleset,
        "campaign": campaign,
        "e": Encounter.objects.get(pk=e.pk),
        "pc": pcs_made[0],
        "c_pc": c_pc,
        "target": foes[0],
        "bystander": foes[-1],  # the GM's warm-up actions land here, not on the player's target
        "player_action": _chosen(specs.get(c_pc.pk, []), wanted.get("player"), gm=False, enemy=foes[0].pk),
        "gm_action": _chosen(specs.get(foes[0].pk, []), wanted.get("gm"), gm=True, enemy=foes[0].pk),
    }
