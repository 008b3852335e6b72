"""The table's feed to Discord and webhooks (issue #37, CONTRACT.md "A campaign's months"), against a
local receiver (tests/characters/webhooks/receiver.py): the GM sets hooks up (API and the campaign
page), each roll is written to the outbox in its own transaction and sent by the worker, signed;
GM-private rolls only to private hooks; a failing endpoint backs off (1, 5, 30 minutes, then
failed), a 429 waits what it asks; a slow one times out; a redirect is not followed; an address
that resolves to loopback is refused when set and at delivery unless WEBHOOKS_ALLOW_PRIVATE."""

from __future__ import annotations

import hashlib
import hmac
import json
import time
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone

from characters.campaigns import services as campaign_services
from characters.models import RollLog, Webhook, WebhookDelivery
from characters.webhooks import delivery as worker
from rulesets.engine import registry
from tests import vehicles
from tests.characters.sheet.test_sheet_fixtures import character_at_table
from tests.characters.webhooks import receiver as receivers
from tests.factories import api_client

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}
ROLL_SLUG = vehicles.first(lambda rs: vehicles.rollable(rs) is not None, "a ruleset with a roll")
JSON_KEYS = {"campaign", "character", "roll", "result", "odds", "at"}


@pytest.fixture
def receiver():
    r = receivers.start()
    yield r
    r.server.shutdown()
    r.server.server_close()


@pytest.fixture
def private_allowed(settings):
    settings.WEBHOOKS_ALLOW_PRIVATE = True
    return settings


def _hooks_url(campaign_id) -> str:
    return f"/api/v1/campaigns/{campaign_id}/webhooks/"


def _add(user, campaign_id, url, fmt="json", private=False):
    return api_client(user).post(
        _hooks_url(campaign_id), {"url": url, "format": fmt, "private": private}, format="json"
    )


def _roll(user, character, private=False):
    answer = api_client(user).post(
        f"/api/v1/characters/{character.pk}/rolls/",
        {"rollable": vehicles.rollable(registry.get(character.ruleset)), "private": private},
        format="json",
    )
    assert answer.status_code == 201, answer.json()
    return answer.json()


def _due_now():
    """Bring every waiting delivery's time forward (the backoff's minutes, the 429's wait, passed)."""
    WebhookDelivery.objects.filter(status="retrying").update(next_at=timezone.now() - timedelta(seconds=1))


def _send():
    return worker.run_once(threads=1)


def _verify(secret: str, heard) -> bool:
    timestamp = heard.headers["x-sheetforge-timestamp"]
    expected = hmac.new(secret.encode(), timestamp.encode() + b"." + heard.body, hashlib.sha256).hexdigest()
    return hmac.compare_digest(heard.headers["x-sheetforge-signature"], f"sha256={expected}")


# ------------------------------------------------------------------ set up (API)


def test_the_gm_adds_a_hook_and_sees_its_secret_once(table, receiver, private_allowed):
    character = character_at_table(table, ROLL_SLUG)
    created = _add(table["gm"], character.campaign_id, f"{receiver.url}/hook")
    assert created.status_code == 201, created.json()
    body = created.json()
    assert set(body) >= {"id", "url", "format", "private", "secret"} and len(body["secret"]) >= 32
    assert (body["format"], body["private"]) == ("json", False)
    listed = api_client(table["gm"]).get(_hooks_url(character.campaign_id)).json()
    assert [h["id"] for h in listed] == [body["id"]] and "secret" not in listed[0]
    rotated = api_client(table["gm"]).post(f"{_hooks_url(character.campaign_id)}{body['id']}/rotate/")
    assert rotated.status_code == 200 and rotated.json()["secret"] not in ("", body["secret"])
    assert Webhook.objects.get(pk=body["id"]).secret == rotated.json()["secret"]


