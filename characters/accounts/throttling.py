"""Brute-force limits: sign-ins (django-axes) and join codes / the token endpoint (DRF throttles).

Why these two libraries: django-axes is the well-kept Django answer to password guessing. It
hooks the authentication backend and signals, so the login page and ``POST /api/v1/auth/token/``
share one count, per username and per client IP, and a locked-out sign-in is refused *before*
the password is checked (the right password too) until the cooling-off period ends. Its store
is the database (one count for every process, and it holds while Redis is away).
DRF's throttles (already a dependency) limit what is not a sign-in: every request to the token
endpoint per IP (``AUTH_TOKEN_RATE``) and *wrong* join codes per user and per IP
(``JOIN_CODE_FAILURE_RATE``), on both the page and the API, in the cache (while Redis is away,
each process counts in its own memory: config/cache.py). django-ratelimit
would do the latter too but is one more library for what DRF already has.

Every lock-out is logged (logger ``characters.accounts.throttling``, WARNING) with the username, the IP
and the path; axes logs each failure that leads to one.
"""

from __future__ import annotations

import ipaddress
import logging
import math

from axes.signals import user_locked_out
from django.conf import settings
from django.dispatch import receiver
from django.http import JsonResponse
from django.shortcuts import render
from rest_framework.throttling import SimpleRateThrottle

logger = logging.getLogger(__name__)

LOCKOUT_MESSAGE = "Too many failed sign-ins. Try again in {wait}."


def _address(text: str) -> str | None:
    try:
        return str(ipaddress.ip_address(text.strip()))
    except ValueError:
        return None


def client_ip(request) -> str:
    """The client's address: REMOTE_ADDR, or the X-Forwarded-For entry added by the outermost of
    ``TRUSTED_PROXY_COUNT`` proxies (what DRF's ``NUM_PROXIES`` reads too). Anything that is not an
    IP address (a forged header reaching the app past the proxy) falls back to REMOTE_ADDR."""
    remote = request.META.get("REMOTE_ADDR", "") or "0.0.0.0"
    count = settings.TRUSTED_PROXY_COUNT
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
    if count > 0 and forwarded:
        addresses = [a.strip() for a in forwarded.split(",") if a.strip()]
        if addresses:
            chosen = _address(addresses[-min(count, len(addresses))])
            if chosen:
                return chosen
    return _address(remote) or "0.0.0.0"


def _wait_text(seconds: int) -> str:
    minutes = math.ceil(seconds / 60)
    if seconds < 60:
        return f"{seconds} second{'s' if seconds != 1 else ''}"
    return f"{minutes} minute{'s' if minutes != 1 else ''}"


def lockout_response(request, original_response=None, credentials=None):
    """What a locked-out sign-in gets (``AXES_LOCKOUT_CALLABLE``): 429 with Retry-After; the API
    in its error shape, the login page as itself with the message above its form."""
    wait = settings.LOGIN_COOLOFF_SECONDS
    message = LOCKOUT_MESSAGE.format(wait=_wait_text(wait))
    if request.path.startswith("/api/"):
        response = JsonResponse({"detail": message, "errors": []}, status=429)
    else:
        from django.contrib.auth.forms import AuthenticationForm

        form = AuthenticationForm(request)
        form.fields["username"].initial = (credentials or {}).get("username", "")
        response = render(request, "registration/login.html", {"form": form, "lockout": message}, status=429)
    response["Retry-After"] = str(wait)
    return response


@receiver(user_locked_out, dispatch_uid="characters.accounts.throttling.locked_out")
def _log_lockout(sender, request, username=None, ip_address=None, **kwargs) -> None:
    logger.warning(
        "sign-in locked out: username=%r ip=%s path=%s",
        username,
        ip_address,
        getattr(request, "path", "?"),
    )


# ------------------------------------------------------------------- DRF throttles


class _SettingRate:
    """The rate is read from a Django setting when the throttle is made (not frozen at import, as
    DRF's ``THROTTLE_RATES`` is), so that tests and ``override_settings`` can change it."""

    rate_setting = ""

    def get_rate(self):
        return getattr(settings, self.rate_setting, None)


class AuthTokenThrottle(_SettingRate, SimpleRateThrottle):
    """Every ``POST /api/v1/auth/token/`` per client IP, right password or wrong."""

    scope = "auth_token"
    rate_setting = "AUTH_TOKEN_RATE"

    def get_cache_key(self, request, view):
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class FailureThrottle(_SettingRate, SimpleRateThrottle):
    """A DRF throttle that counts failures only: ``allow_request`` checks, ``record_failure``
    (called by the view once the attempt failed) counts. A right join code costs nothing."""

    # Set by SimpleRateThrottle.__init__ from the rate (parse_rate); only read when there is a rate.
    num_requests: int
    duration: int

    def allow_request(self, request, view) -> bool:
        if self.rate is None:
            return True
        self.key = self.get_cache_key(request, view)
        if self.key is None:
            return True
        self.history = self.cache.get(self.key, [])
        self.now = self.timer()
        while self.history and self.history[-1] <= self.now - self.duration:
            self.history.pop()
        return len(self.history) < self.num_requests

    def record_failure(self) -> None:
        if self.rate is None or self.key is None:
            return
        self.history.insert(0, self.now)
        self.cache.set(self.key, self.history, self.duration)


class JoinCodeUserThrottle(FailureThrottle):
    scope = "join_code"
    rate_setting = "JOIN_CODE_FAILURE_RATE"

    def get_cache_key(self, request, view):
        user = getattr(request, "user", None)
        if user is None or not user.is_authenticated:
            return None
        return self.cache_format % {"scope": f"{self.scope}_user", "ident": user.pk}


class JoinCodeIPThrottle(FailureThrottle):
    scope = "join_code"
    rate_setting = "JOIN_CODE_FAILURE_RATE"

    def get_cache_key(self, request, view):
        return self.cache_format % {"scope": f"{self.scope}_ip", "ident": self.get_ident(request)}


class JoinAttempt:
    """The join-code limit for one request, shared by the page and the API::

    attempt = JoinAttempt(request)
    if not attempt.allowed: ...  # 429, "try again in attempt.wait_text"
    ... on a wrong code: attempt.failed()
    """

    def __init__(self, request):
        self.throttles = [JoinCodeUserThrottle(), JoinCodeIPThrottle()]
        self.refused = [t for t in self.throttles if not t.allow_request(request, None)]
        if self.refused:
            logger.warning(
                "join codes throttled: user=%s ip=%s path=%s",
                getattr(request.user, "pk", None),
                client_ip(request),
                request.path,
            )

    @property
    def allowed(self) -> bool:
        return not self.refused

    @property
    def wait(self) -> int:
        waits = [t.wait() for t in self.refused]
        return max(1, math.ceil(max((w for w in waits if w is not None), default=1)))

    @property
    def message(self) -> str:
        return f"Too many wrong join codes. Try again in {_wait_text(self.wait)}."

    def failed(self) -> None:
        for throttle in self.throttles:
            throttle.record_failure()
