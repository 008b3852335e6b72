"""What a homebrew entry of each kind is made of, so the product can draw its form and check it.

A ruleset lists the catalogue kinds a campaign may extend (``Ruleset.homebrew_kinds``) and, for each,
an ``EntryForm``: its words ("Skills", "skill") and its ``Field`` s, in the order a GM fills them in::

    homebrew_forms = {
        "skills": EntryForm("Skills", "skill", (
            Field("name", "Name", "text", required=True),
            Field("level", "Level", "number", min=2, max=5, required=True),
            Field("parent", "Grows from", "choice", catalogue="skills"),
        )),
    }

Field types: ``text`` (one line), ``longtext``, ``number`` (a whole number within ``min``/``max``),
``decimal`` (a number of 0 or more), ``flag`` (yes or no), ``choice`` (one of ``choices``, pairs of
value and words, and of the context's ``catalogue`` kind; a value may be any JSON value, None for
"none"), ``choices`` (several different ones; ``min``/``max`` count them), ``numbers`` (a whole
number per choice, e.g. {"str": 1}; zeros are left out) and ``names`` (a list of names a GM writes
in words, kept as ids: "Left arm" is ``left_arm``). A ``name`` with "/" is a nested key
("requires/skills"). Keys of an entry that no field names (an imported entry's effects, say) are
kept as they are when the entry is edited.

The engine checks every homebrew entry against its form (``check_entry``, run by
``Ruleset.split_homebrew`` beside the ruleset's own ``check_homebrew_entry``), reads a filled-in form
into an entry (``entry_from_form``) and says an entry in words (``entry_words``): the editor, its
preview and the players' read-only page are all made from these.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from .fields import is_int
from .report import Issue
from .words import a


class Context(Protocol):
    """What these functions read of a campaign's context (context.py ``Context``): its catalogue."""

    catalogue: dict[str, dict[str, dict[str, Any]]]


#: A well-formed content id: a lowercase letter, then lowercase letters, digits or "_".
ID_RE = re.compile(r"^[a-z][a-z0-9_]*$")
FIELD_TYPES = (
    "text",
    "longtext",
    "number",
    "decimal",
    "flag",
    "choice",
    "choices",
    "numbers",
    "names",
    "records",
)
#: The most rows a ``records`` field reads from a form.
MAX_RECORDS = 20
CODE = "homebrew.malformed"


@dataclass(frozen=True, slots=True)
class Field:
    """One field of a homebrew entry: its key (``name``), the words shown beside its control
    (``label``, ``help``), its ``type`` (``FIELD_TYPES``) and what it allows."""

    name: str
    label: str
    type: str = "text"
    #: (value, words) pairs a ``choice``/``choices``/``numbers`` field offers, before the catalogue's.
    choices: tuple[tuple[Any, str], ...] = ()
    #: A catalogue kind of the context whose entries are offered too (id → its name).
    catalogue: str | None = None
    #: Only the catalogue's entries with these (key, value) pairs: a background's skill feat is a
    #: feat of kind "skill". (The editor offers those; the check takes any entry of the catalogue.)
    where: tuple[tuple[str, Any], ...] = ()
    min: int | float | None = None
    max: int | float | None = None
    required: bool = False
    help: str = ""
    #: The value a new entry starts with (None: empty).
    default: Any = None
    #: A ``records`` field's columns: each row is an object of these (simple) fields.
    fields: tuple[Field, ...] = ()
    #: A ``records`` field's allowed rows, by the keys filled in: (("feat",), ("attribute", "min")).
    shapes: tuple[tuple[str, ...], ...] = ()

    def __post_init__(self) -> None:
        if self.type not in FIELD_TYPES:
            raise ValueError(f"field {self.name!r}: type {self.type!r} is not one of {FIELD_TYPES}")

    @property
    def keys(self) -> tuple[str, ...]:
        return tuple(self.name.split("/"))

    def get(self, entry: Mapping[str, Any], default: Any = None) -> Any:
        value: Any = entry
        for key in self.keys:
            if not isinstance(value, Mapping) or key not in value:
                return default
            value = value[key]
        return value


