"""A Pando fight's rolls reach the table's roll feed (moved from tests/combat/test_fight_rolls_feed.py) (combat/services.py → characters/table/feed.py): every
member's feed socket gets the line in the log's words; a GM's private roll reaches the GM only
(the shared log says only that the GM rolled); a refused action writes no line and changes
nothing; a member removed from the campaign stops receiving. On the in-memory channel layer and
on Redis (REDIS_TEST_URL)."""

from __future__ import annotations

import html
import re

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.core.exceptions import PermissionDenied
from django.test import Client
from django.urls import reverse

from characters.campaigns import services as campaign_services
from characters.models import RollLog
from characters.table.consumers import CLOSE_NOT_FOUND
from characters.table.live import CLOSE_RECHECK
from combat import services
from combat.fight import fighter_actions
from combat.models import Encounter, EncounterEvent
from combat.selectors import encounter_fight
from rulesets.engine import registry
from rulesets.engine.dice import FixedRoller
from tests.combat.conftest import stray_connections_closed  # noqa: F401 (the fixture)
from tests.combat.helpers import last_event, refused, snapshot
from tests.rulesets.pando.fight_table import GOBLIN, table  # noqa: F401 (Pando's combat table)

pytestmark = pytest.mark.django_db(transaction=True)

STRIKE = "Pablo strikes Goblin with the longsword: 1 EP, −1 speed."


@pytest.fixture
def fight(table):  # noqa: F811
    """Pablo (Momentum 5) against a goblin (3) on Pando's table, started: Pablo's turn."""
    gm = table["gm"]
    e = services.encounter_create(campaign=table["campaign"], user=gm, name="Live")
    pablo = services.encounter_add_combatant(encounter=e, user=gm, character=table["pablo"])[0]
    goblin = services.encounter_add_combatant(encounter=e, user=gm, name="Goblin", build=GOBLIN)[0]
    services.encounter_start(encounter=e, user=gm, roller=FixedRoller([]))
    return {**table, "e": e, "c_pablo": pablo, "goblin": goblin}


@pytest.fixture(autouse=True)
def _stray_connections_closed(stray_connections_closed):  # noqa: F811
    """The consumer's database_sync_to_async threads keep their connections."""


def _feed(user, campaign_id) -> WebsocketCommunicator:
    from config.asgi import application

    client = Client()
    client.force_login(user)
    headers = [
        (b"origin", b"http://testserver"),
        (b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode()),
    ]
    return WebsocketCommunicator(application, f"/ws/campaigns/{campaign_id}/rolls/", headers=headers)


def _text(markup: str) -> str:
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", markup)).strip())


def _strike(fight, *, user=None, private=False, faces=(1, 6, 6)):
    return services.encounter_act(
        encounter=fight["e"],
        user=user or fight["player"],
        combatant_id=fight["c_pablo"].pk,
        action={"action": "strike:0", "target": fight["goblin"].pk},
        roller=FixedRoller(list(faces)),
        private=private,
    )


def _strike_odds(fight) -> dict:
    """The odds request of Pablo's Strike as the encounter page shows it now."""
    running = encounter_fight(encounter=Encounter.objects.get(pk=fight["e"].pk))
    pablo = running.fighter_by_id[fight["c_pablo"].pk]
    spec = next(s for s in fighter_actions(running, pablo) if s.id == "strike:0")
    assert isinstance(spec.odds, dict)
    return spec.odds


