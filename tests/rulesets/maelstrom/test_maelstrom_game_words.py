"""Maelstrom's builder in its words (moved from tests/characters/test_game_words.py): the first step places the dots of the groups it has; the
submit bar says the first problem in short and links to the list."""

from __future__ import annotations

import html as html_lib
import re

import pytest

from tests.characters.test_game_words import _blank_builder

pytestmark = pytest.mark.django_db


def test_maelstroms_first_step_places_the_dots_of_the_groups_it_has():
    from django.test import Client

    html = _blank_builder(Client(), "maelstrom")
    first = re.search(
        r'<div class="builder-step[^"]*" id="step-([a-z]+)".*?<p class="step-text">(.*?)</p>', html, re.DOTALL
    )
    assert first.group(1) == "dots"
    text = html_lib.unescape(first.group(2))
    assert "social" not in text and "Rank" not in text
    assert "physical or mental" in text
    step = html[html.index('id="step-dots"') : html.index('id="step-xp"')]
    for control in ('name="/attributes/strength"', 'name="/abilities/alertness"', 'name="/willpower"'):
        assert control in step, control


def test_the_submit_bar_says_the_first_problem_in_short_and_links_to_the_list(client):
    html = _blank_builder(client, "maelstrom")
    reason = re.search(r'<p id="submit-reason" class="help">(.*?)</p>', html, re.DOTALL).group(1)
    words, link = reason.split(" <a ", 1)
    assert words.startswith("Fix 2 problems first: This sheet is not a legal Maelstrom creation")
    assert len(words) <= 110 and words.endswith("…")
    assert link == 'href="#builder-errors">All 2 problems</a>'
    errors = html[html.index('id="builder-errors"') :]
    # The whole message is there, ending on the fix the dots' + buttons make (issue #38: it offered
    # "or record the creation dots in a creation section", which no control does).
    assert "add 6 dots to physical attributes and add 4 dots to mental attributes.</" in errors
    assert "creation section" not in errors
