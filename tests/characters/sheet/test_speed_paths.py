"""The hot paths' reads (issues #12, #13 "Speed"): bounded queries whatever the history, and the
hand-written statements (characters/sql.py) read what the ORM read."""

from __future__ import annotations

import re
from unittest import mock

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils.html import escape

from characters.builder import services as character_services
from characters.builder.services import character_create, character_save_draft
from characters.models import Advancement, CharacterVersion, RollLog
from characters.selectors import CharacterNotFound, character_for_user
from characters.sheet import services as play
from characters.sheet.selectors import character_roll_log
from rulesets.engine import registry
from rulesets.engine.dice import FixedRoller
from tests.characters.conftest import BuilderSession, make_table
from tests.characters.sheet.test_sheet_fixtures import character_at_table

pytestmark = pytest.mark.django_db


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
    # The session's user, the character (campaign, owner and role in one statement), the roll
    # log, the review badge, the advancement notices, and the running encounter's numbers
    # where the ruleset's rolls take them.
    assert few == many <= 6
    assert html.split('id="roll-log"')[1].count("/rolls/") >= 20  # the log shows its twenty rolls


def test_the_roll_log_hides_the_gms_private_rolls_from_everybody_else(client, table):
    character = character_at_table(table, "pando")
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
    as_player = character_roll_log(character=character, viewer=table["player"], summary=True)
    as_gm = character_roll_log(character=character, viewer=table["gm"], summary=True)
    assert [r.pk for r in as_player] == [mine.pk]
    assert [r.pk for r in as_gm] == [secret.pk, mine.pk]
    row = as_gm[1]
    assert (row.label, row.username, row.private, row.created) == (
        mine.label,
        table["player"].username,
        False,
        mine.created,
    )
    assert row.result_text == mine.result.get("text") and as_gm[0].private is True

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
    character = character_at_table(table, "pando")
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


def test_character_for_user_reads_what_the_orm_reads(table):
    character = character_at_table(table, "maelstrom")
    loaded = character_for_user(user=table["player"], character_id=character.pk)
    fresh = type(character).objects.select_related("campaign", "owner").get(pk=character.pk)
    for field in type(character)._meta.concrete_fields:
        assert getattr(loaded, field.attname) == getattr(fresh, field.attname), field.name
    assert list(loaded.build) == list(fresh.build)  # the rulebook's order too
    assert (
        loaded.campaign.house_rules == fresh.campaign.house_rules and loaded.campaign.gm_id == table["gm"].pk
    )
    assert loaded.owner.username == table["player"].username and loaded.viewer_role == "player"
    assert character_for_user(user=table["gm"], character_id=character.pk).viewer_role == "gm"
    with pytest.raises(CharacterNotFound):
        character_for_user(user=table["stranger"], character_id=character.pk)
    with pytest.raises(CharacterNotFound):
        character_for_user(user=table["player"], character_id=character.pk + 1000)


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
    table = make_table("ourdnd")
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
    c = character_save_draft(character_id=c.id, user=table.player, version=c.version, build=c.build)
    assert c.live_report is not None and c.live_report.as_dict() == c.report
