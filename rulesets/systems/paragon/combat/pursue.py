"""Pursue: chase a retreating foe (RULES.md W8).

Seed, "Retreat and Pursuit": "Enemies may choose to pursue a retreating character, though that
requires them to retreat from battle themselves. The contest of a pursuit is automatically won by a
character that moves significantly faster (eg. a mounted zeetha rider versus a human on foot),
otherwise the characters make opposed rolls of Athletics (or Cavalry, if mounted), rerolling any
ties."

The pursuer's turn, as its sole action (it is their retreat): each side rolls its own skill (athletics,
or cavalry when mounted), ties rolled again; the odds shown are exact (dice.py ``win_chance``). The
GM's "much faster" settles it without a roll (gm.py ``gm_pursuit``). Caught: the quarry's retreat fails
and both fight on in this encounter; escaped: the quarry quits the field at once and the pursuer,
having left the battle to chase, quits it too (RULINGS.md).
One action of Paragon's combat (actions.py lists them)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rulesets.engine.combat import ActionSpec, CombatRefused, Fighter, Outcome

from .. import dice
from .common import EVASION_SKILLS, _side

if TYPE_CHECKING:
    from .core import ParagonCore, _Now

SKILL_WORDS = {"athletics": "Athletics (on foot)", "cavalry": "Cavalry (mounted)"}


def quarries(actor: Fighter, fighters: list[Fighter]) -> list[Fighter]:
    """The foes of ``actor`` retreating now (declared, not yet gone)."""
    return [
        f
        for f in fighters
        if f.id != actor.id and _side(f) != _side(actor) and (f.combat or {}).get("retreating")
    ]


def _skill(value, default: str) -> str:
    if value in (None, ""):
        return default
    if value not in EVASION_SKILLS:
        raise CombatRefused(
            "paragon.invalid_skill", "A pursuit is Athletics on foot, or Cavalry when mounted."
        )
    return str(value)


def spec(rules: ParagonCore, now: _Now) -> ActionSpec:
    actor = now.actor
    found = quarries(actor, list(now.by.values()))
    skill_field = {
        "kind": "choice",
        "options": [{"id": s, "label": w} for s, w in SKILL_WORDS.items()],
        "default": "athletics",
    }
    pursue = ActionSpec(
        id="pursue",
        label="Pursue a retreating foe",
        cost="the whole turn (you leave the battle too)",
        target="enemy",
        params=[
            {"id": "skill", "label": "You pursue", **skill_field},
            {"id": "quarry_skill", "label": "The foe flees", **skill_field},
        ],
    )
    if found:
        quarry = found[0]
        mine = rules._own(actor, rules._check(actor, "athletics"), "athletics")
        theirs = rules._own(quarry, rules._check(quarry, "athletics"), "athletics")
        pursue.odds = opposed(mine, theirs)
    pursue.deny(*now.turn_gate)
    if not found:
        pursue.deny("Nobody is retreating from the battle.", "paragon.no_retreat")
    elif now.c.get("engaged"):
        pursue.deny("A pursuit must be the turn's only action.", "paragon.not_sole_action")
    return pursue


def opposed(mine: dict, theirs: dict) -> dict:
    """The odds request of one side's check against the other's (CONTRACT.md ``against: "opposed"``)."""
    return {
        "force": mine["force"],
        "skill": mine["skill"],
        "against": dice.OPPOSED_CONTRACT,
        "opponent_force": theirs["force"],
        "opponent_skill": theirs["skill"],
    }


def quarry_of(action: dict, actor: Fighter, fighters: list[Fighter]) -> Fighter:
    found = quarries(actor, fighters)
    target = action.get("target")
    for f in found:
        if target in (None, "") or str(f.id) == str(target):
            return f
    raise CombatRefused("paragon.no_retreat", "Pursue a foe who is retreating from the battle.")


def settle(rules: ParagonCore, actor: Fighter, quarry: Fighter, caught: bool, out: Outcome) -> None:
    """Caught: the quarry's retreat fails, both stay; escaped: both quit the field."""
    mine = {**rules.combat_numbers(actor), **out.combat.get(actor.id, {})}
    theirs = {**rules.combat_numbers(quarry), **out.combat.get(quarry.id, {})}
    if caught:
        theirs.update(retreating=False)
        out.log(
            "pursue",
            f"{actor.name} catches {quarry.name}: the retreat fails and they fight on.",
            actor.id,
            target=quarry.id,
            caught=True,
        )
    else:
        theirs.update(retreating=False, retreated=True)
        mine.update(retreating=False, retreated=True)
        out.log(
            "pursue",
            f"{quarry.name} escapes {actor.name}: both have quit the field.",
            actor.id,
            target=quarry.id,
            caught=False,
        )
    out.combat[actor.id] = mine
    out.combat[quarry.id] = theirs


def perform(rules: ParagonCore, action, actor, fighters, es, roller, ctx=None) -> Outcome:
    quarry = quarry_of(action, actor, fighters)
    skill = _skill(action.get("skill"), "athletics")
    quarry_skill = _skill(action.get("quarry_skill"), "athletics")
    out = Outcome(end_turn=True)
    request = opposed(
        rules._own(actor, rules._check(actor, skill), skill),
        rules._own(quarry, rules._check(quarry, quarry_skill), quarry_skill),
    )
    roll = dice.roll(request, roller)
    caught = roll["outcome"] == "pass"
    out.log(
        "pursue",
        f"{actor.name} pursues {quarry.name} ({SKILL_WORDS[skill]} against {SKILL_WORDS[quarry_skill]}): "
        f"{roll['text']}.",
        actor.id,
        faces=roll["faces"],
        total=roll["total"],
        outcome=roll["outcome"],
        odds=request,
        target=quarry.id,
    )
    settle(rules, actor, quarry, caught, out)
    return out