def test_a_strike_reaches_every_member_s_feed_in_the_log_s_words(layer, fight):
    campaign = fight["campaign"]
    shown = _strike_odds(fight)

    async def run():
        gm, other = _feed(fight["gm"], campaign.pk), _feed(fight["other"], campaign.pk)
        assert (await gm.connect())[0] and (await other.connect())[0]
        await database_sync_to_async(_strike)(fight)
        got = [await gm.receive_from(timeout=3), await other.receive_from(timeout=3)]
        quiet = await gm.receive_nothing(timeout=0.3)  # one line for one roll
        await gm.disconnect()
        await other.disconnect()
        return got, quiet

    (to_gm, to_other), quiet = async_to_sync(run)()
    roll = RollLog.objects.get()
    assert to_gm == to_other and quiet is True
    assert f'id="table-roll-{roll.pk}"' in to_gm and 'hx-swap-oob="afterbegin"' in to_gm
    # Who, where, the log's words, the outcome and its chance, and the whole odds (as on a sheet).
    assert f"player in Live: {STRIKE} 1 EP (37.5% chance)" in _text(to_gm)
    assert _text(to_gm).endswith("Odds: 0 EP 12.5%; 1 EP 37.5%; 2 EP 37.5%; 3 EP 12.5%.")
    # The roll is the fight's, for Pablo's sheet, in the campaign, public.
    assert roll.campaign_id == campaign.pk and roll.character_id == fight["pablo"].pk
    assert roll.private is False and roll.label == "Strike"
    assert roll.request == {"encounter": fight["e"].pk, "kind": "strike"}
    assert roll.result["faces"] == [1, 6, 6] and roll.result["text"] == STRIKE
    event = last_event(fight["e"])
    assert event.text == STRIKE  # the shared log says the same
    # The chance is the rules' own: the odds of the request the strike rolled, which is the one
    # the encounter page showed on the Strike button before the roll.
    assert roll.result["odds"] == registry.get("pando").odds(event.data["odds"])
    assert event.data["odds"] == shown and roll.result["ruleset"] == "pando"


def test_the_pages_show_a_fight_s_roll_with_the_table_s_other_rolls(fight):
    _strike(fight)
    roll = RollLog.objects.get()
    other = Client()
    other.force_login(fight["other"])
    page = other.get(reverse("campaign_detail", args=[fight["campaign"].pk])).content.decode()
    line = re.search(rf'<li[^>]*id="table-roll-{roll.pk}".*?</li>', page, re.S)
    assert line and f"player in Live: {STRIKE} 1 EP (37.5% chance)" in _text(line.group(0))
    # Pablo's sheet lists it in his roll log (the owner's view), and its page opens.
    player = Client()
    player.force_login(fight["player"])
    sheet = player.get(reverse("character_sheet", args=[fight["pablo"].pk]) + f"?roll={roll.pk}")
    assert sheet.status_code == 200 and f'id="roll-{roll.pk}"' in sheet.content.decode()
    assert STRIKE in sheet.content.decode()


def test_a_private_gm_roll_reaches_the_gm_only_and_the_shared_log_hides_the_dice(layer, fight):
    campaign = fight["campaign"]

    async def run():
        gm, player = _feed(fight["gm"], campaign.pk), _feed(fight["player"], campaign.pk)
        assert (await gm.connect())[0] and (await player.connect())[0]
        await database_sync_to_async(_strike)(fight, user=fight["gm"], private=True)
        to_gm = await gm.receive_from(timeout=3)
        player_quiet = await player.receive_nothing(timeout=0.5)
        await gm.disconnect()
        await player.disconnect()
        return to_gm, player_quiet

    to_gm, player_quiet = async_to_sync(run)()
    assert player_quiet is True
    roll = RollLog.objects.get()
    assert roll.private is True and "Private" in to_gm
    assert _text(to_gm).startswith(re.search(r"\d\d:\d\d", _text(to_gm)).group(0) + f" gm in Live: {STRIKE}")
    # The shared log (every page, the API) says only that the GM rolled: no dice, no EP.
    event = last_event(fight["e"])
    assert event.text == "The GM rolls for Pablo behind the screen." and event.data == {}
    assert not EncounterEvent.objects.filter(encounter=fight["e"], text__contains="EP").exists()
    # The player's pages never show it; the GM's feed does.
    player, gm = Client(), Client()
    player.force_login(fight["player"])
    gm.force_login(fight["gm"])
    for url in (
        reverse("campaign_detail", args=[campaign.pk]),
        reverse("encounter_detail", args=[fight["e"].pk]),
        reverse("character_sheet", args=[fight["pablo"].pk]),
    ):
        page = player.get(url).content.decode()
        assert f"table-roll-{roll.pk}" not in page and f'id="roll-{roll.pk}"' not in page
        assert STRIKE not in page  # (the board shows what changed: the attack's EP to spend)
    assert (
        f'id="table-roll-{roll.pk}"'
        in gm.get(reverse("campaign_detail", args=[campaign.pk])).content.decode()
    )


