"""The builder, driven like a browser with htmx: each ruleset from nothing to a valid, submitted character."""

from __future__ import annotations

import pytest
from django.urls import reverse

from characters.models import Character
from tests.characters.conftest import BuilderSession, make_table

pytestmark = pytest.mark.django_db


def start(client, table, name):
    client.force_login(table.player)
    response = client.post(reverse("character_create", args=[table.campaign.id]), {"name": name})
    assert response.status_code == 302
    character = Character.objects.get(campaign=table.campaign, name=name)
    assert response["Location"] == reverse("character_builder", args=[character.id])
    return character, BuilderSession(client, response["Location"])


def submit(client, session, character):
    response = session.press("_save")
    assert response.status_code == 302
    character.refresh_from_db()
    assert character.report["valid"] is True, character.report["errors"]
    session = BuilderSession(client, session.url)
    assert not session.submit_disabled()
    response = session.press("_submit")
    assert response.status_code == 302
    assert response["Location"] == reverse("character_sheet", args=[character.id])
    character.refresh_from_db()
    assert character.status == Character.Status.ACTIVE
    return character


def test_pando_from_nothing_to_valid(client):
    table = make_table("pando")
    character, s = start(client, table, "Alex")
    assert (s.figure("spent", "cp"), s.figure("budget", "cp"), s.figure("remaining", "cp")) == (0, 40, 40)

    # Attribute steppers: coordination 1 → 3 costs 4 + 6; the stepper says what the next point costs.
    s.change(("_step", "/attributes/coordination|1"))
    assert s.figure("spent", "cp") == 4
    assert "next: +6 CP" in s.root.by_id("f-attributes-coordination-next").text
    s.change(("_step", "/attributes/coordination|1"))
    assert (s.figure("spent", "cp"), s.figure("remaining", "cp")) == (10, 30)
    s.set("/attributes/strength", "2").change()
    assert s.figure("spent", "cp") == 14

    # Blades without Melee: the prerequisite error appears beside Blades, the tree says why.
    s.check("/skills", "blades").change()
    assert "skill.prerequisite_missing" in s.issues_beside("n-skills-blades")
    assert "skill.prerequisite_missing" in s.summary_codes()
    assert s.submit_disabled()
    blades = s.root.by_id("n-skills-blades")
    assert "needs Melee" in blades.parent.text
    # Adding Melee clears it.
    s.check("/skills", "melee").change()
    assert s.issues_beside("n-skills-blades") == []
    assert "skill.prerequisite_missing" not in s.summary_codes()
    assert s.figure("spent", "cp") == 14 + 2 + 3
    s.check("/skills", "shields").change()
    assert s.figure("spent", "cp") == 22

    # Equipment: a sword in the right hand, a shield in the left.
    s.set("/equipment/-", "longsword").change()
    assert s.get("/equipment/0/item") == ["longsword"]
    state = s.root.by_id("f-equipment-0-state")
    # A sword is never worn; it is added wielded, in the first free arm (issue 13: natural state).
    assert [o.attrs["value"] for o in state.find_all("option")] == ["wielded", "carried"]
    assert s.get("/equipment/0/state") == ["wielded"]
    assert s.get("/equipment/0/arms") == ["right_arm"]
    assert s.root.by_id("f-attributes-strength").attrs.get("min") == "1"
    s.set("/equipment/0/state", "wielded").change()
    s.check("/equipment/0/arms", "right_arm").change()
    s.set("/equipment/-", "round_shield").change()
    assert (s.get("/equipment/1/state"), s.get("/equipment/1/arms")) == (
        ["wielded"],
        ["left_arm"],
    )  # the free arm
    s.uncheck("/equipment/1/arms", "left_arm").check("/equipment/1/arms", "right_arm").change()
    assert "equipment.arm_conflict" in s.summary_codes()
    s.uncheck("/equipment/1/arms", "right_arm").check("/equipment/1/arms", "left_arm").change()
    assert "equipment.arm_conflict" not in s.summary_codes()
    body = s.root.by_id("sec-body")
    assert "Longsword" in body.text and "Round shield" in body.text.replace("Round Shield", "Round shield")
    assert s.figure("remaining", "cp") == 18
    assert not s.submit_disabled()

    character = submit(client, s, character)
    # Every edit saves (as the browser's autosave does): the draft keeps the order they were learned in.
    assert character.build["skills"] == ["blades", "melee", "shields"]
    assert character.build["equipment"][0] == {"item": "longsword", "state": "wielded", "arms": ["right_arm"]}
    assert character.state  # the ruleset's initial play state


