"""Print, checked by printing to PDF in Chromium (Playwright ``page.pdf``) on A4 and Letter: every
ruleset's sheet of a typical character fits one page; a long one (every list long, long notes)
flows onto more pages with nothing cut; the GM's party sheet prints the party. "Nothing cut": under
the print media at the paper's printable width, no element reaches past the page's edge, none
hides content it clips (overflow), no unbreakable box (a picture, a table row) is taller than a page,
and the PDF holds every card's heading."""

from __future__ import annotations

import copy
import re
import shutil
import subprocess

import pytest

from characters.models import Character
from rulesets.engine import registry
from tests.characters.sheet.test_sheet_fixtures import make_character
from tests.factories import make_campaign, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SLUGS = [r.slug for r in registry.all_rulesets()]
#: Paper, and its printable box in CSS px (96 px an inch) inside print.css's 12 mm margins.
MARGIN_MM = 12
PAPERS = {"A4": (210, 297), "Letter": (215.9, 279.4)}


def _printable(paper: str) -> dict:
    w, h = PAPERS[paper]
    px = 96 / 25.4
    return {"width": int((w - 2 * MARGIN_MM) * px), "height": int((h - 2 * MARGIN_MM) * px)}


#: What would be cut on paper: elements past the printable width, boxes clipping their content,
#: unbreakable boxes taller than a page.
CUT = """(pageHeight) => {
  const width = document.documentElement.clientWidth;
  const name = (el) => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') +
    (el.className && typeof el.className === 'string' ? '.' + el.className.trim().split(/\\s+/).join('.') : '');
  const out = [];
  for (const el of document.body.querySelectorAll('*')) {
    const r = el.getBoundingClientRect();
    if (!r.width || !r.height) continue;
    const s = getComputedStyle(el);
    if (s.display === 'none' || s.visibility === 'hidden') continue;
    if (r.right > width + 1) out.push(name(el) + ' past the edge: right=' + Math.round(r.right) + ' > ' + width);
    const clips = ['hidden', 'clip', 'auto', 'scroll'];
    if ((clips.includes(s.overflowX) && el.scrollWidth > el.clientWidth + 1) ||
        (clips.includes(s.overflowY) && el.scrollHeight > el.clientHeight + 1)) {
      if (!el.closest('.visually-hidden')) out.push(name(el) + ' clips its content');
    }
    if (el.matches('svg, img, tr') && r.height > pageHeight) out.push(name(el) + ' taller than a page');
  }
  return out.slice(0, 12);
}"""


def pdf_pages(pdf: bytes) -> int:
    """The number of pages of a PDF that Chromium wrote (its page objects)."""
    return len(re.findall(rb"/Type\s*/Page(?![s\w])", pdf))


def pdf_text(pdf: bytes) -> str:
    """The PDF's text, page after page (poppler's pdftotext; .ci/run installs it), spaces folded."""
    if shutil.which("pdftotext") is None:
        pytest.skip("pdftotext (poppler-utils) is not installed")
    out = subprocess.run(["pdftotext", "-layout", "-", "-"], input=pdf, capture_output=True, check=True)
    return " ".join(out.stdout.decode().split())


#: The headings of the cards printed (shown under the print media).
HEADINGS = """(root) => [...document.querySelectorAll(root + ' h2')]
  .filter((h) => h.getClientRects().length && getComputedStyle(h).visibility !== 'hidden' && !h.closest('.visually-hidden'))
  .map((h) => h.innerText.trim()).filter(Boolean)"""


def _print(page, url: str, paper: str, root: str = ".sheet") -> dict:
    """``url`` printed on ``paper``: {"pages", "cut" (what would be cut), "missing" (card headings
    the PDF's text lacks), "text"}."""
    box = _printable(paper)
    page.set_viewport_size({"width": box["width"], "height": box["height"]})
    page.emulate_media(media="print")
    response = page.goto(url)
    assert response.status == 200, url
    cut = page.evaluate(CUT, box["height"])
    headings = page.evaluate(HEADINGS, root)
    pdf = page.pdf(format=paper, prefer_css_page_size=True, print_background=False)
    text = pdf_text(pdf)
    squeezed = text.replace(" ", "")
    missing = [h for h in headings if h.replace(" ", "") not in squeezed]
    return {"pages": pdf_pages(pdf), "cut": cut, "missing": missing, "text": text, "headings": headings}


