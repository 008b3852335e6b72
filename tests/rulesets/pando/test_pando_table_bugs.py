"""Pando's small things at the table (issue #12, moved from tests/characters/sheet/test_table_bugs.py): a roll with no EP reads 0 EP, not None."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from characters.sheet import services as play
from rulesets.engine.dice import FixedRoller
from tests.characters.sheet.test_sheet_fixtures import character_at_table
from tests.characters.sheet.test_table_bugs import HX

pytestmark = pytest.mark.django_db


def test_a_pando_roll_with_no_ep_reads_0_ep_not_none(client, table, monkeypatch):
    character = character_at_table(table, "pando")
    monkeypatch.setattr(play, "Roller", lambda: FixedRoller([6, 6, 6]))
    client.force_login(table["player"])
    html = client.post(
        reverse("character_roll", args=[character.pk]), {"rollable": "skill:capability"}, **HX
    ).content.decode()
    outcome = re.search(r'data-testid="roll-outcome">(.*?)</p>', html, re.S).group(1)
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", outcome)).strip()
    assert text == (
        "Capability (Coordination 3d6, level 1): Rolled 3d6 against skill level 1: 6, 6, 6 → 0 EP"
        " (no outcome this time). 0 EP"
    )
    assert "None" not in html
