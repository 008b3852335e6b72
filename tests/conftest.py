import os
import re
import sys

import pytest


def _redis_db_per_worker() -> None:
    """Under pytest-xdist (``make test`` runs two workers), worker ``gwN`` uses the Redis database
    N below REDIS_TEST_URL's (15, 14, ... for CI's /15): some tests flush their database
    (tests/test_two_processes.py, the Redis cache's ``clear()``), which must not empty another
    worker's channel layer mid-test. Set here, before any test module reads the variable."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    if not worker.startswith("gw"):
        return
    url = os.environ.get("REDIS_TEST_URL", "redis://127.0.0.1:6379/15")
    found = re.fullmatch(r"(redis://[^/?#]+)(?:/(\d*))?(\?.*)?", url)
    if not found:
        raise RuntimeError(f"REDIS_TEST_URL={url!r}: expected redis://host:port/db to give each worker a db")
    base, db, query = found.group(1), int(found.group(2) or 0), found.group(3) or ""
    mine = db - int(worker[2:])
    if mine < 1:  # never db 0: make serve's and make run's default
        raise RuntimeError(
            f"REDIS_TEST_URL={url!r} leaves worker {worker} no Redis database of its own (below db 1): "
            "use a higher database number or fewer workers (TEST_WORKERS)"
        )
    os.environ["REDIS_TEST_URL"] = f"{base}/{mine}{query}"


_redis_db_per_worker()

# Shared fixtures of the sheet, play and dice tests (`table`), wherever they are used.
pytest_plugins = ["tests.characters.sheet.test_sheet_fixtures", "tests.live_layers"]

# Playwright's sync API runs an event loop in the test thread; Django's ORM then refuses to run
# from it unless told that this is fine (it is: tests are single-threaded per connection).
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

_PLAIN_HTTP = {
    "SECURE_SSL_REDIRECT": False,
    "SESSION_COOKIE_SECURE": False,
    "CSRF_COOKIE_SECURE": False,
    "SECURE_HSTS_SECONDS": 0,
    # A fast hasher: production's PBKDF2 costs ~0.3 s per password, which dominates a test run.
    "PASSWORD_HASHERS": ["django.contrib.auth.hashers.MD5PasswordHasher"],
}


def pytest_configure(config):
    """Process-wide, before any server starts: live_server builds its middleware once per session,
    so a per-test override would come too late for it (SecurityMiddleware would redirect to https).

    Before collection too, the test plugin ruleset (tests/plugin_ruleset/, "Coin") joins the
    registry as if it were a sixth folder: every test parametrised over the registry (the contract,
    the pages, the browser tests, the form fuzzer) runs on it, so code that assumes the rulesets of
    ``rulesets/systems/`` fails at once. ``SHEETFORGE_TEST_PLUGIN=0`` leaves it out."""
    from django.conf import settings

    for name, value in _PLAIN_HTTP.items():
        setattr(settings, name, value)
    _no_collected_static_files(settings)
    _flush_by_delete()
    _force_login_writes_the_session_once()
    if os.environ.get("SHEETFORGE_TEST_PLUGIN", "1") != "0":
        from rulesets.engine import registry
        from tests.plugin_ruleset import RULESET

        registry.register(RULESET)


def _no_collected_static_files(settings) -> None:
    """The tests' own process serves no collected static files, whether or not a ``collectstatic``
    left some in the checkout: WhiteNoise reads every file under STATIC_ROOT each time a request
    handler is built, and the test client builds one per client (about seven a test). The stack's
    tests (deploy/serve.py, ``make serve``) collect them into ``staticfiles/`` mid-run, and from then
    on each handler cost ~67 ms for 891 files: a file of API tests took 37 s instead of 5.
    Pages find their static files as in a fresh checkout (``live_server``'s handler, from
    STATICFILES_DIRS); the servers the tests start keep their own settings."""
    settings.STATIC_ROOT = None


def _flush_by_delete() -> None:
    """A test that commits (``transaction=True``: the browser tests' live server, the channels
    tests) ends with Django's flush of every table. On Postgres that is one TRUNCATE of ~40
    tables, ~0.35 s each time (a TRUNCATE makes new files for every table); a DELETE of the few
    rows a test wrote takes a few milliseconds. Django's foreign keys are DEFERRABLE INITIALLY
    DEFERRED and the flush runs in one transaction, so the order of the DELETEs does not matter.
    A test that asks for its sequences reset (``reset_sequences=True``) still gets TRUNCATE.

    The content types and permissions are kept: migrate made them, no test changes the schema, and
    the flush's post_migrate signal (only contenttypes and auth answer it) would otherwise write
    them all again, ~75 queries and ~0.15 s per test."""
    from django.core.management.commands import flush
    from django.db.backends.postgresql.operations import DatabaseOperations

    truncate, post_migrate = DatabaseOperations.sql_flush, flush.emit_post_migrate_signal
    kept = {"django_content_type", "auth_permission"}
    last = {"kept": False}  # whether the last flush kept them (not on SQLite, not for reset_sequences)

    def sql_flush(self, style, tables, *, reset_sequences=False, allow_cascade=False):
        last["kept"] = not reset_sequences and bool(tables)
        if not last["kept"]:
            return truncate(self, style, tables, reset_sequences=reset_sequences, allow_cascade=allow_cascade)
        return ["SET CONSTRAINTS ALL DEFERRED;"] + [
            f"{style.SQL_KEYWORD('DELETE FROM')} {style.SQL_FIELD(self.quote_name(table))};"
            for table in tables
            if table not in kept
        ]

    def keep_post_migrate_rows(verbosity, interactive, db, **kwargs):
        if last["kept"]:
            last["kept"] = False
            return None  # what it would write is still there
        return post_migrate(verbosity, interactive, db, **kwargs)

    DatabaseOperations.sql_flush = sql_flush
    flush.emit_post_migrate_signal = keep_post_migrate_rows


def _force_login_writes_the_session_once() -> None:
    """``Client.force_login`` (``api_client(user)``, ``page_as(user)``: a few thousand times a run)
    gives the client a signed-in session with one write. Django's own makes a session (the
    client's ``session`` property saves one), makes it again under a new key (``login()``'s
    ``cycle_key``), deletes the first, sends ``user_logged_in`` (``last_login``'s UPDATE, and
    django-axes's two DELETEs of failed sign-ins, each with a SELECT first) and saves once more:
    about 13 queries, ~19 % of the time of the tests of characters/ and combat/ (py-spy, #20).

    The session is the one ``login()`` leaves: the user's id, backend and hash; an anonymous session's
    data under a new key; this user's session as it was; another user's replaced by an empty one. force_login already
    skips the sign-in itself; the sign-in's doors (the form, the API's token, axes's counting and
    its reset on success) are tested through those doors, in tests/characters/accounts/."""
    from importlib import import_module

    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.http import HttpRequest
    from django.test.client import ClientMixin

    def force_login(self, user, backend=None):
        if backend is None:
            backend = self._get_backend()
        user.backend = backend
        engine = import_module(settings.SESSION_ENGINE)
        user_id, auth_hash = user._meta.pk.value_to_string(user), user.get_session_auth_hash()
        request = HttpRequest()
        request.session = engine.SessionStore()
        cookie = self.cookies.get(settings.SESSION_COOKIE_NAME)
        if cookie is not None and cookie.value:
            earlier = engine.SessionStore(cookie.value)
            if SESSION_KEY not in earlier:  # anonymous: login() moves its data to a new key
                request.session.update(dict(earlier.items()))
                earlier.delete()
            elif earlier[SESSION_KEY] == user_id and earlier.get(HASH_SESSION_KEY) == auth_hash:
                request.session = earlier  # this user already: login() keeps the session
            else:
                earlier.delete()  # another user's: login() starts an empty one
        request.session[SESSION_KEY] = user_id
        request.session[BACKEND_SESSION_KEY] = backend
        request.session[HASH_SESSION_KEY] = auth_hash
        request.session.save()
        self._set_login_cookies(request)

    # Only force_login: ``Client.login(username=..., password=...)`` signs in as Django does.
    ClientMixin.force_login = force_login


def pytest_report_header(config):
    from tests import fuzz

    other = "FUZZ=full for the full budgets" if not fuzz.FULL else "the default is FUZZ=smoke"
    return [f"fuzz profile: {fuzz.PROFILE} ({other}; tests/fuzz.py)"]


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    """A browser test that fails reports what its browsers did and where its pages are
    (tests/e2e/conftest.py's ``browser_story``), read before its pages close."""
    report = yield
    if report.when == "call" and report.failed and item.get_closest_marker("browser"):
        e2e = sys.modules.get("tests.e2e.conftest")
        story = e2e.browser_story() if e2e else ""
        if story:
            report.sections.append(("the browsers' story", story))
    return report


def pytest_xdist_make_scheduler(config, log):
    """Under pytest-xdist (``make test``: ``--dist loadfile``) the scheduler of tests/scheduling.py:
    a test file per worker at a time (the browser tests as one, on one worker), the longest first, and the
    tests marked ``alone`` (a wall-clock budget) at the end on one worker while the others have
    stopped."""
    if config.getvalue("dist") != "loadfile":
        return None
    from tests.scheduling import make_scheduler

    return make_scheduler(config, log)


def pytest_collection_modifyitems(config, items):
    """``@pytest.mark.postgres_only("why")``: on any other database (``make test``'s SQLite fallback,
    deploy/testdb.py) the test is skipped with a reason that names it, and pytest's summary lists it."""
    from django.conf import settings

    engine = settings.DATABASES["default"]["ENGINE"]
    if engine == "django.db.backends.postgresql":
        return
    for item in items:
        marker = item.get_closest_marker("postgres_only")
        if marker:
            why = marker.args[0] if marker.args else "Postgres behaviour"
            item.add_marker(
                pytest.mark.skip(reason=f"postgres_only: {why}; this run is on {engine.rsplit('.', 1)[-1]}")
            )


@pytest.fixture(autouse=True)
def _plain_http_test_settings(settings):
    """Tests talk plain HTTP to the test client and live_server: no TLS redirects or secure cookies,
    plain static storage (no manifest to build) and a fast password hasher."""
    for name, value in _PLAIN_HTTP.items():
        setattr(settings, name, value)
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }


@pytest.fixture(autouse=True)
def _fresh_cache():
    """Each test starts with an empty cache: the sign-in and join-code limits (characters/accounts/throttling.py)
    count there, and tests sign in and join far more often than a person would. The limits stay on:
    tests/characters/accounts/test_throttling.py checks them."""
    from django.core.cache import caches

    for cache in caches.all():
        cache.clear()
    yield
