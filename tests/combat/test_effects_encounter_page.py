"""The encounter page's effects (combat/views.py), in every registered ruleset with combat: the
GM puts an effect on a PC or an NPC for rounds of this encounter or until the end of a combatant's
turn, from a form without JSON; the combatant's row shows it; the GM's panel takes it off; a refusal
says why in the form and changes nothing; players get 403, strangers 404."""

from __future__ import annotations

import html as htmlmod
import random
import re

import pytest
from django.test import Client
from django.urls import reverse

from characters.models import Character
from combat import services
from combat.models import Combatant, Encounter
from combat.quick_builds import quick_build
from combat.selectors import campaign_combat_rules
from rulesets.engine import effects as fx
from rulesets.engine import registry
from rulesets.engine.dice import Roller
from tests.characters.sheet.test_sheet_fixtures import make_character
from tests.combat.test_effects_clock import RULESETS, _key
from tests.factories import make_campaign, make_user

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}


def _text(markup: str) -> str:
    return htmlmod.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", markup))).strip()


def _client(user) -> Client:
    c = Client()
    c.force_login(user)
    return c


@pytest.fixture
def page_of(db):
    def make(slug: str) -> dict:
        gm, player, stranger = make_user(), make_user(), make_user()
        campaign = make_campaign(gm=gm, ruleset=slug, players=[player])
        ayla = make_character(ruleset=slug, owner=player, campaign=campaign)
        Character.objects.filter(pk=ayla.pk).update(name="Ayla")
        e = services.encounter_create(campaign=campaign, user=gm, name="Ambush")
        pc = services.encounter_add_combatant(encounter=e, user=gm, character=ayla)[0]
        ruleset, _, _ = campaign_combat_rules(campaign)
        npc = services.encounter_add_combatant(
            encounter=e, user=gm, name="Raider", build=quick_build(ruleset, campaign)
        )[0]
        services.encounter_start(encounter=e, user=gm, roller=Roller(random.Random(5)))
        return {
            "gm": gm,
            "player": player,
            "stranger": stranger,
            "e": e,
            "ayla": ayla,
            "pc": pc,
            "npc": npc,
            "ruleset": registry.get(slug),
        }

    return make


def _custom(ruleset, on, **more) -> dict:
    return {
        "on": str(on),
        "effect": "custom",
        "custom_name": "Blessed",
        "what-0": f"key:{_key(ruleset)}",
        "amount-0": "1",
        "target-0": "all",
        "duration": "rounds",
        "rounds": "1",
        **more,
    }


def _states(t):
    return (
        fx.active_entries(Character.objects.get(pk=t["ayla"].pk).state),
        fx.active_entries(Combatant.objects.get(pk=t["npc"].pk).state),
    )


