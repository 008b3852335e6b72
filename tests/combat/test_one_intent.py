"""One intent, one effect, applied to the state the person saw (#19): a repeated request id is the
same request (applied once), and a form drawn from an older version of the encounter is refused
(409 with the reason) and changes nothing — through the services, the API and the page."""

from __future__ import annotations

import re
import uuid

import pytest
from django.test import Client
from django.urls import reverse

from combat import services
from combat.models import EncounterEvent, EncounterRequest
from config.errors import Conflict
from rulesets.engine.dice import FixedRoller
from tests.combat.conftest import pc_action
from tests.combat.helpers import snapshot
from tests.factories import api_client

pytestmark = pytest.mark.django_db


def _moves(e, combatant) -> int:
    """How many of the combatant's own actions the log holds (not the turns that came to it)."""
    return EncounterEvent.objects.filter(encounter=e, actor_id=combatant.pk).exclude(kind="turn").count()


def _row(combatant):
    """What an action changes on the combatant's row: its play state and combat state."""
    combatant.refresh_from_db()
    return combatant.state, combatant.combat


def _next(e) -> tuple[int, int]:
    """The (round, turn) one ended turn after ``e``'s."""
    return (e.round, e.turn + 1) if e.turn + 1 < len(e.order) else (e.round + 1, 0)


def _page(user) -> Client:
    c = Client()
    c.force_login(user)
    return c


# ------------------------------------------------------------------ services


def test_a_repeated_request_id_moves_once(fight):
    e, pablo, player = fight["e"], fight["c_pablo"], fight["player"]
    e.refresh_from_db()
    version, row, moves = e.version, _row(pablo), _moves(e, pablo)
    move, rid = pc_action(fight, target=False), uuid.uuid4().hex
    after = []
    for _ in range(2):  # a double click: the same form, the same id, the same version
        services.encounter_act(
            encounter=e,
            user=player,
            combatant_id=pablo.pk,
            action=move,
            expected_version=version,
            request_id=rid,
        )
        after.append(_row(pablo))
    e.refresh_from_db()
    assert _moves(e, pablo) == moves + 1
    assert e.version == version + 1
    assert after[0] == after[1] != row  # applied once: the repeat changed nothing
    assert EncounterRequest.objects.get(encounter=e, key=rid).version == e.version


def test_a_repeated_next_turn_ends_one_turn(fight):
    e, gm = fight["e"], fight["gm"]
    e.refresh_from_db()
    before, expected = (e.round, e.turn, e.version), _next(e)
    rid = uuid.uuid4().hex
    for _ in range(2):
        services.encounter_next_turn(
            encounter=e, user=gm, roller=FixedRoller([]), expected_version=before[2], request_id=rid
        )
    e.refresh_from_db()
    assert (e.round, e.turn) == expected  # the goblin's turn: not the round after, Pablo again
    assert e.version == before[2] + 1


def test_a_stale_version_is_refused_and_changes_nothing(fight):
    e, pablo, player, gm = fight["e"], fight["c_pablo"], fight["player"], fight["gm"]
    e.refresh_from_db()
    drawn = e.version
    services.encounter_next_turn(encounter=e, user=gm, roller=FixedRoller([]))
    services.encounter_next_turn(encounter=e, user=gm, roller=FixedRoller([]))  # Pablo's turn again, round 2
    before = snapshot(e)
    with pytest.raises(Conflict) as exc:
        services.encounter_act(
            encounter=e,
            user=player,
            combatant_id=pablo.pk,
            action=pc_action(fight, target=False),
            expected_version=drawn,
            request_id=uuid.uuid4().hex,
        )
    assert "moved on since your page was drawn" in exc.value.message
    assert snapshot(e) == before
    with pytest.raises(Conflict):
        services.encounter_next_turn(encounter=e, user=gm, expected_version=drawn)
    assert snapshot(e) == before


def test_a_bad_request_id_is_a_clear_400(fight):
    from config.errors import BadInput

    e = fight["e"]
    before = snapshot(e)
    with pytest.raises(BadInput):
        services.encounter_next_turn(encounter=e, user=fight["gm"], request_id="no spaces; or quotes'")
    assert snapshot(e) == before


# ------------------------------------------------------------------ the API


