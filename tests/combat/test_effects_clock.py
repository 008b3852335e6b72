"""Effects end by themselves on the encounter's clock (combat/step.py ``effects_end``), in every
registered ruleset with combat rules: rounds of an encounter, the end of a combatant's turn, the
encounter's end; "until rest" with the sheet's rest action. Each ending is a line of the encounter's
log and a note of the table's feed; the character gets a new version (its open sheets hear of it).
The GM also puts effects on NPC combatants (``encounter_effect_apply``): their state keeps them and
their rolls change as a character's do."""

from __future__ import annotations

import random

import pytest

from characters.effects import services as fx_services
from characters.models import Character, RollLog
from characters.sheet import services as play
from combat import services
from combat.fight import fighter_actions
from combat.models import Combatant, Encounter, EncounterEvent
from combat.presenters import encounter_board
from combat.quick_builds import quick_build
from combat.selectors import campaign_combat_rules, encounter_fight
from config.errors import BadInput, NotPermitted
from rulesets.engine import effects as fx
from rulesets.engine import registry
from rulesets.engine.dice import Roller
from tests.characters.sheet.test_sheet_fixtures import make_character
from tests.factories import make_campaign, make_user

pytestmark = pytest.mark.django_db


def _with_combat() -> list[str]:
    out = []
    for slug in registry.SYSTEMS:
        try:
            registry.get(slug).combat()
        except NotImplementedError:
            continue
        out.append(slug)
    return out


RULESETS = _with_combat()


def _key(ruleset) -> str:
    """A number an effect on every roll may shift (a character's, not the table's, when there is one)."""
    keys = [k for k in ruleset.effect_keys if k not in ruleset.table_keys] or list(ruleset.effect_keys)
    return keys[0]


def _blessed(ruleset, name: str = "Blessed") -> dict:
    return {"name": name, "changes": [{"target": "all", _key(ruleset): 1}]}


@pytest.fixture
def fight_of(db):
    def make(slug: str) -> dict:
        gm, player, other = make_user(), make_user(), make_user()
        campaign = make_campaign(gm=gm, ruleset=slug, players=[player, other])
        ayla = make_character(ruleset=slug, owner=player, campaign=campaign)
        Character.objects.filter(pk=ayla.pk).update(name="Ayla")
        bo = make_character(ruleset=slug, owner=other, campaign=campaign)  # at the table, not in the fight
        Character.objects.filter(pk=bo.pk).update(name="Bo")
        e = services.encounter_create(campaign=campaign, user=gm, name="Ambush")
        pc = services.encounter_add_combatant(encounter=e, user=gm, character=ayla)[0]
        ruleset, _, _ = campaign_combat_rules(campaign)
        npc = services.encounter_add_combatant(
            encounter=e, user=gm, name="Raider", build=quick_build(ruleset, campaign)
        )[0]
        services.encounter_start(encounter=e, user=gm, roller=Roller(random.Random(7)))
        return {
            "gm": gm,
            "player": player,
            "other": other,
            "campaign": campaign,
            "ayla": ayla,
            "bo": bo,
            "e": e,
            "pc": pc,
            "npc": npc,
            "ruleset": registry.get(slug),
        }

    return make


def _next_turn(t) -> Encounter:
    services.encounter_next_turn(encounter=t["e"].pk, user=t["gm"], roller=Roller(random.Random(3)))
    return Encounter.objects.get(pk=t["e"].pk)


def _effects(character) -> list[str]:
    return [x["name"] for x in fx.active_entries(Character.objects.get(pk=character.pk).state)]


def _npc_effects(combatant) -> list[str]:
    return [x["name"] for x in fx.active_entries(Combatant.objects.get(pk=combatant.pk).state)]


def _log(e) -> list[str]:
    return list(
        EncounterEvent.objects.filter(encounter_id=e.pk).order_by("seq").values_list("text", flat=True)
    )


def _notes(campaign) -> list[str]:
    return [
        r.result["text"] for r in RollLog.objects.filter(campaign=campaign, result__note=True).order_by("id")
    ]