def test_only_the_gm_sets_up_hooks(table, receiver, private_allowed):
    character = character_at_table(table, ROLL_SLUG)
    campaign_id = character.campaign_id
    hook = _add(table["gm"], campaign_id, f"{receiver.url}/hook").json()
    for user, code in ((table["player"], 403), (table["other"], 403), (table["stranger"], 404)):
        assert _add(user, campaign_id, f"{receiver.url}/x").status_code == code
        assert api_client(user).get(_hooks_url(campaign_id)).status_code == code
        assert api_client(user).post(f"{_hooks_url(campaign_id)}{hook['id']}/rotate/").status_code == code
        assert api_client(user).delete(f"{_hooks_url(campaign_id)}{hook['id']}/").status_code == code
        assert api_client(user).get(f"{_hooks_url(campaign_id)}{hook['id']}/deliveries/").status_code == code
    campaign_services.campaign_remove_player(
        gm=table["gm"], campaign=character.campaign, user=table["player"]
    )
    assert api_client(table["player"]).get(_hooks_url(campaign_id)).status_code == 404
    assert Webhook.objects.filter(campaign_id=campaign_id).count() == 1
    assert api_client(table["gm"]).delete(f"{_hooks_url(campaign_id)}{hook['id']}/").status_code == 204
    assert not Webhook.objects.filter(campaign_id=campaign_id).exists()


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1:8181/hook",
        "http://localhost:8181/hook",
        "http://[::1]:8181/hook",
        "http://10.0.0.7/hook",
        "http://192.168.1.2/hook",
        "http://169.254.169.254/latest/meta-data/",
        "http://0.0.0.0/",
    ],
)
def test_an_address_on_a_private_network_is_refused_when_set(table, url, settings):
    settings.WEBHOOKS_ALLOW_PRIVATE = False
    character = character_at_table(table, ROLL_SLUG)
    answer = _add(table["gm"], character.campaign_id, url)
    assert answer.status_code == 400
    assert "private, loopback or link-local" in answer.json()["detail"]
    assert answer.json()["errors"][0]["field"] == "url"
    assert not Webhook.objects.exists()


@pytest.mark.parametrize("url", ["ftp://example.org/x", "not a url", "https://", "http://ex ample.org/"])
def test_an_address_that_is_no_web_address_is_refused(table, url, private_allowed):
    character = character_at_table(table, ROLL_SLUG)
    answer = _add(table["gm"], character.campaign_id, url)
    assert answer.status_code == 400 and answer.json()["detail"]
    assert not Webhook.objects.exists()


# ------------------------------------------------------------------ the outbox and the worker


def test_a_roll_writes_the_outbox_in_its_transaction_and_the_worker_signs_what_it_sends(
    table, receiver, private_allowed
):
    character = character_at_table(table, ROLL_SLUG)
    hook = _add(table["gm"], character.campaign_id, f"{receiver.url}/hook?x=1").json()
    roll = _roll(table["player"], character)
    [row] = WebhookDelivery.objects.all()
    assert (row.roll_id, row.webhook_id, row.status, row.attempts) == (roll["id"], hook["id"], "retrying", 0)
    assert receiver.heard == []  # nothing is sent while the roll is made
    assert _send() == 1
    [heard] = receiver.heard
    assert heard.path == "/hook?x=1"
    assert heard.headers["x-sheetforge-delivery"] == str(row.pk)
    assert abs(int(heard.headers["x-sheetforge-timestamp"]) - time.time()) < 60
    assert _verify(hook["secret"], heard)
    data = json.loads(heard.body)
    assert set(data) == JSON_KEYS
    assert data["character"] == {"id": character.pk, "name": character.name}
    assert data["roll"]["id"] == roll["id"] and data["roll"]["by"] == table["player"].username
    assert data["odds"] == roll["odds"] and data["result"] == roll["result"]
    row.refresh_from_db()
    assert (row.status, row.attempts, row.response_code, row.next_at) == ("delivered", 1, 200, None)
    assert _send() == 0  # delivered once


def test_a_refused_roll_writes_nothing(table, receiver, private_allowed):
    character = character_at_table(table, ROLL_SLUG)
    _add(table["gm"], character.campaign_id, f"{receiver.url}/hook")
    answer = api_client(table["player"]).post(
        f"/api/v1/characters/{character.pk}/rolls/", {"rollable": "no-such-roll"}, format="json"
    )
    assert answer.status_code == 422
    assert not WebhookDelivery.objects.exists()


