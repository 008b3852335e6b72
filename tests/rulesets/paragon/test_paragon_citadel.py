"""Paragon's citadel phase (RULES.md W9), from the seed's "PHASES OF THE GAME": "Players have to make
decisions on what sort of activities their characters spend their time on during a citadel phase";
"the game master may allow 1-3 activities to be selected by each player character. The same activity
may be selected more than once during the phase -- for example, a severely wounded character may
spend two activities on medicinal treatment if one would not be sufficient for a full recovery. PCs
may be limited to a maximum of a single training activity". What each does in numbers (house
defaults), the player's choice, the GM's approval through the advancement queue and the ledger."""

from __future__ import annotations

import copy
import re

import pytest
from django.urls import reverse

from characters.advancement import services as svc
from characters.models import Advancement, LedgerEntry
from rulesets.engine import FixedRoller, registry, validate
from tests.characters.sheet.test_sheet_fixtures import character_at_table
from tests.factories import api_client

PARAGON = registry.get("paragon")
AREN = PARAGON.contract_data()["build"]  # Fire 2 Athletics 1, Light 2, Wind 3; Etiquette 1


def _state(**pools):
    report = validate(AREN)
    st = PARAGON.initial_state(AREN, report)
    st["pools"].update(pools)
    return st, report


# ------------------------------------------------------------------ the rules: what each does


def test_the_catalogue_lists_the_seeds_eight_activities_with_numbers():
    names = [a["name"] for a in PARAGON.activities()]
    assert names == [
        "Training",
        "Medicinal treatment",
        "Acts of charity and goodwill",
        "Pilgrimages, asceticism and purification rituals",
        "Exchange of gifts and favours",
        "Courtly activities",
        "Information gathering",
        "Contests and displays of impressive feats",
    ]
    assert PARAGON.activities_max() == 3


def test_training_awards_skill_points_and_morale():
    # "Training, which generates skill points to allocate on characters' skills … and increments to Morale."
    st, report = _state(morale=7)
    done = PARAGON.apply_activities(st, AREN, report, ["training"])
    assert done.awards == {"skill_points": 3}
    assert done.state["pools"]["morale"] == 9
    assert done.messages == ["Training: 3 skill points; Morale 7 → 9."]


def test_two_medicinal_treatments_for_a_severe_wound_up_to_the_maximum():
    # "a severely wounded character may spend two activities on medicinal treatment"
    st, report = _state(health=3)
    done = PARAGON.apply_activities(st, AREN, report, ["medicinal_treatment", "medicinal_treatment"])
    assert done.state["pools"]["health"] == 20
    assert done.messages == ["Medicinal treatment: Health 3 → 13.", "Medicinal treatment: Health 13 → 20."]
    assert st["pools"]["health"] == 3  # never mutated


def test_charity_restores_face_but_a_pariah_stays_locked_and_austerities_cleanse():
    st, report = _state(face=6, purity=12)
    st["corruption"] = 7
    done = PARAGON.apply_activities(st, AREN, report, ["charity", "austerities"])
    assert (done.state["pools"]["face"], done.state["pools"]["purity"], done.state["corruption"]) == (
        11,
        17,
        2,
    )
    pariah, report = _state(face=0)
    done = PARAGON.apply_activities(pariah, AREN, report, ["charity"])
    assert done.state["pools"]["face"] == 0
    assert done.messages == ["Acts of charity and goodwill: Face stays locked at 0."]


def test_contests_roll_the_best_skill_a_pass_wins_face_a_failure_costs_it():
    # "Successful performance may result in prizes … though there is a risk that characters embarrass
    # themselves." Aren's best of Hunting (Shadow 0), Athletics (Fire 2, rank 1), Arts (Fire 2): Athletics.
    st, report = _state(face=15)
    won = PARAGON.apply_activities(st, AREN, report, ["contests"], FixedRoller([9, 3, 3]))
    assert won.messages == [
        "Contests and displays of impressive feats: Athletics d12!+2d6+2: 9 | 3,3 +2 = 17 vs TN 15: pass; "
        "Face 15 → 18."
    ]
    lost = PARAGON.apply_activities(st, AREN, report, ["contests"], FixedRoller([1, 1, 1]))
    assert lost.state["pools"]["face"] == 13 and "vs TN 15: fail; Face 15 → 13." in lost.messages[0]