@dataclass(frozen=True, slots=True)
class EntryForm:
    """A homebrew kind as the editor shows it: its words and its fields."""

    label: str  # "Skills"
    one: str  # "skill": "Add a skill", "This skill is used by …"
    fields: tuple[Field, ...] = field(default_factory=tuple)
    help: str = ""

    def field(self, name: str) -> Field | None:
        return next((f for f in self.fields if f.name == name), None)


# ------------------------------------------------------------------ choices and words


def field_choices(fld: Field, ctx: Context | None = None) -> list[tuple[Any, str]]:
    """What a choice field offers, as (value, words): its own ``choices``, then the context's
    ``catalogue`` entries by name (homebrew included)."""
    out = list(fld.choices)
    if fld.catalogue and ctx is not None:
        seen = {v for v, _ in out if isinstance(v, str)}
        for entry_id, entry in ctx.catalogue.get(fld.catalogue, {}).items():
            if entry_id not in seen and all(entry.get(k) == v for k, v in fld.where):
                out.append((entry_id, str(entry.get("name") or name_words(entry_id))))
    return out


def name_words(ident: Any) -> str:
    """An id as words: ``left_arm`` → "Left arm"."""
    text = str(ident).replace("_", " ").strip()
    return text[:1].upper() + text[1:]


def words_id(text: str) -> str:
    """Words as an id: "Left arm" → ``left_arm``; "" when nothing is left."""
    ident = re.sub(r"[^a-z0-9]+", "_", str(text).lower()).strip("_")
    if ident and not ident[0].isalpha():
        ident = "n_" + ident
    return ident


def _choice_words(fld: Field, value: Any, ctx: Context | None) -> str:
    for v, words in field_choices(fld, ctx):
        if v == value:
            return words
    return name_words(value) if isinstance(value, str) else "—"


def value_words(fld: Field, value: Any, ctx: Context | None = None) -> str:
    """A field's value as a sheet shows it ("" when it is empty)."""
    if value is None or value == "" or value == [] or value == {}:
        if fld.type == "choice" and any(v is None for v, _ in fld.choices):
            return _choice_words(fld, None, ctx)
        return ""
    if fld.type == "flag":
        return "Yes" if value else "No"
    if fld.type == "choice":
        return _choice_words(fld, value, ctx)
    if fld.type == "choices" and isinstance(value, list):
        return ", ".join(_choice_words(fld, v, ctx) for v in value)
    if fld.type == "numbers" and isinstance(value, Mapping):
        return ", ".join(
            f"{_choice_words(fld, k, ctx)} {v:+d}" if is_int(v) else "" for k, v in value.items()
        )
    if fld.type == "names" and isinstance(value, list):
        return ", ".join(name_words(v) for v in value)
    if fld.type == "records" and isinstance(value, list):
        return "; ".join(
            " ".join(value_words(sub, row.get(sub.name), ctx) for sub in fld.fields if sub.name in row)
            for row in value
            if isinstance(row, Mapping)
        )
    if isinstance(value, (list, dict)):
        return ""
    return str(value)


def entry_words(
    form: EntryForm, entry: Mapping[str, Any], ctx: Context | None = None
) -> list[tuple[str, str]]:
    """The entry as (label, words) lines, its name apart, empty fields left out: the preview and
    the players' read-only page."""
    lines = [
        (fld.label, text)
        for fld in form.fields
        if fld.name != "name" and (text := value_words(fld, fld.get(entry), ctx))
    ]
    drawn = {fld.keys[0] for fld in form.fields}
    kept = [
        name_words(k)
        for k, v in entry.items()
        if k not in drawn and k not in _OWN_KEYS and v not in (None, "", [], {}, False)
    ]
    if kept:  # what an imported entry carries that the form does not draw, named
        lines.append(("Also has", ", ".join(kept)))
    return lines