def test_gm_private_rolls_go_only_to_private_hooks(table, receiver, private_allowed):
    character = character_at_table(table, ROLL_SLUG)
    public = _add(table["gm"], character.campaign_id, f"{receiver.url}/public").json()
    private = _add(table["gm"], character.campaign_id, f"{receiver.url}/private", private=True).json()
    secret = _roll(table["gm"], character, private=True)
    shared = _roll(table["player"], character)
    sent = {(d.webhook_id, d.roll_id) for d in WebhookDelivery.objects.all()}
    assert sent == {
        (private["id"], secret["id"]),
        (private["id"], shared["id"]),
        (public["id"], shared["id"]),
    }
    _send()
    paths = sorted((h.path, json.loads(h.body)["roll"]["id"]) for h in receiver.heard)
    assert paths == sorted(
        [("/private", secret["id"]), ("/private", shared["id"]), ("/public", shared["id"])]
    )
    assert (
        next(json.loads(h.body) for h in receiver.heard if json.loads(h.body)["roll"]["private"])["roll"][
            "id"
        ]
        == secret["id"]
    )


def test_discord_gets_its_own_message_format_without_mentions(table, receiver, private_allowed):
    character = character_at_table(table, ROLL_SLUG)
    _add(table["gm"], character.campaign_id, f"{receiver.url}/api/webhooks/1/abc", fmt="discord")
    roll = _roll(table["player"], character)
    _send()
    data = json.loads(receiver.heard[0].body)
    assert set(data) == {"content", "embeds", "allowed_mentions"}
    assert data["allowed_mentions"] == {"parse": []}
    assert f"**{table['player'].username}** rolled **" in data["content"]
    assert character.name in data["content"] and roll["label"] in data["embeds"][0]["title"]
    assert {f["name"] for f in data["embeds"][0]["fields"]} <= {"Result", "Chance", "Odds"}
    assert data["embeds"][0]["fields"] and all(f["value"] for f in data["embeds"][0]["fields"])


def test_a_failing_endpoint_backs_off_1_5_30_minutes_then_fails(table, receiver, private_allowed):
    character = character_at_table(table, ROLL_SLUG)
    _add(table["gm"], character.campaign_id, f"{receiver.url}/hook")
    _roll(table["player"], character)
    receiver.answer(500)
    waits = []
    for _ in range(4):
        before = timezone.now()
        assert _send() == 1
        row = WebhookDelivery.objects.get()
        waits.append(round((row.next_at - before).total_seconds() / 60) if row.next_at else None)
        _due_now()
    assert waits == [1, 5, 30, None]
    assert (row.status, row.attempts, row.failures, row.response_code) == ("failed", 4, 4, 500)
    assert "500" in row.error
    assert len(receiver.heard) == 4
    assert _send() == 0


def test_a_429_waits_what_it_asks_and_holds_the_hook_s_other_deliveries(table, receiver, private_allowed):
    character = character_at_table(table, ROLL_SLUG)
    _add(table["gm"], character.campaign_id, f"{receiver.url}/hook")
    first, second = _roll(table["player"], character), _roll(table["player"], character)
    receiver.answer(429, {"Retry-After": "7"})
    before = timezone.now()
    worker.record(
        WebhookDelivery.objects.get(roll_id=first["id"]),
        worker.send(WebhookDelivery.objects.select_related("webhook", "roll").get(roll_id=first["id"])),
    )
    one, two = (
        WebhookDelivery.objects.get(roll_id=first["id"]),
        WebhookDelivery.objects.get(roll_id=second["id"]),
    )
    assert (one.status, one.failures, one.response_code) == ("retrying", 0, 429)
    assert 6 <= (one.next_at - before).total_seconds() <= 9
    assert two.next_at >= one.next_at  # the hook's other delivery waits too
    assert _send() == 0  # nothing is due before the wait is over
    # Discord says it in its body.
    _due_now()
    receiver.answer(
        429,
        {"Content-Type": "application/json"},
        b'{"message": "You are being rate limited.", "retry_after": 2.5}',
    )
    before = timezone.now()
    assert _send() == 2
    one.refresh_from_db()
    assert 1.5 <= (one.next_at - before).total_seconds() <= 4 and one.failures == 0
    _due_now()
    receiver.answer(204)
    assert _send() == 2
    assert set(WebhookDelivery.objects.values_list("status", flat=True)) == {"delivered"}


