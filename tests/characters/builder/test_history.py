"""Versions newest first, the diff of two versions, revert of a draft."""

from __future__ import annotations

import copy

import pytest
from django.urls import reverse

from characters.builder.services import character_create, character_save_draft
from characters.diff import build_diff
from characters.models import CharacterVersion
from rulesets.engine import registry
from rulesets.engine.pointer import resolve, set_at
from tests import vehicles
from tests.characters.conftest import make_table, parse_html
from tests.factories import api_client

pytestmark = pytest.mark.django_db


def test_build_diff_per_trait():
    old = {
        "format": "x",
        "attributes": {"strength": 1, "endurance": 2},
        "skills": ["melee"],
        "species": "humanoid",
    }
    new = {
        "format": "y",
        "attributes": {"strength": 3, "endurance": 2},
        "skills": ["melee", "blades"],
        "abilities": {"firearms": 2},
    }
    assert build_diff(old, new) == [
        {"path": "/attributes/strength", "label": "Attributes › Strength", "old": 1, "new": 3},
        {"path": "/skills", "label": "Skills", "old": ["melee"], "new": ["melee", "blades"]},
        {"path": "/species", "label": "Species", "old": "humanoid", "new": None},
        {"path": "/abilities/firearms", "label": "Abilities › Firearms", "old": None, "new": 2},
    ]
    assert build_diff(old, old) == []


def _two_numbers(ruleset) -> tuple[str, int, str, int] | None:
    """Two of the builder's numbers of a blank build, A and B, that raised by one (A, then B too)
    leave a valid build: (A, its value, B, its value), or None."""
    blank = ruleset.blank_build("Ira")
    bounded = [(p, top) for p, top in vehicles.number_traits(ruleset)]
    for i, (a, top_a) in enumerate(bounded):
        for b, top_b in bounded[i + 1 :]:
            va, vb = resolve(blank, a, None), resolve(blank, b, None)
            va, vb = va or 0, vb or 0
            if not (isinstance(va, int) and isinstance(vb, int)):
                continue
            if (top_a is not None and va >= top_a) or (top_b is not None and vb >= top_b):
                continue
            build = copy.deepcopy(blank)
            set_at(build, a, va + 1)
            set_at(build, b, vb + 1)
            if ruleset.validate(build).valid:
                return a, va, b, vb
    return None


SLUG = vehicles.first(_two_numbers, "a ruleset whose blank build takes two numbers and is valid")
A, A_WAS, B, B_WAS = _two_numbers(registry.get(SLUG))


@pytest.fixture
def history():
    table = make_table(SLUG)
    c = character_create(campaign=table.campaign, owner=table.player, name="Ira")
    build = copy.deepcopy(c.build)
    set_at(build, A, A_WAS + 1)
    c = character_save_draft(character_id=c.id, user=table.player, version=1, build=build)
    build = copy.deepcopy(c.build)
    set_at(build, B, B_WAS + 1)
    c = character_save_draft(character_id=c.id, user=table.player, version=2, build=build)
    return table, c


def test_versions_are_listed_newest_first_with_a_diff(client, history):
    table, c = history
    client.force_login(table.player)
    page = client.get(reverse("character_history", args=[c.id]))
    assert page.status_code == 200
    root = parse_html(page.content)
    rows = [r.attrs["id"] for r in root.find_all("tr", class_="version-row")]
    assert rows == ["version-3", "version-2", "version-1"]
    diff = root.by_id("history-diff")
    assert [tr.attrs["data-path"] for tr in diff.find_all("tr") if "data-path" in tr.attrs] == [B]
    page = client.get(reverse("character_history", args=[c.id]), {"a": 1, "b": 3})
    diff = parse_html(page.content).by_id("history-diff")
    changed = {tr.attrs["data-path"]: tr.text for tr in diff.find_all("tr") if "data-path" in tr.attrs}
    assert set(changed) == {A, B}
    assert str(A_WAS + 1) in changed[A] and (str(A_WAS) in changed[A] or "—" in changed[A])
    # The htmx partial answers only the diff.
    partial = client.get(
        reverse("character_history", args=[c.id]), {"a": 2, "b": 3, "partial": "diff"}, HTTP_HX_REQUEST="true"
    )
    assert partial.content.strip().startswith(b'<section id="history-diff"')


def test_revert_creates_a_new_version_with_the_old_build(client, history):
    table, c = history
    client.force_login(table.player)
    response = client.post(reverse("character_revert", args=[c.id]), {"to_version": "1"})
    assert response.status_code == 302
    c.refresh_from_db()
    assert c.version == 4
    assert resolve(c.build, B, 0) in (None, B_WAS) and resolve(c.build, A, 0) in (None, A_WAS)
    assert c.build == {
        **CharacterVersion.objects.get(character=c, number=1).build,
        "format": c.build["format"],
    }
    assert CharacterVersion.objects.get(character=c, number=4).reason == "revert to v1"
    assert CharacterVersion.objects.filter(character=c).count() == 4
    # The GM may not revert a player's draft.
    client.force_login(table.gm)
    assert client.post(reverse("character_revert", args=[c.id]), {"to_version": "2"}).status_code == 403


def test_history_api_is_newest_first(history):
    table, c = history
    versions = api_client(table.player).get(reverse("api-character-history", args=[c.id])).json()
    assert [v["number"] for v in versions] == [3, 2, 1]
    assert versions[0]["reason"] == "saved draft" and versions[-1]["reason"] == "created"
    assert versions[0]["author"] == table.player.username
    assert versions[0]["valid"] is True
