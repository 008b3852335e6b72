"""``OurDnDCombat``: set-up, turns, the action specs and their dispatch, the row; the actions
themselves are the mixins it is made of (movement, rolls, care, difficulty, gm)."""

from __future__ import annotations

from typing import Any

from rulesets.engine.combat import ActionSpec, Fighter, Outcome
from rulesets.engine.context import Context
from rulesets.engine.dice import Roller
from rulesets.engine.fields import is_int

from .. import distance
from .care import CareActions
from .difficulty import DifficultyActions
from .gm import GMActions
from .movement import MovementActions
from .opposed import OpposedActions
from .rolls import RollActions


class OurDnDCombat(MovementActions, RollActions, OpposedActions, CareActions, DifficultyActions, GMActions):
    """Our D&D's combat rules (engine/combat.py ``CombatRules``), assembled from its families of actions."""

    def start(
        self, fighters: list[Fighter], encounter_state: dict, roller: Roller, *, ctx: Context | None = None
    ) -> Outcome:
        es = dict(encounter_state or {})
        out = Outcome()
        td = self._td(es, self.ctx_of(fighters[0] if fighters else None, ctx))
        seats = self._seats(fighters)
        rolls: list[int] = []
        npc_roll = None
        for seat in seats:
            if seat[0].is_npc:
                npc_roll = roller.d(20)
                rolls.append(npc_roll)
                out.log(
                    "initiative",
                    f"The DM rolls initiative for {', '.join(f.name for f in seat)}: d20 {npc_roll}.",
                    seat[0].id,
                    initiative=npc_roll,
                    faces=[npc_roll],
                )
            else:
                face = roller.d(20)
                rolls.append(face)
                out.log(
                    "initiative",
                    f"{seat[0].name} rolls initiative: d20 {face}.",
                    seat[0].id,
                    initiative=face,
                    faces=[face],
                )
            for f in seat:
                out.combat[f.id] = self.combat_numbers(
                    f, initiative=rolls[-1], move=None, acted=False, last_roll=None
                )
        es = self._placed_at_start(fighters, es, self.ctx_of(fighters[0] if fighters else None, ctx), out)
        if seats:
            top = max(range(len(seats)), key=lambda i: (rolls[i], -i))  # a tie goes to the earlier seat
            ordered = seats[top:] + seats[:top]
            out.order = [f.id for seat in ordered for f in seat]
            out.log(
                "order",
                f"{ordered[0][0].name if not ordered[0][0].is_npc else 'The DM'} rolled highest "
                f"({rolls[top]}) and goes first, then clockwise: "
                + ", ".join(" and ".join(f.name for f in seat) for seat in ordered)
                + ".",
                order=out.order,
            )
        out.encounter_state = {
            **es,
            "td": td,
            "td_start": es.get("td_start", td) if is_int(es.get("td_start")) else td,
            "td_lowered": es.get("td_lowered", 0) if is_int(es.get("td_lowered")) else 0,
            "initiative_npcs": npc_roll,
            "tasks": dict(es.get("tasks") or {}),
        }
        out.log("td", f"The scene's TD is {td}.", td=td)
        return out

    def _placed_at_start(self, fighters: list[Fighter], es: dict, ctx: Context, out: Outcome) -> dict:
        """Every combatant on the line of zones (distance.py): each side together, the two sides
        ``start_distance`` apart (house default); a place the DM already gave is kept."""
        known = distance.positions(es)
        changes = {str(f.id): known.get(str(f.id), distance.home(f.is_npc, ctx)) for f in fighters}
        band = distance.start_band(ctx)
        if any(f.is_npc for f in fighters) and any(not f.is_npc for f in fighters):
            out.log(
                "distance",
                f"The two sides start {distance.word(band)} (house default; the campaign may "
                "change it, and the DM places anyone with Set distance).",
                band=band,
            )
        return distance.placed(es, changes, {str(f.id): f.name for f in fighters})

    def join(
        self,
        fighter: Fighter,
        fighters: list[Fighter],
        encounter_state: dict,
        roller: Roller,
        *,
        ctx: Context | None = None,
    ) -> Outcome:
        es = encounter_state or {}
        out = Outcome()
        npc = es.get("initiative_npcs")
        rolled = not (fighter.is_npc and is_int(npc))  # the DM's NPCs share the DM's roll
        face = roller.d(20) if rolled else npc
        out.combat[fighter.id] = self.combat_numbers(
            fighter, initiative=face, move=None, acted=False, last_roll=None
        )
        # A newcomer stands with the first of its side already placed, else at its side's start.
        c = self.ctx_of(fighter, ctx)
        side = next(
            (
                f
                for f in fighters
                if f.is_npc == fighter.is_npc and f.id != fighter.id and str(f.id) in distance.positions(es)
            ),
            None,
        )
        where = distance.at(es, side, c) if side is not None else distance.home(fighter.is_npc, c)
        out.encounter_state = distance.placed(es, {str(fighter.id): where}, {str(fighter.id): fighter.name})
        out.log(
            "initiative",
            f"{fighter.name} joins the scene (initiative {face}).",
            fighter.id,
            faces=[face] if rolled else [],
        )
        return out

    def turn_span(self, order: list[int], turn: int, fighters: dict[int, Fighter]) -> int:
        """The NPCs act together in the DM's turn."""
        first = fighters.get(order[turn]) if 0 <= turn < len(order) else None
        if first is None or not first.is_npc:
            return 1
        span = 1
        while turn + span < len(order) and getattr(fighters.get(order[turn + span]), "is_npc", False):
            span += 1
        return span

    @staticmethod
    def _on_turn(actor: Fighter, fighters: list[Fighter], current: int | None) -> bool:
        if current is None:
            return False
        if actor.id == current:
            return True
        cur = next((f for f in fighters if f.id == current), None)
        return bool(cur is not None and cur.is_npc and actor.is_npc)

    def turn_start(
        self,
        actor: Fighter,
        fighters: list[Fighter],
        encounter_state: dict,
        roller: Roller,
        *,
        ctx: Context | None = None,
    ) -> Outcome:
        out = Outcome()
        if "positions" in (encounter_state or {}):  # forget combatants the DM took out
            out.encounter_state = distance.pruned(encounter_state, {str(f.id) for f in fighters})
        who = [f for f in fighters if f.is_npc] if actor.is_npc else [actor]
        for f in who:
            out.combat[f.id] = self.combat_numbers(f, move=None, acted=False, last_roll=None)
        for f in who:
            st = self._st(f)
            if st["dying"]:
                new_state, text = self.play_state_action(f, f.state, {"action": "dying_turn"}, roller)
                out.state[f.id] = new_state
                out.log("dying", text, f.id)
            elif st["dead"]:
                out.log("dead", f"{f.name} is dead.", f.id)
            elif st["unconscious"]:
                out.log("unconscious", f"{f.name} lies unconscious.", f.id)
        return out

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

    def _gate(
        self, actor: Fighter, fighters: list[Fighter], current: int | None, st: dict | None = None
    ) -> tuple[str, str]:
        st = self._st(actor) if st is None else st
        if st["dead"]:
            return f"{actor.name} is dead.", "ourdnd.dead"
        if st["unconscious"] or st["dying"]:
            return f"{actor.name} is unconscious.", "ourdnd.unconscious"
        if not self._on_turn(actor, fighters, current):
            return self.not_your_turn(actor)
        return "", ""

    def _action_gate(self, actor: Fighter) -> tuple[str, str]:
        c = actor.combat or {}
        if c.get("move") == "far":
            return (
                f"{actor.name} moved far: that takes the whole turn, no action after it.",
                "ourdnd.moved_far",
            )
        if c.get("acted"):
            return f"{actor.name} has already taken this turn's action.", "ourdnd.already_acted"
        return "", ""

    def _specs(
        self, actor: Fighter, fighters: list[Fighter], es: dict, current: int | None
    ) -> list[ActionSpec]:
        """Every action of ``actor`` now, in the page's order, each allowed or with the first rule that stops it."""
        st = self._st(actor)
        gate = self._gate(actor, fighters, current, st)
        action_gate = self._action_gate(actor)
        ctx = self.ctx_of(actor)
        td = self._td(es, ctx)
        stats = self._stats(actor)
        return [
            *self._move_specs(actor, gate),
            *self._roll_specs(actor, gate, action_gate, stats, td, ctx),
            self._opposed_spec(actor, gate, action_gate, stats),
            self._first_aid_spec(actor, fighters, gate, action_gate, stats, td),
            self._recover_spec(actor, gate, stats, td),
            self._reroll_spec(actor, gate, st),
            self._lower_spec(actor, es, td, ctx),
            *self._gm_specs(actor, td),
        ]

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
        spec = self.spec_for(action, actor, self._specs(actor, fighters, es, current))
        aid = spec.id
        if not spec.allowed:
            raise self.refusal(spec)
        handler = self._do_move if aid.startswith("move_") else getattr(self, "_do_" + aid)
        return handler(action, actor, fighters, es, roller)

    def summary(
        self, fighter: Fighter, encounter_state: dict, *, ctx: Context | None = None
    ) -> dict[str, Any]:
        es = encounter_state or {}
        c = fighter.combat or {}
        try:
            st = self._st(fighter)
            top = self._max_hp(fighter)
        except Exception:  # an odd state must not stop the fight page
            return {"stats": [], "status": []}
        stats = [
            {"label": "HP", "value": f"{st['hp']}/{top}", "key": "hp"},
            {"label": "Defense", "value": str(self._defense_target(fighter) - 10), "key": "defense"},
        ]
        if "initiative" in c:
            stats.append({"label": "Initiative", "value": str(c["initiative"]), "key": "initiative"})
        stats.append({"label": "TD", "value": str(self._td(es, self.ctx_of(fighter, ctx))), "key": "td"})
        status: list[str] = []
        if st["dead"]:
            status.append("dead")
        elif st["dying"]:
            left = (
                "countdown not rolled" if st["dying_rounds"] is None else f"{st['dying_rounds']} rounds left"
            )
            status.append(f"dying ({left})")
        elif st["stable"]:
            status.append("stable")
        if st["unconscious"] and not st["dead"]:
            status.append("unconscious")
        if st["inspiration"]:
            status.append("Heroic Inspiration")
        if c.get("move"):
            status.append(f"moved {c['move']}")
        if c.get("acted"):
            status.append("acted")
        bands = distance.bands_from(es, fighter, self.ctx_of(fighter, ctx))
        details = [{"label": name, "value": distance.word(band), "key": "distance"} for name, band in bands]
        return {"stats": stats, "status": status, "details": details, "details_label": "Distances"}
