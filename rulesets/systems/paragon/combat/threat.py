"""Answer a threat: avoid it (1 stamina) or take the hit.

One action of Paragon's combat (actions.py lists them). ``specs`` say whether and why (not) the
actor may take it now; ``perform_avoid`` and ``perform_take_hit`` take them."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rulesets.engine.combat import ActionSpec, Outcome

if TYPE_CHECKING:
    from .core import ParagonCore, _Now


def specs(rules: ParagonCore, now: _Now) -> list[ActionSpec]:
    """The defender's answers to a threat: avoid it (1 stamina) or let it hit."""
    actor, threat = now.actor, now.threat
    avoid = ActionSpec(id="avoid", label="Avoid the strike", cost="1 stamina", reaction=True)
    take = ActionSpec(id="take_hit", label="Let the strike hit", cost="Health and 1d6 Morale", reaction=True)
    if not (threat and threat.get("defender") == actor.id):
        for spec in (avoid, take):
            spec.deny(f"No strike threatens {actor.name} now.", "paragon.no_threat")
    if now.down == "dead":
        avoid.deny(f"{actor.name} is dead.", "paragon.dead")
    elif now.down == "incapacitated":
        avoid.deny("An incapacitated combatant cannot avoid a strike.", "paragon.incapacitated")
    rules._stamina_spec(avoid, actor, 1, "Avoiding", now.pools)
    return [avoid, take]


def perform_avoid(rules: ParagonCore, action, actor, fighters, es, roller, ctx=None) -> Outcome:
    out = Outcome()
    rules._spend_stamina(actor, actor.state, 1, roller, out, f"{actor.name} avoids the strike")
    out.encounter_state = rules._after_threat(es, fighters, out)
    return out


def perform_take_hit(rules: ParagonCore, action, actor, fighters, es, roller, ctx=None) -> Outcome:
    threat = es["threat"]
    attacker = next(f for f in fighters if f.id == threat["attacker"])
    out = Outcome()
    rules._hit(attacker, actor, threat.get("weapon", "unarmed"), roller, out)
    out.encounter_state = rules._after_threat(es, fighters, out)
    return out