@pytest.mark.parametrize(
    ("picks", "house", "found"),
    [
        ([], None, [("activity.count", "/activities")]),
        (["training", "charity", "charity", "charity"], None, [("activity.count", "/activities")]),
        (["charity", "swimming"], None, [("activity.unknown", "/activities/1")]),
        (["training", "training"], None, [("paragon.activity_limit", "/activities/1")]),
        (["training", "training"], {"training_per_phase": 2}, []),
        (["charity", "charity"], {"activities_max": 1}, [("activity.count", "/activities")]),
        ("training", None, [("build.malformed", "/activities")]),
    ],
)
def test_the_choice_is_checked_with_codes_and_paths(picks, house, found):
    report = PARAGON.validate(AREN, settings=house)
    issues = PARAGON.check_activities(picks, AREN, report, ctx=report.context)
    assert [(i.code, i.path) for i in issues] == found


# ------------------------------------------------------------------ the request and the GM's approval


@pytest.fixture
def aren(table):
    character = character_at_table(table, "paragon", build=copy.deepcopy(AREN))
    state = copy.deepcopy(character.state)
    state["pools"]["health"] = 4
    character.state = state
    character.save(update_fields=["state"])
    return character


def test_a_player_requests_activities_and_the_gm_approves_them_through_the_ledger(table, aren):
    player, gm = api_client(table["player"]), api_client(table["gm"])
    response = player.post(
        f"/api/v1/characters/{aren.pk}/activities/",
        {"activities": ["training", "medicinal_treatment"], "note": "Drills at dawn."},
        format="json",
    )
    assert response.status_code == 201, response.json()
    body = response.json()
    assert (body["kind"], body["status"]) == ("activities", "pending")
    assert [a["name"] for a in body["activities"]] == ["Training", "Medicinal treatment"]
    pending = gm.get(f"/api/v1/advancements/?campaign={aren.campaign_id}&status=pending").json()
    assert [a["id"] for a in pending] == [body["id"]]
    version = aren.version
    awarded_before = aren.build["budget"]["skill_points"]

    approved = gm.post(f"/api/v1/advancements/{body['id']}/approve/", {}, format="json")
    assert approved.status_code == 200 and approved.json()["status"] == "approved"
    aren.refresh_from_db()
    assert aren.state["pools"]["health"] == 14 and aren.version == version + 1
    assert aren.build["budget"]["skill_points"] == awarded_before + 3
    row = LedgerEntry.objects.get(character=aren, advancement_id=body["id"])
    assert (row.kind, row.currency, row.amount) == ("award", "skill_points", 3)
    assert row.reason == f"between adventures #{body['id']}: Training, Medicinal treatment"
    detail = gm.get(f"/api/v1/advancements/{body['id']}/").json()
    assert detail["outcome"] == [
        "Training: 3 skill points; Morale 12 → 12.",
        "Medicinal treatment: Health 4 → 14.",
    ]
    ledger = player.get(f"/api/v1/characters/{aren.pk}/ledger/").json()
    assert ledger["balance"]["skill_points"] == aren.report["remaining"]["skill_points"]


def test_refusals_change_nothing(table, aren):
    player = api_client(table["player"])
    response = player.post(
        f"/api/v1/characters/{aren.pk}/activities/", {"activities": ["training", "training"]}, format="json"
    )
    assert response.status_code == 422
    assert [(e["code"], e["path"]) for e in response.json()["errors"]] == [
        ("paragon.activity_limit", "/activities/1")
    ]
    other = api_client(table["other"]).post(
        f"/api/v1/characters/{aren.pk}/activities/", {"activities": ["charity"]}, format="json"
    )
    stranger = api_client(table["stranger"]).post(
        f"/api/v1/characters/{aren.pk}/activities/", {"activities": ["charity"]}, format="json"
    )
    # Another player of the campaign may not see Aren's sheet: 404, as for a stranger.
    assert (other.status_code, stranger.status_code) == (404, 404)
    assert (
        api_client(table["player"])
        .post(f"/api/v1/characters/{aren.pk}/activities/", {"activities": "charity"}, format="json")
        .status_code
        == 400
    )
    assert not Advancement.objects.filter(character=aren).exists()


