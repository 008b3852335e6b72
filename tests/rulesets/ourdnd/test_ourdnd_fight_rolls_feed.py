"""Our D&D's fight rolls reach the table's roll feed (moved from tests/combat/test_fight_rolls_feed.py):
the start rolls initiative, one line each, then the DM's goblin attacks in the log's words."""

from __future__ import annotations

import html
import re

import pytest
from django.test import Client
from django.urls import reverse

from characters.models import RollLog
from combat import services
from combat.models import EncounterEvent
from rulesets.engine import registry
from rulesets.engine.dice import FixedRoller
from tests.factories import make_campaign, make_user

pytestmark = pytest.mark.django_db(transaction=True)


def _text(markup: str) -> str:
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", markup)).strip())


def test_initiative_and_an_npc_s_attack_reach_the_feed(transactional_db):
    """Our D&D: the start rolls initiative (one line each, the DM's for the goblins has no
    character), then the DM's goblin attacks Bram in the log's words."""
    from tests.characters.sheet.test_sheet_fixtures import make_character
    from tests.rulesets.ourdnd.test_ourdnd_fight import BRAM
    from tests.rulesets.ourdnd.test_ourdnd_fight import GOBLIN as OURDND_GOBLIN

    gm, player = make_user("dm"), make_user("bram")
    campaign = make_campaign(gm=gm, ruleset="ourdnd", players=[player])
    bram = make_character(ruleset="ourdnd", owner=player, campaign=campaign, build=BRAM)
    e = services.encounter_create(campaign=campaign, user=gm, name="The goblin bridge")
    c_bram = services.encounter_add_combatant(encounter=e, user=gm, character=bram)[0]
    goblin = services.encounter_add_combatant(encounter=e, user=gm, name="Goblin", build=OURDND_GOBLIN)[0]
    services.encounter_start(encounter=e, user=gm, roller=FixedRoller([9, 15]))
    starts = list(RollLog.objects.filter(campaign=campaign).order_by("id"))
    assert [r.result["text"] for r in starts] == [
        "Bram the Shield-Bearer rolls initiative: d20 9.",
        "The DM rolls initiative for Goblin: d20 15.",
    ]
    assert [r.character_id for r in starts] == [bram.pk, None] and starts[1].result["actor"] == "Goblin"
    services.encounter_act(
        encounter=e,
        user=gm,
        combatant_id=goblin.pk,
        action={"action": "attempt", "stat": "dex", "target": c_bram.pk, "gear": "dagger"},
        roller=FixedRoller([14, 3]),
    )
    attack = list(RollLog.objects.filter(campaign=campaign).order_by("id"))[2:]
    texts = [r.result["text"] for r in attack]
    assert texts and texts[0].startswith("Goblin's DEX attempt on Bram the Shield-Bearer"), texts
    assert all(r.character_id is None and r.user == gm for r in attack)
    # The check's odds are the rules' for the request it rolled (DEX 2 against the scene's TD).
    request = EncounterEvent.objects.get(encounter=e, kind="attempt").data["odds"]
    assert request["stat"] == 2 and attack[0].result["odds"] == registry.get("ourdnd").odds(request)
    dm = Client()
    dm.force_login(gm)
    page = dm.get(reverse("campaign_detail", args=[campaign.pk])).content.decode()
    assert "dm in The goblin bridge: Goblin's DEX attempt on Bram" in _text(page)
    assert re.search(
        r"Goblin&#x27;s DEX attempt on Bram[^<]*</span>\s*<span class=\"badge table-feed-outcome\">Success</span>\s*"
        r"<span class=\"muted table-feed-chance\">\(\d+\.\d% chance\)",
        page,
    ), page
