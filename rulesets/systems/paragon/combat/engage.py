"""Engage: open an exchange (one per turn).

One action of Paragon's combat (actions.py lists them). ``spec`` says whether and why (not) the
actor may take it now; ``perform`` takes it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rulesets.engine.combat import ActionSpec, CombatRefused, Outcome
from rulesets.engine.words import a

if TYPE_CHECKING:
    from .core import ParagonCore, _Now


def spec(rules: ParagonCore, now: _Now) -> ActionSpec:
    """Engage: open an exchange (one per turn); from Rearward footing only ranged ones."""
    actor, rearward = now.actor, now.footing == "rearward"
    engage = ActionSpec(
        id="engage",
        label="Engage a foe (open an exchange)",
        target="enemy",
        cost="free; 1 stamina for melee against a Rearward foe",
        params=[
            {
                "id": "kind",
                "label": "Exchange",
                "kind": "choice",
                "options": ["ranged"] if rearward else ["melee", "ranged"],
                "default": "ranged" if rearward else "melee",
            }
        ],
    )
    engage.deny(*now.turn_gate)
    if now.c.get("engaged"):
        engage.deny(f"{actor.name} already engaged a foe this turn.", "paragon.already_engaged")
    if now.threat:
        engage.deny("A threat is waiting for the defender's answer.", "paragon.threat_pending")
    return engage


def perform(rules: ParagonCore, action, actor, fighters, es, roller, ctx=None) -> Outcome:
    target = rules._target(action, actor, fighters)
    kind = action.get("kind", "melee")
    if kind not in ("melee", "ranged"):
        raise CombatRefused("paragon.invalid_exchange", 'An exchange is "melee" or "ranged".')
    c, t = actor.combat or {}, target.combat or {}
    if t.get("retreated"):
        raise CombatRefused("paragon.retreated", f"{target.name} has quit the field.")
    if rules._down(target) == "dead":
        raise CombatRefused("paragon.dead", f"{target.name} is already dead.")
    if kind == "melee" and c.get("footing") == "rearward":
        raise CombatRefused(
            "paragon.rearward_ranged_only",
            "From Rearward footing only ranged exchanges can be started: change to Forward "
            "footing (free) to fight in melee.",
        )
    out = Outcome()
    declared = kind == "melee" and t.get("footing") == "rearward"
    if declared:
        rules._spend_stamina(actor, actor.state, 1, roller, out, f"Melee against Rearward {target.name}")
    first, first_by = rules._first(actor, target, es)
    ex = {
        "attacker": actor.id,
        "defender": target.id,
        "kind": kind,
        "declared": declared,
        "first": first,
        "first_by": first_by,
        "seized": {},
        "strikes": {},
        "done": [],
        "intercepted": None,
    }
    new_c = {**rules.combat_numbers(actor), "engaged": True}
    out.combat[actor.id] = new_c
    if kind == "melee" and t.get("retreating"):
        out.combat[target.id] = {**rules.combat_numbers(target), "retreating": False}
        out.log("retreat", f"{target.name} is engaged in melee: the retreat fails.", target.id)
    first = ex["first"]
    order = (
        "simultaneously"
        if first is None
        else f"{actor.name if first == actor.id else target.name} acts first"
    )
    text = f"{actor.name} engages {target.name} in {a(kind)} exchange ({order})."
    if declared:
        text += f" {target.name} may evade; Forward allies of theirs may intercept."
    out.log("engage", text, actor.id, target=target.id, exchange=kind, first=first)
    out.encounter_state = {**es, "exchange": ex, "threat": None}
    return out
