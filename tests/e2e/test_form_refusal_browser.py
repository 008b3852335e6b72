"""A refused form in a real browser: htmx swaps the 400 into the page's messages (base.html's htmx
config), the form stays as it was, and nothing is saved."""

from __future__ import annotations

import pytest
from django.urls import reverse

from characters.models import Character
from tests.characters.sheet.test_sheet_fixtures import make_character
from tests.factories import make_campaign, make_user
from tests.vehicles import SLUGS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_nul_typed_into_the_builder_is_refused_in_the_messages_block(page_as, live_server):
    from playwright.sync_api import expect

    gm, player = make_user(), make_user()
    campaign = make_campaign(gm=gm, ruleset=SLUGS[0], players=[player], name="A table")
    draft = make_character(ruleset=SLUGS[0], owner=player, campaign=campaign, status=Character.Status.DRAFT)
    named = draft.name
    page = page_as(player)
    page.goto(reverse("character_builder", args=[draft.id]))
    name = page.locator('[name="/name"]')
    expect(name).to_have_value(named)
    # No keyboard types a NUL; a script (or a crafted request) can.
    name.evaluate(
        "el => { el.value = 'Al\\u0000ex'; el.dispatchEvent(new Event('change', {bubbles: true})); }"
    )
    messages = page.locator("#messages")
    expect(messages).to_contain_text(
        "Text may not contain NUL characters or unpaired surrogates. Nothing was changed."
    )
    expect(page.locator("#builder-sections")).to_be_visible()  # the form is still there
    draft.refresh_from_db()
    assert (draft.name, draft.version) == (named, 1)
