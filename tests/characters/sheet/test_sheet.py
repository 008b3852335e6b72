"""The sheet page: drafts, print, query budget, pool buttons and the roll log, on the registry's
rulesets (tests/vehicles.py). Each game's derived numbers: tests/rulesets/<slug>/test_*_sheet.py."""

from __future__ import annotations

import random
import re

import pytest
from django.urls import reverse
from django.utils.html import escape

from characters.models import Character, CharacterVersion, RollLog
from characters.sheet import services as play
from rulesets.engine import registry
from rulesets.engine.dice import Roller
from tests import vehicles
from tests.characters.sheet.test_sheet_fixtures import character_at_table
from tests.vehicles import SLUGS

pytestmark = pytest.mark.django_db


def sheet(client, character, **params):
    response = client.get(reverse("character_sheet", args=[character.pk]), params)
    assert response.status_code == 200, response.content[:500]
    return response.content.decode()


def cell(html: str, testid: str) -> str:
    match = re.search(rf'data-testid="{re.escape(testid)}"[^>]*>(.*?)</', html, re.S)
    assert match, f"no element {testid}"
    return match.group(1).strip()


def pool(html: str, pool_id: str) -> tuple[int, int | None]:
    """(current, max) of a pool in the play-state block."""
    match = re.search(rf'data-testid="pool-{re.escape(pool_id)}"><strong>(-?\d+)</strong>(?: / (\d+))?', html)
    assert match, f"no pool {pool_id}"
    return int(match.group(1)), int(match.group(2)) if match.group(2) else None


def stat(html: str, key: str) -> str:
    match = re.search(rf'<div data-key="{re.escape(key)}"><dt>[^<]*</dt><dd[^>]*>(.*?)</dd>', html, re.S)
    assert match, f"no stat {key}"
    return match.group(1).strip()


def test_a_draft_shows_draft_and_the_builder_link(client, table):
    character = character_at_table(table, SLUGS[0], status=Character.Status.DRAFT)
    client.force_login(table["player"])
    html = sheet(client, character)
    assert cell(html, "status") == "draft"
    builder = reverse("character_builder", args=[character.pk])
    assert f'href="{builder}"' in html


def test_print_view_has_the_print_class_and_no_state_forms_are_shown_by_css(client, table):
    character = character_at_table(table, SLUGS[0])
    client.force_login(table["player"])
    html = sheet(client, character, print="1")
    assert 'class="sheet sheet-printing"' in html
    assert "css/sheet.css" in html
    # The Print button calls window.print() from static/js/app.js (the CSP allows no inline handler).
    assert '<button type="button" class="btn btn-ghost" data-print>Print</button>' in html
    assert '<script src="/static/js/app.js" defer></script>' in html
    css = open("static/css/sheet.css", encoding="utf-8").read()
    assert "@media print" in css and ".state-actions" in css.split("@media print", 1)[1]


def test_sheet_page_stays_within_twelve_queries_with_many_versions_and_rolls(
    client, table, django_assert_max_num_queries
):
    slug = vehicles.first(vehicles.rollable, "a ruleset with a roll button")
    character = character_at_table(table, slug)
    # Many versions and many rolls.
    first = character.version + 1
    for n in range(first, first + 40):
        CharacterVersion.objects.create(
            character=character,
            number=n,
            build=character.build,
            state=character.state,
            report=character.report,
            reason=f"v{n}",
            author=table["player"],
        )
    character.version = first + 39
    character.save(update_fields=["version"])
    for _ in range(60):
        play.character_roll(
            character_id=character.pk,
            user=table["player"],
            rollable_id=vehicles.rollable(registry.get(slug)),
            roller=Roller(random.Random(2)),
        )
    assert RollLog.objects.filter(character=character).count() == 60
    client.force_login(table["player"])
    with django_assert_max_num_queries(12):
        html = sheet(client, character)
    assert html.count('id="roll-') >= 20  # the log shows the latest rolls
    with django_assert_max_num_queries(12):
        sheet(client, character, roll=str(RollLog.objects.filter(character=character).last().pk))
    client.force_login(table["gm"])  # the GM's page carries the review badge too
    with django_assert_max_num_queries(12):
        assert character.name in sheet(client, character)


def _full(ruleset):
    return next((p for p in vehicles.pools(ruleset) if p["value"] == p["max"] >= 2), None)


def test_a_pools_buttons_step_one_down_and_one_up_and_the_one_past_its_maximum_is_disabled(client, table):
    slug = vehicles.first(_full, "a ruleset with a full pool")
    full = _full(registry.get(slug))  # HP 10 / 10, say
    character = character_at_table(table, slug)
    client.force_login(table["player"])
    html = sheet(client, character)
    hp = next(
        li
        for li in re.findall(r'<li class="state-pool[^"]*" id="pool-[^"]*".*?</li>', html, re.S)
        if f'name="path" value="{full["path"]}"' in li
    )
    # Steps, not values worked out from this page: a step applies to the value when it arrives.
    assert re.findall(r'<input type="hidden" name="delta" value="(-?\d+)">', hp) == ["-1", "1"]
    top = full["max"]
    assert f'name="value" value="{top - 1}"' not in hp and f'name="value" value="{top + 1}"' not in hp
    label = re.escape(escape(full["label"]))
    buttons = re.findall(rf'aria-label="(Lower|Raise) {label} by 1"\s*( disabled)?>([−+])</button>', hp)
    assert buttons == [("Lower", "", "−"), ("Raise", " disabled", "+")]


def test_the_roll_log_links_each_roll_to_its_result(client, table):
    slug = vehicles.first(vehicles.rollable, "a ruleset with a roll button")
    character = character_at_table(table, slug)
    roll = play.character_roll(
        character_id=character.pk,
        user=table["player"],
        rollable_id=vehicles.rollable(registry.get(slug)),
        roller=Roller(random.Random(20)),
    )
    client.force_login(table["player"])
    html = sheet(client, character)
    row = re.search(rf'<tr id="roll-{roll.pk}">.*?</tr>', html, re.S).group(0)
    sheet_url = reverse("character_sheet", args=[character.pk])
    assert f'href="{sheet_url}?roll={roll.pk}#roll-result"' in row
    assert f'hx-get="{reverse("character_roll_detail", args=[character.pk, roll.pk])}"' in row
    assert "<td>player</td>" in row and escape(roll.result["text"]) in row
    assert re.search(r'<time datetime="\d{4}-\d\d-\d\dT[^"]+">\d{1,2} [A-Z][a-z]{2} \d\d:\d\d</time>', row)
