"""The advancement pages: advance mode (live pricing), review queue + badge, awards, ledger; access rules.

On the first registered ruleset whose sheet character advances by its builder's numbers (the
advance and its price from tests/vehicles.py and the rules); the awards page's quick choices on
the first with quick awards. One game's advance mode: tests/rulesets/<slug>/."""

from __future__ import annotations

import copy

import pytest
from django.test import Client

from characters.advancement import services as svc
from characters.advancement.selectors import ledger_totals
from characters.models import Advancement, LedgerEntry
from rulesets.engine import registry
from rulesets.engine.pointer import resolve
from tests import vehicles
from tests.characters.conftest import form_fields, parse_html
from tests.characters.sheet.test_sheet_fixtures import BUILDS, make_character
from tests.factories import make_campaign, make_user

pytestmark = pytest.mark.django_db


def _by_numbers(ruleset) -> vehicles.Advance | None:
    """An advance of the sheet character made by the builder's number fields alone."""
    found = vehicles.advance(ruleset)
    return found if found and all(isinstance(v, int) for v in found.changes.values()) else None


SLUG = vehicles.first(_by_numbers, "a ruleset whose sheet character advances by its builder's numbers")
RULESET = registry.get(SLUG)
ADVANCE = _by_numbers(RULESET)
XP = ADVANCE.currency
LABEL = RULESET.currency_label(XP)


def _cost_text(amount: int) -> str:
    return f"{amount:+d} {LABEL}".replace("-", "−")


def _table(slug: str) -> dict:
    gm, player, other, stranger = make_user(), make_user(), make_user(), make_user()
    campaign = make_campaign(gm=gm, ruleset=slug, players=[player, other])
    character = make_character(ruleset=slug, owner=player, campaign=campaign)
    elsewhere = make_campaign(gm=stranger, ruleset=slug, players=[])
    return {
        "gm": gm,
        "player": player,
        "other": other,
        "stranger": stranger,
        "campaign": campaign,
        "character": character,
        "elsewhere": elsewhere,
    }


@pytest.fixture
def t(db):
    return _table(SLUG)


def as_user(user) -> Client:
    c = Client()
    c.force_login(user)
    return c


def _rows() -> list[tuple[str, int, list[str]]]:
    """Each change of ADVANCE in the builder's order, with its cost at the margin and the rules'
    cost lines it adds ("Investigation 5 costs 10 XP because it is the 5th dot")."""
    from rulesets.engine.pointer import set_at

    build = vehicles.sheet_build(RULESET)
    build["budget"] = {c: v + 10**6 for c, v in build["budget"].items()}
    before = RULESET.validate(build)
    rows = []
    for pointer, value in ADVANCE.changes.items():
        set_at(build, pointer, value)
        after = RULESET.validate(build)
        lines = [c["label"] for c in after.costs if c["path"] == pointer and c not in before.costs]
        rows.append((pointer, after.spent.get(XP, 0) - before.spent.get(XP, 0), lines))
        before = after
    return rows


def test_advance_mode_prices_each_change_live_and_sends_the_request(t):
    ch = t["character"]
    svc.award_create(gm=t["gm"], character_id=ch.pk, currency=XP, amount=ADVANCE.cost, reason="chapter")
    player = as_user(t["player"])
    page = player.get(f"/characters/{ch.pk}/advance/")
    assert page.status_code == 200
    root = parse_html(page.content)
    assert root.by_id("advance-body") is not None
    fields = form_fields(root.by_id("builder-form"))
    for pointer in ADVANCE.changes:  # the approved values, as the fields show them
        assert (pointer, str(resolve(BUILDS[SLUG], pointer, 0))) in fields
    assert "disabled" in root.find_all("button", name="_request")[0].attrs  # nothing changed yet
    fields = [(k, v) for k, v in fields if k not in ADVANCE.changes] + [
        (k, str(v)) for k, v in ADVANCE.changes.items()
    ]
    r = player.post(f"/characters/{ch.pk}/advance/", dict_of(fields), HTTP_HX_REQUEST="true")
    assert r.status_code == 200
    frag = parse_html(r.content)
    assert frag.by_id("advance-body") is not None
    cost = [n for n in frag.iter() if n.attrs.get("data-testid") == f"cost-{XP}"][0].text
    assert cost == str(ADVANCE.cost)
    for pointer, amount, lines in _rows():
        row = [n for n in frag.iter() if n.attrs.get("data-path") == pointer][0]
        assert _cost_text(amount) in row.text and lines and all(line in row.text for line in lines)
    assert "disabled" not in frag.find_all("button", name="_request")[0].attrs
    r = player.post(f"/characters/{ch.pk}/advance/", {**dict_of(fields), "note": "practice", "_request": "1"})
    adv = Advancement.objects.get(character=ch)
    assert r.status_code == 302 and r["Location"] == f"/advancements/{adv.pk}/"
    assert (adv.status, adv.cost[XP], adv.note) == ("pending", ADVANCE.cost, "practice")
    assert all(v == 0 for c, v in adv.cost.items() if c != XP)


