"""A Pando fight on the encounter pages (moved from tests/combat/test_pages.py): the GM runs it with plain
forms (Momentum's order, the GM panel's heading), a player acts for their own character only (its
strike's odds and words) and a reaction off its moment is refused in the panel."""

from __future__ import annotations

import json
import re
from unittest import mock

import pytest
from django.urls import reverse

from combat import services
from combat.models import Encounter
from rulesets.engine.dice import FixedRoller
from tests.combat.helpers import last_event
from tests.combat.test_pages import client
from tests.rulesets.pando.fight_table import GOBLIN, table  # noqa: F401 (Pando's combat table)

pytestmark = pytest.mark.django_db


@pytest.fixture
def setup(table):  # noqa: F811
    """tests/combat/test_pages.py's encounter on Pando's table: Pablo, Bea and a goblin, not started."""
    gm = table["gm"]
    e = services.encounter_create(campaign=table["campaign"], user=gm, name="Bridge")
    pablo = services.encounter_add_combatant(encounter=e, user=gm, character=table["pablo"])[0]
    bea = services.encounter_add_combatant(encounter=e, user=gm, character=table["bea"])[0]
    goblin = services.encounter_add_combatant(encounter=e, user=gm, name="Goblin", build=GOBLIN)[0]
    return {**table, "e": e, "c_pablo": pablo, "c_bea": bea, "goblin": goblin}


def test_the_gm_runs_the_fight_with_plain_forms(setup):
    e = setup["e"]
    gm = client(setup["gm"])
    r = gm.post(
        reverse("encounter_add_combatant", args=[e.pk]),
        {"name": "Rat", "count": "3", "group": "", "build": json.dumps(GOBLIN)},
    )
    assert r.status_code == 302
    assert [c.name for c in e.combatants.filter(group="Rat")] == ["Rat 1", "Rat 2", "Rat 3"]
    r = gm.post(
        reverse("encounter_add_combatant", args=[e.pk]), {"name": "Bad", "build": "{nope"}, follow=True
    )
    assert "The quick build must be a JSON object." in r.content.decode()
    with mock.patch("combat.services.Roller", lambda: FixedRoller([1, 2, 3, 4, 5, 6] * 5)):
        assert gm.post(reverse("encounter_start", args=[e.pk])).status_code == 302
    e.refresh_from_db()
    assert e.status == "active" and e.order[0] == setup["c_pablo"].pk
    page = gm.get(reverse("encounter_detail", args=[e.pk])).content.decode()
    assert re.search(rf'id="combatant-{setup["c_pablo"].pk}" class="combatant is-current', page)
    assert "Next turn" in page and "GM: harm, conditions, Momentum" in page


def test_a_player_acts_for_their_own_character_and_sees_only_their_actions(setup):
    e, pablo, bea = setup["e"], setup["c_pablo"], setup["c_bea"]
    services.encounter_start(encounter=e, user=setup["gm"], roller=FixedRoller([]))
    player = client(setup["player"])
    page = player.get(reverse("encounter_detail", args=[e.pk])).content.decode()
    assert f'data-fighter="{pablo.pk}"' in page and f'data-fighter="{bea.pk}"' not in page
    assert 'data-action="strike:0"' in page and "gm_harm" not in page
    assert 'aria-label="Odds: 0 EP 12%, 1 EP 38%, 2 EP 38%, 3 EP 12%"' in page  # 3d6 against Blades 3
    assert "End my turn" in page
    other_page = client(setup["other"]).get(reverse("encounter_detail", args=[e.pk])).content.decode()
    assert f'data-fighter="{pablo.pk}"' not in other_page and "End my turn" not in other_page

    # htmx: the reply is empty (the websocket brings the change to every page, this one included,
    # and makes each fetch its panel once: no second /panel/ GET, no out-of-band swap from a form
    # the panel refresh may already have replaced).
    with mock.patch("combat.services.Roller", lambda: FixedRoller([1, 1, 1])):
        r = player.post(
            reverse("encounter_act", args=[e.pk]),
            {"combatant": pablo.pk, "action": "strike:0", "target": setup["goblin"].pk},
            HTTP_HX_REQUEST="true",
        )
    assert r.status_code == 204 and r.content == b""
    assert last_event(e).text == "Pablo strikes Goblin with the longsword: 3 EP, −1 speed."

    # Someone else's character: 403. A refusal: the message in the panel, nothing changed.
    assert (
        player.post(
            reverse("encounter_act", args=[e.pk]), {"combatant": bea.pk, "action": "move"}
        ).status_code
        == 403
    )
    version = Encounter.objects.get(pk=e.pk).version
    r = player.post(
        reverse("encounter_act", args=[e.pk]),
        {"combatant": pablo.pk, "action": "dodge"},
        HTTP_HX_REQUEST="true",
    )
    assert 'data-testid="panel-error"' in r.content.decode() and "when you are attacked" in r.content.decode()
    # An informational answer, said by the page's polite region (#38), never an assertive alert.
    refusals = re.findall(r'<p [^>]*data-testid="panel-error"[^>]*>', r.content.decode())
    assert refusals and all("data-status" in p and 'role="alert"' not in p for p in refusals), refusals
    assert Encounter.objects.get(pk=e.pk).version == version
    r = player.post(
        reverse("encounter_act", args=[e.pk]), {"combatant": pablo.pk, "action": "dodge"}, follow=True
    )
    assert "when you are attacked" in r.content.decode()
