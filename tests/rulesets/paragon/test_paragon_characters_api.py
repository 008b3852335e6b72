"""/api/v1/characters/… with a Paragon character (moved from tests/characters/test_characters_api.py:
its two currencies' budgets are the numbers checked): CONTRACT.md shapes, drafts, submit, state,
export, history, errors."""

from __future__ import annotations

import pytest
from django.urls import reverse

from characters.builder.services import character_create
from characters.models import Character
from tests.characters.conftest import make_table
from tests.factories import api_client
from tests.vehicles import other_than

pytestmark = pytest.mark.django_db

#: Another registered ruleset: a build of it is refused in a Paragon campaign.
OTHER = other_than("paragon")

SELA = {
    "ruleset": "paragon",
    "name": "Sela",
    "budget": {"skill_points": 999},
    "power_level": 2,
    "forces": {"fire": 1, "wind": 4, "thunder": 2, "light": 1, "shadow": 2},
    "skills": {"melee": 1, "missile": 2, "triarmatura": 3, "travel": 1, "intuition": 2},
}


def test_create_list_detail_and_budget():
    table = make_table("paragon")
    api = api_client(table.player, token=True)
    response = api.post(
        reverse("api-character-list"), {"campaign": table.campaign.id, "build": SELA}, format="json"
    )
    assert response.status_code == 201, response.json()
    body = response.json()
    assert {"id", "version", "build", "state", "report", "budget", "status"} <= set(body)
    assert (body["version"], body["status"], body["state"]) == (1, "draft", {})
    assert body["build"]["budget"] == {"skill_points": 15}  # the campaign's, not the client's
    assert body["report"]["valid"] is True
    assert body["budget"]["skill_points"] == {"total": 15, "spent": 14, "unspent": 1}
    assert body["budget"]["force_points"] == {"total": 20, "spent": 18, "unspent": 2}

    detail = api.get(reverse("api-character-detail", args=[body["id"]])).json()
    assert {"id", "version", "owner", "campaign", "build", "state", "report", "budget"} <= set(detail)
    assert (detail["owner"], detail["campaign"]) == (table.player.id, table.campaign.id)

    listed = api.get(reverse("api-character-list"), {"campaign": table.campaign.id}).json()
    assert [c["id"] for c in listed] == [body["id"]]
    assert api.get(reverse("api-character-list"), {"campaign": "x"}).status_code == 400
    # The GM sees the player's character; another player does not.
    assert [c["id"] for c in api_client(table.gm).get(reverse("api-character-list")).json()] == [body["id"]]
    assert api_client(table.other).get(reverse("api-character-list")).json() == []


def test_an_invalid_build_is_saved_as_a_draft_and_a_wrong_ruleset_is_400():
    table = make_table("paragon")
    api = api_client(table.player)
    broken = {**SELA, "skills": {**SELA["skills"], "triarmatura": 5}}
    response = api.post(
        reverse("api-character-list"), {"campaign": table.campaign.id, "build": broken}, format="json"
    )
    assert response.status_code == 201
    assert response.json()["status"] == "draft" and response.json()["report"]["valid"] is False
    wrong = api.post(
        reverse("api-character-list"),
        {"campaign": table.campaign.id, "build": {"ruleset": OTHER, "name": "X"}},
        format="json",
    )
    assert wrong.status_code == 400
    assert wrong.json()["errors"] == [
        {
            "code": "ruleset.unknown",
            "path": "/build/ruleset",
            "message": f"This build is for '{OTHER}', but the campaign plays 'paragon'.",
        }
    ]
    assert (
        api.post(
            reverse("api-character-list"), {"campaign": table.campaign.id, "build": [1]}, format="json"
        ).status_code
        == 400
    )
    assert Character.objects.count() == 1


def test_not_a_member_is_404_for_the_campaign():
    table = make_table("paragon")
    response = api_client(table.outsider).post(
        reverse("api-character-list"), {"campaign": table.campaign.id, "build": SELA}, format="json"
    )
    assert response.status_code == 404
    assert (
        api_client(table.outsider)
        .get(reverse("api-character-list"), {"campaign": table.campaign.id})
        .status_code
        == 404
    )


def test_draft_submit_and_stale_versions():
    table = make_table("paragon")
    api = api_client(table.player)
    c = character_create(campaign=table.campaign, owner=table.player, name="Sela")
    url = reverse("api-character-draft", args=[c.id])
    response = api.put(url, {"version": 1, "build": {**SELA, "skills": {"triarmatura": 2}}}, format="json")
    assert response.status_code == 200 and response.json()["version"] == 2
    assert response.json()["report"]["valid"] is False
    refused = api.post(reverse("api-character-submit", args=[c.id]), {}, format="json")
    assert refused.status_code == 422
    assert refused.json()["errors"][0]["code"] == "paragon.triarmatura_cap"
    stale = api.put(url, {"version": 1, "build": SELA}, format="json")
    assert stale.status_code == 409 and set(stale.json()) == {"detail", "errors"}
    assert api.put(url, {"version": 2, "build": SELA}, format="json").status_code == 200
    done = api.post(reverse("api-character-submit", args=[c.id]), {"version": 3}, format="json")
    assert done.status_code == 200
    assert done.json()["status"] == "active" and done.json()["state"]


def test_patch_changes_the_play_state_only():
    table = make_table("paragon")
    api = api_client(table.player)
    created = api.post(
        reverse("api-character-list"), {"campaign": table.campaign.id, "build": SELA}, format="json"
    ).json()
    done = api.post(reverse("api-character-submit", args=[created["id"]]), {}, format="json").json()
    url = reverse("api-character-detail", args=[created["id"]])
    assert api.patch(url, {"version": done["version"], "build": {}}, format="json").status_code == 400
    state = done["state"]
    stale = api.patch(url, {"version": done["version"] - 1, "state": state}, format="json")
    assert stale.status_code == 409
    ok = api_client(table.gm).patch(url, {"version": done["version"], "state": state}, format="json")
    assert ok.status_code == 200 and ok.json()["version"] == done["version"] + 1


def test_export_is_the_build_document():
    table = make_table("paragon")
    api = api_client(table.player)
    created = api.post(
        reverse("api-character-list"), {"campaign": table.campaign.id, "build": SELA}, format="json"
    ).json()
    document = api.get(reverse("api-character-export", args=[created["id"]])).json()
    assert document["format"] == "sheetforge.build/1" and document["ruleset"] == "paragon"
    assert document["skills"] == SELA["skills"] and document["budget"] == {"skill_points": 15}
