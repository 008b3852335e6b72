"""Twenty Pando actions at once at one encounter (moved from tests/combat/test_concurrency.py): the row
lock serialises them, so the log holds exactly the accepted ones and the speed budget is never
overspent."""

from __future__ import annotations

import threading
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connection

from combat import services
from combat.models import Combatant, EncounterEvent
from config.api import RuleRefused
from rulesets.engine.dice import FixedRoller
from tests.combat.conftest import stray_connections_closed  # noqa: F401 (the fixture)
from tests.rulesets.pando.fight_table import GOBLIN, table  # noqa: F401 (Pando's combat table)

pytestmark = [
    pytest.mark.django_db(transaction=True),
    # Row locks are the point of these tests; SQLite locks the whole file instead (make test's fallback).
    pytest.mark.skipif(connection.vendor == "sqlite", reason="concurrency needs Postgres row locks"),
]


@pytest.fixture
def fight(table, stray_connections_closed):  # noqa: F811
    gm = table["gm"]
    e = services.encounter_create(campaign=table["campaign"], user=gm, name="Melee")
    pablo = services.encounter_add_combatant(encounter=e, user=gm, character=table["pablo"])[0]
    services.encounter_add_combatant(encounter=e, user=gm, name="Goblin", build=GOBLIN)
    services.encounter_start(encounter=e, user=gm, roller=FixedRoller([]))
    return {**table, "e": e, "c_pablo": pablo}


def _fire(fight, actions: list[str]) -> list[str]:
    """Each action from its own thread (its own connection), all released at once."""
    barrier = threading.Barrier(len(actions))
    e, pablo, player = fight["e"], fight["c_pablo"], fight["player"]

    def one(action: str) -> str:
        try:
            barrier.wait(timeout=10)
            services.encounter_act(
                encounter=e.pk, user=player, combatant_id=pablo.pk, action={"action": action}
            )
            return "ok"
        except RuleRefused as exc:
            return exc.errors[0]["code"]
        finally:
            connection.close()

    with ThreadPoolExecutor(max_workers=len(actions)) as pool:
        return list(pool.map(one, actions))


def _costs(e) -> dict[str, list[int]]:
    out: dict[str, list[int]] = {}
    for kind, cost in (
        EncounterEvent.objects.filter(encounter=e, kind__in=["move", "strike"])
        .order_by("seq")
        .values_list("kind", "data__cost")
    ):
        out.setdefault(kind, []).append(cost)
    return out


def test_twenty_moves_at_once_leave_exactly_the_three_that_six_speed_pays_for(fight):
    e = fight["e"]
    before = EncounterEvent.objects.filter(encounter=e).count()
    e.refresh_from_db()
    version = e.version
    results = _fire(fight, ["move"] * 20)
    assert Counter(results) == {"ok": 3, "pando.not_enough_speed": 17}
    assert _costs(e) == {"move": [1, 2, 3]}
    pablo = Combatant.objects.get(pk=fight["c_pablo"].pk)
    assert pablo.combat["speed"] == 0 and pablo.combat["uses"] == {"move": 3}
    seqs = list(EncounterEvent.objects.filter(encounter=e).order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(1, before + 4))
    e.refresh_from_db()
    assert e.version == version + 3


def test_mixed_actions_at_once_never_overspend(fight):
    e = fight["e"]
    results = _fire(fight, ["move", "strike:0"] * 10)
    accepted = results.count("ok")
    assert set(results) <= {"ok", "pando.not_enough_speed"}
    costs = _costs(e)
    # Each kind's accepted uses cost 1, 2, 3… in the order they were applied; together at most 6.
    for kind, paid in costs.items():
        assert paid == list(range(1, len(paid) + 1)), (kind, paid)
    spent = sum(sum(p) for p in costs.values())
    assert accepted == sum(len(p) for p in costs.values())
    pablo = Combatant.objects.get(pk=fight["c_pablo"].pk)
    assert pablo.combat["speed"] == 6 - spent >= 0
    # Greedy spending of 6 speed on two kinds always accepts 4 (1+1+2+2) or 3 (e.g. 1+2+3 of one kind).
    assert accepted in (3, 4)
    seqs = list(EncounterEvent.objects.filter(encounter=e).order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(1, len(seqs) + 1))
