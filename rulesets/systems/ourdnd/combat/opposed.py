"""Our D&D's opposed roll between two combatants (RULES.md W15; seed "THE TARGET DIFFICULTY": "THE
EXCEPTIONS are … confronted / opposed rolls: higer result wins").

The actor picks their stat and roll (normal, easy, hard), the other combatant and that one's stat and
roll (the DM says which: a grapple is STR against STR or DEX); each side rolls d20 + stat with its own
effects, and the higher total wins; a tie is rolled again (house default). It takes the actor's
action. The odds are exact (dice.py ``opposed_odds``) and go with the roll to the log and the feed.
"""

from __future__ import annotations

from rulesets.engine.combat import ActionSpec, CombatRefused, Outcome

from .. import dice as dice_rules
from ..character import STATS
from .core import MODES, OurDnDCombatBase


class OpposedActions(OurDnDCombatBase):
    """opposed: its spec and handler."""

    def _opposed_spec(self, actor, gate: tuple[str, str], action_gate: tuple[str, str], stats) -> ActionSpec:
        best = max(STATS, key=lambda s: stats[s])
        stat_options = [{"id": s, "label": s.upper()} for s in STATS]
        mode_options = [{"id": m, "label": m.capitalize()} for m in MODES]
        spec = ActionSpec(
            id="opposed",
            label="Opposed roll (higher result wins)",
            cost="the action",
            target="any",
            params=[
                {"id": "stat", "label": "Stat", "kind": "choice", "options": stat_options, "default": best},
                {
                    "id": "mode",
                    "label": "Roll",
                    "kind": "choice",
                    "options": mode_options,
                    "default": "normal",
                },
                {
                    # Left out (the form's first choice, the API's absent field): the actor's stat, as
                    # ``_do_opposed`` reads it. A grapple is STR against STR unless the DM says DEX.
                    "id": "opponent_stat",
                    "label": "Their stat",
                    "kind": "choice",
                    "options": [{"id": "", "label": "The same as yours"}, *stat_options],
                    "default": "",
                },
                {
                    "id": "opponent_mode",
                    "label": "Their roll",
                    "kind": "choice",
                    "options": mode_options,
                    "default": "normal",
                },
            ],
        )
        spec.deny(*gate)
        spec.deny(*action_gate)
        return spec

    def opposed_request(self, actor, stat: str, mode: str, target, other: str, other_mode: str) -> dict:
        """The odds request of ``actor``'s ``stat`` against ``target``'s ``other``, each side's effects
        applied to its own check (``_check``: the same as the sheet's button of that stat)."""
        mine = self._check(actor, stat, 0, mode)
        theirs = self._check(target, other, 0, other_mode)
        return {
            "stat": mine["stat"],
            "mode": mine.get("mode", "normal"),
            "against": dice_rules.OPPOSED,
            "opponent_stat": theirs["stat"],
            "opponent_mode": theirs.get("mode", "normal"),
        }

    @staticmethod
    def _side(stat, mode, default: str) -> tuple[str, str]:
        """One side's (stat, mode) from the form, refused when not a stat or a roll."""
        stat = stat or default
        if stat not in STATS:
            raise CombatRefused("ourdnd.invalid_stat", f"Roll with one of {', '.join(STATS)}.")
        mode = mode or "normal"
        if mode not in MODES:
            raise CombatRefused("ourdnd.invalid_mode", "A roll is normal, easy or hard.")
        return stat, mode

    def _do_opposed(self, action, actor, fighters, es, roller) -> Outcome:
        stats = self._stats(actor)
        stat, mode = self._side(action.get("stat"), action.get("mode"), max(STATS, key=lambda s: stats[s]))
        target = self.target_of(action, fighters)
        if target.id == actor.id:
            raise CombatRefused("combat.invalid_target", f"{actor.name} cannot roll against themselves.")
        if self._st(target)["dead"]:
            raise CombatRefused("ourdnd.dead", f"{target.name} is dead already.")
        other, other_mode = self._side(action.get("opponent_stat"), action.get("opponent_mode"), stat)
        request = self.opposed_request(actor, stat, mode, target, other, other_mode)
        roll = dice_rules.roll(request, roller)
        odds = dice_rules.odds(request)
        out = Outcome()
        self._mark(actor, out, acted=True, last_roll=None)
        how = lambda s, m: s.upper() + ("" if m == "normal" else f", {m}")  # noqa: E731
        winner = actor.name if roll["outcome"] == "win" else target.name
        out.log(
            "opposed",
            f"{actor.name} ({how(stat, request['mode'])}) against {target.name} ({how(other, request['opponent_mode'])}), "
            f"higher result wins: {roll['text'].rsplit(':', 1)[0]}. {winner} wins ({round(odds['win'] * 100)}% for {actor.name}).",
            actor.id,
            target=target.id,
            faces=roll["faces"],
            outcome=roll["outcome"],
            total=roll["total"],
            odds=request,
        )
        return out
