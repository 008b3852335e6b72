"""Zero willpower on the sheet (RULES.md W18): "out of combat for a turn" and the ally's rally, a
two-character action under both rows' locks (characters/sheet/services.py ``character_ally_action``).

Seed: "they may spend one dot of their own willpower to restore nearby incapacitated characters to
one dot" — "they can recover by themselves and act normally … this only resolves the
incapacitation and does not recover a dot of willpower"."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from characters.models import CharacterVersion
from characters.selectors import CharacterNotFound
from characters.sheet import services as play
from config.errors import RuleRefused
from tests.characters.sheet.test_play import act
from tests.characters.sheet.test_sheet_fixtures import character_at_table, make_character

pytestmark = pytest.mark.django_db


@pytest.fixture
def pair(table):
    """Kestrel-like sheet character of the player (at 0 willpower) and the other player's ally."""
    broken = character_at_table(table, "maelstrom")
    broken.state = {**broken.state, "willpower": 0}
    broken.save(update_fields=["state"])
    ally = make_character(ruleset="maelstrom", owner=table["other"], campaign=broken.campaign)
    return broken, ally


def test_the_sheet_at_zero_offers_out_of_combat_and_it_lifts_the_incapacitation(client, table, pair):
    broken, _ = pair
    client.force_login(table["gm"])
    page = client.get(reverse("character_sheet", args=[broken.pk])).content.decode()
    assert 'data-action="out_of_combat"' in page
    html = act(client, broken, action="out_of_combat")
    assert "acting at 0" in html
    broken.refresh_from_db()
    assert broken.state["willpower"] == 0 and broken.state["acting_normally"] is True
    assert (
        CharacterVersion.objects.filter(character=broken)
        .latest("number")
        .reason.endswith(
            "Out of combat for a turn: collects themselves and acts normally again, still at 0 willpower "
            "(a safe place to rest brings a dot back)."
        )
    )


def test_the_allys_sheet_rallies_a_character_at_zero_spending_one_dot(client, table, pair):
    broken, ally = pair
    client.force_login(table["other"])
    page = client.get(reverse("character_sheet", args=[ally.pk])).content.decode()
    form = re.search(r'data-action="rally".*?</form>', page, re.S).group(0)
    assert f'<option value="{broken.pk}">{broken.name}</option>' in form
    before = ally.state["willpower"]
    act(client, ally, action="rally", target=str(broken.pk))
    ally.refresh_from_db()
    broken.refresh_from_db()
    assert ally.state["willpower"] == before - 1
    assert broken.state["willpower"] == 1
    assert (
        CharacterVersion.objects.filter(character=broken)
        .latest("number")
        .reason.endswith(f"Rallied by {ally.name}: back to 1 willpower, and acts again.")
    )


def test_rallying_one_who_has_willpower_is_refused_and_changes_neither(client, table, pair):
    broken, ally = pair
    broken.state = {**broken.state, "willpower": 2}
    broken.save(update_fields=["state"])
    versions, ally_dots = (broken.version, ally.version), ally.state["willpower"]
    with pytest.raises(RuleRefused) as refused:
        play.character_state_action(
            character_id=ally.pk, user=table["other"], action={"action": "rally", "target": broken.pk}
        )
    assert refused.value.code == "maelstrom.has_willpower"
    broken.refresh_from_db()
    ally.refresh_from_db()
    assert (broken.version, ally.version) == versions
    assert (broken.state["willpower"], ally.state["willpower"]) == (2, ally_dots)


@pytest.mark.parametrize("who, refusal", [("player", CharacterNotFound), ("stranger", CharacterNotFound)])
def test_only_the_allys_owner_or_the_gm_spends_the_allys_dot(table, pair, who, refusal):
    broken, ally = pair
    with pytest.raises(refusal):
        play.character_state_action(
            character_id=ally.pk, user=table[who], action={"action": "rally", "target": broken.pk}
        )
    broken.refresh_from_db()
    assert broken.state["willpower"] == 0


def test_a_character_of_another_campaign_cannot_be_rallied(table, pair):
    _, ally = pair
    elsewhere = character_at_table(table, "maelstrom")
    with pytest.raises(RuleRefused) as refused:
        play.character_state_action(
            character_id=ally.pk, user=table["gm"], action={"action": "rally", "target": elsewhere.pk}
        )
    assert (refused.value.code, refused.value.message) == (
        "ally.unknown",
        "Choose another character of this campaign who is in play.",
    )
