"""Dice on the sheet: server-side rolls with an injected roller, the roll log, and the odds chart, for
every registered ruleset. One game's rolls, log and chart: tests/rulesets/<slug>/test_*_dice_chart.py."""

from __future__ import annotations

import random
import re

import pytest
from django.urls import reverse

from characters.models import RollLog
from characters.sheet import services as play
from characters.templatetags.sheet_tags import chart_data
from config.api import RuleRefused
from rulesets.engine import registry
from rulesets.engine.dice import FixedRoller, Roller
from tests.characters.sheet.test_sheet_fixtures import character_at_table
from tests.vehicles import SLUGS

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}


def bars_of(html: str) -> list[tuple[str, bool]]:
    """The bars of the chart of a roll (not the Dice block's preview chart of the odds before a roll)."""
    html = re.sub(r'<figure class="roll-chart" id="roll-odds-chart".*?</figure>', "", html, flags=re.S)
    svg = re.search(r'<svg class="roll-chart-svg".*?</svg>', html, re.S)
    assert svg, "no odds chart"
    return [
        (label, rolled == " is-rolled")
        for rolled, label in re.findall(
            r'<g class="roll-bar( is-rolled)?" data-label="([^"]+)"', svg.group(0)
        )
    ]


@pytest.mark.parametrize("slug", SLUGS)
def test_an_unknown_rollable_is_refused_and_not_logged(client, table, slug):
    character = character_at_table(table, slug)
    with pytest.raises(RuleRefused):
        play.character_roll(character_id=character.pk, user=table["player"], rollable_id="skill:flying")
    client.force_login(table["player"])
    response = client.post(reverse("character_roll", args=[character.pk]), {"rollable": "nope"}, **HX)
    assert "This character has no such roll." in response.content.decode()
    assert not RollLog.objects.exists()


def check_bars(slug, request_, faces, bars, rolled):
    """The chart of ``request_`` rolled with ``faces``: the bars ``bars`` (one per outcome), the one
    ``rolled`` marked and said."""
    ruleset = registry.get(slug)
    result = ruleset.roll(request_, FixedRoller(faces))
    chart = chart_data(slug, ruleset.odds(request_), result)
    assert [b["label"] for b in chart["bars"]] == bars
    assert sum(b["p"] for b in chart["bars"]) == pytest.approx(1.0)
    assert [b["label"] for b in chart["bars"] if b["rolled"]] == [rolled]
    # Said once, by the roll's own line: the chart's name gives the odds only (#38).
    assert chart["rolled_label"] == rolled and "Rolled" not in chart["aria_label"]
    return ruleset.odds(request_), chart


@pytest.mark.parametrize("slug", SLUGS)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_ruleset_gets_one_bar_per_outcome_and_the_rolled_one(slug, seed):
    """Each ruleset's contract odds request (rulesets/engine/examples.py), rolled: a bar per outcome
    adding up to 1, exactly one of them the rolled one, and the chart says which. One game's bars
    and faces: tests/rulesets/<slug>/test_*_dice_chart.py."""
    ruleset = registry.get(slug)
    request_ = ruleset.contract_data()["odds"]
    result = ruleset.roll(request_, Roller(random.Random(seed)))
    chart = chart_data(slug, ruleset.odds(request_), result)
    labels = [b["label"] for b in chart["bars"]]
    assert len(labels) >= 2 and len(set(labels)) == len(labels)
    assert sum(b["p"] for b in chart["bars"]) == pytest.approx(1.0)
    rolled = [b["label"] for b in chart["bars"] if b["rolled"]]
    assert len(rolled) == 1 and chart["rolled_label"] == rolled[0]
    assert chart["aria_label"].startswith("Odds: ") and "Rolled" not in chart["aria_label"]