@pytest.mark.parametrize("slug", RULESETS)
def test_an_effect_for_one_round_lasts_until_the_round_advances_once(slug, fight_of):
    t = fight_of(slug)
    e = Encounter.objects.get(pk=t["e"].pk)
    start = e.round
    _, entry = fx_services.character_effect_apply(
        character_id=t["ayla"].pk,
        user=t["gm"],
        spec=_blessed(t["ruleset"]),
        duration={"rounds": 1},
        encounter=e.pk,
    )
    assert entry["duration"] == {"rounds": 1, "encounter": e.pk, "start_round": start}
    version = Character.objects.get(pk=t["ayla"].pk).version
    turns = 0
    while e.round == start:
        assert _effects(t["ayla"]) == ["Blessed"], f"still on in round {e.round}, turn {e.turn}"
        e = _next_turn(t)
        turns += 1
        assert turns <= 20
    assert e.round == start + 1
    assert _effects(t["ayla"]) == []
    assert _log(e).count("Blessed ends on Ayla.") == 1
    # The round's line comes first, then what its start ended.
    log = _log(e)
    assert log.index(f"Round {start + 1} begins.") < log.index("Blessed ends on Ayla.")
    assert "Blessed ends on Ayla." in _notes(t["campaign"])
    after = Character.objects.get(pk=t["ayla"].pk)
    assert after.version > version
    # Its rolls are as before the effect.
    assert fx.active_changes(after.state) == []


@pytest.mark.parametrize("slug", RULESETS)
def test_an_effect_until_the_end_of_a_turn_ends_when_that_turn_ends(slug, fight_of):
    t = fight_of(slug)
    e = Encounter.objects.get(pk=t["e"].pk)
    fight = encounter_fight(encounter=e)
    waiting = next(i for i in fight.order if i not in fight.current_ids)  # a turn still to come
    name = fight.fighter_by_id[waiting].name
    fx_services.character_effect_apply(
        character_id=t["ayla"].pk,
        user=t["gm"],
        spec=_blessed(t["ruleset"], "Guarded"),
        duration={"until": "end_of_turn", "combatant": waiting},
    )
    board = encounter_board(fight=encounter_fight(encounter=e))
    row = next(r for r in board["combatants"] if r["id"] == t["pc"].pk)
    assert row["effects"][0]["name"] == "Guarded"
    assert row["effects"][0]["remaining"] == f"until the end of {name}'s turn"
    for _ in range(20):
        current = encounter_fight(encounter=e).current_ids
        e = _next_turn(t)
        if waiting in current:
            break
        assert _effects(t["ayla"]) == ["Guarded"]
    assert _effects(t["ayla"]) == []
    assert _log(e).count("Guarded ends on Ayla.") == 1
    assert "Guarded ends on Ayla." in _notes(t["campaign"])


@pytest.mark.parametrize("slug", RULESETS)
def test_removing_a_combatant_ends_the_effects_waiting_for_its_turn_and_no_other(slug, fight_of):
    """Its turn will not come: what was to last until its end ends when the GM takes it out, on a
    PC in the fight, on an NPC and on the removed PC itself (out of the fight now); an effect for
    rounds and one until the end of someone else's turn stay."""
    t = fight_of(slug)
    e = Encounter.objects.get(pk=t["e"].pk)
    ruleset, pc, npc = t["ruleset"], t["pc"].pk, t["npc"].pk

    def on_ayla(name: str, duration: dict) -> None:
        fx_services.character_effect_apply(
            character_id=t["ayla"].pk,
            user=t["gm"],
            spec=_blessed(ruleset, name),
            duration=duration,
            encounter=e.pk if "rounds" in duration else None,
        )

    on_ayla("Guarded", {"until": "end_of_turn", "combatant": npc})
    on_ayla("Blessed", {"rounds": 2})
    on_ayla("Steady", {"until": "end_of_turn", "combatant": pc})
    services.encounter_effect_apply(
        encounter=e.pk,
        user=t["gm"],
        combatant_id=npc,
        spec=_blessed(ruleset, "Marked"),
        duration={"until": "end_of_turn", "combatant": npc},
    )
    version = Character.objects.get(pk=t["ayla"].pk).version

    services.encounter_remove_combatant(encounter=e.pk, user=t["gm"], combatant_id=npc)
    e = Encounter.objects.get(pk=e.pk)
    assert _effects(t["ayla"]) == ["Blessed", "Steady"]
    log = _log(e)
    assert log.index("Raider leaves the encounter.") < log.index("Guarded ends on Ayla.")
    assert log.count("Guarded ends on Ayla.") == 1 and "Guarded ends on Ayla." in _notes(t["campaign"])
    assert not any("Marked" in line for line in log[-2:])  # the NPC left with its own
    assert Character.objects.get(pk=t["ayla"].pk).version == version + 1
    assert e.order == [pc]

    # The PC taken out: its own "until the end of Ayla's turn" ends on her sheet, out of the fight.
    services.encounter_remove_combatant(encounter=e.pk, user=t["gm"], combatant_id=pc)
    e = Encounter.objects.get(pk=e.pk)
    assert _effects(t["ayla"]) == ["Blessed"]
    assert _log(e)[-2:] == ["Ayla leaves the encounter.", "Steady ends on Ayla."]
    assert "Steady ends on Ayla." in _notes(t["campaign"])
    assert Combatant.objects.filter(encounter=e).count() == 0


