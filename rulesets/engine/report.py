"""The report every build gets back, and the issues (errors, warnings) inside it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Issue:
    """One thing wrong (or worth a warning) with a build.

    ``code`` is a stable dotted id from RULES.md; ``path`` a JSON Pointer to the
    offending value ("" for the whole document); ``message`` says, in the
    ruleset's own words, what is wrong and how to fix it.
    """

    code: str
    path: str
    message: str

    def as_dict(self) -> dict[str, str]:
        return {"code": self.code, "path": self.path, "message": self.message}


@dataclass(slots=True)
class Report:
    """What the rules service answers for every document, however broken."""

    ruleset: str | None
    errors: list[Issue] = field(default_factory=list)
    warnings: list[Issue] = field(default_factory=list)
    spent: dict[str, int] = field(default_factory=dict)
    budget: dict[str, int] = field(default_factory=dict)
    derived: dict[str, Any] = field(default_factory=dict)
    # Per-currency breakdown of what was spent on what: [{"path", "label", "currency", "cost"}].
    # Not part of the contract's required keys; the builder shows it.
    costs: list[dict[str, Any]] = field(default_factory=list)
    #: The ``Context`` the build was checked under (campaign house rules and homebrew), so the
    #: play, dice and combat hooks that get this report can fall back to the same campaign.
    #: Not part of ``as_dict``.
    context: Any = field(default=None, repr=False, compare=False)

    def error(self, code: str, path: str, message: str) -> None:
        self.errors.append(Issue(code, path, message))

    def warn(self, code: str, path: str, message: str) -> None:
        self.warnings.append(Issue(code, path, message))

    def charge(self, currency: str, cost: int, *, path: str = "", label: str = "") -> None:
        """Add ``cost`` of ``currency`` to ``spent`` and remember what it bought."""
        self.spent[currency] = self.spent.get(currency, 0) + cost
        if cost:
            self.costs.append({"path": path, "label": label, "currency": currency, "cost": cost})

    @property
    def valid(self) -> bool:
        return not self.errors

    @property
    def remaining(self) -> dict[str, int]:
        currencies = list(self.budget) + [c for c in self.spent if c not in self.budget]
        return {c: self.budget.get(c, 0) - self.spent.get(c, 0) for c in currencies}

    def has_error(self, code: str, path: str | None = None) -> bool:
        return any(i.code == code and (path is None or i.path == path) for i in self.errors)

    def as_dict(self) -> dict[str, Any]:
        currencies = list(self.budget) + [c for c in self.spent if c not in self.budget]
        return {
            "ruleset": self.ruleset,
            "valid": self.valid,
            "errors": [i.as_dict() for i in self.errors],
            "warnings": [i.as_dict() for i in self.warnings],
            "spent": {c: self.spent.get(c, 0) for c in currencies},
            "budget": {c: self.budget.get(c, 0) for c in currencies},
            "remaining": self.remaining,
            "derived": self.derived,
            "costs": self.costs,
        }
