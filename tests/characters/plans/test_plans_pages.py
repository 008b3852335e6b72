"""The plans' pages: a plan made step by step in the builder, its page and the review queue (each
step's diff and cost in the game's words), the GM's approval and rejection, and the wrong users."""

from __future__ import annotations

import pytest

from characters.campaigns.services import campaign_remove_player
from characters.models import Plan
from characters.plans import services as svc
from rulesets.engine import registry
from tests.characters.conftest import form_fields
from tests.characters.conftest import parse_html as parse
from tests.characters.plans.test_plans import SLUG, _character, _two_steps
from tests.factories import make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def table():
    gm, player, other, stranger = make_user(), make_user(), make_user(), make_user()
    return {"gm": gm, "player": player, "other": other, "stranger": stranger}


def _fields(client, url: str, changes: dict, **extra) -> dict:
    """What the browser posts from the builder page at ``url`` with ``changes`` typed in."""
    fields = form_fields(parse(client.get(url).content.decode()).by_id("builder-form"))
    out: dict[str, list[str]] = {}
    for k, v in fields:
        if k not in changes and k not in ("_check", "_save"):
            out.setdefault(k, []).append(v)
    for k, v in changes.items():
        out[k] = [str(v)]
    return {**out, **extra}


def _words(html: str) -> str:
    return " ".join(parse(html).text.split())


def test_a_plan_is_made_step_by_step_in_the_builder_and_sent_to_the_gm(client, table):
    character, one, two = _character(table)
    client.force_login(table["player"])
    page = client.get(f"/characters/{character.pk}/plans/new/")
    assert page.status_code == 200
    assert "priced against the approved build" in _words(page.content.decode())

    # A change checked live (htmx): its cost in the game's words.
    new = f"/characters/{character.pk}/plans/new/"
    r = client.post(new, _fields(client, new, one.changes), HTTP_HX_REQUEST="true")
    label = registry.get(SLUG).currency_label(one.currency)
    assert parse(r.content.decode()).by_id("step-body") is not None
    assert f"Costs {one.cost} {label}" in _words(r.content.decode())

    # Saved without a name: refused in words, nothing saved.
    r = client.post(new, _fields(client, new, one.changes, _save="1"))
    assert r.status_code == 422 and "Give the plan a name" in _words(r.content.decode())
    assert not Plan.objects.exists()

    r = client.post(new, _fields(client, new, one.changes, plan_name="Glory", _save="1"))
    plan = Plan.objects.get()
    assert r.status_code == 302 and r["Location"] == f"/plans/{plan.pk}/"
    assert [s["cost"] for s in plan.steps] == [{one.currency: one.cost}]

    # Step 2, added from step 1, priced against it.
    page = client.get(f"/plans/{plan.pk}/steps/2/")
    assert "priced against step 1" in _words(page.content.decode())
    step2 = f"/plans/{plan.pk}/steps/2/"
    client.post(step2, _fields(client, step2, two.changes, _save="1"))
    plan.refresh_from_db()
    assert [s["cost"] for s in plan.steps] == [{one.currency: one.cost}, {one.currency: two.cost}]

    text = _words(client.get(f"/plans/{plan.pk}/").content.decode())
    assert f"Step 1 {one.cost} {label}" in text and f"Step 2 {two.cost} {label}" in text
    assert f"{one.cost + two.cost} {label} in all" in text
    client.post(f"/plans/{plan.pk}/submit/")
    assert Plan.objects.get().status == "pending"

    # The GM's queue shows the plan as a whole, each step's diff and cost, and approves it.
    client.force_login(table["gm"])
    queue = parse(client.get("/review/").content.decode())
    card = queue.by_id(f"plan-{plan.pk}")
    assert card is not None and "Glory" in card.text
    assert [n.attrs["data-step"] for n in card.iter() if "data-step" in n.attrs] == ["1", "2"]
    rows = [n.attrs["data-path"] for n in card.iter() if "data-path" in n.attrs]
    assert set(rows) == set(one.changes) | set(two.changes)
    r = client.post(f"/plans/{plan.pk}/approve/", {"comment": "Go", "_next": "queue"})
    assert r.status_code == 302 and r["Location"] == "/review/"
    assert Plan.objects.get().status == "approved" and Plan.objects.get().comment == "Go"


def test_the_gm_rejects_with_a_comment_the_player_reads(client, table):
    character, one, two = _character(table)
    plan = svc.plan_create(character_id=character.pk, user=table["player"], name="Fast", steps=[one.build])
    svc.plan_submit(plan_id=plan.pk, user=table["player"])
    client.force_login(table["gm"])
    r = client.post(f"/plans/{plan.pk}/reject/", {"comment": ""}, follow=True)
    assert "Say why: a rejection needs a comment for the player." in _words(r.content.decode())
    assert Plan.objects.get().status == "pending"
    client.post(f"/plans/{plan.pk}/reject/", {"comment": "Slow down"})
    client.force_login(table["player"])
    text = _words(client.get(f"/characters/{character.pk}/plans/").content.decode())
    assert "Rejected" in text and "Slow down" in text and "Send to the GM" in text


def test_the_wrong_users_on_the_pages(client, table):
    character, one, two = _character(table)
    plan = svc.plan_create(character_id=character.pk, user=table["player"], name="Mine", steps=[one.build])
    svc.plan_submit(plan_id=plan.pk, user=table["player"])
    pages = [
        f"/characters/{character.pk}/plans/",
        f"/characters/{character.pk}/plans/new/",
        f"/plans/{plan.pk}/",
        f"/plans/{plan.pk}/steps/1/",
    ]
    for user in (table["stranger"], table["other"]):
        client.force_login(user)
        assert [client.get(p).status_code for p in pages] == [404, 404, 404, 404]
        assert client.post(f"/plans/{plan.pk}/approve/").status_code == 404
        assert client.post(f"/plans/{plan.pk}/delete/").status_code == 404
    client.logout()
    assert all(client.get(p).status_code == 302 for p in pages)  # to the login page
    # The GM reads the plan but does not make or edit one; the player does not approve their own.
    client.force_login(table["gm"])
    assert [client.get(p).status_code for p in pages] == [200, 403, 200, 403]
    client.force_login(table["player"])
    r = client.post(f"/plans/{plan.pk}/approve/", follow=True)
    assert r.status_code == 403 or "Only the campaign's GM may approve a plan." in _words(r.content.decode())
    assert Plan.objects.get().status == "pending"
    campaign_remove_player(gm=table["gm"], campaign=character.campaign, user=table["player"])
    assert [client.get(p).status_code for p in pages] == [404, 404, 404, 404]
    assert _two_steps(registry.get(SLUG)) is not None


def test_a_plan_waiting_for_the_gm_counts_in_the_review_badge(client, table):
    character, one, two = _character(table)
    client.force_login(table["gm"])
    assert parse(client.get("/").content.decode()).by_id("nav-review").text.strip() == "Review"
    plan = svc.plan_create(character_id=character.pk, user=table["player"], name="Soon", steps=[one.build])
    svc.plan_submit(plan_id=plan.pk, user=table["player"])
    badge = [
        n
        for n in parse(client.get("/").content.decode()).iter()
        if n.attrs.get("data-testid") == "review-badge"
    ]
    assert [b.text for b in badge] == ["1"]
    svc.plan_approve(plan_id=plan.pk, gm=table["gm"])
    assert "review-badge" not in client.get("/").content.decode()
