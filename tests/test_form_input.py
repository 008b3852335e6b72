"""Form input is read one way (config/forms.py): strict whole numbers, storable text, after the access check.

The cases of issue 14: "-+1", "+-3" and "²" passed ``lstrip("-+").isdigit()`` and then ``int()``
raised; a NUL reached Postgres. Each is now a 400 that says which field and why, and writes nothing.
"""

from __future__ import annotations

import pytest
from django import forms
from django.test import Client
from django.utils.datastructures import MultiValueDict

from characters.models import Campaign, Character, LedgerEntry
from config.forms import (
    FormInputError,
    StorableTextForm,
    WholeNumberField,
    post_json,
    post_whole_number,
    value_of,
)
from config.text import UNSTORABLE_MESSAGE, unstorable_at
from rulesets.engine import registry
from rulesets.engine.fields import parse_whole_number, whole_number
from tests import vehicles
from tests.characters.sheet.test_sheet_fixtures import BUILDS, make_character
from tests.factories import make_campaign, make_user

BAD_NUMBERS = ["-+1", "+-3", "²", "1e3", " ", "", "1.0", "1_000", "٣", "0x10", "9" * 16, "- 1", "1 2"]


@pytest.mark.parametrize("text", BAD_NUMBERS)
def test_the_engine_reads_no_whole_number_in_lookalikes(text):
    assert parse_whole_number(text) is None
    assert whole_number(text) is None


@pytest.mark.parametrize(
    "text, number", [("3", 3), (" -2 ", -2), ("+7", 7), ("007", 7), ("-0", 0), ("9" * 15, 10**15 - 1)]
)
def test_the_engine_reads_whole_numbers_as_people_type_them(text, number):
    assert parse_whole_number(text) == number
    assert whole_number(text) == number


def test_whole_number_takes_json_numbers_but_not_booleans():
    assert whole_number(5) == 5 and whole_number(True) is None and whole_number(2.0) is None


@pytest.mark.parametrize("raw", BAD_NUMBERS)
def test_post_whole_number_refuses_lookalikes_with_the_fields_name(raw):
    with pytest.raises(FormInputError) as exc:
        post_whole_number(
            MultiValueDict({"amount": [raw]}), "amount", label="Amount", min_value=1, max_value=100
        )
    assert exc.value.field == "amount"
    text = str(exc.value)
    assert text.startswith("Amount: ")
    assert ("enter a whole number from 1 to 100" in text) or ("this is required" in text)


def test_post_whole_number_bounds_and_default():
    post = MultiValueDict({"n": ["250"], "blank": [" "]})
    assert post_whole_number(post, "n", max_value=250) == 250
    with pytest.raises(FormInputError, match="250 is out of range: enter a whole number from 1 to 100"):
        post_whole_number(post, "n", min_value=1, max_value=100)
    assert post_whole_number(post, "blank", default=None) is None
    assert post_whole_number(post, "missing", default=7) == 7


@pytest.mark.parametrize(
    "raw, value",
    [
        ("true", True),
        ("false", False),
        ("12", 12),
        (" -3 ", -3),
        ("-+1", "-+1"),
        ("²", "²"),
        ("brace", "brace"),
    ],
)
def test_generic_action_values_are_numbers_only_when_they_are(raw, value):
    assert value_of(raw, field="x") == value


@pytest.mark.parametrize("raw", ["9" * 16, "-" + "9" * 40, "1000000000", "a\x00", "\ud800"])
def test_generic_action_values_refuse_huge_numbers_and_unstorable_text(raw):
    with pytest.raises(FormInputError) as exc:
        value_of(raw, field="amount")
    assert exc.value.field == "amount"


def test_json_fields_are_checked_at_any_depth():
    post = MultiValueDict({"b": ['{"a": [{"b": "\\u0000"}]}'], "k": ['{"\\ud800": 1}'], "ok": ['{"a": 1}']})
    for name in ("b", "k"):
        with pytest.raises(FormInputError, match="NUL characters or unpaired surrogates"):
            post_json(post, name, label="Build")
    assert post_json(post, "ok") == {"a": 1}
    assert unstorable_at({"a": [{"b": "\x00"}]}) == "/a/0/b"


class _Form(StorableTextForm, forms.Form):
    name = forms.CharField(max_length=20)
    amount = WholeNumberField(min_value=0, max_value=10)


@pytest.mark.parametrize(
    "data, errors",
    [
        ({"name": "ok", "amount": "3"}, {}),
        ({"name": "o\ud800k", "amount": "3"}, {"name": [UNSTORABLE_MESSAGE]}),
        ({"name": "o\x00k", "amount": "3"}, {"name": [UNSTORABLE_MESSAGE]}),
        ({"name": "ok", "amount": "²"}, {"amount": ["Enter a whole number, such as 3."]}),
        ({"name": "ok", "amount": "1.0"}, {"amount": ["Enter a whole number, such as 3."]}),
        ({"name": "ok", "amount": "11"}, {"amount": ["Ensure this value is less than or equal to 10."]}),
    ],
)
def test_django_forms_share_the_rules(data, errors):
    form = _Form(data)
    assert form.is_valid() is (not errors)
    assert {k: list(v) for k, v in form.errors.items()} == errors


# ------------------------------------------------------------------ through the views


#: A ruleset whose sheet character has a play-state action with a number (the registry's first such).
SLUG = vehicles.first(vehicles.number_action, "a ruleset with a play-state action taking a number")
#: The currency its GM awards.
CURRENCY = vehicles.awardable(registry.get(SLUG))


