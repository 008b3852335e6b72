"""Paragon's Dynama powers (RULES.md W6), from the rulebook's words: "Dynama is expended to use the
magical powers and techniques of a paragon character"; "Ordinary people have only a little in the way
of Dynama and no means of using it"; "When a character's Dynama drops to zero, the character is
paralyzed"; "It slowly regenerates on it's own, but can be regenerated faster by various means, such
as by ritualistic sword-worship". The catalogue (house default), known from the force ranks held,
used from the sheet and the encounter page, through the API, the CLI and the builder."""

from __future__ import annotations

import copy
import json
import re

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from combat import services
from rulesets.engine import registry, validate
from rulesets.engine.dice import FixedRoller
from rulesets.engine.errors import StateError
from tests.characters.sheet.test_play import act
from tests.characters.sheet.test_sheet_fixtures import character_at_table, make_character
from tests.combat.helpers import event_texts, refused, snapshot
from tests.factories import make_campaign, make_user
from tests.rulesets.test_cli import rules

PARAGON = registry.get("paragon")
AREN = PARAGON.contract_data()["build"]  # fire 2, wind 3, thunder 2, light 2, shadow 0; power level 1
HESK = {
    "ruleset": "paragon",
    "name": "Old Hesk",
    "budget": {"skill_points": 18},
    "power_level": None,
    "forces": {"fire": 2, "wind": 1, "thunder": 2, "light": 2, "shadow": 0},
    "skills": {"cavalry": 3, "melee": 2},
}


def with_forces(build: dict, level: int, **forces: int) -> dict:
    out = copy.deepcopy(build)
    out["power_level"] = level
    out["forces"] = {**out["forces"], **forces}
    return out


# ------------------------------------------------------------------ the catalogue and who knows what


@pytest.mark.parametrize(
    ("build", "known"),
    [
        # Aren: Fire 2 opens Ember Blade (Fire 1); Wind 3 Gale Step (1) and Wall of Wind (3); Thunder 2
        # Thunder Voice (2), not Lightning Draw (4); Light 2 Inner Light (1), not Purifying Radiance (3).
        (AREN, {"ember_blade": 3, "gale_step": 2, "wall_of_wind": 6, "thunder_voice": 4, "inner_light": 2}),
        # Shadow 4 at power level 4 opens both shadow powers; Fire 3 Fire of Resolve.
        (
            with_forces(AREN, 4, shadow=4, fire=3, wind=0, thunder=0, light=0),
            {"ember_blade": 3, "fire_of_resolve": 6, "conceal_aura": 3, "dread_aura": 6},
        ),
        # "Ordinary people have only a little in the way of Dynama and no means of using it."
        ({**HESK}, {}),
    ],
)
def test_a_paragon_knows_every_power_of_a_force_held_at_its_rank(build, known):
    report = validate(build)
    assert report.derived["powers"] == known


def test_powers_are_known_not_bought_nothing_is_spent_on_them():
    report = validate(AREN)
    assert report.valid and report.spent["force_points"] == 3 + 6 + 3 + 3 + 0


def test_the_ruleset_door_lists_the_powers_catalogue(db):
    body = APIClient().get("/api/v1/rulesets/paragon/").json()
    powers = {p["id"]: p for p in body["catalogue"]["powers"]}
    assert len(powers) == 10
    assert powers["dread_aura"] == {
        **powers["dread_aura"],
        "force": "shadow",
        "rank": 4,
        "cost": 6,
        "roll": {"skill": "intuition", "tn": 12},
    }
    assert body["house_defaults"]["sword_worship_dice"] == 1


def test_the_cli_reports_the_powers_known(tmp_path):
    path = tmp_path / "aren.json"
    path.write_text(json.dumps(AREN))
    code, [report] = rules("validate", str(path))
    assert code == 0 and report["derived"]["powers"]["wall_of_wind"] == 6


