"""The sheet's gear block as one form (issue #33 "Speed"): a character carrying 300 entries gets a
sheet under 300 KiB for the queries of a 2-entry one; each entry's Change button names the entry and
posts it with its own fields (``<index>-state``, ``<index>-<kept field>``), which change that entry
alone; bad input is a 400 with its reason, another player's or a stranger's post changes nothing.
On the first ruleset whose sheet character carries gear with states (tests/vehicles.py)."""

from __future__ import annotations

import re
from unittest import mock

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from characters.models import Character, CharacterVersion
from rulesets.engine import registry
from tests import vehicles
from tests.characters.sheet.test_play import HX, act
from tests.characters.sheet.test_sheet_fixtures import character_at_table

pytestmark = pytest.mark.django_db

SLUG = vehicles.first(vehicles.stated_gear, "a ruleset whose sheet character's gear has states")
RULESET = registry.get(SLUG)
#: The most a 300-entry sheet may weigh (it was 357 KiB with a form per entry).
MOST = 300 * 1024


def _gear_block(html: str) -> str:
    return re.search(r'<section class="card sheet-block" id="sheet-equipment".*?</section>', html, re.S)[0]


def _sheet(client, character) -> tuple[str, int]:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(reverse("character_sheet", args=[character.pk]))
    assert response.status_code == 200
    return response.content.decode(), len(queries.captured_queries)


def _page_fields(block: str, index: int) -> dict[str, list[str]]:
    """What the block's form posts when entry ``index``'s Change button is pressed: every select's
    chosen option, every hidden field and the button's own name and value."""
    fields: dict[str, list[str]] = {}
    for name, options in re.findall(r'<select name="([^"]+)"[^>]*>(.*?)</select>', block, re.S):
        fields.setdefault(name, []).append(re.search(r'<option value="([^"]*)" selected>', options)[1])
    for name, value in re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)">', block):
        fields.setdefault(name, []).append(value)
    fields["item"] = [str(index)]
    return fields


def test_a_300_entry_sheet_is_under_300_kib_with_one_form_and_the_queries_of_a_2_entry_one(client, table):
    client.force_login(table["player"])
    few = character_at_table(table, SLUG, build=vehicles.gear_build(RULESET, 2))
    many = character_at_table(table, SLUG, build=vehicles.gear_build(RULESET, 300))
    _, few_queries = _sheet(client, few)
    html, many_queries = _sheet(client, many)
    assert len(html.encode()) <= MOST, len(html.encode())
    assert many_queries == few_queries
    block = _gear_block(html)
    assert block.count("<form") == 1 and block.count('name="csrfmiddlewaretoken"') == 1
    rows = RULESET.equipment(many.build)["rows"]
    assert len(rows) == 300
    for row in rows:  # each entry's controls, named with the entry for a screen reader
        if row["has_state"]:
            i, name = row["index"], re.escape(row["name"])
            assert re.search(
                rf'<label class="visually-hidden" for="equipment-state-{i}">State of {name}</label>', block
            )
            assert re.search(
                rf'<button type="submit" name="item" value="{i}" [^>]*id="equipment-change-{i}" '
                rf'aria-label="Change the state of {name}">Change</button>',
                block,
            )


def test_the_change_button_of_an_entry_changes_that_entry_alone(client, table):
    character = character_at_table(table, SLUG, build=vehicles.gear_build(RULESET, 12))
    client.force_login(table["player"])
    ((index, state),) = vehicles.gear_changes(RULESET, character.build, 1)
    html, _ = _sheet(client, character)
    fields = _page_fields(_gear_block(html), index)
    fields[f"{index}-state"] = [state]
    other = next(row["index"] for row in RULESET.equipment(character.build)["rows"] if row["index"] != index)
    fields[f"{other}-state"] = [state]  # another entry's select changed on the page: not posted for it
    before, v0 = character.build, character.version
    response = client.post(reverse("character_equipment_change", args=[character.pk]), fields, **HX)
    assert response.status_code == 200
    assert 'id="sheet-equipment"' in response.content.decode()[:300]
    character.refresh_from_db()
    gear = character.build[RULESET.equipment_key]
    assert RULESET.equipment(character.build)["rows"][index]["state"] == state
    assert [e for i, e in enumerate(gear) if i != index] == [
        e for i, e in enumerate(before[RULESET.equipment_key]) if i != index
    ]
    assert character.version == v0 + 1
    reason = CharacterVersion.objects.get(character=character, number=v0 + 1).reason
    assert reason == f"loadout: {RULESET.equipment_change(before, index, state)[1]}"


