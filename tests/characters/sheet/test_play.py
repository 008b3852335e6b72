"""Play state on the sheet: actions per ruleset change the state and the numbers shown, refusals
change nothing, the API's whole-state replace, loadout changes and who may do what."""

from __future__ import annotations

import re

import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse

from characters.models import Character, CharacterVersion, RollLog
from characters.sheet import services as play
from characters.templatetags.sheet_tags import chart_data
from config.api import Conflict, RuleRefused
from rulesets.engine import registry
from tests.characters.sheet.test_sheet_fixtures import BUILDS, character_at_table

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


# ------------------------------------------------------------------ per ruleset


def test_pando_harm_on_the_right_arm_wounds_it_and_raises_the_strike_speed_cost(client, table):
    character = character_at_table(table, "pando")
    v0 = character.version
    client.force_login(table["player"])
    before = client.get(reverse("character_sheet", args=[character.pk])).content.decode()
    assert re.search(r'data-testid="speed-cost-right_arm">—<', before)
    html = act(client, character, action="harm", body_part="right_arm", amount="1", protected="true")
    # The response swaps the state block and, out of band, the numbers, effects and roll buttons.
    assert (
        html.startswith('\n      <section class="card sheet-block" id="sheet-state"')
        or 'id="sheet-state"' in html[:200]
    )
    assert 'id="sheet-derived" aria-labelledby="sheet-derived-heading" hx-swap-oob="true"' in html
    row = re.search(r'<tr id="body-right_arm".*?</tr>', html, re.S).group(0)
    assert '<td class="body-status">wounded</td>' in row and "<td>1 / 5</td>" in row
    assert re.search(r'data-testid="speed-cost-right_arm">\+1<', html)
    strike = re.search(r'data-rollable="item:0:strike".*?</li>', html, re.S).group(0)
    assert "· 2 speed" in strike and "right arm is wounded" in strike
    character.refresh_from_db()
    assert character.state["harm"]["right_arm"] == 1
    assert character.version == v0 + 1
    version = CharacterVersion.objects.get(character=character, number=v0 + 1)
    assert (
        version.reason.startswith("Alex takes 1 harm to the right arm")
        and version.state["harm"]["right_arm"] == 1
    )
    assert version.author == table["player"]


def test_maelstrom_two_lethal_give_a_wound_penalty_and_lower_the_pools(client, table):
    character = character_at_table(table, "maelstrom")
    client.force_login(table["player"])
    before = client.get(reverse("character_sheet", args=[character.pk])).content.decode()
    shown = re.search(r'name="in_wounds_shown" value="([^"]*)"', before).group(1)
    response = client.post(
        reverse("character_state_action", args=[character.pk]),
        {"action": "damage", "levels": "2", "type": "lethal"},
        **HX,
    )
    html = response.content.decode()
    assert re.search(r'data-testid="wound-penalty">−1<', html)
    assert html.count('data-damage="lethal"') == 2
    # The roll form's odds ask again once the change settles, and the picker's wounds line is redrawn:
    # Strength alone is 2 dice − 1 for the wound penalty, and a willpower dot is offered against it.
    assert response["HX-Trigger-After-Settle"] == "sheet-state-changed"
    odds = client.get(
        reverse("character_roll_odds", args=[character.pk]),
        {"preview": "picked", "in_attribute": "strength", "in_ability": "", "in_wounds_shown": shown},
        **HX,
    ).content.decode()
    assert "Odds of Strength with these numbers" in odds
    maelstrom = registry.get("maelstrom")
    bars = chart_data("maelstrom", maelstrom.odds({"pool": 1, "difficulty": 6, "threshold": 0}))["bars"]
    assert re.findall(r"<title>([^<]+)</title>", odds) == [f"{b['label']}: {b['percent_text']}" for b in bars]
    wounds = re.search(
        r'<div class="roll-pick-wounds" id="roll-pick-wounds"[^>]*hx-swap-oob="true">.*?</div>', odds, re.S
    )
    assert wounds and "Spend a willpower dot: no wound penalty (−1 dice)" in wounds.group(0)
    character.refresh_from_db()
    assert character.state["health"][:3] == ["lethal", "lethal", None]


