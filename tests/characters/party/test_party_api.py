"""The party over the API (CONTRACT.md "The GM's screen"): GET /campaigns/<id>/party/ in every
registered ruleset, each number worked out independently (the rules, the ledger, the effects API)."""

from __future__ import annotations

import copy

import pytest

from characters.advancement import services as advancement_services
from characters.builder.services import character_submit
from characters.models import Campaign, Character
from combat import services as combat
from rulesets.engine import registry
from rulesets.engine.dice import FixedRoller
from tests.characters.party.helpers import (
    add_character,
    ledger_unspent,
    make_party,
    number_key,
    rollables,
)
from tests.factories import api_client, make_user

pytestmark = pytest.mark.django_db
RULESETS = registry.SYSTEMS
CONTRACT_KEYS = {"id", "name", "owner", "status", "summary", "pools", "effects", "unspent"}


def _party(user, campaign):
    return api_client(user).get(f"/api/v1/campaigns/{campaign.pk}/party/")


def _rules_of(character):
    """The summary and pools straight from the ruleset's hooks (not through the party's code)."""
    ruleset = registry.get(character.ruleset)
    campaign = character.campaign
    report = ruleset.validate(
        character.build, settings=campaign.house_rules or None, homebrew=campaign.homebrew or None
    )
    ctx = ruleset.context(campaign.house_rules or None, campaign.homebrew or None)
    state = character.state or ruleset.initial_state(character.build, report, ctx=ctx)
    return ruleset.summary(character.build, report, state, ctx=ctx), ruleset.pools(
        character.build, report, state, ctx=ctx
    )


@pytest.mark.parametrize("slug", RULESETS)
def test_the_party_is_every_character_in_play_with_its_numbers_pools_and_unspent_points(slug, table):
    campaign, characters = make_party(table, slug, 3)
    add_character(table, campaign, slug, "Zed the draft", status=Character.Status.DRAFT)
    got = _party(table["gm"], campaign)
    assert got.status_code == 200, got.json()
    body = got.json()
    assert set(body) == {"characters", "pending"}
    rows = body["characters"]
    assert [r["name"] for r in rows] == ["Ayla", "Bram", "Corin"]  # in play, by name; the draft is not
    for row, character in zip(rows, characters, strict=True):
        character.refresh_from_db()
        assert CONTRACT_KEYS <= set(row)
        assert row["id"] == character.pk and row["status"] == "active"
        assert row["owner"] == character.owner_id
        assert row["owner_username"] == character.owner.get_username()
        assert row["version"] == character.version
        summary, pools = _rules_of(character)
        assert row["summary"] == [{"label": s["label"], "value": s["value"]} for s in summary]
        assert row["pools"] == [{k: p[k] for k in ("id", "label", "current", "max")} for p in pools]
        assert row["unspent"] == ledger_unspent(character)
        assert row["effects"] == []
    assert body["pending"] == {"advancements": [], "creations": []}


@pytest.mark.parametrize("slug", RULESETS)
def test_an_award_shows_in_the_unspent_points(slug, table):
    campaign, (ayla,) = make_party(table, slug, 1)
    ruleset = registry.get(slug)
    currency = ruleset.awardable_currencies[0]
    before = _party(table["gm"], campaign).json()["characters"][0]["unspent"][currency]
    advancement_services.award_create(
        gm=table["gm"], character_id=ayla.pk, currency=currency, amount=7, reason="Session 3"
    )
    after = _party(table["gm"], campaign).json()["characters"][0]["unspent"]
    assert after[currency] == before + 7 == ledger_unspent(ayla)[currency]


@pytest.mark.parametrize("slug", RULESETS)
def test_what_waits_for_review_is_the_pending_requests_and_new_characters(slug, table):
    campaign, (ayla, bram) = make_party(table, slug, 2)
    build = copy.deepcopy(ayla.build)
    build["notes"] = "Learned to swim."
    request = advancement_services.advancement_request(
        character_id=ayla.pk, user=table["player"], build=build
    )
    Campaign.objects.filter(pk=campaign.pk).update(
        settings={**campaign.settings, "approve_new_characters": True}
    )
    newcomer = add_character(table, campaign, slug, "Nim", 1, status=Character.Status.DRAFT)
    character_submit(character_id=newcomer.pk, user=table["other"])
    assert Character.objects.get(pk=newcomer.pk).status == Character.Status.PENDING
    pending = _party(table["gm"], campaign).json()["pending"]
    assert [
        (p["id"], p["character"], p["name"], p["kind"], p["requested_by"]) for p in pending["advancements"]
    ] == [(request.pk, ayla.pk, "Ayla", "advancement", "player")]
    assert [(p["character"], p["name"], p["kind"], p["requested_by"]) for p in pending["creations"]] == [
        (newcomer.pk, "Nim", "creation", "other")
    ]
    assert set(pending["advancements"][0]) == {
        "id",
        "character",
        "name",
        "kind",
        "requested_by",
        "created",
        "note",
        "cost",
    }
    # The waiting newcomer is not in play yet.
    assert [r["name"] for r in _party(table["gm"], campaign).json()["characters"]] == ["Ayla", "Bram"]
    advancement_services.advancement_withdraw(advancement_id=request.pk, user=table["player"])
    assert _party(table["gm"], campaign).json()["pending"]["advancements"] == []


