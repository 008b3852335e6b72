"""The sheet laid out for play: tabs that are plain links, dots, hearts, named entries, stable ids
on every swapped control, swaps that keep the place, and articles from the word."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from characters.templatetags.sheet_rows import a_an, dots, tally
from characters.templatetags.sheet_tags import pretty
from rulesets.engine import registry
from tests.characters.sheet.test_sheet_fixtures import character_at_table


def test_dots_draw_a_rating_and_say_it():
    assert str(dots(3, 5)) == (
        '<span class="dots" role="img" aria-label="3 of 5">●●●<span class="dot-empty">○○</span></span>'
    )
    assert 'aria-label="7 of 7"' in str(dots(7, 5))  # a rating above the usual top is drawn whole
    assert "muted" in str(dots(None))


def test_a_tally_is_drawn_and_said_in_the_templates_words():
    assert str(tally(2, "♥,heart,hearts")) == (
        '<span class="tally" aria-hidden="true">♥♥</span><span class="visually-hidden">2 hearts</span>'
    )
    assert "1 heart<" in str(tally(1, "♥,heart,hearts"))
    assert (
        str(tally(3))
        == '<span class="tally" aria-hidden="true">●●●</span><span class="visually-hidden">3</span>'
    )


@pytest.mark.parametrize(
    ("word", "expected"),
    [
        ("Our Keep", "an Our Keep"),
        ("ancestry", "an ancestry"),
        ("Pelt", "a Pelt"),
        ("Marsh", "a Marsh"),
        ("archer", "an archer"),
        ("heritage", "a heritage"),
    ],
)
def test_the_article_comes_from_the_word(word, expected):
    assert a_an(word) == expected


def test_a_named_entry_reads_by_its_name():
    assert (
        pretty({"kind": "general", "name": "Rifles", "ability": "firearms"}) == "Rifles (General, Firearms)"
    )
    assert pretty({"name": "Forensics", "ability": "investigation"}) == "Forensics (Investigation)"
    assert pretty({"item": "longsword", "arms": ["right_arm"]}) == "Longsword (Right arm)"


@pytest.mark.django_db
@pytest.mark.parametrize("slug", registry.SYSTEMS)
def test_the_sheet_has_tabs_and_every_swapped_control_has_a_stable_id(client, table, slug):
    character = character_at_table(table, slug)
    client.force_login(table["player"])
    html = client.get(reverse("character_sheet", args=[character.pk])).content.decode()
    nav = re.search(r'<nav class="sheet-tabs[^>]*>(.*?)</nav>', html, re.DOTALL).group(1)
    assert re.findall(r'href="#([a-z-]+)"', nav)[:3] == ["sheet-derived", "sheet-state", "sheet-rollables"]
    # The play column (numbers, play state) comes before the dice in the page.
    assert (
        html.index('id="sheet-derived"') < html.index('id="sheet-state"') < html.index('id="sheet-rollables"')
    )
    grid = html[html.index('<div class="sheet-grid">') :]
    buttons = re.findall(r"<button[^>]*>", grid)
    swapped = [b for b in buttons if 'type="submit"' in b and "btn" in b]
    assert swapped and all(re.search(r'\bid="[^"]+"', b) for b in swapped), [
        b for b in swapped if "id=" not in b
    ][:3]
    assert len(set(re.findall(r'\bid="([^"]+)"', html))) == len(re.findall(r'\bid="([^"]+)"', html))
    steppers = re.findall(r'<button[^>]*class="[^"]*stepper[^"]*"[^>]*>', html)
    assert steppers and all(re.search(r'aria-label="(Lower|Raise) [^"]+ by 1"', b) for b in steppers)
    swaps = set(re.findall(r'hx-swap="([^"]+)"', html))
    # Every swap keeps the player's place: no scroll to the swapped part, no focus scroll.
    # (A roll's result goes *into* the box beside its button: innerHTML.)
    assert swaps == {"outerHTML show:none focus-scroll:false", "innerHTML show:none focus-scroll:false"}
    assert "<code>" not in html
