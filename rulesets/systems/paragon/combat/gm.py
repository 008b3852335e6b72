"""The GM's actions on a fighter: damage or restore a pool, end the exchange, mark surprised.

Part of Paragon's combat (actions.py). ``specs`` are the GM's actions on the actor; ``perform``
takes one."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rulesets.engine.combat import ActionSpec, CombatRefused, Fighter, Outcome
from rulesets.engine.fields import whole_number

from ..state import POOLS
from . import pursue
from .common import surprised_start_sheathed
from .ready import drawn

if TYPE_CHECKING:
    from .core import ParagonCore


def specs(rules: ParagonCore, actor: Fighter, es: dict, fighters: list[Fighter]) -> list[ActionSpec]:
    pool = {"id": "pool", "label": "Pool", "kind": "choice", "options": list(POOLS), "default": "health"}
    amount = {"id": "amount", "label": "Amount", "kind": "number", "min": 1, "default": 1}
    specs = [
        ActionSpec(
            id="gm_damage",
            label="Lose points",
            cost="GM",
            gm=True,
            reaction=True,
            relative=True,
            params=[pool, amount],
        ),
        ActionSpec(
            id="gm_restore",
            label="Regain points",
            cost="GM",
            gm=True,
            reaction=True,
            relative=True,
            params=[pool, amount],
        ),
        ActionSpec(id="gm_end_exchange", label="End the exchange", cost="GM", gm=True, reaction=True),
    ]
    if not es.get("exchange"):
        specs[2].deny("No exchange is under way.", "paragon.no_exchange")
    surprised = ActionSpec(
        id="gm_surprised", label="Surprised (skips the surprise round)", cost="GM", gm=True, reaction=True
    )
    if not es.get("opening"):
        surprised.deny("Surprise is marked before anyone acts.", "paragon.not_opening")
    specs.append(surprised)
    sheathed = ActionSpec(
        id="gm_sheathed",
        label="Weapon at the ready" if not drawn(actor) else "Weapon sheathed (begins the battle unready)",
        cost="GM",
        gm=True,
        reaction=True,
    )
    if not es.get("opening"):
        sheathed.deny("Weapons are set at the ready or sheathed before anyone acts.", "paragon.not_opening")
    specs.append(sheathed)
    outright = ActionSpec(
        id="gm_pursuit",
        label="Pursuit won outright (one side moves much faster)",
        cost="GM",
        gm=True,
        reaction=True,
        target="enemy",
        params=[
            {
                "id": "winner",
                "label": "Much faster",
                "kind": "choice",
                "options": [
                    {"id": "pursuer", "label": f"{actor.name}, the pursuer: the foe is caught"},
                    {"id": "quarry", "label": "The fleeing foe: they escape"},
                ],
                "default": "pursuer",
            }
        ],
    )
    if not pursue.quarries(actor, fighters):
        outright.deny("Nobody is retreating from the battle.", "paragon.no_retreat")
    specs.append(outright)
    return specs


def perform(
    rules: ParagonCore, aid: str, action: dict, actor: Fighter, fighters: list[Fighter], es: dict
) -> Outcome:
    out = Outcome()
    if aid in ("gm_damage", "gm_restore"):
        amount = whole_number(action.get("amount"))
        new_state, text = rules.play_state_action(
            actor,
            actor.state,
            {
                "action": "damage" if aid == "gm_damage" else "restore",
                "pool": action.get("pool", "health"),
                "amount": amount,
            },
        )
        out.state[actor.id] = new_state
        out.log(aid, f"GM: {text}", actor.id)
    elif aid == "gm_end_exchange":
        out.encounter_state = {**es, "exchange": None, "threat": None}
        out.log("exchange", "GM: the exchange ends.")
    elif aid == "gm_surprised":
        surprised = not (actor.combat or {}).get("surprised")
        numbers = {**rules.combat_numbers(actor), "surprised": surprised}
        if surprised_start_sheathed(rules.ctx_of(actor)):
            numbers["drawn"] = not surprised  # W7: the surprised begin sheathed (house default)
        out.combat[actor.id] = numbers
        others = any((f.combat or {}).get("surprised") for f in fighters if f.id != actor.id)
        out.encounter_state = {**es, "surprise_round": surprised or others}
        out.log("surprise", f"GM: {actor.name} is {'surprised' if surprised else 'not surprised'}.", actor.id)
    elif aid == "gm_pursuit":
        winner = action.get("winner")
        if winner not in ("pursuer", "quarry"):
            raise CombatRefused(
                "paragon.invalid_winner", "Say who is much faster: the pursuer or the fleeing foe."
            )
        quarry = pursue.quarry_of(action, actor, fighters)
        faster = actor.name if winner == "pursuer" else quarry.name
        out.log("pursue", f"GM: {faster} moves much faster and wins the pursuit outright.", actor.id)
        pursue.settle(rules, actor, quarry, winner == "pursuer", out)
    elif aid == "gm_sheathed":
        now_drawn = not drawn(actor)
        out.combat[actor.id] = {**rules.combat_numbers(actor), "drawn": now_drawn}
        state = "at the ready" if now_drawn else "sheathed"
        out.log("ready", f"GM: {actor.name} begins the battle with their weapon {state}.", actor.id)
    return out
