"""Ascendant's weapons in a fight as data (W21): the house weapon table (``character/gear.py``
``weapon_table``: ``weapons.json`` with ``house.json``'s ``weapon_table``), the multiple attack
penalty and the raised shield's bonus, all house defaults a campaign overrides as house rules.
A mixin of ``AscendantCombat`` (``__init__.py``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rulesets.engine.combat import Fighter
from rulesets.engine.fields import is_int

from ..character.gear import weapon_table

if TYPE_CHECKING:
    from rulesets.engine.context import Context


class WeaponsMixin:
    """The weapon table, the multiple attack penalty and the shield of ``AscendantCombat``."""

    if TYPE_CHECKING:

        def ctx_of(self, fighter: Fighter | None = None, ctx: Context | None = None) -> Context: ...
        def _class(self, f: Fighter) -> dict: ...

    def _weapons(self, f: Fighter) -> dict[str, dict[str, Any]]:
        """The weapons the fighter may Strike with (W21: the house weapon table, ``gear.weapon_table``):
        the weapons its build carries and its fist; a build that carries none (an NPC, a build from
        before gear) may pick any."""
        table = weapon_table(self.ctx_of(f))
        carried = self._carried(f, table)
        if not carried:
            return table
        return {wid: w for wid, w in table.items() if wid in carried or w.get("unarmed")}

    def _carried(self, f: Fighter, table: dict[str, dict[str, Any]]) -> list[str]:
        """The weapons of ``table`` the fighter's build carries (not set down), in the build's order."""
        gear = f.build.get("gear") if isinstance(f.build, dict) else None
        return [
            e["item"]
            for e in gear or ()
            if isinstance(e, dict) and e.get("state", "carried") == "carried" and e.get("item") in table
        ]

    def _default_weapon(self, f: Fighter) -> str:
        """The class's weapon (``weapon`` in classes.json) when at hand, else the first carried (in
        the table's order), else a fist."""
        weapons = self._weapons(f)
        own = self._class(f).get("weapon")
        if own in weapons:
            return own
        if self._carried(f, weapons):
            armed = [wid for wid, w in weapons.items() if not w.get("unarmed")]
            if armed:
                return armed[0]
        return "fist" if "fist" in weapons else next(iter(weapons), "fist")

    def _attack_penalties(self, f: Fighter, agile: bool) -> list[int]:
        """The multiple attack penalty's sizes, 2nd attack then 3rd and later (house defaults −5/−10,
        agile −4/−8: ``multiple_attack_penalty``, ``agile_attack_penalty``, W21)."""
        key = "agile_attack_penalty" if agile else "multiple_attack_penalty"
        sizes = self.ctx_of(f).settings.get(key)
        return [n for n in sizes if is_int(n)] if isinstance(sizes, list) else []

    def _shield_bonus(self, f: Fighter) -> int:
        bonus = self.ctx_of(f).settings.get("shield_bonus", 2)
        return bonus if is_int(bonus) else 2