def test_paragon_from_nothing_to_valid(client):
    table = make_table("paragon")
    character, s = start(client, table, "Sela")
    assert s.figure("budget", "skill_points") == 15
    s.set("/power_level", "1").change()
    assert s.figure("budget", "force_points") == 15
    s.change(("_step", "/power_level|1"))
    assert s.figure("budget", "force_points") == 20  # power level 2: 20 force points
    for force, rank in {"fire": 1, "wind": 4, "thunder": 2, "light": 1, "shadow": 2}.items():
        s.set(f"/forces/{force}", rank)
    s.change()
    assert (s.figure("spent", "force_points"), s.figure("remaining", "force_points")) == (18, 2)

    # Triarmatura above melee + missile: refused beside the triarmatura rank, gone once they are trained.
    s.set("/skills/triarmatura", 3).change()
    assert "paragon.triarmatura_cap" in s.issues_beside("f-skills-triarmatura")
    assert s.submit_disabled()
    s.set("/skills/melee", 1).set("/skills/missile", 2).change()
    assert "paragon.triarmatura_cap" not in s.summary_codes()
    assert s.figure("spent", "skill_points") == 1 + 3 + 6
    s.set("/skills/travel", 1).set("/skills/intuition", 2).change()
    assert (s.figure("spent", "skill_points"), s.figure("remaining", "skill_points")) == (14, 1)
    # The next rank of intuition (2 → 3) costs 3 skill points.
    assert "+3 skill points" in s.root.by_id("f-skills-intuition-next").text
    character = submit(client, s, character)
    assert character.build["skills"] == {
        "melee": 1,
        "missile": 2,
        "triarmatura": 3,
        "travel": 1,
        "intuition": 2,
    }


def test_ascendant_from_nothing_to_valid(client):
    table = make_table("ascendant")
    character, s = start(client, table, "Ysolde")
    for key, value in {
        "/ancestry": "human",
        "/heritage": "skilled_human",
        "/background": "scholar",
        "/class": "wizard",
    }.items():
        s.set(key, value)
    s.change()
    for group, attrs in {
        "ancestry": ["int", "dex"],
        "background": ["int", "wis", "con"],
        "free": ["int", "dex", "con"],
    }.items():
        for a in attrs:
            s.check(f"/boosts/{group}", a)
    s.set("/boosts/class", "int").change()
    # Three free boosts where four are due: reported at the free boosts.
    free_codes = s.issues_beside("f-boosts-free")
    assert free_codes, s.summary_codes()
    s.check("/boosts/free", "wis").change()
    assert s.issues_beside("f-boosts-free") == []
    for skill in ("society", "medicine", "nature"):
        s.set(f"/skills/{skill}", "trained")
    s.change()
    # Level 1 asks for its feats: a warning while building, so submitting is refused until chosen.
    assert "ascendant.level_choices_missing" in s.summary_codes()
    assert s.submit_disabled()
    for kind, feat in {
        "ancestry": "natural_ambition",
        "class": "reach_spell",
        "archetype": "linguist_dedication",
        "general": "toughness",
    }.items():
        s.set(f"/levels/1/feats/{kind}", feat)
    s.change()
    assert "ascendant.level_choices_missing" not in s.summary_codes()
    assert (s.figure("spent", "xp"), s.figure("budget", "xp")) == (0, 0)
    # One more level needs 1000 XP this character does not have; the stepper says so.
    assert "+1000 XP" in s.root.by_id("f-level-next").text
    s.change(("_step", "/level|1"))
    assert "budget.exceeded" in s.summary_codes()
    assert s.figure("remaining", "xp") == -1000
    s.change(("_step", "/level|-1"))
    assert "budget.exceeded" not in s.summary_codes()
    character = submit(client, s, character)
    assert character.build["levels"]["1"]["feats"]["class"] == "reach_spell"


