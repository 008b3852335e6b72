"""The API's content negotiation (REST_FRAMEWORK["DEFAULT_CONTENT_NEGOTIATION_CLASS"]).

A module of its own: DRF imports it while its views module loads, so it may not import the views.
"""

from __future__ import annotations

from rest_framework.negotiation import DefaultContentNegotiation


class ContentNegotiation(DefaultContentNegotiation):
    """DRF's content negotiation, answered at once in the common case: a view with one renderer
    (the API's: JSON), no format suffix or query string, and an Accept header that is missing,
    ``*/*`` or that renderer's media type. DRF would pick the same renderer and media type after
    building every header into ``request.headers`` and parsing Accept; anything else goes to DRF."""

    def select_renderer(self, request, renderers, format_suffix=None):
        if len(renderers) == 1 and not format_suffix:
            meta = request._request.META
            accept = meta.get("HTTP_ACCEPT")
            renderer = renderers[0]
            if not meta.get("QUERY_STRING") and accept in (None, "*/*", renderer.media_type):
                return renderer, renderer.media_type
        return super().select_renderer(request, renderers, format_suffix)
