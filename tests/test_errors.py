"""The project's errors (config/errors.py) become HTTP in one place per door."""

from __future__ import annotations

import json

import pytest
from django.core.exceptions import PermissionDenied
from django.test import RequestFactory

from config.api import exception_handler
from config.errors import BadInput, Conflict, NotPermitted, RuleRefused, rule_refused
from config.middleware import ApplicationErrorMiddleware


def test_each_error_carries_its_status_and_its_reasons():
    assert (BadInput("No.", field="amount").status_code, BadInput("No.", field="amount").errors) == (
        400,
        [{"field": "amount", "message": "No."}],
    )
    assert (Conflict("Stale.").status_code, Conflict("Stale.").errors, Conflict().message) == (
        409,
        [],
        "The object changed since you read it.",
    )
    refused = rule_refused("coin.no_lives", "No lives left.", "/lives")
    assert (refused.status_code, refused.code, refused.errors) == (
        422,
        "coin.no_lives",
        [{"code": "coin.no_lives", "path": "/lives", "message": "No lives left."}],
    )
    assert isinstance(NotPermitted("GM only."), PermissionDenied) and NotPermitted("x").status_code == 403


def test_the_api_answers_them_in_its_error_shape():
    response = exception_handler(
        RuleRefused("The rules refuse.", errors=[{"code": "a.b", "message": "m"}]), {}
    )
    assert (response.status_code, response.data) == (
        422,
        {"detail": "The rules refuse.", "errors": [{"code": "a.b", "message": "m"}]},
    )


@pytest.mark.django_db
def test_a_page_that_does_not_catch_one_answers_its_status_with_the_sentence():
    middleware = ApplicationErrorMiddleware(lambda request: None)
    request = RequestFactory().post("/characters/1/state/")
    request.htmx = True
    response = middleware.process_exception(request, Conflict("This character changed: reload it."))
    assert (response.status_code, response["HX-Retarget"]) == (409, "#messages")
    assert (
        '<p class="message message-error" data-testid="form-refused">This character changed: reload it. '
        "Nothing was changed.</p>"
    ) in response.content.decode()
    request.htmx = False
    page = middleware.process_exception(request, RuleRefused("The rules refuse this build."))
    assert page.status_code == 422 and "<h1>Nothing was changed</h1>" in page.content.decode()
    request.htmx = True
    api = middleware.process_exception(RequestFactory().post("/api/v1/x/"), BadInput("Bad.", field="f"))
    assert (api.status_code, json.loads(api.content)) == (
        400,
        {"detail": "Bad.", "errors": [{"field": "f", "message": "Bad."}]},
    )
    # A NotPermitted is Django's 403 (its own page), and anything else is not this middleware's.
    assert middleware.process_exception(request, NotPermitted("GM only.")) is None
    assert middleware.process_exception(request, ValueError("bug")) is None
