"""The builder raced as a table plays it (issues 18, 19): two tabs on one draft, quick clicks on a
slow connection, a click before htmx has started, leaving with unsaved changes, the focus after a
stepper click. Every case asserts what the API says was saved."""

from __future__ import annotations

import pytest
from django.urls import reverse

from characters.builder.services import character_create
from rulesets.engine import registry
from tests.e2e.conftest import painted, slow_link
from tests.factories import api_client, make_campaign, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SETTLED = (
    "() => !document.querySelector('#builder-form.htmx-request')"
    " && (!window.sfBuilder || window.sfBuilder.pending === 0)"
)


def _expect():
    from playwright.sync_api import expect

    return expect


def _table(slug: str):
    gm, player = make_user(), make_user()
    campaign = make_campaign(gm=gm, ruleset=slug, players=[player], name=f"{slug} race")
    character = character_create(campaign=campaign, owner=player, name="Racer")
    return player, character


def _saved(player, character) -> dict:
    response = api_client(player).get(reverse("api-character-detail", args=[character.id]))
    assert response.status_code == 200
    return response.json()["build"]


def _open(page, character):
    page.goto(reverse("character_builder", args=[character.id]))
    page.wait_for_function("() => window.htmx && window.sfBuilder")


def _click(page, button_id: str) -> None:
    with page.expect_response(lambda r: r.request.method == "POST"):
        page.locator(f"#{button_id}").click()
    page.wait_for_function(SETTLED)


def _roomy_steppers(page, room: int = 6) -> list[str]:
    """The ids of the enabled + buttons whose number can take ``room`` more, in the page's order."""
    return page.evaluate(
        """(room) => {
          const out = [];
          for (const b of document.querySelectorAll('#builder-form button.step[id$="-raise"]:not([disabled])')) {
            const input = document.getElementById(b.getAttribute('aria-controls'));
            const max = input && input.max !== '' ? Number(input.max) : Infinity;
            if (input && max - Number(input.value || 0) >= room) out.push(b.id);
          }
          return out;
        }""",
        room,
    )


def _roomy_stepper(page, room: int = 6) -> str:
    """The id of the first enabled + whose number can take ``room`` more."""
    found = _roomy_steppers(page, room)
    assert found, "no stepper with room"
    return found[0]


def _field(page, button: str) -> tuple[str, str]:
    """(the id, the JSON pointer) of the number a + button raises."""
    field = page.evaluate(f"() => document.getElementById('{button}').getAttribute('aria-controls')")
    return field, page.evaluate(f"() => document.getElementById('{field}').name")


def _value(saved: dict, pointer: str) -> int:
    for token in [t for t in pointer.split("/") if t]:
        saved = saved.get(token, 0) if isinstance(saved, dict) else 0
    return saved or 0


#: The registry's first ruleset: any builder with steppers will do (every ruleset's focus is below).
SLUG = registry.slugs()[0]


@pytest.mark.parametrize("check_first", [True, False])
def test_two_tabs_on_one_draft_never_lose_a_click(page_as, check_first):
    expect = _expect()
    player, character = _table(SLUG)
    for run in range(2):
        tab_a = page_as(player)
        tab_b = page_as(player)
        _open(tab_a, character)
        _open(tab_b, character)  # drawn before A's clicks: stale from now on
        # Two numbers of the draft, raised in the two tabs (Alertness and Athletics, say).
        raise_a, raise_b = _roomy_steppers(tab_a, room=4)[:2]
        (field_a, alert), (_, athl) = _field(tab_a, raise_a), _field(tab_a, raise_b)
        before = _saved(player, character)
        alertness, athletics = _value(before, alert), _value(before, athl)
        for _ in range(3 if run == 0 else 1):
            _click(tab_a, raise_a)
        raised = 3 if run == 0 else 1
        assert _value(_saved(player, character), alert) == alertness + raised
        if check_first:
            with tab_b.expect_navigation():
                tab_b.get_by_role("button", name="Check", exact=True).click()
            tab_b.wait_for_function("() => window.htmx && window.sfBuilder")
            expect(tab_b.locator(f"#{field_a}")).to_have_value(str(alertness + raised))
        _click(tab_b, raise_b)
        saved = _saved(player, character)
        # Merged, or refused in words: never a silent loss of A's clicks.
        assert _value(saved, alert) == alertness + raised, saved
        refused = tab_b.get_by_test_id("save-state").inner_text()
        assert _value(saved, athl) == athletics + 1 or "Not saved" in refused, (saved, refused)
        assert _value(saved, athl) == athletics + 1  # disjoint traits: they merge
        expect(tab_b.locator(f"#{field_a}")).to_have_value(str(alertness + raised))
        tab_a.context.close()
        tab_b.context.close()


