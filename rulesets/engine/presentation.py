"""What the product shows for a ruleset: words, starting points and page pieces.

A ruleset folder owns its whole game: besides the rules, the words, starting points and page
pieces the product shows for it. Every hook here has a generic default, so a new ruleset works
through the whole product before it fills any of them in. Part of ``Ruleset`` (ruleset.py).
"""

from __future__ import annotations

import copy
import json
import logging
import sys
from functools import cached_property
from importlib import import_module
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from . import words

if TYPE_CHECKING:
    from .context import Context

logger = logging.getLogger(__name__)


class PresentationMixin:
    """The ``Ruleset``'s display hooks (see the module's docstring)."""

    # Declared on ``Ruleset`` (and its ``ContextMixin``), read here.
    slug: ClassVar[str]
    tables: dict[str, Any]

    if TYPE_CHECKING:

        def blank_build(
            self, name: str, budget: dict[str, int] | None = None, ctx: Context | None = None
        ) -> dict: ...

    # ------------------------------------------------- what the product shows
    # A ruleset folder owns its whole game: besides the rules (ruleset.py), the words, starting
    # points and page pieces the product shows for it. Every hook has a generic default,
    # so a new ruleset works through the whole product before it fills any of them in.
    # The data defaults read JSON *objects* of ``content/`` (tables, not catalogues), the
    # page pieces are templates in ``<folder>/templates/<slug>/`` found by the project's
    # template loader, with a generic fallback each:
    #
    #   <slug>/sheet_derived.html          the sheet's "Numbers" block (else the generic list)
    #   <slug>/builder/<widget>.html       a ``"kind": "custom"`` builder section's widget

    @cached_property
    def package_dir(self) -> Path:
        """The ruleset's folder (where its module lives)."""
        module = sys.modules[type(self).__module__]
        return Path(module.__file__ or ".").resolve().parent

    @cached_property
    def templates_dir(self) -> Path:
        """Where the ruleset's templates live (``<folder>/templates``); may not exist."""
        return self.package_dir / "templates"

    def labels(self) -> dict[str, str]:
        """Words the sheet shows for keys that a plain "max_speed" → "Max speed" gets wrong
        (``{"max_hp": "Max HP"}``). Default: ``content/labels.json``, else none."""
        return self.tables.get("labels") or {}

    def quick_awards(self, ctx: Context | None = None) -> list[dict[str, Any]]:
        """The GM's one-click awards: [{id, label, currency, amount, who ("all"|"each"), scope?, help?}].
        Default: ``content/quick_awards.json`` ``{"awards": [...]}``, else none."""
        return [dict(a) for a in (self.tables.get("quick_awards") or {}).get("awards", [])]

    def awards_help(self) -> str:
        """A sentence the awards page adds for this ruleset (``quick_awards.json`` ``help``). Default: ""."""
        return (self.tables.get("quick_awards") or {}).get("help", "")

    def quick_npc(self, budget: dict[str, int] | None = None, ctx: Context | None = None) -> dict[str, Any]:
        """The starting build of the GM's quick NPC form: ``content/npc.json`` (a small valid build),
        else ``blank_build("Bandit")`` (which the rules may refuse until it is filled in)."""
        npc = self.tables.get("npc")
        if isinstance(npc, dict):
            return copy.deepcopy(npc)
        try:
            return self.blank_build("Bandit", budget or None, ctx)
        except Exception:  # a blank build the ruleset cannot make is a starting point still
            logger.exception("ruleset %s blank_build failed", self.slug)
            return {"ruleset": self.slug, "name": "Bandit"}

    def npc_archetypes(self, ctx: Context | None = None) -> list[dict[str, Any]]:
        """The ready NPCs the GM's library starts from: [{"id", "name", "summary"?, "build"}]
        (``content/npc_archetypes.json`` ``{"archetypes": [...]}``; checked as NPCs, phase
        ``NPC_PHASE``: a build may be over a player's budget). Default: the quick NPC alone."""
        found = (self.tables.get("npc_archetypes") or {}).get("archetypes")
        if isinstance(found, list) and found:
            return [
                copy.deepcopy(a) for a in found if isinstance(a, dict) and isinstance(a.get("build"), dict)
            ]
        npc = self.quick_npc(None, ctx)
        return [{"id": "quick", "name": npc.get("name") or "NPC", "build": npc}]

    def house_labels(self) -> dict[str, Any]:
        """The rulebook's words for each house default, for the GM's house-rules form:
        ``{key: {"label", "help"?, "choices"?: [[value, label]], "type"?: "number"|"text"|"yes/no"
        (a default of null), "min"?, "max"?, "fields"?: {subkey: {...}}}}`` (``content/house_labels.json``).
        Default: none (the form words the keys itself)."""
        labels = self.tables.get("house_labels")
        return labels if isinstance(labels, dict) else {}

    def odds_form(self) -> list[dict[str, Any]] | None:
        """The odds calculator's inputs: [{name, label, default, min, max} | {name, label, default,
        choices, aliases?}] (``content/odds_form.json`` ``{"fields": [...]}``; ``aliases``: other words
        a client may send for a choice, {"opposed": "opposed_roll"}, read as that choice). Default: None,
        a JSON text box instead."""
        form = (self.tables.get("odds_form") or {}).get("fields")
        return list(form) if isinstance(form, list) else None

    # A field of the odds form marked ``"table": true`` is a number the table sets for a roll (a
    # target, a difficulty, a mode): the sheet's roll form offers it for every roll whose request
    # carries it, defaulting to the running encounter's value of the same name, else the roll's.

    def odds_chart(self, answer: dict[str, Any]) -> list[tuple[str, float]] | None:
        """The odds chart's bars for an odds answer whose keys overlap (a "success" that includes
        the "critical"): [(label, p)], each outcome a roll lands on once, labelled as ``roll``'s
        outcome. Default: None, the chart reads the answer's keys (rulesets/charts.py)."""
        return None

    def api_examples(self) -> dict[str, Any]:
        """Examples for the API documentation: {"build": a build, "odds": an odds request}
        (``content/examples.json``). Default: none."""
        examples = self.tables.get("examples")
        return examples if isinstance(examples, dict) else {}

    def body_diagram(self) -> dict[str, dict[str, Any]]:
        """How a "body" state section draws each part: {part id: {"shape": "circle", "cx", "cy", "r"} |
        {"shape": "rect", "x", "y", "width", "height", "rx"}} (``content/body_diagram.json``).
        Parts without a shape are listed in the table only. Default: none."""
        return self.tables.get("body_diagram") or {}

    def point_price_key(
        self, section: dict[str, Any], entry: dict[str, Any] | None, value: int
    ) -> tuple | None:
        """The builder shows what one more point of each stepper costs, priced by validating the
        build with that point added. Steppers whose next point costs the same share one price:
        return the key they share (default: the section, the entry's ``group`` and the current
        value, the way a point-buy priced by value and attribute group works), or None to price
        this stepper alone."""
        group = (entry or {}).get("group", "") if section.get("kind") == "numbers" else ""
        return (section.get("id"), group, value)

    def builder_widget(
        self, widget: str, section: dict[str, Any], build: dict, report: dict, ui: Any
    ) -> dict[str, Any]:
        """What a ``"kind": "custom"`` builder section's template gets besides the section: a dict
        merged into it. ``ui`` offers ``control(pointer, value, **extra)`` (a form control with its
        issues), ``html_id(pointer, prefix)``, ``label(id)`` and ``sections`` (every traits section).
        Default: the function ``WIDGETS[widget]`` of the ruleset's ``widgets.py``, if it has one."""
        fn = self._widgets.get(widget)
        return fn(section, build, report, ui) if fn is not None else {}

    @cached_property
    def _widgets(self) -> dict[str, Any]:
        try:
            module = import_module(f"{type(self).__module__}.widgets")
        except ModuleNotFoundError:
            return {}
        return dict(getattr(module, "WIDGETS", {}))

    def demo_builds(self) -> list[dict[str, Any]]:
        """Finished characters for ``manage.py seed_demo``: the documents of ``<folder>/demo/*.json``."""
        out = []
        for path in sorted((self.package_dir / "demo").glob("*.json")):
            try:
                out.append({"file": path.name, "document": json.loads(path.read_text(encoding="utf-8"))})
            except (OSError, ValueError) as exc:
                out.append({"file": path.name, "error": str(exc)})
        return out

    def label(self, key: Any) -> str:
        """A key as this ruleset's pages show it: its word in ``labels()`` ("max_hp" → "Max HP"), else
        the key in words ("max_speed" → "Max speed"). The builder and the sheet both ask this."""
        return words.label(key, self.labels())

    def currency_label(self, currency: str, amount: int | None = None) -> str:
        """The word for ``currency`` in the budget's messages and on the pages: ``content/currencies.json``
        ``{id: {"one": "force point", "many": "force points"}}`` ("one" when ``amount`` is 1, else
        "many"), else the id in words."""
        words_of = (self.tables.get("currencies") or {}).get(currency)
        if isinstance(words_of, dict):
            found = words_of.get("one" if amount == 1 else "many") or words_of.get("many")
            if isinstance(found, str) and found:
                return found
        return currency.replace("_", " ")

    def overspent(self, currency: str, spent: int, limit: int) -> str:
        """The message of ``budget.exceeded`` on ``/budget/<currency>``: what is wrong and how to fix it.
        ``content/currencies.json`` may word it per currency (``"overspent"``: a sentence with
        ``{spent}``, ``{limit}`` and ``{over}`` the amounts, ``{spent_words}`` and ``{over_words}`` the
        currency's word for them); else: remove choices or get more awarded."""
        over = spent - limit
        words_of = (self.tables.get("currencies") or {}).get(currency)
        said = words_of.get("overspent") if isinstance(words_of, dict) else None
        amounts = {
            "spent": spent,
            "limit": limit,
            "over": over,
            "spent_words": self.currency_label(currency, spent),
            "over_words": self.currency_label(currency, over),
        }
        if isinstance(said, str) and said:
            return said.format(**amounts)
        return (
            f"This build spends {spent} {amounts['spent_words']} but has only {limit}: remove {over} "
            f"{amounts['over_words']} of choices or get more awarded."
        )
