"""Play state on the sheet: actions change the state and the numbers shown, refusals change nothing,
the API's whole-state replace and who may do what, on the registry's rulesets (the actions, pools
and rolls each ruleset's own, tests/vehicles.py). One game's play state and loadout:
tests/rulesets/<slug>/test_*_sheet_play.py."""

from __future__ import annotations

import copy
import re

import pytest
from django.urls import reverse

from characters.models import Character, CharacterVersion, RollLog
from characters.sheet import services as play
from config.api import Conflict, RuleRefused
from rulesets.engine import registry
from rulesets.engine.pointer import resolve, set_at
from tests import vehicles
from tests.characters.sheet.test_sheet_fixtures import character_at_table
from tests.vehicles import SLUGS

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}


def act(client, character, **action):
    response = client.post(reverse("character_state_action", args=[character.pk]), action, **HX)
    assert response.status_code == 200, response.content[:500]
    return response.content.decode()


def request_of(html: str, rollable_id: str) -> str:
    match = re.search(rf'data-testid="request-{re.escape(rollable_id)}">([^<]*)<', html)
    assert match, f"no rollable {rollable_id}"
    return match.group(1)


#: The registry's first ruleset whose sheet character has a pool with a maximum (the pool tests).
POOLED = vehicles.first(vehicles.pools, "a ruleset with play-state pools")
#: The registry's first ruleset with a play-state action and a roll button (the rights tests).
PLAYED = vehicles.first(
    lambda rs: rs.contract_data()["play_actions"] and vehicles.rollable(rs), "a ruleset with play and dice"
)


def _action(slug: str) -> dict:
    """The ruleset's first play action (``play_actions``, rulesets/engine/examples.py), as posted."""
    return {k: str(v) for k, v in registry.get(slug).contract_data()["play_actions"][0].items()}


def test_a_refused_action_without_htmx_redirects_with_the_reason(client, table):
    character = character_at_table(table, POOLED)
    v0, state = character.version, character.state
    pool = vehicles.pools(registry.get(POOLED))[0]
    client.force_login(table["player"])
    url = reverse("character_state_action", args=[character.pk])
    response = client.post(
        url, {"action": "set", "path": pool["path"], "value": str(pool["max"] + 1)}, follow=True
    )
    assert response.redirect_chain[0][1] == 302
    html = response.content.decode()
    assert 'class="message message-error"' in html
    character.refresh_from_db()
    assert character.version == v0 and character.state == state


def test_pool_buttons_set_a_value_and_refuse_one_above_the_maximum(client, table):
    character = character_at_table(table, POOLED)
    pool = vehicles.pools(registry.get(POOLED))[0]
    top, was, path = pool["max"], pool["value"], pool["path"]
    lower = top - 1 if was == top else top
    v0 = character.version
    client.force_login(table["player"])
    html = act(client, character, action="set", path=path, value=str(lower))
    testid = "pool-" + path.strip("/").replace("/", "-")
    assert re.search(rf'data-testid="{testid}"><strong>{lower}</strong> / {top}', html)
    html = act(client, character, action="set", path=path, value=str(top + 1))
    assert f"cannot go above {top}" in re.search(r'data-testid="state-error">([^<]*)<', html).group(1)
    character.refresh_from_db()
    assert resolve(character.state, path) == lower and character.version == v0 + 1
    assert (
        CharacterVersion.objects.get(character=character, number=v0 + 1).reason
        == f"{pool['label']} set to {lower} (was {was})."
    )


@pytest.mark.parametrize("slug", SLUGS)
def test_state_action_service_refuses_with_the_rule_code(table, slug):
    character = character_at_table(table, slug)
    v0 = character.version
    with pytest.raises(RuleRefused) as exc:
        play.character_state_action(
            character_id=character.pk, user=table["player"], action={"action": "fly", "amount": 1}
        )
    assert exc.value.errors[0]["code"] == "state.unknown_action"
    character.refresh_from_db()
    assert character.version == v0


def test_the_state_action_update_stays_within_its_query_budget(client, table, django_assert_max_num_queries):
    character = character_at_table(table, PLAYED)
    action = _action(PLAYED)
    client.force_login(table["player"])
    client.get(reverse("character_sheet", args=[character.pk]))  # warm the session
    # session, user, SELECT … FOR UPDATE, UPDATE, UPDATE the session's play version (none yet: it
    # follows a build version), UPDATE the number people read (a new play row starts), INSERT
    # version = 6; under the test's outer transaction the service's atomic() adds SAVEPOINT and RELEASE.
    with django_assert_max_num_queries(9):
        act(client, character, **action)
    # The next change of the same session of play updates that play version in place: no INSERT.
    with django_assert_max_num_queries(7):
        act(client, character, **action)


# ------------------------------------------------------------------ whole-state replace (API PATCH)


