"""Our D&D's small things at the table (issue #12, moved from tests/characters/sheet/test_table_bugs.py): a failed roll is marked on its failure bar."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from characters.sheet import services as play
from rulesets.engine.dice import FixedRoller
from tests.characters.sheet.test_sheet_fixtures import character_at_table
from tests.characters.sheet.test_table_bugs import HX

pytestmark = pytest.mark.django_db


def test_a_failed_our_dnd_roll_is_marked_on_its_failure_bar(client, table, monkeypatch):
    character = character_at_table(table, "ourdnd")
    monkeypatch.setattr(play, "Roller", lambda: FixedRoller([5]))
    client.force_login(table["player"])
    html = client.post(
        reverse("character_roll", args=[character.pk]), {"rollable": "check:str:normal"}, **HX
    ).content.decode()
    labels = re.findall(r'<g class="roll-bar( is-rolled)?" data-label="([^"]+)"', html)
    assert labels[:4] == [("", "Blunder"), (" is-rolled", "Failure"), ("", "Success"), ("", "Critical")]
    # d20 at STR +2 against TD 12: faces 2–9 fail (8 in 20).
    assert "<title>Failure: 40.0%</title>" in html
