"""Sheetforge settings: one module, every environment value read through config.env."""

from __future__ import annotations

import sys
from datetime import timedelta
from pathlib import Path
from typing import Any

from config.env import (
    ImproperlyConfigured,
    env_bool,
    env_int,
    env_list,
    env_rate,
    env_str,
    parse_database_url,
    secret_key_needed,
)
from config.layers import redis_channel_layer

BASE_DIR = Path(__file__).resolve().parent.parent

DEBUG = env_bool("DEBUG", default=False)
#: Django's own advice (and `check --deploy`, security.W009): 50 characters or more.
MIN_SECRET_KEY_LENGTH = 50
SECRET_KEY = env_str("SECRET_KEY", "")
if not DEBUG and len(SECRET_KEY) < MIN_SECRET_KEY_LENGTH and secret_key_needed():
    # Fail closed: a server that signs sessions and CSRF tokens with a public or guessable key
    # must not start. The development key below is for DEBUG=true only. The one exception is a
    # manage.py command that signs and serves nothing (the rules CLI, help: manage.py says why);
    # its SECRET_KEY stays as given, empty when unset, and Django refuses an empty key if read.
    raise ImproperlyConfigured(
        f"SECRET_KEY is {'not set' if not SECRET_KEY else f'only {len(SECRET_KEY)} characters long'}: "
        f"with DEBUG off it must be at least {MIN_SECRET_KEY_LENGTH} random characters, e.g. "
        '`export SECRET_KEY=$(python3 -c "import secrets; print(secrets.token_urlsafe(50))")`, '
        "or set DEBUG=true for development."
    )
if not SECRET_KEY and DEBUG:
    # Development only (DEBUG=true): a fixed key so that sessions survive a restart of `make run`.
    # Its "django-insecure-" prefix makes `manage.py check --deploy` flag it (security.W009).
    SECRET_KEY = "django-insecure-sheetforge-dev-key-change-me-in-production-0123456789"

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]", "testserver"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "knox",
    "axes",
    "csp",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_htmx",
    "template_partials",
    "channels",
    "rulesets",
    "characters",
    "combat",
]

# daphne's `runserver` serves HTTP and websockets (live encounters) in development. Importing it
# pulls in Twisted (~0.35 s), which no other command needs — the rules CLI least of all.
if len(sys.argv) > 1 and sys.argv[1] == "runserver":
    INSTALLED_APPS.insert(0, "daphne")

MIDDLEWARE = [
    # First: /healthz answers before sessions, host checks and https redirects (config/health.py).
    "config.health.HealthCheckMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "config.middleware.MessageMiddleware",  # django.contrib.messages', its storage made on first use
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "config.csp.ContentSecurityPolicyMiddleware",
    "config.middleware.BodySizeLimitMiddleware",
    "config.middleware.ApplicationErrorMiddleware",
    "config.middleware.FormInputErrorMiddleware",
    # Turns a locked-out sign-in (login page, token endpoint) into the lockout answer.
    "axes.middleware.AxesMiddleware",
    # Last, so asked first of a view's exception: a read tried again after a dropped database
    # connection, an outage a 503 in words (config/outage.py).
    "config.outage.OutageMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "OPTIONS": {
            # The project's templates, the apps', then each ruleset folder's (rulesets/loaders.py);
            # django-template-partials wraps them all, cached.
            "loaders": [
                (
                    "template_partials.loader.Loader",
                    [
                        (
                            "django.template.loaders.cached.Loader",
                            [
                                "django.template.loaders.filesystem.Loader",
                                "django.template.loaders.app_directories.Loader",
                                "rulesets.loaders.RulesetLoader",
                            ],
                        )
                    ],
                )
            ],
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "characters.context_processors.navigation",
            ],
        },
    }
]

DATABASE_URL = env_str("DATABASE_URL", "")
DATABASES: dict[str, dict[str, Any]] = {
    "default": parse_database_url(DATABASE_URL, base_dir=BASE_DIR)
    if DATABASE_URL
    else {"ENGINE": "django.db.backends.sqlite3", "NAME": str(BASE_DIR / "db.sqlite3")}
}

