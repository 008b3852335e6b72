"""Ascendant's builder in words (issue #38, point 2): a step is "✓ complete" only when it can be
done, the messages name attributes and offer only the ancestry's heritages, the Derived panel shows
names (no "Id … / Label … / Source …", no lower-case feat ids), and a budget with nothing in it
says so instead of "spent 0 of 0". Each page read as text, tags stripped."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse

from characters.builder.services import character_create, character_save_draft
from tests.characters.conftest import make_table

pytestmark = pytest.mark.django_db

DEMO = Path(__file__).resolve().parents[3] / "rulesets" / "systems" / "ascendant" / "demo"


def _text(body: str) -> str:
    body = re.sub(r"<(script|style)\b.*?</\1>", " ", body, flags=re.S)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", body)).split())


def _builder(build: dict | None = None) -> tuple[str, str]:
    """The builder of a new draft (``build`` saved into it): its text and its HTML."""
    table = make_table("ascendant")
    c = character_create(campaign=table.campaign, owner=table.player, name="Words")
    if build is not None:
        c = character_save_draft(character_id=c.id, user=table.player, version=c.version, build=build)
    client = Client()
    client.force_login(table.player)
    body = client.get(reverse("character_builder", args=[c.id])).content.decode()
    return _text(body), body


def _step_status(body: str) -> dict[str, str]:
    nav = body.split('<ol class="step-nav">', 1)[1].split("</ol>", 1)[0]
    return {
        step: _text(status)
        for step, status in re.findall(
            r'data-step="([^"]+)".*?<span class="step-status">(.*?)</span></li>', nav
        )
    }


def test_a_new_drafts_steps_wait_for_the_ones_they_need():
    text, body = _builder()
    status = _step_status(body)
    assert status["heritage"] == "after 1. Ancestry", status
    assert status["skills"].startswith("after ") and "Class" in status["skills"], status
    assert status["boosts"].startswith("after "), status
    assert not any(
        s == "✓ complete" for k, s in status.items() if k in ("heritage", "skills", "boosts", "levels")
    )


def test_messages_name_the_attributes_and_only_the_ancestrys_heritages():
    build = {
        "format": "sheetforge.build/1",
        "ruleset": "ascendant",
        "name": "Words",
        "ancestry": "human",
        "class": "fighter",
        "level": 1,
    }
    text, _ = _builder(build)
    assert "Boost your class's key attribute: Strength or Dexterity." in text, text
    heritage = re.search(r"Choose a heritage: one of ([^.]*)\.", text)
    assert heritage is not None, text
    assert "Dwarf" not in heritage.group(1) and "Elf" not in heritage.group(1), heritage.group(1)
    assert "str or dex" not in text


def test_the_derived_panel_and_the_budget_speak_words():
    build = json.loads((DEMO / sorted(p.name for p in DEMO.glob("*.json"))[0]).read_text())
    text, body = _builder(build)
    derived = _text(body.split('id="builder-derived"', 1)[1].split("</section>", 1)[0])
    assert not re.search(r"\bId\b|\bLabel\b|\bSource\b", derived), derived
    assert not re.search(r"\b[a-z]+_[a-z_]+\b", derived), derived
    lores = re.search(r"Lores ([A-Za-z, ]+)", derived)
    if lores:
        assert lores.group(1)[0].isupper(), derived
    assert "spent 0 of 0" not in text


def test_a_draft_without_a_level_is_still_checked_choice_by_choice():
    """Issue #38: the rules stopped at an unreadable level, so every step but the last read "✓ complete"."""
    from rulesets.engine import registry

    build = {"format": "sheetforge.build/1", "ruleset": "ascendant", "name": "Levelless"}
    report = registry.get("ascendant").validate(build).as_dict()
    assert [(e["code"], e["path"]) for e in report["errors"]] == [("build.malformed", "/level")]
    missing = {w["path"] for w in report["warnings"]}
    assert {"/ancestry", "/background", "/class", "/boosts/free", "/levels/1/feats/class"} <= missing
    # Nothing is read from a level it lacks: no level, proficiency or skill ranks derived, no XP spent.
    assert not {"level", "proficiency_bonus", "skill_ranks"} & set(report["derived"]), report["derived"]
    assert report["spent"]["xp"] == 0
    _, body = _builder(build)
    status = _step_status(body)
    assert "✓ complete" not in status.values(), status
    assert status["ancestry"] == "to do" and status["equipment"].startswith("after "), status
