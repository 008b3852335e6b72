"""The Content-Security-Policy header (django-csp), with the live pages' websocket allowed.

The policy itself is ``CONTENT_SECURITY_POLICY`` in settings. CSP level 3 browsers already let
``connect-src 'self'`` open ws:/wss: to the page's own host; older ones need the scheme spelled
out, so each response adds ``ws://<host>`` and ``wss://<host>`` for the host it was asked for
(never a wildcard: a script injected somewhere still cannot talk to another host).

The header is the same for every response to one host unless a view customises it (django-csp's
``@csp_update``/``@csp_replace``/``@csp`` decorators) or a template asked for a nonce: the
built text is kept per host (``ALLOWED_HOSTS`` bounds the hosts; at most ``_MAX_HOSTS`` are
kept) and building it again from the settings for each response (~40 µs, a tenth of the
anonymous validate request) is skipped. Changing a CSP setting (tests) forgets what was kept.
"""

from __future__ import annotations

from csp.constants import HEADER, HEADER_REPORT_ONLY
from csp.middleware import CheckableLazyObject, CSPMiddleware, PolicyParts
from django.conf import settings
from django.core.exceptions import DisallowedHost
from django.core.signals import setting_changed
from django.dispatch import receiver

#: Per-view customisations of django-csp: a response carrying one is built from scratch.
_CUSTOMISED = (
    "_csp_config",
    "_csp_update",
    "_csp_replace",
    "_csp_config_ro",
    "_csp_update_ro",
    "_csp_replace_ro",
    "_csp_exempt",
    "_csp_exempt_ro",
)
_MAX_HOSTS = 64
#: host (or None when the host is not allowed) → (policy, report-only policy)
_built: dict[str | None, tuple[str, str]] = {}


@receiver(setting_changed)
def _forget_built_policies(setting: str, **kwargs) -> None:
    if setting.startswith("CONTENT_SECURITY_POLICY"):
        _built.clear()


def _host(request) -> str | None:
    try:
        return request.get_host()
    except DisallowedHost:
        return None


class ContentSecurityPolicyMiddleware(CSPMiddleware):
    def get_policy_parts(self, request, response, report_only: bool = False) -> PolicyParts:
        parts = super().get_policy_parts(request, response, report_only=report_only)
        if report_only:
            return parts
        host = _host(request)
        if host is None:
            return parts
        update = dict(parts.update or {})
        update["connect-src"] = [*update.get("connect-src", []), f"ws://{host}", f"wss://{host}"]
        parts.update = update
        return parts

    def process_response(self, request, response):
        if getattr(request, "_csp_nonce", None) is not None or any(
            hasattr(response, name) for name in _CUSTOMISED
        ):
            return super().process_response(request, response)
        if response.status_code in (500, 404) and settings.DEBUG:  # django-csp leaves debug pages alone
            return response
        host = _host(request)
        built = _built.get(host)
        if built is None:
            built = (
                self._policy(request, response, report_only=False),
                self._policy(request, response, report_only=True),
            )
            if len(_built) >= _MAX_HOSTS:
                _built.clear()
            _built[host] = built
        for header, value, setting in (
            (HEADER, built[0], "CONTENT_SECURITY_POLICY"),
            (HEADER_REPORT_ONLY, built[1], "CONTENT_SECURITY_POLICY_REPORT_ONLY"),
        ):
            if value and header not in response:
                prefixes = (getattr(settings, setting, None) or {}).get("EXCLUDE_URL_PREFIXES") or ()
                if not request.path_info.startswith(tuple(prefixes)):
                    response[header] = value
        # As django-csp does: asking for a nonce after the header is written is an error.
        request.csp_nonce = CheckableLazyObject(self._csp_nonce_post_response)
        return response

    def _policy(self, request, response, *, report_only: bool) -> str:
        from dataclasses import asdict

        from csp.utils import build_policy

        parts = self.get_policy_parts(request=request, response=response, report_only=report_only)
        return build_policy(**asdict(parts), report_only=report_only)
