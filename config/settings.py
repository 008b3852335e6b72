"""Sheetforge settings: one module, every environment value read through config.env."""

from __future__ import annotations

import sys
from pathlib import Path

from config.env import ImproperlyConfigured, env_bool, env_int, env_list, env_str, parse_database_url

BASE_DIR = Path(__file__).resolve().parent.parent

DEBUG = env_bool("DEBUG", default=False)
#: Django's own advice (and `check --deploy`, security.W009): 50 characters or more.
MIN_SECRET_KEY_LENGTH = 50
SECRET_KEY = env_str("SECRET_KEY", "")
if not DEBUG and len(SECRET_KEY) < MIN_SECRET_KEY_LENGTH:
    # Fail closed: a server that signs sessions and CSRF tokens with a public or guessable key
    # must not start. The development key below is for DEBUG=true only.
    raise ImproperlyConfigured(
        f"SECRET_KEY is {'not set' if not SECRET_KEY else f'only {len(SECRET_KEY)} characters long'}: "
        f"with DEBUG off it must be at least {MIN_SECRET_KEY_LENGTH} random characters, e.g. "
        '`export SECRET_KEY=$(python3 -c "import secrets; print(secrets.token_urlsafe(50))")`, '
        "or set DEBUG=true for development."
    )
if not SECRET_KEY:
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
    "rest_framework.authtoken",
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
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "config.middleware.BodySizeLimitMiddleware",
    "config.middleware.FormInputErrorMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
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
DATABASES = {
    "default": parse_database_url(DATABASE_URL, base_dir=BASE_DIR)
    if DATABASE_URL
    else {"ENGINE": "django.db.backends.sqlite3", "NAME": str(BASE_DIR / "db.sqlite3")}
}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REDIS_URL = env_str("REDIS_URL", "")
if REDIS_URL:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL}}
    CHANNEL_LAYERS = {
        "default": {"BACKEND": "channels_redis.core.RedisChannelLayer", "CONFIG": {"hosts": [REDIS_URL]}}
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}

# Sessions live in the database (nothing is kept in a web process) and are read through the cache
# (Redis when REDIS_URL is set), which saves a query on every request, live builder updates included.
SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
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
        "BACKEND": env_str(
            "STATICFILES_BACKEND", "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}

# Request bodies over this size are refused with 413 (CONTRACT.md).
MAX_REQUEST_BODY = env_int("MAX_REQUEST_BODY", 256 * 1024)
DATA_UPLOAD_MAX_MEMORY_SIZE = MAX_REQUEST_BODY

REST_FRAMEWORK = {
    # Token first: an anonymous API call then gets 401 with `WWW-Authenticate: Token`, not a bare 403.
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "config.api.exception_handler",
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": ["rest_framework.parsers.JSONParser"],
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
    "POSTPROCESSING_HOOKS": ["drf_spectacular.hooks.postprocess_schema_enums", "config.schema.error_responses"],
    # Several models have a "status" field with different choices: name each enum after its model.
    "ENUM_NAME_OVERRIDES": {
        "CharacterStatusEnum": "characters.models.Character.Status",
        "AdvancementStatusEnum": "characters.models.Advancement.Status",
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
X_FRAME_OPTIONS = "DENY"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "WARNING")},
}
