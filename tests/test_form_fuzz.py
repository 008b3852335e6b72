"""Every HTML form endpoint, fuzzed: never a 5xx, and a refusal changes nothing.

The endpoints come from the URL conf (every pattern outside /admin/ and /api/ that takes a POST),
their path ids are filled with real objects (a table per ruleset: campaign, active and draft
characters, an advancement, a started encounter, a logged roll), and their fields are the ones
the pages' own forms post (harvested from the rendered HTML) plus a few every view reads. On top
of those real values hypothesis puts the strings that used to reach ``int()`` or Postgres: "-+1",
"+-3", "²", "1e3", blanks, NUL, lone surrogates (sent as a browser would: their UTF-8 bytes),
numbers of forty digits, JSON with "\\u0000" escapes.

Three people post: the characters' owner, the GM, and an outsider (a GM of another table) whose
every request names objects that are not theirs. Nobody gets a 5xx; a 4xx leaves every row of
the characters and combat apps as it was; the outsider never gets past the access check.

``FORM_FUZZ_EXAMPLES`` sets the examples per endpoint and person (default 2, 6 with ``FUZZ=full``:
tests/fuzz.py); ``FORM_FUZZ_RANDOM=1`` explores new ones instead of the fixed, reproducible sequence.
"""

from __future__ import annotations

import copy
import os
import random
import re
import zlib
from dataclasses import dataclass, field
from html.parser import HTMLParser
from urllib.parse import quote, urlsplit

import pytest
from django.apps import apps
from django.db import connection
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, resolve
from django.urls.exceptions import Resolver404
from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st

from characters.accounts.services import account_token_create
from characters.models import Advancement, Character, Plan, RollLog, ShareLink, Webhook
from characters.plans import services as plans
from combat import services as combat
from combat.library import services as library
from combat.quick_builds import quick_build
from rulesets.engine import registry
from tests import fuzz, vehicles
from tests.characters.sheet.test_sheet_fixtures import make_character
from tests.factories import make_campaign, make_user

pytestmark = [pytest.mark.django_db]

#: Examples per endpoint and person: 6 in the full profile, 2 by default (tests/fuzz.py).
EXAMPLES = int(os.environ.get("FORM_FUZZ_EXAMPLES", fuzz.examples(full=6, smoke=2)))
RANDOM = os.environ.get("FORM_FUZZ_RANDOM") == "1"
#: Count every problem instead of stopping at the first (to measure, e.g. on an older commit).
TALLY = os.environ.get("FORM_FUZZ_TALLY") == "1"

#: The inputs that broke the forms (issue 14), and their relatives.
NASTY = [
    "-+1",
    "+-3",
    "²",
    "1e3",
    " ",
    "",
    "\t",
    "1.5",
    "1_000",
    "٣",
    "0x1f",
    "-0",
    "+7",
    "-1",
    "0",
    "\x00",
    "a\x00b",
    "\ud800",
    "x\udfffy",
    "9" * 40,
    "-" + "9" * 40,
    "99999999999",
    "2147483648",
    "true",
    "false",
    "null",
    "{}",
    "[]",
    '{"a": "\\u0000"}',
    '"\\ud800"',
    '{"\\u0000": 1}',
    "[" * 200,
    "<b>x</b>",
    "x" * 300,
    "/",
    "/-",
    "|1",
    "/name|9999999999999999",
]
#: Fields the views read that a page may not show for the object at hand.
COMMON_FIELDS = [
    "name",
    "amount",
    "currency",
    "reason",
    "characters",
    "quick",
    "note",
    "comment",
    "_version",
    "to_version",
    "document",
    "state",
    "arms",
    "rollable",
    "action",
    "target",
    "combatant",
    "character",
    "build",
    "count",
    "group",
    "join_code",
    "ruleset",
    "starting_budget",
    "house_rules",
    "_save",
    "_submit",
    "_request",
    "_card",
    "_step",
    "_add",
    "_remove",
    "_section",
    "/name",
    "/notes",
    "expected_version",
    "npc",
    "_archetype",
]

#: Endpoints that end the poster's access to a table when they succeed: fuzzed after the others.
LAST = {"campaign_leave", "campaign_remove_member"}


# ------------------------------------------------------------------ the tables


@dataclass
class Table:
    ruleset: str
    campaign: object
    active: Character
    draft: Character
    advancement: Advancement
    encounter: object
    npc: object
    roll: RollLog
    library_npc: object = None  # an NPC of the campaign's library
    webhook: object = None  # a webhook of the campaign (its GM's block on the campaign page)
    plan: object = None  # a plan of the active character, waiting for the GM (characters/plans/)
    share: object = None  # a share link of the active character (characters/shares/)


