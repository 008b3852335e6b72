"""Paragon RPG's violence (RULES.md 2 "Play state and combat", seed 001 "VIOLENCE").

Plain Python over ``Fighter`` values (engine/combat.py); the combat service applies the
``Outcome``. Pools (health, stamina, morale, heroism) change only through the ruleset's
play-state hook ``state_action`` (state.py: ``damage``, ``set``, ``resist_incapacitation``,
``spend_hero_point``), so a fight and the character sheet never disagree.

``Fighter.combat`` for Paragon::

    {"initiative": 21,          # the initiative check (+1d6 with killing intent)
     "initiative_text": "…",    # how it was rolled, for the row
     "killing_intent": true,    # declared before the fight (or in the opening, see below)
     "temp_morale": 5,          # killing intent's temporary Morale, lost before the pool's
     "footing": "forward",      # or "rearward"
     "surprised": false,        # skips the surprise round
     "engaged": false,          # initiated an exchange this turn (one per turn)
     "forgo": false,            # took the free Forward→Rearward change: no other action this turn
     "retreating": false, "retreated": false}

``encounter_state``::

    {"surprise_round": true,    # round 1 is the surprise round: the surprised skip it
     "opening": true,           # nobody has acted yet: declarations still allowed
     "exchange": {"attacker": id, "defender": id, "kind": "melee"|"ranged",
                  "first": id | None,        # who acts first; None = simultaneously
                  "first_by": "hero_points" | "surprise" | "initiative",   # what decided it
                  "seized": {"<id>": n},     # Hero Points spent to seize the offensive
                  "declared": true,          # melee against a Rearward foe: interception and
                                             # evasion are open until the attacker's first strike
                  "strikes": {"<id>": n},    # strikes chained so far by each side
                  "done": [ids],             # whose action in the exchange is over
                  "intercepted": id | None}, # the Rearward foe an interceptor stepped in for
     "threat": {"attacker": id, "defender": id, "weapon": "strong", "total": 17, "tn": 16}}

Readings where the seed leaves room (also shown on the page in the actions' reasons):

- Setup: killing intent, surprise and opening footing are read from each fighter's combat
  numbers or from ``encounter_state`` (``{"killing_intent": [ids], "surprised": [ids],
  "footing": {"<id>": "rearward"}}``) at ``start``. While nobody has acted yet (the
  opening), a fighter may still declare killing intent (its d6 is added and the order
  re-sorted), declare its footing for free, and the GM may mark fighters surprised.
- Initiative ties keep the listed order of the turn order. In an exchange the higher
  initiative acts first: the other side strikes once the first side's action is over (its
  chain ended by a miss, by the fifth strike or by ``end_action``). Equal initiative acts
  simultaneously: both sides may strike, in any order, interleaved.
- An exchange is opened by ``engage`` on the attacker's turn (one per turn) and lasts until
  both sides' actions are over (a chain that ends, ``end_action``) or one side is down; the
  defender acts in it outside its own turn. The next turn closes any exchange left open.
- Striking rolls the combat skill (melee, missile or triarmatura: force d6 + 2×rank) against
  the defender's Defense for the exchange: melee exchange → Defense (Melee), ranged →
  Defense (Missile); a paragon's Defense (Triarmatura) applies to both when higher.
- Avoiding is a reaction, not a roll: 1 stamina nullifies the threat (the seed: "the threat
  is nullified"). It does not use up the defender's action in the exchange (else the fighter
  acting first could never avoid the reply). A threat left unanswered when the next turn
  starts turns into a hit ("if the defender does nothing, the threat turns into a hit").
- A threat, avoided or not, lets the attacker chain another strike; a miss ends the chain.
- Rearward footing's extra die on defensive checks applies to evasion (the one defensive
  roll: Defense itself is a fixed score).
- Evasion is an opposed roll: both roll the evader's chosen skill (athletics or cavalry);
  ties are rolled again. Its odds are shown against the attacker's average roll.
- Killing intent's 5 temporary Morale absorb a hit's Morale loss before the pool does
  (the pool's maximum stays the sheet's).
- Effects (content/effects.json, issue #22): every check a fighter rolls (initiative, a strike, an
  evasion, both sides' rolls) is the sheet's roll ``skill:<skill>`` of that fighter as it stands:
  its effects (``Ruleset.with_effects``) and the numbers of the conditions its play state holds
  (tired: a force die fewer), the same in an action's odds and in the roll (``rules._own``; a
  chained strike's or an evasion's Stamina is spent after the check is set).
- Seizing the offensive (seed: "a combatant who expends more HP than their opponent always gets to
  act first, regardless of Initiative and surprise assaults"): ``seize_offensive`` with an ``amount``
  of Hero Points, by either side of an exchange before its first strike; spends add up, the higher
  total acts first, and a surprised foe who outspends strikes first even in the surprise round. The
  seed is silent on equal spends: house default ``seize_offensive_tie`` "initiative" (they cancel
  out, surprise and initiative decide), or "simultaneous"; the page and the log say which.


The code: ``rules.py`` (``ParagonCombat``: set-up, turns, the row, and the dispatch), built on
``core.py`` (``ParagonCore``: what every action reads of a fighter and the steps they share, and
``_Now``), one module per action (its ``spec`` and ``perform`` side by side, typed against
``ParagonCore``) listed in ``actions.py``, and ``common.py`` (the house readings, the weapons).
"""

from __future__ import annotations

from .common import (
    EVASION_SKILLS,
    EXPLODING_D12_MEAN,
    HOUSE_NOTE,
    INCAPACITATED_RANGED_TN,
    SEIZE_TIES,
    STRIKE_SKILLS,
    chained_strike_stamina,
    killing_intent_morale,
    max_chain,
    seize_tie,
    weapons,
)
from .rules import ParagonCombat

__all__ = [
    "EVASION_SKILLS",
    "EXPLODING_D12_MEAN",
    "HOUSE_NOTE",
    "INCAPACITATED_RANGED_TN",
    "SEIZE_TIES",
    "STRIKE_SKILLS",
    "ParagonCombat",
    "chained_strike_stamina",
    "killing_intent_morale",
    "max_chain",
    "seize_tie",
    "weapons",
]
