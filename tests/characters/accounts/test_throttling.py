"""Brute-force limits (characters/accounts/throttling.py): sign-ins locked out per account and per IP, the
right password included, until the cooling-off period ends; join codes and the token endpoint
throttled. With both stores axes can use (the database; the cache, as with Redis). The limits are
the settings' defaults (LOGIN_FAILURE_LIMIT 5, LOGIN_COOLOFF_SECONDS 900)."""

from __future__ import annotations

import logging
from datetime import timedelta

import pytest
import time_machine
from django.test import Client
from django.utils import timezone

from characters.models import Membership
from tests.factories import PASSWORD, api_client, make_campaign, make_user

pytestmark = pytest.mark.django_db
LIMIT = 5
LOCKED = "Too many failed sign-ins. Try again in 15 minutes."


@pytest.fixture(params=["database", "cache"])
def handler(request, settings):
    settings.AXES_HANDLER = {
        "database": "axes.handlers.database.AxesDatabaseHandler",
        "cache": "axes.handlers.cache.AxesCacheHandler",
    }[request.param]
    return request.param


def _login(client, username, password):
    return client.post("/accounts/login/", {"username": username, "password": password})


def test_the_limits_are_the_documented_defaults(settings):
    assert (settings.LOGIN_FAILURE_LIMIT, settings.LOGIN_COOLOFF_SECONDS) == (LIMIT, 900)
    assert settings.AXES_LOCKOUT_PARAMETERS == ["username", "ip_address"]


def test_the_login_page_locks_an_account_out_even_with_the_right_password(handler, caplog):
    make_user("bram")
    client = Client()
    with time_machine.travel(timezone.now(), tick=False) as clock:
        for _ in range(LIMIT - 1):
            response = _login(client, "bram", "nope-nope-nope")
            assert response.status_code == 200
            assert "Please enter a correct username and password" in response.content.decode()
        with caplog.at_level(logging.WARNING, logger="characters.accounts.throttling"):
            fifth = _login(client, "bram", "nope-nope-nope")
            right = _login(client, "bram", PASSWORD)
        assert fifth.status_code == 429
        assert right.status_code == 429 and right["Retry-After"] == "900"
        html = right.content.decode()
        assert LOCKED in html and 'data-testid="lockout"' in html
        assert "_auth_user_id" not in client.session
        # Each locked-out attempt is logged with who and from where.
        lines = [r.getMessage() for r in caplog.records if r.name == "characters.accounts.throttling"]
        assert lines == ["sign-in locked out: username='bram' ip=127.0.0.1 path=/accounts/login/"] * 2

        clock.shift(timedelta(minutes=14))
        assert _login(client, "bram", PASSWORD).status_code == 429  # still cooling off
        clock.shift(timedelta(minutes=1, seconds=1))
        response = _login(client, "bram", PASSWORD)
        assert response.status_code == 302 and response.url == "/"
        assert client.session["_auth_user_id"]


def test_one_ip_trying_many_accounts_is_locked_out(handler):
    for i in range(LIMIT + 1):
        make_user(f"user{i}")
    client = Client(REMOTE_ADDR="203.0.113.7")
    for i in range(LIMIT):
        _login(client, f"user{i}", "wrong-wrong-wrong")
    response = _login(client, f"user{LIMIT}", PASSWORD)  # an account with no failure of its own
    assert response.status_code == 429 and LOCKED in response.content.decode()
    # Another address is not concerned.
    assert _login(Client(REMOTE_ADDR="198.51.100.2"), f"user{LIMIT}", PASSWORD).status_code == 302


def test_one_account_tried_from_many_ips_is_locked_out(handler):
    make_user("bram")
    for i in range(LIMIT):
        _login(Client(REMOTE_ADDR=f"203.0.113.{i + 1}"), "bram", "wrong-wrong-wrong")
    response = _login(Client(REMOTE_ADDR="198.51.100.9"), "bram", PASSWORD)
    assert response.status_code == 429


def test_the_token_endpoint_shares_the_count_and_answers_429(handler):
    make_user("orla")
    page = Client()
    for _ in range(3):
        assert _login(page, "orla", "wrong-wrong-wrong").status_code == 200
    api = api_client()
    assert (
        api.post("/api/v1/auth/token/", {"username": "orla", "password": "bad"}, format="json").status_code
        == 400
    )
    fifth = api.post("/api/v1/auth/token/", {"username": "orla", "password": "bad"}, format="json")
    assert fifth.status_code == 429
    right = api.post("/api/v1/auth/token/", {"username": "orla", "password": PASSWORD}, format="json")
    assert right.status_code == 429 and right["Retry-After"] == "900"
    assert right.json() == {"detail": LOCKED, "errors": []}
    assert _login(page, "orla", PASSWORD).status_code == 429  # and the page, too


def test_a_right_password_before_the_limit_resets_the_count(handler):
    make_user("bram")
    client = Client(REMOTE_ADDR="203.0.113.50")
    for _ in range(LIMIT - 1):
        _login(client, "bram", "wrong-wrong-wrong")
    assert _login(client, "bram", PASSWORD).status_code == 302
    client.post("/accounts/logout/")
    for _ in range(LIMIT - 1):
        assert _login(client, "bram", "wrong-wrong-wrong").status_code == 200


