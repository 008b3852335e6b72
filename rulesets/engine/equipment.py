"""A build's gear on the sheet: what it is and, where the rules have one, its loadout.

Part of ``Ruleset`` (ruleset.py). A ruleset whose builds carry gear (a list of entries under
``equipment_key``, each ``{"item": catalogue id}`` or ``{"custom": {"name": …}}``) gets the
generic block for free: every entry by its catalogue name and, where the entry says one, its
slot. A ruleset with loadout rules (what is held, worn or carried, in which body slots) overrides
``equipment`` to add its states and ``equipment_change`` to apply a change; the product asks
these hooks and names no state of any game.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from .errors import StateError

if TYPE_CHECKING:
    from .context import Context
    from .report import Report


class EquipmentMixin:
    """The ``Ruleset``'s gear hooks (see the module's docstring)."""

    slug: ClassVar[str]
    name: ClassVar[str]

    #: The top-level key of the build document that holds the gear list.
    equipment_key: ClassVar[str] = "equipment"

    if TYPE_CHECKING:

        def context_of(self, report: Report | None = None, ctx: Context | None = None) -> Context: ...
        def label(self, key: Any) -> str: ...

    def equipment(self, build: dict, *, ctx: Context | None = None) -> dict[str, Any] | None:
        """The sheet's gear block, or None when the build carries no gear list:

        ``{"label": the block's heading, "states": [(state id, label)] (the states an entry may
        be put in; none when the ruleset has no loadout rules), "rows": [{"index" (into the list),
        "name", "state" (id or None), "state_label", "detail" (text beside it: "right arm", a
        slot), "keep": {field: [values]} (fields the change form posts back unchanged),
        "has_state" (the row offers the states)}]}``.

        Default: the list under ``equipment_key``, each entry named by its item's catalogue entry
        (``ctx.catalogue["items"]``), else its custom name, with its ``slot`` as detail; no states."""
        gear = build.get(self.equipment_key) if isinstance(build, dict) else None
        if not isinstance(gear, list):
            return None
        items = self.context_of(None, ctx).catalogue.get("items", {})
        rows = []
        for i, entry in enumerate(gear):
            if not isinstance(entry, dict):
                continue
            slot = entry.get("slot")
            rows.append(
                {
                    "index": i,
                    "name": self.item_name(entry, items, i),
                    "state": None,
                    "state_label": "",
                    "detail": self.label(slot) if isinstance(slot, str) and slot else "",
                    "keep": {},
                    "has_state": False,
                }
            )
        return {"label": self.label(self.equipment_key), "states": [], "rows": rows}

    def item_name(self, entry: dict, items: dict[str, Any], index: int) -> str:
        """An entry's name: its item's catalogue name, its custom name, else "Item <n>"."""
        item = entry.get("item")
        found = items.get(item) if isinstance(item, str) else None
        if isinstance(found, dict) and found.get("name"):
            return str(found["name"])
        custom = entry.get("custom")
        if isinstance(custom, dict) and custom.get("name"):
            return str(custom["name"])
        return self.label(item) if isinstance(item, str) and item else f"Item {index + 1}"

    def equipment_change(
        self, build: dict, index: int, change: Any, *, ctx: Context | None = None
    ) -> tuple[dict, str]:
        """Apply a loadout change to entry ``index`` of the gear list: return (a new build, the
        words for the log, "Longsword wielded"). ``change`` is the state id, or an object with
        ``"state"`` and the fields the row's form keeps. Never mutates ``build``; a change the rules
        refuse raises ``StateError(code, message, path)``. The caller re-validates the new build.
        Default: no loadout rules, every change refused."""
        raise StateError(
            "equipment.fixed", f"{self.name} has no loadout to change.", f"/{self.equipment_key}"
        )

    #: Catalogue fields the builder's item list shows beside an item's name ("effort d6").
    item_summary_keys: ClassVar[tuple[str, ...]] = ()

    def item_summary(self, option: dict[str, Any]) -> str:
        """A short line about a catalogue item in the builder's item list (how it is held or worn,
        what it protects). Default: each of ``item_summary_keys`` it has ("effort d6"), then its
        ``summary`` text."""
        if not isinstance(option, dict):
            return ""
        bits = [
            f"{self.label(key).lower()} {option[key]}"
            for key in self.item_summary_keys
            if option.get(key) not in (None, "", 0)
        ]
        if option.get("summary"):
            bits.append(str(option["summary"]))
        return "; ".join(bits)