#: Keys the product keeps on an entry that are not the game's: its id, where it comes from.
_OWN_KEYS = frozenset({"id", "homebrew", "house_default"})


# ------------------------------------------------------------------ checks


def _range_words(fld: Field) -> str:
    if fld.min is not None and fld.max is not None:
        return f"from {fld.min} to {fld.max}"
    if fld.min is not None:
        return f"of {fld.min} or more"
    if fld.max is not None:
        return f"of {fld.max} or less"
    return ""


def field_problem(fld: Field, value: Any, ctx: Context | None = None) -> str | None:
    """What is wrong with ``value`` for ``fld``, in words; None when it is fine. Catalogue choices
    are checked only with a context (a homebrew entry may name another entry of the same homebrew)."""
    label = fld.label
    empty = value is None or value == "" or value == [] or value == {}
    if empty:
        if fld.required and not (fld.type == "choice" and any(v is None for v, _ in fld.choices)):
            return (
                f"{label}: give a value."
                if fld.type in ("text", "longtext", "number", "decimal")
                else (f"{label}: choose one." if fld.type == "choice" else f"{label}: choose at least one.")
            )
        return None
    kind = fld.type
    if kind in ("text", "longtext"):
        if not isinstance(value, str):
            return f"{label} is words."
        if kind == "text" and fld.required and not value.strip():
            return f"{label}: give a value."
        return None
    if kind == "flag":
        return None if isinstance(value, bool) else f"{label} is yes or no."
    if kind in ("number", "decimal"):
        ok = (
            is_int(value)
            if kind == "number"
            else isinstance(value, (int, float)) and not isinstance(value, bool)
        )
        low_ok = fld.min is None or (ok and value >= fld.min)
        high_ok = fld.max is None or (ok and value <= fld.max)
        if not (ok and low_ok and high_ok):
            what = "a whole number" if kind == "number" else "a number"
            return f"{label} is {what} {_range_words(fld)}.".replace("  ", " ").replace(" .", ".")
        return None
    known = field_choices(replace(fld, where=()), ctx)  # any entry of the catalogue will do
    catalogue_open = fld.catalogue is not None and ctx is None

    def allowed(v: Any) -> bool:
        if any(v == c for c, _ in known):
            return True
        return catalogue_open and isinstance(v, str) and bool(ID_RE.match(v))

    offered = ", ".join(w for _, w in known[:8]) + (", …" if len(known) > 8 else "")
    if kind == "choice":
        if allowed(value):
            return None
        return f"{label} is one of: {offered}." if known else f"{label}: choose one from the list."
    if kind == "choices":
        if not isinstance(value, list) or not all(allowed(v) for v in value):
            return f"{label}: choose among {offered}."
        if len(value) != len({repr(v) for v in value}):
            return f"{label}: choose each one once."
        if fld.min is not None and len(value) < fld.min:
            return f"{label}: choose at least {fld.min}."
        if fld.max is not None and len(value) > fld.max:
            return f"{label}: choose at most {fld.max}."
        return None
    if kind == "numbers":
        if not isinstance(value, Mapping) or not all(allowed(k) for k in value):
            return f"{label}: give numbers for {offered}."
        for key, number in value.items():
            if (
                not is_int(number)
                or (fld.min is not None and number < fld.min)
                or (fld.max is not None and number > fld.max)
            ):
                return (
                    f"{label}: {_choice_words(fld, key, ctx)} is a whole number {_range_words(fld)}.".replace(
                        "  ", " "
                    ).replace(" .", ".")
                )
        return None
    if kind == "records":
        if not isinstance(value, list) or not all(isinstance(row, Mapping) for row in value):
            return f"{label}: {fld.help or 'fill in each row'}"
        subs = {sub.name: sub for sub in fld.fields}
        for i, row in enumerate(value, start=1):
            if any(k not in subs for k in row) or (
                fld.shapes and tuple(sorted(row)) not in {tuple(sorted(x)) for x in fld.shapes}
            ):
                return f"{label}, {i}: {fld.help or 'fill in the row'}"
            for key, cell in row.items():
                problem = field_problem(subs[key], cell, ctx)
                if problem:
                    return f"{label}, {i}: {problem}"
        return None
    if kind == "names":
        if not isinstance(value, list) or not all(isinstance(v, str) and ID_RE.match(v) for v in value):
            return f"{label}: write names of letters and digits, separated by commas."
        if len(value) != len(set(value)):
            return f"{label}: name each one once."
        if fld.min is not None and len(value) < fld.min:
            return f"{label}: name at least {fld.min}."
        return None
    return None