# Database connections are bounded whatever the load (README "Deployment and scaling"):
# - a WSGI worker (gunicorn, one thread) keeps its one connection for DB_CONN_MAX_AGE seconds;
# - the ASGI server runs every database call in a thread of its own, so a persistent connection
#   per thread grows with the load until Postgres refuses more ("too many clients already"). Its
#   process (config/asgi.py sets SHEETFORGE_SERVER=asgi) takes connections from a psycopg pool of
#   at most ASGI_DB_POOL_MAX, or opens one per call when ASGI_DB_POOL_MAX=0; a persistent
#   connection there is refused at start-up.
ASGI_SERVER = env_str("SHEETFORGE_SERVER", "") == "asgi"
ASGI_DB_POOL_MAX = env_int("ASGI_DB_POOL_MAX", 4)
if ASGI_DB_POOL_MAX < 0:
    raise ImproperlyConfigured(f"ASGI_DB_POOL_MAX={ASGI_DB_POOL_MAX} must be 0 (no pool) or more.")
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    _db = DATABASES["default"]
    if ASGI_SERVER:
        _db["CONN_MAX_AGE"] = env_int("DB_CONN_MAX_AGE", 0)
        if _db["CONN_MAX_AGE"] != 0:
            raise ImproperlyConfigured(
                f"DB_CONN_MAX_AGE={_db['CONN_MAX_AGE']} on the ASGI server (config.asgi): it runs every "
                "database call in a thread of its own, and persistent connections per thread pile up until "
                "Postgres refuses more. Leave DB_CONN_MAX_AGE unset there: the ASGI side takes its "
                f"connections from a pool of at most ASGI_DB_POOL_MAX (now {ASGI_DB_POOL_MAX}) per process, "
                "or opens one per call with ASGI_DB_POOL_MAX=0."
            )
        if ASGI_DB_POOL_MAX:
            _db["OPTIONS"] = {
                **_db.get("OPTIONS", {}),
                "pool": {"min_size": 1, "max_size": ASGI_DB_POOL_MAX, "timeout": 10},
            }
    else:
        _db["CONN_MAX_AGE"] = env_int("DB_CONN_MAX_AGE", 60)
    # Parameters bound on the server, so that psycopg prepares a statement a connection runs again
    # and again (after 5 runs; at most 100 a connection): Postgres then plans it once, not on every
    # request. The sheet's three reads spent more time being planned (~0.35 ms each) than run
    # (BENCHMARKS.md, #33). DB_PREPARED_STATEMENTS=false behind a pooler that cannot keep them
    # (PgBouncer in transaction mode without max_prepared_statements).
    if env_bool("DB_PREPARED_STATEMENTS", True):
        _db["OPTIONS"] = {**_db.get("OPTIONS", {}), "server_side_binding": True, "prepare_threshold": 5}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REDIS_URL = env_str("REDIS_URL", "")
if REDIS_URL:
    # A Redis outage degrades instead of answering 500 (config/cache.py): a failed operation is a miss,
    # Redis is left alone for 2 s after a failure, and these timeouts keep a dead one to milliseconds.
    _redis_options = {"socket_connect_timeout": 0.25, "socket_timeout": 0.5}
    CACHES: dict[str, dict[str, Any]] = {
        # Throttles count in this process's memory while Redis is away.
        "default": {
            "BACKEND": "config.cache.ForgivingRedisCache",
            "LOCATION": REDIS_URL,
            "OPTIONS": {**_redis_options, "FALLBACK": "memory"},
        },
        # Sessions fall back to the database, and drop what Redis may have kept stale on its return.
        "sessions": {
            "BACKEND": "config.cache.ForgivingRedisCache",
            "LOCATION": REDIS_URL,
            "OPTIONS": {**_redis_options, "STALE_ON_RETURN": ["django.contrib.sessions.cached_db"]},
        },
    }
    # Redis pub/sub: a broadcast is published once and each websocket process hands it to its own
    # clients (the list-based RedisChannelLayer stores one copy per client and each process pops
    # them one by one: 200 watchers cost 200 round trips). At most once, like any live update: a
    # page that misses one sees the version gap and fetches the board (combat/broadcast.py).
    CHANNEL_LAYERS = {"default": redis_channel_layer(REDIS_URL)}
