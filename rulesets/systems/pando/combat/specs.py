"""Pando's combat: every action a fighter could take now, with its speed cost and why not."""

from __future__ import annotations

from rulesets.engine.combat import ActionSpec, Fighter

from .. import outcomes as oc
from ..character import CAPABILITY, RESISTANCES, label
from ..dice import efficiency_odds, parse_roll
from ..state import disarmed
from .core import DODGE_SKILLS, _num
from .spend import SpendOutcomes


class ActionSpecs(SpendOutcomes):
    """The actions' specs (``_specs``) and the GM's."""

    def _part_cost(self, fx: dict, parts: list[str]) -> tuple[int, list[str], list[str]]:
        """(extra speed for wounded parts, wounded parts, unusable parts) among ``parts``."""
        body = fx.get("body") or {}
        unusable = [p for p in parts if p in body and not body[p].get("usable", True)]
        wounded = [p for p in parts if body.get(p, {}).get("status") == "wounded"]
        extra = (fx.get("wounded_speed_cost", 1) or 0) if wounded else 0
        return extra, wounded, unusable

    def _spec(
        self,
        actor: Fighter,
        fx: dict,
        *,
        kind: str,
        id: str,
        label_: str,
        parts: list[str],
        on_turn: bool,
        reaction: bool = False,
        triggered: bool = False,
        target: str | None = None,
        odds: dict | None = None,
        rollable: str | None = None,
        params: list | None = None,
        trigger_text: str = "",
        outcomes: list[dict] | None = None,
    ) -> ActionSpec:
        """One action's spec; its roll (``odds``, what ``perform`` rolls too) with the actor's effects
        applied as they are to the sheet's roll ``rollable`` (None: only effects on every roll)."""
        if odds is not None:
            odds = self.ruleset.with_effects(odds, actor.state, rollable)
        combat = actor.combat or {}
        uses = (combat.get("uses") or {}).get(kind, 0)
        extra, wounded, unusable = self._part_cost(fx, parts)
        cost = 1 + uses + extra
        speed = combat.get("speed", 0) or 0
        notes = [
            f"+{uses} used before" if uses else "",
            f"+{extra} wounded {', '.join(label(p).lower() for p in wounded)}" if extra else "",
        ]
        note = "; ".join(n for n in notes if n)
        spec = ActionSpec(
            id=id,
            label=label_,
            cost=f"{cost} speed" + (f" ({note})" if note else ""),
            target=target,
            odds=odds,
            params=params or [],
            reaction=reaction,
        )
        if odds is not None and outcomes:
            # Before rolling: the exact chance to afford each outcome, P(EP ≥ cost) (W1).
            spec.outcomes = oc.affordable(efficiency_odds(*parse_roll(odds)), outcomes)
        reason, code = "", ""
        if fx.get("dead"):
            reason, code = f"{actor.name} is dead.", "pando.dead"
        elif reaction and not triggered:
            reason, code = f"{label_}: {trigger_text or 'its trigger has not happened'}.", "pando.no_trigger"
        elif not reaction and not on_turn:
            reason, code = self.not_your_turn(actor)
        elif unusable:
            which = " and ".join(f"{label(p).lower()} ({fx['body'][p]['status']})" for p in unusable)
            reason, code = f"The {which} cannot be used until healed.", "pando.body_part_unusable"
        elif cost > speed:
            reason, code = (
                f"{label_} costs {cost} speed but {actor.name} has {speed} left this round.",
                "pando.not_enough_speed",
            )
        if reason:
            spec.allowed, spec.reason, spec.code = False, reason, code
        spec.__dict__["_meta"] = {"kind": kind, "cost": cost, "parts": parts}
        return spec

    def _parts_present(self, fx: dict, parts: list[str]) -> list[str]:
        body = fx.get("body") or {}
        return [p for p in parts if not body or p in body]

    def _specs(
        self, actor: Fighter, fighters: list[Fighter], es: dict, current: int | None
    ) -> list[ActionSpec]:
        fx = self._effects(actor)
        on_turn = self._on_turn(actor, fighters, current)
        attack = es.get("attack") or {}
        attacked = attack.get("target") == actor.id and (attack.get("ep") or 0) > 0
        specs: list[ActionSpec] = []
        kinds = self.kinds
        equipment = list(self._equipment(actor))

        def name(kind: str) -> str:
            return (kinds.get(kind) or {}).get("name") or label(kind)

        specs.append(
            self._spec(
                actor,
                fx,
                kind="move",
                id="move",
                label_=name("move"),
                parts=self._parts_present(fx, ["legs"]),
                on_turn=on_turn,
            )
        )
        for i, item, state, arms in equipment:
            strike = self._item_action(item, "strike")
            if state == "wielded" and strike and isinstance(strike.get("attribute"), str):
                specs.append(
                    self._spec(
                        actor,
                        fx,
                        kind="strike",
                        id=f"strike:{i}",
                        label_=f"{name('strike')} with the {item['name'].lower()}",
                        parts=arms,
                        on_turn=on_turn,
                        target="enemy",
                        odds=self._roll_request(actor, strike["attribute"], strike.get("skills") or []),
                        rollable=f"item:{i}:strike",
                        outcomes=oc.of_roll(self.ctx_of(actor).catalogue, "strike", item),
                    )
                )
        for i, item, state, arms in equipment:
            roll = self._item_action(item, "block") or self._item_action(item, "strike")
            rolled = (roll or {}).get("action")
            if state == "wielded" and roll and isinstance(roll.get("attribute"), str):
                specs.append(
                    self._spec(
                        actor,
                        fx,
                        kind="block",
                        id=f"block:{i}",
                        label_=f"{name('block')} with the {item['name'].lower()}",
                        parts=arms,
                        on_turn=on_turn,
                        reaction=True,
                        triggered=attacked,
                        trigger_text="take it when you are attacked",
                        odds=self._roll_request(actor, roll["attribute"], roll.get("skills") or []),
                        rollable=f"item:{i}:{rolled}",
                    )
                )
        specs.append(
            self._spec(
                actor,
                fx,
                kind="dodge",
                id="dodge",
                label_=name("dodge"),
                parts=self._parts_present(fx, ["legs"]),
                on_turn=on_turn,
                reaction=True,
                triggered=attacked,
                trigger_text="take it when you are attacked",
                odds=self._roll_request(actor, "acrobatics", DODGE_SKILLS),
                rollable=f"skill:{self._skill_used(actor, DODGE_SKILLS)}",
            )
        )
        specs.append(
            self._spec(
                actor,
                fx,
                kind="tough_it_out",
                id="tough_it_out",
                label_=name("tough_it_out"),
                parts=self._parts_present(fx, ["torso"]),
                on_turn=on_turn,
                reaction=True,
                triggered=attacked,
                trigger_text="take it when a blow is coming at you",
                odds=self._roll_request(actor, "endurance", [CAPABILITY]),
                rollable=f"skill:{CAPABILITY}",
            )
        )
        specs.append(
            self._spec(
                actor,
                fx,
                kind="catch_breath",
                id="catch_breath",
                label_=name("catch_breath"),
                parts=self._parts_present(fx, ["torso"]),
                on_turn=on_turn,
            )
        )
        specs.append(
            self._spec(
                actor,
                fx,
                kind="aid",
                id="aid",
                label_=name("aid"),
                parts=[],
                on_turn=on_turn,
                target="ally",
                params=[{"id": "note", "label": "How", "kind": "text"}],
            )
        )
        arms = [a for a in self._arms(actor) if not fx.get("body") or a in fx["body"]]
        body = fx.get("body") or {}
        usable_arms = [a for a in arms if body.get(a, {}).get("usable", True)]
        healthy = [a for a in usable_arms if body.get(a, {}).get("status", "healthy") == "healthy"]
        arm = (healthy or usable_arms or arms or [None])[0]
        for i, item, state, _ in equipment:
            if state == "carried" and i in disarmed(actor.state):
                # Wielding a disarmed item again is a use-item action (W1 "Disarm").
                specs.append(
                    self._spec(
                        actor,
                        fx,
                        kind="use_item",
                        id=f"take_up:{i}",
                        label_=f"Take up the {item['name'].lower()}",
                        parts=[arm] if arm else [],
                        on_turn=on_turn,
                    )
                )
        for i, item, state, _ in equipment:
            use = self._item_action(item, "use_item")
            if state in ("carried", "wielded") and use:
                odds = (
                    self._roll_request(actor, use["attribute"], use.get("skills") or [])
                    if isinstance(use.get("attribute"), str)
                    else None
                )
                specs.append(
                    self._spec(
                        actor,
                        fx,
                        kind="use_item",
                        id=f"use_item:{i}",
                        label_=f"Use the {item['name'].lower()}",
                        parts=[arm] if arm else [],
                        on_turn=on_turn,
                        target="ally" if use.get("effect") else None,
                        odds=odds,
                        rollable=f"item:{i}:use_item",
                        outcomes=oc.of_roll(self.ctx_of(actor).catalogue, "use_item", item),
                    )
                )
        if attack.get("attacker") == actor.id and (attack.get("ep") or 0) > 0:
            target = next((f for f in fighters if f.id == attack.get("target")), None)
            parts = list(((self._effects(target).get("body") or {}) if target else {}).keys())
            spec = ActionSpec(
                id="harm",
                label=f"Spend EP on harm to {target.name if target else 'the target'}",
                cost=f"no speed ({attack['ep']} EP to spend)",
                target=None,
                params=[
                    {
                        "id": "body_part",
                        "label": "Body part",
                        "kind": "choice",
                        "options": [{"id": p, "label": label(p)} for p in parts],
                    },
                    {
                        "id": "amount",
                        "label": "EP",
                        "kind": "number",
                        "min": 1,
                        "max": attack["ep"],
                        "default": attack["ep"],
                    },
                ],
            )
            if target is None:
                spec.allowed, spec.reason, spec.code = (
                    False,
                    "The strike has no target: name one when striking.",
                    "pando.no_target",
                )
            specs.append(spec)
        spend = self._spend_spec(actor, fighters, es)
        if spend is not None:
            specs.append(spend)
        specs.extend(self._gm_specs(actor, fx))
        return specs

    def _gm_specs(self, actor: Fighter, fx: dict) -> list[ActionSpec]:
        parts = list((fx.get("body") or {}).keys())
        part_field = {
            "id": "body_part",
            "label": "Body part",
            "kind": "choice",
            "options": [{"id": p, "label": label(p)} for p in parts],
        }
        amount = {"id": "amount", "label": "Amount", "kind": "number", "min": 1, "default": 1}
        return [
            ActionSpec(
                id="gm_harm",
                label="Apply harm",
                cost="GM",
                gm=True,
                reaction=True,
                relative=True,
                params=[
                    part_field,
                    amount,
                    {"id": "protected", "label": "Armour protects", "kind": "flag", "default": True},
                ],
            ),
            ActionSpec(
                id="gm_exhaustion",
                label="Add exhaustion",
                cost="GM",
                gm=True,
                reaction=True,
                relative=True,
                params=[{"id": "type", "label": "Type", "kind": "text", "default": "bleeding"}, amount],
            ),
            ActionSpec(
                id="gm_resistance_harm",
                label="Harm a resistance",
                cost="GM",
                gm=True,
                reaction=True,
                relative=True,
                params=[
                    {
                        "id": "resistance",
                        "label": "Resistance",
                        "kind": "choice",
                        "options": [{"id": r, "label": label(r)} for r in RESISTANCES],
                    },
                    amount,
                ],
            ),
            ActionSpec(
                id="gm_momentum",
                label="Set Momentum (from next round)",
                cost="GM",
                gm=True,
                reaction=True,
                params=[
                    {
                        "id": "value",
                        "label": "Momentum",
                        "kind": "number",
                        "min": 0,
                        "default": _num((actor.combat or {}).get("momentum", 0)),
                    }
                ],
            ),
        ]