@pytest.mark.parametrize("slug", RULESETS)
def test_effects_are_listed_as_the_effects_api_lists_them(slug, table):
    campaign, (ayla, bram) = make_party(table, slug, 2)
    ruleset = registry.get(slug)
    first = rollables(table["gm"], ayla)[0]
    key = number_key(ruleset, first["request"])
    if key is None:
        pytest.skip(f"{ruleset.name}'s rolls have no number an effect shifts")
    made = api_client(table["gm"]).post(
        f"/api/v1/characters/{ayla.pk}/effects/",
        {"name": "Blessed", "changes": [{"target": "all", key: 1}], "duration": {"until": "rest"}},
        format="json",
    )
    assert made.status_code == 201, made.json()
    rows = {r["name"]: r for r in _party(table["gm"], campaign).json()["characters"]}
    listed = api_client(table["gm"]).get(f"/api/v1/characters/{ayla.pk}/effects/").json()
    assert rows["Ayla"]["effects"] == listed
    assert [(e["name"], e["remaining"]) for e in rows["Ayla"]["effects"]] == [("Blessed", "until rest")]
    assert rows["Bram"]["effects"] == []


@pytest.mark.parametrize("slug", RULESETS)
def test_an_effect_on_an_encounter_s_clock_says_how_many_rounds_remain_now(slug, table):
    campaign, (ayla,) = make_party(table, slug, 1)
    ruleset = registry.get(slug)
    key = number_key(ruleset, rollables(table["gm"], ayla)[0]["request"])
    if key is None:
        pytest.skip(f"{ruleset.name}'s rolls have no number an effect shifts")
    fight = combat.encounter_create(campaign=campaign, user=table["gm"], name="Ford")
    combat.encounter_add_combatant(encounter=fight, user=table["gm"], character=ayla)
    combat.encounter_start(encounter=fight, user=table["gm"], roller=FixedRoller([1] * 40))
    made = api_client(table["gm"]).post(
        f"/api/v1/characters/{ayla.pk}/effects/",
        {
            "name": "Dazzled",
            "changes": [{"target": "all", key: -1}],
            "duration": {"rounds": 3},
            "encounter": fight.pk,
        },
        format="json",
    )
    assert made.status_code == 201, made.json()

    def remaining():
        return [e["remaining"] for e in _party(table["gm"], campaign).json()["characters"][0]["effects"]]

    assert remaining() == ["3 rounds left"]
    fight.refresh_from_db()
    start = fight.round
    for _ in range(5):  # one combatant: a turn or two ends the round
        combat.encounter_next_turn(encounter=fight, user=table["gm"], roller=FixedRoller([1] * 40))
        fight.refresh_from_db()
        if fight.round > start:
            break
    assert fight.round == start + 1
    assert remaining() == ["2 rounds left"]  # counted from the round now, not the round it began


@pytest.mark.parametrize("slug", RULESETS)
def test_only_the_gm_sees_the_party(slug, table):
    campaign, _ = make_party(table, slug, 1)
    assert _party(table["player"], campaign).status_code == 403
    assert _party(table["other"], campaign).status_code == 403
    assert _party(table["stranger"], campaign).status_code == 404
    assert _party(make_user("nobody"), campaign).status_code == 404
    assert api_client(None).get(f"/api/v1/campaigns/{campaign.pk}/party/").status_code in (401, 403)
    assert _party(table["gm"], Campaign(pk=campaign.pk + 1000)).status_code == 404


def test_the_party_s_compiled_reads_answer_as_django_does(table):
    from characters.party import selectors as sel

    slug = RULESETS[0]
    campaign, (ayla, bram) = make_party(table, slug, 2)
    build = copy.deepcopy(ayla.build)
    build["notes"] = "More."
    advancement_services.advancement_request(character_id=ayla.pk, user=table["player"], build=build)
    got, django = sel._PARTY.fetch(campaign=campaign.pk), list(sel._party_rows(campaign.pk))
    assert [c.pk for c in got] == [c.pk for c in django] == [ayla.pk, bram.pk]
    for a, b in zip(got, django, strict=True):
        assert a.get_deferred_fields() == b.get_deferred_fields() == {"build", "report"}
        assert (a.name, a.state, a.version, a.updated, a.owner.username, a.report_spent) == (
            b.name,
            b.state,
            b.version,
            b.updated,
            b.owner.username,
            b.report_spent,
        )
    assert sorted(sel._LEDGER.fetch(campaign=campaign.pk)) == sorted(sel._ledger_rows(campaign.pk))
    assert sorted(sel._LEDGER_OF.fetch(character=ayla.pk)) == sorted(sel._ledger_rows_of(ayla.pk))
    assert sel._PENDING.fetch(campaign=campaign.pk) == list(sel._pending_rows(campaign.pk))
    assert len(sel._PENDING.fetch(campaign=campaign.pk)) == 1
    member = sel._MEMBER.fetch(campaign=campaign.pk, pk=bram.pk)
    assert [c.pk for c in member] == [bram.pk]
    assert sel._MEMBER.fetch(campaign=campaign.pk + 1000, pk=bram.pk) == []
    assert [c.pk for c in sel._CAMPAIGN.fetch(pk=campaign.pk, user=table["player"].pk)] == [campaign.pk]
    assert sel._CAMPAIGN.fetch(pk=campaign.pk, user=table["stranger"].pk) == []
