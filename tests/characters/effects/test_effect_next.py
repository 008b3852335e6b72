"""A form's ``next`` is only ever a safe local path (issue #32, config/navigation.py): anything else
sends the form to its default page. Before, the effect forms answered a bare word ("x", "a b",
"character_sheet") with a 500 (``redirect`` took it for a view's name: NoReverseMatch) after the
effect was saved; sign-up did the same after the account was made."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from characters.models import Character
from rulesets.engine import effects as fx
from rulesets.engine import registry
from tests import vehicles
from tests.characters.effects.test_effects_pages import _custom
from tests.characters.sheet.test_sheet_fixtures import character_at_table

pytestmark = pytest.mark.django_db

SLUG = vehicles.first(lambda rs: bool(rs.effect_keys), "a ruleset with effects")
#: What the form fuzzer and the attack sent, and the other ways out of the site.
NOT_LOCAL = [
    "x",
    "a b",
    "character_sheet",
    "home",
    "//evil.example/",
    "https://evil.example/",
    "/\\evil.example",
    "javascript:alert(1)",
    "/x\n/y",
    " /campaigns/",
]


@pytest.mark.parametrize("bad", NOT_LOCAL)
def test_apply_with_a_next_that_is_not_a_local_path_goes_to_the_sheet_and_applies_once(client, table, bad):
    character = character_at_table(table, SLUG)
    client.force_login(table["player"])
    url = reverse("character_effect_apply", args=[character.pk])
    got = client.post(url, _custom(registry.get(SLUG), next=bad))
    assert got.status_code == 302
    assert got["Location"] == reverse("character_sheet", args=[character.pk])
    assert [e["name"] for e in fx.active_entries(Character.objects.get(pk=character.pk).state)] == ["Blessed"]


@pytest.mark.parametrize("bad", ["x", "a b", "character_sheet"])
def test_remove_with_a_bare_word_next_goes_to_the_sheet(client, table, bad):
    character = character_at_table(table, SLUG)
    client.force_login(table["player"])
    client.post(reverse("character_effect_apply", args=[character.pk]), _custom(registry.get(SLUG)))
    [entry] = fx.active_entries(Character.objects.get(pk=character.pk).state)
    got = client.post(reverse("character_effect_remove", args=[character.pk, entry["id"]]), {"next": bad})
    assert got.status_code == 302 and got["Location"] == reverse("character_sheet", args=[character.pk])
    assert fx.active_entries(Character.objects.get(pk=character.pk).state) == []


def test_a_local_next_is_kept_as_it_is(client, table):
    character = character_at_table(table, SLUG)
    client.force_login(table["player"])
    back = f"/campaigns/{character.campaign_id}/?tab=party#card-{character.pk}"
    got = client.post(
        reverse("character_effect_apply", args=[character.pk]), _custom(registry.get(SLUG), next=back)
    )
    assert got.status_code == 302 and got["Location"] == back


@pytest.mark.parametrize("bad", ["x", "character_sheet", "//evil.example/"])
def test_sign_up_with_a_bad_next_goes_home(client, bad):
    got = client.post(
        reverse("signup") + f"?next={bad}",
        {
            "username": "newcomer",
            "password1": "a-long-table-password-42",
            "password2": "a-long-table-password-42",
        },
    )
    assert got.status_code == 302 and got["Location"] == reverse("home")
    assert get_user_model().objects.filter(username="newcomer").count() == 1
