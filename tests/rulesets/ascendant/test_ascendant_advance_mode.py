"""Ascendant's advance mode is guided like the builder (issue 13): its creation steps, only the
options legal for the earlier picks, the options' rules text on the page; a level up shows the new
level's choices. (The points panel of any ruleset: tests/characters/advancement/test_advancement_guided.py.)"""

from __future__ import annotations

import pytest

from characters.advancement import services as svc
from tests.characters.advancement.test_advancement_pages import as_user, dict_of, t  # noqa: F401
from tests.characters.builder.test_builder_guided import options_of
from tests.characters.conftest import BuilderSession, form_fields, parse_html
from tests.characters.sheet.test_sheet_fixtures import make_character
from tests.factories import make_campaign, make_user

pytestmark = pytest.mark.django_db


def _advance(client, slug: str):
    gm, player = make_user(), make_user()
    campaign = make_campaign(gm=gm, ruleset=slug, players=[player])
    ch = make_character(ruleset=slug, owner=player, campaign=campaign)
    client.force_login(player)
    return ch, BuilderSession(client, f"/characters/{ch.pk}/advance/")


def test_advance_mode_follows_the_rulesets_creation_steps(client):
    _, s = _advance(client, "ascendant")
    steps = [n.attrs["data-step"] for n in s.root.find_all("li") if n.has_class("step-link")]
    assert steps == ["ancestry", "heritage", "background", "class", "boosts", "skills", "equipment", "levels"]
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


def test_ascendant_level_up_from_advance_mode_shows_the_new_levels_choices(t):  # noqa: F811
    campaign = make_campaign(gm=t["gm"], ruleset="ascendant", players=[t["player"]])
    ch = make_character(ruleset="ascendant", owner=t["player"], campaign=campaign)
    svc.award_create(gm=t["gm"], character_id=ch.pk, currency="xp", amount=1000, reason="Milestone")
    player = as_user(t["player"])
    root = parse_html(player.get(f"/characters/{ch.pk}/advance/").content)
    due = [n for n in root.iter() if n.attrs.get("data-testid") == "level-due"]
    assert due and "level 2" in due[0].text
    fields = [(k, v) for k, v in form_fields(root.by_id("builder-form")) if k != "/level"] + [("/level", "2")]
    frag = parse_html(
        player.post(f"/characters/{ch.pk}/advance/", dict_of(fields), HTTP_HX_REQUEST="true").content
    )
    names = {n.attrs.get("name") for n in frag.iter()}
    assert {"/levels/2/feats/class", "/levels/2/feats/skill", "/levels/2/attributes/str"} <= names
    codes = {n.attrs.get("data-code") for n in frag.by_id("builder-errors").iter()}
    assert "ascendant.level_choices_missing" in codes  # what is due, before it can be requested
    cost = [n for n in frag.iter() if n.attrs.get("data-testid") == "cost-xp"][0].text
    assert cost == "1000"
