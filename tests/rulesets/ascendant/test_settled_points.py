"""Ascendant: the points RULES.md settled (issue #15), as tables from the seed's words.

Seed 002 is quoted above each table; RULES.md section 3 says how the gaps are settled.
"""

from __future__ import annotations

import copy

import pytest

from rulesets.engine import validate
from tests.rulesets.ascendant.test_ascendant import WIZARD, codes, fighter_at, wizard


def _lores(lores, **changes):
    return validate(wizard(lores=lores, **changes), phase="approval")


# ------------------------------------------------------------------- lores
# Seed: "[Your background] gives you ... training in one skill and in one Lore"; "You are also trained
# in a number of Lores equal to your Intelligence". RULES.md: the background's own lore may be listed in
# `lores` or left out; either way it uses no slot and is not a duplicate.

# The scholar's lore is Academia; the wizard has Intelligence +4, so four slots.
FOUR = ["warfare", "heraldry", "engineering", "astronomy"]


@pytest.mark.parametrize(
    ("lores", "errors", "held"),
    [
        (FOUR, set(), ["academia", *FOUR]),
        (["academia", *FOUR], set(), ["academia", *FOUR]),  # listed first: no slot used
        ([*FOUR, "academia"], set(), ["academia", *FOUR]),  # listed last: still no slot used
        (["warfare", "academia", "heraldry", "engineering", "astronomy"], set(), ["academia", *FOUR]),
        # the background's lore twice is a duplicate (once is not)
        (["academia", *FOUR, "academia"], {("skill.duplicate", "/lores/5")}, ["academia", *FOUR]),
        # a fifth chosen lore is over Intelligence +4, whether or not Academia is listed
        (
            ["academia", *FOUR, "sailing"],
            {("ascendant.too_many_lores", "/lores/5")},
            ["academia", *FOUR, "sailing"],
        ),
        ([*FOUR, "sailing"], {("ascendant.too_many_lores", "/lores/4")}, ["academia", *FOUR, "sailing"]),
        # another lore twice stays a duplicate
        (
            ["warfare", "warfare", "heraldry", "engineering"],
            {("skill.duplicate", "/lores/1")},
            ["academia", "warfare", "heraldry", "engineering"],
        ),
    ],
)
def test_the_backgrounds_lore_may_be_listed_and_uses_no_slot(lores, errors, held):
    report = _lores(lores)
    assert codes(report) == errors
    assert report.derived["lores"] == held
    assert report.derived["lore_slots"] == 4


def test_listing_the_backgrounds_lore_does_not_fill_a_slot_that_is_left_empty():
    report = validate(wizard(lores=["academia", "warfare", "heraldry", "engineering"]))
    assert ("ascendant.lore_slots_unused", "/lores") in codes(report, "warnings")
    assert "3 are chosen" in next(
        w.message for w in report.warnings if w.code == "ascendant.lore_slots_unused"
    )


# ------------------------------------------------------------------ boosts
# Seed: "Your ancestry raises some of them, your background adds its 3 points, and your class adds 1 to
# its Key Attribute ... Then you raise four different attributes by 1 each"; "At every even level, you
# gain 3 points to add to your attributes ... +1 to three different attributes, +2 to one and +1 to
# another, or all +3 to a single attribute." RULES.md: boosts not yet chosen are
# level_choices_missing; too many or repeated are boost_invalid.

MISSING = "ascendant.level_choices_missing"
INVALID = "ascendant.boost_invalid"


def _boosts(**groups):
    return {**WIZARD["boosts"], **groups}