def _lowered(character, slug) -> tuple[dict, str, int]:
    """The character's state with its first pool one lower: (state, the pool's path, its value)."""
    pool = vehicles.pools(registry.get(slug))[0]
    state = copy.deepcopy(character.state)
    set_at(state, pool["path"], pool["value"] - 1)
    return state, pool["path"], pool["value"]


def test_update_state_refuses_a_stale_version(table):
    character = character_at_table(table, POOLED)
    v0 = character.version
    state, path, was = _lowered(character, POOLED)
    with pytest.raises(Conflict):
        play.character_update_state(
            character_id=character.pk, user=table["player"], state=state, version=v0 - 1
        )
    character.refresh_from_db()
    assert resolve(character.state, path) == was


def test_update_state_writes_a_new_version(table):
    character = character_at_table(table, POOLED)
    v0 = character.version
    state, path, was = _lowered(character, POOLED)
    updated = play.character_update_state(
        character_id=character.pk, user=table["gm"], state=state, version=v0
    )
    assert updated.version == v0 + 1 and resolve(updated.state, path) == was - 1
    version = CharacterVersion.objects.get(character=character, number=v0 + 1)
    assert (
        resolve(version.state, path) == was - 1
        and version.author == table["gm"]
        and version.reason == "play state updated"
    )
    with pytest.raises(Conflict):  # the same PATCH again is now stale
        play.character_update_state(character_id=character.pk, user=table["player"], state=state, version=v0)


# ------------------------------------------------------------------ loadout


# ------------------------------------------------------------------ permissions


def sheet_endpoints(character: Character, roll: RollLog) -> list[tuple[str, str, dict]]:
    return [
        ("get", reverse("character_sheet", args=[character.pk]), {}),
        ("get", reverse("character_rolls", args=[character.pk]), {}),
        ("get", reverse("character_roll_detail", args=[character.pk, roll.pk]), {}),
        ("post", reverse("character_state_action", args=[character.pk]), _action(character.ruleset)),
        ("post", reverse("character_equipment", args=[character.pk, 0]), {"state": "carried"}),
        (
            "post",
            reverse("character_roll", args=[character.pk]),
            {"rollable": vehicles.rollable(registry.get(character.ruleset))},
        ),
    ]


@pytest.mark.parametrize("who", ["other", "stranger"])
@pytest.mark.parametrize("htmx", [False, True])
def test_another_player_gets_404_on_every_sheet_endpoint(client, table, who, htmx):
    character = character_at_table(table, PLAYED)
    v0 = character.version
    roll = play.character_roll(
        character_id=character.pk, user=table["player"], rollable_id=vehicles.rollable(registry.get(PLAYED))
    )
    client.force_login(table[who])
    for method, url, data in sheet_endpoints(character, roll):
        response = getattr(client, method)(url, data, **(HX if htmx else {}))
        assert response.status_code == 404, (method, url, response.status_code)
    character.refresh_from_db()
    assert character.version == v0 and RollLog.objects.filter(character=character).count() == 1


def test_the_gm_sees_the_sheet_changes_play_state_and_rolls(client, table):
    ruleset = registry.get(PLAYED)
    character = character_at_table(table, PLAYED)
    v0, action = character.version, _action(PLAYED)
    expected = vehicles.after(ruleset, character.state, action)
    assert expected != character.state
    client.force_login(table["gm"])
    assert client.get(reverse("character_sheet", args=[character.pk])).status_code == 200
    act(client, character, **action)
    response = client.post(
        reverse("character_roll", args=[character.pk]), {"rollable": vehicles.rollable(ruleset)}, **HX
    )
    assert response.status_code == 200
    log = RollLog.objects.get(character=character)
    assert log.user == table["gm"]
    character.refresh_from_db()
    assert character.state == expected
    assert CharacterVersion.objects.get(character=character, number=v0 + 1).author == table["gm"]


def test_anonymous_visitors_are_sent_to_log_in(client, table):
    character = character_at_table(table, PLAYED)
    response = client.get(reverse("character_sheet", args=[character.pk]))
    assert response.status_code == 302 and "login" in response["Location"]


def test_a_draft_has_no_play_state_or_dice(client, table):
    character = character_at_table(table, PLAYED, status=Character.Status.DRAFT)
    with pytest.raises(RuleRefused) as exc:
        play.character_state_action(character_id=character.pk, user=table["player"], action=_action(PLAYED))
    assert exc.value.errors[0]["code"] == "state.not_active"
    with pytest.raises(RuleRefused):
        play.character_roll(
            character_id=character.pk,
            user=table["player"],
            rollable_id=vehicles.rollable(registry.get(PLAYED)),
        )
    client.force_login(table["player"])
    html = client.get(reverse("character_sheet", args=[character.pk])).content.decode()
    assert "No play state for a draft." in html and "data-rollable=" not in html
    assert not RollLog.objects.exists()
