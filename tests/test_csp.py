"""The Content-Security-Policy (config/csp.py, settings CONTENT_SECURITY_POLICY) is on every page:
each GET route of the URL conf, filled in with real objects, asked by a signed-in GM, answers with
the header, whatever its status; scripts only from our origin (no 'unsafe-inline', no eval); the
websocket of the page's own host allowed; and no page carries an inline script or handler."""

from __future__ import annotations

import json
import re

import pytest
from django.urls import URLPattern, URLResolver, get_resolver
from django.urls.resolvers import RoutePattern

from characters.models import Advancement, Plan, ShareLink, Webhook
from combat import services as combat_services
from combat.library import services as library
from rulesets.engine import registry
from tests.characters.sheet.test_sheet_fixtures import make_character
from tests.factories import make_campaign, make_user
from tests.vehicles import SLUGS

pytestmark = pytest.mark.django_db

INLINE_SCRIPT = re.compile(r"<script(?![^>]*\ssrc=)[^>]*>", re.I)
INLINE_HANDLER = re.compile(r"<[a-z][^>]*\son[a-z]+\s*=", re.I)
JS_URL = re.compile(r"""(href|src|action)\s*=\s*["']\s*javascript:""", re.I)


def _routes(resolver: URLResolver, prefix: str = ""):
    """Every route of the URL conf as a string with <converter:name> parts (regex routes, the
    admin's, are left out: a few of its pages are asked explicitly)."""
    for entry in resolver.url_patterns:
        if not isinstance(entry.pattern, RoutePattern):
            continue
        route = prefix + str(entry.pattern)
        if route.startswith("admin/"):
            continue
        if isinstance(entry, URLResolver):
            yield from _routes(entry, route)
        elif isinstance(entry, URLPattern):
            yield route


def _policy(response) -> dict[str, list[str]]:
    header = response.headers.get("Content-Security-Policy", "")
    directives = {}
    for part in header.split(";"):
        words = part.split()
        if words:
            directives[words[0]] = words[1:]
    return directives


def _world(slug: str) -> dict:
    gm, player = make_user("gina"), make_user("pip")
    campaign = make_campaign(gm=gm, ruleset=slug, players=[player], name="Iron Coast")
    character = make_character(ruleset=slug, owner=player, campaign=campaign)
    encounter = combat_services.encounter_create(campaign=campaign, user=gm, name="Ambush")
    advancement = Advancement.objects.filter(character=character).first()
    npc = library.npc_save(campaign=campaign, user=gm, build=character.build)  # the NPC library's pages
    hook = Webhook.objects.create(campaign=campaign, url="https://hooks.example/csp", format="discord")
    link = ShareLink.objects.create(
        character=character, token="csp-shared-sheet-token-0123", created_by=player
    )
    plan = Plan.objects.create(
        character=character, author=player, name="Ahead", base_version=character.version
    )
    return {
        "gm": gm,
        "values": {
            "campaign_id": campaign.pk,
            "character_id": character.pk,
            "encounter_id": encounter.pk,
            "advancement_id": advancement.pk if advancement else 1,
            "user_id": player.pk,
            "token_id": 1,
            "slug": slug,
            "pk": character.pk,
            "id": campaign.pk,
            "index": 0,
            "combatant_id": 1,
            "roll_id": 1,
            "npc_id": npc.pk,
            "effect_id": 1,
            "webhook_id": hook.pk,
            "plan_id": plan.pk,
            "n": 1,
            "token": link.token,
            # the homebrew editor's pages: the ruleset's first kind a campaign extends (an entry
            # not in the campaign's homebrew is the editor's 404, which carries the policy too)
            "kind": (registry.get(slug).homebrew_kinds or ("none",))[0],
            "entry_id": "csp-entry",
        },
    }


@pytest.fixture
def world(db):
    return _world(SLUGS[0])  # the registry's first ruleset; every route of every ruleset is below


def _fill(route: str, values: dict) -> str:
    def one(match):
        assert match.group(1) in values, f"no test value for <{match.group(1)}> in {route}"
        return str(values[match.group(1)])

    return "/" + re.sub(r"<(?:\w+:)?(\w+)>", one, route)


@pytest.mark.django_db
@pytest.mark.parametrize("slug", SLUGS)
def test_every_get_route_answers_with_the_policy(client, slug):
    world = _world(slug)  # each ruleset's own pages: its widgets and sheet blocks
    client.force_login(world["gm"])
    paths = sorted({_fill(r, world["values"]) for r in _routes(get_resolver())}) + [
        "/admin/",
        "/admin/login/",
    ]
    assert len(paths) > 60  # the whole URL conf, not a sample
    seen_html = 0
    for path in paths:
        response = client.get(path)
        assert response.status_code < 500, path
        policy = _policy(response)
        assert policy, f"no Content-Security-Policy on {path} ({response.status_code})"
        assert policy["script-src"] == ["'self'"], path
        assert policy["default-src"] == ["'self'"] and policy["object-src"] == ["'none'"], path
        assert policy["connect-src"] == ["'self'", "ws://testserver", "wss://testserver"], path
        assert policy["frame-ancestors"] == ["'none'"], path
        if response.status_code == 200 and response["Content-Type"].startswith("text/html"):
            seen_html += 1
            html = response.content.decode()
            assert not INLINE_SCRIPT.search(html), (path, INLINE_SCRIPT.search(html).group(0))
            assert not INLINE_HANDLER.search(html), (path, INLINE_HANDLER.search(html).group(0))
            assert not JS_URL.search(html), path
    assert seen_html > 15


def test_htmx_is_configured_without_eval(client, world):
    client.force_login(world["gm"])
    html = client.get("/").content.decode()
    found = re.search(r"""<meta name="htmx-config" content='([^']*)'>""", html)
    assert found, "no htmx-config meta tag"
    config = json.loads(found.group(1))
    assert config["allowEval"] is False and config["allowScriptTags"] is False


def test_the_encounter_page_scripts_are_static_files(client, world):
    client.force_login(world["gm"])
    html = client.get(f"/encounters/{world['values']['encounter_id']}/").content.decode()
    assert '<script src="/static/js/encounter.js" defer></script>' in html
    assert 'ws-connect="/ws/encounters/' in html


def test_anonymous_pages_and_errors_carry_it_too(client):
    for path in (
        "/",
        "/accounts/login/",
        "/rulesets/",
        "/no/such/page/",
        "/api/v1/no-such/",
        f"/rulesets/{registry.SYSTEMS[0]}/",
    ):
        response = client.get(path)
        assert _policy(response)["script-src"] == ["'self'"], path


def test_the_admin_works_under_the_policy(client, world):
    from django.contrib.auth import get_user_model

    client.force_login(get_user_model().objects.create_superuser("root", password="x-long-admin-password-1"))
    pages = [
        "/admin/",
        "/admin/characters/campaign/",
        f"/admin/characters/campaign/{world['values']['campaign_id']}/change/",
        "/admin/characters/apitoken/",
        "/admin/auth/user/add/",
    ]
    for path in pages:
        response = client.get(path)
        assert response.status_code == 200, path
        assert _policy(response)["script-src"] == ["'self'"], path
        html = response.content.decode()
        assert not INLINE_SCRIPT.search(html), (path, INLINE_SCRIPT.search(html).group(0))
        assert not INLINE_HANDLER.search(html), (path, INLINE_HANDLER.search(html).group(0))
