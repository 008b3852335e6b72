"""Effects that run out on their own, in real browsers (Playwright + Debian's Chromium against
daphne, pages and websockets): the GM, on the encounter page of a laptop (1280×900), puts a named
valued effect on a player's character for one round ("frightened 2 for 1 round" where the ruleset
has it); the player's sheet, open on a phone (390×844), shows the odds of its roll drop without a
reload; the GM ends the turns until the round advances, and both are back, with the line in the
encounter's log and the table's feed.

The ruleset is the first of the registry with combat whose catalogue has a valued effect that, at
2, lowers the odds of the roll the sheet previews: the test names none."""

from __future__ import annotations

import random
import re

import pytest
from django.test import Client
from django.urls import reverse

from characters.models import Character
from combat import services as combat
from combat.models import Encounter
from combat.quick_builds import quick_build
from rulesets.engine import effects as fx
from rulesets.engine import registry
from rulesets.engine.dice import Roller
from rulesets.engine.errors import StateError
from tests.characters.sheet.test_sheet_fixtures import make_character
from tests.e2e.conftest import ARTIFACTS
from tests.e2e.test_table_feed_browser import _context_as
from tests.factories import make_campaign, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 900}
PREFERRED = "frightened"


@pytest.fixture
def plugin_server(transactional_db, daphne_servers):
    """daphne serving the site with the registry the tests see (the test plugin ruleset too)."""
    return daphne_servers("tests.e2e.plugin_asgi:application")


def _success(ruleset, request) -> float:
    return ruleset.success(ruleset.odds(request))


def _pick() -> tuple[str, fx.EffectKind, int] | None:
    """(slug, the valued effect, its value): a ruleset with combat whose valued effect at 2 (or its
    top) lowers the success of some roll of its sheet character; "frightened" wherever a ruleset has
    it, else the registry's first."""
    found = []
    for slug in registry.SYSTEMS:
        ruleset = registry.get(slug)
        try:
            ruleset.combat()
        except NotImplementedError:
            continue
        build = ruleset.contract_data()["sheet"]
        report = ruleset.validate(build)
        state = ruleset.initial_state(build, report)
        before = {r["id"]: r["request"] for r in ruleset.rollables(build, report, state) if "id" in r}
        for kind in (k for k in ruleset.effect_catalogue(None).values() if k.valued):
            value = min(2, kind.max)
            try:
                entry, _ = fx.resolve(ruleset, {"effect": kind.id, "value": value}, list(before))
                changed = dict(state)
                for action in kind.actions("apply", value) if kind.native else ():
                    changed, _ = ruleset.state_action(changed, action, build, report)
            except (fx.EffectError, StateError):
                continue
            entry["duration"] = None
            changed = {**changed, fx.STATE_KEY: [entry]}
            after = {r["id"]: r["request"] for r in ruleset.rollables(build, report, changed) if "id" in r}
            if any(
                _success(ruleset, after[rid]) < _success(ruleset, req)
                for rid, req in before.items()
                if rid in after
            ):
                found.append((slug, kind, value))
    preferred = [f for f in found if f[1].id == PREFERRED]
    return (preferred or found or [None])[0]


def _chart(page) -> str:
    """The sheet's odds preview, as its chart says it to a screen reader."""
    return page.locator("#roll-odds-chart svg").get_attribute("aria-label") or ""


def _server_chart(user, character) -> str:
    """The preview chart of the sheet as the server draws it now (its live blocks)."""
    client = Client()
    client.force_login(user)
    html = client.get(
        reverse("character_sheet_live", args=[character.pk]), HTTP_HX_REQUEST="true"
    ).content.decode()
    found = re.search(
        r'<figure class="roll-chart" id="roll-odds-chart">\s*<svg[^>]*aria-label="([^"]*)"', html
    )
    assert found, "the sheet previews the odds of a roll"
    import html as htmlmod

    return htmlmod.unescape(found.group(1))