def test_a_campaign_adds_its_own_power_and_a_malformed_one_is_named():
    good = {"id": "storm_crown", "name": "Storm Crown", "force": "thunder", "rank": 2, "cost": 5}
    bad = {"id": "bad", "name": "Bad", "force": "water", "rank": 9, "cost": -1, "roll": {"skill": "swim"}}
    report = PARAGON.validate(AREN, homebrew={"powers": [good, bad]})
    assert report.derived["powers"]["storm_crown"] == 5
    found = {(w.code, w.path) for w in report.warnings}
    assert {
        ("homebrew.malformed", "/powers/1/force"),
        ("homebrew.malformed", "/powers/1/rank"),
        ("homebrew.malformed", "/powers/1/cost"),
        ("homebrew.malformed", "/powers/1/roll"),
    } <= found
    assert "bad" not in report.derived["powers"]


# ------------------------------------------------------------------ using them (the play state)


def _state(build: dict, dynama: int | None = None) -> tuple[dict, object]:
    report = validate(build)
    st = PARAGON.initial_state(build, report)
    if dynama is not None:
        st["pools"]["dynama"] = dynama
    return st, report


def test_using_a_power_spends_its_dynama_and_rolls_its_check():
    st, report = _state(AREN)
    # Thunder Voice: Leadership vs TN 12; Aren's Thunder 2, Leadership 0: d12 9 + 2d6 (2, 3) = 14.
    new, text = PARAGON.state_action(
        st, {"action": "use_power", "power": "thunder_voice"}, AREN, report, FixedRoller([9, 2, 3])
    )
    assert new["pools"]["dynama"] == 26
    assert text == (
        "Aren of the Eastern Gate uses Thunder Voice: Dynama 30 → 26. "
        "Leadership: d12!+2d6: 9 | 2,3 = 14 vs TN 12: pass."
    )


def test_spending_the_last_dynama_paralyses():
    st, report = _state(AREN, dynama=2)
    new, text = PARAGON.state_action(st, {"action": "use_power", "power": "gale_step"}, AREN, report)
    assert new["pools"]["dynama"] == 0 and text.endswith("Paralysed: Dynama 0.")
    assert "paralysed" in PARAGON.state_effects(AREN, report, new)["conditions"]


@pytest.mark.parametrize(
    ("build", "dynama", "power", "code"),
    [
        (AREN, 3, "wall_of_wind", "paragon.not_enough_dynama"),
        (AREN, 0, "gale_step", "paragon.paralysed"),
        (AREN, 30, "dread_aura", "paragon.power_not_known"),
        (AREN, 30, "no_such_power", "paragon.power_unknown"),
        (AREN, 30, ["gale_step"], "paragon.power_unknown"),  # not an id: refused, not a TypeError
        (HESK, 3, "gale_step", "paragon.no_powers"),
    ],
)
def test_a_refused_power_says_why_and_spends_nothing(build, dynama, power, code):
    st, report = _state(build, dynama)
    with pytest.raises(StateError) as exc:
        PARAGON.state_action(st, {"action": "use_power", "power": power}, build, report)
    assert exc.value.code == code
    assert st["pools"]["dynama"] == dynama


def test_the_powers_section_says_which_power_the_dynama_cannot_pay_and_when_none():
    def statuses(dynama: int) -> dict[str, str]:
        st, report = _state(AREN, dynama)
        [section] = [s for s in PARAGON.state_sections(AREN, report, st) if s["id"] == "powers"]
        return {item["id"]: item["status"] for item in section["items"]}

    assert statuses(3)["gale_step"] == "" and statuses(3)["wall_of_wind"] == "not enough Dynama"
    assert set(statuses(0).values()) == {"paralysed (Dynama 0)"}  # 0 paralyses: no power at all


def test_ritual_sword_worship_regains_1d6_dynama_and_the_house_rule_sets_the_dice():
    st, report = _state(AREN, dynama=10)
    new, text = PARAGON.state_action(st, {"action": "sword_worship"}, AREN, report, FixedRoller([5]))
    assert new["pools"]["dynama"] == 15
    assert text == "Aren of the Eastern Gate worships the sword in ritual: 1d6 = 5, Dynama 10 → 15."
    ctx = PARAGON.context({"sword_worship_dice": 2}, None)
    new, _ = PARAGON.state_action(st, {"action": "sword_worship"}, AREN, report, FixedRoller([6, 6]), ctx=ctx)
    assert new["pools"]["dynama"] == 22
    full, _ = _state(AREN)
    with pytest.raises(StateError) as exc:
        PARAGON.state_action(full, {"action": "sword_worship"}, AREN, report)
    assert exc.value.code == "paragon.dynama_full"


