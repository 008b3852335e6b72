"""The hot paths' reads (issues #12, #13 "Speed"): bounded queries whatever the history, and the
selectors behind them answer each viewer (owner, GM, another player, a stranger) with what is
theirs, in one query each."""

from __future__ import annotations

import re
from unittest import mock

import pytest
from django.contrib.auth.models import AnonymousUser
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils.html import escape

from characters.advancement.selectors import advancement_notices, review_badge
from characters.builder import services as character_services
from characters.builder.services import character_create
from characters.models import Advancement, CharacterVersion, Membership, Obstacle, RollLog
from characters.selectors import CharacterNotFound, character_for_user
from characters.sheet import services as play
from characters.sheet.selectors import character_roll_log
from rulesets.engine import registry
from rulesets.engine.dice import FixedRoller
from tests.characters.conftest import BuilderSession, make_table
from tests.characters.sheet.test_sheet_fixtures import character_at_table, make_character
from tests.factories import make_campaign
from tests.vehicles import SLUGS

pytestmark = pytest.mark.django_db

#: Three registered rulesets: the campaigns of the tests (any would do: these paths are the product's).
A, B, C = (SLUGS * 3)[:3]


def _statements(queries: CaptureQueriesContext) -> list[str]:
    """The statements a request ran, less the savepoints of the test's own transaction."""
    return [q["sql"] for q in queries.captured_queries if "SAVEPOINT" not in q["sql"]]


def _sheet_queries(client, character) -> tuple[int, str]:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(reverse("character_sheet", args=[character.pk]))
    assert response.status_code == 200
    return len(queries.captured_queries), response.content.decode()


def _history(character, player, *, versions: int, rolls: int) -> None:
    first = character.version + 1
    CharacterVersion.objects.bulk_create(
        CharacterVersion(
            character=character,
            number=n,
            build=character.build,
            state=character.state,
            report=character.report,
            reason=f"v{n}",
            author=player,
        )
        for n in range(first, first + versions)
    )
    character.version = first + versions - 1
    character.save(update_fields=["version"])
    rollable = play.sheet_rules(character=character).rollables[0]["id"]
    for _ in range(rolls):
        play.character_roll(
            character_id=character.pk, user=player, rollable_id=rollable, roller=FixedRoller([1] * 40)
        )


@pytest.mark.parametrize("slug", registry.SYSTEMS)
def test_the_sheet_costs_the_same_queries_whatever_its_history_and_roll_log(client, table, slug):
    character = character_at_table(table, slug)
    client.force_login(table["player"])
    _history(character, table["player"], versions=1, rolls=1)
    few, _ = _sheet_queries(client, character)
    _history(character, table["player"], versions=40, rolls=60)
    many, html = _sheet_queries(client, character)
    # The session's user, the character (campaign, owner, role and whether it has afflictions or
    # advancement requests, in one statement), the roll log, the review badge, and the running
    # encounter's numbers
    # where the ruleset's rolls take them; and the campaign's other characters in play where the
    # sheet offers an action for an ally (a rally: ``Ruleset.ally_actions``).
    assert few == many <= 6 + (1 if registry.get(slug).ally_actions else 0)
    assert html.split('id="roll-log"')[1].count("/rolls/") >= 20  # the log shows its twenty rolls


def test_the_roll_log_hides_the_gms_private_rolls_from_everybody_else(
    client, table, django_assert_num_queries
):
    character = character_at_table(table, A)
    rollable = play.sheet_rules(character=character).rollables[0]["id"]
    play.character_roll(
        character_id=character.pk, user=table["player"], rollable_id=rollable, roller=FixedRoller([1] * 40)
    )
    play.character_roll(
        character_id=character.pk,
        user=table["gm"],
        rollable_id=rollable,
        private=True,
        roller=FixedRoller([6] * 40),
    )
    mine, secret = RollLog.objects.order_by("id")
    with django_assert_num_queries(1):
        as_player = character_roll_log(character=character, viewer=table["player"], summary=True)
    with django_assert_num_queries(1):
        as_gm = character_roll_log(character=character, viewer=table["gm"], summary=True)
    assert [r.pk for r in as_player] == [mine.pk]
    for somebody_else in (table["other"], table["stranger"], None):
        assert character_roll_log(character=character, viewer=somebody_else, summary=True) == as_player
    assert [
        r.pk for r in character_roll_log(character=character, viewer=table["gm"], limit=1, summary=True)
    ] == [secret.pk]
    assert [r.pk for r in as_gm] == [secret.pk, mine.pk]
    row = as_gm[1]
    assert (row.label, row.username, row.private, row.created) == (
        mine.label,
        table["player"].username,
        False,
        mine.created,
    )
    assert row.result_text == mine.result.get("text") and as_gm[0].private is True
    assert (row.result_outcome, row.user_id, row.rollable) == (
        mine.result.get("outcome"),
        table["player"].pk,
        mine.result.get("rollable"),
    )
    assert as_gm[0].username == table["gm"].username and as_gm[0].user_id == table["gm"].pk

    client.force_login(table["player"])
    log = (
        client.get(reverse("character_sheet", args=[character.pk])).content.decode().split('id="roll-log"')[1]
    )
    assert f"/rolls/{mine.pk}/" in log and f"/rolls/{secret.pk}/" not in log
    assert table["player"].username in log and escape(mine.result["text"]) in log
    client.force_login(table["gm"])
    log = (
        client.get(reverse("character_sheet", args=[character.pk])).content.decode().split('id="roll-log"')[1]
    )
    assert f"/rolls/{secret.pk}/" in log and f"/rolls/{mine.pk}/" in log


def test_the_sheet_shows_the_owners_latest_request_outcomes(client, table):
    character = character_at_table(table, A)
    common = {"character": character, "requested_by": table["player"], "base_version": 1, "build": {}}
    Advancement.objects.create(**common, status="withdrawn")
    rejected = Advancement.objects.create(**common, status="rejected", review_comment="Not at this table")
    approved = Advancement.objects.create(**common, status="approved")
    client.force_login(table["player"])
    html = client.get(reverse("character_sheet", args=[character.pk])).content.decode()
    notices = re.findall(r'data-testid="advancement-notice" data-status="(\w+)"', html)
    assert notices == ["approved", "rejected"]  # newest first, the withdrawn one left out
    assert f"#{rejected.id}</a> was rejected: Not at this table" in html
    assert f"#{approved.id}</a> was approved." in html
    client.force_login(table["gm"])  # the notices are the owner's
    assert (
        "advancement-notice"
        not in client.get(reverse("character_sheet", args=[character.pk])).content.decode()
    )


def test_the_sheet_reads_afflictions_and_requests_only_when_the_character_has_some(client, table):
    """The sheet's read of the character says whether it has afflictions (obstacles on it) and
    advancement requests: without any, neither is read; each one there costs its read and shows."""
    character = character_at_table(table, A)
    client.force_login(table["player"])
    bare, html = _sheet_queries(client, character)
    assert 'data-testid="sheet-obstacles"' not in html and "advancement-notice" not in html
    Obstacle.objects.create(campaign=character.campaign, character=character, name="Frostbite", level=3)
    afflicted, html = _sheet_queries(client, character)
    assert afflicted == bare + 1 and "Frostbite: 0/3 EP" in html
    common = {"character": character, "requested_by": table["player"], "base_version": 1, "build": {}}
    Advancement.objects.create(**common, status="withdrawn")  # not a notice: still no read
    withdrawn, _ = _sheet_queries(client, character)
    assert withdrawn == afflicted
    Advancement.objects.create(**common, status="pending")
    asked, html = _sheet_queries(client, character)
    assert asked == bare + 2 and 'data-testid="advancement-notice" data-status="pending"' in html


def test_character_for_user_gives_the_owner_and_the_gm_the_whole_character_in_one_query(
    table, django_assert_num_queries
):
    character = character_at_table(table, C)
    saved = type(character).objects.get(pk=character.pk)
    for user, role in ((table["player"], "player"), (table["gm"], "gm")):
        with django_assert_num_queries(1):
            loaded = character_for_user(user=user, character_id=character.pk)
            # campaign and owner came with it
            assert loaded.campaign.gm_id == table["gm"].pk and loaded.owner.username == "player"
        assert loaded.viewer_role == role and loaded.creation_review_status is None
        for field in type(character)._meta.concrete_fields:
            assert getattr(loaded, field.attname) == getattr(saved, field.attname), field.name
        assert list(loaded.build) == list(saved.build)  # the rulebook's order too
        assert loaded.campaign.house_rules == saved.campaign.house_rules


def test_character_for_user_is_a_404_for_another_player_a_stranger_a_left_owner_and_a_wrong_id(table):
    character = character_at_table(table, A)
    for user in (table["other"], table["stranger"], AnonymousUser()):
        with pytest.raises(CharacterNotFound):
            character_for_user(user=user, character_id=character.pk)
    for wrong in (character.pk + 1000, "x", 0, -1, 2**63, None):
        with pytest.raises(CharacterNotFound):
            character_for_user(user=table["player"], character_id=wrong)
    Membership.objects.filter(campaign=character.campaign, user=table["player"]).delete()
    with pytest.raises(CharacterNotFound):  # an owner who left the campaign no longer sees it
        character_for_user(user=table["player"], character_id=character.pk)
    assert character_for_user(user=table["gm"], character_id=character.pk).viewer_role == "gm"


@pytest.mark.postgres_only("the row lock is FOR UPDATE OF the character's row alone")
def test_character_for_user_locks_the_character_row_and_reads_the_latest_creation_review(
    table, django_assert_num_queries
):
    character = character_at_table(table, B)
    common = {"character": character, "requested_by": table["player"], "base_version": 1, "build": {}}
    with transaction.atomic(), CaptureQueriesContext(connection) as queries:
        loaded = character_for_user(
            user=table["player"], character_id=character.pk, for_update=True, with_creation_review=True
        )
    (sql,) = _statements(queries)
    assert sql.endswith('FOR UPDATE OF "characters_character"')
    assert loaded.creation_review_status == ""  # never submitted
    Advancement.objects.create(**common, kind="creation", status="rejected")
    Advancement.objects.create(**common, kind="creation", status="pending")
    Advancement.objects.create(**common, kind="advancement", status="approved")  # not a creation review
    with django_assert_num_queries(1):
        loaded = character_for_user(user=table["gm"], character_id=character.pk, with_creation_review=True)
    assert loaded.creation_review_status == "pending" and loaded.viewer_role == "gm"


def test_the_advancement_notices_are_the_owners_alone_in_one_query(table, django_assert_num_queries):
    character = character_at_table(table, A)
    common = {"character": character, "requested_by": table["player"], "base_version": 1, "build": {}}
    ids = [Advancement.objects.create(**common, status=s).id for s in ("approved", "withdrawn", "rejected")]
    Advancement.objects.create(**{**common, "character": character_at_table(table, A)}, status="pending")
    with django_assert_num_queries(1):
        notices = advancement_notices(character=character, user=table["player"])
        assert [(a.id, a.status, a.character_id) for a in notices] == [
            (ids[2], "rejected", character.pk),
            (ids[0], "approved", character.pk),
        ]
    assert advancement_notices(character=character, user=table["player"], limit=1)[0].id == ids[2]
    for user in (table["gm"], table["other"], table["stranger"], AnonymousUser()):
        assert advancement_notices(character=character, user=user) == []


def test_the_review_badge_counts_the_pending_requests_of_the_gms_campaigns_only(
    table, django_assert_num_queries
):
    mine, elsewhere = character_at_table(table, A), character_at_table(table, B)
    common = {"requested_by": table["player"], "base_version": 1, "build": {}}
    for status in ("pending", "pending", "approved"):
        Advancement.objects.create(**common, character=mine, status=status)
    character_at_table(table, C)  # a third campaign of the GM's, nothing pending there
    other_gm_campaign = make_campaign(gm=table["stranger"], ruleset=A, players=[table["player"]])
    theirs = make_character(ruleset=A, owner=table["player"], campaign=other_gm_campaign)
    Advancement.objects.create(**common, character=theirs, status="pending")
    Advancement.objects.create(**common, character=elsewhere, status="rejected")
    with django_assert_num_queries(1):
        assert review_badge(user=table["gm"]) == {"review_gm": True, "review_pending": 2}
    assert review_badge(user=table["stranger"]) == {"review_gm": True, "review_pending": 1}
    for user in (table["player"], table["other"]):
        assert review_badge(user=user) == {"review_gm": False, "review_pending": 0}


@pytest.mark.parametrize("slug", registry.SYSTEMS)
def test_an_autosave_validates_no_more_than_an_update(client, slug):
    """The builder's update reads the user and the character (with its creation review's status);
    an autosave adds its write (the locked row, the update, the version) and nothing else: the
    save's report is the one shown, not validated again."""
    table = make_table(slug)
    c = character_create(campaign=table.campaign, owner=table.player, name="Q")
    client.force_login(table.player)
    s = BuilderSession(client, reverse("character_builder", args=[c.id]))
    validations = []
    real = character_services.character_validate

    def counted(**kwargs):
        validations.append(kwargs.get("phase", "draft"))
        return real(**kwargs)

    name = next(k for k, v in s.fields if k.startswith("/") and re.fullmatch(r"-?\d+", v))
    value = int(dict(s.fields)[name])
    s.set(name, value + 1 if value < 1 else value - 1)  # the same edit, updated then autosaved
    with mock.patch.object(character_services, "character_validate", counted):
        with CaptureQueriesContext(connection) as update:
            client.post(s.url, s.data([("_check", "1")]), HTTP_HX_REQUEST="true")
        update_validations, validations[:] = list(validations), []
        with CaptureQueriesContext(connection) as autosave:
            response = client.post(s.url, s.data([("_autosave", "1")]), HTTP_HX_REQUEST="true")
    assert b"Saved." in response.content
    assert len(_statements(update)) <= 2
    assert len(_statements(autosave)) <= len(_statements(update)) + 3
    assert sorted(validations) == sorted(update_validations)


def test_a_returned_character_still_shows_the_gms_comment_in_the_builder(client):
    table = make_table(B)
    c = character_create(campaign=table.campaign, owner=table.player, name="Q")
    Advancement.objects.create(
        character=c,
        requested_by=table.player,
        kind="creation",
        base_version=1,
        build=c.build,
        status="rejected",
        review_comment="Pick a real name",
    )
    client.force_login(table.player)
    page = client.get(reverse("character_builder", args=[c.id])).content.decode()
    assert "Pick a real name" in page
    Advancement.objects.filter(character=c).update(status="approved")
    assert "Pick a real name" not in client.get(reverse("character_builder", args=[c.id])).content.decode()