else:
    CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
        "sessions": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "sessions"},
    }
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
# The template's {% cache %} fragments (the sheet's numbers, roll buttons, roll log) are keyed by
# everything they print (character version, campaign rules, or a digest of their values), so a
# process's own memory serves them correctly: no Redis round trip per fragment, none to miss in an outage.
CACHES["template_fragments"] = {
    "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
    "LOCATION": "template-fragments",
    "OPTIONS": {"MAX_ENTRIES": 2000},
}

# Sessions live in the database (nothing is kept in a web process) and are read through the cache
# (Redis when REDIS_URL is set), which saves a query on every request, live builder updates included.
# With Redis away they are read from the database alone (the "sessions" cache has no fallback).
SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"
SESSION_CACHE_ALIAS = "sessions"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# django-axes first: it refuses a locked-out sign-in before the password is even checked.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    # Django's ModelBackend, loading the session's user with the navigation's review badge in the
    # same query (characters/accounts/backends.py); ModelBackend itself for sessions that name it.
    "characters.accounts.backends.SessionUserBackend",
    "django.contrib.auth.backends.ModelBackend",
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": env_str("STATICFILES_BACKEND", "whitenoise.storage.CompressedManifestStaticFilesStorage")
    },
}

# Request bodies over this size are refused with 413 (CONTRACT.md).
MAX_REQUEST_BODY = env_int("MAX_REQUEST_BODY", 256 * 1024)
DATA_UPLOAD_MAX_MEMORY_SIZE = MAX_REQUEST_BODY

# ---- Brute-force protection (README "Sign-in limits"; characters/accounts/throttling.py says why these).
# Sign-ins (the login page and POST /api/v1/auth/token/): django-axes counts failures per username
# and per client IP; at LOGIN_FAILURE_LIMIT either is locked out for LOGIN_COOLOFF_SECONDS, the
# right password included (login page: the lockout message, 429; API: 429 with Retry-After).
# Its store is the database, with or without Redis: a lock-out must hold while Redis is away, and a
# failed sign-in costs one write (the cache handler counted nothing during an outage).
LOGIN_FAILURE_LIMIT = env_int("LOGIN_FAILURE_LIMIT", 5)
LOGIN_COOLOFF_SECONDS = env_int("LOGIN_COOLOFF_SECONDS", 15 * 60)
#: Proxies in front of the app that append to X-Forwarded-For (nginx: 1); 0 = use REMOTE_ADDR.
TRUSTED_PROXY_COUNT = env_int("TRUSTED_PROXY_COUNT", 0)
AXES_ENABLED = env_bool("LOGIN_LIMITS", default=True)
#: Webhooks (characters/webhooks/): an address that resolves to a private, loopback or link-local
#: address is refused when set and at each delivery, unless this is true (the tests' local receiver).
WEBHOOKS_ALLOW_PRIVATE = env_bool("WEBHOOKS_ALLOW_PRIVATE", default=False)
AXES_FAILURE_LIMIT = LOGIN_FAILURE_LIMIT
AXES_COOLOFF_TIME = timedelta(seconds=LOGIN_COOLOFF_SECONDS)
AXES_LOCKOUT_PARAMETERS = ["username", "ip_address"]
AXES_HANDLER = "axes.handlers.database.AxesDatabaseHandler"
AXES_RESET_ON_SUCCESS = True
# Attempts during a lock-out do not prolong it: the cooling-off period ends when it says.
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
AXES_DISABLE_ACCESS_LOG = True  # successful sign-ins are not the concern here
AXES_CLIENT_IP_CALLABLE = "characters.accounts.throttling.client_ip"
AXES_LOCKOUT_CALLABLE = "characters.accounts.throttling.lockout_response"
AXES_VERBOSE = False
# Join codes (page and API) and the token endpoint: DRF throttles, in the cache (Redis when set; while
# Redis is away, this process's memory: config/cache.py).
JOIN_CODE_FAILURE_RATE = env_rate("JOIN_CODE_FAILURE_RATE", "10/hour")  # wrong codes per user and per IP
AUTH_TOKEN_RATE = env_rate("AUTH_TOKEN_RATE", "30/minute")  # token requests per IP, right or wrong

