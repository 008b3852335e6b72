"""Ascendant's effects (issue #22): its conditions as named effects over the API, typed custom effects
stacked by the seed's rule, the encounter's odds and rolls, the party page's numbers and its success.

Every expected number here is worked out from the rules (seed 002 "Game Basics": of each type only the
highest bonus and the worst penalty apply, untyped penalties all apply; conditions.json's numbers),
from the request before the effect, and the odds by counting the d20's twenty faces."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from characters.builder.services import campaign_update_homebrew
from characters.models import Character
from characters.sheet.services import character_state_action
from combat import services as combat_services
from combat.fight import fighter_actions
from combat.models import Encounter, EncounterEvent
from combat.selectors import encounter_fight
from rulesets.engine import effects as fx
from rulesets.engine import registry
from rulesets.engine.dice import FixedRoller
from tests.characters.sheet.test_sheet_fixtures import BUILDS, character_at_table, make_character
from tests.factories import api_client, make_campaign
from tests.rulesets import combat_helpers
from tests.rulesets.ascendant.test_ascendant_combat import CULTIST, LIRAEL
from tests.rulesets.ascendant.test_feat_effects import IRON_GRIP

pytestmark = pytest.mark.django_db

RULESET = registry.get("ascendant")
CONTENT = Path(__file__).resolve().parents[3] / "rulesets/systems/ascendant/content"
CONDITIONS = {c["id"]: c for c in json.loads((CONTENT / "conditions.json").read_text())}
HOUSE = "Not in the rulebook's numbers: a house default."

# The sheet character (content/examples.json "sheet"): Ysolde, a human wizard of level 1 with
# Str 0, Dex 2, Con 2, Int 4, Wis 2, Cha 0, trained in Arcana, Society, Medicine, Nature and
# Academia Lore; Deflection 14.
SKILLS = {
    "athletics": "str",
    "acrobatics": "dex",
    "stealth": "dex",
    "thievery": "dex",
    "arcana": "int",
    "crafting": "int",
    "society": "int",
    "medicine": "wis",
    "nature": "wis",
    "religion": "wis",
    "survival": "wis",
    "deception": "cha",
    "diplomacy": "cha",
    "intimidation": "cha",
    "performance": "cha",
}
DEFENSE_OF = {"str": "stability", "dex": "evasion", "con": "resilience", "int": "clarity", "wis": "spirit"}
DEFENSE_OF["cha"] = "resolve"


def rolls_of(*attrs: str) -> set[str]:
    """The sheet's rolls that add one of ``attrs``: its skills, its defense, Perception for Wisdom
    and the Lores for Intelligence."""
    out = {f"skill.{s}" for s, a in SKILLS.items() if a in attrs}
    out |= {f"defense.{DEFENSE_OF[a]}" for a in attrs}
    if "wis" in attrs:
        out.add("perception")
    if "int" in attrs:
        out.add("lore.academia")
    return out


ALL = "all"
#: Each condition's numbers (conditions.json): (type, value per point or fixed, the rolls it reaches,
#: what it does to Deflection per point or fixed).
NUMBERS: dict[str, tuple[str | None, int, object, int]] = {
    "frightened": ("status", -1, ALL, -1),
    "sickened": ("status", -1, ALL, -1),
    "clumsy": ("status", -1, rolls_of("dex"), -1),
    "enfeebled": ("status", -1, rolls_of("str"), 0),
    "stupefied": ("status", -1, rolls_of("int", "wis", "cha"), 0),
    "drained": ("status", -1, rolls_of("con"), 0),
    "off_guard": ("circumstance", -2, set(), -2),
    "prone": ("circumstance", -2, set(), -2),
    "inspired": ("status", 1, ALL, 1),
    "wounded": (None, 0, set(), 0),
    "dying": (None, 0, set(), 0),
    "unconscious": ("status", -4, ALL, -4 - 2),  # and off-guard's −2 circumstance
}


def chances(modifier: int, threshold: int) -> dict[str, float]:
    """The four degrees by counting the faces (RULES.md 3: ±10 for criticals, then a natural 20 one
    degree better and a natural 1 one worse)."""
    order = ["critical_failure", "failure", "success", "critical_success"]
    counts = dict.fromkeys(order, 0)
    for face in range(1, 21):
        total = face + modifier
        step = (
            3 if total >= threshold + 10 else 2 if total >= threshold else 0 if total <= threshold - 10 else 1
        )
        step = min(3, step + 1) if face == 20 else max(0, step - 1) if face == 1 else step
        counts[order[step]] += 1
    return {k: v / 20 for k, v in counts.items()}


def rollables(client, character) -> dict[str, dict]:
    got = client.get(f"/api/v1/characters/{character.pk}/rollables/")
    assert got.status_code == 200
    return {r["id"]: r["request"] for r in got.json()}


def apply(client, character, body: dict) -> dict:
    made = client.post(f"/api/v1/characters/{character.pk}/effects/", body, format="json")
    assert made.status_code == 201, made.json()
    return made.json()


def remove(client, character, effect_id: str) -> None:
    assert client.delete(f"/api/v1/characters/{character.pk}/effects/{effect_id}/").status_code == 204


def rules_of(character):
    character = Character.objects.get(pk=character.pk)
    report = RULESET.validate(character.build)
    return character.build, report, character.state


def conditions_section(character) -> list[tuple[str, object]]:
    build, report, state = rules_of(character)
    section = next(s for s in RULESET.state_sections(build, report, state) if s["id"] == "conditions")
    return [(item["label"], item["value"]) for item in section["items"]]


def summary_of(character) -> dict[str, object]:
    build, report, state = rules_of(character)
    return {row["label"]: row["value"] for row in RULESET.summary(build, report, state)}


# ------------------------------------------------------------------------ the catalogue


def test_the_named_effects_are_the_conditions_each_native_and_honest_about_its_numbers():
    catalogue = RULESET.effect_catalogue()
    assert list(catalogue) == list(CONDITIONS) == list(NUMBERS)
    for cid, kind in catalogue.items():
        cond = CONDITIONS[cid]
        assert kind.name == cond["name"] and kind.native
        assert kind.valued == cond["valued"] and kind.ends_on_rest == cond["ends_on_rest"]
        add = {"action": "add_condition", "id": cid, **({"value": 3} if kind.valued else {})}
        assert kind.actions("apply", 3) == [add]
        assert kind.actions("remove", 3) == [{"action": "remove_condition", "id": cid}]
        # The seed names no condition; only Inspired's +1 status bonus is its own (an ally's song).
        assert kind.house_default == (cid != "inspired")
        assert kind.text.endswith(HOUSE) == (cid != "inspired")
        assert kind.text.startswith(cond["text"])
        if kind.valued:  # the changes are per point of value, so a valued condition's numbers must be
            assert all("per_value" in m for m in cond["modifiers"])
    assert catalogue["frightened"].max == 4 and catalogue["wounded"].max == 3


def test_each_effect_describes_its_conditions_numbers_on_the_sheets_rolls():
    catalogue = RULESET.effect_catalogue()
    frightened = catalogue["frightened"].changes_at(2)
    assert frightened == [{"target": "all", "type": "status", "value": -2}]
    clumsy = catalogue["clumsy"].changes_at(1)
    assert {c["target"] for c in clumsy} == rolls_of("dex") | {"deflection"}
    assert {(c["type"], c["value"]) for c in clumsy} == {("status", -1)}
    stupefied = {c["target"] for c in catalogue["stupefied"].changes}
    assert stupefied == (rolls_of("int", "wis", "cha") - {"lore.academia"}) | {"lore."}
    assert catalogue["off_guard"].changes == ({"target": "deflection", "type": "circumstance", "value": -2},)
    assert catalogue["unconscious"].changes == (
        {"target": "all", "type": "status", "value": -4},
        {"target": "deflection", "type": "circumstance", "value": -2},
    )
    assert catalogue["dying"].changes == () and catalogue["wounded"].changes == ()
    texts = [fx.describe_change(RULESET, c) for c in clumsy]
    assert texts == [
        "−1 status penalty to Acrobatics",
        "−1 status penalty to Stealth",
        "−1 status penalty to Thievery",
        "−1 status penalty to Evasion",
        "−1 status penalty to Deflection",
    ]
    assert fx.describe_change(RULESET, {"target": "lore.", "type": "status", "value": -1}) == (
        "−1 status penalty to every Lore roll"
    )


# ------------------------------------------------------------------------ named effects over the API


@pytest.mark.parametrize("cid", list(NUMBERS))
def test_a_named_effect_changes_the_rolls_as_its_condition_says_and_removing_it_restores_them(cid, table):
    character = character_at_table(table, "ascendant")
    gm = api_client(table["gm"])
    before = rollables(gm, character)
    deflection_before = summary_of(character)["Deflection"]
    assert deflection_before == 14
    kind, per, reaches, on_deflection = NUMBERS[cid]
    valued = CONDITIONS[cid]["valued"]
    value = 2 if valued else None
    factor = value if valued else 1

    body = apply(gm, character, {"effect": cid, **({"value": value} if valued else {})})
    name = CONDITIONS[cid]["name"] + (f" {value}" if valued else "")
    assert body["name"] == name and body["native"] is True and body["effect"] == cid
    assert body["value"] == value and body["house_default"] == (cid != "inspired")
    # Native: it is the condition in the play state, as the sheet's own section shows it.
    assert conditions_section(character) == [(CONDITIONS[cid]["name"], value)]

    after = rollables(gm, character)
    assert set(after) == set(before)
    for rid, request in before.items():
        assert "modifiers" not in request  # the sheet character's rolls count no typed modifier yet
        hit = reaches == ALL or rid in reaches  # type: ignore[operator]
        if not hit:
            assert after[rid] == request, rid
            continue
        change = per * factor
        assert after[rid] == {
            "modifier": request["modifier"] + change,
            "threshold": request["threshold"],
            "modifiers": [{"value": change, "type": kind, "source": name}],
        }, rid
        odds = gm.post("/api/v1/rulesets/ascendant/odds/", after[rid], format="json").json()
        assert odds == pytest.approx(chances(request["modifier"] + change, request["threshold"]))
    # Deflection is a threshold, not a roll: the party page's number shows it.
    assert summary_of(character)["Deflection"] == deflection_before + on_deflection * factor

    remove(gm, character, body["id"])
    assert rollables(gm, character) == before
    assert conditions_section(character) == []
    assert Character.objects.get(pk=character.pk).state.get("effects") is None
    assert summary_of(character)["Deflection"] == deflection_before


def test_a_valued_effect_scales_with_its_value(table):
    character = character_at_table(table, "ascendant")
    gm = api_client(table["gm"])
    before = rollables(gm, character)["skill.arcana"]
    assert before == {"modifier": 6, "threshold": 15}
    for value in (1, 3, 4):
        body = apply(gm, character, {"effect": "frightened", "value": value})
        assert body["changes"] == [{"target": "all", "type": "status", "value": -value}]
        arcana = rollables(gm, character)["skill.arcana"]
        assert arcana["modifier"] == 6 - value
        odds = gm.post("/api/v1/rulesets/ascendant/odds/", arcana, format="json").json()
        # d20 + 6 − value ≥ 15: the faces from 9 + value up succeed (a natural 20 always does).
        success = (20 - (9 + value) + 1) / 20
        assert RULESET.success(odds) == pytest.approx(success)
        remove(gm, character, body["id"])
    refused = gm.post(
        f"/api/v1/characters/{character.pk}/effects/", {"effect": "frightened", "value": 5}, format="json"
    )
    assert refused.status_code == 400 and refused.json()["errors"][0]["code"] == "effect.bad_value"
    assert "Frightened takes a value from 1 to 4." in refused.json()["detail"]


def test_a_condition_a_rest_or_the_sheet_takes_away_ends_its_effect(table):
    character = character_at_table(table, "ascendant")
    gm, player = api_client(table["gm"]), table["player"]
    body = apply(gm, character, {"effect": "frightened", "value": 2})
    # The sheet lowers frightened by 1: the effect follows it.
    character_state_action(
        character_id=character.pk,
        user=player,
        action={"action": "remove_condition", "id": "frightened", "value": 1},
    )
    (entry,) = Character.objects.get(pk=character.pk).state["effects"]
    assert (entry["id"], entry["name"], entry["value"]) == (body["id"], "Frightened 1", 1)
    assert entry["changes"] == [{"target": "all", "type": "status", "value": -1}]
    assert rollables(gm, character)["skill.arcana"]["modifier"] == 6 - 1
    # A night's rest ends frightened (it ends on rest), and so the effect; drained only drops by 1.
    apply(gm, character, {"effect": "drained", "value": 2})
    character_state_action(character_id=character.pk, user=player, action={"action": "rest"})
    state = Character.objects.get(pk=character.pk).state
    assert [(e["name"], e["value"]) for e in state["effects"]] == [("Drained 1", 1)]
    assert state["conditions"] == [{"id": "drained", "value": 1}]
    listed = api_client(player).get(f"/api/v1/characters/{character.pk}/effects/").json()
    assert [(e["name"], e["text"]) for e in listed] == [("Drained 1", ["−1 status penalty to Resilience"])]


# ------------------------------------------------------------------------ typed custom effects


def heroism(target: str = "skill.athletics", kind: str = "status", value: int = 2) -> dict:
    return {"name": "Heroism", "changes": [{"target": target, "type": kind, "value": value}]}


def test_a_typed_custom_effect_joins_the_modifiers_and_stacks_by_type(table):
    character = character_at_table(table, "ascendant")
    gm = api_client(table["gm"])
    plain = rollables(gm, character)
    athletics = plain["skill.athletics"]
    assert athletics == {"modifier": 0, "threshold": 15}

    hero = apply(gm, character, heroism())
    assert hero["changes"] == [{"target": "skill.athletics", "type": "status", "value": 2}]
    assert hero["text"] == ["+2 status bonus to Athletics"]
    now = rollables(gm, character)
    assert now["skill.athletics"] == {
        "modifier": 2,
        "threshold": 15,
        "modifiers": [{"type": "status", "value": 2, "source": "Heroism"}],
    }
    assert {k: v for k, v in now.items() if k != "skill.athletics"} == {
        k: v for k, v in plain.items() if k != "skill.athletics"
    }

    # Frightened 2's status penalty and Heroism's status bonus both apply (a bonus and a penalty):
    # they cancel on Athletics; every other roll keeps the −2.
    scared = apply(gm, character, {"effect": "frightened", "value": 2})
    now = rollables(gm, character)
    assert now["skill.athletics"]["modifier"] == 0 - 2 + 2
    assert now["skill.arcana"]["modifier"] == 6 - 2
    # Inspired's +1 status bonus is beaten by Heroism's +2 of the same type: +2, not +3.
    lifted = apply(gm, character, {"effect": "inspired"})
    now = rollables(gm, character)
    assert now["skill.athletics"]["modifier"] == 0 + 2 - 2
    assert now["skill.arcana"]["modifier"] == 6 + 1 - 2
    remove(gm, character, lifted["id"])
    # A second status penalty (−1 to every roll) is not the worst: frightened's −2 stays alone.
    bane = apply(
        gm, character, {"name": "Bane", "changes": [{"target": "all", "type": "status", "value": -1}]}
    )
    now = rollables(gm, character)
    assert now["skill.arcana"]["modifier"] == 6 - 2
    assert now["skill.athletics"]["modifier"] == 0 + 2 - 2
    # An untyped penalty always applies, and a circumstance bonus adds to a status one.
    remove(gm, character, bane["id"])
    cut = apply(
        gm, character, {"name": "Cut", "changes": [{"target": "all", "type": "untyped", "value": -1}]}
    )
    aid = apply(gm, character, heroism(kind="circumstance", value=1) | {"name": "Aid"})
    now = rollables(gm, character)
    assert now["skill.arcana"]["modifier"] == 6 - 2 - 1
    assert now["skill.athletics"]["modifier"] == 0 + 2 - 2 - 1 + 1
    assert now["skill.athletics"]["modifiers"][-3:] == [
        {"type": "status", "value": 2, "source": "Heroism"},
        {"type": None, "value": -1, "source": "Cut"},
        {"type": "circumstance", "value": 1, "source": "Aid"},
    ]
    odds = gm.post("/api/v1/rulesets/ascendant/odds/", now["skill.athletics"], format="json").json()
    assert odds == pytest.approx(chances(0, 15))
    for effect in (aid, cut, scared, hero):
        remove(gm, character, effect["id"])
    assert rollables(gm, character) == plain


def test_a_situational_bonus_on_the_roll_form_stacks_with_an_effects_bonus_of_its_type(table):
    character = character_at_table(table, "ascendant")
    gm = api_client(table["gm"])
    apply(gm, character, heroism())
    athletics = rollables(gm, character)["skill.athletics"]
    # A +1 status bonus on the form is beaten by Heroism's +2; a +3 one replaces it.
    assert RULESET.odds({**athletics, "status_bonus": 1}) == RULESET.odds({"modifier": 2, "threshold": 15})
    assert RULESET.odds({**athletics, "status_bonus": 3}) == RULESET.odds({"modifier": 3, "threshold": 15})


def test_a_typed_effect_stacks_with_a_feats_bonus_of_its_type(table):
    campaign = make_campaign(gm=table["gm"], ruleset="ascendant", players=[table["player"]])
    saved = campaign_update_homebrew(campaign=campaign, user=table["gm"], homebrew={"feats": [IRON_GRIP]})
    assert saved.saved, saved.issues
    build = copy.deepcopy(BUILDS["ascendant"])
    build["levels"]["1"]["feats"]["general"] = "iron_grip"
    character = make_character(ruleset="ascendant", owner=table["player"], campaign=campaign, build=build)
    gm = api_client(table["gm"])
    athletics = rollables(gm, character)["skill.athletics"]
    assert athletics["modifier"] == 2 and athletics["modifiers"] == [
        {"value": 2, "type": "circumstance", "source": "Iron Grip"}
    ]
    # A +1 circumstance bonus beside Iron Grip's +2: nothing changes but the list.
    small = apply(gm, character, heroism(kind="circumstance", value=1))
    assert rollables(gm, character)["skill.athletics"]["modifier"] == 2
    remove(gm, character, small["id"])
    big = apply(gm, character, heroism(kind="circumstance", value=3))
    assert rollables(gm, character)["skill.athletics"]["modifier"] == 3
    remove(gm, character, big["id"])
    assert rollables(gm, character)["skill.athletics"] == athletics


def test_an_effect_moves_no_threshold_and_names_only_the_rulesets_types(table):
    character = character_at_table(table, "ascendant")
    gm = api_client(table["gm"])
    url = f"/api/v1/characters/{character.pk}/effects/"
    cases = [
        ({"name": "Hard", "changes": [{"target": "all", "threshold": 2}]}, "effect.unknown_key"),
        ({"name": "Odd", "changes": [{"target": "all", "type": "luck", "value": 1}]}, "effect.unknown_key"),
        (
            {"name": "Odd", "changes": [{"target": "deflection", "type": "status", "value": 1}]},
            "effect.unknown_target",
        ),
    ]
    for body, code in cases:
        got = gm.post(url, body, format="json")
        assert got.status_code == 400 and got.json()["errors"][0]["code"] == code, got.json()
    assert "effects" not in Character.objects.get(pk=character.pk).state


# ------------------------------------------------------------------------ the encounter


class Table(combat_helpers.Table):
    rules = RULESET.combat()


BANE = {"name": "Bane", "changes": [{"target": "all", "type": "status", "value": -1}]}


def bane(value: int = -1, kind: str = "status") -> dict:
    entry, _ = fx.resolve(
        RULESET, {"name": "Bane", "changes": [{"target": "all", "type": kind, "value": value}]}, ["all"]
    )
    return entry


def fight(state: dict | None = None) -> Table:
    lirael = combat_helpers.make_fighter(RULESET, 1, LIRAEL, npc=False, state=state)
    t = Table(lirael, combat_helpers.make_fighter(RULESET, 2, CULTIST, npc=True))
    t.start([10, 14])  # Lirael 10 + 8 (+ her effects), the cultist 14 + 4
    t.turn(1)
    return t


def test_an_effect_on_every_roll_reaches_the_strikes_odds_and_its_roll():
    plain = fight()
    assert plain.spec(1, "strike").odds == {"modifier": 8, "threshold": 14}
    t = fight({"effects": [bane()]})
    spec = t.spec(1, "strike")
    assert spec.odds == {
        "modifier": 8 - 1,
        "threshold": 14,
        "modifiers": [{"type": "status", "value": -1, "source": "Bane"}],
    }
    assert t.spec(1, "cast_spell").odds["modifier"] == 9 - 1  # proficiency 4 + Charisma 5, −1
    assert t.by_id[1].combat["initiative"] == 10 + 8 - 1  # a Perception check: "all" reaches it
    assert t.by_id[1].combat["initiative_applied"][-1] == "Bane"
    # d20 7 + 7 = 14 meets Deflection 14: a hit that d20 7 + 8 would have made too; d20 6 + 7 misses.
    t.act(1, {"action": "strike", "target": 2, "weapon": "rapier"}, [6])
    assert "d20 6 +7 = 13 vs Deflection 14: failure — miss." in t.log[-1]
    plain.act(1, {"action": "strike", "target": 2, "weapon": "rapier"}, [6, 3])
    assert "d20 6 +8 = 14 vs Deflection 14: success — 3 damage" in plain.log[-1]
    # The second strike: the multiple attack penalty (untyped) and the effect both count, in the
    # odds shown and in the roll.
    spec = t.spec(1, "strike")
    assert spec.odds["modifier"] == 8 - 5 - 1
    assert spec.odds["modifiers"] == [
        {"value": -5, "type": None, "source": "multiple attack penalty (2nd attack)"},
        {"type": "status", "value": -1, "source": "Bane"},
    ]
    assert RULESET.odds(spec.odds) == pytest.approx(chances(2, 14))
    t.act(1, {"action": "strike", "target": 2, "weapon": "rapier"}, [12, 4])
    assert "d20 12 +2 = 14 vs Deflection 14: success — 4 damage" in t.log[-1]


def test_an_effect_stacks_with_the_fighters_conditions_in_the_fight():
    frightened = {"conditions": [{"id": "frightened", "value": 2}]}
    t = fight({**frightened, "effects": [bane()]})
    # Frightened 2 is the worse status penalty: Bane's −1 adds nothing.
    assert t.spec(1, "strike").odds["modifier"] == 8 - 2
    t = fight({**frightened, "effects": [bane(-1, "untyped")]})
    assert t.spec(1, "strike").odds["modifier"] == 8 - 2 - 1
    t = fight({**frightened, "effects": [bane(2, "status")]})
    assert t.spec(1, "strike").odds["modifier"] == 8 - 2 + 2


def test_an_effect_applied_over_the_api_reaches_the_encounters_form_and_roll(table):
    campaign = make_campaign(gm=table["gm"], ruleset="ascendant", players=[table["player"]])
    lirael = make_character(ruleset="ascendant", owner=table["player"], campaign=campaign, build=LIRAEL)
    gm = table["gm"]
    e = combat_services.encounter_create(campaign=campaign, user=gm, name="The crypt")
    pc = combat_services.encounter_add_combatant(encounter=e, user=gm, character=lirael)[0]
    npc = combat_services.encounter_add_combatant(encounter=e, user=gm, name="Cultist", build=CULTIST)[0]
    combat_services.encounter_start(encounter=e, user=gm, roller=FixedRoller([14, 10]))  # Lirael first

    def strike_odds() -> dict:
        running = encounter_fight(encounter=Encounter.objects.get(pk=e.pk))
        spec = next(s for s in fighter_actions(running, running.fighter_by_id[pc.pk]) if s.id == "strike")
        return spec.odds

    assert strike_odds() == {"modifier": 8, "threshold": 14}
    body = apply(api_client(gm), lirael, {**BANE, "duration": {"rounds": 1}, "encounter": e.pk})
    assert body["duration"]["rounds"] == 1
    shown = strike_odds()
    assert shown["modifier"] == 7 and shown["threshold"] == 14
    combat_services.encounter_act(
        encounter=e,
        user=table["player"],
        combatant_id=pc.pk,
        action={"action": "strike", "target": npc.pk, "weapon": "rapier"},
        roller=FixedRoller([6]),
    )
    event = EncounterEvent.objects.filter(encounter=e, kind="strike").latest("seq")
    assert event.data["odds"] == shown
    assert event.data["outcome"] == "failure" and "d20 6 +7 = 13 vs Deflection 14" in event.text
    assert event.data["modifiers"][-1] == "Bane"


# ------------------------------------------------------------------------ the party page


def test_the_summary_is_deflection_perception_and_the_defenses_with_conditions_applied(table):
    character = character_at_table(table, "ascendant")
    build, report, state = rules_of(character)
    assert RULESET.summary(build, report, state) == [
        {"label": "Level", "value": 1},
        {"label": "Deflection", "value": 14},
        {"label": "Spell threshold", "value": 16},
        {"label": "Perception", "value": "+4"},
        {"label": "Stability", "value": "+2"},
        {"label": "Evasion", "value": "+4"},
        {"label": "Resilience", "value": "+4"},
        {"label": "Clarity", "value": "+6"},
        {"label": "Spirit", "value": "+4"},
        {"label": "Resolve", "value": "+2"},
    ]
    gm = api_client(table["gm"])
    apply(gm, character, {"effect": "clumsy", "value": 3})
    apply(gm, character, heroism("perception"))
    apply(
        gm,
        character,
        {"name": "Doubt", "changes": [{"target": "defense.resolve", "type": "untyped", "value": -3}]},
    )
    got = summary_of(character)
    assert (got["Deflection"], got["Evasion"], got["Perception"], got["Resolve"]) == (
        14 - 3,
        "+1",
        "+6",
        "−1",
    )
    assert got["Stability"] == "+2"


def test_the_pools_are_stamina_and_hero_points_with_their_maxima(table):
    character = character_at_table(table, "ascendant")
    build, report, state = rules_of(character)
    assert RULESET.pools(build, report, state) == [
        {"id": "stamina", "label": "Stamina", "current": 17, "max": 17},
        {"id": "hero_points", "label": "Hero Points", "current": 1, "max": 3},
    ]
    for action in ({"action": "damage", "amount": 5}, {"action": "temp_stamina", "amount": 4}):
        character_state_action(character_id=character.pk, user=table["player"], action=action)
    build, report, state = rules_of(character)
    assert RULESET.pools(build, report, state) == [
        {"id": "stamina", "label": "Stamina", "current": 12, "max": 17},
        {"id": "temp_stamina", "label": "Temporary Stamina", "current": 4, "max": None},
        {"id": "hero_points", "label": "Hero Points", "current": 1, "max": 3},
    ]


@pytest.mark.parametrize(
    ("modifier", "threshold", "faces"),
    [
        (6, 15, 12),  # faces 9–20 reach 15
        (0, 25, 1),  # only a natural 20, a failure made a success
        (14, 15, 19),  # every face but a natural 1 (15 reaches 15, a natural 1 makes it a failure)
        (20, 5, 20),  # a natural 1 makes a critical success a success: still one
        (-30, 5, 0),  # a natural 20 lifts a critical failure to a failure only
    ],
)
def test_success_is_a_success_or_a_critical_success(modifier, threshold, faces):
    answer = RULESET.odds({"modifier": modifier, "threshold": threshold})
    assert RULESET.success(answer) == pytest.approx(faces / 20)
    assert RULESET.success(answer, 3) == RULESET.success(answer)  # no "need" in a d20 check
    assert RULESET.table_keys == ("threshold",) and not RULESET.success_needs


def test_a_party_roll_puts_the_tables_threshold_in_each_request():
    # The table's key is the threshold; the character's is the modifier (and what it counts).
    assert set(RULESET.effect_keys) == {"modifier"}
    with_dc = {
        **{"modifier": 6, "threshold": 15, "modifiers": [{"value": -1, "type": "status"}]},
        "threshold": 18,
    }
    assert RULESET.success(RULESET.odds(with_dc)) == pytest.approx((20 - 12 + 1) / 20)


def test_an_allys_song_helps_a_party_roll_unless_a_status_bonus_is_there_already():
    (song,) = RULESET.roll_aids()
    assert song["label"] == "An ally's song" and song["changes"] == [
        {"target": "all", "type": "status", "value": 1}
    ]
    plain = {"modifier": 4, "threshold": 15}
    helped = fx.apply_changes(RULESET, plain, song["changes"], "skill.medicine")
    assert helped["modifier"] == 5 and plain == {"modifier": 4, "threshold": 15}
    assert RULESET.success(RULESET.odds(helped)) == pytest.approx((20 - 10 + 1) / 20)  # faces 10–20
    inspired = {
        "modifier": 5,
        "threshold": 15,
        "modifiers": [{"value": 1, "type": "status", "source": "Inspired"}],
    }
    assert fx.apply_changes(RULESET, inspired, song["changes"], "skill.medicine")["modifier"] == 5
    frightened = {
        "modifier": 2,
        "threshold": 15,
        "modifiers": [{"value": -2, "type": "status", "source": "Frightened 2"}],
    }
    assert fx.apply_changes(RULESET, frightened, song["changes"], "skill.medicine")["modifier"] == 3
