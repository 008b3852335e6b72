"""Play-state changes are operations, not overwrites (issue #19): the sheet's −/+ are steps
applied to the pool's value when they arrive, under the character's row lock, whoever sends them;
an absolute value (the pool's number box, the API's whole state) carries the version it was based
on and is refused with the value now when it is stale. Every click counts."""

from __future__ import annotations

import copy
import re
import threading

import pytest
from django.db import connection
from django.urls import reverse

from characters.advancement import services as advancement_svc
from characters.models import Character
from characters.sheet import services as play
from characters.versions import character_version_write
from combat import services as combat
from config.errors import Conflict
from rulesets.engine.dice import FixedRoller
from tests.characters.sheet.test_sheet_fixtures import BUILDS, character_at_table
from tests.factories import api_client

HX = {"HTTP_HX_REQUEST": "true"}
STATE_URL = "character_state_action"


def _hp(character) -> int:
    return Character.objects.get(pk=character.pk).state["hp"]


def _step(character, user, delta=-1, path="/hp"):
    return play.character_state_action(
        character_id=character.pk, user=user, action={"action": "step", "path": path, "delta": delta}
    )


@pytest.mark.django_db
def test_a_step_from_a_page_drawn_before_the_gm_s_change_lowers_the_value_now(client, table):
    character = character_at_table(table, "ourdnd")  # HP 10 / 10
    client.force_login(table["player"])
    page = client.get(reverse("character_sheet", args=[character.pk])).content.decode()
    pool = page[page.index('id="pool-health-hp"') :]
    lower = re.search(r"<form[^>]*>\s*<input[^>]*csrfmiddlewaretoken[^>]*>(.*?)</form>", pool, re.S)
    fields = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)">', lower.group(1)))
    assert fields == {"action": "step", "path": "/hp", "delta": "-1"}
    # The GM spends 3 HP meanwhile (another device); then the player's stale page presses −.
    play.character_state_action(
        character_id=character.pk, user=table["gm"], action={"action": "damage", "amount": 3}
    )
    client.post(reverse(STATE_URL, args=[character.pk]), fields, **HX)
    assert _hp(character) == 6  # 10 − 3 − 1: neither is lost


@pytest.mark.django_db
def test_two_devices_lowering_one_pool_lower_it_twice(table):
    character = character_at_table(table, "ourdnd")
    _step(character, table["player"])
    _step(character, table["gm"])
    assert _hp(character) == 8


@pytest.mark.django_db
def test_a_step_past_the_pool_s_limit_is_refused_and_changes_nothing(table):
    character = character_at_table(table, "ourdnd")  # at its maximum
    from config.errors import RuleRefused

    with pytest.raises(RuleRefused):
        _step(character, table["player"], delta=+1)
    with pytest.raises(RuleRefused):
        _step(character, table["player"], delta=0)
    assert _hp(character) == 10


@pytest.mark.django_db
@pytest.mark.parametrize("slug", ["pando", "paragon", "ascendant", "ourdnd", "maelstrom"])
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
    character = character_at_table(table, "ourdnd")
    drawn = character.version
    play.character_state_action(
        character_id=character.pk, user=table["gm"], action={"action": "damage", "amount": 2}
    )
    with pytest.raises(Conflict) as exc:
        play.character_state_action(
            character_id=character.pk,
            user=table["player"],
            action={"action": "set", "path": "/hp", "value": 9},
            version=drawn,
        )
    assert "HP is now 8" in exc.value.message
    assert _hp(character) == 8
    # Through the page: the refusal is shown, with the value now, and nothing changes.
    client.force_login(table["player"])
    html = client.post(
        reverse(STATE_URL, args=[character.pk]),
        {"action": "set", "path": "/hp", "value": "9", "version": str(drawn)},
        **HX,
    ).content.decode()
    error = re.search(r'data-testid="state-error">([^<]*)<', html).group(1)
    assert "HP is now 8" in error and "Nothing was changed" in error
    assert _hp(character) == 8
    # The same set from a page at the current version is applied.
    now = Character.objects.get(pk=character.pk).version
    play.character_state_action(
        character_id=character.pk,
        user=table["player"],
        action={"action": "set", "path": "/hp", "value": 9},
        version=now,
    )
    assert _hp(character) == 9