@pytest.mark.parametrize("slug", RULESETS)
def test_the_encounters_end_ends_every_effect_tied_to_it_and_no_other(slug, fight_of):
    t = fight_of(slug)
    e = t["e"]
    ruleset = t["ruleset"]
    fx_services.character_effect_apply(
        character_id=t["ayla"].pk,
        user=t["gm"],
        spec=_blessed(ruleset),
        duration={"rounds": 5},
        encounter=e.pk,
    )
    fx_services.character_effect_apply(
        character_id=t["ayla"].pk, user=t["gm"], spec=_blessed(ruleset, "Lucky")
    )
    # Bo is not in the fight, but waits for the raider's turn: the encounter's clock reaches him too.
    fx_services.character_effect_apply(
        character_id=t["bo"].pk,
        user=t["gm"],
        spec=_blessed(ruleset, "Watchful"),
        duration={"until": "end_of_turn", "combatant": t["npc"].pk},
    )
    services.encounter_effect_apply(
        encounter=e.pk,
        user=t["gm"],
        combatant_id=t["npc"].pk,
        spec=_blessed(ruleset, "Cursed"),
        duration={"rounds": 3},
    )
    assert _npc_effects(t["npc"]) == ["Cursed"]
    services.encounter_end(encounter=e.pk, user=t["gm"])
    assert _effects(t["ayla"]) == ["Lucky"]  # until removed: not the encounter's
    assert _effects(t["bo"]) == []
    assert _npc_effects(t["npc"]) == []
    log = _log(e)
    for line in ("Blessed ends on Ayla.", "Watchful ends on Bo.", "Cursed ends on Raider."):
        assert log.count(line) == 1, log
        assert line in _notes(t["campaign"])
    assert log.index("The encounter ends after 1 round.") < log.index("Blessed ends on Ayla.")


@pytest.mark.parametrize("slug", RULESETS)
def test_a_character_outside_the_fight_loses_its_rounds_with_the_fights_round(slug, fight_of):
    t = fight_of(slug)
    e = Encounter.objects.get(pk=t["e"].pk)
    start = e.round
    fx_services.character_effect_apply(
        character_id=t["bo"].pk,
        user=t["gm"],
        spec=_blessed(t["ruleset"]),
        duration={"rounds": 1},
        encounter=e.pk,
    )
    while e.round == start:
        assert _effects(t["bo"]) == ["Blessed"]
        e = _next_turn(t)
    assert _effects(t["bo"]) == [] and "Blessed ends on Bo." in _log(e)


def _rest_action(ruleset, character) -> dict | None:
    """The sheet's rest action of this character, with its fields' defaults, if its ruleset has one."""
    from characters.sheet.selectors import sheet_rules

    rules = sheet_rules(character=Character.objects.get(pk=character.pk))
    for section in rules.sections:
        for action in section.get("actions") or []:
            if action.get("action") in ruleset.rest_actions:
                out = {"action": action["action"]}
                for field in action.get("fields") or []:
                    if "default" in field:
                        out[field["id"]] = field["default"]
                return out
    return None


