"""Small things that got in the way at the table (issue #12), each by its text or value."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from characters.sheet import services as play
from rulesets.engine.dice import FixedRoller
from tests.characters.sheet.test_sheet_fixtures import character_at_table
from tests.factories import make_campaign, make_user

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}


def test_paragon_s_lower_health_by_1_stepper_lowers_health(client, table):
    character = character_at_table(table, "paragon")
    client.force_login(table["player"])
    page = client.get(reverse("character_sheet", args=[character.pk])).content.decode()
    pool = re.search(r'<li class="state-pool[^"]*" id="pool-pools-health".*?</li>', page, re.S).group(0)
    assert 'aria-label="Lower Health by 1"' in pool
    lower = re.search(
        r'name="action" value="(step)"><input type="hidden" name="path" value="(/pools/health)">\s*'
        r'<input type="hidden" name="delta" value="(-1)">',
        pool,
    )
    health = character.state["pools"]["health"]
    response = client.post(
        reverse("character_state_action", args=[character.pk]),
        {"action": lower.group(1), "path": lower.group(2), "delta": lower.group(3)},
        **HX,
    )
    html = response.content.decode()
    assert "Name the pool" not in html
    character.refresh_from_db()
    assert character.state["pools"]["health"] == health - 1
    assert f"health {health} → {health - 1}" in html


def test_paragon_s_corruption_stepper_sets_corruption(client, table):
    character = character_at_table(table, "paragon")
    client.force_login(table["player"])
    client.post(
        reverse("character_state_action", args=[character.pk]),
        {"action": "set", "path": "/corruption", "value": "1"},
        **HX,
    )
    character.refresh_from_db()
    assert character.state["corruption"] == 1


def test_a_pando_roll_with_no_ep_reads_0_ep_not_none(client, table, monkeypatch):
    character = character_at_table(table, "pando")
    monkeypatch.setattr(play, "Roller", lambda: FixedRoller([6, 6, 6]))
    client.force_login(table["player"])
    html = client.post(
        reverse("character_roll", args=[character.pk]), {"rollable": "skill:capability"}, **HX
    ).content.decode()
    outcome = re.search(r'data-testid="roll-outcome">(.*?)</p>', html, re.S).group(1)
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", outcome)).strip()
    assert text == (
        "Capability (Coordination 3d6, level 1): Rolled 3d6 against skill level 1: 6, 6, 6 → 0 EP"
        " (no outcome this time). 0 EP"
    )
    assert "None" not in html


def test_a_failed_our_dnd_roll_is_marked_on_its_failure_bar(client, table, monkeypatch):
    character = character_at_table(table, "ourdnd")
    monkeypatch.setattr(play, "Roller", lambda: FixedRoller([5]))
    client.force_login(table["player"])
    html = client.post(
        reverse("character_roll", args=[character.pk]), {"rollable": "check:str:normal"}, **HX
    ).content.decode()
    labels = re.findall(r'<g class="roll-bar( is-rolled)?" data-label="([^"]+)"', html)
    assert labels[:4] == [("", "Blunder"), (" is-rolled", "Failure"), ("", "Success"), ("", "Critical")]
    # d20 at STR +2 against TD 12: faces 2–9 fail (8 in 20).
    assert "<title>Failure: 40.0%</title>" in html


def test_a_brand_new_user_is_welcomed_not_welcomed_back(client):
    user = make_user("newcomer")
    client.force_login(user)
    html = client.get(reverse("home")).content.decode()
    assert "Welcome to Sheetforge, newcomer" in html and "Welcome back" not in html
    make_campaign(gm=user)
    assert "Welcome back, newcomer" in client.get(reverse("home")).content.decode()


def test_re_entering_a_join_code_says_you_are_already_a_member(client):
    gm, player = make_user("gm"), make_user("player")
    campaign = make_campaign(gm=gm, name="Ashen Vale")
    client.force_login(player)
    first = client.post(
        reverse("campaign_join"), {"join_code": campaign.join_code}, follow=True
    ).content.decode()
    assert "You joined “Ashen Vale”." in first
    again = client.post(
        reverse("campaign_join"), {"join_code": campaign.join_code}, follow=True
    ).content.decode()
    assert "You are already a member of “Ashen Vale”." in again and "You joined" not in again
    client.force_login(gm)
    own = client.post(
        reverse("campaign_join"), {"join_code": campaign.join_code}, follow=True
    ).content.decode()
    assert "You are already the GM of “Ashen Vale”." in own
