"""Where a form goes back to: a ``next`` the page carried, only ever a safe local path.

A ``next`` is the client's text. Handed to ``django.shortcuts.redirect`` a bare word ("x",
"character_sheet") is taken for a view's name and fails to resolve (a 500 after the form's work
was done); a scheme-relative ``//host`` or a backslash is another site. Only a path on this
site, starting with one "/", is taken; anything else is the form's default page.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from django.http import HttpRequest
from django.utils.http import url_has_allowed_host_and_scheme

#: Longer than any path of the site's; a longer ``next`` is not one of ours.
MAX_PATH = 2000


def local_path(raw: object, request: HttpRequest) -> str | None:
    """``raw`` when it is a path of this site ("/characters/3/?tab=play#dice"), else None."""
    if not isinstance(raw, str) or not raw or len(raw) > MAX_PATH:
        return None
    if not raw.startswith("/") or raw.startswith(("//", "/\\")):
        return None
    if any(ch < " " or ch == "\x7f" or ch == "\\" or ch.isspace() for ch in raw):
        return None
    parts = urlsplit(raw)
    if parts.scheme or parts.netloc:
        return None
    if not url_has_allowed_host_and_scheme(raw, {request.get_host()}, request.is_secure()):
        return None
    return raw


def next_or(request: HttpRequest, default: str, *, name: str = "next") -> str:
    """The request's ``next`` (the POST's, else the query's) when it is a local path, else ``default``."""
    raw = request.POST.get(name) if request.method == "POST" else None
    if raw is None:
        raw = request.GET.get(name)
    return local_path(raw, request) or default
