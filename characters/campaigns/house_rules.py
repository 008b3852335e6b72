"""House rules as a form: one typed field per house default of the ruleset.

The fields are generated from ``ruleset.house_defaults`` (RULES.md "HD", in each ruleset's
``content/house.json``), typed by the default's JSON type, and worded by the ruleset's
``content/house_labels.json`` (``Ruleset.house_labels``)::

    {"<a number>": {"label": "In the rulebook's words", "help": "...", "min": 0},
     "<a word>": {"label": "...", "choices": [["value", "What the rulebook calls it"], ...]},
     "<null>": {"label": "...", "type": "number"},                 # a default of null: its type
     "<an object>": {"label": "...", "fields": {"<its key>": {"label": "..."}}}}

A blank field means "as the rulebook" (the default is its placeholder and help), so the
campaign's ``house_rules`` stay what they are: the overrides, nothing else. Nested objects
are grouped fields (only the changed leaves are stored: the rules merge them into the
defaults); lists of numbers or words are comma-separated; anything else (a list of
objects) is a JSON box. The ruleset still checks the result (``check_settings``).
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from django import forms

from characters.diff import humanise
from config.forms import FormInputError, WholeNumberField, check_json, validate_storable
from rulesets.engine.fields import parse_whole_number
from rulesets.engine.pointer import ptr, split

PREFIX = "hr:"
SKIPPED = frozenset({"starting_budget"})  # the settings page has its own fields for it


@dataclass
class HouseField:
    """One leaf of the house defaults, as the form shows it."""

    pointer: str
    label: str
    help: str
    kind: str  # "bool" | "int" | "float" | "text" | "choice" | "int_list" | "text_list" | "json"
    default: Any
    choices: list[tuple[Any, str]] = field(default_factory=list)
    group: list[str] = field(default_factory=list)  # the labels of the objects it is in
    minimum: int | None = None  # numbers: the labels' "min"/"max", when the rulebook bounds them
    maximum: int | None = None

    @property
    def name(self) -> str:
        return PREFIX + self.pointer


def _words(default: Any, kind: str, choices) -> str:
    """A default in the rulebook's words: "Yes", "5", "1, 3, 7", a choice's label."""
    if default is None:
        return "none"
    if kind == "bool":
        return "Yes" if default else "No"
    if kind == "choice":
        return next((label for value, label in choices if value == default), str(default))
    if kind in ("int_list", "text_list"):
        return ", ".join(str(v) for v in default) or "none"
    if kind == "json":
        return _json_words(default)
    return str(default)


def _json_words(value: Any) -> str:
    """A structured default (a weapon table, a list of attacks) in words: each entry by its name
    and what it holds, never its JSON or its ids ("Melee attack (Fists, Club, Plasma cutter)")."""
    if isinstance(value, bool):
        return "Yes" if value else "No"
    if isinstance(value, dict):
        name = value.get("name") or value.get("label")
        inner = [_json_words(v) for v in value.values() if isinstance(v, (list, dict)) and v]
        if isinstance(name, str) and name:
            return name + (f" ({'; '.join(inner)})" if inner else "")
        return "; ".join(f"{humanise(str(k))} {_json_words(v)}" for k, v in value.items()) or "none"
    if isinstance(value, list):
        return ", ".join(_json_words(v) for v in value) or "none"
    if isinstance(value, str):
        return humanise(value) if "_" in value else value
    return str(value)


def _kind(default: Any, spec: dict) -> str:
    if spec.get("choices"):
        return "choice"
    hinted = spec.get("type", "")
    if default is None:
        return {"number": "int", "yes/no": "bool", "text": "text"}.get(hinted, "json")
    if isinstance(default, bool):
        return "bool"
    if isinstance(default, int):
        return "int"
    if isinstance(default, float):
        return "float"
    if isinstance(default, str):
        return "text"
    if isinstance(default, list):
        if default and all(isinstance(v, int) and not isinstance(v, bool) for v in default):
            return "int_list"
        if default and all(isinstance(v, str) for v in default):
            return "text_list"
    return "json"


def house_fields(ruleset) -> list[HouseField]:
    """Every house default of ``ruleset`` as a typed field, in the order of its content."""
    labels = ruleset.house_labels()
    out: list[HouseField] = []
    for key, default in ruleset.house_defaults.items():
        if key in SKIPPED:
            continue
        _walk(out, [key], default, labels.get(key) or {}, [])
    return out


def _walk(out: list[HouseField], tokens: list[str], default: Any, spec: dict, group: list[str]) -> None:
    label = spec.get("label") or humanise(tokens[-1])
    if isinstance(default, dict) and default and not spec.get("choices"):
        sub = spec.get("fields") or {}
        for key, value in default.items():
            _walk(out, tokens + [key], value, sub.get(key) or {}, group + [label])
        return
    choices = [
        (c[0], c[1]) if isinstance(c, list) else (c, humanise(str(c))) for c in spec.get("choices") or []
    ]
    kind = _kind(default, spec)
    rulebook = _words(default, kind, choices)
    help_text = (spec["help"] + " " if spec.get("help") else "") + f"Rulebook: {rulebook}."
    bounds = [spec.get(k) if isinstance(spec.get(k), int) else None for k in ("min", "max")]
    out.append(HouseField(ptr(*tokens), label, help_text, kind, default, choices, group, *bounds))


def _get(doc: Any, pointer: str) -> tuple[bool, Any]:
    for token in split(pointer):
        if not isinstance(doc, dict) or token not in doc:
            return False, None
        doc = doc[token]
    return True, doc


def _set(doc: dict, pointer: str, value: Any) -> None:
    tokens = split(pointer)
    for token in tokens[:-1]:
        doc = doc.setdefault(token, {})
    doc[tokens[-1]] = value


class CommaListField(forms.CharField):
    """Comma-separated numbers or words; blank means the rulebook's list."""

    def __init__(self, *args, numbers: bool, **kwargs):
        self.numbers = numbers
        super().__init__(*args, **kwargs)

    def to_python(self, value):
        value = super().to_python(value)
        if not value.strip():
            return None
        items = [v.strip() for v in value.split(",") if v.strip()]
        if not self.numbers:
            return items
        numbers = [parse_whole_number(v) for v in items]
        if any(n is None for n in numbers):
            raise forms.ValidationError("Write whole numbers separated by commas, such as 1, 3, 7.")
        return numbers


class JSONValueField(forms.CharField):
    def to_python(self, value):
        value = super().to_python(value)
        if not value.strip():
            return None
        try:
            return check_json(json.loads(value), field="")
        except (ValueError, RecursionError) as exc:
            if isinstance(exc, FormInputError):
                raise forms.ValidationError(exc.message) from None
            raise forms.ValidationError(f"This is not valid JSON: {exc}.") from None


def _form_field(spec: HouseField) -> forms.Field:
    common: dict[str, Any] = {"required": False, "label": spec.label, "help_text": spec.help}
    placeholder = {"placeholder": _words(spec.default, spec.kind, spec.choices)}
    if spec.kind == "bool":
        return forms.TypedChoiceField(
            choices=[
                ("", f"As the rulebook ({'yes' if spec.default else 'no'})"),
                ("yes", "Yes"),
                ("no", "No"),
            ],
            coerce=lambda v: v == "yes",
            empty_value=None,
            **common,
        )
    if spec.kind == "choice":
        rulebook = _words(spec.default, spec.kind, spec.choices)
        return forms.TypedChoiceField(
            choices=[("", f"As the rulebook ({rulebook})")] + [(str(v), label) for v, label in spec.choices],
            coerce=lambda v, _values={str(v): v for v, _ in spec.choices}: _values[v],
            empty_value=None,
            **common,
        )
    if spec.kind == "int":
        low = spec.minimum if spec.minimum is not None else -1_000_000
        high = spec.maximum if spec.maximum is not None else 1_000_000
        return WholeNumberField(
            widget=forms.NumberInput(attrs=placeholder), min_value=low, max_value=high, **common
        )
    if spec.kind == "float":
        return forms.FloatField(widget=forms.NumberInput(attrs={**placeholder, "step": "any"}), **common)
    if spec.kind in ("int_list", "text_list"):
        return CommaListField(
            numbers=spec.kind == "int_list",
            max_length=2000,
            widget=forms.TextInput(attrs=placeholder),
            **common,
        )
    if spec.kind == "text":
        return forms.CharField(
            max_length=200, empty_value=None, widget=forms.TextInput(attrs=placeholder), **common
        )
    return JSONValueField(
        max_length=20_000, widget=forms.Textarea(attrs={"rows": 3, "class": "mono", **placeholder}), **common
    )


def _initial(spec: HouseField, value: Any) -> Any:
    if spec.kind == "bool":
        return "yes" if value else "no"
    if spec.kind == "choice":
        return str(value)
    if spec.kind in ("int_list", "text_list"):
        return ", ".join(str(v) for v in value) if isinstance(value, list) else json.dumps(value)
    if spec.kind == "json":
        return json.dumps(value)
    return value


if TYPE_CHECKING:
    _FormBase = forms.Form  # what the mixin is mixed into (CampaignSettingsForm)
else:
    _FormBase = object


class HouseRulesMixin(_FormBase):
    """Adds the house-rule fields of ``ruleset`` to a form; ``house_rules()`` reads the overrides back."""

    def add_house_fields(self, ruleset, overrides: dict | None) -> None:
        self.house_specs = house_fields(ruleset)
        overrides = overrides if isinstance(overrides, dict) else {}
        self._house_overrides = overrides
        for spec in self.house_specs:
            self.fields[spec.name] = _form_field(spec)
            self.fields[spec.name].validators.append(validate_storable)
            found, value = _get(overrides, spec.pointer)
            if found and value is not None:
                self.initial[spec.name] = _initial(spec, value)

    @property
    def house_groups(self) -> list[dict]:
        """The bound fields grouped for the page: [{"label", "fields": [BoundField]}] (ungrouped first)."""
        groups: list[dict] = []
        for spec in self.house_specs:
            label = " › ".join(spec.group)
            if not groups or groups[-1]["label"] != label:
                groups.append({"label": label, "fields": []})
            groups[-1]["fields"].append(self[spec.name])
        return groups

    def house_rules(self) -> dict:
        """The overrides the filled fields say (blank: as the rulebook), nested like the defaults."""
        out: dict = {}
        for spec in self.house_specs:
            value = self.cleaned_data.get(spec.name)
            if value is None or value == spec.default:
                continue
            _set(out, spec.pointer, copy.deepcopy(value))
        return out

    def add_house_error(self, path: str, message: str) -> None:
        """A ruleset's issue at ``path`` on its field (the nearest one), else on the form."""
        names = {spec.pointer: spec.name for spec in self.house_specs}
        while path and path not in names:
            path = path.rsplit("/", 1)[0]
        self.add_error(names.get(path), message)
