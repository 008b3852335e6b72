"""Spending a sheet roll's EP outside a fight (W1: "At-leisure EP … buys outcomes the same way"; the
sheet's roll, CONTRACT.md "outside an encounter the same body … for the sheet's last roll"): the
service (characters/sheet/services.py character_spend_roll) and the Last roll block's form."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from characters.models import Character, RollLog
from characters.sheet.services import character_roll, character_spend_roll
from config.errors import RuleRefused
from rulesets.engine.dice import FixedRoller
from tests.factories import api_client
from tests.rulesets.pando.fight_table import table  # noqa: F401 (Pando's combat table)

pytestmark = pytest.mark.django_db


def roll(table, faces, user=None):  # noqa: F811
    return character_roll(
        character_id=table["pablo"].pk,
        user=user or table["player"],
        rollable_id="item:0:strike",
        roller=FixedRoller(list(faces)),
    )


def fresh(character) -> Character:
    return Character.objects.get(pk=character.pk)


def test_a_sheet_roll_keeps_its_ep_to_spend_and_the_form_shows_the_choices(table, client):  # noqa: F811
    roll(table, [1, 1, 1])
    pending = fresh(table["pablo"]).state["roll_to_spend"]
    assert pending["ep"] == 3 and [o["id"] for o in pending["outcomes"]] == [
        "hit",
        "knock_prone",
        "disarm",
        "cause_bleeding",
    ]
    client.force_login(table["player"])
    page = client.get(reverse("character_sheet", args=[table["pablo"].pk])).content.decode()
    form = page[page.index('data-testid="spend-form"') :]
    form = form[: form.index("</form>")]
    assert "3 EP left to spend</strong> from Longsword: Strike" in form
    for words in ("Knock prone — 3 EP", "Cause bleeding — 2 EP", "Hit — 1 EP each, chainable (times)", "Bea"):
        assert words in form
    assert "knock_prone" not in re.sub(r'(value|name|id)="[^"]*"', "", form)


def test_the_form_buys_bleeding_and_a_hit_on_another_character(table, client):  # noqa: F811
    roll(table, [1, 1, 1])
    client.force_login(table["player"])
    r = client.post(
        reverse("character_spend", args=[table["pablo"].pk]),
        {"outcome": "cause_bleeding", "times_hit": "1", "body_part": "legs", "target": str(table["bea"].pk)},
        HTTP_HX_REQUEST="true",
    )
    assert r.status_code == 200
    bea = fresh(table["bea"])
    assert bea.state["harm"]["legs"] == 1
    assert bea.state["exhaustion"] == [{"type": "bleeding", "amount": 1}]
    assert [e["name"] for e in bea.state["effects"]] == ["Bleeding 1"]
    assert "roll_to_spend" not in fresh(table["pablo"]).state
    said = re.search(r'data-testid="spend-message">([^<]*)<', r.content.decode()).group(1)
    assert said.startswith("Pablo spends 3 EP of Longsword: Strike")
    assert "Cause bleeding (2 EP); Hit (1 EP)" in said
    note = RollLog.objects.filter(campaign=table["campaign"]).order_by("-pk").first()
    assert note.result["note"] is True and note.result["text"] == said.replace("&#x27;", "'")


def test_words_for_the_gm_need_no_target_and_what_is_left_stays(table):  # noqa: F811
    roll(table, [1, 1, 1])
    _, text = character_spend_roll(
        character_id=table["pablo"].pk,
        user=table["player"],
        request={"outcomes": [{"id": "hit", "times": 1, "body_part": "torso", "target": table["bea"].pk}]},
    )
    assert text.endswith("2 EP left to spend.")
    pending = fresh(table["pablo"]).state["roll_to_spend"]
    assert pending["ep"] == 2 and [p["id"] for p in pending["params"]][:1] == ["outcome"]


@pytest.mark.parametrize(
    ("outcomes", "code"),
    [
        ([{"id": "fireball"}], "pando.outcome_unknown"),
        ([{"id": "knock_prone", "target": 0}, {"id": "disarm", "target": 0}], "pando.outcome_not_chainable"),
        ([{"id": "hit", "times": 4, "body_part": "legs", "target": 0}], "pando.ep_exceeded"),
        ([{"id": "hit", "body_part": "legs"}], "pando.no_target"),
    ],
)
def test_a_refused_sheet_spend_changes_nothing(table, outcomes, code):  # noqa: F811
    roll(table, [1, 1, 1])
    outcomes = [{**o, "target": table["bea"].pk} if "target" in o else o for o in outcomes]
    before = [(c.version, c.state) for c in (fresh(table["pablo"]), fresh(table["bea"]))]
    with pytest.raises(RuleRefused) as exc:
        character_spend_roll(
            character_id=table["pablo"].pk, user=table["player"], request={"outcomes": outcomes}
        )
    assert exc.value.errors[0]["code"] == code
    assert [(c.version, c.state) for c in (fresh(table["pablo"]), fresh(table["bea"]))] == before


def test_no_roll_to_spend_and_a_new_roll_loses_the_last_ones_ep(table):  # noqa: F811
    with pytest.raises(RuleRefused) as exc:
        character_spend_roll(
            character_id=table["pablo"].pk, user=table["player"], request={"outcomes": [{"id": "hit"}]}
        )
    assert exc.value.errors[0]["code"] == "pando.no_roll_to_spend"
    roll(table, [1, 1, 1])
    roll(table, [6, 6, 6])  # no EP: the last roll's 3 are lost
    assert "roll_to_spend" not in fresh(table["pablo"]).state


def test_only_the_owner_or_the_gm_spends(table, client):  # noqa: F811
    roll(table, [1, 1, 1])
    client.force_login(table["other"])
    r = client.post(reverse("character_spend", args=[table["pablo"].pk]), {"outcome": "knock_prone"})
    assert r.status_code in (403, 404)
    assert fresh(table["pablo"]).state["roll_to_spend"]["ep"] == 3
    _, text = character_spend_roll(
        character_id=table["pablo"].pk,
        user=table["gm"],
        request={"outcomes": [{"id": "knock_prone", "target": table["bea"].pk}]},
    )
    assert [e["effect"] for e in fresh(table["bea"]).state["effects"]] == ["prone"]


def test_the_play_api_offers_the_spend_after_a_roll_and_takes_the_contract_s_body(table):  # noqa: F811
    """CONTRACT "The whole rulebook": "outside an encounter the same body goes to POST
    /api/v1/characters/<id>/actions/ for the sheet's last roll"; refused with the rules' codes (422,
    the EP kept)."""
    url = f"/api/v1/characters/{table['pablo'].pk}/actions/"
    player = api_client(table["player"])
    assert "spend" not in [a["action"] for a in player.get(url).json()]  # no roll yet
    roll(table, [1, 1, 1])
    offered = {a["action"]: a for a in player.get(url).json()}
    assert [f["name"] for f in offered["spend"]["fields"]] == ["outcomes", "obstacle", "ep_to_obstacle"]
    too_much = player.post(url, {"action": "spend", "outcomes": [{"id": "hit", "times": 4}]}, format="json")
    assert too_much.status_code == 422 and too_much.json()["errors"][0]["code"] == "pando.ep_exceeded"
    assert fresh(table["pablo"]).state["roll_to_spend"]["ep"] == 3  # kept
    bea = table["bea"].pk
    spent = player.post(
        url,
        {"action": "spend", "outcomes": [{"id": "hit", "times": 2, "body_part": "legs", "target": bea}]},
        format="json",
    )
    assert spent.status_code == 200, spent.json()
    assert spent.json()["message"].startswith("Pablo spends")
    assert fresh(table["bea"]).state["harm"]["legs"] == 2
    assert fresh(table["pablo"]).state["roll_to_spend"]["ep"] == 1  # one EP left to spend
