"""Builders shared by the party tests: a campaign with several characters in play, each ruleset's
numbers worked out independently of the party's code (the rules, the API's rollables and odds)."""

from __future__ import annotations

import copy
from typing import Any

from characters.models import Character, LedgerEntry
from rulesets.engine import registry
from rulesets.engine.fields import is_int
from tests.characters.sheet.test_sheet_fixtures import BUILDS, make_character
from tests.factories import api_client, make_campaign

NAMES = ["Ayla", "Bram", "Corin", "Dova", "Esk", "Fenn", "Gwyn", "Hale", "Ivo", "Jora"]


def make_party(table, slug: str, count: int = 2, *, campaign=None) -> tuple[Any, list[Character]]:
    """A campaign of ``slug`` run by the table's GM with ``count`` characters in play, named in
    order (Ayla, Bram, …), owned in turn by the table's player and the other player."""
    campaign = campaign or make_campaign(
        gm=table["gm"], ruleset=slug, players=[table["player"], table["other"]], name="The Long Road"
    )
    have = Character.objects.filter(campaign=campaign).count()
    characters = [
        add_character(table, campaign, slug, NAMES[(have + i) % len(NAMES)], i) for i in range(count)
    ]
    return campaign, characters


def add_character(table, campaign, slug: str, name: str, i: int = 0, *, build: dict | None = None, **kwargs):
    build = copy.deepcopy(build or BUILDS[slug])
    build["name"] = name
    owner = table["player"] if i % 2 == 0 else table["other"]
    return make_character(ruleset=slug, owner=owner, campaign=campaign, build=build, **kwargs)


def rollables(user, character) -> list[dict]:
    got = api_client(user).get(f"/api/v1/characters/{character.pk}/rollables/")
    assert got.status_code == 200, got.json()
    return got.json()


def odds_of(slug: str, request: dict) -> dict:
    """The odds of ``request`` through the rules service's own door (POST /rulesets/<slug>/odds/)."""
    got = api_client(None).post(f"/api/v1/rulesets/{slug}/odds/", request, format="json")
    assert got.status_code == 200, (request, got.json())
    return got.json()


def party_odds(user, campaign, body: dict):
    return api_client(user).post(f"/api/v1/campaigns/{campaign.pk}/party-odds/", body, format="json")


def number_key(ruleset, request: dict) -> str | None:
    """A number of the request an effect shifts and the table does not set."""
    for key in ruleset.effect_keys:
        if key not in ruleset.table_keys and is_int(request.get(key)):
            return key
    return None


def ledger_unspent(character) -> dict[str, int]:
    """Every ledger row of the character summed per currency (awards less spends)."""
    out: dict[str, int] = {}
    for row in LedgerEntry.objects.filter(character=character):
        out[row.currency] = out.get(row.currency, 0) + row.amount
    ruleset = registry.get(character.ruleset)
    return {c: out.get(c, 0) for c in ruleset.awardable_currencies}


def first_pool_with_room(character) -> dict | None:
    """The first pool of the character's play state with a maximum above 1: its label, path, max."""
    from characters.sheet.selectors import sheet_rules

    rules = sheet_rules(character=character)
    for section in rules.sections:
        if section.get("kind") != "pools":
            continue
        for item in section.get("items", []):
            if is_int(item.get("max")) and item["max"] > 1 and is_int(item.get("value")) and item.get("path"):
                return {
                    "label": item["label"],
                    "path": item["path"],
                    "max": item["max"],
                    "value": item["value"],
                }
    return None
