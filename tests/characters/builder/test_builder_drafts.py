"""Drafts save whatever state the build is in; only valid builds submit; stale versions conflict.

On the registry's rulesets (tests/vehicles.py), the builds and their problems the rules' own. One
game's drafts (its fields and codes): tests/rulesets/<slug>/test_*_builder_drafts.py."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse

from characters.builder.services import character_create, character_save_draft, character_submit
from characters.models import Character, CharacterVersion, LedgerEntry
from config.api import Conflict, RuleRefused
from rulesets.engine import registry
from rulesets.engine.pointer import resolve
from tests import vehicles
from tests.characters.conftest import BuilderSession, make_table

pytestmark = pytest.mark.django_db

#: The registry's first ruleset with a single currency: a draft's budget is one number.
SLUG = vehicles.first(lambda rs: len(rs.currencies) == 1, "a ruleset with one currency")
#: A ruleset whose builder has a number with a maximum (a value above it the rules refuse).
BOUNDED = vehicles.first(
    lambda rs: any(top is not None for _, top in vehicles.number_traits(rs)),
    "a ruleset with a bounded number",
)


def test_a_new_character_starts_as_a_draft_with_the_campaign_budget_and_a_ledger_award():
    (cp,) = registry.get(SLUG).currencies
    table = make_table(SLUG, settings={"starting_budget": {cp: 55}})
    character = character_create(campaign=table.campaign, owner=table.player, name="Ira")
    assert (character.status, character.version, character.build["budget"]) == ("draft", 1, {cp: 55})
    award = LedgerEntry.objects.get(character=character)
    assert (award.kind, award.currency, award.amount, award.reason) == ("award", cp, 55, "starting budget")
    assert list(CharacterVersion.objects.filter(character=character).values_list("number", "reason")) == [
        (1, "created")
    ]


def test_an_invalid_draft_is_saved_with_its_report(client):
    ruleset = registry.get(BOUNDED)
    pointer, top = next((p, top) for p, top in vehicles.number_traits(ruleset) if top is not None)
    table = make_table(BOUNDED)
    character = character_create(campaign=table.campaign, owner=table.player, name="Pablo")
    client.force_login(table.player)
    s = BuilderSession(client, reverse("character_builder", args=[character.id]))
    s.set(pointer, str(top + 1))
    response = s.press("_save")
    assert response.status_code == 302
    character.refresh_from_db()
    assert character.version == 2
    assert resolve(character.build, pointer) == top + 1
    expected = ruleset.validate(character.build)
    assert character.report["valid"] is False
    assert [e["code"] for e in character.report["errors"]] == [i.code for i in expected.errors]
    assert pointer in [e["path"] for e in character.report["errors"]]  # the number above its maximum
    assert CharacterVersion.objects.get(character=character, number=2).reason == "saved draft"
    # The saved page shows the problem and a disabled Submit with the reason.
    s = BuilderSession(client, s.url)
    assert s.submit_disabled()
    assert expected.errors[0].message in s.root.by_id("submit-reason").text


def test_submit_is_refused_while_invalid_and_accepted_when_valid():
    ruleset = registry.get(SLUG)
    broken, valid = vehicles.broken(ruleset), vehicles.sheet_build(ruleset)
    table = make_table(SLUG, settings={"starting_budget": valid["budget"]})
    character = character_create(campaign=table.campaign, owner=table.player, name="Pablo")
    character = character_save_draft(
        character_id=character.id,
        user=table.player,
        version=1,
        build={**broken, "budget": character.build["budget"]},
    )
    with pytest.raises(RuleRefused) as refused:
        character_submit(character_id=character.id, user=table.player)
    assert refused.value.errors[0]["code"] == ruleset.validate(character.build).errors[0].code
    assert Character.objects.get(id=character.id).status == "draft"
    character = character_save_draft(
        character_id=character.id,
        user=table.player,
        version=2,
        build={**valid, "budget": character.build["budget"]},
    )
    character = character_submit(character_id=character.id, user=table.player)
    assert (character.status, character.version) == ("active", 4)
    assert character.state
    # An active character's build no longer changes here.
    with pytest.raises(RuleRefused):
        character_save_draft(character_id=character.id, user=table.player, version=4, build=character.build)


def test_a_stale_version_is_a_conflict(client):
    table = make_table(SLUG)
    character = character_create(campaign=table.campaign, owner=table.player, name="Pablo")
    client.force_login(table.player)
    s = BuilderSession(client, reverse("character_builder", args=[character.id]))  # the form holds version 1
    elsewhere = {**character.build, "name": "Pablo Elsewhere"}
    character_save_draft(character_id=character.id, user=table.player, version=1, build=elsewhere)
    with pytest.raises(Conflict):  # the service's (and the API's) rule: a stale version is refused
        character_save_draft(character_id=character.id, user=table.player, version=1, build=character.build)
    # The page merges what it changed since version 1; the name was changed there too: refused.
    response = s.set("/name", "Pablo the Second").press("_save")
    assert response.status_code == 409
    assert b"Name is Pablo Elsewhere there, Pablo the Second here" in response.content
    assert b'name="_rebase"' in response.content
    character.refresh_from_db()
    assert (character.name, character.version) == ("Pablo Elsewhere", 2)


def test_the_gm_may_not_save_a_players_build():
    table = make_table(SLUG)
    character = character_create(campaign=table.campaign, owner=table.player, name="Pablo")
    with pytest.raises(PermissionDenied):
        character_save_draft(character_id=character.id, user=table.gm, version=1, build=character.build)
    with pytest.raises(PermissionDenied):
        character_submit(character_id=character.id, user=table.gm)