def test_a_tired_paragon_rolls_a_power_with_a_force_die_fewer():
    st, report = _state(AREN)
    st["imposed"] = {"tired": True}
    new, text = PARAGON.state_action(
        st, {"action": "use_power", "power": "inner_light"}, AREN, report, FixedRoller([7, 4])
    )
    # Investigation with Light 2 and rank 0, tired: d12!+1d6.
    assert "Investigation: d12!+1d6: 7 | 4 = 11 vs TN 12: fail." in text


# ------------------------------------------------------------------ the sheet


@pytest.mark.django_db
def test_the_sheet_lists_the_powers_and_uses_one(client, table):
    character = character_at_table(table, "paragon", build=copy.deepcopy(AREN))
    client.force_login(table["player"])
    html = client.get(reverse("character_sheet", args=[character.pk])).content.decode()
    section = re.search(r'id="state-powers".*?</div>\s*</div>', html, re.S).group(0)
    assert "Wall of Wind (Wind 3, 6 Dynama)" in section and "dread_aura" not in section
    assert '<option value="gale_step">Gale Step (Wind 1, 2 Dynama)</option>' in section
    assert "Ritual sword-worship (regain 1d6 Dynama)" in section
    derived = re.search(r'class="table sheet-powers".*?</table>', html, re.S).group(0)
    assert '<th scope="row">Thunder Voice</th><td>4 Dynama</td>' in derived
    html = act(client, character, action="use_power", power="wall_of_wind")
    character.refresh_from_db()
    assert character.state["pools"]["dynama"] == 24
    assert "uses Wall of Wind: Dynama 30 → 24." in html
    html = act(client, character, action="use_power", power="dread_aura")
    assert "Dread Aura needs Shadow 4" in re.search(r'data-testid="state-error">([^<]*)<', html).group(1)
    character.refresh_from_db()
    assert character.state["pools"]["dynama"] == 24


@pytest.mark.django_db
def test_another_player_cannot_use_my_characters_power(client, table):
    character = character_at_table(table, "paragon", build=copy.deepcopy(AREN))
    client.force_login(table["other"])
    url = reverse("character_state_action", args=[character.pk])
    response = client.post(url, {"action": "use_power", "power": "gale_step"})
    assert response.status_code == 404
    character.refresh_from_db()
    assert character.state["pools"]["dynama"] == 30


@pytest.mark.django_db
def test_the_builder_shows_the_powers_a_build_opens(client, table):
    character = character_at_table(table, "paragon", build=copy.deepcopy(AREN), status="draft")
    client.force_login(table["player"])
    html = client.get(reverse("character_builder", args=[character.pk])).content.decode()
    derived = re.search(r'id="builder-derived".*?</section>', html, re.S).group(0)
    assert "Wall of Wind" in derived and "Thunder Voice" in derived and "dread_aura" not in derived
    assert "A paragon knows every power of a force held at the power&#x27;s rank or more" in html


# ------------------------------------------------------------------ the encounter


@pytest.fixture
def duel(db):
    gm, player = make_user("gm"), make_user("player")
    campaign = make_campaign(gm=gm, ruleset="paragon", players=[player])
    aren = make_character(ruleset="paragon", owner=player, campaign=campaign, build=copy.deepcopy(AREN))
    e = services.encounter_create(campaign=campaign, user=gm, name="The gatehouse")
    c_aren = services.encounter_add_combatant(encounter=e, user=gm, character=aren)[0]
    c_hesk = services.encounter_add_combatant(encounter=e, user=gm, name="Old Hesk", build=HESK)[0]
    # Initiative: Aren d12 8 + 2d6 4,6 + 4 = 22; Hesk 3 + 5,1 = 9.
    services.encounter_start(encounter=e, user=gm, roller=FixedRoller([8, 4, 6, 3, 5, 1]))
    return {"gm": gm, "player": player, "e": e, "aren": c_aren, "hesk": c_hesk, "character": aren}


def test_a_paragon_uses_a_power_in_the_fight_and_the_sheet_sees_the_dynama(duel):
    e, aren, player = duel["e"], duel["aren"], duel["player"]
    services.encounter_act(
        encounter=e,
        user=player,
        combatant_id=aren.pk,
        action={"action": "use_power", "power": "thunder_voice"},
        roller=FixedRoller([11, 1, 1]),
    )
    duel["character"].refresh_from_db()
    assert duel["character"].state["pools"]["dynama"] == 26
    assert (
        "Aren of the Eastern Gate uses Thunder Voice: Dynama 30 → 26. "
        "Leadership: d12!+2d6: 11 | 1,1 = 13 vs TN 12: pass." in event_texts(e)
    )


