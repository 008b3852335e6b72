"""The project's own errors: what a service raises when it refuses a request.

Services raise these, never HTTP or DRF exceptions; each carries its HTTP status once
(``status_code``), and the two doors map it in one place each: the API's exception handler
(``config.api.exception_handler``) and the pages' middleware
(``config.middleware.ApplicationErrorMiddleware``), for what a view does not show inline.

- ``message``: a sentence for the person (game words, no ids or codes).
- ``errors``: the reasons, each {"code", "path", "message"} (a rule) or {"field", "message"}
  (a bad value); ``[]`` when the message says it all.

What a user may not *see* is not an error here: the selectors raise their ``*NotFound``
(404) so that it looks the same as what does not exist.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied


class ApplicationError(Exception):
    """A refusal of a service; subclasses say which (and its HTTP status)."""

    status_code: int = 400
    code: str = "invalid"
    default_message: str = "This request cannot be done."

    def __init__(
        self,
        message: str | None = None,
        *,
        errors: list[dict[str, Any]] | None = None,
        code: str | None = None,
    ):
        self.message = str(message) if message else self.default_message
        self.errors: list[dict[str, Any]] = list(errors) if errors is not None else []
        if code:
            self.code = code
        super().__init__(self.message)

    @property
    def detail(self) -> str:
        """The message (the name the API's error shape gives it)."""
        return self.message


class BadInput(ApplicationError):
    """A value the service cannot take (400); ``field`` names it."""

    status_code = 400
    code = "invalid"
    default_message = "Invalid input."

    def __init__(self, message: str, *, field: str | None = None, errors: list[dict] | None = None):
        super().__init__(
            message, errors=errors if errors is not None else [{"field": field, "message": message}]
        )


class NotPermitted(ApplicationError, PermissionDenied):
    """The user may see this but not do it (403). Also a Django ``PermissionDenied``, so a page
    that does not catch it gets Django's 403 like any other."""

    status_code = 403
    code = "permission_denied"
    default_message = "You may not do that."


class Conflict(ApplicationError):
    """The object changed since the user read it, or a race was lost (409)."""

    status_code = 409
    code = "conflict"
    default_message = "The object changed since you read it."


class RuleRefused(ApplicationError):
    """The rules refuse this (422); ``errors`` carry the rules' codes and paths."""

    status_code = 422
    code = "rule_refused"
    default_message = "The rules refuse this."


def rule_refused(code: str, message: str, path: str | None = "") -> RuleRefused:
    """A refusal by one rule: its code, message and (when given) path."""
    error: dict[str, Any] = (
        {"code": code, "message": message}
        if path is None
        else {"code": code, "path": path, "message": message}
    )
    return RuleRefused(message, errors=[error], code=code)


#: The refusals a form shows beside itself; a ``NotPermitted`` is a 403 page of its own.
SHOWN_INLINE = (BadInput, Conflict, RuleRefused)


class DraftConflict(Conflict):
    """A builder page's save that cannot be put on top of the latest draft (409): ``conflicts``
    are the traits both changed ([{"path", "label", "base", "mine", "theirs"}], empty when the
    page's version is too old to merge), ``current_version`` and ``latest`` the draft as saved,
    ``problems`` the rules the merged build would break where neither side did (the messages)."""

    def __init__(
        self,
        message: str,
        *,
        conflicts: list[dict],
        current_version: int,
        latest: Any,
        problems: list[str] | None = None,
    ):
        self.conflicts = conflicts
        self.problems = list(problems or [])
        self.current_version = current_version
        self.latest = latest
        super().__init__(
            message,
            errors=[
                {
                    "code": "version.conflict",
                    "path": c["path"],
                    "message": f"{c['label']} was changed elsewhere.",
                }
                for c in conflicts
            ]
            + [{"code": "version.merge_invalid", "path": "", "message": p} for p in self.problems],
        )
