"""Who should roll over the API (POST /campaigns/<id>/party-odds/, CONTRACT.md "The GM's screen"):
each character's own request (the rollables API), the table's numbers put in, the odds from the
rules service's own door, the success from the ruleset's ``success``, and the party's chances
computed here from each character's success; in every registered ruleset."""

from __future__ import annotations

import math

import pytest

from characters.models import Character
from rulesets.engine import OddsError, registry
from rulesets.engine.fields import is_int
from tests.characters.party.helpers import (
    add_character,
    make_party,
    number_key,
    odds_of,
    party_odds,
    rollables,
)
from tests.factories import api_client, make_user

pytestmark = pytest.mark.django_db
RULESETS = registry.SYSTEMS


def _weakened(table, character, key, shift=-1):
    """An effect on every roll of ``character`` (its odds then differ from the others')."""
    made = api_client(table["gm"]).post(
        f"/api/v1/characters/{character.pk}/effects/",
        {"name": "Weakened", "changes": [{"target": "all", key: shift}]},
        format="json",
    )
    assert made.status_code == 201, made.json()


def _expected_row(slug, user, character, rollable_id, table=None, need=None, *, read=None):
    """A character's row worked out without the party's code: its request from the rollables API
    with the table's numbers put in, the odds of the rules service, the ruleset's success.
    ``read``: the rollables already read of each character (by id), where nothing changed since."""
    ruleset = registry.get(slug)
    if read is None or character.pk not in read:
        read = {} if read is None else read
        read[character.pk] = rollables(user, character)
    found = {r["id"]: r for r in read[character.pk]}.get(rollable_id)
    if found is None:
        return None
    request = {**found["request"], **(table or {})}
    odds = odds_of(slug, request)
    return {"id": character.pk, "request": request, "odds": odds, "success": ruleset.success(odds, need)}


def _check_answer(slug, table, campaign, characters, rollable_id, body_extra=None, need=None, *, read=None):
    """The party's answer for ``rollable_id`` checked row by row against ``_expected_row`` (``read``:
    the characters' rollables already read, for a test that asks of several rolls in a row)."""
    body = {"rollable": rollable_id, **(body_extra or {})}
    got = party_odds(table["gm"], campaign, body)
    assert got.status_code == 200, got.json()
    answer = got.json()
    assert {"rollable", "characters", "missing", "at_least_one", "all"} <= set(answer)
    assert answer["rollable"] == rollable_id
    expected = [
        row
        for row in (
            _expected_row(slug, table["gm"], c, rollable_id, body.get("table"), need, read=read)
            for c in characters
        )
        if row is not None
    ]
    rows = answer["characters"]
    assert sorted(r["id"] for r in rows) == sorted(e["id"] for e in expected)
    by_id = {e["id"]: e for e in expected}
    for row in rows:
        assert {"id", "name", "request", "odds", "success"} <= set(row)
        want = by_id[row["id"]]
        assert row["request"] == want["request"]
        assert row["odds"] == want["odds"]
        assert row["success"] == pytest.approx(want["success"], abs=1e-12)
        assert 0 <= row["success"] <= 1 + 1e-9
    successes = [r["success"] for r in rows]
    assert successes == sorted(successes, reverse=True), "best first"
    # The party's chances from each character's success, computed here.
    each = [by_id[r["id"]]["success"] for r in rows]
    assert answer["at_least_one"] == pytest.approx(1 - math.prod(1 - s for s in each), abs=1e-12)
    assert answer["all"] == pytest.approx(math.prod(each), abs=1e-12)
    return answer


@pytest.mark.parametrize("slug", RULESETS)
def test_each_character_s_own_odds_best_first_and_the_party_s_chances(slug, table):
    campaign, characters = make_party(table, slug, 3)
    ruleset = registry.get(slug)
    rolls = rollables(table["gm"], characters[0])
    key = number_key(ruleset, rolls[0]["request"])
    if key is not None:
        _weakened(table, characters[0], key)  # Ayla's rolls are worse than the others'
    read: dict = {}  # each character's rollables, read once: nothing changes between the rolls
    for roll in rolls[:4]:
        answer = _check_answer(slug, table, campaign, characters, roll["id"], read=read)
        assert answer["missing"] == []
        assert len(answer["characters"]) == 3


