"""Our D&D's turns (RULES.md 4 "Play and scenes", seed 003: turns, initiative, TD, checks and
attempts, effort, hearts, dying, recovery, Heroic Inspiration).

Plain Python over ``Fighter`` values (engine/combat.py); the combat service applies the
``Outcome``. HP, dying, first aid, recovery and inspiration change only through the
ruleset's play-state hook ``state_action`` (``damage``, ``heal``, ``dying_turn``,
``first_aid``, ``recover``, ``gain_inspiration``, ``spend_inspiration``), so a fight and
the character sheet never disagree.

``Fighter.combat`` for Our D&D::

    {"initiative": 17,         # the d20 (the DM's one roll for every NPC)
     "move": null,             # this turn's move: null, "near" or "far"
     "acted": false,           # this turn's action is taken
     "last_roll": {...}}       # the last failed check or attempt this turn (for a re-roll)

``encounter_state``::

    {"td": 14, "td_start": 15, "td_lowered": 1,   # the scene's TD, where it started, how far
                                                  # the players have lowered it (at most 3)
     "initiative_npcs": 11,                       # the DM's roll
     "tasks": {"the jammed gate": 7}}             # effort put into tasks without a target

Readings where the seed leaves room:

- Initiative: "the highest roll goes first, then clockwise". The seats are the order in
  which the combatants are listed; the NPCs all sit at the DM's seat (where the first NPC
  is listed) and act together in one turn (``turn_span``). The highest roll's seat goes
  first and the others follow round the table from there; a tie for the highest goes to
  the earlier seat.
- Turns: "action only", "move near + action" or "move far". A move comes before the
  action (after an action you cannot move), moving far ends the turn, and recovering takes
  the whole turn (no move, no other action).
- The TD: the GM sets it (``set_td``: a new starting point). Players lower it (a torch, a
  light spell…) by at most 3 below where it started; lowering is not an action.
- Rolls: the scene's TD, except an NPC's attempt against a PC, which rolls against the
  PC's Defense + 10. Effort is rolled after a successful attempt with the chosen gear's die
  (bare hands d4), +d12 on a natural 20, +d12 more when Heroic Inspiration is turned in
  for it; effort against a combatant is damage to its HP (its hearts × 10), effort on a
  task (no target) adds up in ``encounter_state["tasks"]``.
- A natural 20 on any d20 roll (check, attempt, first aid, recovery) grants Heroic
  Inspiration; one already held passes to the named ``give_to`` ally, else to the first
  ally without one. A blunder (natural 1) is logged; its mishap is the DM's to narrate
  (and to apply with ``gm_damage``).
- Heroic Inspiration re-rolls the last failed check or attempt of this turn (``reroll``,
  not another action), or adds a d12 to an attempt's effort (``inspire`` on the attempt;
  spent only when effort is rolled).
- A dying combatant's turn is its dying roll, made when the turn starts.
"""

from __future__ import annotations

import copy
from typing import Any

from rulesets.engine.base import Context, is_int, whole_number
from rulesets.engine.combat import ActionSpec, CombatRefused, CombatRules, Event, Fighter, Outcome
from rulesets.engine.dice import Roller

from . import rules

MODES = rules.MODES
MOVES = ("near", "far")


class _Recorder(Roller):
    """Passes rolls through to ``inner`` and remembers the faces (to spot a natural 20 in a
    roll the play-state hook makes)."""

    def __init__(self, inner: Roller):
        self.inner = inner
        self.faces: list[tuple[int, int]] = []

    def d(self, sides: int) -> int:
        face = self.inner.d(sides)
        self.faces.append((sides, face))
        return face


def _side(f: Fighter) -> str:
    return f.group or ("npcs" if f.is_npc else "pcs")


def _flag(value: Any) -> bool:
    return value in (True, "true", "on", "1", 1)


