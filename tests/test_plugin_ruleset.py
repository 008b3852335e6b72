"""The boundary: a ruleset the product has never heard of (tests/plugin_ruleset/, "Coin"),
registered through the same registry the five use, goes through the whole product with the
web test client. Nothing outside its folder knows it: the pages work from the Ruleset hooks
and their generic fallbacks alone."""

from __future__ import annotations

import json
from unittest import mock

import pytest
from django.template import engines
from django.test import Client
from django.urls import reverse

from characters.models import Advancement, Campaign, Character, LedgerEntry, RollLog
from combat.models import Combatant, Encounter
from rulesets.engine import registry
from rulesets.engine.dice import FixedRoller
from tests.characters.conftest import BuilderSession, form_fields, parse_html
from tests.factories import make_user
from tests.plugin_ruleset import RULESET as COIN

pytestmark = pytest.mark.django_db


def _reset_template_caches() -> None:
    for loader in engines["django"].engine.template_loaders:
        loader.reset()


@pytest.fixture
def coin():
    """Coin in the registry (tests/conftest.py registers it for the whole run unless told not to)."""
    registered = registry.get(COIN.slug) is COIN
    registry.register(COIN)
    _reset_template_caches()
    yield COIN
    if not registered:
        registry.unregister(COIN.slug)
        _reset_template_caches()


