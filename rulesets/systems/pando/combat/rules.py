"""``PandoCombat``: the actions offered, their dispatch (``perform``) and the row; turn order and
the actions' specs and handlers are the mixins it is made of."""

from __future__ import annotations

from typing import Any

from rulesets.engine import effects as fx
from rulesets.engine.combat import ActionSpec, Fighter, Outcome
from rulesets.engine.context import Context
from rulesets.engine.dice import Roller
from rulesets.engine.fields import get_as

from .. import outcomes as oc
from ..character import label
from .core import _num
from .handlers import ActionHandlers
from .specs import ActionSpecs
from .spend import SPEND
from .turns import TurnOrder


class PandoCombat(TurnOrder, ActionSpecs, ActionHandlers):
    """Pando's combat rules (engine/combat.py ``CombatRules``), assembled from its parts."""

    def actions(
        self,
        actor: Fighter,
        fighters: list[Fighter],
        encounter_state: dict,
        *,
        current: int | None,
        ctx: Context | None = None,
    ) -> list[ActionSpec]:
        return self._specs(actor, fighters, encounter_state or {}, current)

    def perform(
        self,
        action: dict[str, Any],
        actor: Fighter,
        fighters: list[Fighter],
        encounter_state: dict,
        roller: Roller,
        *,
        current: int | None,
        by_gm: bool,
        ctx: Context | None = None,
    ) -> Outcome:
        es = encounter_state or {}
        if action.get("action") == SPEND:  # refused in words when there is nothing to spend
            return self._spend(action, actor, fighters, es)
        spec = self.spec_for(action, actor, self._specs(actor, fighters, es, current))
        aid = spec.id
        if spec.gm:
            return self._gm(spec, action, actor, fighters, es)
        if not spec.allowed:
            raise self.refusal(spec)
        if aid == "harm":
            return self._spend_harm(action, actor, fighters, es)
        meta = spec.__dict__["_meta"]
        kind, cost = meta["kind"], meta["cost"]
        out = Outcome()
        pending = self._pending(actor, es)
        if pending and not spec.reaction:
            # "EP not spent when the roller takes another action … is lost" (W1).
            es = {k: v for k, v in es.items() if k != "attack"}
            out.encounter_state = es
            out.log("attack", f"{actor.name}'s unspent {pending['ep']} EP are lost.", actor.id)
        combat = self.combat_numbers(actor)
        combat["speed"] = (combat.get("speed") or 0) - cost
        uses = combat.setdefault("uses", {})
        uses[kind] = uses.get(kind, 0) + 1
        out.combat[actor.id] = combat
        speed_text = f"−{cost} speed"
        if kind == "strike":
            target = self._target(action, actor, fighters, required=False, allow_self=False)
            roll = self._roll(spec.odds, roller)
            weapon = spec.label.split(" with the ", 1)[-1]
            whom = f" {target.name}" if target else ""
            out.log(
                "strike",
                f"{actor.name} strikes{whom} with the {weapon}: {roll['total']} EP, {speed_text}.",
                actor.id,
                faces=roll["faces"],
                ep=roll["total"],
                odds=spec.odds,
                cost=cost,
                target=target.id if target else None,
            )
            new_es = {k: v for k, v in es.items() if k != "attack"}
            if roll["total"] > 0:
                index = int(aid.split(":", 1)[1])
                wielded = self._item_of(actor, actor.build["equipment"][index])
                new_es["attack"] = {
                    "attacker": actor.id,
                    "target": target.id if target else None,
                    "weapon": weapon,
                    "ep": roll["total"],
                    "action": kind,
                    "outcomes": oc.of_roll(self.ctx_of(actor).catalogue, kind, wielded),
                    "main_taken": False,
                }
            out.encounter_state = new_es
        elif kind in ("block", "dodge", "tough_it_out"):
            roll = self._roll(spec.odds, roller)
            attack = dict(es["attack"])
            before = attack["ep"]
            attack["ep"] = max(0, before - roll["total"])
            what = (
                spec.label.lower()
                if kind == "block"
                else {"dodge": "dodges", "tough_it_out": "toughs it out"}[kind]
            )
            verb = f"{'blocks' + what[5:] if kind == 'block' else what}"
            out.log(
                kind,
                f"{actor.name} {verb}: {roll['total']} EP, {speed_text}; the attack drops "
                f"{before}→{attack['ep']} EP.",
                actor.id,
                faces=roll["faces"],
                ep=roll["total"],
                odds=spec.odds,
                cost=cost,
            )
            out.encounter_state = (
                {**es, "attack": attack} if attack["ep"] else {k: v for k, v in es.items() if k != "attack"}
            )
        elif kind == "catch_breath":
            new_state, text = self.play_state_action(actor, None, {"action": "catch_breath"})
            out.state[actor.id] = new_state
            out.log(kind, f"{text.rstrip('.')}, {speed_text}.", actor.id, cost=cost)
        elif kind == "aid":
            target = self._target(action, actor, fighters, required=True, allow_self=False)
            note = get_as(action, "note", str, "")
            how = f" ({note.strip()[:120]})" if note.strip() else ""
            out.log(
                kind,
                f"{actor.name} aids {target.name}{how}, {speed_text}.",
                actor.id,
                cost=cost,
                target=target.id,
            )
        elif aid.startswith("take_up:"):
            index = int(aid.split(":", 1)[1])
            item = spec.label.removeprefix("Take up the ")
            new_state, text = self.play_state_action(
                actor, None, {"action": "take_up", "index": index, "item": item}
            )
            out.state[actor.id] = new_state
            out.log(kind, f"{text.rstrip('.')}, {speed_text}.", actor.id, cost=cost)
        elif kind == "use_item":
            item = spec.label.removeprefix("Use the ")
            index = int(aid.split(":", 1)[1])
            entry = actor.build["equipment"][index]
            use = self._item_action(self._item_of(actor, entry), "use_item") or {}
            effect = use.get("effect") or {}
            if effect.get("remove_exhaustion"):
                target = self._target(action, actor, fighters, required=False, allow_self=True) or actor
                kind_of = effect["remove_exhaustion"]
                act = (
                    {"action": "bandage"}
                    if kind_of == "bleeding"
                    else {"action": "remove_exhaustion", "type": kind_of}
                )
                new_state, text = self.play_state_action(target, None, act)
                out.state[target.id] = new_state
                out.log(
                    kind,
                    f"{actor.name} uses the {item} on {target.name}: {text} {speed_text}.",
                    actor.id,
                    cost=cost,
                    target=target.id,
                )
            elif spec.odds:
                roll = self._roll(spec.odds, roller)
                available = oc.of_roll(self.ctx_of(actor).catalogue, kind, self._item_of(actor, entry))
                if roll["total"] > 0 and available:
                    target = self._target(action, actor, fighters, required=False, allow_self=True)
                    out.encounter_state = {
                        **{k: v for k, v in es.items() if k != "attack"},
                        "attack": {
                            "attacker": actor.id,
                            "target": target.id if target else None,
                            "weapon": item,
                            "ep": roll["total"],
                            "action": kind,
                            "outcomes": available,
                            "main_taken": False,
                        },
                    }
                out.log(
                    kind,
                    f"{actor.name} uses the {item}: {roll['total']} EP, {speed_text}.",
                    actor.id,
                    faces=roll["faces"],
                    ep=roll["total"],
                    odds=spec.odds,
                    cost=cost,
                )
            else:
                out.log(kind, f"{actor.name} uses the {item}, {speed_text}.", actor.id, cost=cost)
        else:  # move
            prone = [e["id"] for e in fx.active_entries(actor.state) if e.get("effect") == "prone"]
            if prone:  # Prone lasts "until a move action stands up" (W1, a house default)
                out.state[actor.id] = fx.without(actor.state, prone)
                out.log(kind, f"{actor.name} stands up, {speed_text}.", actor.id, cost=cost)
            else:
                out.log(kind, f"{actor.name} moves, {speed_text}.", actor.id, cost=cost)
        return out

    def summary(
        self, fighter: Fighter, encounter_state: dict, *, ctx: Context | None = None
    ) -> dict[str, Any]:
        fx = self._effects(fighter)
        combat = fighter.combat or {}
        derived = fighter.derived or {}
        stats = []
        if "speed" in combat:
            stats.append(
                {
                    "label": "Speed",
                    "value": f"{combat['speed']}/{derived.get('max_speed', '?')}",
                    "key": "speed",
                }
            )
        stats.append(
            {
                "label": "Stamina",
                "value": f"{self._stamina(fighter)}/{derived.get('max_stamina', '?')}",
                "key": "stamina",
            }
        )
        momentum = combat.get("momentum", derived.get("momentum"))
        if momentum is not None:
            text = str(_num(momentum))
            if "momentum_next" in combat:
                text += f" → {_num(combat['momentum_next'])}"
            stats.append({"label": "Momentum", "value": text, "key": "momentum"})
        status: list[str] = []
        if fx.get("dead"):
            status.append("dead")
        for part, info in (fx.get("body") or {}).items():
            if info.get("status") not in (None, "healthy"):
                status.append(f"{info['status']} {label(part).lower()} ({info['harm']})")
        for kind, info in ((fx.get("exhaustion") or {}).get("by_type") or {}).items():
            if info.get("total"):
                status.append(f"{kind} {info['total']}")
        attack = (encounter_state or {}).get("attack") or {}
        if attack.get("target") == fighter.id and attack.get("ep"):
            status.append(f"attacked: {attack['ep']} EP incoming")
        if attack.get("attacker") == fighter.id and attack.get("ep"):
            status.append(f"{attack['ep']} EP to spend")
        return {"stats": stats, "status": status}
