"""Reading HTML form input, one way for every view: strict whole numbers, storable text.

Two doors, the same rules (and the same words as the JSON API, config/text.py):

- Django forms: ``StorableTextForm`` (a mixin: every text field refuses NUL and unpaired
  surrogates, JSON ones at any depth) and ``WholeNumberField`` (an IntegerField that takes only
  what ``rulesets.engine.fields.parse_whole_number`` takes, within bounds).
- Views reading ``request.POST`` by hand: ``post_text``, ``post_whole_number``, ``post_json``,
  ``value_of`` and ``check_post``. Each raises ``FormInputError`` (a field's name, its label for
  people and why) instead of letting a bad value reach ``int()`` or Postgres.

A view reads input only after its access check (a stranger gets the 404 whatever they post), and
answers a ``FormInputError`` with a 400 that shows the message where the form is, changing nothing.
"""

from __future__ import annotations

import json
import re
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.core.validators import ProhibitNullCharactersValidator

from config.text import UNSTORABLE_MESSAGE, is_storable, unstorable_at
from rulesets.engine.fields import WHOLE_NUMBER_RE, parse_whole_number

#: Bounds of a whole number typed in a form when the view knows no tighter ones: far beyond any
#: amount, count or version in play, well inside Postgres' integer and every rule's arithmetic.
MIN_WHOLE = -999_999_999
MAX_WHOLE = 999_999_999
#: The status a refused form answers with (a plain POST and htmx alike).
REFUSED = 400

_REQUIRED: Any = object()
#: Digits with at most one sign: a number, if not always one small enough to be a whole number here.
_DIGITS = re.compile(r"[+-]?[0-9]+")


class FormInputError(ValueError):
    """A form field the view cannot use: ``field`` (its name in the form), ``label`` (its name for
    people) and ``message`` (why). ``str()`` is the sentence to show."""

    def __init__(self, field: str, message: str, *, label: str | None = None):
        super().__init__(message)
        self.field = field
        self.label = label
        self.message = message

    def __str__(self) -> str:
        return f"{self.label}: {self.message}" if self.label else self.message


def _range_text(min_value: int, max_value: int) -> str:
    return f"from {min_value:,} to {max_value:,}"


# ------------------------------------------------------------------ plain POST readers


def check_text(value: str, *, field: str, label: str | None = None) -> str:
    """``value`` when it is storable text; else ``FormInputError``."""
    if not is_storable(value):
        raise FormInputError(field, UNSTORABLE_MESSAGE, label=label)
    return value


def check_post(post, *, labels: dict[str, str] | None = None) -> None:
    """Every name and value in a QueryDict (``request.POST``) is storable text.

    For views that hand the whole form on (the builder, state actions, combat actions): the first
    bad field raises ``FormInputError``, labelled from ``labels`` when it is there."""
    labels = labels or {}
    for name, values in post.lists():
        if not is_storable(name):
            raise FormInputError("", UNSTORABLE_MESSAGE, label="A field name")
        for value in values:
            if isinstance(value, str) and not is_storable(value):
                raise FormInputError(name, UNSTORABLE_MESSAGE, label=labels.get(name))


def post_text(
    post,
    name: str,
    *,
    label: str | None = None,
    default: str = "",
    strip: bool = False,
    max_length: int | None = None,
) -> str:
    """The text field ``name`` (``default`` when absent), checked storable and not too long."""
    value = post.get(name, default)
    if not isinstance(value, str):
        value = default
    value = check_text(value.strip() if strip else value, field=name, label=label)
    if max_length is not None and len(value) > max_length:
        raise FormInputError(name, f"at most {max_length} characters, please.", label=label)
    return value


def whole_number(
    raw: Any, *, field: str, label: str | None = None, min_value: int = MIN_WHOLE, max_value: int = MAX_WHOLE
) -> int:
    """``raw`` (form text) as a whole number within the bounds; else ``FormInputError``."""
    number = parse_whole_number(raw) if isinstance(raw, str) else None
    if number is None:
        raise FormInputError(
            field, f"enter a whole number {_range_text(min_value, max_value)}, such as 3.", label=label
        )
    if not min_value <= number <= max_value:
        raise FormInputError(
            field,
            f"{number:,} is out of range: enter a whole number {_range_text(min_value, max_value)}.",
            label=label,
        )
    return number


