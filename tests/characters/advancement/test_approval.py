"""GM approval of new characters (campaign setting ``approve_new_characters``): API and pages."""

from __future__ import annotations

import copy

import pytest

from characters.builder.services import character_create
from characters.models import Advancement, Campaign, Character, CharacterVersion, LedgerEntry
from combat.models import Encounter
from rulesets.engine import registry
from tests.characters.sheet.test_sheet_fixtures import BUILDS
from tests.factories import api_client, make_campaign, make_user
from tests.vehicles import SLUGS

pytestmark = pytest.mark.django_db


#: The registry's first ruleset (any would do: approval is the product's, not a game's).
SLUG = SLUGS[0]


def _table(slug: str) -> dict:
    gm, player, other, outsider = (
        make_user("gm"),
        make_user("player"),
        make_user("other"),
        make_user("outsider"),
    )
    campaign = make_campaign(
        gm=gm, ruleset=slug, players=[player, other], settings={"approve_new_characters": True}
    )
    draft = character_create(campaign=campaign, owner=player, build=copy.deepcopy(BUILDS[slug]))
    return {
        "gm": gm,
        "player": player,
        "other": other,
        "outsider": outsider,
        "campaign": campaign,
        "draft": draft,
    }


@pytest.fixture
def table(db):
    return _table(SLUG)


def _submit(t):
    response = api_client(t["player"]).post(f"/api/v1/characters/{t['draft'].id}/submit/", {}, format="json")
    assert response.status_code == 200, response.content
    return response


def test_submit_in_an_approving_campaign_is_pending_and_queued_with_its_cost(table):
    response = _submit(table)
    assert response.json()["status"] == "pending"
    character = Character.objects.get(pk=table["draft"].id)
    assert character.status == "pending"
    assert character.state == {}  # no play state until approved
    assert not LedgerEntry.objects.filter(character=character, kind="spend").exists()
    review = Advancement.objects.get(character=character)
    assert (review.kind, review.status, review.requested_by) == ("creation", "pending", table["player"])
    spent = registry.get(SLUG).validate(BUILDS[SLUG]).spent
    assert review.cost == {c: v for c, v in spent.items() if v} and review.cost  # what the build costs
    queue = api_client(table["gm"]).get(
        f"/api/v1/advancements/?campaign={table['campaign'].id}&status=pending"
    )
    assert [(a["id"], a["kind"]) for a in queue.json()] == [(review.id, "creation")]


def test_without_the_setting_submit_is_active_as_before(db):
    player = make_user()
    campaign = make_campaign(ruleset=SLUG, players=[player])
    assert "approve_new_characters" not in campaign.settings
    draft = character_create(campaign=campaign, owner=player, build=copy.deepcopy(BUILDS[SLUG]))
    response = api_client(player).post(f"/api/v1/characters/{draft.id}/submit/", {}, format="json")
    assert response.json()["status"] == "active"
    assert not Advancement.objects.filter(character=draft).exists()


def test_gm_approves_and_the_character_is_active_exactly_as_a_submit_makes_it(table):
    _submit(table)
    response = api_client(table["gm"]).post(
        f"/api/v1/characters/{table['draft'].id}/approve/", {"comment": "Welcome aboard"}, format="json"
    )
    assert response.status_code == 200, response.content
    assert response.json()["status"] == "active"
    character = Character.objects.get(pk=table["draft"].id)
    assert character.state  # the first play state
    spends = list(
        LedgerEntry.objects.filter(character=character, kind="spend").values_list("currency", "amount")
    )
    assert spends == [("cp", -30)]
    review = Advancement.objects.get(character=character)
    assert (review.status, review.reviewed_by, review.review_comment) == (
        "approved",
        table["gm"],
        "Welcome aboard",
    )
    reasons = list(
        CharacterVersion.objects.filter(character=character)
        .order_by("number")
        .values_list("reason", flat=True)
    )
    assert reasons == ["created", "submitted for the GM's approval", "approved by the GM"]
    assert review.applied_version == character.version == 3


def test_gm_rejects_with_a_comment_and_the_draft_is_editable_again(table):
    _submit(table)
    gm = api_client(table["gm"])
    missing = gm.post(f"/api/v1/characters/{table['draft'].id}/reject/", {}, format="json")
    assert missing.status_code == 400
    assert Character.objects.get(pk=table["draft"].id).status == "pending"
    response = gm.post(
        f"/api/v1/characters/{table['draft'].id}/reject/",
        {"comment": "Power level 5 is too much for this table"},
        format="json",
    )
    assert response.status_code == 200, response.content
    assert response.json()["status"] == "draft"
    review = Advancement.objects.get(character_id=table["draft"].id)
    assert (review.status, review.review_comment) == ("rejected", "Power level 5 is too much for this table")
    character = Character.objects.get(pk=table["draft"].id)
    build = copy.deepcopy(character.build)
    build["name"] = "Alex the Humble"
    saved = api_client(table["player"]).put(
        f"/api/v1/characters/{character.id}/draft/",
        {"version": character.version, "build": build},
        format="json",
    )
    assert saved.status_code == 200 and saved.json()["build"]["name"] == "Alex the Humble"


@pytest.mark.parametrize("action,body", [("approve", {}), ("reject", {"comment": "no"})])
def test_who_may_review(table, action, body):
    _submit(table)
    url = f"/api/v1/characters/{table['draft'].id}/{action}/"
    assert api_client(table["player"]).post(url, body, format="json").status_code == 403
    assert api_client(table["outsider"]).post(url, body, format="json").status_code == 404
    assert api_client(table["other"]).post(url, body, format="json").status_code == 404
    assert api_client().post(url, body, format="json").status_code in (401, 403)
    assert Character.objects.get(pk=table["draft"].id).status == "pending"