def test_the_token_endpoint_is_rate_limited_per_ip(settings):
    settings.AUTH_TOKEN_RATE = "3/minute"
    make_user("orla")
    api = api_client()
    with time_machine.travel(timezone.now(), tick=False) as clock:
        codes = [
            api.post(
                "/api/v1/auth/token/", {"username": "orla", "password": PASSWORD}, format="json"
            ).status_code
            for _ in range(4)
        ]
        assert codes == [200, 200, 200, 429]
        clock.shift(timedelta(seconds=61))
        assert (
            api.post(
                "/api/v1/auth/token/", {"username": "orla", "password": PASSWORD}, format="json"
            ).status_code
            == 200
        )


# ------------------------------------------------------------------- join codes


def test_wrong_join_codes_are_throttled_on_the_page_the_right_one_too(settings, caplog):
    settings.JOIN_CODE_FAILURE_RATE = "3/hour"
    campaign = make_campaign(name="Iron Coast")
    player = make_user("pip")
    client = Client()
    client.force_login(player)
    with time_machine.travel(timezone.now(), tick=False) as clock:
        for code in ("AAAA2222", "BBBB3333", "CCCC4444"):
            response = client.post("/campaigns/join/", {"join_code": code})
            assert response.status_code == 200
            assert "No campaign has this join code" in response.content.decode()
        with caplog.at_level(logging.WARNING, logger="characters.accounts.throttling"):
            response = client.post("/campaigns/join/", {"join_code": campaign.join_code})
        assert response.status_code == 429 and response["Retry-After"] == "3600"
        assert "Too many wrong join codes. Try again in 60 minutes." in response.content.decode()
        assert not Membership.objects.filter(user=player, campaign=campaign).exists()
        assert any("join codes throttled" in r.getMessage() for r in caplog.records)

        clock.shift(timedelta(hours=1, seconds=1))
        response = client.post("/campaigns/join/", {"join_code": campaign.join_code})
        assert response.status_code == 302
        assert Membership.objects.filter(user=player, campaign=campaign).exists()


def test_right_join_codes_cost_nothing(settings):
    settings.JOIN_CODE_FAILURE_RATE = "2/hour"
    player = make_user("pip")
    api = api_client(player)
    for i in range(4):
        campaign = make_campaign(name=f"Table {i}")
        response = api.post("/api/v1/campaigns/join/", {"join_code": campaign.join_code}, format="json")
        assert response.status_code == 200 and response.json() == {"id": campaign.pk, "role": "player"}


def test_wrong_join_codes_are_throttled_in_the_api_per_user_and_per_ip(settings):
    settings.JOIN_CODE_FAILURE_RATE = "2/hour"
    campaign = make_campaign(name="Iron Coast")
    first = api_client(make_user("pip"))
    for _ in range(2):
        assert (
            first.post("/api/v1/campaigns/join/", {"join_code": "ZZZZ9999"}, format="json").status_code == 400
        )
    refused = first.post("/api/v1/campaigns/join/", {"join_code": campaign.join_code}, format="json")
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 3500
    assert refused.json() == {"detail": "Too many wrong join codes. Try again in 60 minutes.", "errors": []}
    # Another account from the same address is refused too (per IP); from elsewhere it is not.
    same_ip = api_client(make_user("quinn"))
    assert (
        same_ip.post("/api/v1/campaigns/join/", {"join_code": campaign.join_code}, format="json").status_code
        == 429
    )
    elsewhere = api_client(make_user("rue"))
    response = elsewhere.post(
        "/api/v1/campaigns/join/",
        {"join_code": campaign.join_code},
        format="json",
        REMOTE_ADDR="198.51.100.20",
    )
    assert response.status_code == 200


# ------------------------------------------------------------------- settings


@pytest.mark.parametrize("raw, expected", [("10/minute", "10/minute"), (" 5/H ", "5/h"), ("", "7/day")])
def test_rates_are_read_through_config_env(monkeypatch, raw, expected):
    from config.env import env_rate

    monkeypatch.setenv("SF_RATE", raw)
    assert env_rate("SF_RATE", "7/day") == expected


@pytest.mark.parametrize("raw", ["ten/minute", "10/fortnight", "10", "-1/minute"])
def test_a_bad_rate_stops_start_up_with_its_name(monkeypatch, raw):
    from config.env import ImproperlyConfigured, env_rate

    monkeypatch.setenv("SF_RATE", raw)
    with pytest.raises(ImproperlyConfigured, match=f"SF_RATE={raw!r} is not a rate"):
        env_rate("SF_RATE", "7/day")


@pytest.mark.parametrize(
    "count, forwarded, expected",
    [
        (0, "203.0.113.9", "10.0.0.1"),  # no proxy trusted: the header is the client's to forge
        (1, "198.51.100.1, 203.0.113.9", "203.0.113.9"),  # the entry our proxy added
        (2, "198.51.100.1, 203.0.113.9", "198.51.100.1"),
        (1, "not-an-address", "10.0.0.1"),
        (1, "", "10.0.0.1"),
    ],
)
def test_the_client_ip_behind_trusted_proxies(settings, rf, count, forwarded, expected):
    from characters.accounts.throttling import client_ip

    settings.TRUSTED_PROXY_COUNT = count
    request = rf.get("/", REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR=forwarded)
    assert client_ip(request) == expected


def test_a_forged_forwarded_header_does_not_break_sign_in(settings, handler):
    settings.TRUSTED_PROXY_COUNT = 1
    make_user("bram")
    response = Client().post(
        "/accounts/login/",
        {"username": "bram", "password": "wrong-wrong"},
        HTTP_X_FORWARDED_FOR="<script>, \x7f",
    )
    assert response.status_code == 200