@pytest.mark.parametrize("slug", RULESETS)
def test_the_table_s_numbers_are_put_into_every_request(slug, table):
    ruleset = registry.get(slug)
    if not ruleset.table_keys:
        pytest.skip(f"{ruleset.name}'s table sets no number of a roll")
    campaign, characters = make_party(table, slug, 2)
    rolls = rollables(table["gm"], characters[0])
    form = {f["name"]: f for f in ruleset.odds_form() or []}
    read: dict = {}  # each character's rollables, read once: the table's numbers are the request's
    for key in ruleset.table_keys:
        roll = next((r for r in rolls if key in r["request"]), rolls[0])
        spec = form.get(key, {})
        now = roll["request"].get(key, spec.get("default"))
        if "choices" in spec:
            value = next(c for c in spec["choices"] if c != now)
        else:
            high = spec.get("max", 30)
            value = now + 1 if isinstance(now, int) and now + 1 <= high else (now or 0) - 1
        answer = _check_answer(
            slug, table, campaign, characters, roll["id"], {"table": {key: value}}, read=read
        )
        assert answer["table"] == {key: value}
        assert all(r["request"][key] == value for r in answer["characters"])


@pytest.mark.parametrize("slug", RULESETS)
def test_a_key_the_table_does_not_set_is_a_400_naming_the_keys_it_does(slug, table):
    campaign, characters = make_party(table, slug, 2)
    ruleset = registry.get(slug)
    roll = rollables(table["gm"], characters[0])[0]
    key = number_key(ruleset, roll["request"]) or "luck_of_the_draw"
    got = party_odds(table["gm"], campaign, {"rollable": roll["id"], "table": {key: 1}})
    assert got.status_code == 400, got.json()
    detail = got.json()["detail"]
    assert repr(key) in detail
    for allowed in ruleset.table_keys:
        assert allowed in detail
    if not ruleset.table_keys:
        assert "none" in detail
    assert got.json()["errors"][0]["field"] == f"table.{key}"


@pytest.mark.parametrize("slug", RULESETS)
def test_need_counts_where_the_ruleset_counts_successes_and_is_refused_elsewhere(slug, table):
    campaign, characters = make_party(table, slug, 2)
    ruleset = registry.get(slug)
    roll = rollables(table["gm"], characters[0])[0]
    if not ruleset.success_needs:
        got = party_odds(table["gm"], campaign, {"rollable": roll["id"], "need": 1})
        assert got.status_code == 400 and got.json()["errors"][0]["field"] == "need"
        return
    read: dict = {}
    one = _check_answer(slug, table, campaign, characters, roll["id"], {"need": 1}, need=1, read=read)
    two = _check_answer(slug, table, campaign, characters, roll["id"], {"need": 2}, need=2, read=read)
    assert one["need"] == 1 and two["need"] == 2
    for a, b in zip(one["characters"], two["characters"], strict=True):
        assert b["success"] <= a["success"] + 1e-12  # needing more never helps
    for bad in (0, -1, "2", 1.5, True, 10**6):
        got = party_odds(table["gm"], campaign, {"rollable": roll["id"], "need": bad})
        assert got.status_code == 400, (bad, got.json())


