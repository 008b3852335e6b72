"""Play over the API (issue #37, CONTRACT.md "A campaign's months"): ``GET /characters/<id>/actions/``
lists what the sheet's forms offer (one source), ``POST`` takes any of them as an operation through
the sheet's own service (same rules, versions, row lock and live updates); ``POST
/characters/<id>/rolls/`` rolls on the server with the odds; ``GET /campaigns/<id>/rolls/`` is the
table's feed with a cursor. The wrong user: a stranger, another player, a removed member."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.db import connection
from django.urls import reverse

from characters.campaigns import services as campaign_services
from characters.models import Character, CharacterVersion, RollLog
from rulesets.engine import registry
from rulesets.engine.pointer import resolve
from tests import vehicles
from tests.characters.sheet.test_sheet_fixtures import character_at_table
from tests.factories import api_client

pytestmark = pytest.mark.django_db


def _full(ruleset) -> dict | None:
    return next((p for p in vehicles.pools(ruleset) if p["value"] == p["max"] >= 4), None)


#: The registry's first ruleset whose sheet character has a full pool of 4 or more, and the pool.
SLUG = vehicles.first(_full, "a ruleset with a full pool of 4 or more")
POOL = _full(registry.get(SLUG))
HP, TOP = POOL["path"], POOL["max"]
#: A ruleset with a roll button.
ROLL_SLUG = vehicles.first(lambda rs: vehicles.rollable(rs) is not None, "a ruleset with a roll")


def _actions_url(character) -> str:
    return f"/api/v1/characters/{character.pk}/actions/"


def _hp(character) -> int:
    return resolve(Character.objects.get(pk=character.pk).state, HP)


def _page_forms(html: str) -> dict[str, set[str]]:
    """The sheet's play forms: {action: the names of the fields the person fills in}."""
    forms: dict[str, set[str]] = {}
    for form in re.findall(r"<form[^>]*>(.*?)</form>", html, re.S):
        hidden = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)">', form))
        name = hidden.get("action")
        if not name or "csrfmiddlewaretoken" not in form:
            continue
        names = set(re.findall(r'<(?:input|select|textarea)[^>]*name="([\w\[\]]+)"', form))
        shown = names - {"csrfmiddlewaretoken", "action", "version"}
        if name == "step":
            shown = {"path", "delta"}  # hidden on the page: one form per pool and direction
        if name == "set":
            shown = {"path", "value"}
        forms.setdefault(unescape(name), set()).update(shown)
    return forms


@pytest.mark.parametrize("slug", vehicles.SLUGS)
def test_the_actions_listed_are_the_forms_the_sheet_draws(client, table, slug):
    character = character_at_table(table, slug)
    client.force_login(table["player"])
    page = client.get(reverse("character_sheet", args=[character.pk])).content.decode()
    forms = _page_forms(page)
    listed = api_client(table["player"]).get(_actions_url(character))
    assert listed.status_code == 200
    api = {a["action"]: {f["name"] for f in a["fields"]} for a in listed.json()}
    assert api == forms
    for action in listed.json():
        assert action["label"] and all(
            f["type"] in {"number", "choice", "flag", "text"} for f in action["fields"]
        )
        for field in action["fields"]:
            assert ("choices" in field) == (field["type"] == "choice")
    # The GM sees the same list.
    assert api_client(table["gm"]).get(_actions_url(character)).json() == listed.json()


def test_a_step_over_the_api_is_an_operation_under_the_lock_and_a_new_version(table):
    character = character_at_table(table, SLUG)
    before = character.version
    answer = api_client(table["player"]).post(
        _actions_url(character), {"action": "step", "path": HP, "delta": -1}, format="json"
    )
    assert answer.status_code == 200, answer.json()
    body = answer.json()
    assert body["version"] == before + 1
    assert resolve(body["state"], HP) == TOP - 1
    assert body["message"] and "{" not in body["message"]
    # The GM's step lands on the value now, not on what either of them saw.
    api_client(table["gm"]).post(
        _actions_url(character), {"action": "step", "path": HP, "delta": -2}, format="json"
    )
    assert _hp(character) == TOP - 3
    play = CharacterVersion.objects.filter(character=character, kind="play").order_by("-id").first()
    assert body["message"] in play.reason  # the play log's sentence, as the sheet's form writes it