# ---- API tokens (characters/accounts/auth.py): one per device, hashed at rest, optional expiry.
API_TOKEN_TTL_DAYS = env_int("API_TOKEN_TTL_DAYS", 0)  # 0 or unset: tokens do not expire
KNOX_TOKEN_MODEL = "characters.ApiToken"
# knox's own migrations create its default token table even when the model is swapped (they lack
# the "swappable" option): without them nothing of knox's is in the database, only ours.
MIGRATION_MODULES = {"knox": None}
REST_KNOX = {
    "TOKEN_TTL": timedelta(days=API_TOKEN_TTL_DAYS) if API_TOKEN_TTL_DAYS > 0 else None,
    "AUTH_HEADER_PREFIX": "Token",
}

REST_FRAMEWORK = {
    # Token first: an anonymous API call then gets 401 with `WWW-Authenticate: Token`, not a bare 403.
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "characters.accounts.auth.ApiTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "NUM_PROXIES": TRUSTED_PROXY_COUNT or None,  # the throttles' client IP (characters.accounts.throttling)
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "config.api.exception_handler",
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": ["rest_framework.parsers.JSONParser"],
    "DEFAULT_CONTENT_NEGOTIATION_CLASS": "config.negotiation.ContentNegotiation",
    "UNAUTHENTICATED_USER": "django.contrib.auth.models.AnonymousUser",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Sheetforge API",
    "DESCRIPTION": "Rules service, characters, advancement and encounters. See CONTRACT.md.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    # Every operation's door answers (400 on a bad body, 401, 404, 413 …) in the one error shape.
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "config.schema.error_responses",
    ],
    # Several models have a "status" field with different choices: name each enum after its model.
    "ENUM_NAME_OVERRIDES": {
        "CharacterStatusEnum": "characters.models.Character.Status",
        "AdvancementStatusEnum": "characters.models.Advancement.Status",
        "AdvancementKindEnum": "characters.models.Advancement.Kind",
        "LedgerEntryKindEnum": "characters.models.LedgerEntry.Kind",
        "EncounterStatusEnum": "combat.models.Encounter.Status",
    },
}

# Production hardening: on when DEBUG is off (behind TLS). `manage.py check --deploy` stays quiet.
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
if not DEBUG:
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", default=True)
    SESSION_COOKIE_SECURE = env_bool("SESSION_COOKIE_SECURE", default=True)
    CSRF_COOKIE_SECURE = env_bool("CSRF_COOKIE_SECURE", default=True)
    SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 31536000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
SECURE_CONTENT_TYPE_NOSNIFF = True

# Content-Security-Policy (django-csp) on every response: scripts from our own origin only (htmx
# with allowEval off, the page scripts in static/js/), no inline script or handler, no eval. The
# live pages' websocket: connect-src adds ws:// and wss:// of the request's own host
# (config.csp.ContentSecurityPolicyMiddleware). Styles allow 'unsafe-inline': the odds bars'
# heights and swagger-ui are inline style attributes; scripts are what CSP is here for.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'", "'unsafe-inline'"],
        "img-src": ["'self'", "data:"],
        "font-src": ["'self'"],
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    }
}
X_FRAME_OPTIONS = "DENY"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "WARNING")},
}
