"""The sheet's derived numbers are a cached fragment (sheet.html, sheet_tags.sheet_fragment_key):
reused while nothing they depend on changes, never stale after the build, the play state or the
campaign's rules change, and holding nothing of the viewer."""

from __future__ import annotations

import re

import pytest
from django.db.models import F
from django.urls import reverse

from characters.models import Campaign, Character
from tests.characters.sheet.test_sheet_fixtures import character_at_table

pytestmark = pytest.mark.django_db


def _numbers(client, character) -> str:
    response = client.get(reverse("character_sheet", args=[character.pk]))
    assert response.status_code == 200
    html = response.content.decode()
    return re.search(r'<section class="card sheet-block" id="sheet-derived".*?</section>', html, re.S)[0]


def _hearts(block: str) -> int:
    return int(re.search(r'<span class="visually-hidden">(\d+) hearts?</span>', block)[1])


@pytest.fixture
def hero(table):
    character = character_at_table(table, "ourdnd")
    Character.objects.filter(pk=character.pk).update(build={**character.build, "hearts": 2})
    character.refresh_from_db()
    return character


def _set_hearts_without_a_new_version(character, hearts: int) -> None:
    character.refresh_from_db()
    Character.objects.filter(pk=character.pk).update(build={**character.build, "hearts": hearts})


def test_the_numbers_are_reused_until_the_characters_version_changes(client, table, hero):
    client.force_login(table["player"])
    assert _hearts(_numbers(client, hero)) == 2
    # A write that skipped the version (never done by the services) shows the block is cached...
    _set_hearts_without_a_new_version(hero, 3)
    assert _hearts(_numbers(client, hero)) == 2
    # ...and a new version, as every change of build or play state makes, is never served stale.
    Character.objects.filter(pk=hero.pk).update(version=F("version") + 1)
    assert _hearts(_numbers(client, hero)) == 3


@pytest.mark.parametrize("field", ["settings", "homebrew"])
def test_a_change_of_the_campaigns_rules_refreshes_the_numbers(client, table, hero, field):
    client.force_login(table["player"])
    assert _hearts(_numbers(client, hero)) == 2
    _set_hearts_without_a_new_version(hero, 3)
    campaign = Campaign.objects.get(pk=hero.campaign_id)
    value = {**getattr(campaign, field), "note": "changed by the GM"}
    Campaign.objects.filter(pk=campaign.pk).update(**{field: value})
    assert _hearts(_numbers(client, hero)) == 3


def test_the_cached_numbers_are_the_same_for_the_gm_and_hold_no_form(client, table, hero):
    client.force_login(table["player"])
    first = _numbers(client, hero)
    client.force_login(table["gm"])
    assert _numbers(client, hero) == first
    assert "csrfmiddlewaretoken" not in first and "<form" not in first


def test_the_key_names_everything_the_numbers_depend_on(hero):
    from django.utils import translation

    from characters.templatetags.sheet_tags import sheet_fragment_key

    key = sheet_fragment_key(hero, "ourdnd")
    assert key.startswith(f"{hero.pk}.{hero.version}.ourdnd.")
    hero.version += 1
    assert sheet_fragment_key(hero, "ourdnd") != key
    with translation.override("de"):
        assert sheet_fragment_key(hero, "ourdnd").endswith(".de")


def test_the_roll_log_and_roll_buttons_are_cached_by_what_they_print(client, table, hero):
    from characters.sheet import services as play
    from rulesets.engine.dice import FixedRoller

    client.force_login(table["player"])
    rollable = play.sheet_rules(character=hero).rollables[0]["id"]

    def roll():
        return play.character_roll(
            character_id=hero.pk, user=table["player"], rollable_id=rollable, roller=FixedRoller([1] * 40)
        )

    first = roll()
    page = client.get(reverse("character_sheet", args=[hero.pk])).content.decode()
    assert f'<tr id="roll-{first.pk}">' in page and f'data-rollable="{rollable}"' in page
    second = roll()
    page = client.get(reverse("character_sheet", args=[hero.pk])).content.decode()
    assert f'<tr id="roll-{second.pk}">' in page  # a new roll is a new key: never a stale log
    assert f'<tr id="roll-{first.pk}">' in page and f'data-rollable="{rollable}"' in page


def test_a_fragment_key_changes_with_any_value_it_is_made_of():
    from characters.templatetags.sheet_tags import fragment_key

    rows = [{"pk": 1, "who": "Ann", "text": "3"}]
    assert fragment_key(rows) == fragment_key([{"pk": 1, "who": "Ann", "text": "3"}])
    assert fragment_key(rows) != fragment_key([{"pk": 1, "who": "Ann", "text": "4"}])
    assert fragment_key(rows, "/c/1/roll/", False) != fragment_key(rows, "/c/1/roll/", True)


def test_the_fragments_live_in_the_processs_own_cache_not_the_shared_one(client, table, hero):
    from django.core.cache import caches
    from django.core.cache.utils import make_template_fragment_key

    from characters.templatetags.sheet_tags import sheet_fragment_key

    client.force_login(table["player"])
    _numbers(client, hero)
    hero.refresh_from_db()
    key = make_template_fragment_key("sheet-derived", [sheet_fragment_key(hero, "ourdnd")])
    assert 'data-key="hearts"' in caches["template_fragments"].get(key)
    assert caches["default"].get(key) is None