def test_an_ordinary_person_has_no_power_to_use_in_the_fight(duel):
    e, gm, hesk = duel["e"], duel["gm"], duel["hesk"]
    before = snapshot(e)
    refused(
        "paragon.no_powers",
        services.encounter_act,
        encounter=e,
        user=gm,
        combatant_id=hesk.pk,
        action={"action": "use_power", "power": "gale_step"},
    )
    assert snapshot(e) == before


def test_the_encounter_page_offers_the_powers_in_words(client, duel):
    client.force_login(duel["player"])
    html = client.get(reverse("encounter_detail", args=[duel["e"].pk])).content.decode()
    assert "Use a power" in html
    assert "Inner Light (Light 1, 2 Dynama)" in html
    assert "Dynama" in html and "30/30" in html


@pytest.mark.django_db
def test_the_play_api_offers_the_powers_and_spends_dynama(table):
    """GET/POST /api/v1/characters/<id>/actions/: the sheet's own Powers forms."""
    from tests.factories import api_client

    character = character_at_table(table, "paragon", build=copy.deepcopy(AREN))
    api = api_client(table["player"])
    offered = {a["action"]: a for a in api.get(f"/api/v1/characters/{character.pk}/actions/").json()}
    [field] = offered["use_power"]["fields"]
    assert field["name"] == "power"
    assert {"value": "gale_step", "label": "Gale Step (Wind 1, 2 Dynama)"} in field["choices"]
    assert offered["sword_worship"]["label"] == "Ritual sword-worship (regain 1d6 Dynama)"
    done = api.post(
        f"/api/v1/characters/{character.pk}/actions/",
        {"action": "use_power", "power": "gale_step"},
        format="json",
    )
    assert done.status_code == 200 and done.json()["state"]["pools"]["dynama"] == 28
    refused = api.post(
        f"/api/v1/characters/{character.pk}/actions/",
        {"action": "use_power", "power": "dread_aura"},
        format="json",
    )
    # A power this character does not know is not among the form's choices: a 400 naming the field.
    assert refused.status_code == 400 and refused.json()["errors"][0]["field"] == "power"
    short = api.post(
        f"/api/v1/characters/{character.pk}/actions/",
        {"action": "use_power", "power": "wall_of_wind"},
        format="json",
    )
    assert short.status_code == 200
    for _ in range(3):
        api.post(
            f"/api/v1/characters/{character.pk}/actions/",
            {"action": "use_power", "power": "wall_of_wind"},
            format="json",
        )
    # 28 − 6 − 18 = 4 Dynama: Wall of Wind (6) is refused by the rules, a 422 with the code.
    refused = api.post(
        f"/api/v1/characters/{character.pk}/actions/",
        {"action": "use_power", "power": "wall_of_wind"},
        format="json",
    )
    assert refused.status_code == 422 and refused.json()["errors"][0]["code"] == "paragon.not_enough_dynama"


def test_dynama_regenerates_by_the_hour_of_rest_as_a_plain_function_for_the_clock():
    """W6: "Regeneration HD: 1 per hour of rest on the clock (C1)"; the clock's hook calls it."""
    from rulesets.systems.paragon import powers

    st, report = _state(AREN, dynama=0)
    new, text = powers.regenerate(st, AREN, 30, 5, PARAGON.context())
    assert new["pools"]["dynama"] == 5 and st["pools"]["dynama"] == 0
    assert text == "Aren of the Eastern Gate: 5 hours of rest: Dynama 0 → 5. No longer paralysed."
    full, _ = powers.regenerate(
        {**st, "pools": {**st["pools"], "dynama": 28}}, AREN, 30, 24, PARAGON.context()
    )
    assert full["pools"]["dynama"] == 30
    same, none = powers.regenerate(
        {**st, "pools": {**st["pools"], "dynama": 30}}, AREN, 30, 3, PARAGON.context()
    )
    assert none is None and same["pools"]["dynama"] == 30