@dataclass
class World:
    gm: object
    player: object
    outsider: object
    tables: list[Table] = field(default_factory=list)
    token: object = None  # the player's API token (the account page's revoke button)
    elsewhere: Table | None = None


def _table(ruleset: str, gm, player) -> Table:
    campaign = make_campaign(gm=gm, ruleset=ruleset, players=[player], name=f"{ruleset} fuzz")
    active = make_character(ruleset=ruleset, owner=player, campaign=campaign)
    draft = make_character(ruleset=ruleset, owner=player, campaign=campaign, status=Character.Status.DRAFT)
    advancement = Advancement.objects.create(
        character=active,
        requested_by=player,
        base_version=active.version,
        build=copy.deepcopy(active.build),
        note="more",
        cost={},
    )
    roll = RollLog.objects.create(
        character=active, user=player, label="A roll", request={}, result={"text": "3"}
    )
    encounter = combat.encounter_create(campaign=campaign, user=gm, name="Ambush")
    combat.encounter_add_combatant(encounter=encounter, user=gm, character=active)
    npc = combat.encounter_add_combatant(
        encounter=encounter, user=gm, name="Bandit", build=quick_build(registry.get(ruleset), campaign)
    )[0]
    combat.encounter_start(encounter=encounter, user=gm)
    library_npc = library.npc_save(
        campaign=campaign, user=gm, build=quick_build(registry.get(ruleset), campaign)
    )
    webhook = Webhook.objects.create(campaign=campaign, url="https://hooks.example/fuzz", format="json")
    step = vehicles.advance(registry.get(ruleset), active.build)
    plan = Plan.objects.create(
        character=active, author=player, name="Ahead", base_version=active.version, status=Plan.Status.PENDING
    )
    if step is not None:
        plan = plans.plan_create(character_id=active.pk, user=player, name="Ahead", steps=[step.build])
        plan = plans.plan_submit(plan_id=plan.pk, user=player)
    share = ShareLink.objects.create(
        character=active, token=f"fuzz-share-{active.pk}-0123456789", created_by=player
    )
    rules = registry.get(ruleset)
    if rules.homebrew_kinds:  # one homebrew entry, for the homebrew editor's forms
        kind = rules.homebrew_kinds[0]
        entry = next(iter(rules.catalogue.get(kind, {}).values()), {"name": "Fuzz"})
        campaign.homebrew = {kind: [{**entry, "id": "fuzz_brew", "name": "Fuzz brew"}]}
        campaign.save(update_fields=["homebrew"])
    return Table(
        ruleset, campaign, active, draft, advancement, encounter, npc, roll, library_npc, webhook, plan, share
    )


@pytest.fixture
def world(db) -> World:
    gm, player, outsider = make_user("fuzz-gm"), make_user("fuzz-player"), make_user("fuzz-outsider")
    w = World(gm, player, outsider, token=account_token_create(user=player, name="phone")[0])
    for slug in registry.SYSTEMS:
        w.tables.append(_table(slug, gm, player))
    # The outsider's own table: they are a GM there, and nothing of the tables above is theirs.
    w.elsewhere = _table(registry.SYSTEMS[0], outsider, make_user("fuzz-their-player"))
    return w


def _path_kwargs(table: Table, world: World, *, draft: bool) -> dict[str, object]:
    character = table.draft if draft else table.active
    return {
        "campaign_id": table.campaign.pk,
        "character_id": character.pk,
        "advancement_id": table.advancement.pk,
        "encounter_id": table.encounter.pk,
        "combatant_id": table.npc.pk,
        "user_id": world.player.pk,
        "roll_id": table.roll.pk,
        "index": 0,
        "slug": table.ruleset,
        "token_id": world.token.pk,
        "npc_id": table.library_npc.pk,
        "effect_id": 1,  # an effect the character does not have, a kept effect the campaign does not keep
        "webhook_id": table.webhook.pk,
        "plan_id": table.plan.pk,
        "n": 1,
        "token": table.share.token,
        "kind": (registry.get(table.ruleset).homebrew_kinds or ("none",))[0],
        "entry_id": "fuzz_brew",
    }


# ------------------------------------------------------------------ the endpoints


@dataclass(frozen=True)
class Endpoint:
    route: str  # "characters/<int:character_id>/state/"
    name: str
    params: tuple[str, ...]

    def url(self, kwargs: dict[str, object]) -> str:
        return "/" + re.sub(r"<(?:\w+:)?(\w+)>", lambda m: str(kwargs[m.group(1)]), self.route)