@pytest.mark.parametrize("slug", RULESETS)
def test_an_aid_changes_every_request_and_the_answer_says_what_it_changed(slug, table, monkeypatch):
    campaign, characters = make_party(table, slug, 2)
    ruleset = registry.get(slug)
    roll = rollables(table["gm"], characters[0])[0]
    key = number_key(ruleset, roll["request"])
    offered = ruleset.roll_aids(ruleset.context())
    if key is not None:
        # An aid of the test's own (the registry's rulesets may offer none): +1 to the roll's number.
        aid = {
            "id": "helping_hand",
            "label": "A helping hand",
            "text": "An ally lends a hand.",
            "changes": [{"target": "all", key: 1}],
        }
        monkeypatch.setattr(ruleset, "roll_aids", lambda ctx=None: [*offered, aid])
        got = party_odds(table["gm"], campaign, {"rollable": roll["id"], "aid": "helping_hand"})
        assert got.status_code == 200, got.json()
        answer = got.json()
        assert answer["aid"]["id"] == "helping_hand" and answer["aid"]["label"] == "A helping hand"
        assert answer["aid"]["text"] == "An ally lends a hand."
        assert answer["aid"]["changes"] == aid["changes"] and answer["aid"]["changed"]
        for row in answer["characters"]:
            plain = _expected_row(slug, table["gm"], Character.objects.get(pk=row["id"]), roll["id"])
            aided = {**plain["request"], key: plain["request"][key] + 1}
            assert row["request"] == aided
            assert row["odds"] == odds_of(slug, aided)
            assert row["success"] == pytest.approx(ruleset.success(odds_of(slug, aided)), abs=1e-12)
            assert row["without_aid"] == pytest.approx(plain["success"], abs=1e-12)
        monkeypatch.undo()
    for real in offered:  # the ruleset's own aids: each is accepted and named in the answer
        got = party_odds(table["gm"], campaign, {"rollable": roll["id"], "aid": real["id"]})
        assert got.status_code == 200, got.json()
        assert got.json()["aid"]["id"] == real["id"]
    got = party_odds(table["gm"], campaign, {"rollable": roll["id"], "aid": "no_such_help"})
    assert got.status_code == 400 and got.json()["errors"][0]["field"] == "aid"


def _roll_some_builds_lack(slug):
    """(a build, another build, a roll id the first has and the second lacks) from the ruleset's
    example builds, or None when they all have the same rolls."""
    ruleset = registry.get(slug)
    data = ruleset.contract_data()
    builds = [data[k] for k in ("build", "typical", "sheet") if isinstance(data.get(k), dict)]
    ctx = ruleset.context()
    ids = []
    for build in builds:
        report = ruleset.validate(build)
        state = ruleset.initial_state(build, report, ctx=ctx) if report.valid else {}
        ids.append(
            {r["id"] for r in ruleset.rollables(build, report, state, ctx=ctx)} if report.valid else set()
        )
    for i, mine in enumerate(ids):
        for j, theirs in enumerate(ids):
            extra = sorted(mine - theirs)
            if extra and theirs:
                return builds[i], builds[j], extra[0]
    return None


@pytest.mark.parametrize("slug", RULESETS)
def test_characters_without_the_roll_are_missing(slug, table):
    campaign, characters = make_party(table, slug, 2)
    found = _roll_some_builds_lack(slug)
    if found is not None:
        having, lacking, rollable_id = found
        with_it = add_character(table, campaign, slug, "Kai", build=having)
        without = add_character(table, campaign, slug, "Lum", build=lacking)
    else:
        # A build the rules cannot read any more (the house rules changed under it) has no rolls.
        rollable_id = rollables(table["gm"], characters[0])[0]["id"]
        with_it = None
        without = add_character(table, campaign, slug, "Lum")
        Character.objects.filter(pk=without.pk).update(build={"format": "nonsense"})
    answer = _check_answer(
        slug, table, campaign, [*characters, *([with_it] if with_it else []), without], rollable_id
    )
    assert without.pk in answer["missing"]
    assert without.pk not in [r["id"] for r in answer["characters"]]
    if with_it is not None:
        assert with_it.pk in [r["id"] for r in answer["characters"]]


@pytest.mark.parametrize("slug", RULESETS)
def test_a_roll_no_character_in_play_has_is_a_400(slug, table):
    campaign, characters = make_party(table, slug, 2)
    for body in ({"rollable": "no_such_roll"}, {}, {"rollable": 7}, {"rollable": ""}):
        got = party_odds(table["gm"], campaign, body)
        assert got.status_code == 400, (body, got.json())
        assert got.json()["errors"][0]["field"] == "rollable"
    retired = add_character(table, campaign, slug, "Old Tom")
    rolls = rollables(table["gm"], retired)
    Character.objects.filter(campaign=campaign).exclude(pk=retired.pk).update(status=Character.Status.RETIRED)
    Character.objects.filter(pk=retired.pk).update(status=Character.Status.RETIRED)
    got = party_odds(table["gm"], campaign, {"rollable": rolls[0]["id"]})
    assert got.status_code == 400  # nobody in play has it


