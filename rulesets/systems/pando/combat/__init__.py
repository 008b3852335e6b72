"""Pando's action rounds (RULES.md 1 "Action rounds (combat)", seed 000 "Action Rounds").

Plain Python over ``Fighter`` values (engine/combat.py); the combat service applies the
``Outcome``. Play state (stamina, harm, exhaustion) changes only through the ruleset's own
play-state hook ``state_action``, so combat and the sheet can never disagree.

``Fighter.combat`` for Pando::

    {"momentum": 5,            # the Momentum in effect this round (a group: the average of theirs)
     "own_momentum": 5,        # acrobatics + presence, before any group average
     "momentum_next": 6,       # set by the GM; takes effect at the next round start
     "speed": 4,               # speed left this round
     "uses": {"strike": 2}}    # earlier uses of each action this round

``encounter_state``::

    {"attack": {"attacker": id, "target": id | None, "weapon": "Longsword", "ep": 3}}

The attack is the latest strike whose efficiency points (EP) are not spent yet. Its
target may react (block, dodge, tough it out: each reaction's EP take EP off the
attack); the attacker (or the GM) then spends the EP on harm to a body part of the
target. Decisions where the seed is silent (documented for players on the page):

- "The same action" is the action kind: striking with the sword and then with the
  dagger is two uses of Strike (the second costs 2).
- Harm: each EP spent on harm is 1 harm to the chosen body part, minus the harm
  protection of that body part (armour, a shield on that arm) — ``state_action`` "harm"
  with ``protected``. Unspent EP are lost when the turn ends or the attacker strikes again.
- A group of NPCs shares one Momentum (the average of theirs) and acts together in the
  order: its members are adjacent and all of them are "current" during the group's turn.
  Ties with a group compare the group's average acrobatics, then presence.
- Tough it Out rolls Endurance with Capability (level 1); Dodge rolls Acrobatics with the
  best of Athletics, Dodge, Evasion, Evasion Mastery; Block rolls the wielded item's block
  roll (a shield's), or its strike roll (a weapon in the way).
- Use Item needs one usable arm and prefers a healthy one; a Bandage removes Bleeding
  from its target (yourself or an ally).
- Current stamina is kept from the sheet when the fight starts (not reset to the maximum).


The code: ``rules.py`` (``PandoCombat``: ``actions``, ``perform``, the row) made of mixins:
``turns.py`` (initiative, rounds, turns), ``specs.py`` (what each action costs and whether it is allowed),
``handlers.py`` (targets, rolls, harm, the GM's actions); and ``core.py`` (constants and the helpers
that read a fighter).
"""

from __future__ import annotations

from .core import DEFAULT_ARMS, DODGE_SKILLS
from .rules import PandoCombat

__all__ = ["DEFAULT_ARMS", "DODGE_SKILLS", "PandoCombat"]