def _patterns(resolver: URLResolver, prefix: str = ""):
    for p in resolver.url_patterns:
        route = prefix + str(p.pattern)
        if isinstance(p, URLResolver):
            yield from _patterns(p, route)
        elif isinstance(p, URLPattern):
            yield route, p


def html_endpoints() -> list[Endpoint]:
    """Every pattern of the URL conf outside the admin and the API, in order."""
    out = []
    for route, pattern in _patterns(get_resolver()):
        if route.startswith(("admin/", "api/")) or route.startswith("^"):
            continue
        params = tuple(re.findall(r"<(?:\w+:)?(\w+)>", route))
        out.append(Endpoint(route, pattern.name or route, params))
    return out


def _allows_post(client: Client, url: str) -> bool:
    """A PATCH probe (no view here changes anything on one): 405 names the allowed methods."""
    response = client.generic("PATCH", url)
    if response.status_code == 405:
        return "POST" in response.get("Allow", "")
    return True


class _Forms(HTMLParser):
    """The forms of a page: action → the (name, value) pairs a browser posts, and every name."""

    def __init__(self, page_url: str):
        super().__init__(convert_charrefs=True)
        self.page_url = page_url
        self.forms: list[dict] = []
        self._form: dict | None = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form":
            action = a.get("hx-post") or a.get("action") or self.page_url
            self._form = {"actions": {action}, "fields": [], "names": set()}
            self.forms.append(self._form)
            return
        if self._form is None or "name" not in a:
            return
        for key in ("hx-post", "formaction"):
            if a.get(key):
                self._form["actions"].add(a[key])
        name = a["name"]
        self._form["names"].add(name)
        kind = a.get("type", "text")
        if tag == "input" and kind not in ("submit", "button", "file", "image", "reset"):
            if kind not in ("checkbox", "radio") or "checked" in a:
                self._form["fields"].append((name, a.get("value", "on")))
        elif tag == "textarea":
            self._form["fields"].append((name, ""))

    def handle_endtag(self, tag):
        if tag == "form":
            self._form = None


def harvest_fields(client: Client, urls: list[str]) -> dict[str, dict]:
    """url_name → {"fields": real (name, value) pairs, "names": every field name} from the pages."""
    found: dict[str, dict] = {}
    for url in urls:
        response = client.get(url)
        if response.status_code != 200 or "html" not in response.get("Content-Type", ""):
            continue
        parser = _Forms(url)
        parser.feed(response.content.decode())
        for form in parser.forms:
            for action in form["actions"]:
                try:
                    name = resolve(urlsplit(action).path).url_name
                except Resolver404:
                    continue
                entry = found.setdefault(name, {"fields": [], "names": set()})
                if not entry["fields"]:
                    entry["fields"] = form["fields"]
                entry["names"] |= form["names"]
    return found


# ------------------------------------------------------------------ the state


def snapshot() -> list:
    """Every row of the characters and combat apps, in order: a refusal must leave them all.

    On Postgres a digest of each table's rows in one query (taken twice per example: the ~20 queries
    of reading every table were a third of this test's time, #20); elsewhere the rows themselves."""
    models = [m for label in ("characters", "combat") for m in apps.get_app_config(label).get_models()]
    if connection.vendor != "postgresql":
        return [(m.__name__, list(m.objects.order_by("pk").values_list())) for m in models]
    q = connection.ops.quote_name
    digests = " UNION ALL ".join(
        f"SELECT {n}, count(*), md5(coalesce(string_agg(t::text, ',' ORDER BY t.{q(m._meta.pk.column)}), ''))"
        f" FROM {q(m._meta.db_table)} t"
        for n, m in enumerate(models)
    )
    with connection.cursor() as cursor:
        cursor.execute(digests)
        return sorted(cursor.fetchall())


@pytest.mark.django_db
def test_the_snapshot_sees_a_row_changed_added_or_deleted(world):
    """The refusal check can fail: one field of one row, a new row, a row gone each change it."""
    before = snapshot()
    assert snapshot() == before
    character = Character.objects.filter(owner=world.player).first()
    name = character.name
    character.name = name + "!"
    character.save(update_fields=["name"])
    assert snapshot() != before
    character.name = name
    character.save(update_fields=["name"])
    assert snapshot() == before
    roll = RollLog.objects.create(
        campaign=character.campaign,
        character=character,
        user=world.player,
        label="Check",
        request={},
        result={},
    )
    assert snapshot() != before
    roll.delete()
    assert snapshot() == before
    character.delete()
    assert snapshot() != before