def test_the_api_answers_a_repeat_with_the_encounter_and_applies_it_once(fight):
    e, pablo = fight["e"], fight["c_pablo"]
    player = api_client(fight["player"])
    moves = _moves(e, pablo)
    body = {"combatant": pablo.pk, **pc_action(fight, target=False), "request_id": uuid.uuid4().hex}
    first = player.post(f"/api/v1/encounters/{e.pk}/actions/", body, format="json")
    second = player.post(f"/api/v1/encounters/{e.pk}/actions/", body, format="json")
    assert first.status_code == second.status_code == 200
    assert first.json()["version"] == second.json()["version"]
    assert _moves(e, pablo) == moves + 1


def test_the_api_refuses_a_stale_version_with_409_and_changes_nothing(fight):
    e, pablo = fight["e"], fight["c_pablo"]
    e.refresh_from_db()
    drawn = e.version
    services.encounter_next_turn(encounter=e, user=fight["gm"], roller=FixedRoller([]))
    services.encounter_next_turn(encounter=e, user=fight["gm"], roller=FixedRoller([]))
    before = snapshot(e)
    player = api_client(fight["player"])
    r = player.post(
        f"/api/v1/encounters/{e.pk}/actions/",
        {"combatant": pablo.pk, **pc_action(fight, target=False), "expected_version": drawn},
        format="json",
    )
    assert r.status_code == 409 and "moved on since your page was drawn" in r.json()["detail"]
    r = api_client(fight["gm"]).post(
        f"/api/v1/encounters/{e.pk}/next-turn/", {"expected_version": drawn}, format="json"
    )
    assert r.status_code == 409
    assert snapshot(e) == before


# ------------------------------------------------------------------ the page


def _form_fields(html: str, form_start: str) -> dict[str, str]:
    start = html.index(form_start)
    form = html[start : html.index("</form>", start)]
    return dict(re.findall(r'name="([a-z_]+)" value="([^"]*)"', form))


def _form_of(fight) -> str:
    """Where the page's form of Pablo's move (his action at no one) starts."""
    return f'data-action="{pc_action(fight, target=False)["action"]}" data-fighter="{fight["c_pablo"].pk}"'


def test_each_form_carries_the_version_and_a_fresh_request_id(fight):
    e = fight["e"]
    e.refresh_from_db()
    player = _page(fight["player"])
    for html in (
        player.get(reverse("encounter_detail", args=[e.pk])).content.decode(),
        player.get(reverse("encounter_panel", args=[e.pk]), HTTP_HX_REQUEST="true").content.decode(),
    ):
        move = _form_fields(html, _form_of(fight))
        nxt = _form_fields(html, 'id="encounter-next-turn-form"')
        assert move["expected_version"] == nxt["expected_version"] == str(e.version)
        ids = re.findall(r'name="request_id" value="([0-9a-f]{32})"', html)
        assert len(ids) >= 3 and len(set(ids)) == len(ids)  # one per form, none shared
        assert 'hx-disabled-elt="find button[type=submit]"' in html
        assert f'data-version="{e.version}"' in html


def test_a_double_posted_form_moves_once(fight):
    e, pablo = fight["e"], fight["c_pablo"]
    e.refresh_from_db()
    moves = _moves(e, pablo)
    player = _page(fight["player"])
    html = player.get(reverse("encounter_detail", args=[e.pk])).content.decode()
    fields = _form_fields(html, _form_of(fight))
    fields.pop("csrfmiddlewaretoken", None)
    rows = []
    answers = []
    for _ in range(2):
        answers.append(
            player.post(reverse("encounter_act", args=[e.pk]), fields, HTTP_HX_REQUEST="true").status_code
        )
        rows.append(_row(pablo))
    assert answers == [204, 204]
    assert _moves(e, pablo) == moves + 1
    assert rows[0] == rows[1]  # the second post changed nothing


