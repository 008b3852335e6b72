"""Our D&D's combat: checks and attempts (effort, Heroic Inspiration) and the re-roll."""

from __future__ import annotations

import copy

from rulesets.engine.combat import ActionSpec, CombatRefused, Event, Fighter, Outcome
from rulesets.engine.context import Context

from .. import dice as dice_rules
from .. import distance
from ..character import STATS
from .core import MODES, OurDnDCombatBase, _flag


class RollActions(OurDnDCombatBase):
    """check / attempt / reroll: their specs and handlers."""

    @staticmethod
    def _effort_dice(f: Fighter) -> dict[str, str]:
        effort = (f.derived or {}).get("effort")
        return dict(effort) if isinstance(effort, dict) and effort else {"bare_hands": "d4"}

    def _roll_td(self, actor: Fighter, target: Fighter | None, es: dict) -> tuple[int, str]:
        """The number an attempt must meet: the scene's TD, or a PC's Defense + 10 against an NPC."""
        if target is not None and actor.is_npc and not target.is_npc:
            return self._defense_target(target), f"{target.name}'s Defense + 10"
        return self._td(es, self.ctx_of(actor)), "the TD"

    def _roll_specs(
        self,
        actor: Fighter,
        gate: tuple[str, str],
        action_gate: tuple[str, str],
        stats: dict[str, int],
        td: int,
        ctx: Context,
    ) -> list[ActionSpec]:
        """A check, and an attempt (then effort, with the gear's die and reach)."""
        best = max(STATS, key=lambda s: stats[s])
        stat_param = {
            "id": "stat",
            "label": "Stat",
            "kind": "choice",
            "options": [{"id": s, "label": s.upper()} for s in STATS],
            "default": best,
        }
        mode_param = {
            "id": "mode",
            "label": "Roll",
            "kind": "choice",
            "options": [{"id": m, "label": m.capitalize()} for m in MODES],
            "default": "normal",
        }
        dice = self._effort_dice(actor)
        catalogue = ctx.catalogue.get("gear", {}) if isinstance(ctx.catalogue, dict) else {}

        def gear_name(k: str) -> str:  # the gear's name ("Sword"), not its id
            entry = catalogue.get(k)
            name = entry.get("name") if isinstance(entry, dict) else None
            return name if isinstance(name, str) and name else k.replace("_", " ").capitalize()

        gear_param = {
            "id": "gear",
            "label": "Effort",
            "kind": "choice",
            "default": max(dice, key=lambda k: int(dice[k][1:])),
            "options": [
                {
                    "id": k,
                    "label": f"{gear_name(k)} ({d}, reaches {distance.word(self._reach(actor, k, ctx)[0])})",
                }
                for k, d in dice.items()
            ],
        }
        check = ActionSpec(
            id="check",
            label="Check (d20 + stat vs TD)",
            cost="the action",
            params=[stat_param, mode_param],
            odds=self._check(actor, best, td),
        )
        attempt = ActionSpec(
            id="attempt",
            label="Attempt (d20 + stat vs TD, then effort)",
            cost="the action",
            target="any",
            params=[
                stat_param,
                mode_param,
                gear_param,
                {
                    "id": "inspire",
                    "label": "Turn in Heroic Inspiration: +d12 effort",
                    "kind": "flag",
                    "default": False,
                },
                {"id": "task", "label": "Task (no target)", "kind": "text"},
            ],
            odds=self._check(actor, best, td),
        )
        for spec in (check, attempt):
            spec.deny(*gate)
            spec.deny(*action_gate)
        return [check, attempt]

    def _reroll_spec(self, actor: Fighter, gate: tuple[str, str], st: dict) -> ActionSpec:
        last = (actor.combat or {}).get("last_roll")
        reroll = ActionSpec(
            id="reroll",
            label="Re-roll the last failed roll (Heroic Inspiration)",
            cost="Heroic Inspiration",
            odds={k: last["request"][k] for k in ("stat", "td", "mode")} if last else None,
        )
        reroll.deny(*gate)
        if not last:
            reroll.deny(
                "There is no failed check or attempt to re-roll this turn.", "ourdnd.nothing_to_reroll"
            )
        elif not st["inspiration"]:
            reroll.deny(f"{actor.name} has no Heroic Inspiration.", "ourdnd.no_inspiration")
        return reroll

    def _reach(self, actor: Fighter, gear: str, ctx: Context | None = None) -> tuple[str, bool]:
        """(the band ``actor``'s ``gear`` reaches, whether it is a house default); bare hands CLOSE."""
        ctx = ctx or self.ctx_of(actor)
        item = None if gear == "bare_hands" else ctx.catalogue.get("gear", {}).get(gear)
        return distance.reach(item, ctx)

    def _in_reach(self, actor: Fighter, target: Fighter, gear: str, es: dict) -> str:
        """The band to ``target``, or ``CombatRefused`` when ``gear`` does not reach it (seed: "melee
        needs CLOSE", a thrown weapon NEAR, a bowshot FAR, longbows VERY FAR; nothing OUT OF RANGE)."""
        ctx = self.ctx_of(actor)
        band = distance.between(es, actor, target, ctx)
        where = distance.phrase(band, actor.name)
        if band == "out_of_range":
            raise CombatRefused(
                "ourdnd.out_of_range",
                f"{target.name} is {where}: none of {actor.name}'s effects can reach OUT OF RANGE.",
            )
        reach, house = self._reach(actor, gear)
        if not distance.farther(band, reach):
            return band
        what = (
            "Bare hands"
            if gear == "bare_hands"
            else ctx.catalogue.get("gear", {}).get(gear, {}).get("name", gear.replace("_", " "))
        )
        if reach == "close":
            rule = f"Melee needs CLOSE ({what.lower() if gear == 'bare_hands' else what} reach no farther)"
        else:
            rule = f"{what} reaches {distance.word(reach)}"
        note = " (house default; the campaign may change it)" if house else ""
        raise CombatRefused(
            "ourdnd.out_of_reach",
            f"{rule}{note}, and {target.name} is {where}: move closer "
            "first, or use something that reaches farther.",
        )

    def _read(self, action: dict, stats: dict[str, int], default: str) -> tuple[str, str]:
        stat = action.get("stat") or default
        if stat not in STATS:
            raise CombatRefused("ourdnd.invalid_stat", f"Roll with one of {', '.join(STATS)}.")
        mode = action.get("mode") or "normal"
        if mode not in MODES:
            raise CombatRefused("ourdnd.invalid_mode", "A roll is normal, easy or hard.")
        return stat, mode

    def _do_check(self, action, actor, fighters, es, roller, *, reroll: bool = False) -> Outcome:
        return self._roll(action, actor, fighters, es, roller, attempt=False, reroll=reroll)

    def _do_attempt(self, action, actor, fighters, es, roller, *, reroll: bool = False) -> Outcome:
        return self._roll(action, actor, fighters, es, roller, attempt=True, reroll=reroll)

    def _roll(self, action, actor, fighters, es, roller, *, attempt: bool, reroll: bool) -> Outcome:
        stats = self._stats(actor)
        stat, mode = self._read(action, stats, max(STATS, key=lambda s: stats[s]))
        target = self.target_of(action, fighters, required=False) if attempt else None
        if target is not None and self._st(target)["dead"]:
            raise CombatRefused("ourdnd.dead", f"{target.name} is dead already.")
        gear = None
        if attempt:
            dice = self._effort_dice(actor)
            gear = action.get("gear") or max(dice, key=lambda k: int(dice[k][1:]))
            if gear not in dice:
                raise CombatRefused(
                    "ourdnd.invalid_gear", f"{actor.name} rolls effort with {', '.join(dice)}; not {gear!r}."
                )
        inspire = attempt and _flag(action.get("inspire"))
        if inspire and not self._st(actor)["inspiration"]:
            raise CombatRefused(
                "ourdnd.no_inspiration", f"{actor.name} has no Heroic Inspiration to add a d12."
            )
        far_note, scene = "", []
        if target is not None and gear is not None and target.id != actor.id:  # a target means an attempt
            band = self._in_reach(actor, target, gear, es)
            if band == "very_far":  # "could reach this distance, but hit the target would be HARD"
                scene.append({"target": "all", "mode": "hard"})  # with easy it cancels (combine_modes)
                far_note = f" ({target.name} is VERY FAR: hitting is HARD)"
        td, against = self._roll_td(actor, target, es)
        request = self._check(actor, stat, td, mode, *scene)  # the actor's effects applied
        roll = dice_rules.roll(request, roller)
        out = Outcome()
        self._mark(actor, out, acted=True, last_roll=None)
        what = "attempt" if attempt else "check"
        at = f" on {target.name}" if target else ""
        again = " (re-roll)" if reroll else ""
        text = (
            roll["text"]
            if against == "the TD"
            else roll["text"].replace(f"vs TD {td}", f"vs {td} ({against})")
        )
        out.log(
            what,
            f"{actor.name}'s {stat.upper()} {what}{at}{again}{far_note}: {text}.",
            actor.id,
            faces=roll["faces"],
            natural=roll["natural"],
            total=roll["total"],
            td=td,
            outcome=roll["outcome"],
            target=target.id if target else None,
            odds=request,
        )
        if roll["natural"] == 20:
            self._inspire(actor, fighters, out, action.get("give_to"))
        if roll["natural"] == 1:
            out.log(
                "blunder", f"Blunder! Things go really wrong for {actor.name} (the DM says how).", actor.id
            )
        if not roll["success"]:
            self._mark(
                actor,
                out,
                last_roll={
                    "kind": what,
                    "action": {k: v for k, v in action.items() if k != "action"},
                    "request": request,
                },
            )
            return out
        if attempt:
            self._effort(
                actor, target, gear, roll["natural"] == 20, inspire, action, fighters, es, roller, out
            )
        return out

    def _effort(self, actor, target, gear, critical, inspire, action, fighters, es, roller, out) -> None:
        die = self._effort_dice(actor)[gear]
        effort = dice_rules.roll({"effort": die, "critical": critical}, roller)
        total, text = effort["total"], effort["text"]
        if inspire:
            state = out.state.get(actor.id, actor.state)
            new_state, _ = self.play_state_action(actor, state, {"action": "spend_inspiration"})
            out.state[actor.id] = new_state
            extra = roller.d(12)
            total += extra
            text += f" + inspiration d12 {extra} = {total}"
        if target is not None:
            new_state, hp_text = self.play_state_action(
                target, out.state.get(target.id, target.state), {"action": "damage", "amount": total}
            )
            out.state[target.id] = new_state
            out.log(
                "effort",
                f"Effort ({gear.replace('_', ' ')}): {text}. {hp_text}",
                actor.id,
                effort=total,
                faces=effort["faces"],
                target=target.id,
            )
            return
        task = (
            action.get("task")
            if isinstance(action.get("task"), str) and action["task"].strip()
            else "the task"
        )
        task = task.strip()[:80]
        tasks = dict(es.get("tasks") or {})
        tasks[task] = (tasks.get(task) or 0) + total
        out.encounter_state = {**es, "tasks": tasks}
        per_heart = self.ctx_of(actor).settings.get("hp_per_heart", 10)
        out.log(
            "effort",
            f"Effort ({gear.replace('_', ' ')}) on {task}: {text}; {tasks[task]} so far "
            f"({tasks[task] / per_heart:g} hearts).",
            actor.id,
            effort=total,
            task=task,
        )

    def _do_reroll(self, action, actor, fighters, es, roller) -> Outcome:
        last = (actor.combat or {})["last_roll"]
        spent, text = self.play_state_action(actor, actor.state, {"action": "spend_inspiration"})
        again = copy.deepcopy(actor)
        again.state = spent
        again.combat = self.combat_numbers(actor, acted=False, last_roll=None)
        redo = {**last["action"], "action": last["kind"]}
        if last["kind"] == "attempt":
            redo["inspire"] = False  # the inspiration is spent on the re-roll
            out = self._do_attempt(redo, again, fighters, es, roller, reroll=True)
        else:
            out = self._do_check(redo, again, fighters, es, roller, reroll=True)
        out.state.setdefault(actor.id, spent)
        out.events.insert(0, Event("inspiration", text, actor.id))
        return out