def test_six_quick_clicks_on_a_slow_connection_all_count(page_as):
    expect = _expect()
    player, character = _table(SLUG)
    for _ in range(2):
        page = page_as(player)
        _open(page, character)
        button = _roomy_stepper(page)
        field, pointer = _field(page, button)
        before = page.locator(f"#{field}").input_value()
        start = int(before or 0)
        slow_link(page, 300)
        for _ in range(6):
            page.locator(f"#{button}").click(timeout=5000)
            page.wait_for_timeout(120)  # deliberate wait: a person's quick clicks, 120 ms apart
        page.wait_for_function(SETTLED, timeout=20_000)
        assert _value(_saved(player, character), pointer) == start + 6
        expect(page.locator(f"#{field}")).to_have_value(str(start + 6))
        assert "Not saved" not in page.get_by_test_id("save-state").inner_text()
        page.context.close()


def test_a_click_before_htmx_has_started_saves(page_as, live_server):
    expect = _expect()
    player, character = _table(SLUG)
    for _ in range(2):
        page = page_as(player)
        held: list = []

        def hold(route):
            held.append(route)  # noqa: B023 (this run's list: the route is released at its end)

        page.route("**/htmx*.js", hold)
        page.goto(reverse("character_builder", args=[character.id]), wait_until="commit")
        page.locator("#builder-form").wait_for(state="attached")
        raise_id = _roomy_stepper(page, room=1)
        field, pointer = _field(page, raise_id)
        button = page.locator(f"#{raise_id}")
        before = _value(_saved(player, character), pointer)
        with page.expect_navigation(wait_until="commit"):
            button.click()
        page.locator(f"#{field}").wait_for(state="attached")
        assert _value(_saved(player, character), pointer) == before + 1
        expect(page.locator(f"#{field}")).to_have_value(str(before + 1))
        expect(page.get_by_test_id("save-state")).to_have_text("All changes saved.")
        assert page.evaluate("() => !window.htmx")  # it really was before htmx
        page.unroute("**/htmx*.js")
        for route in held:
            try:
                route.abort()
            except Exception:  # the page it was for has gone
                pass
        page.context.close()


def test_leaving_with_unsaved_builder_changes_warns(page_as):
    player, character = _table(SLUG)
    page = page_as(player)
    _open(page, character)
    raise_id = _roomy_stepper(page, room=3)
    dialogs = []
    page.on("dialog", lambda d: (dialogs.append(d.type), d.dismiss()))
    # Everything saved: leaving is quiet.
    _click(page, raise_id)
    page.reload()
    assert dialogs == []
    page.wait_for_function("() => window.htmx && window.sfBuilder")
    # A click still on its way (slow connection): leaving warns.
    slow_link(page, 1500)
    page.locator(f"#{raise_id}").click()
    with page.expect_event("dialog"):
        page.close(run_before_unload=True)
    assert dialogs == ["beforeunload"]


@pytest.mark.parametrize("slug", sorted(registry.slugs()))
def test_the_focus_stays_on_the_stepper_after_a_click(page_as, slug):
    player, character = _table(slug)
    page = page_as(player)
    _open(page, character)
    button = _roomy_stepper(page, room=3)
    for _ in range(3):
        page.locator(f"#{button}").focus()
        _click(page, button)
        painted(page)  # the swap drawn, the focus put back
        assert page.evaluate("() => document.activeElement && document.activeElement.id") == button


