"""Advance mode's points panel (issue 13): it turns red and names the overspend, on the first
registered ruleset whose sheet character can advance past what it has unspent (the advance is
tests/vehicles.py's, set through the builder's own fields; its price the rules'). A game's guided
steps and options: tests/rulesets/<slug>/test_*_advance_mode.py."""

from __future__ import annotations

import pytest

from characters.advancement import services as svc
from rulesets.engine import registry
from tests import vehicles
from tests.characters.conftest import BuilderSession, parse_html
from tests.characters.sheet.test_sheet_fixtures import make_character
from tests.factories import make_campaign, make_user

pytestmark = pytest.mark.django_db


def _unspent(ruleset) -> dict[str, int]:
    build = vehicles.sheet_build(ruleset)
    return dict(ruleset.validate(build).remaining)


def _over(ruleset):
    """An advance of the sheet character by its builder's numbers that costs more than it has unspent."""
    found = vehicles.advance(ruleset)
    if found is None or not all(isinstance(v, int) for v in found.changes.values()):
        return None
    return vehicles.advance_beyond(ruleset, _unspent(ruleset).get(found.currency, 0))


SLUG = vehicles.first(_over, "a ruleset whose sheet character can advance past its unspent points")
RULESET = registry.get(SLUG)
OVER = _over(RULESET)
CP = OVER.currency
UNSPENT = _unspent(RULESET)[CP]


def _advance(client, slug: str, *, award: int = 0):
    gm, player = make_user(), make_user()
    campaign = make_campaign(gm=gm, ruleset=slug, players=[player])
    ch = make_character(ruleset=slug, owner=player, campaign=campaign)
    if award:
        svc.award_create(gm=gm, character_id=ch.pk, currency=CP, amount=award, reason="Milestone")
    client.force_login(player)
    return ch, BuilderSession(client, f"/characters/{ch.pk}/advance/")


def _set_all(s: BuilderSession) -> None:
    for pointer, value in OVER.changes.items():
        s.set(pointer, str(value))
    s.change()


def test_the_points_panel_names_the_overspend_and_turns_red(client):
    _, s = _advance(client, SLUG)
    assert s.figure("balance", CP) == UNSPENT
    row = next(n for n in s.root.find_all("div") if n.attrs.get("data-currency") == CP)
    assert not row.has_class("over")
    _set_all(s)
    assert s.figure("cost", CP) == OVER.cost
    assert s.figure("after", CP) == UNSPENT - OVER.cost < 0
    row = next(n for n in s.root.find_all("div") if n.attrs.get("data-currency") == CP)
    assert row.has_class("over")
    over = next(iter(s.root.find_all(**{"data-testid": f"over-{CP}"})))
    assert over.text.strip() == f"{OVER.cost - UNSPENT} {RULESET.currency_label(CP)} over"


def test_with_the_points_to_spend_nothing_is_red(client):
    award = OVER.cost - UNSPENT + 8
    _, s = _advance(client, SLUG, award=award)
    _set_all(s)
    assert (s.figure("cost", CP), s.figure("after", CP)) == (OVER.cost, 8)
    assert not list(s.root.find_all(**{"data-testid": f"over-{CP}"}))
    page = parse_html(s.last.content)
    assert page.by_id("advance-body") is not None
