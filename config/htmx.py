"""The request type of views that read ``request.htmx`` (set by django-htmx's ``HtmxMiddleware``,
which every request goes through): the annotation django-htmx documents for type checkers."""

from __future__ import annotations

from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails
