"""The campaign's clock (RULES.md C1; CONTRACT.md "The whole rulebook"): GET/POST
/api/v1/campaigns/<id>/clock/ and the party page's "Time passes" and "A new day", on every ruleset
of the registry. What the time does in each game: tests/rulesets/<slug>/test_*clock*.py."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from characters.models import Campaign, CharacterVersion
from rulesets.engine import registry
from rulesets.engine.clock import MAX_HOURS, Passage, Span
from tests.characters.party.helpers import make_party
from tests.factories import api_client

pytestmark = pytest.mark.django_db
SLUGS = list(registry.SYSTEMS)
HX = {"HTTP_HX_REQUEST": "true"}


def url(campaign) -> str:
    return f"/api/v1/campaigns/{campaign.pk}/clock/"


@pytest.mark.parametrize("slug", SLUGS)
def test_a_new_campaign_starts_on_day_1_at_8_and_members_read_it(table, slug):
    campaign, _ = make_party(table, slug, 1)
    for who in ("gm", "player"):
        got = api_client(table[who]).get(url(campaign))
        assert (got.status_code, got.json()) == (200, {"day": 1, "hour": 8})
    assert api_client(table["stranger"]).get(url(campaign)).status_code == 404


@pytest.mark.parametrize(
    "moves, expected",
    [
        ([{"hours": 3}], (1, 11)),
        ([{"hours": 16}], (2, 0)),  # past midnight: a new day began
        ([{"hours": 40}], (3, 0)),
        ([{"new_day": True}], (2, 8)),  # to the next morning
        ([{"hours": 15}, {"new_day": True}], (2, 8)),  # 23:00 → the morning after
        ([{"hours": 17}, {"new_day": True}], (3, 8)),  # already past midnight: the next morning
    ],
)
def test_time_passes_by_hours_and_a_new_day_goes_to_the_next_morning(table, moves, expected):
    campaign, _ = make_party(table, SLUGS[0], 1)
    gm = api_client(table["gm"])
    for move in moves:
        got = gm.post(url(campaign), move, format="json")
        assert got.status_code == 200, got.json()
    assert (got.json()["day"], got.json()["hour"]) == expected
    campaign.refresh_from_db()
    assert (campaign.clock_day, campaign.clock_hour) == expected


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"hours": 0},
        {"hours": 721},
        {"hours": "three"},
        {"hours": 2.5},
        {"hours": True},
        {"new_day": False},
        {"new_day": "yes"},
        {"hours": 2, "new_day": True},
        {"hours": 2, "days": 1},
        [1],
    ],
)
def test_a_body_that_is_neither_shape_is_a_400_and_moves_nothing(table, body):
    campaign, characters = make_party(table, SLUGS[0], 1)
    versions = [c.version for c in characters]
    got = api_client(table["gm"]).post(url(campaign), body, format="json")
    assert got.status_code == 400, got.json()
    assert got.json()["detail"]
    campaign.refresh_from_db()
    assert (campaign.clock_day, campaign.clock_hour) == (1, 8)
    assert [
        c.version for c in type(characters[0]).objects.filter(pk__in=[c.pk for c in characters])
    ] == versions


@pytest.mark.parametrize("who, status", [("player", 403), ("other", 403), ("stranger", 404)])
def test_only_the_gm_moves_the_clock(table, who, status):
    campaign, _ = make_party(table, SLUGS[0], 1)
    got = api_client(table[who]).post(url(campaign), {"new_day": True}, format="json")
    assert got.status_code == status
    # who may move the clock is said before what is wrong with the body
    assert (
        api_client(table[who]).post(url(campaign), {"hours": 2, "days": 1}, format="json").status_code
        == status
    )
    campaign.refresh_from_db()
    assert (campaign.clock_day, campaign.clock_hour) == (1, 8)
    page = api_client(table[who])
    page.force_login(table[who])
    assert (
        page.post(reverse("campaign_clock_move", args=[campaign.pk]), {"new_day": "true"}).status_code
        == status
    )


class Healing:
    """A ruleset whose time heals: every character in play gets a new day's sentence (the hook's
    contract, independent of any game)."""

    def __init__(self, ruleset):
        self.ruleset = ruleset
        self.spans: list[Span] = []

    def __call__(self, state, build, report, *, span, roller=None, ctx=None):
        self.spans.append(span)
        if not span.days:
            return Passage(state)
        return Passage(
            {**state, "notes": f"day {span.day_to}"}, [f"{build['name']} sleeps {span.days} night(s)."]
        )


@pytest.mark.parametrize("slug", SLUGS)
def test_each_change_is_a_play_version_in_the_answer(table, slug, monkeypatch):
    campaign, characters = make_party(table, slug, 2)
    ruleset = registry.get(slug)
    hook = Healing(ruleset)
    monkeypatch.setattr(ruleset, "time_passes", hook, raising=False)
    gm = api_client(table["gm"])
    got = gm.post(url(campaign), {"hours": 2}, format="json").json()
    assert got["changes"] == []  # no midnight passed
    assert hook.spans == [Span(1, 8, 2)] * 2
    got = gm.post(url(campaign), {"new_day": True}, format="json").json()
    assert got == {
        "day": 2,
        "hour": 8,
        "changes": [
            {"character": c.pk, "name": c.name, "message": f"{c.name} sleeps 1 night(s)."} for c in characters
        ],
    }
    for c in characters:
        c.refresh_from_db()
        assert c.state["notes"] == "day 2"
        latest = CharacterVersion.objects.filter(character=c).order_by("-number").first()
        assert latest.kind == "play" and latest.reason.endswith(f"{c.name} sleeps 1 night(s).")
        assert latest.author == table["gm"]


def test_the_party_page_moves_the_clock_and_says_what_the_time_did(client, table, monkeypatch):
    slug = SLUGS[0]
    campaign, characters = make_party(table, slug, 1)
    monkeypatch.setattr(registry.get(slug), "time_passes", Healing(registry.get(slug)), raising=False)
    client.force_login(table["gm"])
    page = client.get(reverse("campaign_party", args=[campaign.pk])).content.decode()
    assert 'data-testid="clock-now">Day 1, 08:00<' in page
    assert 'id="clock-time-passes"' in page and 'id="clock-new-day"' in page
    # The field's bound is the clock's own (rulesets/engine/clock.py MAX_HOURS), here and after a move.
    assert f'name="hours" value="1" min="1" max="{MAX_HOURS}"' in page
    html = client.post(
        reverse("campaign_clock_move", args=[campaign.pk]), {"new_day": "true"}, **HX
    ).content.decode()
    assert 'data-testid="clock-now">Day 2, 08:00<' in html
    assert f"<li><strong>{characters[0].name}</strong>: {characters[0].name} sleeps 1 night(s).</li>" in html
    html = client.post(
        reverse("campaign_clock_move", args=[campaign.pk]), {"hours": "5"}, **HX
    ).content.decode()
    assert 'data-testid="clock-now">Day 2, 13:00<' in html and "Nothing changes for anyone." in html
    assert f'max="{MAX_HOURS}"' in html
    html = client.post(
        reverse("campaign_clock_move", args=[campaign.pk]), {"hours": "lots"}, **HX
    ).content.decode()
    assert (
        'data-testid="clock-error">Say how many hours pass: a whole number from 1 to 720, or a new day.<'
        in html
    )
    assert Campaign.objects.get(pk=campaign.pk).clock_hour == 13
    done = client.post(reverse("campaign_clock_move", args=[campaign.pk]), {"hours": "1"}, follow=True)
    assert "Day 2, 14:00." in done.content.decode()


def test_every_open_page_hears_the_time_whether_or_not_it_changed_a_character(
    client, table, monkeypatch, django_capture_on_commit_callbacks
):
    """A move of the clock is said to the GM's party pages and to the open sheets of every
    character in play, changed by the time or not; nothing of a character changes for it (no
    version, no stamp: a play change after the move is not taken for the same session of play).
    The sheet says the campaign's time."""
    from characters.models import Character

    slug = SLUGS[0]
    campaign, (ayla, bram) = make_party(table, slug, 2)
    client.force_login(table["player"])
    sheet = client.get(reverse("character_sheet", args=[ayla.pk])).content.decode()
    assert re.search(r'data-testid="sheet-clock">The campaign(&#x27;|\')s time: Day 1, 08:00<', sheet)
    before = {c.pk: (c.version, c.live_stamp) for c in Character.objects.filter(pk__in=[ayla.pk, bram.pk])}
    sent = []
    from config import publish

    layer = Layer(sent)
    monkeypatch.setattr(publish, "get_channel_layer", lambda: layer)
    with django_capture_on_commit_callbacks(execute=True):
        got = api_client(table["gm"]).post(url(campaign), {"hours": 2}, format="json")
    assert got.json() == {"day": 1, "hour": 10, "changes": []}
    said = '{"clock": {"day": 1, "hour": 10, "text": "Day 1, 10:00"}}'
    assert sent == [
        (f"table-{campaign.pk}-gm", "party.changed", said),
        (f"sheet-{ayla.pk}", "sheet.changed", said),
        (f"sheet-{bram.pk}", "sheet.changed", said),
    ]
    after = {c.pk: (c.version, c.live_stamp) for c in Character.objects.filter(pk__in=[ayla.pk, bram.pk])}
    assert after == before
    live = client.get(reverse("character_sheet_live", args=[ayla.pk]), **HX).content.decode()
    assert "Day 1, 10:00<" in live


class Layer:
    """A channel layer that writes down what is sent: (group, type, text)."""

    def __init__(self, sent: list):
        self.sent = sent

    async def group_send(self, group, message):
        self.sent.append((group, message["type"], message["text"]))