def dict_of(fields):
    out = {}
    for k, v in fields:
        out.setdefault(k, []).append(v)
    return out


def test_the_badge_counts_pending_requests_for_the_gm_only(t):
    ch = t["character"]
    build = copy.deepcopy(ADVANCE.build)
    gm = as_user(t["gm"])
    root = parse_html(gm.get("/").content)
    assert root.by_id("nav-review") is not None
    assert not [n for n in root.iter() if n.attrs.get("data-testid") == "review-badge"]
    svc.advancement_request(character_id=ch.pk, user=t["player"], build=build)
    root = parse_html(gm.get("/").content)
    badge = [n for n in root.iter() if n.attrs.get("data-testid") == "review-badge"]
    assert badge and badge[0].text == "1"
    assert parse_html(as_user(t["player"]).get("/").content).by_id("nav-review") is None


def test_review_page_shows_the_diff_and_approves_with_htmx(t):
    ch = t["character"]
    build = copy.deepcopy(ADVANCE.build)
    adv = svc.advancement_request(character_id=ch.pk, user=t["player"], build=build, note="range practice")
    gm = as_user(t["gm"])
    page = gm.get(f"/campaigns/{t['campaign'].pk}/review/")
    assert page.status_code == 200
    card = parse_html(page.content).by_id(f"advancement-{adv.pk}")
    assert "range practice" in card.text and _cost_text(ADVANCE.cost) in card.text
    r = gm.post(f"/advancements/{adv.pk}/approve/", {"comment": "ok", "_card": "1"}, HTTP_HX_REQUEST="true")
    assert r.status_code == 200
    frag = parse_html(r.content)
    assert frag.by_id(f"advancement-{adv.pk}").attrs["data-status"] == "approved"
    assert frag.by_id("nav-review").attrs.get("hx-swap-oob") == "true"
    ch.refresh_from_db()
    assert all(resolve(ch.build, k) == v for k, v in ADVANCE.changes.items())
    r = gm.post(
        f"/advancements/{adv.pk}/approve/", {"comment": "again", "_card": "1"}, HTTP_HX_REQUEST="true"
    )
    assert b"already approved" in r.content  # 409 inside the card, no 500
    sheet_notice = as_user(t["player"]).get(f"/characters/{ch.pk}/advancements/")
    assert b"was approved: ok" in sheet_notice.content


def test_access_rules_of_the_pages(t):
    ch = t["character"]
    build = copy.deepcopy(ADVANCE.build)
    adv = svc.advancement_request(character_id=ch.pk, user=t["player"], build=build)
    player, other, stranger = as_user(t["player"]), as_user(t["other"]), as_user(t["stranger"])
    assert player.post(f"/advancements/{adv.pk}/approve/", {"comment": "mine"}).status_code == 403
    assert player.post(f"/advancements/{adv.pk}/reject/", {"comment": "mine"}).status_code == 403
    assert Advancement.objects.get(pk=adv.pk).status == "pending"
    assert player.get(f"/campaigns/{t['campaign'].pk}/review/").status_code == 403
    assert player.get(f"/campaigns/{t['campaign'].pk}/awards/").status_code == 403
    assert (
        player.post(
            f"/campaigns/{t['campaign'].pk}/awards/", {"characters": [ch.pk], "currency": XP, "amount": "5"}
        ).status_code
        == 403
    )
    assert stranger.get(f"/campaigns/{t['campaign'].pk}/review/").status_code == 404
    assert player.get(f"/campaigns/{t['elsewhere'].pk}/review/").status_code == 404
    assert other.get(f"/advancements/{adv.pk}/").status_code == 404
    assert other.get(f"/characters/{ch.pk}/advance/").status_code == 404
    assert other.get(f"/characters/{ch.pk}/ledger/").status_code == 404
    assert as_user(t["gm"]).get(f"/characters/{ch.pk}/advance/").status_code == 403
    assert LedgerEntry.objects.filter(character=ch, kind="award").count() == 1  # the starting budget only