def test_the_api_and_the_sheet_s_form_make_the_same_state(client, table):
    """Every ruleset's own action (its first with a number field) through both doors."""
    for slug in vehicles.SLUGS:
        found = vehicles.number_action(registry.get(slug))
        if found is None:
            continue
        action, _ = found
        by_page, by_api = character_at_table(table, slug), character_at_table(table, slug)
        client.force_login(table["player"])
        client.post(
            reverse("character_state_action", args=[by_page.pk]), {k: str(v) for k, v in action.items()}
        )
        answer = api_client(table["player"]).post(_actions_url(by_api), action, format="json")
        assert answer.status_code == 200, (slug, answer.json())
        assert answer.json()["state"] == Character.objects.get(pk=by_page.pk).state, slug


def test_refused_by_the_rules_is_a_422_and_changes_nothing(table):
    character = character_at_table(table, SLUG)
    client = api_client(table["player"])
    answer = client.post(
        _actions_url(character), {"action": "step", "path": HP, "delta": -(TOP + 5)}, format="json"
    )
    assert answer.status_code == 422
    body = answer.json()
    assert body["detail"] and body["errors"][0]["code"].startswith("state.")
    assert _hp(character) == TOP
    unknown = client.post(_actions_url(character), {"action": "fly_to_the_moon"}, format="json")
    assert unknown.status_code == 422
    assert unknown.json()["errors"][0]["code"] == "state.unknown_action"
    assert "offers" in unknown.json()["detail"]
    assert Character.objects.get(pk=character.pk).version == character.version


def test_a_stale_version_is_a_409_naming_the_value_now(table):
    character = character_at_table(table, SLUG)
    client = api_client(table["player"])
    client.post(_actions_url(character), {"action": "step", "path": HP, "delta": -1}, format="json")
    stale = client.post(
        _actions_url(character),
        {"action": "set", "path": HP, "value": 1, "version": character.version},
        format="json",
    )
    assert stale.status_code == 409
    assert f"is now {TOP - 1}" in stale.json()["detail"]
    assert _hp(character) == TOP - 1
    fresh = client.post(
        _actions_url(character),
        {"action": "set", "path": HP, "value": 1, "version": character.version + 1},
        format="json",
    )
    assert fresh.status_code == 200 and _hp(character) == 1


def test_a_field_the_action_has_not_or_of_the_wrong_type_is_a_400(table):
    character = character_at_table(table, SLUG)
    client = api_client(table["player"])
    extra = client.post(
        _actions_url(character), {"action": "step", "path": HP, "delta": -1, "x": 1}, format="json"
    )
    assert extra.status_code == 400 and extra.json()["errors"][0]["field"] == "x"
    typed = client.post(
        _actions_url(character), {"action": "step", "path": HP, "delta": "lots"}, format="json"
    )
    assert typed.status_code == 400 and typed.json()["errors"][0]["field"] == "delta"
    nowhere = client.post(
        _actions_url(character), {"action": "step", "path": "/nope", "delta": -1}, format="json"
    )
    assert nowhere.status_code == 400 and nowhere.json()["errors"][0]["field"] == "path"
    assert client.post(_actions_url(character), {"delta": -1}, format="json").status_code == 400
    assert _hp(character) == TOP


