"""Builds and fixtures shared by the sheet tests (test_sheet*.py, test_play*.py, test_dice*.py,
the sheet benchmark and the sheet browser test). Holds no tests of its own."""

from __future__ import annotations

import copy
from collections.abc import Iterator, Mapping

import pytest

from characters.models import Character
from rulesets.engine import registry
from tests.factories import make_campaign, make_user


class _SheetBuilds(Mapping[str, dict]):
    """Each registered ruleset's sheet character (``content/examples.json`` ``sheet``, see
    rulesets/engine/examples.py), read from the registry when asked: a ruleset registered by a test
    or a plugin has one too. Each lookup is a fresh copy."""

    def __getitem__(self, slug: str) -> dict:
        ruleset = registry.get(slug)
        if ruleset is None:
            raise KeyError(slug)
        return ruleset.contract_data()["sheet"]

    def __iter__(self) -> Iterator[str]:
        return iter(registry.SYSTEMS)

    def __len__(self) -> int:
        return len(registry.SYSTEMS)


#: Real, valid builds of each ruleset, by slug.
BUILDS: Mapping[str, dict] = _SheetBuilds()


def make_character(
    *,
    ruleset: str,
    owner=None,
    campaign=None,
    build: dict | None = None,
    status: str = Character.Status.ACTIVE,
) -> Character:
    """A character of a real build made through the builder's services: created (version 1) and,
    unless ``status`` is draft, submitted (version 2, a fresh play state from ``initial_state``)."""
    from characters.builder.services import character_create, character_submit

    build = copy.deepcopy(build or BUILDS[ruleset])
    owner = owner or make_user()
    campaign = campaign or make_campaign(ruleset=ruleset, players=[owner])
    character = character_create(campaign=campaign, owner=owner, build=build, budget=build["budget"])
    if status == Character.Status.ACTIVE:
        character = character_submit(character_id=character.pk, user=owner)
    return character


@pytest.fixture
def table(db):
    """A GM, a player, another player (of the same campaign) and a stranger."""
    gm, player, other, stranger = (
        make_user("gm"),
        make_user("player"),
        make_user("other"),
        make_user("stranger"),
    )
    return {"gm": gm, "player": player, "other": other, "stranger": stranger}


def character_at_table(table, ruleset: str, **kwargs) -> Character:
    campaign = make_campaign(gm=table["gm"], ruleset=ruleset, players=[table["player"], table["other"]])
    return make_character(ruleset=ruleset, owner=table["player"], campaign=campaign, **kwargs)
