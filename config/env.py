"""Read the environment once, loudly.

Every setting that comes from the environment goes through one of these helpers,
so that a typo in a deployment (``DEBUG=maybe``) stops the process at start-up
with a message naming the variable, instead of silently meaning something else.
"""

from __future__ import annotations

import os
import re
from urllib.parse import parse_qs, unquote, urlsplit

from django.core.exceptions import ImproperlyConfigured as DjangoImproperlyConfigured


class ImproperlyConfigured(DjangoImproperlyConfigured):
    """Raised when an environment variable holds a value we cannot use (a Django ImproperlyConfigured)."""


#: False only in a process that manage.py started for a command that signs and serves nothing (the
#: rules CLI, help): config/settings.py then lets it start without a SECRET_KEY. In memory on
#: purpose: no environment variable can turn the production check off, and no child inherits it.
_secret_key_needed = True


def secret_key_not_needed() -> None:
    """Called by manage.py, before the settings load, for its NO_SECRET_COMMANDS only."""
    global _secret_key_needed
    _secret_key_needed = False


def secret_key_needed() -> bool:
    """Whether this process must refuse to start, with DEBUG off, without a SECRET_KEY."""
    return _secret_key_needed


_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def env_str(name: str, default: str = "") -> str:
    return os.environ.get(name, default)


def env_bool(name: str, default: bool = False) -> bool:
    raw = os.environ.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ImproperlyConfigured(
        f"{name}={raw!r} is not a boolean: use one of true/false, yes/no, on/off, 1/0."
    )


def env_int(name: str, default: int) -> int:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        return int(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={raw!r} is not a whole number.") from None


def env_list(name: str, default: list[str] | None = None) -> list[str]:
    raw = os.environ.get(name)
    if raw is None:
        return list(default or [])
    return [part.strip() for part in raw.split(",") if part.strip()]


def parse_database_url(url: str, *, base_dir) -> dict:
    """Turn a ``DATABASE_URL`` into a Django ``DATABASES['default']`` dict.

    Two schemes are understood: ``postgres://`` / ``postgresql://`` and
    ``sqlite:///path`` (relative to the project) or ``sqlite:////abs/path``.
    """
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    if scheme in ("postgres", "postgresql", "pgsql"):
        name = unquote(parts.path.lstrip("/"))
        if not name:
            raise ImproperlyConfigured(
                f"DATABASE_URL={url!r} names no database: write postgres://user@host:5432/dbname."
            )
        try:
            port = parts.port
        except ValueError:
            raise ImproperlyConfigured(f"DATABASE_URL={url!r} has a port that is not a number.") from None
        options = {k: v[-1] for k, v in parse_qs(parts.query).items()}
        config = {
            "ENGINE": "django.db.backends.postgresql",
            "NAME": name,
            "USER": unquote(parts.username or ""),
            "PASSWORD": unquote(parts.password or ""),
            "HOST": parts.hostname or "",
            "PORT": str(port or ""),
            "CONN_MAX_AGE": 60,
            "CONN_HEALTH_CHECKS": True,
        }
        if options:
            config["OPTIONS"] = options
        return config
    if scheme == "sqlite":
        path = parts.path
        if url.startswith("sqlite:////"):
            name = "/" + path.lstrip("/")
        else:
            name = str(base_dir / path.lstrip("/")) if path.strip("/") else str(base_dir / "db.sqlite3")
        return {"ENGINE": "django.db.backends.sqlite3", "NAME": name}
    raise ImproperlyConfigured(
        f"DATABASE_URL={url!r}: unsupported scheme {scheme or '(none)'!r}; "
        "use postgres://user:password@host:port/name or sqlite:///db.sqlite3."
    )


_RATE = re.compile(r"^\d+/(s|sec|second|m|min|minute|h|hour|d|day)$")


def env_rate(name: str, default: str) -> str:
    """A throttle rate as DRF writes it: ``10/minute`` (s, m, h, d or their long names)."""
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    value = raw.strip().lower()
    if not _RATE.match(value):
        raise ImproperlyConfigured(f"{name}={raw!r} is not a rate: write e.g. 10/minute or 100/hour.")
    return value
