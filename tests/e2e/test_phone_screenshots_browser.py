"""Every ruleset's table pages at a phone's size (390×844): nothing sticks out sideways (the page
does not scroll horizontally, no text or control reaches past the screen's edge unless it is
inside a box that scrolls on its own, and no text is wider than its own box), every control is big enough to tap, and a full-page
screenshot of each is saved as /tmp/phone-<slug>-<page>.png to look at (and its first eight
screenfuls, scrolled to, as /tmp/phone-<slug>-<page>-<n>.png). The pages are opened by the phone
walk (tests/e2e/phone_walk.py), which the other phone-sized tests share.

    .venv/bin/python -m pytest -m browser tests/e2e/test_phone_screenshots_browser.py
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rulesets.engine import registry
from tests.e2e.phone_walk import SCREENSHOT_PAGES
from tests.e2e.test_sheet_play_browser import PHONE

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
SHOTS = Path("/tmp")

#: Elements past the right edge of the screen, outside any box that scrolls sideways by itself;
#: text wider than its own box; and visible controls smaller than 24×24 CSS px (WCAG 2.2 target size, minimum).
LAYOUT_PROBLEMS = """() => {
  const width = document.documentElement.clientWidth;
  const scrollsItself = (el) => {
    for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
      const s = getComputedStyle(p);
      if ((s.overflowX === 'auto' || s.overflowX === 'scroll' || s.overflowX === 'hidden') && p.clientWidth < p.scrollWidth + 1) return true;
    }
    return false;
  };
  const name = (el) => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') +
    (el.className && typeof el.className === 'string' ? '.' + el.className.trim().split(/\\s+/).join('.') : '');
  const out = {pageWidth: document.documentElement.scrollWidth, width, overflow: [], small: []};
  for (const el of document.body.querySelectorAll('*')) {
    const r = el.getBoundingClientRect();
    if (!r.width || !r.height) continue;
    const s = getComputedStyle(el);
    if (s.visibility === 'hidden' || s.position === 'fixed') continue;
    if (el.closest('.visually-hidden, [hidden], details:not([open]) > :not(summary)')) continue;
    if (r.right > width + 1 && !scrollsItself(el)) out.overflow.push(name(el) + ' right=' + Math.round(r.right));
    // Text wider than its own box (written over its neighbours, or cut off).
    if (!el.children.length && el.textContent.trim() && s.display !== 'inline' && el.clientWidth > 0
        && !el.matches('input, select, textarea, option, svg *') && el.scrollWidth > el.clientWidth + 1) {
      out.overflow.push(name(el) + ' text ' + el.scrollWidth + '>' + el.clientWidth + ' "' + el.textContent.trim().slice(0, 30) + '"');
    }
    if (el.matches('button, select, input:not([type=hidden]), a.btn, summary') && (r.width < 24 || r.height < 24)
        && !el.closest('p, li, td, dd')) {
      out.small.push(name(el) + ' ' + Math.round(r.width) + 'x' + Math.round(r.height));
    }
  }
  out.overflow = out.overflow.slice(0, 12);
  out.small = out.small.slice(0, 12);
  return out;
}"""


def save_screenshots(page, slug: str, name: str) -> None:
    """/tmp/phone-<slug>-<name>.png, the whole page, and its first eight screenfuls
    (phone-<slug>-<name>-<n>.png), each as the phone shows it scrolled there (the last one ends at the
    page's foot): not clips of the full page, each of which drew the whole page again (0.7 s of CPU
    a page). The page is left at its top."""
    page.screenshot(path=str(SHOTS / f"phone-{slug}-{name}.png"), full_page=True)
    height = page.evaluate("() => document.documentElement.scrollHeight")
    for n, top in enumerate(range(0, min(height, 8 * PHONE["height"]), PHONE["height"]), start=1):
        page.evaluate("top => window.scrollTo(0, top)", top)
        page.screenshot(path=str(SHOTS / f"phone-{slug}-{name}-{n}.png"))
    page.evaluate("() => window.scrollTo(0, 0)")


@pytest.mark.parametrize("slug", registry.SYSTEMS)
def test_phone_pages_fit_the_screen_and_are_saved_as_screenshots(phone_walk, slug):
    """The play pages (the phone walk saves their screenshots): no sideways scroll, nothing past the
    edge, every control big enough to tap."""
    seen = phone_walk(slug)
    found = {}
    for name in SCREENSHOT_PAGES:
        assert seen[name].status == 200, (name, seen[name].status)
        problems = seen[name].layout
        if problems["pageWidth"] > problems["width"] or problems["overflow"] or problems["small"]:
            found[name] = problems
    assert found == {}, found
