"""The fight: an encounter with its combatants as the ruleset sees them (``Fight``), loaded once per
request by ``combat.selectors.encounter_fight``, changed by a step (combat/step.py) and shown by
the presenters (combat/presenters.py). What a fighter may do now (``fighter_actions``) and what
remains of a combatant's effects (``combatant_effects``) are asked of it here.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from characters.models import Obstacle
from characters.obstacles.selectors import encounter_obstacle_rows, for_rules
from combat.models import Combatant, Encounter
from rulesets.engine import effects as fx
from rulesets.engine.combat import ActionSpec, CombatRules, Fighter
from rulesets.engine.context import Context
from rulesets.engine.ruleset import Ruleset

logger = logging.getLogger(__name__)


#: The key of the obstacles in the encounter state the rules read (``Fight.rules_state``).
OBSTACLES = "obstacles"


class LazyMapping(Mapping):
    """A read-only mapping made by ``load`` the first time it is read: the obstacles cost their query
    only when a rule looks at them (a spend), not on every action."""

    def __init__(self, load: Callable[[], dict[str, Any]]):
        self._load = load
        self._data: dict[str, Any] | None = None

    def _got(self) -> dict[str, Any]:
        if self._data is None:
            self._data = self._load()
        return self._data

    def __getitem__(self, key: str) -> Any:
        return self._got()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._got())

    def __len__(self) -> int:
        return len(self._got())


@dataclass
class Fight:
    """An encounter with its combatants as the ruleset sees them (one load per request)."""

    encounter: Encounter
    ruleset: Ruleset | None
    rules: CombatRules | None
    unsupported: str
    combatants: list[Combatant]
    fighters: list[Fighter] = field(default_factory=list)
    #: The campaign's rules context (house rules, homebrew): every combat hook gets it.
    ctx: Context | None = None

    def __post_init__(self) -> None:
        self.by_id = {c.id: c for c in self.combatants}
        self.fighter_by_id = {f.id: f for f in self.fighters}

    @property
    def order(self) -> list[int]:
        return [i for i in (self.encounter.order or []) if i in self.by_id]

    @property
    def rules_state(self) -> dict[str, Any]:
        """The encounter state as the rules read it: with the obstacles a roll's EP may go into
        (``"obstacles"``: id → {name, level, ep, resolved}; read once per request, never saved)."""
        found = self.__dict__.get("_rules_state")
        if found is None:
            e = self.encounter
            found = self.__dict__["_rules_state"] = {
                **(e.state or {}),
                OBSTACLES: LazyMapping(lambda: for_rules(self.obstacles)),
            }
        return found

    @property
    def obstacles(self) -> list[Obstacle]:
        """The obstacles of this encounter and its campaign (one query per request)."""
        found = self.__dict__.get("_obstacles")
        if found is None and getattr(self.encounter, "has_obstacles", True) is False:
            found = self.__dict__["_obstacles"] = []
        if found is None:
            e = self.encounter
            found = self.__dict__["_obstacles"] = encounter_obstacle_rows(
                campaign_id=e.campaign_id, encounter_id=e.pk
            )
        return found

    @property
    def current_id(self) -> int | None:
        order = self.encounter.order or []
        if self.encounter.status != Encounter.Status.ACTIVE or not 0 <= self.encounter.turn < len(order):
            return None
        return order[self.encounter.turn]

    @property
    def current_ids(self) -> list[int]:
        """Everyone acting in this turn (an NPC group acts together)."""
        current = self.current_id
        if current is None:
            return []
        order = self.encounter.order
        span = 1
        if self.rules is not None:
            try:
                span = max(1, self.rules.turn_span(order, self.encounter.turn, self.fighter_by_id))
            except Exception:
                logger.exception("turn_span failed")
        return [i for i in order[self.encounter.turn : self.encounter.turn + span]]


def combatant_effects(fight: Fight, state: Any) -> list[dict[str, Any]]:
    """A combatant's active effects as its row shows them: [{"id", "name", "remaining"}], what
    remains in words ("1 round left", "until the end of Goblin's turn")."""
    out = []
    for entry in fx.active_entries(state):
        duration = entry.get("duration")
        remaining = fx.duration_text(duration, round_now=fight.encounter.round)
        if isinstance(duration, dict) and duration.get("until") == "end_of_turn":
            other = fight.fighter_by_id.get(duration.get("combatant"))  # type: ignore[arg-type]
            if other is not None:
                remaining = f"until the end of {other.name}'s turn"
        out.append({"id": entry.get("id"), "name": str(entry.get("name") or ""), "remaining": remaining})
    return out


def fighter_actions(fight: Fight, fighter: Fighter) -> list[ActionSpec]:
    if fight.rules is None or fight.encounter.status != Encounter.Status.ACTIVE:
        return []
    try:
        return list(
            fight.rules.actions(
                fighter, fight.fighters, fight.rules_state, current=fight.current_id, ctx=fight.ctx
            )
        )
    except NotImplementedError:
        return []
    except Exception:
        logger.exception("actions failed")
        return []