def test_the_gm_frightens_a_character_for_one_round_and_the_players_odds_drop_then_come_back(
    browser, plugin_server
):
    picked = _pick()
    if picked is None:
        pytest.skip("no registered ruleset names a valued effect that lowers a roll's odds")
    slug, kind, value = picked
    ruleset = registry.get(slug)
    gm, player = make_user("gm"), make_user("player")
    campaign = make_campaign(gm=gm, ruleset=slug, players=[player], name="Ashen Vale")
    ayla = make_character(ruleset=slug, owner=player, campaign=campaign)
    Character.objects.filter(pk=ayla.pk).update(name="Ayla")
    e = combat.encounter_create(campaign=campaign, user=gm, name="Ambush at the ford")
    pc = combat.encounter_add_combatant(encounter=e, user=gm, character=ayla)[0]
    combat.encounter_add_combatant(encounter=e, user=gm, name="Raider", build=quick_build(ruleset, campaign))
    combat.encounter_start(encounter=e, user=gm, roller=Roller(random.Random(11)))
    calm = _server_chart(player, ayla)

    phone = _context_as(browser, plugin_server, player, viewport=PHONE)
    laptop = _context_as(browser, plugin_server, gm, viewport=LAPTOP)
    try:
        sheet = phone.new_page()
        sheet.goto(f"/characters/{ayla.pk}/")
        sheet.wait_for_selector("#sheet-live[data-connected]", state="attached")
        sheet.evaluate("() => { window.__notReloaded = true; }")
        assert _chart(sheet) == calm
        assert "No effects on Ayla." in sheet.locator(f"#character-effects-{ayla.pk}").inner_text()

        board = laptop.new_page()
        board.goto(f"/encounters/{e.pk}/")
        board.wait_for_selector("#encounter[data-connected], #encounter-effects", state="attached")
        form = board.locator("#encounter-effects")
        form.scroll_into_view_if_needed()
        form.locator("#encounter-effect-on").select_option(str(pc.pk))
        form.locator(f"#encounter-effect-{kind.id}").check()
        value_box = form.locator("#encounter-effect-value")
        assert value_box.is_visible()  # shown for a valued effect (CSS :has, no script)
        value_box.fill(str(value))
        form.locator("#encounter-effect-duration-rounds").check()
        form.locator("#encounter-effect-rounds").fill("1")
        form.locator("#encounter-effect-apply").click()
        named = f"{kind.name} {value}"
        board.locator("[data-testid=encounter-effect-done]").wait_for()
        assert f"{named} is on Ayla." in board.locator("[data-testid=encounter-effect-done]").inner_text()

        # The player's sheet hears of it: the effect, and the odds of its roll lower, without a reload.
        frightened = _server_chart(player, ayla)
        assert frightened != calm
        sheet.wait_for_function(
            "(want) => { const s = document.querySelector('#roll-odds-chart svg'); return s && s.getAttribute('aria-label') === want; }",
            arg=frightened,
            timeout=15_000,
        )
        effects = sheet.locator(f"#character-effects-{ayla.pk}").inner_text()
        assert named in effects and "1 round left" in effects
        assert sheet.evaluate("() => window.__notReloaded === true")
        # The GM's page shows it on Ayla's row.
        row = board.locator(f"#combatant-{pc.pk}")
        row.locator(".combatant-effects").wait_for()
        assert named in row.inner_text() and "1 round left" in row.inner_text()
        ARTIFACTS.mkdir(exist_ok=True)
        sheet.locator("#sheet-conditions").screenshot(path=str(ARTIFACTS / "effects-sheet-phone.png"))
        board.screenshot(path=str(ARTIFACTS / "effects-encounter-laptop.png"), full_page=True)

        # The GM ends turns until the round advances: the effect ends by itself.
        start = Encounter.objects.get(pk=e.pk).round
        for _ in range(12):
            if f"Round {start + 1}" in board.locator("[data-testid=encounter-round]").inner_text():
                break
            version = board.locator("#encounter-status").get_attribute("data-version")
            changed = "(v) => document.querySelector('#encounter-status').getAttribute('data-version') !== v"
            board.locator("#encounter-next-turn").click()
            board.wait_for_function(changed, arg=version, timeout=15_000)
            board.wait_for_selector("#encounter-next-turn:not([disabled])")
        assert f"Round {start + 1}" in board.locator("[data-testid=encounter-round]").inner_text()
        ended = f"{named} ends on Ayla."
        board.locator("#encounter-log-list", has_text=ended).wait_for(timeout=15_000)
        assert ended in board.locator("#table-feed-list").inner_text()
        assert board.locator(f"#combatant-{pc.pk} .combatant-effects").count() == 0

        sheet.wait_for_function(
            "(want) => { const s = document.querySelector('#roll-odds-chart svg'); return s && s.getAttribute('aria-label') === want; }",
            arg=calm,
            timeout=15_000,
        )
        sheet.locator(f"#character-effects-{ayla.pk}", has_text="No effects on Ayla.").wait_for(
            timeout=15_000
        )
        assert sheet.evaluate("() => window.__notReloaded === true")
        assert fx.active_entries(Character.objects.get(pk=ayla.pk).state) == []
    finally:
        phone.close()
        laptop.close()
