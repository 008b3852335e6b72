"""`manage.py seed_demo`: the demo table, idempotent."""

from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from characters.models import Campaign, Membership
from rulesets.engine import registry

pytestmark = pytest.mark.django_db


def test_seed_demo_creates_the_table_once_and_prints_the_logins(monkeypatch):
    calls = []
    monkeypatch.setattr(
        "characters.campaigns.demo.seed_demo_characters", lambda **kwargs: calls.append(kwargs) or []
    )
    out = StringIO()
    call_command("seed_demo", stdout=out)
    call_command("seed_demo", stdout=StringIO())

    User = get_user_model()
    assert set(User.objects.values_list("username", flat=True)) == {"gm", "player1", "player2"}
    assert User.objects.get(username="gm").check_password("sheetforge-demo")
    assert sorted(Campaign.objects.values_list("ruleset", flat=True)) == sorted(registry.SYSTEMS)
    assert Membership.objects.filter(role="player").count() == 2 * len(registry.SYSTEMS)
    assert Membership.objects.filter(role="gm", user__username="gm").count() == len(registry.SYSTEMS)
    assert "gm / sheetforge-demo" in out.getvalue() and "player2 / sheetforge-demo" in out.getvalue()
    assert len(calls) == 2
    assert set(calls[0]["campaigns"]) == set(registry.SYSTEMS)
    assert [p.username for p in calls[0]["players"]] == ["player1", "player2"]


def test_the_demo_campaigns_show_the_gm_the_review_of_new_characters():
    """Issue #38: "I approve new characters" is on in the demo campaigns (it was off, so a GM trying
    the product never saw the creation review); the finished demo characters stay active, a player's
    new character waits on the GM's review page, and a GM who turned it off keeps it off."""
    import copy

    from django.test import Client

    from characters.builder.services import character_create, character_submit
    from characters.models import Character
    from tests.characters.sheet.test_sheet_fixtures import BUILDS

    call_command("seed_demo", stdout=StringIO())
    campaigns = Campaign.objects.filter(gm__username="gm")
    assert {c.ruleset: c.settings.get("approve_new_characters") for c in campaigns} == {
        slug: True for slug in registry.SYSTEMS
    }
    assert Character.objects.exists()
    assert set(Character.objects.values_list("status", flat=True)) == {"active"}

    campaign = campaigns.first()
    player = get_user_model().objects.get(username="player1")
    build = copy.deepcopy(BUILDS[campaign.ruleset])
    build["name"] = "Newcomer"
    new = character_create(campaign=campaign, owner=player, build=build)
    assert character_submit(character_id=new.id, user=player).status == "pending"
    gm = Client()
    gm.force_login(campaign.gm)
    page = gm.get(f"/campaigns/{campaign.pk}/review/")
    assert page.status_code == 200 and "Newcomer" in page.content.decode()

    campaign.settings = {**campaign.settings, "approve_new_characters": False}
    campaign.save(update_fields=["settings"])
    call_command("seed_demo", stdout=StringIO())
    campaign.refresh_from_db()
    assert campaign.settings["approve_new_characters"] is False
