"""Our D&D's sheet as cached fragments (moved from tests/characters/sheet/test_sheet_cache.py: its
hearts and HP are the values watched). The sheet's derived numbers are a cached fragment (sheet.html, sheet_tags.sheet_content_key):
reused while nothing they show changes, never stale after the build, the play state or the
campaign's rules change, and holding nothing of the viewer."""

from __future__ import annotations

import re
from unittest import mock

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


def _kept(block: str) -> list[str]:
    """The keys of the process's kept fragments of one sheet block."""
    from django.core.cache import caches

    # LocMemCache keeps them under "<prefix>:<version>:<key>".
    return [k.split(":", 2)[2] for k in caches["template_fragments"]._cache if f".{block}." in k]


def test_the_numbers_are_kept_by_what_they_show_not_by_the_version(client, table, hero):
    client.force_login(table["player"])
    assert _hearts(_numbers(client, hero)) == 2
    kept = _kept("sheet-derived")
    assert kept
    # A new version that changes nothing the numbers read (a play change elsewhere) finds them drawn.
    Character.objects.filter(pk=hero.pk).update(version=F("version") + 1)
    assert _hearts(_numbers(client, hero)) == 2
    assert _kept("sheet-derived") == kept
    # What they read changed: drawn anew, whether or not the version moved (never stale).
    _set_hearts_without_a_new_version(hero, 3)
    assert _hearts(_numbers(client, hero)) == 3
    assert len(_kept("sheet-derived")) == len(kept) + 1


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

    client.force_login(table["player"])
    _numbers(client, hero)
    (key,) = _kept("sheet-derived")
    assert 'data-key="hearts"' in caches["template_fragments"].get(key)
    assert caches["default"].get(key) is None


# ------------------------------------------------------------------ the play state, dice, build blocks
# Cached too (sheet.html): the play-state sections with their forms, the equipment, the Dice form,
# the effects, the build and its costs. The forms' CSRF tokens are put in after the cache
# ({% csrf_late %}, sheet_tags.CsrfLateNode), and what differs per viewer is in the key.


@pytest.fixture
def fighter(table):
    """A valid Our D&D character in play (HP 10 / 10)."""
    return character_at_table(table, "ourdnd")


TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


def _page(client, character) -> str:
    response = client.get(reverse("character_sheet", args=[character.pk]))
    assert response.status_code == 200
    return response.content.decode()


def _block(html: str, block_id: str) -> str:
    return re.search(rf'<section class="card sheet-block[^"]*" id="{block_id}".*?</section>', html, re.S)[0]


def _hp(html: str) -> int:
    return int(re.search(r'data-testid="pool-hp"><strong>(-?\d+)</strong>', html)[1])


def _set_hp_without_a_new_version(character, hp: int) -> None:
    character.refresh_from_db()
    state = {**character.state, "hp": hp}
    Character.objects.filter(pk=character.pk).update(state=state)


def test_a_plain_post_from_a_cached_page_carries_its_viewers_own_token(table, fighter):
    """The owner's render fills the cache; the GM's page is served the same state fragment (both may
    edit the play state) with the GM's own token, and each one's plain form post (no htmx, so no
    X-CSRFToken header) passes Django's CSRF check."""
    from django.core.cache import caches
    from django.core.cache.utils import make_template_fragment_key
    from django.test import Client

    from characters.templatetags.sheet_tags import CSRF_SLOT, sheet_fragment_key

    fighter.refresh_from_db()
    key = make_template_fragment_key(
        "sheet-state", [sheet_fragment_key(fighter, "ourdnd"), True, fighter.status]
    )
    clients, forms = {}, {}
    for who in ("player", "gm"):
        clients[who] = Client(enforce_csrf_checks=True)
        clients[who].force_login(table[who])
        state = _block(_page(clients[who], fighter), "sheet-state")
        tokens = set(TOKEN.findall(state))
        assert len(tokens) == 1 and CSRF_SLOT not in tokens  # every form: this request's own token
        forms[who] = re.search(
            r'<form method="post" action="[^"]+" class="inline-form".*?</form>', state, re.S
        )[0]
        cached = caches["template_fragments"].get(key)  # filled by the owner, served to the GM
        assert 'name="delta"' in cached and tokens.isdisjoint(TOKEN.findall(cached))
    assert TOKEN.sub("", forms["player"]) == TOKEN.sub("", forms["gm"])
    action_url = reverse("character_state_action", args=[fighter.pk])
    before = fighter.version
    for who in ("player", "gm"):
        data = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)">', forms[who]))
        assert data["action"] == "step"
        response = clients[who].post(action_url, data)  # a plain form post: the token in the form alone
        assert response.status_code == 302, response.status_code
    fighter.refresh_from_db()
    assert fighter.version == before + 2 and fighter.state["hp"] == 8  # both steps applied


