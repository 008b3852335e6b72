"""Pando's play state on the sheet: harm on an arm and its speed cost, an invalid state refused at its
path, and the loadout (what is carried, a slot conflict, the GM kept out) (moved from tests/characters/sheet/test_play.py, which tests the product's play state on every ruleset)."""

from __future__ import annotations

import re

import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse

from characters.models import CharacterVersion
from characters.sheet import services as play
from config.api import RuleRefused
from tests.characters.sheet.test_play import HX, act
from tests.characters.sheet.test_sheet_fixtures import BUILDS, character_at_table

pytestmark = pytest.mark.django_db


def test_pando_harm_on_the_right_arm_wounds_it_and_raises_the_strike_speed_cost(client, table):
    character = character_at_table(table, "pando")
    v0 = character.version
    client.force_login(table["player"])
    before = client.get(reverse("character_sheet", args=[character.pk])).content.decode()
    assert re.search(r'data-testid="speed-cost-right_arm">—<', before)
    html = act(client, character, action="harm", body_part="right_arm", amount="1", protected="true")
    # The response swaps the state block and, out of band, the numbers, effects and roll buttons.
    assert (
        html.startswith('\n      <section class="card sheet-block" id="sheet-state"')
        or 'id="sheet-state"' in html[:200]
    )
    assert 'id="sheet-derived" aria-labelledby="sheet-derived-heading" hx-swap-oob="true"' in html
    row = re.search(r'<tr id="body-right_arm".*?</tr>', html, re.S).group(0)
    assert '<td class="body-status">wounded</td>' in row and "<td>1 / 5</td>" in row
    assert re.search(r'data-testid="speed-cost-right_arm">\+1<', html)
    strike = re.search(r'data-rollable="item:0:strike".*?</li>', html, re.S).group(0)
    assert "· 2 speed" in strike and "right arm is wounded" in strike
    character.refresh_from_db()
    assert character.state["harm"]["right_arm"] == 1
    assert character.version == v0 + 1
    version = CharacterVersion.objects.get(character=character, number=v0 + 1)
    assert (
        version.reason.startswith("Alex takes 1 harm to the right arm")
        and version.state["harm"]["right_arm"] == 1
    )
    assert version.author == table["player"]


def test_update_state_refuses_an_invalid_state_with_the_issue_path(table):
    character = character_at_table(table, "pando")
    v0 = character.version
    state = {**character.state, "harm": {**character.state["harm"], "tail": 2}}
    with pytest.raises(play.StateInvalid) as exc:
        play.character_update_state(character_id=character.pk, user=table["player"], state=state, version=v0)
    assert exc.value.status_code == 400
    assert any(e["path"] == "/harm/tail" for e in exc.value.errors), exc.value.errors
    with pytest.raises(play.StateInvalid):
        play.character_update_state(character_id=character.pk, user=table["player"], state=[1, 2], version=v0)
    character.refresh_from_db()
    assert character.version == v0 and "tail" not in character.state["harm"]


def loadout_build() -> dict:
    build = dict(BUILDS["pando"])
    build["equipment"] = [*build["equipment"], {"item": "steel_helm", "state": "carried"}]
    return build


def test_the_owner_changes_what_is_carried_and_a_version_is_written(client, table):
    character = character_at_table(table, "pando", build=loadout_build())
    v0 = character.version
    client.force_login(table["player"])
    url = reverse("character_equipment", args=[character.pk, 2])
    response = client.post(url, {"state": "carried"}, **HX)
    assert response.status_code == 200
    html = response.content.decode()
    assert re.search(r'<tr data-part="head">\s*<th scope="row">Head</th>\s*<td>—</td>', html)
    character.refresh_from_db()
    assert character.build["equipment"][2]["state"] == "carried" and character.version == v0 + 1
    assert character.report["derived"]["protection"]["head"] == {}
    assert (
        CharacterVersion.objects.get(character=character, number=v0 + 1).reason
        == "loadout: Leather Cap carried"
    )


def test_a_slot_conflict_is_refused_with_the_report_error(client, table):
    character = character_at_table(table, "pando", build=loadout_build())
    v0 = character.version
    with pytest.raises(RuleRefused) as exc:
        play.character_equipment_state(character_id=character.pk, user=table["player"], index=4, state="worn")
    assert exc.value.errors[0]["code"] == "equipment.slot_conflict"
    client.force_login(table["player"])
    response = client.post(reverse("character_equipment", args=[character.pk, 4]), {"state": "worn"}, **HX)
    assert "equipment-error" in response.content.decode()
    character.refresh_from_db()
    assert character.build["equipment"][4]["state"] == "carried" and character.version == v0


def test_the_gm_cannot_change_the_loadout(client, table):
    character = character_at_table(table, "pando")
    v0 = character.version
    with pytest.raises(PermissionDenied):
        play.character_equipment_state(character_id=character.pk, user=table["gm"], index=3, state="carried")
    client.force_login(table["gm"])
    response = client.post(reverse("character_equipment", args=[character.pk, 3]), {"state": "carried"}, **HX)
    assert response.status_code == 403
    character.refresh_from_db()
    assert character.version == v0
