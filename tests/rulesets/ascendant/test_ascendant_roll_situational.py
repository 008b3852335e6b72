"""Ascendant's roll form: typed situational bonuses and penalties (circumstance, status, item) and
the threshold (DC) on every check. The rules service stacks them by type with the sheet's own
modifiers (conditions, feats: only the highest bonus and the worst penalty of each type apply), and
the preview and the roll use the same request."""

from __future__ import annotations

import html as html_lib
import re

import pytest
from django.urls import reverse

from characters.models import Character, RollLog
from characters.sheet.selectors import rollable_by_id, sheet_rules
from characters.templatetags.sheet_tags import chart_data
from rulesets.engine import registry
from tests.characters.sheet.test_sheet_fixtures import make_character
from tests.factories import make_campaign

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}
ASCENDANT = registry.get("ascendant")
CHECK = "skill.arcana"


@pytest.fixture
def ysolde(table):
    campaign = make_campaign(gm=table["gm"], ruleset="ascendant", players=[table["player"]])
    return make_character(ruleset="ascendant", owner=table["player"], campaign=campaign)


def _frightened(character, value=1):
    Character.objects.filter(pk=character.pk).update(
        state={**character.state, "conditions": [{"id": "frightened", "value": value}]}
    )
    character.refresh_from_db()


def _base(character) -> int:
    return rollable_by_id(sheet_rules(character=character), CHECK)["request"]["modifier"]


def _percents(html: str) -> list[str]:
    return re.findall(r"<title>([^<]+)</title>", html)


def _expected(odds) -> list[str]:
    return [f"{b['label']}: {b['percent_text']}" for b in chart_data("ascendant", odds)["bars"]]


def _form(**numbers) -> dict:
    return {"preview": CHECK, "in_threshold": "15", **{f"in_{k}": str(v) for k, v in numbers.items()}}


def test_every_check_takes_typed_situational_numbers_and_the_dc(client, table, ysolde):
    client.force_login(table["player"])
    page = client.get(reverse("character_sheet", args=[ysolde.pk])).content.decode()
    assert '<label for="roll-in-threshold">Threshold (DC)</label>' in page
    names = re.findall(r'name="in_([a-z_]+)" id="roll-in-', page)
    assert names == [
        "threshold",
        "circumstance_bonus",
        "circumstance_penalty",
        "status_bonus",
        "status_penalty",
        "item_bonus",
        "item_penalty",
    ]
    # Tucked in a closed group until one is set: a plain check is still one tap.
    assert '<details class="roll-number-group"><summary>Situational bonuses and penalties</summary>' in page
    assert '<label for="roll-in-status_penalty">Status penalty (−)</label>' in page


@pytest.mark.parametrize(
    "frightened, numbers, change",
    [
        (0, {}, 0),
        (0, {"circumstance_bonus": 2, "item_bonus": 1}, 3),  # two types: both apply
        (0, {"circumstance_bonus": 2, "circumstance_penalty": 3}, -1),  # a bonus and a penalty of one type
        (1, {"status_penalty": 2}, -2 + 1),  # the worse status penalty replaces Frightened 1's −1
        (2, {"status_penalty": 1}, 0),  # Frightened 2's −2 is worse: the situational −1 does not add
        (1, {"status_bonus": 1}, 1),  # a status bonus and a status penalty both apply
    ],
)
def test_situational_numbers_stack_by_type_with_the_sheet_s_and_the_roll_uses_the_preview_s_request(
    client, table, ysolde, frightened, numbers, change
):
    if frightened:
        _frightened(ysolde, frightened)
    base = _base(ysolde)  # with the condition's penalty already in
    client.force_login(table["player"])
    form = _form(**numbers)
    preview = client.get(reverse("character_roll_odds", args=[ysolde.pk]), form, **HX)
    assert preview.status_code == 200
    expected = ASCENDANT.odds({"modifier": base + change, "threshold": 15})
    assert _percents(preview.content.decode()) == _expected(expected)
    response = client.post(reverse("character_roll", args=[ysolde.pk]), {**form, "rollable": CHECK}, **HX)
    assert response.status_code == 200
    log = RollLog.objects.get(character=ysolde)
    assert log.result["odds"] == ASCENDANT.odds(log.request) == expected
    assert {k: v for k, v in log.request.items() if k.endswith(("_bonus", "_penalty"))} == numbers
    if not numbers:
        assert set(log.request) <= {
            "modifier",
            "threshold",
            "modifiers",
        }  # a plain check's request stays plain


@pytest.mark.parametrize(
    "value, message",
    [
        ("-1", "Status penalty (−) goes from 0 to 50."),
        ("51", "Status penalty (−) goes from 0 to 50."),
        ("two", "Status penalty (−) must be a whole number."),
    ],
)
def test_a_bad_situational_number_is_a_field_error_and_nothing_is_rolled(
    client, table, ysolde, value, message
):
    client.force_login(table["player"])
    form = {**_form(), "in_status_penalty": value}
    preview = client.get(reverse("character_roll_odds", args=[ysolde.pk]), form, **HX)
    assert message in html_lib.unescape(preview.content.decode())
    response = client.post(reverse("character_roll", args=[ysolde.pk]), {**form, "rollable": CHECK}, **HX)
    assert response.status_code == 400
    assert message in html_lib.unescape(response.content.decode())
    assert RollLog.objects.count() == 0


def test_the_rules_service_refuses_a_crafted_modifiers_list():
    with pytest.raises(ValueError, match="modifiers"):
        ASCENDANT.odds({"modifier": 3, "threshold": 15, "modifiers": [{"value": "x"}], "status_bonus": 1})
    with pytest.raises(ValueError, match="status_bonus"):
        ASCENDANT.odds({"modifier": 3, "threshold": 15, "status_bonus": True})
