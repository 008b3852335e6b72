"""Our D&D's one rest a day on the campaign's clock (RULES.md W17; seed "RESTING": "You can't benefit
from more than one REST in a 24 hour period"; "INTERRUPTING THE REST … the REST confers no benefit and
must be restarted")."""

from __future__ import annotations

import pytest

from rulesets.engine import StateError, registry, validate
from rulesets.engine.clock import Span
from tests.characters.party.helpers import make_party
from tests.factories import api_client

OURDND = registry.get("ourdnd")
BUILD = OURDND.contract_data()["sheet"]
REPORT = validate(BUILD)


def hurt():
    s = OURDND.initial_state(BUILD, REPORT)
    return {**s, "hp": 1}


def rest(state, **extra):
    return OURDND.state_action(state, {"action": "rest", **extra}, BUILD, REPORT)


def test_a_second_rest_before_a_new_day_is_refused_in_words():
    rested, text = rest(hurt())
    assert rested["hp"] == OURDND.initial_state(BUILD, REPORT)["hp"] and rested["rested"] is True
    with pytest.raises(StateError) as refused:
        rest({**rested, "hp": 3})
    assert refused.value.code == "ourdnd.already_rested"
    assert "You can't benefit from more than one REST in a 24 hour period" in refused.value.message
    assert OURDND.check_state(rested, BUILD, REPORT) == []


def test_a_new_day_on_the_clock_allows_the_next_rest_and_hours_do_not():
    rested, _ = rest(hurt())
    same_day = OURDND.clock_passes(rested, BUILD, REPORT, span=Span(1, 8, 10))
    assert same_day.state["rested"] is True and same_day.messages == []
    morning = OURDND.clock_passes(rested, BUILD, REPORT, span=Span(1, 20, 12))
    assert morning.state["rested"] is False
    assert morning.messages == [f"A new day: {BUILD['name']} may rest again."]
    again, _ = rest({**morning.state, "hp": 2})
    assert again["rested"] is True


def test_an_interrupted_rest_restores_nothing_and_may_be_restarted():
    broken, text = rest(hurt(), interrupted=True)
    assert broken["hp"] == 1 and not broken.get("rested")
    assert text == f"{BUILD['name']}'s rest is interrupted: it confers no benefit and must be restarted."
    whole, _ = rest(broken)
    assert whole["hp"] > 1


@pytest.mark.django_db
def test_through_the_clock_door_the_gm_s_new_day_says_who_may_rest_again(table):
    campaign, (ayla,) = make_party(table, "ourdnd", 1)
    ayla.state = {**ayla.state, "hp": 2, "rested": True}
    ayla.save(update_fields=["state"])
    got = api_client(table["gm"]).post(
        f"/api/v1/campaigns/{campaign.pk}/clock/", {"new_day": True}, format="json"
    )
    assert got.json()["changes"] == [
        {"character": ayla.pk, "name": "Ayla", "message": "A new day: Ayla may rest again."}
    ]
    ayla.refresh_from_db()
    assert ayla.state["rested"] is False
