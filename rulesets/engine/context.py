"""The campaign's context: house rules and homebrew merged over a ruleset's content.

A ruleset's ``content/*.json`` are loaded once (a JSON *list* of entries with an ``id`` is a
catalogue, indexed by id and extensible by campaign homebrew; a JSON *object* is a table kept as it
is; ``content/house.json`` holds the house defaults, RULES.md "HD"). A campaign's house rules
override the defaults key by key and its homebrew adds catalogue entries: ``Ruleset.context`` merges
them, checks them (problems are ``Issue`` values, never raised) and caches one ``Context`` per
campaign, which every check, dice, play-state and combat hook then receives.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from .entries import ID_RE as ID_RE
from .entries import EntryForm, check_entry, uses_id
from .pointer import ptr
from .report import Issue

if TYPE_CHECKING:
    from .report import Report


@dataclass(slots=True)
class Context:
    """What a check needs besides the build: house rules and the merged catalogue.

    ``settings`` are the ruleset's house defaults with the campaign's overrides
    on top. ``catalogue[kind][id]`` is an entry of the content merged with the
    campaign's homebrew. ``issues`` are problems found in the homebrew itself.
    ``phase`` is "draft" while a player builds and "approval" when a GM approves
    (some rules are warnings in one and errors in the other).
    """

    settings: dict[str, Any]
    catalogue: dict[str, dict[str, dict[str, Any]]]
    tables: dict[str, Any]
    issues: list[Issue] = field(default_factory=list)
    phase: str = "draft"
    #: Values worked out from ``settings``/``catalogue`` once per campaign (indexes, tables):
    #: see ``memo``. Shared by the phase variants of one context; never phase-dependent.
    cache: dict[Any, Any] = field(default_factory=dict, repr=False, compare=False)

    def memo(self, key: Any, make: Callable[[], Any]) -> Any:
        """``make()`` the first time ``key`` is asked for on this context, the same value after.

        A context is built once per campaign's house rules and homebrew (``Ruleset.context``
        caches it), so this replaces module caches keyed by ``id()`` of the settings or a catalogue.
        The value is shared: treat it as read-only."""
        try:
            return self.cache[key]
        except KeyError:
            value = self.cache[key] = make()
            return value

    def with_phase(self, phase: str) -> Context:
        """The same campaign in another phase (same settings, catalogue and memo)."""
        if phase == self.phase:
            return self
        return Context(
            settings=self.settings,
            catalogue=self.catalogue,
            tables=self.tables,
            issues=self.issues,
            phase=phase,
            cache=self.cache,
        )


#: The phase of a GM's NPC: not held to a player's budget (see ``Ruleset.validate``).
NPC_PHASE = "npc"


def _deep_merge(base: dict, override: dict) -> dict:
    out = dict(base)
    for key, value in override.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = _deep_merge(out[key], value)
        else:
            out[key] = value
    return out


class ContextMixin:
    """The ``Ruleset``'s content and campaign contexts: its catalogue and tables (``content/``), and
    the ``Context`` of a campaign's house rules and homebrew. Part of ``Ruleset`` (ruleset.py)."""

    # Declared on ``Ruleset``, read here.
    name: ClassVar[str]
    homebrew_kinds: ClassVar[tuple[str, ...]]
    homebrew_forms: ClassVar[dict[str, EntryForm]]
    content_dir: ClassVar[Path | None]
    house_labels: Callable[[], dict[str, Any]]  # PresentationMixin's: the house rules' words

    def __init__(self) -> None:
        self.catalogue: dict[str, dict[str, dict[str, Any]]] = {}
        self.tables: dict[str, Any] = {}
        if self.content_dir and self.content_dir.is_dir():
            for path in sorted(self.content_dir.glob("*.json")):
                data = json.loads(path.read_text(encoding="utf-8"))
                if isinstance(data, list):
                    self.catalogue[path.stem] = {entry["id"]: entry for entry in data}
                else:
                    self.tables[path.stem] = data
        self.house_defaults: dict[str, Any] = self.tables.get("house", {})
        self._default_context = Context(
            settings=copy.deepcopy(self.house_defaults), catalogue=self.catalogue, tables=self.tables
        )
        self._context_cache: dict[str, Context] = {}

    # ------------------------------------------------------------- context

    def context(
        self, settings: dict | None = None, homebrew: dict | None = None, *, phase: str = "draft"
    ) -> Context:
        """House defaults merged with ``settings``, catalogue merged with ``homebrew`` (cached)."""
        if not settings and not homebrew:
            if phase == "draft":
                return self._default_context
            key = phase
        else:
            key = json.dumps([settings, homebrew, phase], sort_keys=True, default=str)
        ctx = self._context_cache.get(key)
        if ctx is None:
            # One context per campaign's house rules and homebrew; its phases share its memo.
            if not settings and not homebrew:
                ctx = self._default_context.with_phase(phase)
            elif phase == "draft":
                ctx = self._build_context(settings or {}, homebrew or {}, "draft")
            else:
                ctx = self.context(settings, homebrew).with_phase(phase)
            if len(self._context_cache) > 256:
                self._context_cache.clear()
            self._context_cache[key] = ctx
        return ctx

    def context_of(self, report: Report | None = None, ctx: Context | None = None) -> Context:
        """The context a play, dice or combat hook works under: ``ctx`` when the caller passed the
        campaign's, else the one ``report`` was checked under, else the house defaults."""
        if ctx is not None:
            return ctx
        found = getattr(report, "context", None)
        return found if isinstance(found, Context) else self._default_context

    def _build_context(self, settings: dict, homebrew: dict, phase: str) -> Context:
        issues: list[Issue] = []
        merged_settings = copy.deepcopy(self.house_defaults)
        if isinstance(settings, dict):
            issues.extend(self.check_settings(settings))
            # Only overrides of the default's JSON type: a hook reading a house rule never meets text
            # where a number belongs (the wrong ones are the warnings above).
            good = {
                k: v
                for k, v in settings.items()
                if k in self.house_defaults
                and (
                    self.house_defaults[k] is None
                    or v is None
                    or _json_type(v) == _json_type(self.house_defaults[k])
                )
            }
            merged_settings = _deep_merge(merged_settings, good)
        catalogue = dict(self.catalogue)
        entries_ok, hb_issues = self.split_homebrew(homebrew)
        issues.extend(hb_issues)
        for kind, entries in entries_ok.items():
            merged = dict(catalogue.get(kind, {}))
            for entry in entries:
                merged[entry["id"]] = {**entry, "homebrew": True}
            catalogue[kind] = merged
        return Context(
            settings=merged_settings, catalogue=catalogue, tables=self.tables, issues=issues, phase=phase
        )

    def check_settings(self, settings: Any) -> list[Issue]:
        """House-rule overrides: only keys of ``house_defaults``, each of the default's JSON type."""
        if not isinstance(settings, dict):
            return [Issue("settings.malformed", "", "House rules must be a JSON object.")]
        issues = []
        for key, value in settings.items():
            if key not in self.house_defaults:
                known = ", ".join(sorted(self.house_defaults)) or "none"
                issues.append(
                    Issue(
                        "settings.unknown",
                        ptr(key),
                        f"{self.name} has no house rule {key!r} (known: {known}).",
                    )
                )
                continue
            default = self.house_defaults[key]
            if default is not None and value is not None and _json_type(value) != _json_type(default):
                # The rule by its words (house_labels), and its default only where it reads as a value:
                # a table or list default would paste a raw dict into the GM's message.
                label = (self.house_labels().get(key) or {}).get("label") or key.replace("_", " ")
                like = "" if isinstance(default, (dict, list)) else f", like its default {default!r}"
                issues.append(
                    Issue(
                        "settings.malformed",
                        ptr(key),
                        f"The house rule “{label}” must be {_json_type(default)}{like}.",
                    )
                )
        return issues

    def split_homebrew(self, homebrew: Any) -> tuple[dict[str, list[dict]], list[Issue]]:
        """Sort homebrew into usable entries and issues; a malformed entry is reported, not raised."""
        good: dict[str, list[dict]] = {}
        issues: list[Issue] = []
        if not homebrew:
            return good, issues
        if not isinstance(homebrew, dict):
            return good, [Issue("homebrew.malformed", "", "Homebrew must be an object of {kind: [entries]}.")]
        for kind, entries in homebrew.items():
            if kind not in self.homebrew_kinds:
                kinds = ", ".join(self.homebrew_kinds) or "none"
                issues.append(
                    Issue(
                        "homebrew.unknown_kind",
                        ptr(kind),
                        f"{self.name} homebrew can add: {kinds}; not {kind!r}.",
                    )
                )
                continue
            if not isinstance(entries, list):
                issues.append(
                    Issue("homebrew.malformed", ptr(kind), f"Homebrew {kind} must be a list of entries.")
                )
                continue
            seen: set[str] = set()
            for i, entry in enumerate(entries):
                path = ptr(kind, i)
                if not isinstance(entry, dict):
                    issues.append(Issue("homebrew.malformed", path, "Each homebrew entry must be an object."))
                    continue
                entry_id = entry.get("id")
                if not isinstance(entry_id, str) or not ID_RE.match(entry_id):
                    issues.append(
                        Issue(
                            "homebrew.malformed",
                            path + "/id",
                            'Give the entry an id: a lowercase letter, then lowercase letters, digits or "_" '
                            "(no spaces).",
                        )
                    )
                    continue
                if entry_id in seen:
                    issues.append(
                        Issue("homebrew.duplicate", path + "/id", f"The id {entry_id!r} is used twice.")
                    )
                    continue
                problems = self.check_homebrew_entry(kind, entry, path)
                form = self.entry_form(kind)
                if form is not None:  # the kind's fields (entries.py) first, in the form's words
                    said = check_entry(form, entry, path)
                    where = {p.path for p in said}
                    problems = [*said, *(p for p in problems if p.path not in where)]
                if problems:
                    issues.extend(problems)
                    continue
                seen.add(entry_id)
                good.setdefault(kind, []).append(entry)
        return good, issues

    def check_homebrew_entry(self, kind: str, entry: dict, path: str) -> list[Issue]:
        """Override: field checks for one homebrew entry of ``kind`` (id already checked) beyond
        what its ``EntryForm`` says (the engine checks those: entries.py ``check_entry``)."""
        return []

    def entry_form(self, kind: str) -> EntryForm | None:
        """The fields of a homebrew entry of ``kind`` (entries.py), from which the editor is drawn
        and against which the engine checks every entry. Default: ``homebrew_forms[kind]``."""
        return self.homebrew_forms.get(kind) if kind in self.homebrew_kinds else None

    def homebrew_uses(self, kind: str, entry_id: str, build: Any) -> bool:
        """Whether a character's ``build`` uses the homebrew entry ``entry_id`` of ``kind`` (then the
        GM may not remove it). Default: the id appears in the build as a value or a key."""
        return uses_id(build, entry_id)


def _json_type(value: Any) -> str:
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "text"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return "null"