def test_a_slow_endpoint_times_out_and_a_redirect_is_not_followed(
    table, receiver, private_allowed, monkeypatch
):
    monkeypatch.setattr(worker, "TIMEOUT", 0.5)
    character = character_at_table(table, ROLL_SLUG)
    _add(table["gm"], character.campaign_id, f"{receiver.url}/hook")
    _roll(table["player"], character)
    receiver.answer(200, delay=3)
    started = time.monotonic()
    _send()
    assert time.monotonic() - started < 2.5
    row = WebhookDelivery.objects.get()
    assert (row.status, row.failures, row.response_code) == ("retrying", 1, None)
    assert "did not answer within 0.5 seconds" in row.error
    _due_now()
    receiver.answer(302, {"Location": f"{receiver.url}/elsewhere"})
    _send()
    row.refresh_from_db()
    assert row.status == "retrying" and row.response_code == 302 and "not followed" in row.error
    assert [h.path for h in receiver.heard] == ["/hook", "/hook"]  # /elsewhere never called


@pytest.mark.django_db(transaction=True)
def test_a_slow_hook_does_not_hold_up_another(table, receiver, private_allowed, monkeypatch):
    """The batch sends in threads: the slow hook's deliveries take a thread each for at most TIMEOUT,
    the other hook's go out meanwhile; a batch takes at most PER_HOOK of one hook; a claimed
    delivery is leased, so a second worker does not take it."""
    monkeypatch.setattr(worker, "TIMEOUT", 0.5)
    character = character_at_table(table, ROLL_SLUG)
    _add(table["gm"], character.campaign_id, f"{receiver.url}/slow")
    _add(table["gm"], character.campaign_id, f"{receiver.url}/fast")
    for _ in range(worker.PER_HOOK + 2):
        _roll(table["player"], character)
    receiver.answer(200, delay=2)  # every answer is slow; the fast hook's are cut short as well
    claimed = worker.claim()
    per_hook = {}
    for row in WebhookDelivery.objects.filter(pk__in=claimed):
        per_hook[row.webhook.url] = per_hook.get(row.webhook.url, 0) + 1
    assert sorted(per_hook.values()) == [worker.PER_HOOK, worker.PER_HOOK]
    again = worker.claim()  # a second worker: the 2 + 2 left, none of those leased
    assert len(again) == 4 and not set(again) & set(claimed)
    _due_now()
    started = time.monotonic()
    assert worker.run_once(threads=worker.THREADS) == 2 * worker.PER_HOOK
    elapsed = time.monotonic() - started
    print(f"\n{2 * worker.PER_HOOK} deliveries to 2-second endpoints, cut at 0.5 s: {elapsed:.2f} s")
    # 10 deliveries, 4 threads, each cut at 0.5 s: about 1.5 s, never 10 × 2 s.
    assert elapsed < 6, elapsed
    assert WebhookDelivery.objects.filter(failures=1).count() == 2 * worker.PER_HOOK


def test_an_address_that_resolves_to_loopback_is_refused_at_delivery(table, receiver, settings):
    settings.WEBHOOKS_ALLOW_PRIVATE = True
    character = character_at_table(table, ROLL_SLUG)
    _add(table["gm"], character.campaign_id, f"http://localhost:{receiver.server.server_address[1]}/hook")
    _roll(table["player"], character)
    settings.WEBHOOKS_ALLOW_PRIVATE = False
    _send()
    row = WebhookDelivery.objects.get()
    assert (row.status, row.attempts) == ("failed", 1)
    assert "private, loopback or link-local" in row.error
    assert receiver.heard == []


def test_the_deliveries_are_listed_for_the_gm(table, receiver, private_allowed):
    character = character_at_table(table, ROLL_SLUG)
    hook = _add(table["gm"], character.campaign_id, f"{receiver.url}/hook").json()
    first = _roll(table["player"], character)
    _send()
    second = _roll(table["player"], character)
    url = f"{_hooks_url(character.campaign_id)}{hook['id']}/deliveries/"
    rows = api_client(table["gm"]).get(url).json()
    assert [(r["roll"], r["status"], r["attempts"], r["response_code"]) for r in rows] == [
        (second["id"], "retrying", 0, None),
        (first["id"], "delivered", 1, 200),
    ]
    assert rows[0]["id"] == WebhookDelivery.objects.get(roll_id=second["id"]).pk
    assert set(rows[0]) >= {"id", "roll", "at", "status", "attempts", "next_at", "response_code"}


