"""Our D&D's turns (RULES.md 4 "Play and scenes", seed 003: turns, initiative, TD, checks and
attempts, effort, hearts, dying, recovery, Heroic Inspiration).

Plain Python over ``Fighter`` values (engine/combat.py); the combat service applies the
``Outcome``. HP, dying, first aid, recovery and inspiration change only through the
ruleset's play-state hook ``state_action`` (``damage``, ``heal``, ``dying_turn``,
``first_aid``, ``recover``, ``gain_inspiration``, ``spend_inspiration``), so a fight and
the character sheet never disagree.

``Fighter.combat`` for Our D&D::

    {"initiative": 17,         # the d20 (the DM's one roll for every NPC)
     "move": null,             # this turn's move: null, "near" or "far"
     "acted": false,           # this turn's action is taken
     "last_roll": {...}}       # the last failed check or attempt this turn (for a re-roll)

``encounter_state``::

    {"td": 14, "td_start": 15, "td_lowered": 1,   # the scene's TD, where it started, how far
                                                  # the players have lowered it (at most 3)
     "initiative_npcs": 11,                       # the DM's roll
     "tasks": {"the jammed gate": 7},             # effort put into tasks without a target
     "positions": {"12": 0, "13": 1},             # each combatant's zone on the line (distance.py)
     "names": {"12": "Bram", "13": "Goblin"}}     # whom the rows name the bands by

Readings where the seed leaves room:

- Initiative: "the highest roll goes first, then clockwise". The seats are the order in
  which the combatants are listed; the NPCs all sit at the DM's seat (where the first NPC
  is listed) and act together in one turn (``turn_span``). The highest roll's seat goes
  first and the others follow round the table from there; a tie for the highest goes to
  the earlier seat.
- Turns: "action only", "move near + action" or "move far". A move comes before the
  action (after an action you cannot move), moving far ends the turn, and recovering takes
  the whole turn (no move, no other action).
- Distances (distance.py): CLOSE, NEAR, FAR, VERY FAR, OUT OF RANGE between combatants, from
  their zones on one line. A move names someone and the band to end at from them (``to``);
  a NEAR move covers a NEAR distance, a FAR move a FAR one, else ``ourdnd.too_far_to_move``;
  a move naming nobody changes no band. An attempt on a combatant needs its gear's reach
  (``ourdnd.out_of_reach``; bare hands and melee CLOSE), is HARD at VERY FAR, and nothing
  reaches OUT OF RANGE (``ourdnd.out_of_range``). First aid needs CLOSE ("if an ally can
  reach you"). The sides start ``start_distance`` apart (house default); the DM places anyone
  (``set_distance``). The row's summary lists the band to every other combatant (``details``).
- The TD: the GM sets it (``set_td``: a new starting point). Players lower it (a torch, a
  light spell…) by at most 3 below where it started; lowering is not an action.
- Rolls: the scene's TD, except an NPC's attempt against a PC, which rolls against the
  PC's Defense + 10. Effort is rolled after a successful attempt with the chosen gear's die
  (bare hands d4), +d12 on a natural 20, +d12 more when Heroic Inspiration is turned in
  for it; effort against a combatant is damage to its HP (its hearts × 10), effort on a
  task (no target) adds up in ``encounter_state["tasks"]``.
- A natural 20 on any d20 roll (check, attempt, first aid, recovery) grants Heroic
  Inspiration; one already held passes to the named ``give_to`` ally, else to the first
  ally without one. A blunder (natural 1) is logged; its mishap is the DM's to narrate
  (and to apply with ``gm_damage``).
- Heroic Inspiration re-rolls the last failed check or attempt of this turn (``reroll``,
  not another action), or adds a d12 to an attempt's effort (``inspire`` on the attempt;
  spent only when effort is rolled).
- A dying combatant's turn is its dying roll, made when the turn starts.


The code: ``rules.py`` (``OurDnDCombat``: set-up, turns, the row, the dispatch) made of one mixin
per family of actions, each holding its specs and its ``_do_`` handlers side by side: ``movement.py``,
``rolls.py``, ``care.py`` (first aid, recovery), ``difficulty.py`` (the TD), ``gm.py``; and
``core.py`` (the constants and the helpers they share).
"""

from __future__ import annotations

from .core import MODES, MOVES
from .rules import OurDnDCombat

__all__ = ["MODES", "MOVES", "OurDnDCombat"]
