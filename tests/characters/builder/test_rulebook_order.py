"""The rulebook's order is the order everywhere, on Postgres too (jsonb keeps keys by length, then
bytes: attributes came back Presence, Strength, Endurance…; stats CHA, CON, DEX…).
For every ruleset of the registry: the build read back from the database, the sheet's build block
and the API's build and report list the traits as the ruleset declares them."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.urls import reverse

from characters.models import Character
from rulesets.engine import registry
from rulesets.engine.pointer import resolve
from tests.characters.sheet.test_sheet_fixtures import BUILDS, make_character
from tests.factories import api_client

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.postgres_only("jsonb reorders a mapping's keys; SQLite's JSON keeps them as written"),
]


#: A build whose dicts are written against the rulebook's order (reversed), for each ruleset.
def _reversed(value, depth=0):
    if isinstance(value, dict):
        items = {k: _reversed(v, depth + 1) for k, v in value.items()}
        return dict(reversed(list(items.items()))) if depth else items
    if isinstance(value, list):
        return [_reversed(v, depth + 1) for v in value]
    return value


def _declared(ruleset) -> list[tuple[str, list[str]]]:
    """(path, the ids in the rulebook's order) of every traits section whose value is a mapping."""
    out = []
    for section in ruleset.traits(ruleset.context(None, None)).get("sections", []):
        entries = {"numbers": "fields", "ranks": "options", "mapping": "keys"}.get(section.get("kind"))
        if entries and section.get("path"):
            out.append((section["path"], [e["id"] for e in section.get(entries) or []]))
    return out


def _in_declared_order(keys: list[str], declared: list[str]) -> bool:
    known = [k for k in keys if k in declared]
    return known == sorted(known, key=declared.index)


@pytest.mark.parametrize("slug", registry.SYSTEMS)
def test_every_list_comes_back_in_the_rulebook_s_order(client, table, slug):
    assert connection.vendor == "postgresql", "the order is asserted on Postgres (DATABASE_URL)"
    ruleset = registry.get(slug)
    build = _reversed(BUILDS[slug])
    character = make_character(ruleset=slug, owner=table["player"], build=build)
    stored = Character.objects.get(pk=character.pk)
    checked = 0
    for path, declared in _declared(ruleset):
        value = resolve(stored.build, path, None)
        if not isinstance(value, dict) or len(value) < 2:
            continue
        checked += 1
        assert _in_declared_order(list(value), declared), (path, list(value))
    if not checked and not any(
        isinstance(resolve(build, path, None), dict) for path, _ in _declared(ruleset)
    ):
        pytest.skip(f"{ruleset.name}'s sheet fixture has no trait of several keys to order")
    assert checked >= 1, "no mapping trait checked"

    # The report's derived values as the rules compute them (a live validation of the same build).
    live = ruleset.validate(stored.build).as_dict()["derived"]
    for key, value in stored.report["derived"].items():
        if isinstance(value, dict) and isinstance(live.get(key), dict):
            assert list(value) == list(live[key]), (key, list(value), list(live[key]))

    # The sheet's build block lists them so.
    client.force_login(table["player"])
    page = client.get(reverse("character_sheet", args=[character.pk])).content.decode()
    block = re.search(r'<section class="card sheet-block" id="sheet-build".*?</section>', page, re.S).group(0)
    shown = re.findall(r'data-key="([^"]+)"', block)
    for _, declared in _declared(ruleset):
        assert _in_declared_order(shown, declared), shown

    # And the API: build and report.
    body = api_client(table["player"]).get(f"/api/v1/characters/{character.pk}/").json()
    for path, declared in _declared(ruleset):
        value = resolve(body["build"], path, None)
        if isinstance(value, dict):
            assert _in_declared_order(list(value), declared), (path, list(value))
    for key, value in body["report"]["derived"].items():
        if isinstance(value, dict) and isinstance(live.get(key), dict):
            assert list(value) == list(live[key]), key