def check_entry(form: EntryForm, entry: Any, path: str = "", ctx: Context | None = None) -> list[Issue]:
    """One issue per field of ``form`` that ``entry`` fills in wrongly (or leaves out when it is
    required), at ``path`` + the field's key, in the game's words. Never raises."""
    if not isinstance(entry, Mapping):
        return [Issue(CODE, path, f"Each {form.one} is a set of fields.")]
    out = []
    for fld in form.fields:
        value = fld.get(entry)
        if (
            fld.required
            and fld.type in ("text", "longtext")
            and (not isinstance(value, str) or not value.strip())
        ):
            if value is None or isinstance(value, str):  # "Give the skill a name."
                out.append(Issue(CODE, f"{path}/{fld.name}", f"Give the {form.one} {a(fld.label.lower())}."))
                continue
        problem = field_problem(fld, value, ctx)
        if problem:
            out.append(Issue(CODE, f"{path}/{fld.name}", problem))
    return out


# ------------------------------------------------------------------ the form's own values


def form_values(fld: Field, value: Any, ctx: Context | None = None) -> list[str]:
    """The strings a form shows for a field's ``value`` (``entry_from_form`` reads them back):
    a choice is the index of its value among ``field_choices``."""
    if value is None:
        value = fld.default
    if fld.type in ("choice", "choices"):
        options = field_choices(fld, ctx)
        values = value if fld.type == "choices" and isinstance(value, list) else [value]
        return [str(i) for i, (v, _) in enumerate(options) if any(v == x for x in values)]
    if fld.type == "names":
        return [", ".join(name_words(v) for v in value)] if isinstance(value, list) else [""]
    if fld.type == "flag":
        return ["1"] if value else []
    if fld.type == "numbers":
        return []  # one input per choice: ``numbers_values``
    return ["" if value is None else str(value)]


def numbers_values(fld: Field, value: Any, ctx: Context | None = None) -> list[tuple[int, str, Any]]:
    """A ``numbers`` field's rows: (index, words, the number or None)."""
    got = value if isinstance(value, Mapping) else {}
    return [(i, words, got.get(v)) for i, (v, words) in enumerate(field_choices(fld, ctx))]


def entry_from_form(
    form: EntryForm,
    data: Mapping[str, list[str]],
    *,
    base: Mapping[str, Any] | None = None,
    ctx: Context | None = None,
) -> tuple[dict[str, Any], dict[str, str]]:
    """Read a filled-in form (``data[field name]``: its strings; ``data["<name>.<index>"]`` for a
    ``numbers`` row, ``data["<name>.<row>.<sub-field>"]`` for a ``records`` row) over ``base`` (the
    entry being edited: its other keys are kept). Returns the entry and, per field name, what could
    not be read ("Level: write a whole number.")."""
    entry: dict[str, Any] = _copy(base or {})
    problems: dict[str, str] = {}
    for fld in form.fields:
        value, problem = _read(fld, data, fld.name, ctx)
        if problem:
            problems[fld.name] = problem
        else:
            _put(entry, fld.keys, value)
    return entry, problems


