"""Ascendant's whole rulebook through the doors (W10–W12, W21): the sheet page, its gear form, the
API and the CLI. The pure rules are tested in test_whole_rulebook.py."""

from __future__ import annotations

import copy
import io
import json
import re

import pytest
from django.core.management import call_command
from django.urls import reverse

from characters.models import Character
from tests.characters.sheet.test_sheet import sheet, stat
from tests.characters.sheet.test_sheet_fixtures import character_at_table
from tests.rulesets.ascendant.test_whole_rulebook import WIZARD, YSOLDE

pytestmark = pytest.mark.django_db

#: Ysolde, the demo's level-1 wizard (Strength +0, spell threshold 16), with five greataxes (10 gp, Bulk 10: encumbered, at the
#: most she can carry) and a staff set down (Bulk 1 more: picking it up overloads her).
LOADED = {
    **copy.deepcopy(YSOLDE),
    "name": "Ysolde the Porter",
    "gear": [{"item": "greataxe"}] * 5 + [{"item": "staff", "state": "set_down"}],
}


def test_the_sheet_shows_the_spell_threshold_bulk_gear_and_house_defaults(client, table):
    character = character_at_table(table, "ascendant", build=LOADED)
    assert character.status == Character.Status.ACTIVE
    assert character.report["spent"]["gp"] == 10 and character.report["remaining"]["gp"] == 5
    client.force_login(table["player"])
    html = sheet(client, character)
    assert re.search(r'<tr data-key="spell"><th scope="row">Spell threshold</th><td>—</td><td>16</td>', html)
    assert stat(html, "bulk") == "10 of 5 — encumbered (Clumsy 1)"
    assert html.count("Greataxe") >= 5 and "Staff" in html and "Set down" in html
    assert "Multiple attack penalty −5/−10, agile −4/−8 (house default)" in html
    assert "Dying 4 is death (house default)" in html
    for word in ("set_down", "spell_attribute", "bulk_limit", "ascendant.overloaded"):
        assert word not in re.sub(r'(name|value|data-[a-z-]+|id|for|class)="[^"]*"', "", html)


def test_a_house_rule_is_said_so_on_the_sheet(client, table):
    character = character_at_table(table, "ascendant", build=LOADED)
    campaign = character.campaign
    campaign.settings = {**campaign.settings, "house_rules": {"dying_max": 5}}
    campaign.save()
    client.force_login(table["player"])
    assert "Dying 5 is death (house rule)" in sheet(client, character)


def test_picking_up_what_overloads_is_refused_and_changes_nothing(client, table):
    character = character_at_table(table, "ascendant", build=LOADED)
    before = (character.version, copy.deepcopy(character.build))
    client.force_login(table["player"])
    url = reverse("character_equipment", args=[character.pk, 5])
    response = client.post(url, {"state": "carried"}, follow=True)
    assert response.status_code == 200
    assert "Bulk 11 is more than you can carry at all (10 + Strength +0 = 10)" in response.content.decode()
    character.refresh_from_db()
    assert (character.version, character.build) == before
    # Setting a greataxe down is allowed: Bulk 8, a new version.
    client.post(reverse("character_equipment", args=[character.pk, 0]), {"state": "set_down"})
    character.refresh_from_db()
    assert character.build["gear"][0]["state"] == "set_down" and character.report["derived"]["bulk"] == 8


def test_another_player_cannot_change_the_gear(client, table):
    character = character_at_table(table, "ascendant", build=LOADED)
    before = character.version
    client.force_login(table["other"])
    response = client.post(reverse("character_equipment", args=[character.pk, 0]), {"state": "set_down"})
    assert response.status_code == 404
    character.refresh_from_db()
    assert character.version == before and "state" not in character.build["gear"][0]


def test_the_api_prices_gold_and_weighs_bulk(client):
    ruleset = client.get("/api/v1/rulesets/ascendant/").json()
    assert "gp" in ruleset["currencies"] and ruleset["awardable"] == ["xp"]
    assert {w["id"] for w in ruleset["catalogue"]["weapons"]} >= {"dagger", "longbow"}
    assert ruleset["house_defaults"]["weapon_table"]["longsword"]["die"] == 8
    body = {**WIZARD, "gear": [{"item": "longbow"}], "armor": "half_plate"}
    report = client.post("/api/v1/rulesets/ascendant/validate/", body, content_type="application/json").json()
    assert report["spent"]["gp"] == 18 and report["remaining"]["gp"] == -3
    assert {"code": "budget.exceeded", "path": "/budget/gp"}.items() <= report["errors"][0].items()
    assert report["derived"]["bulk"] == 5 and report["derived"]["bulk_limit"] == 5
    assert report["derived"]["thresholds"]["spell"] == 16


def test_the_cli_reports_the_new_derived_keys(tmp_path):
    path = tmp_path / "porter.json"
    path.write_text(json.dumps(LOADED))
    out = io.StringIO()
    try:
        call_command("rules", "validate", str(path), stdout=out)
    except SystemExit as exc:
        assert exc.code == 0
    line = json.loads(out.getvalue())
    assert line["valid"] and line["spent"] == {"xp": 0, "gp": 10} and line["budget"] == {"xp": 0, "gp": 15}
    assert (line["derived"]["bulk"], line["derived"]["bulk_limit"], line["derived"]["encumbered"]) == (
        10,
        5,
        True,
    )
    assert line["derived"]["thresholds"]["spell"] == 16


def test_the_sheet_lists_both_class_proficiencies(client, table):
    from tests.rulesets.ascendant.test_whole_rulebook import _lirael_learns

    character = character_at_table(
        table, "ascendant", build=_lirael_learns("wizard_dedication", "basic_arcana", "advanced_arcana")
    )
    client.force_login(table["player"])
    html = sheet(client, character)
    assert stat(html, "class_proficiency") == "Expert (Bard); Expert (Wizard, Student of the Arcane)"