def test_the_rotated_secret_signs_the_next_delivery(table, receiver, private_allowed):
    character = character_at_table(table, ROLL_SLUG)
    hook = _add(table["gm"], character.campaign_id, f"{receiver.url}/hook").json()
    new = (
        api_client(table["gm"])
        .post(f"{_hooks_url(character.campaign_id)}{hook['id']}/rotate/")
        .json()["secret"]
    )
    _roll(table["player"], character)
    _send()
    assert _verify(new, receiver.heard[0]) and not _verify(hook["secret"], receiver.heard[0])


def test_the_worker_command_sends_once(table, receiver, private_allowed, capsys):
    character = character_at_table(table, ROLL_SLUG)
    _add(table["gm"], character.campaign_id, f"{receiver.url}/hook")
    _roll(table["player"], character)
    call_command("deliver_webhooks", "--once", "--threads", "1")
    assert "1 sent" in capsys.readouterr().out
    assert WebhookDelivery.objects.get().status == "delivered" and len(receiver.heard) == 1


def test_a_fight_s_rolls_and_notes(table, receiver, private_allowed):
    """A table note (no dice) goes nowhere."""
    from characters.table.feed import roll_logged, table_note

    character = character_at_table(table, ROLL_SLUG)
    _add(table["gm"], character.campaign_id, f"{receiver.url}/hook")
    note = table_note(campaign_id=character.campaign_id, user=table["gm"], text="The torch gutters.")
    note.save()
    roll_logged(note)
    assert not WebhookDelivery.objects.exists()
    assert RollLog.objects.filter(pk=note.pk).exists()


# ------------------------------------------------------------------ the campaign page


def test_the_gm_sets_a_hook_up_on_the_campaign_page_in_words(client, table, receiver, private_allowed):
    character = character_at_table(table, ROLL_SLUG)
    campaign_id = character.campaign_id
    client.force_login(table["gm"])
    page = client.get(reverse("campaign_detail", args=[campaign_id])).content.decode()
    assert (
        'id="webhook-form"' in page
        and "A Discord channel" in page
        and "{" not in page.split('id="webhooks"')[1].split("</section>")[0]
    )
    added = client.post(
        reverse("campaign_webhook_add", args=[campaign_id]),
        {"url": f"{receiver.url}/hook", "format": "json", "private": "true"},
        **HX,
    )
    assert added.status_code == 200
    hook = Webhook.objects.get()
    html = added.content.decode()
    assert hook.secret in html and "Signed JSON for your own tool" in html and "your private ones too" in html
    again = client.get(reverse("campaign_detail", args=[campaign_id])).content.decode()
    assert hook.secret not in again  # shown once
    rotated = client.post(
        reverse("campaign_webhook_rotate", args=[campaign_id, hook.pk]), **HX
    ).content.decode()
    hook.refresh_from_db()
    assert hook.secret in rotated
    _roll(table["player"], character)
    _send()
    deliveries = client.get(reverse("campaign_webhook", args=[campaign_id, hook.pk])).content.decode()
    assert "Delivered" in deliveries and character.name in deliveries
    client.post(reverse("campaign_webhook_remove", args=[campaign_id, hook.pk]), **HX)
    assert not Webhook.objects.exists()


def test_the_page_refuses_a_private_address_in_words(client, table, settings):
    settings.WEBHOOKS_ALLOW_PRIVATE = False
    character = character_at_table(table, ROLL_SLUG)
    client.force_login(table["gm"])
    answer = client.post(
        reverse("campaign_webhook_add", args=[character.campaign_id]),
        {"url": "http://127.0.0.1:8181/hook", "format": "discord"},
        **HX,
    )
    assert answer.status_code == 400
    assert "private, loopback or link-local" in answer.content.decode()
    assert not Webhook.objects.exists()


def test_players_see_no_webhooks_and_may_not_post(client, table, receiver, private_allowed):
    character = character_at_table(table, ROLL_SLUG)
    client.force_login(table["player"])
    page = client.get(reverse("campaign_detail", args=[character.campaign_id])).content.decode()
    assert 'id="webhooks"' not in page
    url = reverse("campaign_webhook_add", args=[character.campaign_id])
    assert client.post(url, {"url": f"{receiver.url}/x", "format": "json"}).status_code == 403
    client.force_login(table["stranger"])
    assert client.post(url, {"url": f"{receiver.url}/x", "format": "json"}).status_code == 404
    assert not Webhook.objects.exists()