def test_a_click_while_a_typed_change_is_on_its_way_counts_and_stays(page_as):
    """On a 300 ms link, a number typed and, while its autosave is on its way, a + on another number:
    both are saved, the page shows both, and the next change keeps the click (the click's request
    waited behind the autosave; drawn into the part that answer had replaced, it was lost from view,
    and the next save put the old number back)."""
    expect = _expect()
    player, character = _table(SLUG)
    page = page_as(player)
    _open(page, character)
    raise_a, raise_b = _roomy_steppers(page, room=4)[:2]
    (field_a, pointer_a), (field_b, pointer_b) = _field(page, raise_a), _field(page, raise_b)
    a0 = int(page.locator(f"#{field_a}").input_value() or 0)
    b0 = int(page.locator(f"#{field_b}").input_value() or 0)
    slow_link(page, 300)
    typed = page.locator(f"#{field_b}")
    typed.fill(str(b0 + 2))
    typed.dispatch_event("change")
    typed.evaluate("el => el.blur()")  # typed, then done with it (its change is counted before it leaves)
    page.wait_for_function("() => document.querySelector('#builder-form.htmx-request')")  # on its way
    # The + at once (Playwright's click waits for the page to be still, ~0.3 s: the answer has come).
    page.evaluate(f"() => document.getElementById('{raise_a}').click()")
    page.wait_for_function(SETTLED, timeout=20_000)
    saved = _saved(player, character)
    assert (_value(saved, pointer_a), _value(saved, pointer_b)) == (a0 + 1, b0 + 2)
    expect(page.locator(f"#{field_a}")).to_have_value(str(a0 + 1))
    expect(page.locator(f"#{field_b}")).to_have_value(str(b0 + 2))
    # The next change saves over what the page shows: the click stays.
    with page.expect_response(lambda r: r.request.method == "POST"):
        typed.fill(str(b0 + 3))
        typed.dispatch_event("change")
    page.wait_for_function(SETTLED, timeout=20_000)
    saved = _saved(player, character)
    assert (_value(saved, pointer_a), _value(saved, pointer_b)) == (a0 + 1, b0 + 3)
    assert "Not saved" not in page.get_by_test_id("save-state").inner_text()


def _posts(page) -> list[tuple[str, str]]:
    """Every POST ``page`` sends from now on: (its kind, "document" for a form's own submit and "xhr"
    for htmx's, and its body)."""
    sent: list[tuple[str, str]] = []
    page.on(
        "request", lambda r: sent.append((r.resource_type, r.post_data or "")) if r.method == "POST" else None
    )
    return sent


def _shown_version(character) -> int:
    character.refresh_from_db()
    return character.shown_version


def _typing(page_as):
    """(the player, the draft, its builder open, (the id, the JSON pointer) of a number with room)."""
    player, character = _table(SLUG)
    page = page_as(player)
    _open(page, character)
    return player, character, page, _field(page, _roomy_stepper(page, room=2))


def test_a_number_typed_then_save_draft_is_saved_once_and_says_so(page_as):
    """A number typed, then "Save draft" pressed at once, on a 400 ms link: leaving the field changes
    it and focuses the button, and its autosave (300 ms later, while the press's post was on its way)
    went as a Save too, htmx adding the focused button: a second save whose redirect cut off the
    press's page, "Draft saved" lost with it. Now the press's own post alone leaves."""
    expect = _expect()
    player, character, page, (field, pointer) = _typing(page_as)
    before, value = _shown_version(character), int(page.locator(f"#{field}").input_value() or 0) + 1
    sent = _posts(page)
    slow_link(page, 400)
    page.locator(f"#{field}").fill(str(value))
    page.get_by_role("button", name="Save draft").click()
    expect(page.locator(".messages")).to_contain_text(f"Draft saved as version {before + 1}")
    assert [kind for kind, _ in sent] == ["document"], sent
    assert "_save=1" in sent[0][1]
    assert _shown_version(character) == before + 1
    assert _value(_saved(player, character), pointer) == value


def test_a_number_typed_then_tab_to_save_draft_autosaves_and_stays(page_as):
    """A number typed, then the focus taken to "Save draft" (Tab, as a keyboard does): the field's
    autosave saves the draft and nothing more. With the button focused it went as a Save: a version
    people read and the page reloaded with "Draft saved", before anything was pressed."""
    expect = _expect()
    player, character, page, (field, pointer) = _typing(page_as)
    before, value = _shown_version(character), int(page.locator(f"#{field}").input_value() or 0) + 1
    sent = _posts(page)
    page.locator(f"#{field}").fill(str(value))
    with page.expect_response(lambda r: r.request.method == "POST"):
        page.get_by_role("button", name="Save draft").focus()
    page.wait_for_function(SETTLED)
    assert [kind for kind, _ in sent] == ["xhr"], sent
    assert "_autosave=1" in sent[0][1] and "_save=" not in sent[0][1], sent[0][1]
    expect(page.get_by_test_id("save-state")).to_have_text("Saved.")
    expect(page.locator(".messages")).not_to_contain_text("Draft saved")
    assert page.evaluate("() => document.activeElement.textContent.trim()") == "Save draft"
    assert _shown_version(character) == before
    assert _value(_saved(player, character), pointer) == value