def _encode(pairs: list[tuple[str, str]]) -> str:
    """An urlencoded body as a browser sends it: lone surrogates as their (invalid) UTF-8 bytes."""

    def q(text: str) -> str:
        return quote(text.encode("utf-8", "surrogatepass"), safe="")

    return "&".join(f"{q(k)}={q(v)}" for k, v in pairs)


def _client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


# ------------------------------------------------------------------ the test


@pytest.mark.parametrize("who", ["owner", "gm", "outsider"])
def test_no_form_answers_5xx_and_a_refusal_changes_nothing(world, who):
    actor = {"owner": world.player, "gm": world.gm, "outsider": world.outsider}[who]
    probe = _client_for(world.gm)
    endpoints = html_endpoints()
    variants = [_path_kwargs(t, world, draft=d) for t in world.tables for d in (False, True)]
    targets = [e for e in endpoints if _allows_post(probe, e.url(variants[0]))]
    names = {e.name for e in targets}
    # The forms the issue named are all here (found from the URL conf, not listed by hand).
    assert {
        "character_state_action",
        "character_builder",
        "campaign_awards",
        "character_advance",
        "character_ledger",
        "encounter_act",
        "encounter_create",
        "character_create",
    } <= names, names

    pages = sorted({e.url(v) for e in endpoints for v in variants[:2] + variants[-2:]})
    fields = harvest_fields(_client_for(world.player), pages)
    for name, entry in harvest_fields(_client_for(world.gm), pages).items():
        fields.setdefault(name, entry)["names"] |= entry["names"]

    client = Client(raise_request_exception=False)  # a 500 is an answer to count, not a crash
    seen: dict[str, int] = {}
    failures: list[tuple[str, str, int]] = []
    statuses: dict[int, int] = {}

    # Half the values are the known-bad ones; the rest any text or any size of number.
    value = st.one_of(
        st.sampled_from(NASTY),
        st.sampled_from(NASTY),
        st.text(max_size=12),
        st.integers(-(10**30), 10**30).map(str),
    )

    def fuzz(endpoint: Endpoint) -> None:
        known = fields.get(endpoint.name, {"fields": [], "names": set()})
        # Half the time a field of the page's own form, else one of the names views read.
        own = sorted(known["names"])
        field_name = (
            st.one_of(st.sampled_from(own), st.sampled_from(COMMON_FIELDS))
            if own
            else st.sampled_from(COMMON_FIELDS)
        )

        @settings(
            max_examples=EXAMPLES, deadline=None, database=None, suppress_health_check=list(HealthCheck)
        )
        @seed(
            zlib.crc32(endpoint.name.encode()) + (random.randrange(2**32) if RANDOM else 0)
        )  # own per endpoint
        @given(data=st.data())
        def run(data):
            kwargs = data.draw(st.sampled_from(variants), label="ids")
            url = endpoint.url(kwargs)
            pairs = list(known["fields"])
            for _ in range(data.draw(st.integers(1, 5), label="how many")):
                name = data.draw(field_name, label="field")
                pairs = [(k, v) for k, v in pairs if k != name] if data.draw(st.booleans()) else pairs
                pairs.append((name, data.draw(value, label=name)))
            htmx = data.draw(st.booleans(), label="htmx")
            client.force_login(actor)  # logout is one of the endpoints
            before = snapshot()
            response = client.post(
                url,
                _encode(pairs),
                content_type="application/x-www-form-urlencoded",
                **({"HTTP_HX_REQUEST": "true"} if htmx else {}),
            )
            status = response.status_code
            seen[endpoint.name] = seen.get(endpoint.name, 0) + 1
            statuses[status] = statuses.get(status, 0) + 1
            if os.environ.get("FORM_FUZZ_DEBUG"):
                print(who, endpoint.name, status, url)
            problems = []
            if status >= 500:
                problems.append("5xx")
            if 400 <= status < 500 and snapshot() != before:
                problems.append("changed on a refusal")
            if (
                who == "outsider"
                and endpoint.params
                and endpoint.params != ("slug",)
                and status not in (403, 404)
            ):
                problems.append("outsider got through")
            if TALLY:
                failures.extend((endpoint.name, p, status) for p in problems)
                return
            assert not problems, (problems, url, pairs, status, response.content[:1500])

        run()

    # Leaving and removing a member take the owner's access away: those go last.
    for endpoint in sorted(targets, key=lambda e: e.name in LAST):
        fuzz(endpoint)
    print(
        f"\nform fuzz as {who}: {sum(seen.values())} posts to {len(seen)} of {len(targets)} endpoints; "
        f"statuses {dict(sorted(statuses.items()))}; problems {len(failures)}: {sorted(set(failures))}"
    )
    assert not failures
    assert set(seen) == names  # every endpoint was posted to
