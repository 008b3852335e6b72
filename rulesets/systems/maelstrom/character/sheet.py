"""The usable values of a Maelstrom build after the type and range checks (``Sheet``)."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(slots=True)
class Sheet:
    """The usable values of a build after the type and range checks."""

    attributes: dict[str, int] = field(default_factory=dict)
    attributes_complete: bool = False
    abilities: dict[str, int] = field(default_factory=dict)
    willpower: int | None = None