@pytest.mark.django_db
def test_the_number_box_sends_the_version_the_page_shows(client, table):
    character = character_at_table(table, "ourdnd")
    client.force_login(table["player"])
    page = client.get(reverse("character_sheet", args=[character.pk])).content.decode()
    box = re.search(r'name="action" value="set"><input type="hidden" name="version" value="(\d+)">', page)
    assert box and int(box.group(1)) == character.version


@pytest.mark.django_db
def test_the_api_patch_with_a_stale_version_is_409_and_changes_nothing(table):
    character = character_at_table(table, "ourdnd")
    api = api_client(table["player"])
    url = f"/api/v1/characters/{character.pk}/"
    _step(character, table["gm"])  # the GM moved on since the client read it
    stale = api.patch(
        url, {"version": character.version, "state": {**character.state, "hp": 3}}, format="json"
    )
    assert stale.status_code == 409 and _hp(character) == 9
    fresh = api.get(url).json()
    ok = api.patch(url, {"version": fresh["version"], "state": {**fresh["state"], "hp": 3}}, format="json")
    assert ok.status_code == 200 and _hp(character) == 3


@pytest.mark.django_db
def test_encounter_damage_then_a_step_on_the_sheet_count_both(table):
    character = character_at_table(table, "ourdnd")
    e = combat.encounter_create(campaign=character.campaign, user=table["gm"], name="Ford")
    fighter = combat.encounter_add_combatant(encounter=e, user=table["gm"], character=character)[0]
    combat.encounter_start(encounter=e, user=table["gm"], roller=FixedRoller([15]))
    combat.encounter_act(
        encounter=e, user=table["gm"], combatant_id=fighter.pk, action={"action": "gm_damage", "amount": 2}
    )
    assert _hp(character) == 8
    _step(character, table["player"])
    assert _hp(character) == 7


@pytest.mark.django_db
def test_a_writer_that_read_the_character_before_another_change_gets_a_conflict_not_an_overwrite(table):
    character = character_at_table(table, "ourdnd")
    stale = Character.objects.get(pk=character.pk)  # read without a lock (as an encounter reads it)
    _step(character, table["player"])
    stale.state = {**stale.state, "hp": 1}
    with pytest.raises(Conflict):
        character_version_write(character=stale, author=table["gm"], reason="late", fields=["state"])
    assert _hp(character) == 9


@pytest.mark.django_db
def test_a_request_made_during_a_session_of_play_is_still_approvable_after_more_play(table):
    character = character_at_table(table, "pando")
    gm, player = table["gm"], table["player"]
    advancement_svc.award_create(gm=gm, character_id=character.pk, currency="cp", amount=6, reason="arc")
    play.character_state_action(
        character_id=character.pk, user=player, action={"action": "harm", "body_part": "legs", "amount": 1}
    )
    build = copy.deepcopy(BUILDS["pando"])
    build["attributes"]["strength"] = 3
    request = advancement_svc.advancement_request(character_id=character.pk, user=player, build=build)
    # More play in the same session: the play version the request was priced against is taken in.
    play.character_state_action(
        character_id=character.pk, user=gm, action={"action": "harm", "body_part": "legs", "amount": 1}
    )
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
    character = character_at_table(table, "paragon")  # Dynama 30 / 30
    path = "/pools/dynama"
    start = character.state["pools"]["dynama"]
    assert start == 30
    users = [table["player"], table["gm"]] * 10
    errors = _parallel([lambda u=u: _step(character, u, path=path) for u in users])
    assert errors == []
    character.refresh_from_db()
    assert character.state["pools"]["dynama"] == start - 20
    assert character.version == 2 + 20  # created, submitted, then one version per lowering