def test_a_stale_page_is_refused_with_409_and_the_whole_page_as_it_is(fight):
    e, gm = fight["e"], fight["gm"]
    player = _page(fight["player"])
    html = player.get(reverse("encounter_detail", args=[e.pk])).content.decode()
    form_of = _form_of(fight)
    fields = _form_fields(html, form_of)
    services.encounter_next_turn(encounter=e, user=gm, roller=FixedRoller([]))
    services.encounter_next_turn(encounter=e, user=gm, roller=FixedRoller([]))  # round 2: Pablo again
    before = snapshot(e)
    r = player.post(reverse("encounter_act", args=[e.pk]), fields, HTTP_HX_REQUEST="true")
    assert r.status_code == 409
    body = r.content.decode()
    assert snapshot(e) == before
    # The whole page as it is now, out of band: status (round 2), order, log and this user's panel,
    # the refusal in the Move form that was used.
    e.refresh_from_db()
    assert 'id="encounter-status"' in body and f"Round {e.round}" in body
    assert 'id="encounter-combatants" class="card" hx-swap-oob="true"' in body
    assert 'id="encounter-log" class="card log" hx-swap-oob="true"' in body
    assert 'id="encounter-panel" class="card panel" hx-swap-oob="true"' in body
    move = body[body.index(form_of) :]
    move = move[: move.index("</form>")]
    assert "moved on since your page was drawn" in move
    assert 'hx-trigger="load"' not in body  # the panel is in the answer: no second fetch
    # A plain form post (no JavaScript) is refused the same way and says so on the page.
    r = player.post(reverse("encounter_act", args=[e.pk]), fields, follow=True)
    assert "moved on since your page was drawn" in r.content.decode()
    assert snapshot(e) == before


def test_a_stale_next_turn_is_refused_beside_the_button(fight):
    e, gm = fight["e"], fight["gm"]
    page = _page(gm)
    html = page.get(reverse("encounter_detail", args=[e.pk])).content.decode()
    fields = _form_fields(html, 'id="encounter-next-turn-form"')
    services.encounter_next_turn(encounter=e, user=gm, roller=FixedRoller([]))
    before = snapshot(e)
    r = page.post(reverse("encounter_next_turn", args=[e.pk]), fields, HTTP_HX_REQUEST="true")
    assert r.status_code == 409
    body = r.content.decode()
    assert snapshot(e) == before
    after_button = body[body.index('id="encounter-next-turn"') :]
    assert after_button.index('data-testid="panel-error"') < after_button.index("action-block")


def test_a_relative_action_is_a_tap_each_click_counts_and_turn_actions_stay_one_intent(fight):
    """#31: the spec's ``relative`` ("by N": the GM's harm, a pool lowered) decides. Its form is
    marked data-taps (static/js/taps.js), keeps its button enabled and carries no version; two posts
    of it (two taps: two request ids) are two changes, the second not refused as stale though the
    first moved the encounter on. Next turn and Pablo's move keep the version (#19)."""
    from combat.fight import fighter_actions
    from combat.selectors import encounter_fight

    e, gm, pablo = fight["e"], fight["gm"], fight["c_pablo"]
    f = encounter_fight(encounter=e)
    specs = fighter_actions(f, next(x for x in f.fighters if x.id == pablo.pk))
    relative = next((s for s in specs if s.relative and s.allowed), None)
    assert relative is not None, "the GM has no relative action on Pablo"
    assert relative.reaction and relative.gm
    page = _page(gm)
    html = page.get(reverse("encounter_detail", args=[e.pk])).content.decode()
    start = f'data-action="{relative.id}" data-fighter="{pablo.pk}"'
    head = html[html.rindex("<form", 0, html.index(start)) : html.index(">", html.index(start))]
    assert "data-taps" in head and 'hx-disabled-elt="unset"' in head
    fields = _form_fields(html, start)
    assert "expected_version" not in fields and re.fullmatch(r"[0-9a-f]{32}", fields["request_id"])
    nxt = _form_fields(html, 'id="encounter-next-turn-form"')
    assert nxt["expected_version"] == str(e.version)
    move_start = _form_of(fight)
    move_head = html[
        html.rindex("<form", 0, html.index(move_start)) : html.index(">", html.index(move_start))
    ]
    assert "data-taps" not in move_head
    assert _form_fields(html, move_start)["expected_version"] == str(e.version)

    fields.pop("csrfmiddlewaretoken", None)
    for p in relative.params:  # the form's defaults, as a tap sends them
        if p.get("kind") == "choice" and not fields.get(p["id"]) and p.get("options"):
            fields[p["id"]] = p["options"][0]["id"]
        elif p.get("kind") == "number" and not fields.get(p["id"]):
            fields[p["id"]] = str(p.get("default") or p.get("min") or 1)
    version = e.version
    answers = []
    for _ in range(2):
        fields["request_id"] = uuid.uuid4().hex
        r = page.post(reverse("encounter_act", args=[e.pk]), fields, HTTP_HX_REQUEST="true")
        answers.append((r.status_code, re.findall(r'panel-error">([^<]*)', r.content.decode())))
    e.refresh_from_db()
    assert answers == [(204, []), (204, [])]
    assert e.version == version + 2  # both taps applied
