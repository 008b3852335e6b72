"""The play-state sections as cached fragments (issue #33 "Speed"): each section is kept by what it
shows (``_state_section.html``), so a change of play state draws again only the sections it changed,
and the version a pool's number box posts is put in after the cache (``{% version_late %}``): always
the version the page shows, never the one a kept section was first drawn at."""

from __future__ import annotations

import re

import pytest
from django.core.cache import caches
from django.template import Context, Template
from django.urls import reverse

from characters.sheet import services as play
from rulesets.engine import registry
from tests import vehicles
from tests.characters.sheet.test_play import act
from tests.characters.sheet.test_sheet_fixtures import character_at_table

pytestmark = pytest.mark.django_db

SLUG = vehicles.first(
    lambda rs: bool(vehicles.pools(rs)) and len(vehicles.play_sections(rs)) >= 2,
    "a ruleset whose sheet has pools and more play-state sections",
)


def _kept_sections() -> set[str]:
    return {key for key in caches["template_fragments"]._cache if "sheet-state-section" in key}


def _sections(character) -> dict:
    character.refresh_from_db()
    return {s["id"]: s for s in play.sheet_rules(character=character).sections}


def test_a_change_of_play_state_draws_again_only_the_sections_it_changed(client, table):
    caches["template_fragments"].clear()
    character = character_at_table(table, SLUG)
    client.force_login(table["player"])
    html = client.get(reverse("character_sheet", args=[character.pk])).content.decode()
    before, shown = _kept_sections(), _sections(character)
    assert len(before) == len(shown) == html.count('<div class="state-section state-kind-')
    act(client, character, **registry.get(SLUG).contract_data()["play_actions"][0])
    now = _sections(character)
    changed = {sid for sid, section in now.items() if section != shown.get(sid)}
    assert 1 <= len(changed) < len(now)
    assert len(_kept_sections() - before) == len(changed)  # one new kept section per section changed
    page = client.get(reverse("character_sheet", args=[character.pk])).content.decode()
    versions = re.findall(r'name="version" value="([^"]*)"', page)
    assert versions and set(versions) == {str(character.version)}  # every number box: the page's version
    assert "version-slot" not in page


def test_version_late_puts_the_version_in_every_form_field_and_nowhere_else():
    template = Template(
        "{% load sheet_tags %}{% version_late v %}"
        '<input type="hidden" name="version" value="{{ drawn_version }}">{{ typed }}'
        '<input type="hidden" name="version" value="{{ drawn_version }}">{% endversion_late %}'
    )
    typed = '<input type="hidden" name="version" value="version-slot">'  # text a player typed
    html = template.render(Context({"v": 41, "typed": typed}))
    assert html == (
        '<input type="hidden" name="version" value="41">'
        "&lt;input type=&quot;hidden&quot; name=&quot;version&quot; value=&quot;version-slot&quot;&gt;"
        '<input type="hidden" name="version" value="41">'
    )