def test_the_owner_and_the_gm_never_share_a_fragment_that_differs_for_them(client, table, fighter):
    """The owner edits the play state and the build; the GM edits the play state and may roll
    privately. Whoever renders a block first, each sees their own."""
    pages: dict[str, list[str]] = {}
    for who in ("gm", "player", "gm", "player"):
        client.force_login(table[who])
        pages.setdefault(who, []).append(_page(client, fighter))
    for html in pages["player"]:
        assert 'name="delta"' in _block(html, "sheet-state")
        assert 'id="roll-private"' not in html
    for html in pages["gm"]:
        assert 'name="delta"' in _block(html, "sheet-state")
        assert 'id="roll-private"' in html and "equipment-change-" not in html
    equipment = ["equipment-change-" in html for html in pages["player"]]
    assert equipment[0] == equipment[1]  # the owner's loadout controls, whatever the GM saw first


def test_a_viewer_who_may_not_edit_the_play_state_gets_no_form_from_the_cache(client, table, fighter):
    """Read-only (a retired character: nobody edits its play state) and editable renders of the same
    version are two keys."""
    client.force_login(table["player"])
    assert 'name="delta"' in _block(_page(client, fighter), "sheet-state")
    with mock.patch("characters.sheet.presenters.can_edit_state", return_value=False):
        state = _block(_page(client, fighter), "sheet-state")
    assert 'name="delta"' not in state and "csrfmiddlewaretoken" not in state
    assert 'name="delta"' in _block(_page(client, fighter), "sheet-state")


def test_the_play_state_is_reused_until_a_pool_step_makes_a_new_version(client, table, fighter):
    client.force_login(table["player"])
    hp = _hp(_page(client, fighter))
    _set_hp_without_a_new_version(fighter, hp - 3)
    assert _hp(_page(client, fighter)) == hp  # cached: the write above skipped the version
    # A pool step (as the page's − button posts it) makes a new version: the block follows.
    fighter.refresh_from_db()
    response = client.post(
        reverse("character_state_action", args=[fighter.pk]),
        {"action": "step", "path": "/hp", "delta": "-1"},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200 and b"state-error" not in response.content
    fighter.refresh_from_db()
    assert _hp(response.content.decode()) == hp - 4
    page = _page(client, fighter)
    assert _hp(page) == hp - 4 and f'data-version="{fighter.version}"' in page
    assert f'name="version" value="{fighter.version}"' in _block(page, "sheet-state")


@pytest.mark.parametrize("field", ["settings", "homebrew"])
def test_a_change_of_the_campaigns_rules_refreshes_the_play_state(client, table, fighter, field):
    client.force_login(table["player"])
    hp = _hp(_page(client, fighter))
    _set_hp_without_a_new_version(fighter, hp - 2)
    assert _hp(_page(client, fighter)) == hp  # cached
    campaign = Campaign.objects.get(pk=fighter.campaign_id)
    Campaign.objects.filter(pk=campaign.pk).update(**{field: {**getattr(campaign, field), "note": "new"}})
    assert _hp(_page(client, fighter)) == hp - 2


def test_a_play_change_draws_again_only_the_blocks_it_changed(client, table, fighter):
    """A pool step (HP −1) makes a new version: the play state is drawn anew, and the build with its
    costs is kept (it shows nothing of the play state). An award changes the budget without a new
    version: the costs are drawn anew at once. The owner and the GM keep their own build block (only
    the owner may open the builder)."""
    from characters.advancement.services import award_create

    client.force_login(table["player"])
    page = _page(client, fighter)
    build, costs, kept = _block(page, "sheet-build"), _block(page, "sheet-costs"), _kept("sheet-build")
    response = client.post(
        reverse("character_state_action", args=[fighter.pk]),
        {"action": "step", "path": "/hp", "delta": "-1"},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200 and b"state-error" not in response.content
    page = _page(client, fighter)
    assert (_block(page, "sheet-build"), _block(page, "sheet-costs")) == (build, costs)
    assert _kept("sheet-build") == kept
    budget = re.search(
        r'<tr data-currency="(\w+)"><th scope="row">[^<]*</th><td>\d+</td><td>(\d+)</td>', costs
    )
    award_create(gm=table["gm"], currency=budget[1], amount=5, reason="A good fight", character_id=fighter.pk)
    page = _page(client, fighter)
    assert f"<td>{int(budget[2]) + 5}</td>" in _block(page, "sheet-costs")
    assert len(_kept("sheet-build")) == len(kept) + 1
    client.force_login(table["gm"])
    _page(client, fighter)
    assert len(_kept("sheet-build")) == len(kept) + 2  # the GM's own (the builder is the owner's)