def _read(
    fld: Field, data: Mapping[str, list[str]], name: str, ctx: Context | None
) -> tuple[Any, str | None]:
    """One field's value from the form's strings under ``name``, or what could not be read."""
    raw = [s.strip() for s in data.get(name, []) if isinstance(s, str)]
    first = raw[0] if raw else ""
    if fld.type in ("text", "longtext"):
        return first or None, None
    if fld.type == "flag":
        return bool(first and first not in ("0", "false", "off")), None
    if fld.type in ("number", "decimal"):
        if not first:
            return None, None
        try:
            number = float(first.replace(",", "."))
        except ValueError:
            return None, f"{fld.label}: write a number."
        if not math.isfinite(number) or (fld.type == "number" and not number.is_integer()):
            return (
                None,
                f"{fld.label}: write a whole number."
                if fld.type == "number"
                else f"{fld.label}: write a number.",
            )
        return (int(number) if number.is_integer() else number), None
    if fld.type in ("choice", "choices"):
        options = field_choices(fld, ctx)
        picked = []
        for s in raw:
            if s.isdigit() and int(s) < len(options):
                picked.append(options[int(s)][0])
            elif s:
                return None, f"{fld.label}: choose from the list."
        return (picked if fld.type == "choices" else (picked[0] if picked else None)), None
    if fld.type == "numbers":
        value = {}
        for i, (key, words) in enumerate(field_choices(fld, ctx)):
            cell = next((s.strip() for s in data.get(f"{name}.{i}", []) if isinstance(s, str)), "")
            if not cell:
                continue
            if not re.fullmatch(r"[+-]?\d{1,9}", cell):
                return None, f"{fld.label}: {words} is a whole number."
            if int(cell):
                value[key] = int(cell)
        return value, None
    if fld.type == "records":
        rows = []
        for i in range(MAX_RECORDS):
            if not any(k.startswith(f"{name}.{i}.") for k in data):
                break
            row = {}
            for sub in fld.fields:
                got, problem = _read(sub, data, f"{name}.{i}.{sub.name}", ctx)
                if problem:
                    return None, f"{fld.label}, {i + 1}: {problem}"
                if got not in (None, "", [], {}, False):
                    row[sub.name] = got
            if row:
                rows.append(row)
        return rows, None
    return [words_id(part) for part in re.split(r"[,\n]", first) if words_id(part)], None  # names


def _copy(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy(v) for v in value]
    return value


def _put(entry: dict[str, Any], keys: tuple[str, ...], value: Any) -> None:
    """Set a possibly nested key; an empty value ("", [], {}) leaves the key out, and an object it
    leaves empty goes too (an item's "wear" with no body part is no "wear")."""
    if value is None or value == "" or value == [] or value == {}:
        trail = [entry]
        for key in keys[:-1]:
            nxt = trail[-1].get(key)
            if not isinstance(nxt, dict):
                return
            trail.append(nxt)
        trail[-1].pop(keys[-1], None)
        for depth in range(len(keys) - 1, 0, -1):
            if trail[depth] == {}:
                trail[depth - 1].pop(keys[depth - 1], None)
        return
    here = entry
    for key in keys[:-1]:
        nxt = here.get(key)
        if not isinstance(nxt, dict):
            nxt = here[key] = {}
        here = nxt
    here[keys[-1]] = value


def new_id(name: Any, taken: set[str] | frozenset[str], fallback: str = "entry") -> str:
    """An id for a new entry named ``name``, not in ``taken``: "Iron Grip" → ``iron_grip``
    (``iron_grip_2`` when that is taken)."""
    base = words_id(str(name or "")) or words_id(fallback) or "entry"
    ident, n = base, 2
    while ident in taken:
        ident, n = f"{base}_{n}", n + 1
    return ident


def uses_id(value: Any, ident: str) -> bool:
    """Whether ``ident`` appears in a document as a value or a key (the default ``homebrew_uses``)."""
    if isinstance(value, str):
        return value == ident
    if isinstance(value, Mapping):
        return any(k == ident or uses_id(v, ident) for k, v in value.items())
    if isinstance(value, list):
        return any(uses_id(v, ident) for v in value)
    return False
