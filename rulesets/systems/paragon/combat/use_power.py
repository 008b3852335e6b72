"""Use a power: spend Dynama on one of the paragon's powers (RULES.md W6).

One action of Paragon's combat (actions.py lists them). ``spec`` says whether and why (not) the
actor may take it now; ``perform`` takes it. The power is the sheet's own ``use_power`` play-state
action (powers.py): the same Dynama spent, the same refusals, the same roll with the fighter's
effects. A power is used on the fighter's turn, or inside an exchange the fighter is part of (the
seed: "an exchange consists of attacks and defenses, magical and mundane alike"); it does not end the
turn (RULINGS.md)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rulesets.engine.combat import ActionSpec, CombatRefused, Outcome

from .. import powers

if TYPE_CHECKING:
    from .core import ParagonCore, _Now


def spec(rules: ParagonCore, now: _Now) -> ActionSpec:
    actor = now.actor
    known = powers.known(actor.build, now.ctx)
    spec = ActionSpec(
        id="use_power",
        label="Use a power",
        cost="its Dynama",
        reaction=True,
        params=[
            {
                "id": "power",
                "label": "Power",
                "kind": "choice",
                "options": powers.choices(actor.build, now.ctx),
                "default": known[0]["id"] if known else None,
            }
        ],
    )
    if not powers.is_paragon(actor.build):
        spec.deny(
            "Ordinary people have no means of using Dynama: only paragons use powers.", "paragon.no_powers"
        )
    elif not known:
        spec.deny(f"{actor.name} holds no force at the rank any power needs.", "paragon.power_not_known")
    spec.deny(*(now.exchange_gate if now.ex is not None else now.turn_gate))
    have = now.pools["dynama"]
    cheapest = min((p.get("cost", 0) for p in known), default=0)
    if have == 0:
        spec.deny(f"{actor.name} is paralysed (Dynama 0).", "paragon.paralysed")
    elif cheapest > have:
        spec.deny(
            f"The cheapest power costs {cheapest} Dynama but {actor.name} has {have}.",
            "paragon.not_enough_dynama",
        )
    return spec


def perform(rules: ParagonCore, action, actor, fighters, es, roller, ctx=None) -> Outcome:
    power = action.get("power")
    if not isinstance(power, str) or not power:
        raise CombatRefused("paragon.power_unknown", "Name the power to use.")
    out = Outcome()
    state, text = rules.play_state_action(actor, actor.state, {"action": "use_power", "power": power}, roller)
    out.state[actor.id] = state
    out.log("power", text, actor.id, power=power)
    return out