def test_ourdnd_from_nothing_to_valid(client):
    table = make_table("ourdnd")
    character, s = start(client, table, "Bram")
    assert (s.figure("spent", "points"), s.figure("budget", "points")) == (0, 6)
    s.set("/stats/str", 2).set("/stats/con", 2).set("/stats/cha", 2).change()
    assert s.figure("remaining", "points") == 0
    # A second heart costs 3 points it does not have.
    s.change(("_step", "/hearts|1"))
    assert "budget.exceeded" in s.summary_codes()
    assert (
        "budget.exceeded"
        in [li.attrs.get("data-code") for li in s.root.by_id("builder-costs").find_all("li")]
        or s.root.by_id("builder-costs").text.count("spends") == 1
    )
    assert s.figure("remaining", "points") == -3
    s.change(("_step", "/hearts|-1"))
    assert "budget.exceeded" not in s.summary_codes()
    s.set("/gear/-", "sword").change()
    s.set("/gear/-", "shield").change()
    assert s.get("/gear/1/item") == ["shield"]
    s.set("/gear/-", "sword").change()
    s.change(("_remove", "/gear/2"))
    assert s.get("/gear/2/item") == []
    character = submit(client, s, character)
    assert character.build["gear"] == [{"item": "sword"}, {"item": "shield"}]


MAELSTROM_SHEET = {
    "attributes": {
        "strength": 2,
        "precision": 3,
        "reflexes": 2,
        "perception": 3,
        "intelligence": 3,
        "wits": 3,
    },
    "abilities": {
        "investigation": 4,
        "computer_science": 3,
        "alertness": 2,
        "technology": 2,
        "medicine": 2,
        "science": 2,
        "stealth": 1,
        "streetwise": 1,
        "driving": 1,
        "firearms": 1,
        "humanities": 1,
    },
}


def test_maelstrom_from_a_paper_sheet_to_valid(client):
    from rulesets.engine import validate

    table = make_table("maelstrom")
    character, s = start(client, table, "Kestrel")
    for group, values in MAELSTROM_SHEET.items():
        for key, value in values.items():
            s.set(f"/{group}/{key}", value)
    s.change()
    # Eleven abilities: the creation needs twelve.
    assert "maelstrom.creation_abilities" in s.summary_codes()
    s.set("/abilities/statecraft", 1).change()
    assert "maelstrom.creation_abilities" not in s.summary_codes()
    s.change(("_step", "/willpower|1"))
    s.change(("_add", "/specialties"))
    s.set("/specialties/0/ability", "investigation").set("/specialties/0/name", "Forensics").change()
    build = {
        "ruleset": "maelstrom",
        "name": "Kestrel",
        "budget": {"xp": 30},
        **MAELSTROM_SHEET,
        "willpower": 4,
        "specialties": [{"ability": "investigation", "name": "Forensics"}],
    }
    build["abilities"] = {**build["abilities"], "statecraft": 1}
    expected = validate(build)
    assert expected.valid, expected.errors
    assert s.figure("spent", "xp") == expected.spent["xp"] > 0
    assert s.figure("remaining", "xp") == 30 - expected.spent["xp"]
    # The creation widget shows free (creation) dots and XP dots.
    creation = s.root.by_id("sec-creation")
    assert creation.find_all("span", class_="dot free") and creation.find_all("span", class_="dot xp")
    character = submit(client, s, character)
    assert character.build["willpower"] == 4
