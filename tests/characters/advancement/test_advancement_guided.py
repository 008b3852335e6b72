"""Advance mode is guided like the builder (issue 13): the ruleset's creation steps, only the
options legal for the earlier picks, the options' rules text on the page, and a points panel
that turns red and names the overspend."""

from __future__ import annotations

import pytest

from characters.advancement import services as svc
from tests.characters.builder.test_builder_guided import options_of
from tests.characters.conftest import BuilderSession, parse_html
from tests.characters.sheet.test_sheet_fixtures import make_character
from tests.factories import make_campaign, make_user

pytestmark = pytest.mark.django_db


def _advance(client, slug: str, *, award: int = 0):
    gm, player = make_user(), make_user()
    campaign = make_campaign(gm=gm, ruleset=slug, players=[player])
    ch = make_character(ruleset=slug, owner=player, campaign=campaign)
    if award:
        currency = {"pando": "cp", "ascendant": "xp"}[slug]
        svc.award_create(gm=gm, character_id=ch.pk, currency=currency, amount=award, reason="Milestone")
    client.force_login(player)
    return ch, BuilderSession(client, f"/characters/{ch.pk}/advance/")


def test_advance_mode_follows_the_rulesets_creation_steps(client):
    _, s = _advance(client, "ascendant")
    steps = [n.attrs["data-step"] for n in s.root.find_all("li") if n.has_class("step-link")]
    assert steps == ["ancestry", "heritage", "background", "class", "boosts", "skills", "levels"]
    assert s.root.by_id("step-heritage").by_id("sec-heritage") is not None


def test_advance_mode_offers_only_the_options_legal_for_the_earlier_picks(client):
    _, s = _advance(client, "ascendant")  # Ysolde: a human wizard
    assert set(options_of(s, "/heritage")) == {"", "skilled_human", "versatile_human"}
    assert "stonecunning" not in options_of(s, "/levels/1/feats/ancestry")  # a dwarf's feat
    assert "reach_spell" in options_of(s, "/levels/1/feats/class")  # a wizard's
    # Change the ancestry in the proposal: the heritages follow it on the next update.
    s.set("/ancestry", "dwarf").change()
    heritages = set(options_of(s, "/heritage"))
    assert {"rock_dwarf", "forge_dwarf"} <= heritages and "versatile_human" not in heritages
    assert "forge" in s.root.by_id("sec-heritage").text.lower()  # the options' rules text is shown


def test_the_points_panel_names_the_overspend_and_turns_red(client):
    _, s = _advance(client, "pando")  # Alex: 10 CP unspent
    assert s.figure("balance", "cp") == 10
    row = next(n for n in s.root.find_all("div") if n.attrs.get("data-currency") == "cp")
    assert not row.has_class("over")
    s.set("/attributes/acrobatics", "3").set("/attributes/strength", "3").change()
    assert s.figure("cost", "cp") == 12
    assert s.figure("after", "cp") == -2
    row = next(n for n in s.root.find_all("div") if n.attrs.get("data-currency") == "cp")
    assert row.has_class("over")
    over = next(iter(s.root.find_all(**{"data-testid": "over-cp"})))
    assert over.text.strip() == "2 CP over"


def test_with_the_points_to_spend_nothing_is_red(client):
    _, s = _advance(client, "pando", award=10)
    s.set("/attributes/acrobatics", "3").set("/attributes/strength", "3").change()
    assert (s.figure("cost", "cp"), s.figure("after", "cp")) == (12, 8)
    assert not list(s.root.find_all(**{"data-testid": "over-cp"}))
    page = parse_html(s.last.content)
    assert page.by_id("advance-body") is not None