@pytest.mark.parametrize(
    ("boosts", "issue", "kind"),
    [
        # not yet chosen: a warning while building, an error on approval
        (_boosts(free=["int", "dex", "con"]), (MISSING, "/boosts/free"), "missing"),
        (_boosts(free=[]), (MISSING, "/boosts/free"), "missing"),
        (_boosts(background=["int", "wis"]), (MISSING, "/boosts/background"), "missing"),
        (_boosts(ancestry=["int"]), (MISSING, "/boosts/ancestry"), "missing"),  # a human boosts two
        (_boosts(**{"class": None}), (MISSING, "/boosts/class"), "missing"),
        # too many
        (_boosts(free=["int", "dex", "con", "wis", "cha"]), (INVALID, "/boosts/free/4"), "invalid"),
        (_boosts(background=["int", "wis", "con", "dex"]), (INVALID, "/boosts/background/3"), "invalid"),
        (_boosts(ancestry=["int", "dex", "str"]), (INVALID, "/boosts/ancestry/2"), "invalid"),
        # repeated where different ones are required
        (_boosts(free=["int", "dex", "con", "int"]), (INVALID, "/boosts/free/3"), "invalid"),
        (_boosts(background=["int", "int", "con"]), (INVALID, "/boosts/background/1"), "invalid"),
        (_boosts(ancestry=["dex", "dex"]), (INVALID, "/boosts/ancestry/1"), "invalid"),
    ],
)
def test_creation_boosts_missing_are_choices_and_extra_or_repeated_are_invalid(boosts, issue, kind):
    draft = validate(wizard(boosts=boosts))
    approval = validate(wizard(boosts=boosts), phase="approval")
    if kind == "missing":
        assert issue in codes(draft, "warnings") and issue not in codes(draft)
        assert issue in codes(approval)
    else:
        assert issue in codes(draft) and issue in codes(approval)


def _points(points):
    doc = fighter_at(2)
    doc["levels"]["2"]["attributes"] = points
    return doc


@pytest.mark.parametrize(
    ("points", "issue", "kind"),
    [
        ({"str": 1, "dex": 1, "con": 1}, None, "ok"),  # +1 to three different attributes
        ({"dex": 2, "con": 1}, None, "ok"),  # +2 to one and +1 to another
        ({"wis": 3}, None, "ok"),  # all +3 to a single attribute (wis +1 → +4, at the cap)
        ({"dex": 1, "con": 1}, (MISSING, "/levels/2/attributes"), "missing"),
        ({}, (MISSING, "/levels/2/attributes"), "missing"),
        (None, (MISSING, "/levels/2/attributes"), "missing"),
        ({"str": 1, "dex": 2, "con": 1}, (INVALID, "/levels/2/attributes"), "invalid"),
        ({"dex": 4}, (INVALID, "/levels/2/attributes"), "invalid"),
    ],
)
def test_level_points_are_three_fewer_are_missing_more_are_invalid(points, issue, kind):
    doc = _points(points)
    draft, approval = validate(doc), validate(doc, phase="approval")
    if kind == "ok":
        assert approval.as_dict()["errors"] == []
    elif kind == "missing":
        assert issue in codes(draft, "warnings") and issue in codes(approval)
    else:
        assert issue in codes(draft) and issue in codes(approval)


def test_points_at_an_odd_level_are_invalid():
    doc = fighter_at(3)
    doc["levels"]["3"]["attributes"] = {"dex": 1}
    assert (INVALID, "/levels/3/attributes") in codes(validate(doc))


# ---------------------------------------------------------------- trading down
# Seed: "When you gain a feat slot, you may instead take two feats of the rank immediately below. You may
# not keep trading downward: two Expert feats do not become four Trained ones." RULES.md: each exactly one
# rank below the highest rank the slot allows; a slot traded at most once; otherwise
# ascendant.feat_trade_invalid on the slot.

TRADE = "ascendant.feat_trade_invalid"


def _slot(level, kind, value, **house):
    doc = fighter_at(level)
    if level == 9 and "untrained_improvisation" in value:  # free it (taken at 7) for the level-9 pair
        doc["levels"]["7"]["feats"]["general"] = "canny_acumen"
    doc["levels"][str(level)]["feats"][kind] = value
    return validate(doc, phase="approval", settings=house or None)