@pytest.mark.parametrize("slug", RULESETS)
def test_odds_the_rules_refuse_are_a_400_with_the_reason(slug, table, monkeypatch):
    campaign, characters = make_party(table, slug, 2)
    ruleset = registry.get(slug)
    roll = rollables(table["gm"], characters[0])[0]

    def refuse(request, *, ctx=None):
        raise OddsError("The dice will not say.")

    monkeypatch.setattr(ruleset, "odds", refuse)
    got = party_odds(table["gm"], campaign, {"rollable": roll["id"]})
    assert got.status_code == 400
    assert "The dice will not say." in got.json()["detail"]
    monkeypatch.undo()
    form = {f["name"]: f for f in ruleset.odds_form() or []}
    for key in ruleset.table_keys:
        spec = form.get(key, {})
        if isinstance(spec.get("max"), int):
            got = party_odds(table["gm"], campaign, {"rollable": roll["id"], "table": {key: spec["max"] + 1}})
            assert got.status_code == 400, got.json()
            assert got.json()["errors"][0]["field"] == f"table.{key}"
        if "choices" in spec:
            got = party_odds(table["gm"], campaign, {"rollable": roll["id"], "table": {key: "sideways"}})
            assert got.status_code == 400, got.json()


@pytest.mark.parametrize("slug", RULESETS)
def test_only_the_gm_asks_who_should_roll(slug, table):
    campaign, characters = make_party(table, slug, 1)
    roll = rollables(table["gm"], characters[0])[0]
    body = {"rollable": roll["id"]}
    assert party_odds(table["player"], campaign, body).status_code == 403
    assert party_odds(table["stranger"], campaign, body).status_code == 404
    assert party_odds(make_user("nobody"), campaign, body).status_code == 404
    assert party_odds(None, campaign, body).status_code in (401, 403)
    assert party_odds(table["gm"], campaign, body).status_code == 200


@pytest.mark.parametrize("slug", registry.SYSTEMS)
def test_an_effect_on_a_table_number_changes_the_table_s_number_not_the_other_way(slug, table):
    """The GM sets the scene's number; a character's effect on that number (+1 difficulty) still
    counts: the table's numbers go in first, the effects change them."""
    ruleset = registry.get(slug)
    campaign, (ayla,) = make_party(table, slug, 1)
    rolls = rollables(table["gm"], ayla)
    pick = next(
        (
            (r, k)
            for r in rolls
            for k in ruleset.table_keys
            if k in ruleset.effect_keys and is_int(r["request"].get(k))
        ),
        None,
    )
    if pick is None:
        pytest.skip(f"{ruleset.name}: no table number an effect shifts")
    roll, key = pick
    value = roll["request"][key]
    made = api_client(table["gm"]).post(
        f"/api/v1/characters/{ayla.pk}/effects/",
        {"name": "Hard going", "changes": [{"target": roll["id"], key: 1}]},
        format="json",
    )
    assert made.status_code == 201, made.json()
    got = party_odds(table["gm"], campaign, {"rollable": roll["id"], "table": {key: value}})
    assert got.status_code == 200, got.json()
    [row] = got.json()["characters"]
    expected = ruleset.with_effects(
        {**roll["request"], key: value}, Character.objects.get(pk=ayla.pk).state, roll["id"]
    )
    assert row["request"] == expected
    assert row["request"][key] != value or expected[key] == value
    assert row["odds"] == odds_of(slug, expected)


def test_a_roll_the_party_holds_under_different_names_is_offered_in_words():
    """Issue #38 (5): "Who should roll?" offered "Item: 0: strike" (the roll's id in words) when each
    character's first item differs; it now offers the rolls themselves."""
    from types import SimpleNamespace

    from characters.party.odds import party_rolls, roll_label
    from rulesets.engine import registry

    ruleset = registry.get(registry.SYSTEMS[0])
    members = [
        SimpleNamespace(
            rollables=[{"id": "item:0:strike", "label": "Sword: strike (Coordination 3d6, level 1)"}]
        ),
        SimpleNamespace(
            rollables=[{"id": "item:0:strike", "label": "Bow: strike (Coordination 2d6, level 1)"}]
        ),
    ]
    assert party_rolls(ruleset, members) == [{"id": "item:0:strike", "label": "Sword: strike or Bow: strike"}]
    assert roll_label(["A (1)", "B (2)", "C (3)", "D (4)"], "x") == "A, B or 2 other rolls"
    assert roll_label(["Capability (Coordination 3d6)", "Capability (Coordination 4d6)"], "x") == "Capability"