def test_the_wrong_user_gets_404_and_changes_nothing(table):
    character = character_at_table(table, SLUG)
    step = {"action": "step", "path": HP, "delta": -1}
    for user in (table["stranger"], table["other"]):
        assert api_client(user).get(_actions_url(character)).status_code == 404
        assert api_client(user).post(_actions_url(character), step, format="json").status_code == 404
    assert api_client().get(_actions_url(character)).status_code in (401, 403)
    # A removed member no longer sees their own character.
    campaign_services.campaign_remove_player(
        gm=table["gm"], campaign=character.campaign, user=table["player"]
    )
    removed = api_client(table["player"])
    assert removed.get(_actions_url(character)).status_code == 404
    assert removed.post(_actions_url(character), step, format="json").status_code == 404
    assert _hp(character) == TOP
    assert api_client(table["gm"]).post(_actions_url(character), step, format="json").status_code == 200


def test_a_draft_offers_no_actions_and_refuses_one(table):
    character = character_at_table(table, SLUG, status=Character.Status.DRAFT)
    client = api_client(table["player"])
    assert client.get(_actions_url(character)).json() == []
    answer = client.post(_actions_url(character), {"action": "step", "path": HP, "delta": -1}, format="json")
    assert answer.status_code == 422 and answer.json()["errors"][0]["code"] == "state.not_active"


def test_a_token_client_plays_too(table):
    character = character_at_table(table, SLUG)
    answer = api_client(table["player"], token=True).post(
        _actions_url(character), {"action": "step", "path": HP, "delta": -1}, format="json"
    )
    assert answer.status_code == 200 and _hp(character) == TOP - 1


# ------------------------------------------------------------------ rolls


def _roll(user, character, **body):
    rollable = vehicles.rollable(registry.get(character.ruleset))
    return api_client(user).post(
        f"/api/v1/characters/{character.pk}/rolls/", {"rollable": rollable, **body}, format="json"
    )


def test_a_roll_is_made_on_the_server_with_its_odds(table):
    character = character_at_table(table, ROLL_SLUG)
    answer = _roll(table["player"], character)
    assert answer.status_code == 201, answer.json()
    body = answer.json()
    assert set(body) == {"id", "rollable", "label", "request", "result", "odds", "private", "at"}
    log = RollLog.objects.get(pk=body["id"])
    assert body["rollable"] == vehicles.rollable(registry.get(ROLL_SLUG))
    assert body["odds"] == log.result["odds"] and body["odds"]
    assert body["request"] == log.request and body["private"] is False
    assert "odds" not in body["result"] and body["result"]["faces"] == log.result["faces"]
    assert log.user == table["player"] and log.campaign_id == character.campaign_id


def test_only_the_gm_rolls_privately(table):
    character = character_at_table(table, ROLL_SLUG)
    refused = _roll(table["player"], character, private=True)
    assert refused.status_code == 403
    assert not RollLog.objects.filter(character=character).exists()
    gm = _roll(table["gm"], character, private=True)
    assert gm.status_code == 201 and gm.json()["private"] is True


def test_a_table_number_the_roll_does_not_take_is_a_400(table):
    character = character_at_table(table, ROLL_SLUG)
    answer = _roll(table["player"], character, table={"no_such_number": 3})
    assert answer.status_code == 400 and "no_such_number" in answer.json()["detail"]
    assert not RollLog.objects.filter(character=character).exists()


def _plain_roll(ruleset) -> str | None:
    """The sheet character's first roll button that is no action at leisure (``"chance"``), or None."""
    build = vehicles.sheet_build(ruleset)
    report = ruleset.validate(build)
    found = ruleset.rollables(build, report, ruleset.initial_state(build, report))
    return next((r["id"] for r in found if not r.get("picker") and not r.get("chance")), None)


