"""Paragon's combat rules object: set-up, turns, the action specs and their dispatch, the row.
The actions themselves are one module each (``actions.py`` lists them)."""

from __future__ import annotations

from typing import Any

from rulesets.engine.combat import ActionSpec, Fighter, Outcome
from rulesets.engine.context import Context
from rulesets.engine.dice import Roller
from rulesets.engine.fields import get_as
from rulesets.engine.words import a

from .. import dice
from . import actions, gm
from .common import killing_intent_morale, surprised_start_sheathed
from .core import ParagonCore, _Now
from .ready import drawn


class ParagonCombat(ParagonCore):
    """Set-up, turns, the action specs and their dispatch, the row; what the actions read and do
    is ``ParagonCore``'s (core.py)."""

    # ---------------------------------------------------------------- opening

    def start(
        self, fighters: list[Fighter], encounter_state: dict, roller: Roller, *, ctx: Context | None = None
    ) -> Outcome:
        es = dict(encounter_state or {})
        intent_ids = {str(i) for i in es.get("killing_intent") or []}
        surprised_ids = {str(i) for i in es.get("surprised") or []}
        footings = get_as(es, "footing", dict, {})
        sheathed_ids = {str(i) for i in es.get("sheathed") or []}
        start_sheathed = surprised_start_sheathed(self.ctx_of(fighters[0], ctx) if fighters else ctx)
        out = Outcome()
        for f in fighters:
            c = self.combat_numbers(f)
            intent = bool(c.get("killing_intent")) or str(f.id) in intent_ids
            footing = c.get("footing") or footings.get(str(f.id)) or "forward"
            roll = dice.roll(self._own(f, self._check(f, "initiative"), "initiative"), roller)
            total, text = roll["total"], roll["text"]
            if intent:
                bonus = roller.d(6)
                total += bonus
                text += f" + killing intent d6 {bonus} = {total}"
            surprised = bool(c.get("surprised")) or str(f.id) in surprised_ids
            c.update(
                initiative=total,
                initiative_text=text,
                killing_intent=intent,
                temp_morale=killing_intent_morale(self.ctx_of(f, ctx)) if intent else 0,
                footing=footing if footing in ("forward", "rearward") else "forward",
                surprised=surprised,
                # W7: alert combatants begin at the ready; the surprised sheathed (house default).
                drawn=not (str(f.id) in sheathed_ids or (surprised and start_sheathed)),
                readied=[],
                engaged=False,
                forgo=False,
                retreating=False,
                retreated=False,
            )
            out.combat[f.id] = c
            out.log(
                "initiative",
                f"{f.name} rolls initiative: {text}.",
                f.id,
                initiative=total,
                faces=roll["faces"],
            )
        out.order = self._sorted(fighters, out.combat)
        surprise = any(c["surprised"] for c in out.combat.values())
        names = ", ".join(
            f"{f.name} ({out.combat[f.id]['initiative']})" for f in self._by_ids(fighters, out.order)
        )
        out.log("order", f"Turn order by initiative: {names}.", order=out.order)
        if surprise:
            who = ", ".join(f.name for f in fighters if out.combat[f.id]["surprised"])
            out.log(
                "surprise",
                f"Surprise round: {who} {'is' if ',' not in who else 'are'} surprised and skip it.",
            )
        sheathed = [f.name for f in fighters if not out.combat[f.id]["drawn"]]
        if sheathed:
            who = ", ".join(sheathed)
            out.log(
                "ready", f"{who} begin{'s' if len(sheathed) == 1 else ''} the battle with weapons sheathed."
            )
        out.encounter_state = {
            **es,
            "surprise_round": surprise,
            "opening": True,
            "exchange": None,
            "threat": None,
        }
        return out

    @staticmethod
    def _by_ids(fighters: list[Fighter], ids: list[int]) -> list[Fighter]:
        by = {f.id: f for f in fighters}
        return [by[i] for i in ids if i in by]

    def join(
        self,
        fighter: Fighter,
        fighters: list[Fighter],
        encounter_state: dict,
        roller: Roller,
        *,
        ctx: Context | None = None,
    ) -> Outcome:
        out = Outcome()
        roll = dice.roll(self._own(fighter, self._check(fighter, "initiative"), "initiative"), roller)
        c = self.combat_numbers(fighter)
        c.update(
            initiative=roll["total"],
            initiative_text=roll["text"],
            killing_intent=False,
            temp_morale=0,
            footing=c.get("footing") if c.get("footing") in ("forward", "rearward") else "forward",
            surprised=False,
            drawn=True,
            readied=[],
            engaged=False,
            forgo=False,
            retreating=False,
            retreated=False,
        )
        out.combat[fighter.id] = c
        out.log(
            "initiative",
            f"{fighter.name} joins the fight: initiative {roll['text']}.",
            fighter.id,
            faces=list(roll["faces"]),
        )
        return out

    def round_start(
        self,
        fighters: list[Fighter],
        encounter_state: dict,
        round_no: int,
        roller: Roller,
        *,
        ctx: Context | None = None,
    ) -> Outcome:
        es = encounter_state or {}
        out = Outcome()
        if round_no > 1 and es.get("surprise_round"):
            out.encounter_state = {**es, "surprise_round": False}
            out.log("surprise", "The surprise round is over: everyone acts from now on.")
        for f in fighters:  # drawing and sheathing are once a round each (W7)
            if (f.combat or {}).get("readied"):
                out.combat[f.id] = {**self.combat_numbers(f), "readied": []}
        return out

    def turn_start(
        self,
        actor: Fighter,
        fighters: list[Fighter],
        encounter_state: dict,
        roller: Roller,
        *,
        ctx: Context | None = None,
    ) -> Outcome:
        es = dict(encounter_state or {})
        out = Outcome()
        threat = es.get("threat")
        if threat:
            # The defender did nothing: the threat turns into a hit.
            by = {f.id: f for f in fighters}
            attacker, defender = by.get(threat.get("attacker")), by.get(threat.get("defender"))
            if attacker is not None and defender is not None:
                out.log("threat", f"{defender.name} did nothing about the threat: it hits.", defender.id)
                self._hit(attacker, defender, threat.get("weapon", "unarmed"), roller, out)
        if es.get("exchange") or threat:
            es["exchange"], es["threat"] = None, None
            out.encounter_state = es
        c = self.combat_numbers(actor)
        c.update(engaged=False, forgo=False)
        if c.get("retreating"):
            c.update(retreating=False, retreated=True)
            out.log("retreat", f"{actor.name} has quit the field: nobody engaged them in melee.", actor.id)
        out.combat[actor.id] = c
        if es.get("surprise_round") and c.get("surprised"):
            out.log("surprise", f"{actor.name} is surprised and skips the surprise round.", actor.id)
        down = self._down(actor, out.state.get(actor.id))
        if down == "incapacitated":
            out.log(
                "incapacitated", f"{actor.name} is incapacitated: a Hero Point lets them fight on.", actor.id
            )
        return out

    # ---------------------------------------------------------------- the actions

    def actions(
        self,
        actor: Fighter,
        fighters: list[Fighter],
        encounter_state: dict,
        *,
        current: int | None,
        ctx: Context | None = None,
    ) -> list[ActionSpec]:
        return self._specs(actor, fighters, encounter_state or {}, current, self.ctx_of(actor, ctx))

    def _specs(
        self,
        actor: Fighter,
        fighters: list[Fighter],
        es: dict,
        current: int | None,
        ctx: Context | None = None,
    ) -> list[ActionSpec]:
        """Every action ``actor`` could take now, allowed or not (and why not), one named step each."""
        now = _Now.of(self, actor, fighters, es, current, ctx or self.ctx_of(actor))
        return actions.specs(self, now)

    # ---------------------------------------------------------------- perform

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
        es = dict(encounter_state or {})
        ctx = self.ctx_of(actor, ctx)
        spec = self.spec_for(action, actor, self._specs(actor, fighters, es, current, ctx))
        aid = spec.id
        if spec.gm:
            if not spec.allowed:
                raise self.refusal(spec)
            return gm.perform(self, aid, action, actor, fighters, es)
        if not spec.allowed:
            raise self.refusal(spec)
        out = actions.PERFORM[aid](self, action, actor, fighters, es, roller, ctx)
        if es.get("opening") and aid not in ("killing_intent", "footing", "ready"):
            base = out.encounter_state if out.encounter_state is not None else es
            out.encounter_state = {**base, "opening": False}
        return out

    # ---------------------------------------------------------------- the row

    def summary(
        self, fighter: Fighter, encounter_state: dict, *, ctx: Context | None = None
    ) -> dict[str, Any]:
        es = encounter_state or {}
        c = fighter.combat or {}
        try:
            pools = self._pools(fighter)
            top = self._maxima(fighter)
            found = self._conditions(fighter)
        except Exception:  # an odd state must not stop the fight page
            return {"stats": [], "status": []}
        morale = f"{pools['morale']}/{top.get('morale', 0)}"
        if c.get("temp_morale"):
            morale += f" (+{c['temp_morale']} temporary)"
        stats = [
            {"label": "Health", "value": f"{pools['health']}/{top.get('health', 0)}", "key": "health"},
            {"label": "Stamina", "value": f"{pools['stamina']}/{top.get('stamina', 0)}", "key": "stamina"},
            {"label": "Morale", "value": morale, "key": "morale"},
            {"label": "Hero Points", "value": str(pools["heroism"]), "key": "heroism"},
            {"label": "Dynama", "value": f"{pools['dynama']}/{top.get('dynama', 0)}", "key": "dynama"},
        ]
        if "initiative" in c:
            stats.append({"label": "Initiative", "value": str(c["initiative"]), "key": "initiative"})
        stats.append({"label": "Footing", "value": c.get("footing", "forward").title(), "key": "footing"})
        stats.append(
            {
                "label": "Defense",
                "value": f"melee {self._defense(fighter, 'melee')}, "
                f"missile {self._defense(fighter, 'ranged')}",
                "key": "defense",
            }
        )
        labels = {
            "bodily_death": "dead",
            "incapacitated": "incapacitated",
            "winded": "winded",
            "tired": "tired",
            "paralysed": "paralysed",
            "morale_failure": "morale failure",
            "disgraced": "disgraced",
            "pariah": "pariah",
        }
        status = [labels[k] for k in found if k in labels]
        if c.get("killing_intent"):
            status.append("killing intent")
        if es.get("surprise_round") and c.get("surprised"):
            status.append("surprised")
        if not drawn(fighter):
            status.append("weapon sheathed")
        if c.get("retreating"):
            status.append("retreating")
        if c.get("retreated"):
            status.append("quit the field")
        ex = es.get("exchange") or {}
        if fighter.id in (ex.get("attacker"), ex.get("defender")):
            status.append(f"in {a(ex.get('kind', 'melee'))} exchange")
            spent = (ex.get("seized") or {}).get(str(fighter.id), 0)
            if spent:
                status.append(f"spent {spent} Hero Point{'s' if spent != 1 else ''} to seize the offensive")
        threat = es.get("threat") or {}
        if threat.get("defender") == fighter.id:
            status.append(f"threatened (strike {threat.get('total')} vs Defense {threat.get('tn')})")
        return {"stats": stats, "status": status}
