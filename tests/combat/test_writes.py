"""What one step of a fight writes: few queries, only what changed, only active characters."""

from __future__ import annotations

import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from characters.models import Character, CharacterVersion
from combat import services
from combat.fight import fighter_actions
from combat.models import Encounter
from combat.selectors import campaign_characters_to_add, encounter_fight
from rulesets.engine.dice import Roller
from tests import vehicles
from tests.characters.sheet.test_sheet_fixtures import make_character
from tests.combat.conftest import BEA, GOBLIN, SLUG
from tests.combat.helpers import refused, snapshot

pytestmark = pytest.mark.django_db


@pytest.fixture
def running(table):
    gm = table["gm"]
    e = services.encounter_create(campaign=table["campaign"], user=gm, name="Ford")
    pablo = services.encounter_add_combatant(encounter=e, user=gm, character=table["pablo"])[0]
    services.encounter_add_combatant(encounter=e, user=gm, character=table["bea"])
    goblins = services.encounter_add_combatant(encounter=e, user=gm, name="Goblin", build=GOBLIN, count=3)
    services.encounter_start(encounter=e, user=gm, roller=Roller(random.Random(7)))
    vehicles.turn_to(e, pablo, gm)
    return {**table, "e": e, "c_pablo": pablo, "goblins": goblins}


def _sql(queries) -> list[str]:
    """The statements that are work (not the transaction's bookkeeping)."""
    return [q["sql"] for q in queries if not q["sql"].startswith(("SAVEPOINT", "RELEASE", "BEGIN", "COMMIT"))]


def test_a_rolled_action_is_eight_statements_with_a_pc_in_the_fight(running):
    """Lock the encounter (with "is this user the GM?"), read the combatants, lock the PCs, write
    the one changed combatant, insert the events, insert the roll into the table's feed (one row
    per rolled event, in one statement), its webhooks' outbox (one INSERT … SELECT: none here),
    save the encounter: the log is not re-read (the next seq comes with
    the locked row) and nothing unchanged is written."""
    e, pablo = running["e"], running["c_pablo"]
    strike = vehicles.fight_action(e, pablo, gm=False, target=running["goblins"][0])  # it rolls
    with CaptureQueriesContext(connection) as q:
        services.encounter_act(
            encounter=e.pk,
            user=running["player"],
            combatant_id=pablo.pk,
            action=strike,
            roller=Roller(random.Random(3)),
        )
    sql = _sql(q.captured_queries)
    assert len(sql) == 8, "\n".join(sql)
    assert sum(s.startswith("INSERT INTO characters_webhookdelivery") for s in sql) == 1
    assert sum(s.startswith('UPDATE "combat_combatant"') for s in sql) == 1
    assert sum(s.startswith('INSERT INTO "characters_rolllog"') for s in sql) == 1
    assert not any('characters_membership" WHERE' in s and s.startswith("SELECT 1") for s in sql)


def test_the_seq_stays_gap_free_and_is_read_with_the_lock(running):
    e, goblin = running["e"], running["goblins"][0]
    gm_action = vehicles.fight_action(e, goblin, gm=True, target=goblin)
    for _ in range(3):
        services.encounter_act(encounter=e.pk, user=running["gm"], combatant_id=goblin.pk, action=gm_action)
    e.refresh_from_db()
    seqs = list(e.events.order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(1, len(seqs) + 1)) and e.last_seq == seqs[-1]


def test_an_action_that_leaves_a_pcs_play_state_as_it_was_writes_no_character_version(running):
    """Pablo moves (his action at no one): his combat numbers change, his sheet does not."""
    pablo, c_pablo = running["pablo"], running["c_pablo"]
    before = Character.objects.get(pk=pablo.pk).version
    versions = CharacterVersion.objects.filter(character=pablo).count()
    move = vehicles.fight_action(running["e"], c_pablo, gm=False, untargeted=True)
    state = Character.objects.get(pk=pablo.pk).state
    services.encounter_act(
        encounter=running["e"], user=running["player"], combatant_id=c_pablo.pk, action=move
    )
    assert Character.objects.get(pk=pablo.pk).state == state  # the move left the sheet as it was
    assert Character.objects.get(pk=pablo.pk).version == before
    assert CharacterVersion.objects.filter(character=pablo).count() == versions
    # The GM's first action on him (harm, damage) does change the sheet: a version, as before.
    harm = vehicles.fight_action(running["e"], c_pablo, gm=True, untargeted=True)
    services.encounter_act(encounter=running["e"], user=running["gm"], combatant_id=c_pablo.pk, action=harm)
    assert Character.objects.get(pk=pablo.pk).state != state
    assert Character.objects.get(pk=pablo.pk).version == before + 1


def test_a_refused_action_changes_nothing(running):
    e, pablo = running["e"], running["c_pablo"]
    fight = encounter_fight(encounter=Encounter.objects.get(pk=e.pk))
    fighter = next(f for f in fight.fighters if f.id == pablo.pk)
    spec = next(s for s in fighter_actions(fight, fighter) if not s.allowed and s.code and not s.gm)
    before = snapshot(e)
    refused(
        spec.code,  # the rules' own refusal of an action they list as not allowed now
        services.encounter_act,
        encounter=e,
        user=running["player"],
        combatant_id=pablo.pk,
        action={"action": spec.id},
    )
    assert snapshot(e) == before


def test_only_active_characters_join_an_encounter(table):
    """A draft (not yet approved by the GM) cannot be added, and is not offered."""
    gm = table["gm"]
    draft = make_character(
        ruleset=SLUG,
        owner=table["other"],
        campaign=table["campaign"],
        build={**BEA, "name": "Bea Draft"},
        status=Character.Status.DRAFT,
    )
    e = services.encounter_create(campaign=table["campaign"], user=gm, name="Ford")
    offered = campaign_characters_to_add(fight=encounter_fight(encounter=e))
    assert draft not in offered and table["pablo"] in offered
    exc = refused(
        "combat.character_not_active",
        services.encounter_add_combatant,
        encounter=e,
        user=gm,
        character=draft.pk,
    )
    assert "only active characters can join" in str(exc.detail)
    assert not Encounter.objects.get(pk=e.pk).combatants.exists()