@pytest.fixture
def table(db):
    gm, player, stranger = make_user(), make_user(), make_user()
    campaign = make_campaign(gm=gm, ruleset=SLUG, players=[player])
    active = make_character(ruleset=SLUG, owner=player, campaign=campaign)
    draft = make_character(ruleset=SLUG, owner=player, campaign=campaign, status=Character.Status.DRAFT)
    return {
        "gm": gm,
        "player": player,
        "stranger": stranger,
        "campaign": campaign,
        "active": active,
        "draft": draft,
    }


def _as(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.mark.parametrize("value", ["-+1", "+-3", "²"])
def test_a_state_action_is_checked_for_access_before_its_numbers_are_read(table, value):
    character = table["active"]
    url = f"/characters/{character.pk}/state/"
    action, number = vehicles.number_action(registry.get(SLUG))
    posted = {**action, number: value}
    assert _as(table["stranger"]).post(url, posted).status_code == 404
    before = (character.state, character.version)
    response = _as(table["player"]).post(url, posted, HTTP_HX_REQUEST="true")
    assert response.status_code == 200  # the rules refuse the text "-+1" as a number: shown in the block
    character.refresh_from_db()
    assert (character.state, character.version) == before


def test_a_nul_in_a_state_action_is_a_400_into_the_messages_block(table):
    character = table["active"]
    before = (character.state, character.version)
    response = _as(table["player"]).post(
        f"/characters/{character.pk}/state/", {"action": "note", "text": "a\x00b"}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 400
    assert response["HX-Retarget"] == "#messages" and response["HX-Reswap"] == "outerHTML"
    html = response.content.decode()
    assert 'id="messages"' in html
    assert "Text may not contain NUL characters or unpaired surrogates. Nothing was changed." in html
    character.refresh_from_db()
    assert (character.state, character.version) == before


def test_the_builders_version_must_be_a_whole_number(table):
    draft = table["draft"]
    response = _as(table["player"]).post(f"/characters/{draft.pk}/build/", {"_version": "²", "_save": "1"})
    assert response.status_code == 400
    assert "Version: enter a whole number from 0 to 999,999,999, such as 3." in response.content.decode()
    assert Character.objects.get(pk=draft.pk).version == draft.version


def test_a_nul_in_a_character_name_saves_nothing(table):
    draft = table["draft"]
    response = _as(table["player"]).post(
        f"/characters/{draft.pk}/build/", {"/name": "Al\x00ex", "_version": str(draft.version), "_save": "1"}
    )
    assert response.status_code == 400
    assert "NUL characters" in response.content.decode()
    draft.refresh_from_db()
    assert draft.name == BUILDS[SLUG]["name"] and draft.version == 1
    response = _as(table["player"]).post(
        f"/campaigns/{table['campaign'].pk}/characters/new/", {"name": "Bo\x00"}
    )
    assert response.status_code == 400
    assert Character.objects.filter(campaign=table["campaign"]).count() == 2


@pytest.mark.parametrize(
    "field, value, message",
    [
        ("characters", "²", "Characters: enter a whole number from 1 to 999,999,999, such as 3."),
        ("amount", "+-3", "Amount: enter a whole number from 1 to 1,000,000, such as 3."),
        ("amount", "9" * 40, "Amount: enter a whole number from 1 to 1,000,000, such as 3."),
        ("reason", "x\x00", "Reason: Text may not contain NUL characters or unpaired surrogates."),
    ],
)
def test_the_awards_form_refuses_bad_input_with_the_form_shown(table, field, value, message):
    rows = LedgerEntry.objects.count()
    data = {"characters": [str(table["active"].pk)], "currency": CURRENCY, "amount": "2", "reason": "Session"}
    data[field] = value
    response = _as(table["gm"]).post(f"/campaigns/{table['campaign'].pk}/awards/", data)
    assert response.status_code == 400
    assert message in response.content.decode()
    assert LedgerEntry.objects.count() == rows


def test_the_encounter_form_refuses_a_nul_name(table):
    from combat.models import Encounter

    response = _as(table["gm"]).post(
        f"/encounters/campaign/{table['campaign'].pk}/new/", {"name": "Am\x00bush"}
    )
    assert response.status_code == 400
    assert "Name: Text may not contain NUL characters" in response.content.decode()
    assert Encounter.objects.count() == 0


def test_the_campaign_settings_budget_is_a_strict_whole_number(table):
    response = _as(table["gm"]).post(
        f"/campaigns/{table['campaign'].pk}/settings/",
        {"name": "Renamed", f"budget_{CURRENCY}": "1e3", "house_rules": ""},
    )
    assert (
        response.status_code == 400
    )  # the form shown again with the field's error (a refused form is a 400)
    assert "Enter a whole number, such as 3." in response.content.decode()
    table["campaign"].refresh_from_db()
    assert table["campaign"].name != "Renamed"


def test_a_house_rule_with_a_nul_is_a_field_error(table):
    slug = vehicles.first(vehicles.text_house_rule, "a ruleset with a house rule typed as text")
    text = "hr:" + vehicles.text_house_rule(registry.get(slug))
    response = _as(table["gm"]).post(
        "/campaigns/new/", {"name": "X", "ruleset": slug, "_fields_for": slug, text: "a\x00"}
    )
    assert response.status_code == 400
    assert UNSTORABLE_MESSAGE in response.content.decode()
    assert not Campaign.objects.filter(name="X").exists()
