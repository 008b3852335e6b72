"""The Content-Security-Policy header (django-csp), with the live pages' websocket allowed.

The policy itself is ``CONTENT_SECURITY_POLICY`` in settings. CSP level 3 browsers already let
``connect-src 'self'`` open ws:/wss: to the page's own host; older ones need the scheme spelled
out, so each response adds ``ws://<host>`` and ``wss://<host>`` for the host it was asked for
(never a wildcard: a script injected somewhere still cannot talk to another host).
"""

from __future__ import annotations

from csp.middleware import CSPMiddleware, PolicyParts
from django.core.exceptions import DisallowedHost


class ContentSecurityPolicyMiddleware(CSPMiddleware):
    def get_policy_parts(self, request, response, report_only: bool = False) -> PolicyParts:
        parts = super().get_policy_parts(request, response, report_only=report_only)
        if report_only:
            return parts
        try:
            host = request.get_host()
        except DisallowedHost:
            return parts
        update = dict(parts.update or {})
        update["connect-src"] = [*update.get("connect-src", []), f"ws://{host}", f"wss://{host}"]
        parts.update = update
        return parts