@pytest.mark.parametrize(
    ("level", "kind", "value", "errors"),
    [
        # level 3: Class Proficiency Expert, so two Trained general feats
        (3, "general", ["diehard", "incredible_initiative"], set()),
        (3, "general", ["toughness_again_is_unknown"], {("skill.unknown", "/levels/3/feats/general/0")}),
        # one Expert feat in a pair: not one rank below
        (3, "general", ["diehard", "untrained_improvisation"], {(TRADE, "/levels/3/feats/general")}),
        # three feats: never more than two
        (3, "general", ["diehard", "incredible_initiative", "fleet"], {(TRADE, "/levels/3/feats/general")}),
        # a traded feat traded again
        (3, "general", ["diehard", ["incredible_initiative", "fleet"]], {(TRADE, "/levels/3/feats/general")}),
        # level 1: Trained is the lowest rank, nothing lies below it
        (1, "general", ["fleet", "diehard"], {(TRADE, "/levels/1/feats/general")}),
        # level 9 (Master at 7): the pair must be Expert, Trained is two ranks below
        (9, "general", ["ancestral_paragon", "untrained_improvisation"], set()),
        (9, "general", ["ancestral_paragon", "canny_acumen"], {(TRADE, "/levels/9/feats/general")}),
        (9, "general", ["canny_acumen", "ancestral_paragon"], {(TRADE, "/levels/9/feats/general")}),
        # a Master feat in a Master slot's pair is not below at all
        (9, "general", ["robust_health", "ancestral_paragon"], {(TRADE, "/levels/9/feats/general")}),
    ],
)
def test_a_slot_trades_for_two_feats_exactly_one_rank_below_once(level, kind, value, errors):
    report = _slot(level, kind, value)
    assert {c for c in codes(report) if c[0] != "ascendant.feat_prerequisite_missing"} == errors


def test_a_pair_exactly_one_rank_below_is_two_feats_held():
    report = _slot(9, "general", ["ancestral_paragon", "untrained_improvisation"])
    assert report.valid, report.errors
    assert {"ancestral_paragon", "untrained_improvisation"} <= set(report.derived["feats"])


def test_one_error_per_traded_slot_even_when_both_feats_are_wrong():
    report = _slot(3, "general", ["untrained_improvisation", "ancestral_paragon"])
    assert [e.code for e in report.errors].count(TRADE) == 1


def test_a_campaign_without_trading_down_refuses_it_on_the_slot():
    report = _slot(3, "general", ["diehard", "incredible_initiative"], trade_down=False)
    assert codes(report) == {(TRADE, "/levels/3/feats/general")}
    assert "does not trade" in report.errors[0].message


# ------------------------------------------------------------ out-of-range values
# RULES.md (common): "A value outside its range is still priced by the ruleset's cost formula, so that
# spent, remaining and budget.exceeded stay true beside the range error." Ascendant prices its level:
# (level − 1) × 1000 XP.


@pytest.mark.parametrize(
    ("level", "budget", "spent", "exceeded"),
    [
        (21, 20000, 20000, False),
        (21, 19000, 20000, True),
        (25, 0, 24000, True),
        (10**12, 0, (10**12 - 1) * 1000, True),  # closed form: a huge level costs no more work
    ],
)
def test_a_level_above_twenty_is_still_priced(level, budget, spent, exceeded):
    doc = copy.deepcopy(WIZARD)
    doc.update(level=level, budget={"xp": budget})
    report = validate(doc).as_dict()
    assert ("build.malformed", "/level") in {(e["code"], e["path"]) for e in report["errors"]}
    assert report["spent"]["xp"] == spent
    assert report["remaining"]["xp"] == budget - spent
    assert any(e["code"] == "budget.exceeded" for e in report["errors"]) is exceeded


@pytest.mark.parametrize("level", ["3", 2.5, None, True])
def test_a_level_that_is_not_a_whole_number_is_left_out_of_spent(level):
    doc = wizard(level=level)
    report = validate(doc).as_dict()
    assert report["spent"]["xp"] == 0
    assert ("build.malformed", "/level") in {(e["code"], e["path"]) for e in report["errors"]}


def test_the_house_xp_per_level_prices_an_out_of_range_level_too():
    report = validate(wizard(level=22, budget={"xp": 0}), settings={"xp_per_level": 500}).as_dict()
    assert report["spent"]["xp"] == 21 * 500
