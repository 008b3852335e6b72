"""Review pages read right: who reviewed, list diffs as added/removed items, equipment as sentences."""

from __future__ import annotations

import copy
import re

import pytest

from characters.advancement import services as svc
from characters.diff import build_diff, describe
from tests.characters.sheet.test_sheet_fixtures import BUILDS, make_character
from tests.factories import make_campaign, make_user

pytestmark = pytest.mark.django_db

NAMES = {"longsword": "Longsword", "round_shield": "Round shield", "dagger": "Dagger"}


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_a_list_diff_names_only_what_was_added_and_removed():
    rows = build_diff({"skills": ["melee", "blades", "shields"]}, {"skills": ["melee", "blades", "fencing"]})
    words = describe(rows[0], {"fencing": "Fencing", "shields": "Shields"})
    assert (words["added"], words["removed"], words["text"]) == (
        ["Fencing"],
        ["Shields"],
        "adds Fencing; removes Shields",
    )


def test_equipment_changes_read_as_sentences():
    old = [
        {"item": "longsword", "state": "wielded", "arms": ["right_arm"]},
        {"item": "round_shield", "state": "carried"},
    ]
    new = [
        {"item": "longsword", "state": "wielded", "arms": ["right_arm"]},
        {"item": "round_shield", "state": "wielded", "arms": ["left_arm"]},
        {"item": "dagger", "state": "carried"},
    ]
    words = describe(build_diff({"equipment": old}, {"equipment": new})[0], NAMES)
    assert words["text"] == "adds Dagger, carried; changes Round shield, carried → wielded in the left arm"


def test_nested_objects_diff_leaf_by_leaf_in_words():
    rows = build_diff({"attributes": {"strength": 2}}, {"attributes": {"strength": 3, "presence": 1}})
    assert [(r["label"], describe(r)["text"]) for r in rows] == [
        ("Attributes › Strength", "2 → 3"),
        ("Attributes › Presence", "now 1"),
    ]


@pytest.fixture
def advancement(db):
    gm, player = make_user("gina"), make_user("pat")
    campaign = make_campaign(gm=gm, ruleset="pando", players=[player])
    character = make_character(ruleset="pando", owner=player, campaign=campaign)
    build = copy.deepcopy(BUILDS["pando"])
    build["skills"] = ["melee", "blades", "shields", "fencing"]
    build["equipment"].append({"item": "dagger", "state": "carried"})
    return svc.advancement_request(character_id=character.id, user=player, build=build), gm, player


def test_the_review_page_says_who_reviewed_and_what_changed(advancement, client):
    a, gm, player = advancement
    client.force_login(gm)
    pending = _text(client.get(f"/advancements/{a.id}/").content.decode())
    assert "requested by pat" in pending
    assert "Approved by" not in pending
    html = client.get(f"/advancements/{a.id}/").content.decode()
    skills = re.search(r'<tr data-path="/skills".*?</tr>', html, re.DOTALL).group(0)
    assert "Added: <ins>Fencing</ins>" in skills
    assert "<del>" not in skills  # nothing struck through: melee, blades and shields stay
    equipment = _text(re.search(r'<tr data-path="/equipment".*?</tr>', html, re.DOTALL).group(0))
    assert "Added: Dagger, carried" in equipment
    assert "{" not in equipment  # no raw JSON
    svc.advancement_approve(advancement_id=a.id, gm=gm, comment="Well trained")
    client.force_login(player)
    done = _text(client.get(f"/advancements/{a.id}/").content.decode())
    assert "Approved by gina" in done
    assert "Approved by pat" not in done
    assert "requested by pat" in done