def test_paragon_health_below_half_is_incapacitated(client, table):
    character = character_at_table(table, "paragon")
    client.force_login(table["player"])
    html = act(client, character, action="damage", pool="health", amount="11")
    pool = re.search(r'<li class="state-pool has-status" id="pool-pools-health".*?</li>', html, re.S).group(0)
    assert (
        "<strong>9</strong> / 20" in pool and '<span class="badge state-status">incapacitated</span>' in pool
    )
    assert "Incapacitated" in re.search(r'id="sheet-effects".*?</section>', html, re.S).group(0)
    character.refresh_from_db()
    assert character.state["pools"]["health"] == 9


def test_ascendant_a_condition_lowers_a_skill_modifier(client, table):
    character = character_at_table(table, "ascendant")
    client.force_login(table["player"])
    before = client.get(reverse("character_sheet", args=[character.pk])).content.decode()
    assert request_of(before, "skill.arcana") == "Modifier: 6"  # the threshold is the form's
    html = act(client, character, action="add_condition", id="frightened", value="2")
    assert request_of(html, "skill.arcana") == "Modifier: 4"
    assert re.search(r'data-testid="skill-arcana">\+6 → <strong class="sheet-lowered">\+4</strong>', html)
    character.refresh_from_db()
    assert character.state["conditions"] == [{"id": "frightened", "value": 2}]


def test_ourdnd_damage_to_zero_is_dying(client, table):
    character = character_at_table(table, "ourdnd")
    client.force_login(table["player"])
    html = act(client, character, action="damage", amount="10")
    assert re.search(r'data-testid="pool-hp"><strong>0</strong> / 10', html)
    assert re.search(r'<li class="state-flag is-on" data-flag="dying">', html)
    character.refresh_from_db()
    assert character.state["hp"] == 0 and character.state["dying"] is True


def test_a_refused_action_changes_nothing_and_says_why(client, table):
    character = character_at_table(table, "maelstrom")
    v0 = character.version
    client.force_login(table["player"])
    html = act(client, character, action="heal", levels="1", type="lethal")
    error = re.search(r'data-testid="state-error">([^<]*)<', html).group(1)
    assert "no lethal damage to heal" in error
    character.refresh_from_db()
    assert character.version == v0 and character.state["health"] == [None] * 8
    assert CharacterVersion.objects.filter(character=character).count() == v0


def test_a_refused_action_without_htmx_redirects_with_the_reason(client, table):
    character = character_at_table(table, "pando")
    v0 = character.version
    client.force_login(table["player"])
    url = reverse("character_state_action", args=[character.pk])
    response = client.post(url, {"action": "spend_stamina", "amount": "99"}, follow=True)
    assert response.redirect_chain[0][1] == 302
    html = response.content.decode()
    assert 'class="message message-error"' in html
    character.refresh_from_db()
    assert character.version == v0 and character.state["stamina"] == 11


def test_pool_buttons_set_a_value_and_refuse_one_above_the_maximum(client, table):
    character = character_at_table(table, "pando")
    v0 = character.version
    client.force_login(table["player"])
    html = act(client, character, action="set", path="/stamina", value="10")
    assert re.search(r'data-testid="pool-stamina"><strong>10</strong> / 11', html)
    html = act(client, character, action="set", path="/stamina", value="12")
    assert "cannot go above 11" in re.search(r'data-testid="state-error">([^<]*)<', html).group(1)
    character.refresh_from_db()
    assert character.state["stamina"] == 10 and character.version == v0 + 1
    assert (
        CharacterVersion.objects.get(character=character, number=v0 + 1).reason
        == "Stamina set to 10 (was 11)."
    )


def test_state_action_service_refuses_with_the_rule_code(table):
    character = character_at_table(table, "ourdnd")
    v0 = character.version
    with pytest.raises(RuleRefused) as exc:
        play.character_state_action(
            character_id=character.pk, user=table["player"], action={"action": "fly", "amount": 1}
        )
    assert exc.value.errors[0]["code"] == "state.unknown_action"
    character.refresh_from_db()
    assert character.version == v0


