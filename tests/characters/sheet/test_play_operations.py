"""Play-state changes are operations, not overwrites (issue #19): the sheet's −/+ are steps
applied to the pool's value when they arrive, under the character's row lock, whoever sends them;
an absolute value (the pool's number box, the API's whole state) carries the version it was based
on and is refused with the value now when it is stale. Every click counts."""

from __future__ import annotations

import copy
import re
import threading
from html import unescape as html_unescape

import pytest
from django.db import connection
from django.urls import reverse

from characters.advancement import services as advancement_svc
from characters.models import Character
from characters.sheet import services as play
from characters.versions import character_version_write
from config.errors import Conflict
from rulesets.engine import registry
from rulesets.engine.pointer import resolve, set_at
from tests import vehicles
from tests.characters.sheet.test_sheet_fixtures import character_at_table
from tests.factories import api_client

HX = {"HTTP_HX_REQUEST": "true"}
STATE_URL = "character_state_action"


def _full(ruleset) -> dict | None:
    """The sheet character's first pool that is full and holds at least 4 (its steppers' test)."""
    return next((p for p in vehicles.pools(ruleset) if p["value"] == p["max"] >= 4), None)


#: The registry's first ruleset with such a pool, and the pool: HP 10 / 10, say.
SLUG = vehicles.first(_full, "a ruleset with a full pool of 4 or more")
POOL = _full(registry.get(SLUG))
HP, TOP, LABEL = POOL["path"], POOL["max"], POOL["label"]


def _hp(character, path=None) -> int:
    return resolve(Character.objects.get(pk=character.pk).state, path or HP)


def _with_hp(state: dict, value: int) -> dict:
    state = copy.deepcopy(state)
    set_at(state, HP, value)
    return state


def _step(character, user, delta=-1, path=None):
    path = path or HP
    return play.character_state_action(
        character_id=character.pk, user=user, action={"action": "step", "path": path, "delta": delta}
    )


@pytest.mark.django_db
def test_a_step_from_a_page_drawn_before_the_gm_s_change_lowers_the_value_now(client, table):
    character = character_at_table(table, SLUG)  # HP 10 / 10
    client.force_login(table["player"])
    page = client.get(reverse("character_sheet", args=[character.pk])).content.decode()
    forms = re.findall(r"<form[^>]*>\s*<input[^>]*csrfmiddlewaretoken[^>]*>(.*?)</form>", page, re.S)
    steppers = [dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)">', f)) for f in forms]
    fields = next(f for f in steppers if f.get("path") == HP and f.get("delta") == "-1")  # the pool's −
    assert fields == {"action": "step", "path": HP, "delta": "-1"}
    # The GM spends 3 HP meanwhile (another device); then the player's stale page presses −.
    _step(character, table["gm"], delta=-3)
    client.post(reverse(STATE_URL, args=[character.pk]), fields, **HX)
    assert _hp(character) == TOP - 3 - 1  # neither is lost


@pytest.mark.django_db
def test_two_devices_lowering_one_pool_lower_it_twice(table):
    character = character_at_table(table, SLUG)
    _step(character, table["player"])
    _step(character, table["gm"])
    assert _hp(character) == TOP - 2


@pytest.mark.django_db
def test_a_step_past_the_pool_s_limit_is_refused_and_changes_nothing(table):
    character = character_at_table(table, SLUG)  # at its maximum
    from config.errors import RuleRefused

    with pytest.raises(RuleRefused):
        _step(character, table["player"], delta=+1)
    with pytest.raises(RuleRefused):
        _step(character, table["player"], delta=0)
    assert _hp(character) == TOP


@pytest.mark.django_db
@pytest.mark.parametrize("slug", vehicles.every(vehicles.pools))
def test_every_ruleset_s_pool_steppers_lower_the_pool_by_one(client, table, slug):
    character = character_at_table(table, slug)
    client.force_login(table["player"])
    page = client.get(reverse("character_sheet", args=[character.pk])).content.decode()
    found = re.search(
        r'name="action" value="step"><input type="hidden" name="path" value="([^"]+)">\s*'
        r'<input type="hidden" name="delta" value="-1">\s*<button[^>]*?(disabled)?>−',
        page,
    )
    assert found, "a pool with steppers"
    path = found.group(1)
    from rulesets.engine.pointer import resolve

    assert not found.group(2)
    before = resolve(character.state, path)
    response = client.post(
        reverse(STATE_URL, args=[character.pk]), {"action": "step", "path": path, "delta": "-1"}, **HX
    )
    assert 'data-testid="state-error"' not in response.content.decode()
    character.refresh_from_db()
    assert resolve(character.state, path) == before - 1


