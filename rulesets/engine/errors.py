"""The errors a ruleset raises where the product asked for something it cannot do.

A ruleset never raises on a build document (problems are ``Issue`` values in the report), but an
odds request, a roll the sheet's picker composed or a play-state action is a question the rules can
refuse: these carry why, in the game's words, for the product to show.
"""

from __future__ import annotations


class OddsError(ValueError):
    """An odds or roll request the ruleset cannot answer; the message says why."""


class RollInputError(OddsError):
    """A value of the sheet's roll picker the rules refuse: ``field`` is the input's name (without
    the form's prefix), the message says why in the game's words."""

    def __init__(self, field: str, message: str):
        super().__init__(message)
        self.field = field
        self.message = message


class StateError(ValueError):
    """A play-state change the rules refuse; carries a rule code and a message."""

    def __init__(self, code: str, message: str, path: str = ""):
        super().__init__(message)
        self.code = code
        self.message = message
        self.path = path