def test_the_state_action_update_stays_within_its_query_budget(client, table, django_assert_max_num_queries):
    character = character_at_table(table, "pando")
    client.force_login(table["player"])
    client.get(reverse("character_sheet", args=[character.pk]))  # warm the session
    # session, user, SELECT … FOR UPDATE, UPDATE, UPDATE the session's play version (none yet: it
    # follows a build version), UPDATE the number people read (a new play row starts), INSERT
    # version = 6; under the test's outer transaction the service's atomic() adds SAVEPOINT and RELEASE.
    with django_assert_max_num_queries(9):
        act(client, character, action="harm", body_part="legs", amount="1")
    # The next change of the same session of play updates that play version in place: no INSERT.
    with django_assert_max_num_queries(7):
        act(client, character, action="harm", body_part="legs", amount="1")


# ------------------------------------------------------------------ whole-state replace (API PATCH)


def test_update_state_refuses_a_stale_version(table):
    character = character_at_table(table, "ourdnd")
    v0 = character.version
    state = {**character.state, "hp": 7}
    with pytest.raises(Conflict):
        play.character_update_state(
            character_id=character.pk, user=table["player"], state=state, version=v0 - 1
        )
    character.refresh_from_db()
    assert character.state["hp"] == 10


def test_update_state_refuses_an_invalid_state_with_the_issue_path(table):
    character = character_at_table(table, "pando")
    v0 = character.version
    state = {**character.state, "harm": {**character.state["harm"], "tail": 2}}
    with pytest.raises(play.StateInvalid) as exc:
        play.character_update_state(character_id=character.pk, user=table["player"], state=state, version=v0)
    assert exc.value.status_code == 400
    assert any(e["path"] == "/harm/tail" for e in exc.value.errors), exc.value.errors
    with pytest.raises(play.StateInvalid):
        play.character_update_state(character_id=character.pk, user=table["player"], state=[1, 2], version=v0)
    character.refresh_from_db()
    assert character.version == v0 and "tail" not in character.state["harm"]


def test_update_state_writes_a_new_version(table):
    character = character_at_table(table, "ourdnd")
    v0 = character.version
    state = {**character.state, "hp": 4}
    updated = play.character_update_state(
        character_id=character.pk, user=table["gm"], state=state, version=v0
    )
    assert updated.version == v0 + 1 and updated.state["hp"] == 4
    version = CharacterVersion.objects.get(character=character, number=v0 + 1)
    assert (
        version.state["hp"] == 4 and version.author == table["gm"] and version.reason == "play state updated"
    )
    with pytest.raises(Conflict):  # the same PATCH again is now stale
        play.character_update_state(character_id=character.pk, user=table["player"], state=state, version=v0)


# ------------------------------------------------------------------ loadout


def loadout_build() -> dict:
    build = dict(BUILDS["pando"])
    build["equipment"] = [*build["equipment"], {"item": "steel_helm", "state": "carried"}]
    return build


def test_the_owner_changes_what_is_carried_and_a_version_is_written(client, table):
    character = character_at_table(table, "pando", build=loadout_build())
    v0 = character.version
    client.force_login(table["player"])
    url = reverse("character_equipment", args=[character.pk, 2])
    response = client.post(url, {"state": "carried"}, **HX)
    assert response.status_code == 200
    html = response.content.decode()
    assert re.search(r'<tr data-part="head">\s*<th scope="row">Head</th>\s*<td>—</td>', html)
    character.refresh_from_db()
    assert character.build["equipment"][2]["state"] == "carried" and character.version == v0 + 1
    assert character.report["derived"]["protection"]["head"] == {}
    assert (
        CharacterVersion.objects.get(character=character, number=v0 + 1).reason
        == "loadout: Leather Cap carried"
    )


def test_a_slot_conflict_is_refused_with_the_report_error(client, table):
    character = character_at_table(table, "pando", build=loadout_build())
    v0 = character.version
    with pytest.raises(RuleRefused) as exc:
        play.character_equipment_state(character_id=character.pk, user=table["player"], index=4, state="worn")
    assert exc.value.errors[0]["code"] == "equipment.slot_conflict"
    client.force_login(table["player"])
    response = client.post(reverse("character_equipment", args=[character.pk, 4]), {"state": "worn"}, **HX)
    assert "equipment-error" in response.content.decode()
    character.refresh_from_db()
    assert character.build["equipment"][4]["state"] == "carried" and character.version == v0


