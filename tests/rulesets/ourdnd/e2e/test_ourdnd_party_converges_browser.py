"""The GM's party page converges (#31), Our D&D against daphne (pages and websockets), the changes made
through the API of that server as the players' devices do:

- a page whose socket lost two messages (two characters' HP lowered) catches up at the next message
  it hears, about a third character: each message carries every character's version (before: those
  two cards stayed on the old HP; the probe saw 2 of 5 cards stale after 8 s);
- "N rounds left" of an effect tied to an encounter follows the encounter's round on an open card
  (before: it changed only when the effect ended).

Each card must end as the API says."""

from __future__ import annotations

import pytest

from characters.effects import services as effects
from rulesets.engine import registry
from tests.characters.party.helpers import make_party
from tests.e2e.conftest import api_post
from tests.e2e.test_party_browser import LAPTOP, _in_thread
from tests.e2e.test_table_feed_browser import _context_as, table_server  # noqa: F401  (fixture)
from tests.factories import api_client, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: The next ``n`` party messages are lost before the page's script hears them.
LOSE = """(n) => { window.__lost = 0;
  document.getElementById("party-live").addEventListener("htmx:wsBeforeMessage", (evt) => {
    let data = null; try { data = JSON.parse(evt.detail.message); } catch (e) { return; }
    if (!data || typeof data.character !== "number" || window.__lost >= n) return;
    window.__lost += 1; evt.stopImmediatePropagation(); evt.preventDefault();
  }, true);
}"""


def _hp_shown(page, character) -> str:
    return page.locator(f"#party-character-{character.pk} [data-testid=party-pool] strong").first.inner_text()


def _lower_hp(base_url, user, character) -> int:
    now = api_client(user).get(f"/api/v1/characters/{character.pk}/").json()
    state = dict(now["state"], hp=now["state"]["hp"] - 1)
    api_post(
        base_url,
        user,
        f"/api/v1/characters/{character.pk}/",
        {"version": now["version"], "state": state},
        method="PATCH",
    )
    return state["hp"]


def _party(slug: str, count: int):
    table = {name: make_user(name) for name in ("gm", "player", "other")}
    campaign, characters = make_party(table, slug, count)
    return table, campaign, characters


def test_a_party_page_that_lost_messages_catches_up_at_the_next_one(browser, table_server):  # noqa: F811
    table, campaign, characters = _in_thread(lambda: _party("ourdnd", 3))
    ayla, bram, cora = characters
    context = _context_as(browser, table_server, table["gm"], viewport=LAPTOP)
    try:
        page = context.new_page()
        page.goto(f"/campaigns/{campaign.pk}/party/")
        page.wait_for_selector("#party-live[data-connected]", state="attached")
        page.evaluate(LOSE, 2)
        owners = {c.pk: (table["player"] if i % 2 == 0 else table["other"]) for i, c in enumerate(characters)}
        hp = {c.pk: _lower_hp(table_server, owners[c.pk], c) for c in (ayla, bram)}
        page.wait_for_function("() => window.__lost === 2", timeout=5000)
        assert _hp_shown(page, ayla) != str(hp[ayla.pk])  # lost: not drawn
        hp[cora.pk] = _lower_hp(table_server, owners[cora.pk], cora)  # heard
        for c in (ayla, bram, cora):
            page.wait_for_function(
                f"() => document.querySelector('#party-character-{c.pk} [data-testid=party-pool] strong').textContent.trim() === '{hp[c.pk]}'",
                timeout=5000,
            )
    finally:
        context.close()


def test_rounds_left_on_an_open_card_follow_the_encounter_s_round(browser, table_server):  # noqa: F811
    from playwright.sync_api import expect

    def setup():
        from combat.services import encounter_add_combatant, encounter_create, encounter_start
        from rulesets.engine.dice import FixedRoller
        from tests.characters.effects.test_effects_api import _number_key

        table, campaign, [ayla] = _party("ourdnd", 1)
        e = encounter_create(campaign=campaign, user=table["gm"], name="Ambush")
        encounter_add_combatant(encounter=e, user=table["gm"], character=ayla)
        encounter_start(encounter=e, user=table["gm"], roller=FixedRoller([15]))
        rows = api_client(table["gm"]).get(f"/api/v1/characters/{ayla.pk}/rollables/").json()
        key = _number_key(registry.get("ourdnd"), rows[0]["request"])
        effects.character_effect_apply(
            character_id=ayla.pk,
            user=table["gm"],
            spec={"name": "Dazed", "changes": [{"target": "all", key: -1}]},
            duration={"rounds": 3},
            encounter=e.pk,
        )
        return table, campaign, ayla, e

    table, campaign, ayla, e = _in_thread(setup)
    context = _context_as(browser, table_server, table["gm"], viewport=LAPTOP)
    try:
        page = context.new_page()
        page.goto(f"/campaigns/{campaign.pk}/party/")
        page.wait_for_selector("#party-live[data-connected]", state="attached")
        card = page.locator(f"#party-character-{ayla.pk}")
        expect(card).to_contain_text("3 rounds left")
        api_post(table_server, table["gm"], f"/api/v1/encounters/{e.pk}/next-turn/", {})  # round 2
        assert api_client(table["gm"]).get(f"/api/v1/encounters/{e.pk}/").json()["round"] == 2
        expect(card).to_contain_text("2 rounds left", timeout=5000)
    finally:
        context.close()
