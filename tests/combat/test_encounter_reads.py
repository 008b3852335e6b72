"""The encounter's reads: who may open it (the campaign's members, no one else) and what a fight
loads (combatants with their characters and owners, the cached reports left out), each in a
bounded number of queries."""

from __future__ import annotations

import random

import pytest
from django.contrib.auth.models import AnonymousUser
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from characters.models import Membership
from combat import services
from combat.selectors import EncounterNotFound, encounter_fight, encounter_for_user, encounter_visible
from rulesets.engine.dice import Roller
from tests.combat.conftest import GOBLIN, pc_action

pytestmark = pytest.mark.django_db


def _work(queries) -> list[str]:
    return [q["sql"] for q in queries.captured_queries if not q["sql"].startswith(("SAVEPOINT", "RELEASE"))]


def test_every_member_opens_the_encounter_with_its_campaign_in_one_query(fight, django_assert_num_queries):
    e = fight["e"]
    for user in (fight["gm"], fight["player"], fight["other"]):
        with django_assert_num_queries(1):
            found = encounter_for_user(user=user, encounter_id=e.pk)
            assert found.campaign.gm_id == fight["gm"].pk  # the campaign came with it
        assert (found.pk, found.name, found.status) == (e.pk, "Live", "active")
        assert (
            sorted(found.order) == sorted([fight["c_pablo"].pk, fight["goblin"].pk])
            and found.order == e.order
        )


def test_an_encounter_is_a_404_for_a_stranger_a_player_who_left_and_a_wrong_id(fight):
    e = fight["e"]
    for user in (fight["stranger"], AnonymousUser()):
        with pytest.raises(EncounterNotFound):
            encounter_for_user(user=user, encounter_id=e.pk)
        assert encounter_visible(user=user, encounter_id=e.pk) is False
    for wrong in (e.pk + 1000, "x", 0, 2**63, None):
        with pytest.raises(EncounterNotFound):
            encounter_for_user(user=fight["player"], encounter_id=wrong)
    Membership.objects.filter(campaign=e.campaign, user=fight["other"]).delete()
    assert encounter_visible(user=fight["other"], encounter_id=e.pk) is False
    assert encounter_visible(user=fight["player"], encounter_id=e.pk) is True


@pytest.mark.postgres_only("row locks: FOR UPDATE OF the encounter's, then the characters' rows")
def test_a_locked_fight_locks_the_encounter_then_its_pcs_characters(fight):
    e = fight["e"]
    with transaction.atomic(), CaptureQueriesContext(connection) as queries:
        locked = encounter_for_user(user=fight["player"], encounter_id=e.pk, for_update=True)
        loaded = encounter_fight(encounter=locked, lock_characters=True)
    encounter_sql, combatants_sql, characters_sql = _work(queries)
    assert encounter_sql.endswith('FOR UPDATE OF "combat_encounter"')
    assert "FOR UPDATE" not in combatants_sql
    assert characters_sql.endswith('FOR UPDATE OF "characters_character"')
    _the_fight_as_loaded(fight, loaded)


def test_a_fight_reads_its_combatants_characters_and_owners_in_one_query(fight, django_assert_num_queries):
    e = encounter_for_user(user=fight["gm"], encounter_id=fight["e"].pk)
    with django_assert_num_queries(1):
        loaded = encounter_fight(encounter=e)
        _the_fight_as_loaded(fight, loaded)


def test_a_locked_fight_of_npcs_alone_reads_no_characters(table, django_assert_num_queries):
    e = services.encounter_create(campaign=table["campaign"], user=table["gm"], name="Goblins")
    services.encounter_add_combatant(encounter=e, user=table["gm"], name="Goblin", build=GOBLIN)
    e = encounter_for_user(user=table["gm"], encounter_id=e.pk)
    with django_assert_num_queries(1):
        loaded = encounter_fight(encounter=e, lock_characters=True)
    assert [(c.name, c.character_id) for c in loaded.combatants] == [("Goblin", None)]


def _the_fight_as_loaded(fight, loaded) -> None:
    """Combatants in id order, the PC's character and owner with it (no query), its report left out."""
    pc, npc = loaded.combatants
    assert (pc.pk, npc.pk) == (fight["c_pablo"].pk, fight["goblin"].pk)
    assert npc.character_id is None and npc.name == "Goblin"
    assert pc.character.pk == fight["pablo"].pk and pc.character.build == fight["pablo"].build
    assert pc.character.owner.username == "player" and pc.encounter is loaded.encounter
    assert pc.character.get_deferred_fields() == {"report"}
    assert [f.id for f in loaded.fighters] == [pc.pk, npc.pk]


def test_an_action_still_costs_what_it_did(fight):
    """encounter_act: the locked encounter, the combatants, the locked PCs, then the writes."""
    action = pc_action(fight)
    with CaptureQueriesContext(connection) as queries:
        services.encounter_act(
            encounter=fight["e"].pk,
            user=fight["player"],
            combatant_id=fight["c_pablo"].pk,
            action=action,
            roller=Roller(random.Random(3)),
        )
    reads = [s for s in _work(queries) if s.startswith("SELECT")]
    assert len(reads) == 3, "\n".join(reads)