def test_a_player_may_not_roll_privately_in_a_fight_and_nothing_changes(fight):
    before = snapshot(fight["e"])
    with pytest.raises(PermissionDenied):
        _strike(fight, private=True)
    assert snapshot(fight["e"]) == before and RollLog.objects.count() == 0
    # Over HTTP too: 403 with the reason, nothing written.
    player = Client()
    player.force_login(fight["player"])
    response = player.post(
        reverse("encounter_act", args=[fight["e"].pk]),
        {
            "combatant": fight["c_pablo"].pk,
            "action": "strike:0",
            "target": fight["goblin"].pk,
            "private": "true",
        },
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 403
    assert snapshot(fight["e"]) == before and RollLog.objects.count() == 0


def test_the_gm_s_private_checkbox_on_the_encounter_page_keeps_the_roll_behind_the_screen(fight):
    gm, player = Client(), Client()
    gm.force_login(fight["gm"])
    player.force_login(fight["player"])
    url = reverse("encounter_detail", args=[fight["e"].pk])
    gm_page, player_page = gm.get(url).content.decode(), player.get(url).content.decode()
    assert 'id="encounter-private"' in gm_page and 'hx-include="#encounter-private"' in gm_page
    assert 'id="encounter-private"' not in player_page and "hx-include" not in player_page
    response = gm.post(
        reverse("encounter_act", args=[fight["e"].pk]),
        {
            "combatant": fight["c_pablo"].pk,
            "action": "strike:0",
            "target": fight["goblin"].pk,
            "private": "true",
        },
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code in (200, 204), response.content
    roll = RollLog.objects.get()
    assert roll.private is True and roll.user == fight["gm"]
    assert last_event(fight["e"]).text == "The GM rolls for Pablo behind the screen."


def test_a_refused_action_writes_no_feed_line_and_changes_nothing(layer, fight):
    campaign = fight["campaign"]

    def refuse():
        # Not the goblin's turn (Pablo's Momentum is higher): the rules refuse its strike.
        refused(
            "combat.not_your_turn",
            services.encounter_act,
            encounter=fight["e"],
            user=fight["gm"],
            combatant_id=fight["goblin"].pk,
            action={"action": "strike:0", "target": fight["c_pablo"].pk},
            roller=FixedRoller([6, 6, 6]),
        )

    before = snapshot(fight["e"])

    async def run():
        gm = _feed(fight["gm"], campaign.pk)
        assert (await gm.connect())[0]
        await database_sync_to_async(refuse)()
        quiet = await gm.receive_nothing(timeout=0.5)
        await gm.disconnect()
        return quiet

    assert async_to_sync(run)() is True
    assert snapshot(fight["e"]) == before and RollLog.objects.count() == 0


def test_a_removed_member_stops_receiving_the_fight_s_rolls(layer, fight):
    campaign = fight["campaign"]

    async def run():
        gm, other = _feed(fight["gm"], campaign.pk), _feed(fight["other"], campaign.pk)
        assert (await gm.connect())[0] and (await other.connect())[0]
        await database_sync_to_async(campaign_services.campaign_remove_player)(
            gm=fight["gm"], campaign=campaign, user=fight["other"]
        )
        closed = await other.receive_output(timeout=2)
        await database_sync_to_async(_strike)(fight)
        to_gm = await gm.receive_from(timeout=3)
        reconnect = await _feed(fight["other"], campaign.pk).connect(timeout=2)
        await gm.disconnect()
        return closed, to_gm, reconnect

    closed, to_gm, reconnect = async_to_sync(run)()
    assert closed == {"type": "websocket.close", "code": CLOSE_RECHECK}
    assert STRIKE in _text(to_gm)  # the table goes on without them
    assert reconnect == (False, CLOSE_NOT_FOUND)
    stranger = Client()
    stranger.force_login(fight["other"])
    assert (
        stranger.get(reverse("campaign_feed", args=[campaign.pk]), HTTP_HX_REQUEST="true").status_code == 404
    )
