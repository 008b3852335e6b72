"""Pando drafts in the builder (moved from tests/characters/builder/test_builder_drafts.py): a skill
without its prerequisite is saved as an invalid draft and refused at submit, a number that does not
parse is reported, and the builder's post reads every kind of Pando's fields."""

from __future__ import annotations

import pytest
from django.urls import reverse

from characters.builder.forms import build_from_post
from characters.builder.services import character_create, character_save_draft, character_submit
from characters.models import Character, CharacterVersion
from characters.selectors import builder_traits
from config.api import RuleRefused
from tests.characters.conftest import BuilderSession, make_table

pytestmark = pytest.mark.django_db


def test_an_invalid_draft_is_saved_with_its_report(client):
    table = make_table("pando")
    character = character_create(campaign=table.campaign, owner=table.player, name="Pablo")
    client.force_login(table.player)
    s = BuilderSession(client, reverse("character_builder", args=[character.id]))
    s.check("/skills", "blades")
    response = s.press("_save")
    assert response.status_code == 302
    character.refresh_from_db()
    assert character.version == 2
    assert character.build["skills"] == ["blades"]
    assert character.report["valid"] is False
    assert [e["code"] for e in character.report["errors"]] == ["skill.prerequisite_missing"]
    assert CharacterVersion.objects.get(character=character, number=2).reason == "saved draft"
    # The saved page shows the problem and a disabled Submit with the reason.
    s = BuilderSession(client, s.url)
    assert s.submit_disabled()
    assert "Melee" in s.root.by_id("submit-reason").text


def test_submit_is_refused_while_invalid_and_accepted_when_valid():
    table = make_table("pando")
    character = character_create(campaign=table.campaign, owner=table.player, name="Pablo")
    character = character_save_draft(
        character_id=character.id,
        user=table.player,
        version=1,
        build={**character.build, "skills": ["blades"]},
    )
    with pytest.raises(RuleRefused) as refused:
        character_submit(character_id=character.id, user=table.player)
    assert refused.value.errors[0]["code"] == "skill.prerequisite_missing"
    assert Character.objects.get(id=character.id).status == "draft"
    character = character_save_draft(
        character_id=character.id,
        user=table.player,
        version=2,
        build={**character.build, "skills": ["melee", "blades"]},
    )
    character = character_submit(character_id=character.id, user=table.player)
    assert (character.status, character.version) == ("active", 4)
    assert character.state
    # An active character's build no longer changes here.
    with pytest.raises(RuleRefused):
        character_save_draft(character_id=character.id, user=table.player, version=4, build=character.build)


def test_a_value_that_does_not_parse_is_reported_not_raised(client):
    table = make_table("pando")
    character = character_create(campaign=table.campaign, owner=table.player, name="Pablo")
    client.force_login(table.player)
    s = BuilderSession(client, reverse("character_builder", args=[character.id]))
    s.set("/attributes/strength", "three").change()
    assert "build.malformed" in s.issues_beside(
        "f-attributes-strength"
    ) or "attribute.below_minimum" in s.issues_beside("f-attributes-strength")
    assert s.root.by_id("f-attributes-strength").attrs["value"] == "three"


def test_build_from_post_reads_every_kind_and_keeps_what_the_form_does_not_show():
    table = make_table("pando")
    _, _, traits = builder_traits(campaign=table.campaign)
    base = {
        "ruleset": "pando",
        "name": "A",
        "budget": {"cp": 40},
        "notes": "keep",
        "equipment": [{"item": "longsword", "state": "wielded", "arms": ["right_arm"], "notes": "heirloom"}],
    }
    post = {
        "_section": ["attributes", "skills", "equipment", "resistances"],
        "/attributes/strength": ["3"],
        "/attributes/endurance": ["x"],
        "/skills": ["melee", "blades"],
        "_count:/equipment": ["1"],
        "/equipment/0/item": ["longsword"],
        "/equipment/0/state": ["carried"],
        "_list": ["/equipment/0/arms"],
        "/equipment/-": ["dagger"],
        "/resistances/awareness": ["presence"],
    }
    build = build_from_post(traits, post, base)
    assert build["attributes"]["strength"] == 3
    assert build["attributes"]["endurance"] == "x"  # the rules report it
    assert build["skills"] == ["melee", "blades"]
    assert build["equipment"][0] == {"item": "longsword", "state": "carried", "arms": [], "notes": "heirloom"}
    assert build["equipment"][1] == {"item": "dagger", "state": "carried"}
    assert build["notes"] == "keep" and build["budget"] == {"cp": 40}
    assert build["resistances"] == {"awareness": "presence"}