def test_only_the_gm_approves_a_rejection_applies_nothing_and_approved_activities_are_not_reverted(
    table,
    aren,
):
    request = svc.activities_request(character_id=aren.pk, user=table["player"], activities=["charity"])
    assert api_client(table["player"]).post(f"/api/v1/advancements/{request.pk}/approve/").status_code == 403
    state, version = aren.state, aren.version
    svc.advancement_reject(advancement_id=request.pk, gm=table["gm"], comment="Not this time.")
    aren.refresh_from_db()
    assert (aren.state, aren.version) == (state, version)
    again = svc.activities_request(character_id=aren.pk, user=table["player"], activities=["charity"])
    svc.advancement_approve(advancement_id=again.pk, gm=table["gm"])
    reverted = api_client(table["gm"]).post(
        f"/api/v1/advancements/{again.pk}/revert/", {"reason": "oops"}, format="json"
    )
    assert reverted.status_code == 409


def test_a_new_choice_supersedes_the_pending_one_but_not_a_pending_advancement(table, aren):
    bigger = copy.deepcopy(aren.build)
    bigger["skills"]["lore"] = 1
    advancement = svc.advancement_request(character_id=aren.pk, user=table["player"], build=bigger)
    first = svc.activities_request(character_id=aren.pk, user=table["player"], activities=["charity"])
    second = svc.activities_request(character_id=aren.pk, user=table["player"], activities=["contests"])
    statuses = {a.pk: a.status for a in Advancement.objects.filter(character=aren)}
    assert statuses == {advancement.pk: "pending", first.pk: "withdrawn", second.pk: "pending"}


def test_the_pages_pick_show_and_approve_in_words(client, table, aren):
    client.force_login(table["player"])
    sheet = client.get(reverse("character_sheet", args=[aren.pk])).content.decode()
    assert 'data-testid="activities-link">Between adventures</a>' in sheet
    page = client.get(reverse("character_activities", args=[aren.pk])).content.decode()
    assert (
        "<dt>Medicinal treatment</dt><dd>Resting under the care of the citadel&#x27;s physicians: Health +10"
        in page
    )
    assert page.count('<select id="activity-') == 3
    refused = client.post(
        reverse("character_activities", args=[aren.pk]), {"activity": ["training", "training"]}
    )
    assert refused.status_code == 422
    assert "Training may be picked at most 1 time a phase." in refused.content.decode()
    sent = client.post(
        reverse("character_activities", args=[aren.pk]), {"activity": ["medicinal_treatment", "charity", ""]}
    )
    request = Advancement.objects.get(character=aren, status="pending")
    assert sent.status_code == 302 and sent["Location"] == reverse("advancement_detail", args=[request.pk])
    client.force_login(table["gm"])
    detail = client.get(reverse("advancement_detail", args=[request.pk])).content.decode()
    assert (
        f"Between adventures #{request.pk}" in detail
        and "<strong>Acts of charity and goodwill</strong>" in detail
    )
    client.post(reverse("advancement_approve", args=[request.pk]), {"comment": "Rest well."})
    detail = client.get(reverse("advancement_detail", args=[request.pk])).content.decode()
    card = re.search(r'data-testid="advancement-activities">.*?</section>', detail, re.S).group(0)
    assert "<li>Medicinal treatment: Health 4 → 14.</li>" in card
    assert (
        client.get(reverse("character_activities", args=[aren.pk])).status_code == 403
    )  # the GM picks nothing
    client.force_login(table["other"])
    assert client.get(reverse("character_activities", args=[aren.pk])).status_code == 404


def test_the_party_page_says_what_waits_in_words(client, table, aren):
    svc.activities_request(character_id=aren.pk, user=table["player"], activities=["charity"])
    client.force_login(table["gm"])
    html = client.get(reverse("campaign_party", args=[aren.campaign_id])).content.decode()
    pending = re.search(r'id="party-pending".*?</section>', html, re.S).group(0)
    assert f"{aren.name} between adventures</a>" in pending
