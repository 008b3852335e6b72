"""Maelstrom's willpower coming back (RULES.md W19, C1; seed "Recovering Willpower": "Once a character is
able to recover willpower, if they are at zero dots, they may immediately recover the first dot.
Otherwise, they will regain 1 dot every 12 hours. If they actively rest or relax for that time, they
may regain 1 additional dot per success on a difficulty 8 willpower roll")."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from characters.models import RollLog
from rulesets.engine import FixedRoller, StateError
from rulesets.engine.clock import Span
from tests.characters.party.helpers import make_party
from tests.factories import api_client
from tests.rulesets.maelstrom.test_maelstrom_state import BUILD, REPORT, RULESET, act, state


def passes(s, hours, faces=()):
    roller = FixedRoller(list(faces))
    p = RULESET.clock_passes(s, BUILD, REPORT, span=Span(1, 8, hours), roller=roller)
    assert roller.faces == []
    return p


def test_at_zero_the_first_dot_comes_back_at_once_at_a_safe_place():
    safe = act(state(willpower=0), action="safe_place", safe=True)
    assert safe["willpower"] == 1 and safe["safe"] is True
    new, text = RULESET.state_action(
        state(willpower=0), {"action": "safe_place", "safe": True}, BUILD, REPORT
    )
    assert text == "At a safe place: the first willpower dot comes back at once (1 of 4)."


def test_a_dot_every_12_safe_hours_adding_up_across_moves_of_the_clock():
    safe = act(state(willpower=1), action="safe_place", safe=True)
    six = passes(safe, 6)
    assert six.state["willpower"] == 1 and six.state["safe_hours"] == 6
    assert six.messages == ["At a safe place: 6 of 12 hours towards a willpower dot."]
    twelve = passes(six.state, 6)
    assert twelve.state["willpower"] == 2 and twelve.state["safe_hours"] == 0
    assert twelve.messages == ["12 hours at a safe place: a willpower dot back (2 of 4)."]
    assert passes(safe, 36).state["willpower"] == 4  # three dots, never above the permanent 4


def test_hours_away_from_a_safe_place_bring_nothing():
    assert passes(state(willpower=1), 48).messages == []


def test_actively_resting_rolls_willpower_at_difficulty_8_each_12_hours():
    resting = act(state(willpower=1), action="safe_place", safe=True, resting=True)
    p = passes(resting, 12, faces=[8, 9])  # the dot comes first: 2 dice, both ≥ 8
    assert p.state["willpower"] == 4
    assert p.rolls[0]["request"] == {"pool": 2, "difficulty": 8, "threshold": 0}
    assert p.messages[1] == (
        "Resting, rolls willpower: Rolled 8, 9 at difficulty 8: 2 successes, 0 botches → 2 successes. "
        "+2 willpower (4 of 4)."
    )
    botched = passes(resting, 12, faces=[1, 3])  # "Botching a willpower roll reduces … by one dot"
    assert botched.state["willpower"] == 1


def test_a_safe_place_needs_a_yes_or_no():
    with pytest.raises(StateError) as refused:
        act(state(willpower=1), action="safe_place", safe="maybe")
    assert refused.value.code == "state.malformed"


@pytest.mark.django_db
def test_the_clock_s_rest_roll_is_rolled_by_the_server_into_the_feed(table, monkeypatch):
    monkeypatch.setattr("characters.clock.services.Roller", lambda: FixedRoller([8, 3]))
    campaign, (ayla,) = make_party(table, "maelstrom", 1)
    ayla.state = {**ayla.state, "willpower": 1, "safe": True, "resting": True}
    ayla.save(update_fields=["state"])
    got = api_client(table["gm"]).post(
        f"/api/v1/campaigns/{campaign.pk}/clock/", {"hours": 12}, format="json"
    )
    messages = [c["message"] for c in got.json()["changes"]]
    assert messages[0] == "12 hours at a safe place: a willpower dot back (2 of 4)."
    assert messages[1] == (
        "Resting, rolls willpower: Rolled 8, 3 at difficulty 8: 1 success, 0 botches → 1 success. "
        "+1 willpower (3 of 4)."
    )
    roll = RollLog.objects.get(character=ayla)
    assert roll.label == "Willpower (resting)" and roll.request == {
        "pool": 2,
        "difficulty": 8,
        "threshold": 0,
    }
    assert roll.result["odds"] == RULESET.odds({"pool": 2, "difficulty": 8, "threshold": 0})
    ayla.refresh_from_db()
    assert (roll.result["faces"], roll.result["total"], roll.user) == ([8, 3], 1, table["gm"])
    assert ayla.state["willpower"] == 3 and ayla.state["safe_hours"] == 0


@pytest.mark.django_db
def test_the_rest_rolls_of_one_move_are_written_together_whatever_their_number(table, monkeypatch):
    """Three resting characters roll three times: the feed's rows and the webhooks' outbox take one
    statement each for the move (not two per roll); resting or not, the rest of the work is the same."""
    monkeypatch.setattr("characters.clock.services.Roller", lambda: FixedRoller([8, 3] * 3))
    gm = api_client(table["gm"])

    def move(resting: bool) -> int:
        campaign, party = make_party(table, "maelstrom", 3)
        for c in party:
            c.state = {**c.state, "willpower": 1, "safe": True, "resting": resting}
            c.save(update_fields=["state"])
        with CaptureQueriesContext(connection) as queries:
            got = gm.post(f"/api/v1/campaigns/{campaign.pk}/clock/", {"hours": 12}, format="json")
        assert got.status_code == 200
        assert RollLog.objects.filter(campaign=campaign).count() == (3 if resting else 0)
        return len(queries)

    assert move(resting=True) - move(resting=False) == 2