def test_an_entrys_kept_fields_go_with_its_index(client, table):
    """The fields a row keeps (``keep``) are posted back as they are, under the entry's index."""
    build = vehicles.gear_build(RULESET, 6)
    rows = RULESET.equipment(build)["rows"]
    kept = next((row for row in rows if row["has_state"] and row["keep"]), None)
    if kept is None:
        pytest.skip("no entry of the sheet character keeps a field")
    character = character_at_table(table, SLUG, build=build)
    client.force_login(table["player"])
    html, _ = _sheet(client, character)
    fields = _page_fields(_gear_block(html), kept["index"])
    with mock.patch("characters.sheet.services.character_equipment_state", return_value=character) as change:
        client.post(reverse("character_equipment_change", args=[character.pk]), fields)
    change.assert_called_once_with(
        character_id=character.pk,
        user=table["player"],
        index=kept["index"],
        state={"state": kept["state"], **kept["keep"]},
    )


@pytest.mark.parametrize(
    ("fields", "reason"),
    [
        ({}, "Equipment entry: this is required."),
        ({"item": "sword"}, "Equipment entry: enter a whole number"),
        ({"item": "-1"}, "Equipment entry: -1 is out of range"),
    ],
)
def test_a_post_that_names_no_entry_is_refused_with_its_reason_and_changes_nothing(
    client, table, fields, reason
):
    character = character_at_table(table, SLUG)
    v0 = character.version
    client.force_login(table["player"])
    response = client.post(reverse("character_equipment_change", args=[character.pk]), fields, **HX)
    assert response.status_code == 400
    assert reason in response.content.decode()
    character.refresh_from_db()
    assert character.version == v0


def test_an_entry_that_is_not_there_is_refused_in_words(client, table):
    character = character_at_table(table, SLUG)
    v0 = character.version
    client.force_login(table["player"])
    index = len(character.build[RULESET.equipment_key])
    response = client.post(
        reverse("character_equipment_change", args=[character.pk]),
        {"item": str(index), f"{index}-state": "x"},
        **HX,
    )
    block = _gear_block(response.content.decode())
    assert re.search(r'data-testid="equipment-error">[^<]+<', block)
    character.refresh_from_db()
    assert character.version == v0


@pytest.mark.parametrize(("who", "status"), [("gm", 403), ("other", 404), ("stranger", 404)])
def test_only_the_owner_changes_the_gear_from_the_block(client, table, who, status):
    character = character_at_table(table, SLUG)
    v0, build = character.version, character.build
    ((index, state),) = vehicles.gear_changes(RULESET, build, 1)
    client.force_login(table[who])
    response = client.post(
        reverse("character_equipment_change", args=[character.pk]),
        {"item": str(index), f"{index}-state": state},
        **HX,
    )
    assert response.status_code == status
    character.refresh_from_db()
    assert character.version == v0 and character.build == build


def test_without_javascript_the_block_posts_with_its_one_token_and_comes_back_to_the_gear(table):
    """A plain form post (no htmx, so no X-CSRFToken header): the block's one token passes Django's
    CSRF check, and the answer is the sheet at its gear."""
    from django.test import Client

    character = character_at_table(table, SLUG, build=vehicles.gear_build(RULESET, 8))
    ((index, state),) = vehicles.gear_changes(RULESET, character.build, 1)
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(table["player"])
    block = _gear_block(browser.get(reverse("character_sheet", args=[character.pk])).content.decode())
    fields = _page_fields(block, index)
    fields[f"{index}-state"] = [state]
    response = browser.post(reverse("character_equipment_change", args=[character.pk]), fields)
    assert response.status_code == 302
    assert response["Location"] == reverse("character_sheet", args=[character.pk]) + "#sheet-equipment"
    assert RULESET.equipment(Character.objects.get(pk=character.pk).build)["rows"][index]["state"] == state


def test_a_change_of_play_state_keeps_the_drawn_gear_and_a_change_of_gear_draws_it_again(client, table):
    """The block is kept by version and, within, by what it shows: a play-state change (a new
    version) finds its entries drawn already; a loadout change draws them again, the new state shown."""
    from django.core.cache import caches

    def kept() -> set[str]:
        return {key for key in caches["template_fragments"]._cache if "sheet-equipment-rows" in key}

    caches["template_fragments"].clear()
    character = character_at_table(table, SLUG, build=vehicles.gear_build(RULESET, 6))
    client.force_login(table["player"])
    _sheet(client, character)
    drawn = kept()
    assert len(drawn) == 1
    act(client, character, **RULESET.contract_data()["play_actions"][0])
    character.refresh_from_db()
    html, _ = _sheet(client, character)
    assert kept() == drawn and f'data-version="{character.version}"' in html
    ((index, state),) = vehicles.gear_changes(RULESET, character.build, 1)
    client.post(
        reverse("character_equipment_change", args=[character.pk]),
        {"item": str(index), f"{index}-state": state},
        **HX,
    )
    html, _ = _sheet(client, character)
    assert len(kept() - drawn) == 1
    shown = RULESET.equipment(Character.objects.get(pk=character.pk).build)["rows"][index]["state_label"]
    assert f'<li id="equipment-{index}"><span class="sheet-item-name">' in html
    assert re.search(rf'<li id="equipment-{index}">.*?<span class="badge">{re.escape(shown)}</span>', html)
