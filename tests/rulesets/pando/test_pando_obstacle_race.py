"""Two players put EP into one obstacle at the same moment (W2: "EP put into it accumulates over rolls
and people"; the issue: "two players putting EP in at once both count"): the obstacle's row lock
serialises them, so both count. Each spends their own sheet roll (two characters: only the
obstacle's row is shared)."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connection

from characters.models import Obstacle
from characters.obstacles.services import obstacle_create
from characters.sheet.services import character_roll, character_spend_roll
from rulesets.engine.dice import FixedRoller
from tests.combat.conftest import stray_connections_closed  # noqa: F401 (the fixture)
from tests.rulesets.pando.fight_table import table  # noqa: F401 (Pando's combat table)

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor == "sqlite", reason="concurrency needs Postgres row locks"),
]


def test_two_spends_into_one_obstacle_at_once_both_count(table, stray_connections_closed):  # noqa: F811
    door = obstacle_create(
        campaign=table["campaign"], user=table["gm"], data={"name": "Portcullis", "level": 10}
    )
    pairs = [(table["pablo"], table["player"]), (table["bea"], table["other"])]
    for character, user in pairs:
        character_roll(
            character_id=character.pk, user=user, rollable_id="item:0:strike", roller=FixedRoller([1] * 3)
        )
    barrier = threading.Barrier(2)

    def one(pair) -> str:
        character, user = pair
        try:
            barrier.wait(timeout=10)
            _, text = character_spend_roll(
                character_id=character.pk,
                user=user,
                request={"obstacle": door.pk, "ep_to_obstacle": 2, "outcomes": []},
            )
            return text
        finally:
            connection.close()

    with ThreadPoolExecutor(max_workers=2) as pool:
        texts = list(pool.map(one, pairs))
    assert Obstacle.objects.get(pk=door.pk).ep == 4  # 2 + 2: neither lost
    puts = sorted(t.split("EP of ", 1)[0] for t in texts)
    assert puts == ["Bea spends 2 ", "Pablo spends 2 "]
    assert sorted(t.rsplit("Portcullis (", 1)[1] for t in texts) == ["2/10).", "4/10)."]
