"""The ascendant sheet shows each feat effect with its source (issue #15), in the game's words."""

from __future__ import annotations

import copy
import re

import pytest

from characters.builder.services import campaign_update_homebrew
from tests.characters.sheet.test_sheet import sheet, stat
from tests.characters.sheet.test_sheet_fixtures import BUILDS, make_campaign, make_character
from tests.rulesets.ascendant.test_feat_effects import IRON_GRIP

pytestmark = pytest.mark.django_db


def test_the_sheet_shows_a_homebrew_feats_bonus_with_its_source(client, table):
    campaign = make_campaign(gm=table["gm"], ruleset="ascendant", players=[table["player"]])
    result = campaign_update_homebrew(campaign=campaign, user=table["gm"], homebrew={"feats": [IRON_GRIP]})
    assert result.saved, result.issues
    build = copy.deepcopy(BUILDS["ascendant"])
    slot = build["levels"]["1"]["feats"]
    slot["general"] = "iron_grip"
    character = make_character(ruleset="ascendant", owner=table["player"], campaign=campaign, build=build)
    assert character.report["valid"], character.report["errors"]
    client.force_login(table["player"])
    html = sheet(client, character)
    athletics = character.report["derived"]["skills"]["athletics"]
    assert re.search(rf'data-testid="skill-athletics">\+{athletics}<', html)
    part = character.report["derived"]["breakdown"]["skill.athletics"]
    assert part["total"] == part["base"] + 2 == athletics
    block = re.search(
        r'<div data-key="breakdown-skill.athletics"><dt>Athletics</dt><dd>(.*?)</dd>', html, re.S
    )
    assert block and f"{part['base']} → <strong>{athletics}</strong>" in block.group(1)
    assert '<span class="sheet-modifier">+2 circumstance from Iron Grip</span>' in block.group(1)
    # no ids or JSON in the new blocks
    section = html[html.index("Where the numbers come from") : html.index('id="sheet-derived"') + 20000]
    assert "iron_grip" not in section and "{'" not in section and "skill.athletics</" not in section


def test_the_sheet_shows_speed_initiative_and_situational_bonuses(client, table):
    campaign = make_campaign(gm=table["gm"], ruleset="ascendant", players=[table["player"]])
    build = copy.deepcopy(BUILDS["ascendant"])
    character = make_character(ruleset="ascendant", owner=table["player"], campaign=campaign, build=build)
    client.force_login(table["player"])
    html = sheet(client, character)
    d = character.report["derived"]
    assert stat(html, "speed") == f"{d['speed']} feet"
    for mod in d.get("situational", []):
        assert mod["text"] in html
    if d.get("actions"):
        assert "Actions from feats" in html
    assert "+1 from Toughness (+1 per level)" in html  # the fixture wizard's general feat