@pytest.mark.parametrize("slug", RULESETS)
def test_the_gm_puts_an_effect_on_an_npc_and_a_pc_from_the_page(slug, page_of):
    t = page_of(slug)
    e, ruleset = t["e"], t["ruleset"]
    gm = _client(t["gm"])
    page = gm.get(reverse("encounter_detail", args=[e.pk])).content.decode()
    section = re.search(r'<section id="encounter-effects".*?</section>', page, re.S).group(0)
    words = _text(section)
    assert "Rounds of this encounter" in words and "Until the end of a combatant's turn" in words
    assert re.search(rf'<option value="{t["npc"].pk}"[^>]*>Raider</option>', section)
    assert re.search(rf'<option value="{t["pc"].pk}"[^>]*>Ayla</option>', section)
    for kind in ruleset.effect_catalogue(None).values():
        assert kind.name in words
    assert "{" not in words
    url = reverse("encounter_effect_apply", args=[e.pk])
    got = gm.post(url, _custom(ruleset, t["npc"].pk), **HX)
    assert got.status_code == 200 and "Blessed is on Raider." in _text(got.content.decode())
    got = gm.post(
        url,
        _custom(ruleset, t["pc"].pk, custom_name="Guarded", duration="turn", combatant=str(t["npc"].pk)),
    )
    assert got.status_code == 302
    pc_fx, npc_fx = _states(t)
    assert [x["name"] for x in npc_fx] == ["Blessed"] and npc_fx[0]["duration"]["rounds"] == 1
    assert [x["name"] for x in pc_fx] == ["Guarded"]
    assert pc_fx[0]["duration"] == {"until": "end_of_turn", "combatant": t["npc"].pk, "encounter": e.pk}
    # Every member's page shows them on the rows; the GM's panel can take them off.
    player_page = _client(t["player"]).get(reverse("encounter_detail", args=[e.pk])).content.decode()
    row = re.search(rf'<li id="combatant-{t["npc"].pk}".*?</li>\s*</ul>', player_page, re.S).group(0)
    assert "Blessed 1 round left" in _text(row)
    row = re.search(rf'<li id="combatant-{t["pc"].pk}".*?</li>\s*</ul>', player_page, re.S).group(0)
    assert "Guarded until the end of Raider's turn" in _text(row)
    assert 'id="encounter-effects"' not in player_page and "Take off" not in player_page
    panel = gm.get(reverse("encounter_panel", args=[e.pk]), **HX).content.decode()
    effect_id = npc_fx[0]["id"]
    assert f'id="effect-off-{t["npc"].pk}-{effect_id}"' in panel
    off = gm.post(
        reverse("encounter_effect_remove", args=[e.pk]), {"combatant": t["npc"].pk, "effect": effect_id}, **HX
    )
    assert off.status_code == 204
    assert _states(t)[1] == []
    assert "Blessed is taken off Raider." in _text(
        gm.get(reverse("encounter_detail", args=[e.pk])).content.decode()
    )


@pytest.mark.parametrize("slug", RULESETS)
def test_a_refusal_says_why_in_the_form_and_changes_nothing(slug, page_of):
    t = page_of(slug)
    e, ruleset = t["e"], t["ruleset"]
    gm = _client(t["gm"])
    url = reverse("encounter_effect_apply", args=[e.pk])
    version = Encounter.objects.get(pk=e.pk).version
    cases = [
        ({**_custom(ruleset, t["npc"].pk), "on": "999999"}, "pick a combatant of this encounter"),
        ({**_custom(ruleset, t["npc"].pk), "amount-0": "0"}, "a change of 0 changes nothing"),
        ({**_custom(ruleset, t["npc"].pk), "rounds": "0"}, "Rounds"),
        (
            {**_custom(ruleset, t["npc"].pk), "duration": "turn", "combatant": "999999"},
            "needs a combatant of a running encounter",
        ),
        ({"on": str(t["npc"].pk), "duration": "none"}, "pick an effect"),
    ]
    for body, reason in cases:
        for htmx in (True, False):
            got = gm.post(url, body, **(HX if htmx else {}))
            assert got.status_code == 400, body
            words = _text(got.content.decode())
            assert reason in words and "Nothing was changed." in words, (reason, words[:500])
    assert Encounter.objects.get(pk=e.pk).version == version
    assert _states(t) == ([], [])


@pytest.mark.parametrize("slug", RULESETS[:2])
def test_players_get_403_and_strangers_404(slug, page_of):
    t = page_of(slug)
    e, ruleset = t["e"], t["ruleset"]
    url = reverse("encounter_effect_apply", args=[e.pk])
    off = reverse("encounter_effect_remove", args=[e.pk])
    entry = services.encounter_effect_apply(
        encounter=e.pk,
        user=t["gm"],
        combatant_id=t["npc"].pk,
        spec={"name": "Marked", "changes": [{"target": "all", _key(ruleset): 1}]},
    )
    player, stranger = _client(t["player"]), _client(t["stranger"])
    # A player on an NPC (or on their own character, from the encounter page: the sheet is theirs).
    assert player.post(url, _custom(ruleset, t["npc"].pk)).status_code == 403
    assert player.post(url, _custom(ruleset, t["pc"].pk), **HX).status_code == 403
    assert player.post(off, {"combatant": t["npc"].pk, "effect": entry["id"]}).status_code == 403
    assert stranger.post(url, _custom(ruleset, t["npc"].pk)).status_code == 404
    assert stranger.post(off, {"combatant": t["npc"].pk, "effect": entry["id"]}).status_code == 404
    assert [x["name"] for x in _states(t)[1]] == ["Marked"] and _states(t)[0] == []
