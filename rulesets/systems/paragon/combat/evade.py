"""Evade: an opposed roll to leave a declared melee exchange.

One action of Paragon's combat (actions.py lists them). ``spec`` says whether and why (not) the
actor may take it now; ``perform`` takes it."""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING

from rulesets.engine.combat import ActionSpec, CombatRefused, Outcome

from .. import dice
from .common import EVASION_SKILLS, EXPLODING_D12_MEAN

if TYPE_CHECKING:
    from .core import ParagonCore, _Now


def spec(rules: ParagonCore, now: _Now) -> ActionSpec:
    """A Rearward foe evades a melee exchange declared against it (opposed athletics or cavalry)."""
    actor, ex, attacker = now.actor, now.es.get("exchange") or {}, now.attacker  # read once declared
    evasion_skill = max(EVASION_SKILLS, key=lambda s: rules._rank(actor, s))
    evade = ActionSpec(
        id="evade",
        label="Evade the melee exchange",
        cost="1 stamina",
        reaction=True,
        params=[
            {
                "id": "skill",
                "label": "Roll",
                "kind": "choice",
                "options": list(EVASION_SKILLS),
                "default": evasion_skill,
            }
        ],
    )
    if now.declared and attacker is not None:
        mine = rules._own(
            actor,
            rules._check(actor, evasion_skill, extra_dice=1 if now.footing == "rearward" else 0),
            evasion_skill,
        )
        theirs = rules._own(attacker, rules._check(attacker, evasion_skill), evasion_skill)
        evade.odds = {
            **mine,
            "tn": round(EXPLODING_D12_MEAN + 3.5 * theirs["force"] + 2 * theirs["skill"]),
        }
    evade.deny(*now.any_gate)
    if not now.declared or ex.get("defender") != actor.id:
        evade.deny("Evasion answers a melee exchange declared against you.", "paragon.no_evasion")
    elif ex.get("evaded"):
        evade.deny(f"{actor.name} already tried to evade this exchange.", "paragon.evasion_tried")
    elif now.footing != "rearward":
        evade.deny("Only a combatant in Rearward footing can evade.", "paragon.not_rearward")
    rules._stamina_spec(evade, actor, 1, "Evasion", now.pools)
    return evade


def perform(rules: ParagonCore, action, actor, fighters, es, roller, ctx=None) -> Outcome:
    skill = action.get("skill") or max(EVASION_SKILLS, key=lambda s: rules._rank(actor, s))
    if skill not in EVASION_SKILLS:
        raise CombatRefused("paragon.invalid_skill", "Evade with athletics, or cavalry when mounted.")
    ex = copy.deepcopy(es["exchange"])
    attacker = next(f for f in fighters if f.id == ex["attacker"])
    out = Outcome()
    rules._spend_stamina(actor, actor.state, 1, roller, out, f"{actor.name} tries to evade")
    extra = 1 if (actor.combat or {}).get("footing") == "rearward" else 0
    # Each side rolls as its effects and conditions say, as the action's odds showed them (before the
    # Stamina the attempt costs).
    mine_check = rules._own(actor, rules._check(actor, skill, extra_dice=extra), skill)
    theirs_check = rules._own(attacker, rules._check(attacker, skill), skill)
    for _ in range(dice.MAX_EXPLOSIONS):  # ties are rolled again
        mine = dice.roll(mine_check, roller)
        theirs = dice.roll(theirs_check, roller)
        if mine["total"] != theirs["total"]:
            break
        out.log(
            "evade",
            f"Tie at {mine['total']}: roll again.",
            actor.id,
            faces=[*mine["faces"], *theirs["faces"]],
        )
    won = mine["total"] > theirs["total"]
    text = (
        f"{actor.name} tries to evade {attacker.name} ({skill}: {mine['text']} against {theirs['text']}): "
        + ("evaded, no melee exchange." if won else "caught, the exchange goes on.")
    )
    out.log(
        "evade",
        text,
        actor.id,
        won=won,
        mine=mine["total"],
        theirs=theirs["total"],
        faces=[*mine["faces"], *theirs["faces"]],
    )
    if won:
        out.encounter_state = {**es, "exchange": None, "threat": None}
    else:
        ex["evaded"] = True
        out.encounter_state = {**es, "exchange": ex}
    return out