def post_whole_number(
    post,
    name: str,
    *,
    label: str | None = None,
    default: Any = _REQUIRED,
    min_value: int = MIN_WHOLE,
    max_value: int = MAX_WHOLE,
) -> Any:
    """The field ``name`` as a whole number within the bounds. Absent or blank: ``default`` when
    one is given, else a ``FormInputError`` (so is anything that is not a whole number)."""
    raw = post.get(name)
    if raw is None or (isinstance(raw, str) and raw.strip() == ""):
        if default is not _REQUIRED:
            return default
        raise FormInputError(name, "this is required.", label=label)
    return whole_number(raw, field=name, label=label, min_value=min_value, max_value=max_value)


def post_whole_numbers(
    post, name: str, *, label: str | None = None, min_value: int = 1, max_value: int = MAX_WHOLE
) -> list[int]:
    """Every value of a multi-valued field (checkboxes of ids) as whole numbers, blanks skipped."""
    return [
        whole_number(v, field=name, label=label, min_value=min_value, max_value=max_value)
        for v in post.getlist(name)
        if v.strip() != ""
    ]


def post_json(post, name: str, *, label: str | None = None, default: Any = _REQUIRED) -> Any:
    """The field ``name`` as JSON. Blank: ``default`` when given. Text that is not JSON, or JSON
    whose strings hold what cannot be stored (a "\\u0000" escape), raises ``FormInputError``."""
    raw = post_text(post, name, label=label)
    if raw.strip() == "":
        if default is not _REQUIRED:
            return default
        raise FormInputError(name, "this is required.", label=label)
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError) as exc:
        raise FormInputError(name, f"this is not valid JSON ({exc}).", label=label) from None
    return check_json(data, field=name, label=label)


def check_json(data: Any, *, field: str, label: str | None = None) -> Any:
    """``data`` (parsed JSON from a form) when every string and key in it is storable."""
    if unstorable_at(data) is not None:
        raise FormInputError(field, UNSTORABLE_MESSAGE, label=label)
    return data


def value_of(raw: str, *, field: str) -> Any:
    """A value of a generic action form (its fields come from the rules): "true"/"false" as
    booleans, a whole number as an int, any other text as it is for the rules to judge.

    What cannot be stored, and numbers past the bounds, raise ``FormInputError``: the rules never
    see a 40-digit number or a NUL."""
    check_text(raw, field=field)
    text = raw.strip(" \t\r\n")
    if text in ("true", "false"):
        return text == "true"
    if _DIGITS.fullmatch(text) and WHOLE_NUMBER_RE.fullmatch(text) is None:
        raise FormInputError(
            field, f"that number is too large: enter a whole number {_range_text(MIN_WHOLE, MAX_WHOLE)}."
        )
    number = parse_whole_number(text)
    if number is None:
        return raw
    if not MIN_WHOLE <= number <= MAX_WHOLE:
        raise FormInputError(
            field, f"that number is too large: enter a whole number {_range_text(MIN_WHOLE, MAX_WHOLE)}."
        )
    return number


# ------------------------------------------------------------------ Django forms


def validate_storable(value: Any) -> None:
    """A field validator: text (or JSON data) without NUL or unpaired surrogates."""
    if unstorable_at(value) is not None:
        raise ValidationError(UNSTORABLE_MESSAGE, code="unstorable")


class WholeNumberField(forms.IntegerField):
    """An IntegerField that takes only a whole number as people type it ("3", "-2"): not "1.0",
    "1e3", "1_000", "²" or other scripts' digits, which Django's own would take or choke on."""

    default_error_messages = {"invalid": "Enter a whole number, such as 3."}

    def __init__(self, *, min_value: int | None = MIN_WHOLE, max_value: int | None = MAX_WHOLE, **kwargs):
        super().__init__(min_value=min_value, max_value=max_value, **kwargs)

    def to_python(self, value):
        if value in self.empty_values or (isinstance(value, str) and value.strip() == ""):
            return None
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        number = parse_whole_number(value) if isinstance(value, str) else None
        if number is None:
            raise ValidationError(self.error_messages["invalid"], code="invalid")
        return number


class StorableTextForm:
    """Form mixin: every field refuses NUL and unpaired surrogates (``validate_storable``), so a
    typed name or a pasted JSON setting never reaches the database as a 500."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for field in self.fields.values():
            # Django's CharField refuses NUL in its own words; one rule, one message (the API's).
            field.validators = [
                v for v in field.validators if not isinstance(v, ProhibitNullCharactersValidator)
            ]
            field.validators.append(validate_storable)