def test_the_gm_cannot_change_the_loadout(client, table):
    character = character_at_table(table, "pando")
    v0 = character.version
    with pytest.raises(PermissionDenied):
        play.character_equipment_state(character_id=character.pk, user=table["gm"], index=3, state="carried")
    client.force_login(table["gm"])
    response = client.post(reverse("character_equipment", args=[character.pk, 3]), {"state": "carried"}, **HX)
    assert response.status_code == 403
    character.refresh_from_db()
    assert character.version == v0


# ------------------------------------------------------------------ permissions


def sheet_endpoints(character: Character, roll: RollLog) -> list[tuple[str, str, dict]]:
    return [
        ("get", reverse("character_sheet", args=[character.pk]), {}),
        ("get", reverse("character_rolls", args=[character.pk]), {}),
        ("get", reverse("character_roll_detail", args=[character.pk, roll.pk]), {}),
        (
            "post",
            reverse("character_state_action", args=[character.pk]),
            {"action": "heal", "body_part": "legs", "amount": "1"},
        ),
        ("post", reverse("character_equipment", args=[character.pk, 3]), {"state": "carried"}),
        ("post", reverse("character_roll", args=[character.pk]), {"rollable": "skill:capability"}),
    ]


@pytest.mark.parametrize("who", ["other", "stranger"])
@pytest.mark.parametrize("htmx", [False, True])
def test_another_player_gets_404_on_every_sheet_endpoint(client, table, who, htmx):
    character = character_at_table(table, "pando")
    v0 = character.version
    roll = play.character_roll(
        character_id=character.pk, user=table["player"], rollable_id="skill:capability"
    )
    client.force_login(table[who])
    for method, url, data in sheet_endpoints(character, roll):
        response = getattr(client, method)(url, data, **(HX if htmx else {}))
        assert response.status_code == 404, (method, url, response.status_code)
    character.refresh_from_db()
    assert character.version == v0 and RollLog.objects.filter(character=character).count() == 1


def test_the_gm_sees_the_sheet_changes_play_state_and_rolls(client, table):
    character = character_at_table(table, "pando")
    v0 = character.version
    client.force_login(table["gm"])
    assert client.get(reverse("character_sheet", args=[character.pk])).status_code == 200
    html = act(client, character, action="harm", body_part="legs", amount="2")
    assert '<td class="body-status">wounded</td>' in re.search(
        r'<tr id="body-legs".*?</tr>', html, re.S
    ).group(0)
    response = client.post(
        reverse("character_roll", args=[character.pk]), {"rollable": "skill:capability"}, **HX
    )
    assert response.status_code == 200
    log = RollLog.objects.get(character=character)
    assert log.user == table["gm"]
    character.refresh_from_db()
    assert character.state["harm"]["legs"] == 2
    assert CharacterVersion.objects.get(character=character, number=v0 + 1).author == table["gm"]


def test_anonymous_visitors_are_sent_to_log_in(client, table):
    character = character_at_table(table, "pando")
    response = client.get(reverse("character_sheet", args=[character.pk]))
    assert response.status_code == 302 and "login" in response["Location"]


def test_a_draft_has_no_play_state_or_dice(client, table):
    character = character_at_table(table, "ourdnd", status=Character.Status.DRAFT)
    with pytest.raises(RuleRefused) as exc:
        play.character_state_action(
            character_id=character.pk, user=table["player"], action={"action": "damage", "amount": 1}
        )
    assert exc.value.errors[0]["code"] == "state.not_active"
    with pytest.raises(RuleRefused):
        play.character_roll(character_id=character.pk, user=table["player"], rollable_id="check:str:normal")
    client.force_login(table["player"])
    html = client.get(reverse("character_sheet", args=[character.pk])).content.decode()
    assert "No play state for a draft." in html and "data-rollable=" not in html
    assert not RollLog.objects.exists()