@pytest.mark.parametrize("slug", registry.SYSTEMS)
def test_an_effect_until_rest_ends_with_the_sheets_rest_action(slug, table):
    from tests.characters.sheet.test_sheet_fixtures import character_at_table

    ruleset = registry.get(slug)
    character = character_at_table(table, slug)
    rest = _rest_action(ruleset, character)
    if rest is None:
        pytest.skip(f"{ruleset.name} has no rest on its sheet")
    fx_services.character_effect_apply(
        character_id=character.pk,
        user=table["player"],
        spec=_blessed(ruleset, "Weary"),
        duration={"until": "rest"},
    )
    fx_services.character_effect_apply(
        character_id=character.pk, user=table["player"], spec=_blessed(ruleset)
    )
    assert _effects(character) == ["Weary", "Blessed"]
    _, sentence = play.character_state_action(character_id=character.pk, user=table["player"], action=rest)
    assert _effects(character) == ["Blessed"]
    assert sentence.endswith("Weary ends.")


@pytest.mark.parametrize("slug", RULESETS)
def test_the_gm_puts_an_effect_on_an_npc_its_rolls_change_and_it_ends_with_the_round(slug, fight_of):
    t = fight_of(slug)
    e = Encounter.objects.get(pk=t["e"].pk)
    ruleset = t["ruleset"]
    fight = encounter_fight(encounter=e)
    npc = fight.fighter_by_id[t["npc"].pk]
    before = {
        r["id"]: r["request"] for r in ruleset.rollables(npc.build, npc.report, npc.state, ctx=fight.ctx)
    }
    if not before:
        pytest.skip(f"{ruleset.name}'s quick NPC has no rolls")
    key = _key(ruleset)
    entry = services.encounter_effect_apply(
        encounter=e.pk, user=t["gm"], combatant_id=npc.id, spec=_blessed(ruleset), duration={"rounds": 1}
    )
    assert entry["duration"] == {"rounds": 1, "encounter": e.pk, "start_round": e.round}
    stored = Combatant.objects.get(pk=npc.id).state
    assert [x["name"] for x in fx.active_entries(stored)] == ["Blessed"]
    after = {r["id"]: r["request"] for r in ruleset.rollables(npc.build, npc.report, stored, ctx=fight.ctx)}
    low = ruleset.effect_keys[key]
    for rid, request in before.items():
        if isinstance(request, dict) and isinstance(request.get(key), int):
            expected = request[key] + 1 if low is None else max(low, request[key] + 1)
            assert after[rid][key] == expected, rid
    assert "Blessed on Raider, 1 round left." in _log(e)
    assert "Blessed on Raider, 1 round left." in _notes(t["campaign"])
    row = next(
        r for r in encounter_board(fight=encounter_fight(encounter=e))["combatants"] if r["id"] == npc.id
    )
    assert row["effects"] == [{"id": entry["id"], "name": "Blessed", "remaining": "1 round left"}]
    start = e.round
    while e.round == start:
        assert _npc_effects(t["npc"]) == ["Blessed"]
        e = _next_turn(t)
    assert _npc_effects(t["npc"]) == [] and "Blessed ends on Raider." in _log(e)


