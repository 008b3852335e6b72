"""Who sees and edits what: another player's character does not exist for them; the GM reads builds
but does not change them."""

from __future__ import annotations

import pytest
from django.urls import reverse

from characters.builder.services import character_create
from tests.characters.conftest import make_table
from tests.factories import api_client
from tests.vehicles import SLUGS

pytestmark = pytest.mark.django_db


@pytest.fixture
def world():
    table = make_table(SLUGS[0])
    character = character_create(campaign=table.campaign, owner=table.player, name="Charlotte")
    return table, character


PAGES = ["character_builder", "character_history", "character_export"]
API = ["api-character-detail", "api-character-export", "api-character-history"]


@pytest.mark.parametrize("stranger", ["other", "outsider"])
def test_another_players_character_is_404_on_every_page_and_endpoint(client, world, stranger):
    table, character = world
    user = getattr(table, stranger)
    client.force_login(user)
    for name in PAGES:
        assert client.get(reverse(name, args=[character.id])).status_code == 404, name
    assert client.post(reverse("character_builder", args=[character.id]), {"_save": "1"}).status_code == 404
    assert (
        client.post(reverse("character_revert", args=[character.id]), {"to_version": "1"}).status_code == 404
    )
    api = api_client(user)
    for name in API:
        response = api.get(reverse(name, args=[character.id]))
        assert response.status_code == 404, name
        assert set(response.json()) == {"detail", "errors"}
    assert (
        api.patch(
            reverse("api-character-detail", args=[character.id]), {"version": 1, "state": {}}, format="json"
        ).status_code
        == 404
    )
    assert (
        api.put(
            reverse("api-character-draft", args=[character.id]), {"version": 1, "build": {}}, format="json"
        ).status_code
        == 404
    )
    assert (
        api.post(reverse("api-character-submit", args=[character.id]), {}, format="json").status_code == 404
    )
    listed = api.get(reverse("api-character-list")).json()
    assert character.id not in [c["id"] for c in listed]


def test_a_missing_character_is_the_same_404(client, world):
    table, _ = world
    client.force_login(table.player)
    assert client.get(reverse("character_builder", args=[999999])).status_code == 404
    assert api_client(table.player).get(reverse("api-character-detail", args=[999999])).status_code == 404


def test_the_gm_views_a_players_build_but_may_not_change_it(client, world):
    table, character = world
    client.force_login(table.gm)
    page = client.get(reverse("character_builder", args=[character.id]))
    assert page.status_code == 200
    assert b"only its owner can change it" in page.content
    assert b'name="_save"' not in page.content
    assert client.get(reverse("character_history", args=[character.id])).status_code == 200
    assert client.get(reverse("character_export", args=[character.id])).status_code == 200
    assert (
        client.post(
            reverse("character_builder", args=[character.id]), {"_save": "1", "_version": "1"}
        ).status_code
        == 403
    )
    assert client.post(reverse("character_builder", args=[character.id]), {"_submit": "1"}).status_code == 403
    assert (
        client.post(
            reverse("character_builder", args=[character.id]), {"/name": "x"}, HTTP_HX_REQUEST="true"
        ).status_code
        == 403
    )
    api = api_client(table.gm)
    assert api.get(reverse("api-character-detail", args=[character.id])).status_code == 200
    response = api.put(
        reverse("api-character-draft", args=[character.id]),
        {"version": 1, "build": character.build},
        format="json",
    )
    assert response.status_code == 403
    assert (
        api.post(reverse("api-character-submit", args=[character.id]), {}, format="json").status_code == 403
    )
    character.refresh_from_db()
    assert character.version == 1


def test_anonymous_users_are_sent_to_sign_in(client, world):
    _, character = world
    response = client.get(reverse("character_builder", args=[character.id]))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert api_client().get(reverse("api-character-detail", args=[character.id])).status_code in (401, 403)