def as_user(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_registry_lists_a_registered_ruleset_last_and_forgets_it_when_unregistered(coin):
    folders = tuple(rs.slug for rs in registry._discover().values())
    assert registry.get("coin") is coin
    assert registry.SYSTEMS == (*folders, "coin")
    assert registry.labels()["odds_of_heads"] == "Chance of a head"
    registry.unregister("coin")
    assert registry.get("coin") is None and "coin" not in registry.SYSTEMS
    assert "odds_of_heads" not in registry.labels()
    registry.register(coin)  # the fixture unregisters it again


def test_a_sixth_ruleset_goes_through_the_whole_product(coin):
    gm, player, rival = make_user("gm"), make_user("penny"), make_user("rex")
    gm_client, player_client, rival_client = as_user(gm), as_user(player), as_user(rival)

    # --- the GM creates a Coin campaign: the ruleset is one of the form's choices
    page = gm_client.get(reverse("campaign_create"))
    assert b'value="coin"' in page.content and b">Coin<" in page.content
    r = gm_client.post(reverse("campaign_create"), {"name": "Heads or Tails", "ruleset": "coin"})
    campaign = Campaign.objects.get(name="Heads or Tails")
    assert r.status_code == 302 and campaign.ruleset == "coin"
    for client in (player_client, rival_client):
        assert client.post(reverse("campaign_join"), {"join_code": campaign.join_code}).status_code == 302

    # --- build: the generic builder from the traits, the ruleset's own widget, the price of the next point
    r = player_client.post(reverse("character_create", args=[campaign.id]), {"name": "Penny"})
    penny = Character.objects.get(name="Penny")
    assert r["Location"] == reverse("character_builder", args=[penny.id])
    assert penny.build["budget"] == {"coins": 4}  # the house default starting budget
    assert list(LedgerEntry.objects.filter(character=penny).values_list("kind", "currency", "amount")) == [
        ("award", "coins", 4)
    ]
    session = BuilderSession(player_client, r["Location"])
    purse = next(iter(session.root.find_all(**{"data-testid": "coin-purse"})))
    assert "● (0 coins spent)" in purse.text
    assert session.get("/luck") == ["1"]
    session.set("/luck", 3).change()
    assert (session.figure("spent", "coins"), session.figure("remaining", "coins")) == (4, 0)
    assert "●●● (4 coins spent)" in next(iter(session.root.find_all(**{"data-testid": "coin-purse"}))).text
    session.set("/luck", 4).change()
    assert "coin.luck_invalid" not in session.summary_codes()
    assert "budget.exceeded" in session.summary_codes()  # 6 coins of 4
    session.set("/luck", 2).change()
    assert session.figure("spent", "coins") == 2

    # --- submit: active with the ruleset's first play state and the opening spend row
    assert session.press("_save").status_code == 302
    session = BuilderSession(player_client, session.url)
    assert not session.submit_disabled()
    r = session.press("_submit")
    assert r["Location"] == reverse("character_sheet", args=[penny.id])
    penny.refresh_from_db()
    assert (penny.status, penny.state, penny.build["luck"]) == ("active", {"lives": 3}, 2)
    assert LedgerEntry.objects.filter(character=penny, kind="spend").get().amount == -2

    # --- the sheet: the ruleset's own "Numbers" block, its labels, its pools and its roll button
    page = player_client.get(reverse("character_sheet", args=[penny.id]))
    html = page.content.decode()
    assert page.status_code == 200
    assert 'data-testid="coin-derived"' in html and "<dd>75%</dd>" in html
    assert "Lives" in html and "Flip 2 coins" in html
    assert 'data-testid="rules-missing"' not in html

    # --- a play-state action through the sheet's form
    r = player_client.post(
        reverse("character_state_action", args=[penny.id]), {"action": "lose_life"}, HTTP_HX_REQUEST="true"
    )
    assert r.status_code == 200 and "Lost a life (2 left)." in r.content.decode()
    penny.refresh_from_db()
    assert penny.state == {"lives": 2}

    # --- roll: server-side, logged with its exact odds
    with mock.patch("characters.sheet.services.Roller", lambda: FixedRoller([1, 2])):
        r = player_client.post(
            reverse("character_roll", args=[penny.id]), {"rollable": "flip"}, HTTP_HX_REQUEST="true"
        )
    assert r.status_code == 200 and "1 head: success" in r.content.decode()
    log = RollLog.objects.get(character=penny)
    assert (log.label, log.result["faces"], log.result["odds"]) == (
        "Flip 2 coins",
        [1, 2],
        {"success": 0.75, "failure": 0.25},
    )

    # --- award: the ruleset's one-click award and its help on the awards page
    page = gm_client.get(reverse("campaign_awards", args=[campaign.id])).content.decode()
    assert "Lucky break" in page and "a lucky break is 2 coins for the whole table" in page
    r = gm_client.post(
        reverse("campaign_awards", args=[campaign.id]), {"characters": [penny.pk], "quick": "lucky_break"}
    )
    assert r.status_code == 302
    penny.refresh_from_db()
    assert penny.build["budget"] == {"coins": 6}

    # --- advance and approve: luck 2 → 3 costs 2 coins
    fields = form_fields(
        parse_html(player_client.get(reverse("character_advance", args=[penny.id])).content).by_id(
            "builder-form"
        )
    )
    data: dict[str, list[str]] = {}
    for k, v in [(k, v) for k, v in fields if k != "/luck"] + [
        ("/luck", "3"),
        ("_request", "1"),
        ("note", "practice"),
    ]:
        data.setdefault(k, []).append(v)
    r = player_client.post(reverse("character_advance", args=[penny.id]), data)
    advancement = Advancement.objects.get(character=penny)
    assert r.status_code == 302 and (advancement.status, advancement.cost) == ("pending", {"coins": 2})
    r = gm_client.post(reverse("advancement_approve", args=[advancement.id]), {"comment": "well played"})
    assert r.status_code == 302
    penny.refresh_from_db()
    advancement.refresh_from_db()
    assert (advancement.status, penny.build["luck"]) == ("approved", 3)
    assert sum(LedgerEntry.objects.filter(character=penny).values_list("amount", flat=True)) == 2  # 6 − 4

    # --- an encounter: a player character and the ruleset's quick NPC; a turn; the next turn
    r = gm_client.post(reverse("encounter_create", args=[campaign.id]), {"name": "Back alley"})
    encounter = Encounter.objects.get(name="Back alley")
    assert r.status_code == 302
    page = gm_client.get(reverse("encounter_detail", args=[encounter.id])).content.decode()
    assert "Cutpurse" in page  # the quick NPC form starts from the ruleset's content/npc.json
    gm_client.post(reverse("encounter_add_combatant", args=[encounter.id]), {"character": penny.id})
    gm_client.post(
        reverse("encounter_add_combatant", args=[encounter.id]),
        {"name": "Cutpurse", "count": "1", "build": json.dumps(coin.quick_npc())},
    )
    pc, npc = Combatant.objects.filter(encounter=encounter).order_by("id")
    assert (pc.character_id, npc.name, npc.is_npc) == (penny.id, "Cutpurse", True)
    assert gm_client.post(reverse("encounter_start", args=[encounter.id])).status_code == 302
    encounter.refresh_from_db()
    assert (encounter.status, encounter.order) == ("active", [pc.id, npc.id])
    page = player_client.get(reverse("encounter_detail", args=[encounter.id])).content.decode()
    assert 'data-action="flip"' in page and "Lives" in page and "2/3" in page
    with mock.patch("combat.services.Roller", lambda: FixedRoller([2])):
        r = player_client.post(
            reverse("encounter_act", args=[encounter.id]),
            {"combatant": pc.id, "action": "flip", "target": npc.id},
            follow=True,
        )
    assert r.status_code == 200 and "Penny flips heads: Cutpurse loses a life (2 left)." in r.content.decode()
    npc.refresh_from_db()
    encounter.refresh_from_db()
    assert npc.state == {"lives": 2}
    assert encounter.order[encounter.turn] == npc.id  # the flip ended Penny's turn
    # Not Penny's turn now: the rules refuse, and nothing changes.
    version = encounter.version
    r = player_client.post(
        reverse("encounter_act", args=[encounter.id]),
        {"combatant": pc.id, "action": "flip", "target": npc.id},
        follow=True,
    )
    assert "It is not Penny&#x27;s turn." in r.content.decode()  # the one not-your-turn refusal of the engine
    assert Encounter.objects.get(pk=encounter.pk).version == version
