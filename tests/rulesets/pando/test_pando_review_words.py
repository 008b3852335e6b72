"""The review page of a Pando advancement reads right (moved from
tests/characters/advancement/test_review_words.py): who reviewed, the skills added as items, the
gear added as a sentence."""

from __future__ import annotations

import copy
import re

import pytest

from characters.advancement import services as svc
from tests.characters.sheet.test_sheet_fixtures import BUILDS, make_character
from tests.factories import make_campaign, make_user

pytestmark = pytest.mark.django_db


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


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