def _long(build: dict, ruleset) -> dict:
    """``build`` with long notes: a character whose sheet cannot fit one page."""
    long = copy.deepcopy(build)
    long["notes"] = "\n".join(
        f"Session {n}: the road north, the ferry, the long argument with the toll keeper about the price of rope."
        for n in range(1, 121)
    )
    return long


@pytest.mark.parametrize("slug", SLUGS)
def test_a_typical_sheet_prints_on_one_page_and_a_long_one_flows_with_nothing_cut(page_as, slug):
    ruleset = registry.get(slug)
    gm, player = make_user("gina"), make_user("pat")
    campaign = make_campaign(gm=gm, ruleset=slug, players=[player])
    typical = ruleset.contract_data()["typical"]
    character = make_character(ruleset=slug, owner=player, campaign=campaign, build=copy.deepcopy(typical))
    long = make_character(ruleset=slug, owner=player, campaign=campaign, build=_long(typical, ruleset))
    assert Character.objects.get(pk=long.pk).status == "active"
    page = page_as(player)
    found = {}
    for paper in PAPERS:
        found[f"typical {paper}"] = _print(page, f"/characters/{character.pk}/?print=1", paper)
        found[f"long {paper}"] = long_one = _print(page, f"/characters/{long.pk}/?print=1", paper)
        # Every line of the long notes is on paper, once: nothing cut at a page's or a column's foot.
        sessions = sorted(int(n) for n in re.findall(r"Session (\d+):", long_one["text"]))
        assert sessions == list(range(1, 121)), (paper, sessions)
    pages = {k: v["pages"] for k, v in found.items()}
    assert pages["typical A4"] == pages["typical Letter"] == 1, pages
    assert pages["long A4"] > 1 and pages["long Letter"] > 1, pages
    assert {k: v["cut"] for k, v in found.items() if v["cut"]} == {}, found
    assert {k: v["missing"] for k, v in found.items() if v["missing"]} == {}
    assert all(len(v["headings"]) >= 4 for v in found.values())  # the cards were read


@pytest.mark.parametrize("slug", SLUGS)
def test_the_gms_party_sheet_prints_every_character_whole(page_as, slug):
    """Five characters in play: on one page, A4 and Letter, each card whole (its name and every one
    of its numbers in the PDF), nothing cut; the screen's forms are not printed."""
    ruleset = registry.get(slug)
    gm = make_user("gina")
    players = [make_user(f"player{n}") for n in range(5)]
    campaign = make_campaign(gm=gm, ruleset=slug, players=players)
    typical = ruleset.contract_data()["typical"]
    names = []
    for n, player in enumerate(players):
        build = copy.deepcopy(typical)
        build["name"] = f"Hero number {n + 1}"
        names.append(make_character(ruleset=slug, owner=player, campaign=campaign, build=build).name)
    page = page_as(gm)
    for paper in PAPERS:
        printed = _print(page, f"/campaigns/{campaign.pk}/party/", paper, root=".party-layout")
        assert printed["pages"] == 1, (paper, printed["pages"])
        assert printed["cut"] == [] and printed["missing"] == [], (paper, printed)
        squeezed = printed["text"].replace(" ", "")
        assert [n for n in names if n.replace(" ", "") not in squeezed] == []
        assert "Whoshouldroll" not in squeezed and "Applyaneffect" not in squeezed
        summary = page.evaluate(
            "() => [...document.querySelectorAll('.party-summary dd')].map((d) => d.innerText)"
        )
        assert len(summary) >= 5 and all(v.replace(" ", "") in squeezed for v in summary)
