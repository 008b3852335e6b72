"""Readying weapons: draw a sheathed weapon, sheathe a drawn one (RULES.md W7).

Seed: "A character may both draw a sheathed weapon and sheath a drawn weapon once during a round of
combat without it counting as their action for the round. They may even do so outside their own
turn." A weapon strike needs the weapon drawn; an unarmed strike needs nothing. "Alert combatants
may begin a battle with their weapons at the ready": everyone starts drawn, but the surprised, who
"may be forced to begin the battle without readied weapons": house default
``surprised_start_sheathed`` (true), and the GM's "Weapon sheathed" in the opening for anyone else.

``Fighter.combat`` keeps ``"drawn"`` (left out: drawn, as fights begun before this rule) and
``"readied": ["draw"|"sheathe", ...]``, what the fighter did this round (emptied at each round).
One action of Paragon's combat (actions.py lists them)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rulesets.engine.combat import ActionSpec, Fighter, Outcome

if TYPE_CHECKING:
    from .core import ParagonCore, _Now


def drawn(f: Fighter) -> bool:
    """Whether ``f``'s weapon is drawn (a fight begun before readying was ruled: drawn)."""
    return (f.combat or {}).get("drawn", True) is not False


def spec(rules: ParagonCore, now: _Now) -> ActionSpec:
    """Draw or sheathe, free, once each a round, on the turn or outside it."""
    is_drawn = drawn(now.actor)
    verb = "sheathe" if is_drawn else "draw"
    ready = ActionSpec(
        id="ready",
        label="Sheathe the weapon" if is_drawn else "Draw the weapon",
        cost="free, once a round",
        reaction=True,
    )
    ready.deny(*now.any_gate)
    if verb in (now.c.get("readied") or []):
        ready.deny(
            f"{now.actor.name} has already {'sheathed' if is_drawn else 'drawn'} a weapon this round.",
            "paragon.readied_this_round",
        )
    return ready


def perform(rules: ParagonCore, action, actor, fighters, es, roller, ctx=None) -> Outcome:
    c = rules.combat_numbers(actor)
    was = drawn(actor)
    verb = "sheathe" if was else "draw"
    c["drawn"] = not was
    c["readied"] = sorted({*(c.get("readied") or []), verb})
    out = Outcome()
    out.combat[actor.id] = c
    text = "sheathes their weapon" if was else "draws their weapon"
    out.log("ready", f"{actor.name} {text} (free, once a round).", actor.id, drawn=not was)
    return out