def test_awards_page_quick_choice_goes_to_the_ticked_characters(db):
    slug = vehicles.first(lambda rs: rs.quick_awards(), "a ruleset with quick awards")
    t = _table(slug)
    quick_awards = registry.get(slug).quick_awards()
    chosen = quick_awards[-1]
    xp, amount = chosen["currency"], chosen["amount"]
    start = BUILDS[slug]["budget"][xp]
    ch = t["character"]
    other_ch = make_character(ruleset=slug, owner=t["other"], campaign=t["campaign"])
    gm = as_user(t["gm"])
    page = parse_html(gm.get(f"/campaigns/{t['campaign'].pk}/awards/").content)
    quick = {b.attrs["value"] for b in page.find_all("button", name="quick")}
    assert quick == {q["id"] for q in quick_awards} and len(quick) == len(quick_awards)
    r = gm.post(f"/campaigns/{t['campaign'].pk}/awards/", {"characters": [ch.pk], "quick": chosen["id"]})
    assert r.status_code == 302
    assert ledger_totals(character=ch)[xp]["awarded"] == start + amount
    assert ledger_totals(character=other_ch)[xp]["awarded"] == start
    r = gm.post(
        f"/campaigns/{t['campaign'].pk}/awards/",
        {"characters": [ch.pk, other_ch.pk], "currency": xp, "amount": "2", "reason": "Victory"},
    )
    assert r.status_code == 302
    assert [ledger_totals(character=c)[xp]["awarded"] for c in (ch, other_ch)] == [
        start + amount + 2,
        start + 2,
    ]
    r = gm.post(
        f"/campaigns/{t['campaign'].pk}/awards/", {"characters": [ch.pk], "currency": xp, "amount": "-2"}
    )
    assert r.status_code == 400 and b"whole number" in r.content
    ch.refresh_from_db()
    spent = registry.get(slug).validate(BUILDS[slug]).spent.get(xp, 0)
    assert ch.build["budget"][xp] == start + amount + 2
    assert ch.report["remaining"][xp] == start + amount + 2 - spent


def test_ledger_page_shows_running_balances(t):
    ch = t["character"]
    start, spent = BUILDS[SLUG]["budget"][XP], RULESET.validate(BUILDS[SLUG]).spent.get(XP, 0)
    assert start > 0 and spent > 0
    svc.award_create(gm=t["gm"], character_id=ch.pk, currency=XP, amount=5, reason="Hazard")
    page = parse_html(as_user(t["player"]).get(f"/characters/{ch.pk}/ledger/").content)
    rows = [[td.text.strip() for td in tr.find_all("td")] for tr in page.find_all("tbody")[1].find_all("tr")]
    owner = ch.owner.get_username()
    assert [(r[1], r[2], r[3]) for r in rows] == [
        (f"Created by {owner}: starting budget", _cost_text(start), f"{start} {LABEL}"),
        (f"Submitted by {owner}: initial build", _cost_text(-spent), f"{start - spent} {LABEL}"),
        (f"Awarded by {t['gm'].get_username()}: Hazard", _cost_text(5), f"{start - spent + 5} {LABEL}"),
    ]
    unspent = [n for n in page.iter() if n.attrs.get("data-testid") == f"unspent-{XP}"][0].text
    assert unspent == str(start - spent + 5)