@pytest.mark.parametrize("slug", RULESETS[:1])
def test_only_the_gm_puts_effects_on_combatants_and_a_refusal_changes_nothing(slug, fight_of):
    t = fight_of(slug)
    e = t["e"]
    with pytest.raises(NotPermitted):
        services.encounter_effect_apply(
            encounter=e.pk, user=t["player"], combatant_id=t["npc"].pk, spec=_blessed(t["ruleset"])
        )
    version = Encounter.objects.get(pk=e.pk).version
    for spec, code in (
        ({"effect": "no_such_effect"}, "effect.unknown"),
        ({"name": "Odd", "changes": [{"target": "all", "luck_of_the_draw": 1}]}, "effect.unknown_key"),
        (
            {"name": "Odd", "changes": [{"target": "no_such_roll", _key(t["ruleset"]): 1}]},
            "effect.unknown_target",
        ),
    ):
        with pytest.raises(BadInput) as refused:
            services.encounter_effect_apply(encounter=e.pk, user=t["gm"], combatant_id=t["npc"].pk, spec=spec)
        assert refused.value.errors[0]["code"] == code
    with pytest.raises(BadInput):
        services.encounter_effect_apply(
            encounter=e.pk,
            user=t["gm"],
            combatant_id=t["npc"].pk,
            spec=_blessed(t["ruleset"]),
            duration={"until": "rest"},
        )
    assert Encounter.objects.get(pk=e.pk).version == version
    assert _npc_effects(t["npc"]) == []


@pytest.mark.parametrize("slug", RULESETS)
def test_the_gm_takes_an_effect_off_a_pc_and_an_npc(slug, fight_of):
    t = fight_of(slug)
    e = t["e"]
    for combatant in (t["pc"], t["npc"]):
        entry = services.encounter_effect_apply(
            encounter=e.pk, user=t["gm"], combatant_id=combatant.pk, spec=_blessed(t["ruleset"])
        )
        services.encounter_effect_remove(
            encounter=e.pk, user=t["gm"], combatant_id=combatant.pk, effect_id=entry["id"]
        )
        with pytest.raises(BadInput):
            services.encounter_effect_remove(
                encounter=e.pk, user=t["gm"], combatant_id=combatant.pk, effect_id=entry["id"]
            )
    assert _effects(t["ayla"]) == [] and _npc_effects(t["npc"]) == []
    log = _log(e)
    assert "Blessed is taken off Ayla." in log and "Blessed is taken off Raider." in log


@pytest.mark.parametrize("slug", RULESETS)
def test_an_npcs_effect_reaches_the_odds_of_its_actions_where_the_combat_rules_apply_effects(slug, fight_of):
    """The encounter's action forms show the odds of what is rolled: a ruleset's combat that passes
    its requests through ``CombatRules.with_effects`` shows an NPC's effect in them."""
    t = fight_of(slug)
    e = Encounter.objects.get(pk=t["e"].pk)
    ruleset = t["ruleset"]

    def odds() -> dict:
        fight = encounter_fight(encounter=e)
        return {s.id: s.odds for s in fighter_actions(fight, fight.fighter_by_id[t["npc"].pk])}

    before = odds()
    services.encounter_effect_apply(
        encounter=e.pk, user=t["gm"], combatant_id=t["npc"].pk, spec=_blessed(ruleset)
    )
    state = Combatant.objects.get(pk=t["npc"].pk).state
    expected = {sid: ruleset.with_effects(request, state) for sid, request in before.items()}
    if expected == before:
        pytest.skip(f"{ruleset.name}'s NPC actions roll nothing an effect on every roll shifts")
    after = odds()
    if after == before:
        pytest.skip(f"{ruleset.name}'s combat does not pass its rolls through with_effects yet")
    assert after == expected


@pytest.mark.parametrize("slug", RULESETS[:2])
def test_what_remains_follows_the_encounters_round_on_the_api_and_the_sheet(slug, fight_of):
    from tests.factories import api_client

    t = fight_of(slug)
    e = Encounter.objects.get(pk=t["e"].pk)
    fx_services.character_effect_apply(
        character_id=t["ayla"].pk,
        user=t["gm"],
        spec=_blessed(t["ruleset"]),
        duration={"rounds": 3},
        encounter=e.pk,
    )
    url = f"/api/v1/characters/{t['ayla'].pk}/effects/"
    assert [x["remaining"] for x in api_client(t["player"]).get(url).json()] == ["3 rounds left"]
    start = e.round
    while e.round == start:
        e = _next_turn(t)
    assert [x["remaining"] for x in api_client(t["player"]).get(url).json()] == ["2 rounds left"]
    client = api_client(t["player"])
    page = client.get(f"/characters/{t['ayla'].pk}/").content.decode()
    assert "2 rounds left" in page
