"""Helpers of the guided builder's browser tests (issue 13): open a builder, post a change and wait for
its update, take the screenshots. Each game's character from scratch through its creation steps:
tests/rulesets/<slug>/e2e/test_*_builder_guided_browser.py."""

from __future__ import annotations

import pytest
from django.urls import reverse

from characters.builder.services import character_create
from tests.e2e.conftest import keep_screenshot
from tests.factories import make_campaign, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _expect():
    from playwright.sync_api import expect

    return expect


def open_builder(page_as, slug, **options):
    gm, player = make_user(), make_user()
    campaign = make_campaign(gm=gm, ruleset=slug, players=[player], name=f"{slug} table")
    character = character_create(campaign=campaign, owner=player, name="Newcomer")
    page = page_as(player, **options)
    page.goto(reverse("character_builder", args=[character.id]))
    return page, character


def posted(page, action):
    """Do ``action`` and wait for the builder's (debounced) update to land and settle, with no − / +
    click still waiting to leave (static/js/builder.js's ``sfBuilder``)."""
    with page.expect_response(lambda r: r.request.method == "POST"):
        action()
    page.wait_for_function(
        """() => !document.querySelector('#builder-form.htmx-request, .htmx-swapping, .htmx-settling')
          && !(window.sfBuilder && (window.sfBuilder.pending > 0 || window.sfBuilder.waiting.length > 0))"""
    )


def type_number(page, selector, value):
    posted(
        page,
        lambda: (page.locator(selector).fill(str(value)), page.locator(selector).dispatch_event("change")),
    )
    _expect()(page.locator(selector)).to_have_value(str(value))


def pick(page, selector, value):
    posted(page, lambda: page.locator(selector).select_option(value))


def radio(page, selector):
    posted(page, lambda: page.locator(selector).check())


def check(page, selector):
    posted(page, lambda: page.locator(selector).check())


def step_done(page, step):
    _expect()(page.locator(f"#step-{step} .step-title")).to_contain_text("✓ complete")


def shots(page, slug):
    """The builder from its top, at 1280×900 and at 390×844 (a phone)."""
    page.evaluate("window.scrollTo(0, 0)")
    page.set_viewport_size({"width": 1280, "height": 900})
    keep_screenshot(page, f"builder-{slug}", full_page=False)
    page.set_viewport_size({"width": 390, "height": 844})
    page.evaluate("window.scrollTo(0, 0)")
    keep_screenshot(page, f"builder-{slug}-phone", full_page=False)
    page.set_viewport_size({"width": 1280, "height": 900})
