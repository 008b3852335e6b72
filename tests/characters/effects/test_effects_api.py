"""The GM's screen, per character: its rolls over the API and effects that change them
(CONTRACT.md "The GM's screen"), in every registered ruleset."""

from __future__ import annotations

import pytest

from characters.models import Character
from rulesets.engine import registry
from rulesets.engine.fields import is_int
from tests.characters.sheet.test_sheet_fixtures import character_at_table
from tests.factories import api_client

pytestmark = pytest.mark.django_db
RULESETS = registry.SYSTEMS


def _number_key(ruleset, request):
    """A number key of the request that an effect shifts (not the table's), with room to go down."""
    for key in ruleset.effect_keys:
        if key in ruleset.table_keys or not is_int(request.get(key)):
            continue
        return key
    return None


@pytest.mark.parametrize("slug", RULESETS)
def test_rollables_are_the_sheets_rolls_and_each_answers_odds(slug, table):
    character = character_at_table(table, slug)
    ruleset = registry.get(slug)
    for who in ("player", "gm"):
        got = api_client(table[who]).get(f"/api/v1/characters/{character.pk}/rollables/")
        assert got.status_code == 200
        rows = got.json()
        assert rows, "a character in play has rolls"
        assert all(set(r) == {"id", "label", "request"} for r in rows)
        assert len({r["id"] for r in rows}) == len(rows)
    for row in rows:
        odds = api_client(table["player"]).post(
            f"/api/v1/rulesets/{slug}/odds/", row["request"], format="json"
        )
        assert odds.status_code == 200, (row, odds.json())
    # The same roll of two characters of the ruleset has the same id.
    other = character_at_table(table, slug)
    again = api_client(table["player"]).get(f"/api/v1/characters/{other.pk}/rollables/").json()
    assert [r["id"] for r in again] == [r["id"] for r in rows]
    assert ruleset is not None


@pytest.mark.parametrize("slug", RULESETS)
def test_rollables_are_hidden_from_who_may_not_see_the_sheet(slug, table):
    character = character_at_table(table, slug)
    assert (
        api_client(table["stranger"]).get(f"/api/v1/characters/{character.pk}/rollables/").status_code == 404
    )
    assert api_client(None).get(f"/api/v1/characters/{character.pk}/rollables/").status_code in (401, 403)


@pytest.mark.parametrize("slug", RULESETS)
def test_a_custom_effect_shifts_the_requests_it_targets_and_removing_it_restores_them(slug, table):
    ruleset = registry.get(slug)
    character = character_at_table(table, slug)
    gm = api_client(table["gm"])
    url = f"/api/v1/characters/{character.pk}/rollables/"
    before = {r["id"]: r for r in gm.get(url).json()}
    first = next(iter(before.values()))
    key = _number_key(ruleset, first["request"])
    if key is None:
        pytest.skip(f"{ruleset.name}'s rolls have no number an effect shifts")
    low = ruleset.effect_keys[key]
    shift = 1
    made = gm.post(
        f"/api/v1/characters/{character.pk}/effects/",
        {"name": "Blessed", "changes": [{"target": first["id"], key: shift}]},
        format="json",
    )
    assert made.status_code == 201, made.json()
    body = made.json()
    assert body["name"] == "Blessed" and body["changes"] == [{"target": first["id"], key: shift}]
    assert body["duration"] is None and body["id"]
    after = {r["id"]: r for r in gm.get(url).json()}
    expected = dict(
        first["request"], **{key: max(low if low is not None else -999, first["request"][key] + shift)}
    )
    assert after[first["id"]]["request"] == expected
    for rid, row in before.items():  # only the target changed
        if rid != first["id"]:
            assert after[rid]["request"] == row["request"]
    # The odds of the changed request are the odds of the request before it, shifted.
    odds_after = gm.post(
        f"/api/v1/rulesets/{slug}/odds/", after[first["id"]]["request"], format="json"
    ).json()
    odds_expected = gm.post(f"/api/v1/rulesets/{slug}/odds/", expected, format="json").json()
    assert odds_after == odds_expected
    # The player sees it on their own character; removing it restores every request.
    listed = api_client(table["player"]).get(f"/api/v1/characters/{character.pk}/effects/").json()
    assert [e["name"] for e in listed] == ["Blessed"]
    gone = gm.delete(f"/api/v1/characters/{character.pk}/effects/{body['id']}/")
    assert gone.status_code == 204
    assert {r["id"]: r for r in gm.get(url).json()} == before
    assert gm.delete(f"/api/v1/characters/{character.pk}/effects/{body['id']}/").status_code == 404


