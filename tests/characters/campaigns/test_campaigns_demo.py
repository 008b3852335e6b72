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
