"""What every part of Pando's combat shares: the constants and the helpers that read a fighter
(attributes, skill levels, the play state's effects, equipment, arms)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from rulesets.engine.combat import CombatRules, Fighter
from rulesets.engine.fields import get_as, is_int

from ..character import ATTRIBUTES, CAPABILITY, entry_item
from ..dice import MAX_DICE, prone_request
from ..state import disarmed

DODGE_SKILLS = ("athletics", "dodge", "evasion", "evasion_mastery")
DEFAULT_ARMS = ("left_arm", "right_arm")


def _num(value: float | Fraction) -> int | float:
    """Momentum as people write it: 4, or 4.5 for a group average. A whole number stays one,
    however large (a float of it would overflow)."""
    if is_int(value):
        return value
    if isinstance(value, Fraction) and value.denominator == 1:
        return int(value)
    try:
        value = round(float(value), 2)
    except OverflowError:
        return int(value)
    return int(value) if value == int(value) else value


class PandoCombatBase(CombatRules):
    """The helpers every part of Pando's combat reads (the parts are mixins of this class)."""

    def __init__(self, ruleset):
        super().__init__(ruleset)
        self.kinds: dict[str, dict] = ruleset.catalogue.get("actions", {})

    @staticmethod
    def _attrs(f: Fighter) -> dict[str, int]:
        raw = f.build.get("attributes") if isinstance(f.build, dict) else None
        if not isinstance(raw, dict):
            return {}
        return {k: v for k, v in raw.items() if k in ATTRIBUTES and is_int(v) and v >= 0}

    @staticmethod
    def _levels(f: Fighter) -> dict[str, int]:
        """Learned skills → level (homebrew included: the report priced them at cost = level)."""
        levels = {CAPABILITY: 1}
        listed = get_as(f.build, "skills", list, [])
        for cost in getattr(f.report, "costs", None) or []:
            path = cost.get("path", "")
            if path.startswith("/skills/"):
                try:
                    sid = listed[int(path.rsplit("/", 1)[1])]
                except (ValueError, IndexError):
                    continue
                if isinstance(sid, str):
                    levels[sid] = cost["cost"]
        return levels

    def _effects(self, f: Fighter) -> dict[str, Any]:
        if f.report is None:
            return {}
        try:
            return self.effects_of(f) or {}
        except Exception:  # an odd state must not stop the fight page
            return {}

    def _skill_used(self, f: Fighter, skills: list[str] | tuple[str, ...]) -> str:
        """The skill a roll listing ``skills`` uses: the best one ``f`` has learned, else Capability
        (as the sheet's roll buttons choose it: dice.py)."""
        levels = self._levels(f)
        known = [s for s in skills if s in levels]
        return max(known, key=lambda s: levels[s], default=CAPABILITY)

    def _roll_request(
        self, f: Fighter, attribute: str, skills: list[str] | tuple[str, ...]
    ) -> dict[str, int]:
        attrs, levels = self._attrs(f), self._levels(f)
        known = [s for s in skills if s in levels]
        level = max((levels[s] for s in known), default=1)
        request = {"dice": min(max(attrs.get(attribute, 0), 0), MAX_DICE), "skill": min(level, 6)}
        return prone_request(request, attribute, f.state)

    def _item_of(self, f: Fighter, entry: Any) -> dict | None:
        """The item an equipment entry of ``f`` names (the campaign's homebrew items too)."""
        return entry_item(entry, self.ctx_of(f).catalogue) if isinstance(entry, dict) else None

    def _equipment(self, f: Fighter):
        """(index, item, state, arms) of each readable equipment entry (a disarmed one carried)."""
        equipment = get_as(f.build, "equipment", list, [])
        knocked = disarmed(f.state)
        for i, entry in enumerate(equipment):
            item = self._item_of(f, entry)
            if item is None:
                continue
            # A disarmed weapon is carried until a use-item action takes it up (W1 "Disarm").
            state = "carried" if i in knocked and entry.get("state") == "wielded" else entry.get("state")
            arms = [a for a in entry.get("arms") or [] if isinstance(a, str)] if state == "wielded" else []
            yield i, item, state, arms

    def _arms(self, f: Fighter) -> list[str]:
        species = self.ctx_of(f).catalogue.get("species", {}).get(f.build.get("species") or "humanoid") or {}
        return list(species.get("arms") or DEFAULT_ARMS)

    @staticmethod
    def _item_action(item: dict | None, kind: str) -> dict | None:
        if item is None:
            return None
        return next(
            (a for a in item.get("actions") or [] if isinstance(a, dict) and a.get("action") == kind), None
        )

    def _on_turn(self, actor: Fighter, fighters: list[Fighter], current: int | None) -> bool:
        if current is None:
            return False
        if actor.id == current:
            return True
        cur = next((f for f in fighters if f.id == current), None)
        return bool(cur and actor.is_npc and cur.is_npc and actor.group and actor.group == cur.group)