class OurDnDCombat(CombatRules):
    # ---------------------------------------------------------------- reading a fighter

    def _st(self, f: Fighter, state: dict | None = None) -> dict:
        return rules._normal(f.state if state is None else state, f.build, self.report_of(f), self.ctx_of(f))

    def _max_hp(self, f: Fighter) -> int:
        return rules.max_hp(f.build, self.report_of(f), self.ctx_of(f))

    @staticmethod
    def _stats(f: Fighter) -> dict[str, int]:
        derived = (f.derived or {}).get("stats")
        raw = derived if isinstance(derived, dict) else (f.build.get("stats") if isinstance(f.build.get("stats"), dict)
                                                         else {})
        return {s: raw[s] if is_int(raw.get(s)) and abs(raw[s]) <= rules.ODDS_LIMIT else 0 for s in rules.STATS}

    @staticmethod
    def _effort_dice(f: Fighter) -> dict[str, str]:
        effort = (f.derived or {}).get("effort")
        return dict(effort) if isinstance(effort, dict) and effort else {"bare_hands": "d4"}

    def _defense_target(self, f: Fighter) -> int:
        d = f.derived or {}
        if is_int(d.get("defense_target")):
            return d["defense_target"]
        return 10 + self._stats(f)["con"]

    def _td(self, es: dict, ctx: Context) -> int:
        """The scene's TD: set by the DM, else the campaign's ``default_td``."""
        td = es.get("td")
        return td if is_int(td) else ctx.settings.get("default_td", 12)

    def _roll_td(self, actor: Fighter, target: Fighter | None, es: dict) -> tuple[int, str]:
        """The number an attempt must meet: the scene's TD, or a PC's Defense + 10 against an NPC."""
        if target is not None and actor.is_npc and not target.is_npc:
            return self._defense_target(target), f"{target.name}'s Defense + 10"
        return self._td(es, self.ctx_of(actor)), "the TD"

    # ---------------------------------------------------------------- initiative and turns

    def _seats(self, fighters: list[Fighter]) -> list[list[Fighter]]:
        """The table, in listed order: each PC a seat, every NPC at the DM's one seat."""
        seats: list[list[Fighter]] = []
        dm: list[Fighter] | None = None
        for f in fighters:
            if f.is_npc:
                if dm is None:
                    dm = []
                    seats.append(dm)
                dm.append(f)
            else:
                seats.append([f])
        return seats

    def start(self, fighters: list[Fighter], encounter_state: dict, roller: Roller, *,
              ctx: Context | None = None) -> Outcome:
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
                out.log("initiative", f"The DM rolls initiative for {', '.join(f.name for f in seat)}: d20 "
                                      f"{npc_roll}.", seat[0].id, initiative=npc_roll)
            else:
                face = roller.d(20)
                rolls.append(face)
                out.log("initiative", f"{seat[0].name} rolls initiative: d20 {face}.", seat[0].id, initiative=face)
            for f in seat:
                out.combat[f.id] = self.combat_numbers(f, initiative=rolls[-1], move=None, acted=False,
                                                       last_roll=None)
        if seats:
            top = max(range(len(seats)), key=lambda i: (rolls[i], -i))  # a tie goes to the earlier seat
            ordered = seats[top:] + seats[:top]
            out.order = [f.id for seat in ordered for f in seat]
            out.log("order", f"{ordered[0][0].name if not ordered[0][0].is_npc else 'The DM'} rolled highest "
                             f"({rolls[top]}) and goes first, then clockwise: "
                             + ", ".join(" and ".join(f.name for f in seat) for seat in ordered) + ".",
                    order=out.order)
        out.encounter_state = {**es, "td": td, "td_start": es.get("td_start", td) if is_int(es.get("td_start")) else td,
                               "td_lowered": es.get("td_lowered", 0) if is_int(es.get("td_lowered")) else 0,
                               "initiative_npcs": npc_roll, "tasks": dict(es.get("tasks") or {})}
        out.log("td", f"The scene's TD is {td}.", td=td)
        return out

    def join(self, fighter: Fighter, fighters: list[Fighter], encounter_state: dict, roller: Roller, *,
              ctx: Context | None = None) -> Outcome:
        out = Outcome()
        npc = (encounter_state or {}).get("initiative_npcs")
        face = npc if fighter.is_npc and is_int(npc) else roller.d(20)
        out.combat[fighter.id] = self.combat_numbers(fighter, initiative=face, move=None, acted=False,
                                                     last_roll=None)
        out.log("initiative", f"{fighter.name} joins the scene (initiative {face}).", fighter.id)
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

    def turn_start(self, actor: Fighter, fighters: list[Fighter], encounter_state: dict, roller: Roller, *,
              ctx: Context | None = None) -> Outcome:
        out = Outcome()
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

    # ---------------------------------------------------------------- actions

    def actions(self, actor: Fighter, fighters: list[Fighter], encounter_state: dict, *,
                current: int | None, ctx: Context | None = None) -> list[ActionSpec]:
        return self._specs(actor, fighters, encounter_state or {}, current)

    def _gate(self, actor: Fighter, fighters: list[Fighter], current: int | None) -> tuple[str, str]:
        st = self._st(actor)
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
            return (f"{actor.name} moved far: that takes the whole turn, no action after it.",
                    "ourdnd.moved_far")
        if c.get("acted"):
            return f"{actor.name} has already taken this turn's action.", "ourdnd.already_acted"
        return "", ""

    def _specs(self, actor: Fighter, fighters: list[Fighter], es: dict, current: int | None) -> list[ActionSpec]:
        c = actor.combat or {}
        td = self._td(es, self.ctx_of(actor))
        stats = self._stats(actor)
        st = self._st(actor)
        gate = self._gate(actor, fighters, current)
        action_gate = self._action_gate(actor)
        specs: list[ActionSpec] = []
        stat_param = {"id": "stat", "label": "Stat", "kind": "choice", "options": list(rules.STATS),
                      "default": max(rules.STATS, key=lambda s: stats[s])}
        mode_param = {"id": "mode", "label": "Roll", "kind": "choice", "options": list(MODES), "default": "normal"}
        best = stat_param["default"]

        for distance in MOVES:
            spec = ActionSpec(id=f"move_{distance}", label=f"Move {distance}",
                              cost="the whole turn" if distance == "far" else "the move (an action may follow)")
            spec.deny(*gate)
            if c.get("move"):
                spec.deny(f"{actor.name} has already moved this turn.", "ourdnd.already_moved")
            elif c.get("acted"):
                spec.deny("After an action you cannot move this turn.", "ourdnd.already_acted")
            specs.append(spec)

        check = ActionSpec(id="check", label="Check (d20 + stat vs TD)", cost="the action",
                           params=[stat_param, mode_param], odds={"stat": stats[best], "td": td, "mode": "normal"})
        attempt = ActionSpec(
            id="attempt", label="Attempt (d20 + stat vs TD, then effort)", cost="the action", target="any",
            params=[stat_param, mode_param,
                    {"id": "gear", "label": "Effort", "kind": "choice", "default": max(
                        self._effort_dice(actor), key=lambda k: int(self._effort_dice(actor)[k][1:])),
                     "options": [{"id": k, "label": f"{k.replace('_', ' ')} ({d})"}
                                 for k, d in self._effort_dice(actor).items()]},
                    {"id": "inspire", "label": "Turn in Heroic Inspiration: +d12 effort", "kind": "flag",
                     "default": False},
                    {"id": "task", "label": "Task (no target)", "kind": "text"}],
            odds={"stat": stats[best], "td": td, "mode": "normal"})
        for spec in (check, attempt):
            spec.deny(*gate)
            spec.deny(*action_gate)
            specs.append(spec)

        aid_stat = "int" if stats["int"] >= stats["wis"] else "wis"
        first_aid = ActionSpec(id="first_aid", label="First aid (INT or WIS vs TD)", cost="the action",
                               target="ally",
                               params=[{"id": "stat", "label": "Stat", "kind": "choice", "options": ["int", "wis"],
                                        "default": aid_stat}],
                               odds={"stat": stats[aid_stat], "td": td, "mode": "normal"})
        first_aid.deny(*gate)
        first_aid.deny(*action_gate)
        if not any(self._st(f)["dying"] for f in fighters if f.id != actor.id):
            first_aid.deny("Nobody is dying.", "ourdnd.not_dying")
        specs.append(first_aid)

        recover = ActionSpec(id="recover", label=f"Recover (d20 + CON vs TD: regain {stats['con'] + 1} HP)",
                             cost="the whole turn", odds={"stat": stats["con"], "td": td, "mode": "normal"})
        recover.deny(*gate)
        if c.get("move") or c.get("acted"):
            recover.deny("Recovering takes the whole turn: no move or action before it.",
                         "ourdnd.whole_turn")
        specs.append(recover)

        last = c.get("last_roll")
        reroll = ActionSpec(id="reroll", label="Re-roll the last failed roll (Heroic Inspiration)",
                            cost="Heroic Inspiration",
                            odds={k: last["request"][k] for k in ("stat", "td", "mode")} if last else None)
        reroll.deny(*gate)
        if not last:
            reroll.deny("There is no failed check or attempt to re-roll this turn.",
                         "ourdnd.nothing_to_reroll")
        elif not st["inspiration"]:
            reroll.deny(f"{actor.name} has no Heroic Inspiration.", "ourdnd.no_inspiration")
        specs.append(reroll)

        lowered = es.get("td_lowered", 0) if is_int(es.get("td_lowered")) else 0
        room = self._room(es, self.ctx_of(actor))
        lower = ActionSpec(id="lower_td", label="Lower the TD (a torch, a spell…)", cost="not an action",
                           reaction=True,
                           params=[{"id": "amount", "label": "By", "kind": "number", "min": 1, "max": max(room, 1),
                                    "default": 1},
                                   {"id": "reason", "label": "How", "kind": "text"}])
        if actor.is_npc:
            lower.deny("Players lower the TD; the DM sets it.", "ourdnd.players_only")
        elif room <= 0:
            lower.deny(f"The TD has been lowered {lowered} already: players never lower it more than "
                       f"{self._max_lower(self.ctx_of(actor))} below where it started ({es.get('td_start', td)}).",
                         "ourdnd.td_floor")
        specs.append(lower)

        specs.extend(self._gm_specs(actor, es))
        return specs

    @staticmethod
    def _max_lower(ctx: Context) -> int:
        return ctx.settings.get("td_max_reduction", 3)

    def _room(self, es: dict, ctx: Context) -> int:
        lowered = es.get("td_lowered", 0) if is_int(es.get("td_lowered")) else 0
        return self._max_lower(ctx) - lowered

    def _gm_specs(self, actor: Fighter, es: dict) -> list[ActionSpec]:
        amount = {"id": "amount", "label": "Amount", "kind": "number", "min": 1, "default": 1}
        return [
            ActionSpec(id="set_td", label="Set the scene's TD", cost="GM", gm=True, reaction=True,
                       params=[{"id": "td", "label": "TD", "kind": "number", "min": 1, "default": self._td(es, self.ctx_of(actor))}]),
            ActionSpec(id="gm_damage", label="Damage", cost="GM", gm=True, reaction=True, params=[amount]),
            ActionSpec(id="gm_heal", label="Heal", cost="GM", gm=True, reaction=True, params=[amount]),
            ActionSpec(id="gm_inspiration", label="Award Heroic Inspiration", cost="GM", gm=True, reaction=True),
        ]

    # ---------------------------------------------------------------- perform

    def perform(self, action: dict[str, Any], actor: Fighter, fighters: list[Fighter], encounter_state: dict,
                roller: Roller, *, current: int | None, by_gm: bool,
                ctx: Context | None = None) -> Outcome:
        es = dict(encounter_state or {})
        spec = self.spec_for(action, actor, self._specs(actor, fighters, es, current))
        aid = spec.id
        if not spec.allowed:
            raise self.refusal(spec)
        handler = self._do_move if aid.startswith("move_") else getattr(self, "_do_" + aid)
        return handler(action, actor, fighters, es, roller)

    def _mark(self, actor: Fighter, out: Outcome, **changes: Any) -> dict:
        c = {**self.combat_numbers(actor), **out.combat.get(actor.id, {}), **changes}
        out.combat[actor.id] = c
        return c

    def _do_move(self, action, actor, fighters, es, roller) -> Outcome:
        distance = action["action"].removeprefix("move_")
        out = Outcome(end_turn=distance == "far")
        self._mark(actor, out, move=distance)
        tail = " (the whole turn)" if distance == "far" else ""
        out.log("move", f"{actor.name} moves {distance}{tail}.", actor.id, distance=distance)
        return out

    def _read(self, action: dict, stats: dict[str, int], default: str) -> tuple[str, str]:
        stat = action.get("stat") or default
        if stat not in rules.STATS:
            raise CombatRefused("ourdnd.invalid_stat", f"Roll with one of {', '.join(rules.STATS)}.")
        mode = action.get("mode") or "normal"
        if mode not in MODES:
            raise CombatRefused("ourdnd.invalid_mode", "A roll is normal, easy or hard.")
        return stat, mode

    def _inspire(self, actor: Fighter, fighters: list[Fighter], out: Outcome, give_to: Any) -> None:
        """A natural 20: Heroic Inspiration, or, when already held, one for an ally without it."""
        state = out.state.get(actor.id, actor.state)
        if not self._st(actor, state)["inspiration"]:
            new_state, text = self.play_state_action(actor, state, {"action": "gain_inspiration"})
            out.state[actor.id] = new_state
            out.log("inspiration", f"Natural 20: {text}", actor.id)
            return
        allies = [f for f in fighters if f.id != actor.id and _side(f) == _side(actor) and not f.is_npc
                  and not self._st(f, out.state.get(f.id))["inspiration"] and not self._st(f)["dead"]]
        if give_to not in (None, ""):
            allies = [f for f in allies if str(f.id) == str(give_to)] or allies
        if not allies:
            out.log("inspiration", f"Natural 20: {actor.name} already has Heroic Inspiration and no ally lacks one.",
                    actor.id)
            return
        ally = allies[0]
        new_state, _ = self.play_state_action(ally, out.state.get(ally.id, ally.state), {"action": "gain_inspiration"})
        out.state[ally.id] = new_state
        out.log("inspiration", f"Natural 20: {actor.name} already has Heroic Inspiration and gives one to "
                               f"{ally.name}.", actor.id, target=ally.id)

    def _do_check(self, action, actor, fighters, es, roller, *, reroll: bool = False) -> Outcome:
        return self._roll(action, actor, fighters, es, roller, attempt=False, reroll=reroll)

    def _do_attempt(self, action, actor, fighters, es, roller, *, reroll: bool = False) -> Outcome:
        return self._roll(action, actor, fighters, es, roller, attempt=True, reroll=reroll)

    def _roll(self, action, actor, fighters, es, roller, *, attempt: bool, reroll: bool) -> Outcome:
        stats = self._stats(actor)
        stat, mode = self._read(action, stats, max(rules.STATS, key=lambda s: stats[s]))
        target = self.target_of(action, fighters, required=False) if attempt else None
        if target is not None and self._st(target)["dead"]:
            raise CombatRefused("ourdnd.dead", f"{target.name} is dead already.")
        gear = None
        if attempt:
            dice = self._effort_dice(actor)
            gear = action.get("gear") or max(dice, key=lambda k: int(dice[k][1:]))
            if gear not in dice:
                raise CombatRefused("ourdnd.invalid_gear", f"{actor.name} rolls effort with "
                                                           f"{', '.join(dice)}; not {gear!r}.")
        inspire = attempt and _flag(action.get("inspire"))
        if inspire and not self._st(actor)["inspiration"]:
            raise CombatRefused("ourdnd.no_inspiration", f"{actor.name} has no Heroic Inspiration to add a d12.")
        td, against = self._roll_td(actor, target, es)
        request = {"stat": stats[stat], "td": td, "mode": mode}
        roll = rules.roll(request, roller)
        out = Outcome()
        self._mark(actor, out, acted=True, last_roll=None)
        what = "attempt" if attempt else "check"
        at = f" on {target.name}" if target else ""
        again = " (re-roll)" if reroll else ""
        text = roll["text"] if against == "the TD" else roll["text"].replace(f"vs TD {td}", f"vs {td} ({against})")
        out.log(what, f"{actor.name}'s {stat.upper()} {what}{at}{again}: {text}.", actor.id,
                faces=roll["faces"], natural=roll["natural"], total=roll["total"], td=td, outcome=roll["outcome"],
                target=target.id if target else None)
        if roll["natural"] == 20:
            self._inspire(actor, fighters, out, action.get("give_to"))
        if roll["natural"] == 1:
            out.log("blunder", f"Blunder! Things go really wrong for {actor.name} (the DM says how).", actor.id)
        if not roll["success"]:
            self._mark(actor, out, last_roll={"kind": what, "action": {k: v for k, v in action.items()
                                                                       if k != "action"},
                                              "request": request})
            return out
        if attempt:
            self._effort(actor, target, gear, roll["natural"] == 20, inspire, action, fighters, es, roller, out)
        return out

    def _effort(self, actor, target, gear, critical, inspire, action, fighters, es, roller, out) -> None:
        die = self._effort_dice(actor)[gear]
        effort = rules.roll({"effort": die, "critical": critical}, roller)
        total, text = effort["total"], effort["text"]
        if inspire:
            state = out.state.get(actor.id, actor.state)
            new_state, _ = self.play_state_action(actor, state, {"action": "spend_inspiration"})
            out.state[actor.id] = new_state
            extra = roller.d(12)
            total += extra
            text += f" + inspiration d12 {extra} = {total}"
        if target is not None:
            new_state, hp_text = self.play_state_action(target, out.state.get(target.id, target.state),
                                                    {"action": "damage", "amount": total})
            out.state[target.id] = new_state
            out.log("effort", f"Effort ({gear.replace('_', ' ')}): {text}. {hp_text}", actor.id, effort=total,
                    faces=effort["faces"], target=target.id)
            return
        task = action.get("task") if isinstance(action.get("task"), str) and action["task"].strip() else "the task"
        task = task.strip()[:80]
        tasks = dict(es.get("tasks") or {})
        tasks[task] = (tasks.get(task) or 0) + total
        out.encounter_state = {**es, "tasks": tasks}
        per_heart = self.ctx_of(actor).settings.get("hp_per_heart", 10)
        out.log("effort", f"Effort ({gear.replace('_', ' ')}) on {task}: {text}; {tasks[task]} so far "
                          f"({tasks[task] / per_heart:g} hearts).", actor.id, effort=total, task=task)

    def _do_first_aid(self, action, actor, fighters, es, roller) -> Outcome:
        target = self.target_of(action, fighters, required=True)
        stats = self._stats(actor)
        stat = action.get("stat") or ("int" if stats["int"] >= stats["wis"] else "wis")
        if stat not in ("int", "wis"):
            raise CombatRefused("ourdnd.invalid_stat", "First aid rolls INT or WIS.")
        if not self._st(target)["dying"]:
            raise CombatRefused("ourdnd.not_dying", f"{target.name} is not dying; first aid stops a dying countdown.")
        td = self._td(es, self.ctx_of(actor))
        recorder = _Recorder(roller)
        new_state, text = self.play_state_action(target, target.state, {"action": "first_aid", "stat": stats[stat],
                                                                     "td": td}, recorder)
        out = Outcome()
        out.state[target.id] = new_state
        self._mark(actor, out, acted=True, last_roll=None)
        out.log("first_aid", f"{actor.name} gives first aid ({stat.upper()}): {text}", actor.id, target=target.id,
                faces=[f for _, f in recorder.faces])
        if recorder.faces and recorder.faces[0] == (20, 20):
            self._inspire(actor, fighters, out, action.get("give_to"))
        return out

    def _do_recover(self, action, actor, fighters, es, roller) -> Outcome:
        recorder = _Recorder(roller)
        new_state, text = self.play_state_action(actor, actor.state, {"action": "recover", "td": self._td(es, self.ctx_of(actor))}, recorder)
        out = Outcome(end_turn=True)
        out.state[actor.id] = new_state
        self._mark(actor, out, acted=True, last_roll=None)
        out.log("recover", text, actor.id, faces=[f for _, f in recorder.faces])
        if recorder.faces and recorder.faces[0] == (20, 20):
            self._inspire(actor, fighters, out, action.get("give_to"))
        return out

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

    def _do_lower_td(self, action, actor, fighters, es, roller) -> Outcome:
        amount = action.get("amount", 1)
        if isinstance(amount, str) and whole_number(amount) is not None:
            amount = whole_number(amount)
        if not is_int(amount) or amount < 1:
            raise CombatRefused("ourdnd.invalid_amount", "Lower the TD by a whole number of 1 or more.")
        room = self._room(es, self.ctx_of(actor))
        start = es.get("td_start", self._td(es, self.ctx_of(actor)))
        if amount > room:
            raise CombatRefused("ourdnd.td_floor",
                                f"Players never lower the TD more than {self._max_lower(self.ctx_of(actor))} below where it started "
                                f"({start}); it can go down by {max(room, 0)} more, not {amount}.")
        td = self._td(es, self.ctx_of(actor)) - amount
        reason = action.get("reason") if isinstance(action.get("reason"), str) else ""
        how = f" ({reason.strip()[:80]})" if reason.strip() else ""
        out = Outcome(encounter_state={**es, "td": td, "td_lowered": (es.get("td_lowered") or 0) + amount})
        out.log("td", f"{actor.name} lowers the TD by {amount}{how}: TD {td}.", actor.id, td=td, amount=amount)
        return out

    def _do_set_td(self, action, actor, fighters, es, roller) -> Outcome:
        td = action.get("td")
        if isinstance(td, str) and whole_number(td) is not None:
            td = whole_number(td)
        if not is_int(td) or not 1 <= td <= rules.ODDS_LIMIT:
            raise CombatRefused("ourdnd.invalid_td", f"The TD is a whole number from 1 to {rules.ODDS_LIMIT} "
                                                     "(usually 10 easy, 12 average, 15 hard, 18 brutal).")
        out = Outcome(encounter_state={**es, "td": td, "td_start": td, "td_lowered": 0})
        out.log("td", f"DM: the scene's TD is now {td}.", td=td)
        return out

    def _gm_amount(self, action: dict) -> int:
        amount = action.get("amount")
        if isinstance(amount, str) and whole_number(amount) is not None:
            amount = whole_number(amount)
        if not is_int(amount) or amount < 1:
            raise CombatRefused("ourdnd.invalid_amount", "The amount is a whole number of 1 or more.")
        return amount

    def _do_gm_damage(self, action, actor, fighters, es, roller) -> Outcome:
        new_state, text = self.play_state_action(actor, actor.state, {"action": "damage",
                                                                  "amount": self._gm_amount(action)})
        out = Outcome(state={actor.id: new_state})
        out.log("gm_damage", f"DM: {text}", actor.id)
        return out

    def _do_gm_heal(self, action, actor, fighters, es, roller) -> Outcome:
        new_state, text = self.play_state_action(actor, actor.state, {"action": "heal", "amount": self._gm_amount(action)})
        out = Outcome(state={actor.id: new_state})
        out.log("gm_heal", f"DM: {text}", actor.id)
        return out

    def _do_gm_inspiration(self, action, actor, fighters, es, roller) -> Outcome:
        new_state, text = self.play_state_action(actor, actor.state, {"action": "gain_inspiration"})
        out = Outcome(state={actor.id: new_state})
        out.log("inspiration", f"DM: {text}", actor.id)
        return out

    # ---------------------------------------------------------------- the row

    def summary(self, fighter: Fighter, encounter_state: dict, *,
                ctx: Context | None = None) -> dict[str, Any]:
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
            left = "countdown not rolled" if st["dying_rounds"] is None else f"{st['dying_rounds']} rounds left"
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
        return {"stats": stats, "status": status}
