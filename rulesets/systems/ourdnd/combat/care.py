"""Our D&D's combat: first aid on a dying ally and recovering HP."""

from __future__ import annotations

from rulesets.engine.combat import ActionSpec, CombatRefused, Fighter, Outcome

from .. import distance
from .core import OurDnDCombatBase, _dying, _natural, _Recorder


class CareActions(OurDnDCombatBase):
    """first_aid / recover: their specs and handlers."""

    def _first_aid_spec(
        self,
        actor: Fighter,
        fighters: list[Fighter],
        gate: tuple[str, str],
        action_gate: tuple[str, str],
        stats: dict[str, int],
        td: int,
    ) -> ActionSpec:
        aid_stat = "int" if stats["int"] >= stats["wis"] else "wis"
        first_aid = ActionSpec(
            id="first_aid",
            label="First aid (INT or WIS vs TD)",
            cost="the action",
            target="ally",
            params=[
                {
                    "id": "stat",
                    "label": "Stat",
                    "kind": "choice",
                    "options": [{"id": "int", "label": "INT"}, {"id": "wis", "label": "WIS"}],
                    "default": aid_stat,
                }
            ],
            odds=self._check(actor, aid_stat, td),
        )
        first_aid.deny(*gate)
        first_aid.deny(*action_gate)
        if not any(_dying(f) for f in fighters if f.id != actor.id):
            first_aid.deny("Nobody is dying.", "ourdnd.not_dying")
        return first_aid

    def _recover_spec(
        self, actor: Fighter, gate: tuple[str, str], stats: dict[str, int], td: int
    ) -> ActionSpec:
        c = actor.combat or {}
        recover = ActionSpec(
            id="recover",
            label=f"Recover (d20 + CON vs TD: regain {stats['con'] + 1} HP)",
            cost="the whole turn",
            odds=self._check(actor, "con", td),
        )
        recover.deny(*gate)
        if c.get("move") or c.get("acted"):
            recover.deny("Recovering takes the whole turn: no move or action before it.", "ourdnd.whole_turn")
        return recover

    def _do_first_aid(self, action, actor, fighters, es, roller) -> Outcome:
        target = self.target_of(action, fighters, required=True)
        stats = self._stats(actor)
        stat = action.get("stat") or ("int" if stats["int"] >= stats["wis"] else "wis")
        if stat not in ("int", "wis"):
            raise CombatRefused("ourdnd.invalid_stat", "First aid rolls INT or WIS.")
        if not self._st(target)["dying"]:
            raise CombatRefused(
                "ourdnd.not_dying", f"{target.name} is not dying; first aid stops a dying countdown."
            )
        band = distance.between(es, actor, target, self.ctx_of(actor))
        if band != "close":  # "If an ally can reach you ..."
            raise CombatRefused(
                "ourdnd.out_of_reach",
                f"First aid needs an ally who can reach {target.name} with "
                f"their hands, and {actor.name} is "
                f"{distance.phrase(band, target.name)}: move CLOSE first.",
            )
        check = self._check(actor, stat, self._td(es, self.ctx_of(actor)))  # the helper's effects
        recorder = _Recorder(roller)
        new_state, text = self.play_state_action(
            target, target.state, {"action": "first_aid", **check}, recorder
        )
        out = Outcome()
        out.state[target.id] = new_state
        self._mark(actor, out, acted=True, last_roll=None)
        out.log(
            "first_aid",
            f"{actor.name} gives first aid ({stat.upper()}): {text}",
            actor.id,
            target=target.id,
            faces=[f for _, f in recorder.faces],
            odds=check,
        )
        if _natural(recorder.faces, check["mode"]) == 20:
            self._inspire(actor, fighters, out, action.get("give_to"))
        return out

    def _do_recover(self, action, actor, fighters, es, roller) -> Outcome:
        td = self._td(es, self.ctx_of(actor))
        recorder = _Recorder(roller)
        # The ruleset's recover rolls this same check (its state_action applies the actor's effects).
        check = self._check(actor, "con", td)
        new_state, text = self.play_state_action(
            actor, actor.state, {"action": "recover", "td": td}, recorder
        )
        out = Outcome(end_turn=True)
        out.state[actor.id] = new_state
        self._mark(actor, out, acted=True, last_roll=None)
        out.log("recover", text, actor.id, faces=[f for _, f in recorder.faces], odds=check)
        if _natural(recorder.faces, check["mode"]) == 20:
            self._inspire(actor, fighters, out, action.get("give_to"))
        return out