def _singular_differs(ruleset) -> str | None:
    """An awardable currency whose word for one differs from its word for many ("point" / "points")."""
    return next(
        (
            c
            for c in ruleset.awardable_currencies
            if ruleset.currency_label(c, 1) != ruleset.currency_label(c, 2)
        ),
        None,
    )


def test_one_point_is_one_point_on_the_awards_and_ledger_pages():
    """Issue #38: "Awarded 1 points (First session)" and "+1 points" read "1 point" and "+1 point";
    the awards form starts with nobody ticked (an award by Enter went to the whole party), or only
    the character the GM came from."""
    slug = vehicles.first(_singular_differs, "a ruleset whose currency has a word for one")
    ruleset = registry.get(slug)
    currency = _singular_differs(ruleset)
    one, many = ruleset.currency_label(currency, 1), ruleset.currency_label(currency, 2)
    t = _table(slug)
    other_ch = make_character(ruleset=slug, owner=t["other"], campaign=t["campaign"])
    gm = as_user(t["gm"])
    url = f"/campaigns/{t['campaign'].pk}/awards/"

    boxes = parse_html(gm.get(url).content).find_all("input", name="characters")
    assert {b.attrs["value"] for b in boxes} == {str(t["character"].pk), str(other_ch.pk)}
    assert [b.attrs["value"] for b in boxes if "checked" in b.attrs] == []
    boxes = parse_html(gm.get(f"{url}?character={other_ch.pk}").content).find_all("input", name="characters")
    assert [b.attrs["value"] for b in boxes if "checked" in b.attrs] == [str(other_ch.pk)]

    r = gm.post(
        url,
        {"characters": [t["character"].pk], "currency": currency, "amount": "1", "reason": "First session"},
        follow=True,
    )
    text = " ".join(parse_html(r.content).text.split())
    assert f"Awarded 1 {one} (First session) to {t['character'].name}." in text
    amounts = [
        " ".join(td.text.split()) for td in parse_html(r.content).find_all("td", **{"data-label": "Amount"})
    ]
    assert amounts[0] == f"+1 {one}" and f"+1 {many}" not in amounts
    ledger = parse_html(gm.get(f"/characters/{t['character'].pk}/ledger/").content)
    amounts = [" ".join(td.text.split()) for td in ledger.find_all("td", **{"data-label": "Amount"})]
    assert f"+1 {one}" in amounts and f"+1 {many}" not in amounts


def test_a_request_names_the_versions_history_and_the_sheet_show(t):
    """Issue #38 (8): the request page said "priced on version 15 · applied as version 16" (the
    concurrency token, which every play click moves) where History said v4 and the sheet's header
    "version 5". Three play changes of one session are one listed version; the request then names
    the number the sheet showed, and once applied the number History's newest row and the sheet's
    header show."""
    import re

    from characters.sheet.services import character_state_action

    ch = t["character"]
    for _ in range(3):  # one session of play: the token moves by three, the shown number by one
        character_state_action(character_id=ch.pk, user=t["player"], action=vehicles.play_action(RULESET))
    ch.refresh_from_db()
    priced_on = ch.shown_version
    assert ch.version > priced_on  # the two numbers differ, or this test would prove nothing
    adv = svc.advancement_request(character_id=ch.pk, user=t["player"], build=copy.deepcopy(ADVANCE.build))
    svc.advancement_approve(advancement_id=adv.pk, gm=t["gm"])
    ch.refresh_from_db()
    gm = as_user(t["gm"])
    card = " ".join(parse_html(gm.get(f"/advancements/{adv.pk}/").content).text.split())
    found = re.search(r"priced on version (\d+) · applied as version (\d+)", card)
    assert found is not None, card
    assert (int(found.group(1)), int(found.group(2))) == (priced_on, ch.shown_version)
    history = parse_html(gm.get(f"/characters/{ch.pk}/history/").content)
    newest = next(n for n in history.iter() if n.tag == "tr" and "version-row" in n.attrs.get("class", ""))
    assert newest.find_all("th")[0].text.strip() == f"v{ch.shown_version}"
    sheet = parse_html(as_user(t["player"]).get(f"/characters/{ch.pk}/").content)
    assert sheet.by_id("sheet-version").text.strip() == f"· version {ch.shown_version}"
