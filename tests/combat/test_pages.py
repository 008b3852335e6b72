"""The encounter pages: who sees what, plain form posts, htmx fragments, on the combat tests' ruleset
(tests/combat/conftest.py). One game's fight on the pages: tests/rulesets/<slug>/test_*_encounter_pages.py."""

from __future__ import annotations

import json
import random
import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

from combat import services
from combat.fight import fighter_actions
from combat.models import Encounter
from combat.selectors import encounter_fight
from rulesets.engine import registry
from rulesets.engine.dice import Roller
from tests import vehicles
from tests.combat.conftest import GOBLIN

#: The board a page fetches after a change's notice, with its panel: as many queries as the panel
#: alone (session, user, the encounter with "am I the GM?", the combatants): the two share the fight.
BOARD_QUERIES = 4

pytestmark = pytest.mark.django_db


def client(user) -> Client:
    c = Client()
    c.force_login(user)
    return c


@pytest.fixture
def setup(table):
    gm = table["gm"]
    e = services.encounter_create(campaign=table["campaign"], user=gm, name="Bridge")
    pablo = services.encounter_add_combatant(encounter=e, user=gm, character=table["pablo"])[0]
    bea = services.encounter_add_combatant(encounter=e, user=gm, character=table["bea"])[0]
    goblin = services.encounter_add_combatant(encounter=e, user=gm, name="Goblin", build=GOBLIN)[0]
    return {**table, "e": e, "c_pablo": pablo, "c_bea": bea, "goblin": goblin}


def test_members_see_the_page_strangers_get_404(setup):
    e = setup["e"]
    url = reverse("encounter_detail", args=[e.pk])
    assert client(setup["stranger"]).get(url).status_code == 404
    assert (
        client(setup["stranger"]).get(reverse("encounter_list", args=[setup["campaign"].pk])).status_code
        == 404
    )
    assert client(setup["stranger"]).post(reverse("encounter_start", args=[e.pk])).status_code == 404
    assert Client().get(url).status_code == 302  # to the sign-in page
    page = client(setup["gm"]).get(url).content.decode()
    assert f'id="combatant-{setup["c_pablo"].pk}"' in page
    assert "Start the encounter" in page and "GM: add combatants" in page
    assert f'ws-connect="/ws/encounters/{e.pk}/"' in page
    page = client(setup["player"]).get(url).content.decode()
    assert "Start the encounter" not in page and "GM: add combatants" not in page
    listing = (
        client(setup["player"]).get(reverse("encounter_list", args=[setup["campaign"].pk])).content.decode()
    )
    assert f'href="/encounters/{e.pk}/"' in listing and "New encounter" not in listing


def test_players_may_not_start_or_end(setup):
    e = setup["e"]
    player = client(setup["player"])
    assert player.post(reverse("encounter_start", args=[e.pk])).status_code == 403
    assert player.post(reverse("encounter_end", args=[e.pk])).status_code == 403
    assert (
        player.post(
            reverse("encounter_add_combatant", args=[e.pk]), {"name": "Orc", "build": json.dumps(GOBLIN)}
        ).status_code
        == 403
    )
    assert Encounter.objects.get(pk=e.pk).status == "setup"


@pytest.mark.parametrize("slug", registry.SYSTEMS)
def test_the_quick_npc_form_starts_from_a_build_the_gm_can_add_and_fight(slug):
    from combat.presenters import encounter_board
    from combat.quick_builds import quick_build
    from combat.selectors import encounter_fight
    from rulesets.engine import registry
    from tests.factories import make_campaign, make_user

    gm = make_user("gm")
    campaign = make_campaign(gm=gm, ruleset=slug)
    build = quick_build(registry.get(slug), campaign)
    assert registry.get(slug).validate(build).errors == []
    e = services.encounter_create(campaign=campaign, user=gm, name="Ambush")
    [npc] = services.encounter_add_combatant(encounter=e, user=gm, name="Raider", build=build)
    shown = next(
        c for c in encounter_board(fight=encounter_fight(encounter=e))["combatants"] if c["id"] == npc.pk
    )
    # every number of a quick NPC is known (a blank build once showed "Stamina 0/?")
    assert "?" not in json.dumps(shown["summary"], default=str)