@pytest.mark.django_db
def test_a_stale_absolute_set_is_refused_with_the_value_now_and_changes_nothing(client, table):
    character = character_at_table(table, SLUG)
    drawn = character.version
    _step(character, table["gm"], delta=-2)
    with pytest.raises(Conflict) as exc:
        play.character_state_action(
            character_id=character.pk,
            user=table["player"],
            action={"action": "set", "path": HP, "value": TOP - 1},
            version=drawn,
        )
    assert f"{LABEL} is now {TOP - 2}" in exc.value.message
    assert _hp(character) == TOP - 2
    # Through the page: the refusal is shown, with the value now, and nothing changes.
    client.force_login(table["player"])
    html = client.post(
        reverse(STATE_URL, args=[character.pk]),
        {"action": "set", "path": HP, "value": str(TOP - 1), "version": str(drawn)},
        **HX,
    ).content.decode()
    error = html_unescape(re.search(r'data-testid="state-error">([^<]*)<', html).group(1))
    assert f"{LABEL} is now {TOP - 2}" in error and "Nothing was changed" in error
    assert _hp(character) == TOP - 2
    # The same set from a page at the current version is applied.
    now = Character.objects.get(pk=character.pk).version
    play.character_state_action(
        character_id=character.pk,
        user=table["player"],
        action={"action": "set", "path": HP, "value": TOP - 1},
        version=now,
    )
    assert _hp(character) == TOP - 1


@pytest.mark.django_db
def test_the_number_box_sends_the_version_the_page_shows(client, table):
    character = character_at_table(table, SLUG)
    client.force_login(table["player"])
    page = client.get(reverse("character_sheet", args=[character.pk])).content.decode()
    box = re.search(r'name="action" value="set"><input type="hidden" name="version" value="(\d+)">', page)
    assert box and int(box.group(1)) == character.version


@pytest.mark.django_db
def test_the_api_patch_with_a_stale_version_is_409_and_changes_nothing(table):
    character = character_at_table(table, SLUG)
    api = api_client(table["player"])
    url = f"/api/v1/characters/{character.pk}/"
    _step(character, table["gm"])  # the GM moved on since the client read it
    stale = api.patch(
        url, {"version": character.version, "state": _with_hp(character.state, 3)}, format="json"
    )
    assert stale.status_code == 409 and _hp(character) == TOP - 1
    fresh = api.get(url).json()
    ok = api.patch(url, {"version": fresh["version"], "state": _with_hp(fresh["state"], 3)}, format="json")
    assert ok.status_code == 200 and _hp(character) == 3


@pytest.mark.django_db
def test_a_writer_that_read_the_character_before_another_change_gets_a_conflict_not_an_overwrite(table):
    character = character_at_table(table, SLUG)
    stale = Character.objects.get(pk=character.pk)  # read without a lock (as an encounter reads it)
    _step(character, table["player"])
    stale.state = _with_hp(stale.state, 1)
    with pytest.raises(Conflict):
        character_version_write(character=stale, author=table["gm"], reason="late", fields=["state"])
    assert _hp(character) == TOP - 1


@pytest.mark.django_db
def test_a_request_made_during_a_session_of_play_is_still_approvable_after_more_play(table):
    slug = vehicles.first(
        lambda rs: vehicles.advance(rs) and rs.contract_data()["play_actions"],
        "a ruleset that plays and advances",
    )
    ruleset = registry.get(slug)
    wanted = vehicles.advance(ruleset)
    character = character_at_table(table, slug)
    gm, player = table["gm"], table["player"]
    advancement_svc.award_create(
        gm=gm, character_id=character.pk, currency=wanted.currency, amount=wanted.cost, reason="arc"
    )
    play.character_state_action(character_id=character.pk, user=player, action=vehicles.play_action(ruleset))
    request = advancement_svc.advancement_request(character_id=character.pk, user=player, build=wanted.build)
    # More play in the same session: the play version the request was priced against is taken in.
    play.character_state_action(character_id=character.pk, user=gm, action=vehicles.play_action(ruleset))
    assert advancement_svc.advancement_approve(advancement_id=request.pk, gm=gm).status == "approved"


def _parallel(calls):
    barrier = threading.Barrier(len(calls))
    errors: list = []

    def run(call):
        try:
            barrier.wait(timeout=10)
            call()
        except Exception as exc:  # noqa: BLE001 — reported by the assertion
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(c,)) for c in calls]
    for th in threads:
        th.start()
    for th in threads:
        th.join(timeout=60)
    return errors


@pytest.mark.skipif(connection.vendor == "sqlite", reason="needs Postgres row locks")
@pytest.mark.django_db(transaction=True)
def test_twenty_parallel_lowerings_from_two_users_lower_the_pool_by_exactly_twenty(table):
    slug = vehicles.first(
        lambda rs: any(p["value"] >= 20 for p in vehicles.pools(rs)), "a ruleset with a pool of 20 or more"
    )
    character = character_at_table(table, slug)  # Dynama 30 / 30, say
    pool = next(p for p in vehicles.pools(registry.get(slug)) if p["value"] >= 20)
    path = pool["path"]
    start = resolve(character.state, path)
    assert start == pool["value"] >= 20
    users = [table["player"], table["gm"]] * 10
    errors = _parallel([lambda u=u: _step(character, u, path=path) for u in users])
    assert errors == []
    character.refresh_from_db()
    assert resolve(character.state, path) == start - 20
    assert character.version == 2 + 20  # created, submitted, then one version per lowering