@pytest.mark.parametrize("slug", vehicles.SLUGS)
def test_a_roll_that_is_no_action_at_leisure_cannot_be_chanced(table, slug):
    """RULES.md W4 (``chanced: true``, an addition): only a roll the ruleset offers to chance is
    chanced; any other, in every ruleset, is a 422 in words, and nothing is rolled or changed."""
    ruleset = registry.get(slug)
    rollable = _plain_roll(ruleset)
    if rollable is None:
        pytest.skip(f"{ruleset.name}'s sheet character has no roll button")
    character = character_at_table(table, slug)
    answer = api_client(table["player"]).post(
        f"/api/v1/characters/{character.pk}/rolls/", {"rollable": rollable, "chanced": True}, format="json"
    )
    assert answer.status_code == 422, answer.json()
    assert answer.json()["errors"][0]["code"] == "roll.not_chanceable"
    assert "chanced" in answer.json()["detail"] and "{" not in answer.json()["detail"]
    assert not RollLog.objects.filter(character=character).exists()
    assert Character.objects.get(pk=character.pk).version == character.version


def test_the_wrong_user_cannot_roll(table):
    character = character_at_table(table, ROLL_SLUG)
    for user in (table["stranger"], table["other"]):
        assert _roll(user, character).status_code == 404
    campaign_services.campaign_remove_player(
        gm=table["gm"], campaign=character.campaign, user=table["player"]
    )
    assert _roll(table["player"], character).status_code == 404
    assert not RollLog.objects.filter(character=character).exists()


def test_the_feed_newest_first_with_a_cursor_and_private_rolls_to_the_gm_only(table):
    character = character_at_table(table, ROLL_SLUG)
    ids = [_roll(table["player"], character).json()["id"] for _ in range(4)]
    secret = _roll(table["gm"], character, private=True).json()["id"]
    url = f"/api/v1/campaigns/{character.campaign_id}/rolls/"
    player = api_client(table["player"])
    first = player.get(url, {"limit": 2}).json()
    assert [r["id"] for r in first] == [ids[3], ids[2]]
    assert first[0]["character"] == character.pk and first[0]["name"] == character.name
    assert first[0]["by"] == table["player"].username and first[0]["odds"]
    more = player.get(url, {"limit": 2, "before": first[-1]["id"]}).json()
    assert [r["id"] for r in more] == [ids[1], ids[0]]
    assert player.get(url, {"before": ids[0]}).json() == []
    gm = api_client(table["gm"]).get(url).json()
    assert [r["id"] for r in gm] == [secret, *reversed(ids)] and gm[0]["private"] is True
    other = api_client(table["other"]).get(url).json()  # another player at the table sees the public feed
    assert [r["id"] for r in other] == list(reversed(ids))
    for bad in ({"limit": 101}, {"limit": 0}, {"limit": "x"}, {"before": "-1"}):
        answer = player.get(url, bad)
        assert answer.status_code == 400 and answer.json()["detail"], bad
    assert api_client(table["stranger"]).get(url).status_code == 404
    campaign_services.campaign_remove_player(gm=table["gm"], campaign=character.campaign, user=table["other"])
    assert api_client(table["other"]).get(url).status_code == 404


@pytest.mark.skipif(connection.vendor == "sqlite", reason="needs Postgres row locks")
@pytest.mark.django_db(transaction=True)
def test_parallel_steps_over_the_api_from_the_owner_and_the_gm_all_land(table):
    """The row lock of the sheet's service: lowerings sent at once by both (up to four each) all land."""
    from tests.characters.sheet.test_play_operations import _parallel

    character = character_at_table(table, SLUG)
    codes: list[int] = []

    def step(user):
        codes.append(
            api_client(user)
            .post(_actions_url(character), {"action": "step", "path": HP, "delta": -1}, format="json")
            .status_code
        )

    n = min(4, TOP // 2)  # each of the two, the pool (4 or more) never going below 0
    assert _parallel([lambda u=u: step(u) for u in [table["player"], table["gm"]] * n]) == []
    assert codes == [200] * (2 * n)
    assert _hp(character) == TOP - 2 * n
    assert Character.objects.get(pk=character.pk).version == character.version + 2 * n