@pytest.mark.parametrize("action,body", [("approve", {}), ("reject", {"comment": "no"})])
def test_only_a_pending_character_is_reviewed(table, action, body):
    response = api_client(table["gm"]).post(
        f"/api/v1/characters/{table['draft'].id}/{action}/", body, format="json"
    )
    assert response.status_code == 409
    assert Character.objects.get(pk=table["draft"].id).status == "draft"


def test_a_pending_character_cannot_be_edited_advanced_or_join_an_encounter(table):
    _submit(table)
    character = Character.objects.get(pk=table["draft"].id)
    player = api_client(table["player"])
    edit = player.put(
        f"/api/v1/characters/{character.id}/draft/",
        {"version": character.version, "build": character.build},
        format="json",
    )
    assert edit.status_code == 422
    assert "waiting for the GM" in edit.json()["detail"]
    advance = player.post(
        f"/api/v1/characters/{character.id}/advancements/", {"build": character.build}, format="json"
    )
    assert advance.status_code == 422
    assert "waiting for the GM" in advance.json()["detail"]
    encounter = Encounter.objects.create(campaign=table["campaign"], name="Ambush", created_by=table["gm"])
    join = api_client(table["gm"]).post(
        f"/api/v1/encounters/{encounter.id}/combatants/", {"character": character.id}, format="json"
    )
    assert join.status_code == 422
    assert "pending approval" in join.json()["detail"]
    assert encounter.combatants.count() == 0
    assert Character.objects.get(pk=character.id).version == character.version


def test_the_setting_is_checked_and_kept(db):
    gm = make_user()
    client = api_client(gm)
    bad = client.post(
        "/api/v1/campaigns/",
        {"name": "T", "ruleset": SLUG, "settings": {"approve_new_characters": "yes"}},
        format="json",
    )
    assert bad.status_code == 400
    assert not Campaign.objects.exists()
    ok = client.post(
        "/api/v1/campaigns/",
        {"name": "T", "ruleset": SLUG, "settings": {"approve_new_characters": True}},
        format="json",
    )
    assert ok.status_code == 201
    assert (
        client.get(f"/api/v1/campaigns/{ok.json()['id']}/").json()["settings"]["approve_new_characters"]
        is True
    )


# ------------------------------------------------------------------ pages


def test_the_review_queue_page_approves_a_new_character(table, client):
    _submit(table)
    review = Advancement.objects.get(character_id=table["draft"].id)
    client.force_login(table["gm"])
    page = client.get("/review/")
    text = page.content.decode()
    assert "New character" in text and BUILDS[SLUG]["name"] in text
    response = client.post(f"/advancements/{review.id}/approve/", {"comment": ""})
    assert response.status_code == 302
    assert Character.objects.get(pk=table["draft"].id).status == "active"
    detail = client.get(f"/advancements/{review.id}/").content.decode()
    assert "Approved by gm" in detail


def test_the_review_page_rejects_and_the_player_reads_the_comment(table, client):
    _submit(table)
    review = Advancement.objects.get(character_id=table["draft"].id)
    client.force_login(table["gm"])
    empty = client.post(f"/advancements/{review.id}/reject/", {"comment": " "})
    assert Character.objects.get(pk=table["draft"].id).status == "pending"
    assert empty.status_code in (302, 400)
    client.post(f"/advancements/{review.id}/reject/", {"comment": "Pick a real name"})
    assert Character.objects.get(pk=table["draft"].id).status == "draft"
    client.force_login(table["player"])
    builder = client.get(f"/characters/{table['draft'].id}/build/").content.decode()
    assert "Pick a real name" in builder
    assert "returned" in builder


def test_a_player_cannot_approve_their_own_character_on_the_page(table, client):
    _submit(table)
    review = Advancement.objects.get(character_id=table["draft"].id)
    client.force_login(table["player"])
    client.post(f"/advancements/{review.id}/approve/", {"comment": ""})
    assert Character.objects.get(pk=table["draft"].id).status == "pending"
    client.force_login(table["outsider"])
    assert client.post(f"/advancements/{review.id}/approve/", {"comment": ""}).status_code == 404


def test_an_approved_new_character_is_not_reverted_like_an_advancement(table):
    _submit(table)
    api_client(table["gm"]).post(f"/api/v1/characters/{table['draft'].id}/approve/", {}, format="json")
    review = Advancement.objects.get(character_id=table["draft"].id)
    response = api_client(table["gm"]).post(
        f"/api/v1/advancements/{review.id}/revert/", {"reason": "oops"}, format="json"
    )
    assert response.status_code == 409
    assert Character.objects.get(pk=table["draft"].id).status == "active"


def test_the_review_queue_stays_within_its_queries(table, client, django_assert_max_num_queries):
    for _ in range(3):
        draft = character_create(
            campaign=table["campaign"], owner=table["player"], build=copy.deepcopy(BUILDS[SLUG])
        )
        api_client(table["player"]).post(f"/api/v1/characters/{draft.id}/submit/", {}, format="json")
    client.force_login(table["gm"])
    with django_assert_max_num_queries(40) as counted:
        page = client.get("/review/")
    assert page.content.decode().count("New character") >= 3
    three = len(counted.captured_queries)
    character_create(campaign=table["campaign"], owner=table["player"], build=copy.deepcopy(BUILDS[SLUG]))
    api_client(table["player"]).post(
        f"/api/v1/characters/{Character.objects.latest('id').id}/submit/", {}, format="json"
    )
    with django_assert_max_num_queries(three + 2):  # one more card costs no more than its ledger read
        client.get("/review/")
