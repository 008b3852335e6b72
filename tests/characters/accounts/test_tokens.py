"""API tokens a user controls (characters/accounts/auth.py): one per device with a name, listed on the
account page, revoked one by one (DELETE /api/v1/auth/token/ or the page) or all at once by a
password change; an optional expiry; the last-used time kept; only a digest stored."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.test import Client
from django.utils import timezone

from characters.models import ApiToken
from tests.factories import PASSWORD, api_client, make_user

pytestmark = pytest.mark.django_db
NEW_PASSWORD = "copper-kettle-319-lantern"


def _issue(username, name=None, **extra):
    body = {"username": username, "password": PASSWORD}
    if name is not None:
        body["name"] = name
    response = api_client().post("/api/v1/auth/token/", body, format="json", **extra)
    assert response.status_code == 200, response.content
    assert set(response.json()) == {"token"}  # CONTRACT.md's shape
    return response.json()["token"]


def _with(key):
    client = api_client()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


def test_each_sign_in_issues_another_named_token_and_both_work():
    user = make_user("orla")
    laptop, phone = _issue("orla", "laptop"), _issue("orla", "  phone\tapp  ")
    assert laptop != phone and len(laptop) == 64
    assert _with(laptop).get("/api/v1/campaigns/").status_code == 200
    assert _with(phone).get("/api/v1/campaigns/").status_code == 200
    names = list(ApiToken.objects.filter(user=user).order_by("id").values_list("name", flat=True))
    assert names == ["laptop", "phone app"]
    assert _issue("orla") and ApiToken.objects.filter(user=user).order_by("-id").first().name == "API token"


def test_only_a_digest_of_the_key_is_stored():
    make_user("orla")
    key = _issue("orla", "laptop")
    row = ApiToken.objects.values().get()
    assert key not in str(row.values())
    assert row["token_key"] == key[:15] and len(row["digest"]) == 128


def test_delete_revokes_the_token_in_use_and_no_other():
    make_user("orla")
    laptop, phone = _issue("orla", "laptop"), _issue("orla", "phone")
    response = _with(laptop).delete("/api/v1/auth/token/")
    assert response.status_code == 204 and response.content == b""
    assert _with(laptop).get("/api/v1/campaigns/").status_code == 401
    assert _with(phone).get("/api/v1/campaigns/").status_code == 200
    assert list(ApiToken.objects.values_list("name", flat=True)) == ["phone"]
    assert _with(laptop).delete("/api/v1/auth/token/").status_code == 401  # already gone


def test_delete_needs_a_token():
    user = make_user("orla")
    assert api_client().delete("/api/v1/auth/token/").status_code == 401
    response = api_client(user).delete("/api/v1/auth/token/")  # a browser session, no token
    assert response.status_code == 400
    assert response.json() == {"detail": "This request is not signed with an API token.", "errors": []}


def test_the_account_page_lists_tokens_and_revokes_one():
    user, other = make_user("orla"), make_user("bram")
    _issue("orla", "laptop")
    _issue("orla", "foundry sync")
    _issue("bram", "bram's laptop")
    client = Client()
    client.force_login(user)
    html = client.get("/accounts/").content.decode()
    assert "foundry sync" in html and "laptop" in html and "bram&#x27;s laptop" not in html
    assert html.count("never") == 4  # not used yet, no expiry: both rows
    laptop = ApiToken.objects.get(name="laptop")
    response = client.post(f"/accounts/tokens/{laptop.pk}/revoke/", follow=True)
    assert "The token is revoked" in response.content.decode()
    assert list(ApiToken.objects.filter(user=user).values_list("name", flat=True)) == ["foundry sync"]
    # Somebody else's token id: a 404, and nothing happens to it.
    theirs = ApiToken.objects.get(user=other)
    response = client.post(f"/accounts/tokens/{theirs.pk}/revoke/")
    assert response.status_code == 404
    assert ApiToken.objects.filter(pk=theirs.pk).exists()
    assert client.get(f"/accounts/tokens/{laptop.pk}/revoke/").status_code == 405


def test_the_account_page_needs_a_sign_in():
    response = Client().get("/accounts/")
    assert response.status_code == 302 and response.url.startswith("/accounts/login/")


def test_a_password_change_revokes_every_token():
    user, other = make_user("orla"), make_user("bram")
    keys = [_issue("orla", "laptop"), _issue("orla", "phone")]
    theirs = _issue("bram", "bram's")
    client = Client()
    client.force_login(user)
    response = client.post(
        "/accounts/password/",
        {
            "old_password": PASSWORD,
            "new_password1": NEW_PASSWORD,
            "new_password2": NEW_PASSWORD,
        },
    )
    assert response.status_code == 302
    assert [_with(k).get("/api/v1/campaigns/").status_code for k in keys] == [401, 401]
    assert not ApiToken.objects.filter(user=user).exists()
    assert _with(theirs).get("/api/v1/campaigns/").status_code == 200
    # set_password in code (the admin, manage.py changepassword) does the same.
    other.set_password(NEW_PASSWORD)
    other.save()
    assert _with(theirs).get("/api/v1/campaigns/").status_code == 401


def test_saving_a_user_without_a_new_password_keeps_the_tokens():
    user = make_user("orla")
    key = _issue("orla")
    user.first_name = "Orla"
    user.save()
    assert _with(key).get("/api/v1/campaigns/").status_code == 200


def test_tokens_expire_after_the_setting(settings):
    settings.REST_KNOX = {**settings.REST_KNOX, "TOKEN_TTL": timedelta(days=30)}
    user = make_user("orla")
    with time_machine.travel(timezone.now(), tick=False) as clock:
        key = _issue("orla", "laptop")
        token = ApiToken.objects.get()
        assert token.expiry == timezone.now() + timedelta(days=30)
        client = Client()
        client.force_login(user)
        assert "laptop" in client.get("/accounts/").content.decode()
        clock.shift(timedelta(days=30) - timedelta(seconds=1))
        assert _with(key).get("/api/v1/campaigns/").status_code == 200
        clock.shift(timedelta(seconds=2))
        assert _with(key).get("/api/v1/campaigns/").status_code == 401
        assert not ApiToken.objects.exists()  # knox deletes an expired token it meets
        client.force_login(user)  # the session has long expired too
        assert 'data-testid="no-tokens"' in client.get("/accounts/").content.decode()


def test_no_expiry_by_default(settings):
    assert settings.API_TOKEN_TTL_DAYS == 0 and settings.REST_KNOX["TOKEN_TTL"] is None
    make_user("orla")
    _issue("orla")
    assert ApiToken.objects.get().expiry is None


def test_last_used_is_kept_at_most_once_a_minute():
    make_user("orla")
    with time_machine.travel(timezone.now(), tick=False) as clock:
        key = _issue("orla")
        assert ApiToken.objects.get().last_used is None
        start = timezone.now()
        _with(key).get("/api/v1/campaigns/")
        assert ApiToken.objects.get().last_used == start
        clock.shift(timedelta(seconds=30))
        _with(key).get("/api/v1/campaigns/")
        assert ApiToken.objects.get().last_used == start  # no write per request
        clock.shift(timedelta(seconds=31))
        _with(key).get("/api/v1/campaigns/")
        assert ApiToken.objects.get().last_used == start + timedelta(seconds=61)


@pytest.mark.parametrize(
    "header",
    [
        "Token " + "z" * 64,
        "Token " + "a" * 63,
        "Token " + "a" * 65,
        "Token \xff\xfe" + "a" * 62,
        "Token " + "a" * 30 + "\x00" + "a" * 33,
        "Token",
        "Token a b",
    ],
)
def test_malformed_token_headers_are_401_never_500(header):
    make_user("orla")
    _issue("orla")
    client = api_client()
    client.credentials(HTTP_AUTHORIZATION=header)
    response = client.get("/api/v1/campaigns/")
    assert response.status_code == 401
    assert response.json()["errors"] == []


def test_an_old_authorization_header_does_not_stop_a_new_sign_in():
    make_user("orla")
    response = api_client().post(
        "/api/v1/auth/token/",
        {"username": "orla", "password": PASSWORD},
        format="json",
        HTTP_AUTHORIZATION="Token " + "0" * 64,
    )
    assert response.status_code == 200


def test_the_schema_documents_issuing_and_revoking(client):
    paths = client.get("/api/schema/", HTTP_ACCEPT="application/json").json()["paths"]
    token = paths["/api/v1/auth/token/"]
    assert {"200", "400", "429"} <= set(token["post"]["responses"])
    assert {"204", "400", "401"} <= set(token["delete"]["responses"])
    assert (
        "name"
        in client.get("/api/schema/", HTTP_ACCEPT="application/json").json()["components"]["schemas"][
            "TokenRequestRequest"
        ]["properties"]
    )


def test_staff_see_tokens_in_the_admin_and_may_only_delete_them():
    from django.contrib.auth import get_user_model

    admin = get_user_model().objects.create_superuser("root", password=PASSWORD)
    make_user("orla")
    _issue("orla", "laptop")
    client = Client()
    client.force_login(admin)
    html = client.get("/admin/characters/apitoken/").content.decode()
    assert "laptop" in html and "orla" in html
    assert client.get("/admin/characters/apitoken/add/").status_code == 403
    token = ApiToken.objects.get()
    response = client.post(f"/admin/characters/apitoken/{token.pk}/delete/", {"post": "yes"})
    assert response.status_code == 302 and not ApiToken.objects.exists()