def test_the_panel_is_cheap_and_the_board_catches_a_page_up(setup, django_assert_max_num_queries):
    e, pablo = setup["e"], setup["c_pablo"]
    services.encounter_start(encounter=e, user=setup["gm"], roller=Roller(random.Random(7)))
    e.refresh_from_db()
    player = client(setup["player"])
    player.get(reverse("encounter_detail", args=[e.pk]))
    # The panel each page fetches after each change: the panel only (no board, no log), in a few
    # queries (session, user, the encounter with "am I the GM?" and "has the campaign obstacles?",
    # the combatants).
    with django_assert_max_num_queries(4):
        r = player.get(reverse("encounter_panel", args=[e.pk]), HTTP_HX_REQUEST="true")
    html = r.content.decode()
    assert 'id="encounter-panel"' in html and f'data-fighter="{pablo.pk}"' in html
    assert 'name="csrfmiddlewaretoken"' in html
    assert "encounter-log" not in html and "encounter-status" not in html

    board = reverse("encounter_board", args=[e.pk])
    # Up to date: nothing to swap.
    assert player.get(board, {"since": e.version}, HTTP_HX_REQUEST="true").status_code == 204
    # Behind (what every page fetches after a change's notice): the whole board and this viewer's
    # panel, out of band, in one answer (no second fetch of the panel), in a few queries.
    with django_assert_max_num_queries(BOARD_QUERIES):
        html = player.get(board, {"since": e.version - 1}, HTTP_HX_REQUEST="true").content.decode()
    assert 'id="encounter-log" class="card log" hx-swap-oob="true"' in html
    assert 'id="encounter-combatants" class="card" hx-swap-oob="true"' in html
    assert html.count('id="encounter-panel"') == 1 and f'data-fighter="{pablo.pk}"' in html
    assert re.search(rf'id="encounter-panel"[^>]*hx-swap-oob="true"[^>]*data-version="{e.version}"', html)
    assert f'data-version="{e.version}"' in html and 'hx-trigger="load"' not in html


def _not_allowed(e, combatant):
    """An action the rules list for ``combatant`` but do not allow now, with their reason."""
    fight = encounter_fight(encounter=Encounter.objects.get(pk=e.pk))
    fighter = next(f for f in fight.fighters if f.id == combatant.pk)
    return next((s for s in fighter_actions(fight, fighter) if not s.allowed and s.reason and not s.gm), None)


def test_a_refusal_answers_with_the_panel_only(setup):
    e, pablo = setup["e"], setup["c_pablo"]
    services.encounter_start(encounter=e, user=setup["gm"], roller=Roller(random.Random(7)))
    vehicles.turn_to(e, pablo, setup["gm"])
    spec = _not_allowed(e, pablo)
    assert spec is not None, "the rules list an action Pablo may not take now"
    r = client(setup["player"]).post(
        reverse("encounter_act", args=[e.pk]),
        {"combatant": pablo.pk, "action": spec.id},
        HTTP_HX_REQUEST="true",
    )
    html = r.content.decode()
    assert r.status_code == 200 and 'id="encounter-panel" class="card panel" hx-swap-oob="true"' in html
    assert 'data-testid="panel-error"' in html and escape(spec.reason) in html
    assert "encounter-log" not in html and 'hx-trigger="load"' not in html  # nothing changed: no refresh


def test_the_gm_cannot_add_a_draft_character_from_the_page(setup):
    from characters.models import Character
    from tests.characters.sheet.test_sheet_fixtures import make_character
    from tests.combat.conftest import BEA, SLUG

    draft = make_character(
        ruleset=SLUG,
        owner=setup["other"],
        campaign=setup["campaign"],
        build={**BEA, "name": "Dora"},
        status=Character.Status.DRAFT,
    )
    gm = client(setup["gm"])
    page = gm.get(reverse("encounter_detail", args=[setup["e"].pk])).content.decode()
    assert "Dora" not in page  # not offered
    r = gm.post(
        reverse("encounter_add_combatant", args=[setup["e"].pk]), {"character": draft.pk}, follow=True
    )
    assert "Dora is draft: only active characters can join an encounter" in r.content.decode()
    assert not setup["e"].combatants.filter(character=draft).exists()


def test_the_panel_fragment_is_the_pages_panel(setup):
    """The fragment's forms come from a process-wide cache of rendered forms: the same HTML as
    the page renders, each with this request's CSRF token."""
    e = setup["e"]
    services.encounter_start(encounter=e, user=setup["gm"], roller=Roller(random.Random(7)))
    gm = client(setup["gm"])

    def panel(html: str) -> str:
        section = re.search(r'<section id="encounter-panel".*?</section>', html, re.S).group(0)
        section = re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "TOKEN", section)
        return re.sub(r'name="request_id" value="[0-9a-f]{32}"', "REQUEST", section)  # fresh per form

    page = gm.get(reverse("encounter_detail", args=[e.pk])).content.decode()
    for _ in range(2):  # rendered, then from the cache
        fragment = gm.get(reverse("encounter_panel", args=[e.pk]), HTTP_HX_REQUEST="true").content.decode()
        assert "__sheetforge_csrf_slot__" not in fragment
        assert fragment.count('name="csrfmiddlewaretoken"') > 10
        assert panel(fragment) == panel(page)