@pytest.mark.parametrize("slug", RULESETS)
def test_a_refused_effect_is_a_400_with_the_reason_and_changes_nothing(slug, table):
    character = character_at_table(table, slug)
    gm = api_client(table["gm"])
    ruleset = registry.get(slug)
    rows = gm.get(f"/api/v1/characters/{character.pk}/rollables/").json()
    key = _number_key(ruleset, rows[0]["request"]) or "dice"
    version = Character.objects.get(pk=character.pk).version
    cases = [
        ({"effect": "no_such_effect"}, "effect.unknown", "/effect"),
        ({"name": "Odd", "changes": [{"target": "all", "luck": 1}]}, "effect.unknown_key", "/changes/0/luck"),
        (
            {"name": "Odd", "changes": [{"target": "no_such_roll", key: 1}]},
            "effect.unknown_target",
            "/changes/0/target",
        ),
        (
            {"name": "Odd", "changes": [{"target": "all", key: 1}], "duration": {"rounds": 2}},
            "effect.no_encounter",
            "/encounter",
        ),
        ({"name": "", "changes": [{"target": "all", key: 1}]}, "effect.malformed", "/name"),
        ({"name": "Odd", "changes": []}, "effect.malformed", "/changes"),
        (
            {"name": "Odd", "changes": [{"target": "all", key: 1}], "duration": {"until": "dawn"}},
            "effect.bad_duration",
            "/duration",
        ),
    ]
    for body, code, path in cases:
        got = gm.post(f"/api/v1/characters/{character.pk}/effects/", body, format="json")
        assert got.status_code == 400, (body, got.json())
        assert got.json()["errors"][0]["code"] == code, (body, got.json())
        assert got.json()["errors"][0]["path"] == path, (body, got.json())
        assert got.json()["detail"]
    assert Character.objects.get(pk=character.pk).version == version


@pytest.mark.parametrize("slug", RULESETS)
def test_who_may_apply_and_remove(slug, table):
    character = character_at_table(table, slug)
    rows = api_client(table["gm"]).get(f"/api/v1/characters/{character.pk}/rollables/").json()
    ruleset = registry.get(slug)
    key = _number_key(ruleset, rows[0]["request"])
    if key is None:
        pytest.skip("no number to shift")
    body = {"name": "Cursed", "changes": [{"target": "all", key: -1}], "duration": {"until": "rest"}}
    url = f"/api/v1/characters/{character.pk}/effects/"
    # Another player of the campaign may not see this sheet at all: 404, like a stranger.
    assert api_client(table["other"]).post(url, body, format="json").status_code == 404
    assert api_client(table["stranger"]).post(url, body, format="json").status_code == 404
    mine = api_client(table["player"]).post(url, body, format="json")
    assert mine.status_code == 201
    assert mine.json()["duration"] == {"until": "rest"} and mine.json()["remaining"] == "until rest"
    eid = mine.json()["id"]
    assert api_client(table["other"]).delete(f"{url}{eid}/").status_code == 404
    assert api_client(table["stranger"]).delete(f"{url}{eid}/").status_code == 404
    assert api_client(table["gm"]).delete(f"{url}{eid}/").status_code == 204


def _running_encounter(gm, character):
    from combat.services import encounter_add_combatant, encounter_create, encounter_start

    encounter = encounter_create(campaign=character.campaign, user=gm, name="Ambush")
    [combatant] = encounter_add_combatant(encounter=encounter, user=gm, character=character)
    return encounter_start(encounter=encounter, user=gm), combatant


@pytest.mark.parametrize("slug", RULESETS)
def test_durations_on_a_running_encounter_answer_as_asked(slug, table):
    ruleset = registry.get(slug)
    character = character_at_table(table, slug)
    gm = api_client(table["gm"])
    rows = gm.get(f"/api/v1/characters/{character.pk}/rollables/").json()
    key = _number_key(ruleset, rows[0]["request"])
    if key is None:
        pytest.skip("no number to shift")
    change = [{"target": "all", key: -1}]
    url = f"/api/v1/characters/{character.pk}/effects/"
    encounter, combatant = _running_encounter(table["gm"], character)
    made = gm.post(
        url,
        {"name": "Dazed", "changes": change, "duration": {"rounds": 2}, "encounter": encounter.pk},
        format="json",
    )
    assert made.status_code == 201, made.json()
    assert made.json()["duration"] == {"rounds": 2}
    assert made.json()["encounter"] == encounter.pk
    assert made.json()["remaining"] == "2 rounds left"
    turn = gm.post(
        url,
        {
            "name": "Off balance",
            "changes": change,
            "duration": {"until": "end_of_turn", "combatant": combatant.pk},
        },
        format="json",
    )
    assert turn.status_code == 201, turn.json()
    assert turn.json()["duration"] == {"until": "end_of_turn", "combatant": combatant.pk}
    assert turn.json()["remaining"] == "until the end of the turn"
    # Not this campaign's encounter, or no such combatant: refused, nothing changes.
    version = Character.objects.get(pk=character.pk).version
    for body in (
        {"name": "X", "changes": change, "duration": {"rounds": 1}, "encounter": encounter.pk + 1000},
        {
            "name": "X",
            "changes": change,
            "duration": {"until": "end_of_turn", "combatant": combatant.pk + 1000},
        },
        {"name": "X", "changes": change, "duration": {"rounds": 0}, "encounter": encounter.pk},
    ):
        got = gm.post(url, body, format="json")
        assert got.status_code == 400, got.json()
    assert Character.objects.get(pk=character.pk).version == version
