"""Pando's combat: spending a roll's efficiency points on its outcomes (W1), the spec and the action.

"After rolling, the player taking the action selects an outcome with a cost equal to or less than the
roll's EP. Only one outcome can be selected, even if the roll generated enough EP to select multiple.
The exception to this rule are outcomes marked as chainable." (seed 000, "Outcomes")

A roll that can buy outcomes (a strike, after the target's block, dodge or tough-it-out have lowered
it; an item's rolled action) leaves ``encounter_state["attack"]``::

    {"attacker": id, "target": id | None, "weapon": "Longsword", "ep": 3,
     "action": "strike", "outcomes": [outcome, …], "main_taken": false}

``spend`` buys from it (``{"outcomes": [{"id", "times"?, "body_part"?, "target"?}]}``, or the page's
form fields ``outcome`` and ``times_<id>``); EP left stay to spend until the roller acts again or
their turn ends. A refusal (``pando.outcome_unknown``, ``pando.outcome_not_chainable``,
``pando.ep_exceeded``, ``pando.no_roll_to_spend``) changes nothing and the EP stay.
"""

from __future__ import annotations

import dataclasses

from rulesets.engine.combat import ActionSpec, CombatRefused, Fighter, Outcome

from .. import outcomes as oc
from .core import PandoCombatBase

SPEND = "spend"


class SpendOutcomes(PandoCombatBase):
    """The ``spend`` action: its spec (the page's form) and its perform."""

    @staticmethod
    def _pending(actor: Fighter, es: dict) -> dict | None:
        attack = es.get("attack") or {}
        if attack.get("attacker") == actor.id and (attack.get("ep") or 0) > 0:
            return attack
        return None

    def _spend_spec(self, actor: Fighter, fighters: list[Fighter], es: dict) -> ActionSpec | None:
        attack = self._pending(actor, es)
        if attack is None or not attack.get("outcomes"):
            return None
        ep = attack["ep"]
        target = next((f for f in fighters if f.id == attack.get("target")), None)
        parts = list((self._effects(target).get("body") or {}).keys()) if target is not None else []
        params = oc.spend_params(
            attack["outcomes"],
            ep,
            main_taken=bool(attack.get("main_taken")),
            parts=parts,
            obstacles=es.get("obstacles"),
        )
        whom = f" against {target.name}" if target else ""
        taken = "; one outcome bought already, chainable ones left" if attack.get("main_taken") else ""
        return ActionSpec(
            id=SPEND,
            label=f"Spend EP on outcomes{whom}",
            cost=f"no speed ({ep} EP left to spend{taken})",
            params=params,
        )

    def _spend(self, action: dict, actor: Fighter, fighters: list[Fighter], es: dict) -> Outcome:
        attack = self._pending(actor, es)
        if attack is None:
            raise CombatRefused(
                "pando.no_roll_to_spend",
                f"{actor.name} has no EP to spend: the EP of a roll are spent right after it, "
                "before acting again or ending the turn.",
            )
        available = attack.get("outcomes") or []
        obstacle = oc.obstacle_part(action, es.get("obstacles"))
        to_obstacle = obstacle["ep"] if obstacle else 0
        bought = oc.plan(
            available,
            oc.requested(action, available),
            attack["ep"],
            main_taken=bool(attack.get("main_taken")),
            to_obstacle=to_obstacle,
        )
        if not bought and not obstacle:
            raise CombatRefused(
                "pando.outcome_unknown",
                f"Pick an outcome to buy. This roll's: {', '.join(o['name'] for o in available) or 'none'}.",
            )
        out = Outcome()
        states: dict[int, dict] = {}
        words: list[str] = []
        by_id = {f.id: f for f in fighters}
        for b in bought:
            tid = b.target if b.target is not None else attack.get("target")
            target = by_id.get(tid) if tid is not None else None
            o = b.outcome
            if target is None and (o.get("harm") or o.get("effect") or o.get("disarm")):
                raise CombatRefused(
                    "pando.no_target",
                    f"{o['name']} needs a target: name one when rolling, or in the outcome.",
                )
            if target is None:
                words.append(f"{b.words()}: {o.get('text') or o['name']}")
                continue
            now = dataclasses.replace(target, state=states.get(target.id, target.state))
            said = ""
            if o.get("harm"):
                new, said = self.play_state_action(
                    now,
                    None,
                    {
                        "action": "harm",
                        "body_part": b.body_part,
                        "amount": o["harm"] * b.times,
                        "protected": True,
                    },
                )
                states[target.id] = new
            elif o.get("disarm"):
                held = next(
                    ((i, item) for i, item, state, _ in self._equipment(now) if state == "wielded"), None
                )
                if held is None:
                    raise CombatRefused(
                        "pando.nothing_to_disarm", f"{target.name} wields nothing that could be knocked away."
                    )
                new, said = self.play_state_action(
                    now, None, {"action": "disarm", "index": held[0], "item": held[1]["name"].lower()}
                )
                states[target.id] = new
            if o.get("effect"):
                spec = {"effect": o["effect"], **({"value": o["value"]} if o.get("value") else {})}
                out.effects.append((target.id, spec))
                said = f"{said} {target.name}: {o['name']} ({o.get('text') or o['effect']})".strip()
            words.append(f"{b.words()} on {target.name}" + (f": {said}" if said else ""))
        out.state.update(states)
        if obstacle:
            out.obstacle = obstacle
            words.insert(0, f"{to_obstacle} EP into {obstacle['name']}")
        cost = sum(b.cost for b in bought) + to_obstacle
        left = attack["ep"] - cost
        new_es = {k: v for k, v in es.items() if k != "attack"}
        if left:
            new_es["attack"] = {
                **attack,
                "ep": left,
                "main_taken": bool(attack.get("main_taken"))
                or any(not b.outcome.get("chainable") for b in bought),
            }
        out.encounter_state = new_es
        rest = f" {left} EP left to spend." if left else ""
        out.log(
            SPEND,
            f"{actor.name} spends {cost} EP: " + "; ".join(words) + "." + rest,
            actor.id,
            bought=[
                {"id": b.outcome["id"], "name": b.outcome["name"], "times": b.times, "cost": b.cost}
                for b in bought
            ],
            spent=cost,
            left=left,
            feed=True,
            target=attack.get("target"),
        )
        return out
