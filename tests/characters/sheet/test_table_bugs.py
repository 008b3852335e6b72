"""Small things that got in the way at the table (issue #12), each by its text or value. Each game's
own: tests/rulesets/<slug>/test_*_table_bugs.py."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import make_campaign, make_user

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}


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
