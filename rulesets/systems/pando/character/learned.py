"""What the checks of one build learn as they go (``_Build``), for the derived values."""

from __future__ import annotations


class _Build:
    """What the checks learned about one document, for the derived values and the sheet."""

    __slots__ = ("attrs", "species", "mapping", "learned", "items", "equipment_known", "body")

    def __init__(self) -> None:
        self.attrs: dict[str, int] = {}  # attribute → value, only for well-formed values
        self.species: dict | None = None
        self.mapping: dict[str, str] | None = None
        self.learned: dict[str, dict] = {}  # skill id → catalogue entry
        self.items: list[tuple[int, dict, str, list[str]]] = []  # (index, item, state, arms)
        self.equipment_known = True  # False when a wielded/worn item cannot be read
        self.body: dict[tuple[str, str], tuple[int, str]] = {}  # (body part, slot) → (index, item name)
