"""The words a player or GM reads are the game's: each review row's real cost, currencies as the ruleset
writes them, who did what in the ledger, no rules selectors, a control in every builder step; for
every registered ruleset. One game's words: tests/rulesets/<slug>/test_*_game_words.py."""

from __future__ import annotations

import copy
import html as html_lib
import re

import pytest
from django.template import Context, Template
from django.urls import reverse

from characters.builder.services import character_create
from characters.models import Advancement
from rulesets.engine import registry
from tests import vehicles
from tests.characters.sheet.test_sheet_fixtures import BUILDS, character_at_table, make_character
from tests.factories import api_client, make_campaign, make_user
from tests.vehicles import SLUGS

pytestmark = pytest.mark.django_db


def _text(html: str) -> str:
    return html_lib.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).replace(" ,", ","))


def _submitted_for_approval(slug: str, name: str = "Approve Me"):
    gm, player = make_user("gm"), make_user("player")
    campaign = make_campaign(gm=gm, ruleset=slug, players=[player], settings={"approve_new_characters": True})
    build = copy.deepcopy(BUILDS[slug])
    build["name"] = name
    draft = character_create(campaign=campaign, owner=player, build=build)
    response = api_client(player).post(f"/api/v1/characters/{draft.id}/submit/", {}, format="json")
    assert response.json()["status"] == "pending", response.content
    return gm, player, campaign, draft


def _rows(html: str) -> dict[str, tuple[str, str]]:
    """The review card's diff rows: {trait: (proposed, cost)}."""
    table = re.search(r'<table class="table[^"]* advancement-diff".*?</table>', html, re.DOTALL).group(0)
    rows = {}
    for row in re.findall(r"<tr data-path=.*?</tr>", table, re.DOTALL):
        head = _text(re.search(r"<th[^>]*>(.*?)</th>", row, re.DOTALL).group(1)).strip()
        new = _text(re.search(r'<td class="diff-new[^"]*"[^>]*>(.*?)</td>', row, re.DOTALL).group(1)).strip()
        cost = (
            re.search(r'<td class="num diff-cost"[^>]*>(.*?)(?:<ul|</td>)', row, re.DOTALL).group(1).strip()
        )
        rows[head] = (new, cost)
    return rows


@pytest.mark.parametrize("slug", [r.slug for r in registry.all_rulesets()])
def test_a_creation_reviews_rows_add_up_to_its_cost(slug):
    _submitted_for_approval(slug, name="Rowan")
    review = Advancement.objects.get(kind="creation")
    totals: dict[str, int] = {}
    for row in review.diff:
        for currency, amount in row["cost"].items():
            totals[currency] = totals.get(currency, 0) + amount
    assert {c: v for c, v in totals.items() if v} == review.cost
    assert bool(review.cost) == any(row["cost"] for row in review.diff)


def _ledger_rows(client, character) -> list[tuple[str, str, str]]:
    html = client.get(reverse("character_ledger", args=[character.pk])).content.decode()
    table = re.search(r'<table class="table[^"]* ledger-table">.*?</table>', html, re.DOTALL).group(0)
    out = []
    for row in re.findall(r"<tr class=.*?</tr>", table, re.DOTALL):
        cells = [_text(c).strip() for c in re.findall(r"<td[^>]*>(.*?)</td>", row, re.DOTALL)]
        out.append((cells[1], cells[2], cells[3]))
    return out


def test_a_character_submitted_without_review_is_submitted_by_its_player_in_the_ledger(client):
    table = {"gm": make_user("gm"), "player": make_user("player"), "other": make_user("other")}
    character = character_at_table(table, SLUGS[0])
    client.force_login(table["player"])
    assert [what for what, _, _ in _ledger_rows(client, character)] == [
        "Created by player: starting budget",
        "Submitted by player: initial build",
    ]


def _budget_words(ruleset) -> str | None:
    """A starting budget of one currency in the ruleset's words: "40 CP", "6 points"."""
    budget = ruleset.context().settings.get("starting_budget") or {}
    if len(budget) != 1:
        return None
    ((currency, amount),) = budget.items()
    return f"{amount} {ruleset.currency_label(currency, amount)}"


@pytest.mark.parametrize("slug", vehicles.every(_budget_words))
def test_the_new_character_page_names_the_budget_in_the_rulesets_words(client, slug):
    words = _budget_words(registry.get(slug))
    table = {"gm": make_user("gm"), "player": make_user("player"), "other": make_user("other")}
    character = character_at_table(table, slug)
    client.force_login(table["player"])
    html = client.get(reverse("character_create", args=[character.campaign.pk])).content.decode()
    said = re.search(r"It starts as a draft with ([^.]*)\.", _text(html)).group(1)
    # The budget the builder will show: the campaign's starting points, and what the rules give every
    # new character besides (a second currency such as a game's gold pieces), each "<amount> <the
    # currency's name>" in the game's words.
    parts = said.split(", ")
    assert words in parts, (said, words)
    assert all(re.fullmatch(r"\d+ [A-Za-z][A-Za-z ]*", part) for part in parts), said


def test_a_derived_entry_reads_by_its_label_and_sentence_never_by_a_selector():
    situational = {
        "value": 1,
        "type": "circumstance",
        "source": "Virtuoso Performer",
        "when": "with your chosen instrument",
        "selector": "skill.performance",
        "text": "+1 circumstance from Virtuoso Performer with your chosen instrument",
    }
    breakdown = {
        "skill.performance": {
            "label": "Performance",
            "base": 4,
            "total": 5,
            "modifiers": [],
            "applied": [{"text": "+1 status from Inspire"}],
            "ignored": [],
        }
    }
    derived = {"situational": [situational], "breakdown": breakdown}
    html = Template("{% load builder_tags %}{% derived_list derived %}").render(Context({"derived": derived}))
    text = _text(html)
    assert text.strip() == (
        "Situational Performance: +1 circumstance from Virtuoso Performer with your chosen instrument "
        "Breakdown Performance 4 → 5: +1 status from Inspire"
    )


# ------------------------------------------------------------------ the builder's steps


def _blank_builder(client, slug: str) -> str:
    from characters.models import Character

    table = {"gm": make_user("gm"), "player": make_user("player"), "other": make_user("other")}
    character = character_at_table(table, slug)
    client.force_login(table["player"])
    client.post(reverse("character_create", args=[character.campaign.pk]), {"name": "Blank"})
    draft = Character.objects.get(name="Blank")
    return client.get(reverse("character_builder", args=[draft.pk])).content.decode()


_CONTROL = re.compile(r"<(?:select|textarea|button)\b|<input\b(?![^>]*type=\"hidden\")")


@pytest.mark.parametrize("slug", [r.slug for r in registry.all_rulesets()])
def test_every_builder_step_has_a_control_that_does_what_it_says(client, slug):
    """A step that says "✓ complete" has something the player picks or changes in it."""
    table = {"gm": make_user("gm"), "player": make_user("player"), "other": make_user("other")}
    character = character_at_table(table, slug)
    draft = make_character(ruleset=slug, owner=table["player"], campaign=character.campaign, status="draft")
    client.force_login(table["player"])
    html = client.get(reverse("character_builder", args=[draft.pk])).content.decode()
    html = html[: html.index('<aside class="builder-panels"')]  # the steps, not the Submit bar
    steps = [
        s
        for s in re.split(r'(?=<div class="builder-step\b)', html)
        if s.startswith('<div class="builder-step')
    ]
    assert steps
    for step in steps:
        step_id = re.search(r'data-step="([^"]+)"', step).group(1)
        assert _CONTROL.search(step), f"{slug}: step {step_id} has nothing to pick or change"
