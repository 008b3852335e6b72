"""Paragon RPG's violence (RULES.md 2 "Play state and combat", seed 001 "VIOLENCE").

Plain Python over ``Fighter`` values (engine/combat.py); the combat service applies the
``Outcome``. Pools (health, stamina, morale, heroism) change only through the ruleset's
play-state hook ``state_action`` (state.py: ``damage``, ``set``, ``resist_incapacitation``,
``spend_hero_point``), so a fight and the character sheet never disagree.

``Fighter.combat`` for Paragon::

    {"initiative": 21,          # the initiative check (+1d6 with killing intent)
     "initiative_text": "…",    # how it was rolled, for the row
     "killing_intent": true,    # declared before the fight (or in the opening, see below)
     "temp_morale": 5,          # killing intent's temporary Morale, lost before the pool's
     "footing": "forward",      # or "rearward"
     "surprised": false,        # skips the surprise round
     "engaged": false,          # initiated an exchange this turn (one per turn)
     "forgo": false,            # took the free Forward→Rearward change: no other action this turn
     "retreating": false, "retreated": false}

``encounter_state``::

    {"surprise_round": true,    # round 1 is the surprise round: the surprised skip it
     "opening": true,           # nobody has acted yet: declarations still allowed
     "exchange": {"attacker": id, "defender": id, "kind": "melee"|"ranged",
                  "first": id | None,        # who acts first; None = simultaneously
                  "first_by": "hero_points" | "surprise" | "initiative",   # what decided it
                  "seized": {"<id>": n},     # Hero Points spent to seize the offensive
                  "declared": true,          # melee against a Rearward foe: interception and
                                             # evasion are open until the attacker's first strike
                  "strikes": {"<id>": n},    # strikes chained so far by each side
                  "done": [ids],             # whose action in the exchange is over
                  "intercepted": id | None}, # the Rearward foe an interceptor stepped in for
     "threat": {"attacker": id, "defender": id, "weapon": "strong", "total": 17, "tn": 16}}

Readings where the seed leaves room (also shown on the page in the actions' reasons):

- Setup: killing intent, surprise and opening footing are read from each fighter's combat
  numbers or from ``encounter_state`` (``{"killing_intent": [ids], "surprised": [ids],
  "footing": {"<id>": "rearward"}}``) at ``start``. While nobody has acted yet (the
  opening), a fighter may still declare killing intent (its d6 is added and the order
  re-sorted), declare its footing for free, and the GM may mark fighters surprised.
- Initiative ties keep the listed order of the turn order. In an exchange the higher
  initiative acts first: the other side strikes once the first side's action is over (its
  chain ended by a miss, by the fifth strike or by ``end_action``). Equal initiative acts
  simultaneously: both sides may strike, in any order, interleaved.
- An exchange is opened by ``engage`` on the attacker's turn (one per turn) and lasts until
  both sides' actions are over (a chain that ends, ``end_action``) or one side is down; the
  defender acts in it outside its own turn. The next turn closes any exchange left open.
- Striking rolls the combat skill (melee, missile or triarmatura: force d6 + 2×rank) against
  the defender's Defense for the exchange: melee exchange → Defense (Melee), ranged →
  Defense (Missile); a paragon's Defense (Triarmatura) applies to both when higher.
- Avoiding is a reaction, not a roll: 1 stamina nullifies the threat (the seed: "the threat
  is nullified"). It does not use up the defender's action in the exchange (else the fighter
  acting first could never avoid the reply). A threat left unanswered when the next turn
  starts turns into a hit ("if the defender does nothing, the threat turns into a hit").
- A threat, avoided or not, lets the attacker chain another strike; a miss ends the chain.
- Rearward footing's extra die on defensive checks applies to evasion (the one defensive
  roll: Defense itself is a fixed score).
- Evasion is an opposed roll: both roll the evader's chosen skill (athletics or cavalry);
  ties are rolled again. Its odds are shown against the attacker's average roll.
- Killing intent's 5 temporary Morale absorb a hit's Morale loss before the pool does
  (the pool's maximum stays the sheet's).
- Seizing the offensive (seed: "a combatant who expends more HP than their opponent always gets to
  act first, regardless of Initiative and surprise assaults"): ``seize_offensive`` with an ``amount``
  of Hero Points, by either side of an exchange before its first strike; spends add up, the higher
  total acts first, and a surprised foe who outspends strikes first even in the surprise round. The
  seed is silent on equal spends: house default ``seize_offensive_tie`` "initiative" (they cancel
  out, surprise and initiative decide), or "simultaneous"; the page and the log say which.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

from rulesets.engine.combat import ActionSpec, CombatRefused, CombatRules, Fighter, Outcome
from rulesets.engine.context import Context
from rulesets.engine.dice import Roller
from rulesets.engine.fields import get_as, is_int, lookup, whole_number
from rulesets.engine.words import a

from . import dice
from .build import POOLS
from .state import maxima, normal

WEAPONS: dict[str, tuple[str, int]] = {
    "unarmed": ("Unarmed strike", 1),
    "weak": ("Weak weapon", 2),
    "strong": ("Strong weapon", 3),
    "triarma": ("Triarma", 4),
    "triarma_unpowered": ("Triarma (not powered)", 3),
}
STRIKE_SKILLS = ("melee", "missile", "triarmatura")
EVASION_SKILLS = ("athletics", "cavalry")
MAX_CHAIN = 5
KILLING_INTENT_MORALE = 5
INCAPACITATED_RANGED_TN = 10
EXPLODING_D12_MEAN = 6.5 * 12 / 11  # the mean of a d12 that explodes on 12
#: House default ``seize_offensive_tie`` (the seed is silent on equal spends): its readings, in the
#: words the page and the log show.
SEIZE_TIES = {  # keys: build.SEIZE_OFFENSIVE_TIES
    "initiative": "equal spends cancel out, and surprise and initiative decide as usual",
    "simultaneous": "equal spends make both sides act simultaneously",
}
HOUSE_NOTE = " (house default; your GM may change it)"


def seize_tie(ctx: Context) -> str:
    """The campaign's reading of equal Hero Point spends (``initiative`` unless the house rule says
    ``simultaneous``; anything else is the default)."""
    tie = ctx.settings.get("seize_offensive_tie")
    return tie if tie in SEIZE_TIES else "initiative"


def _side(f: Fighter) -> str:
    """Who fights whom: the combatant's group, else NPCs against the PCs."""
    return f.group or ("npcs" if f.is_npc else "pcs")


@dataclass(frozen=True)
class _Now:
    """What every action spec of one fighter reads: the fighter, the exchange it is in, the threat, and
    the gates — why it cannot act on its turn, at all, or inside its exchange ("", "" when it can)."""

    actor: Fighter
    by: dict[int, Fighter]
    es: dict
    current: int | None
    ctx: Context
    c: dict
    footing: str
    ex: dict | None  # the exchange the actor is part of
    opponent: Fighter | None  # the other side of it
    attacker: Fighter | None  # the attacker of the exchange under way (the actor's or not)
    declared: bool  # a melee exchange against a Rearward foe, before its first strike
    threat: dict | None
    down: str  # "dead", "incapacitated" or ""
    pools: dict[str, int]  # the actor's current pools
    turn_gate: tuple[str, str]
    any_gate: tuple[str, str]
    exchange_gate: tuple[str, str]

    @classmethod
    def of(
        cls,
        hooks: ParagonCombat,
        actor: Fighter,
        fighters: list[Fighter],
        es: dict,
        current: int | None,
        ctx: Context,
    ) -> _Now:
        by = {f.id: f for f in fighters}
        under_way = es.get("exchange") or None
        ex = (
            under_way
            if under_way and actor.id in (under_way.get("attacker"), under_way.get("defender"))
            else None
        )
        opponent = by.get(ex["defender"] if ex["attacker"] == actor.id else ex["attacker"]) if ex else None
        # Hero Points seized the offensive of the actor's exchange "regardless of ... surprise assaults".
        seized = ex is not None and ex.get("first") == actor.id and ex.get("first_by") == "hero_points"
        down = hooks._down(actor)
        return cls(
            actor=actor,
            by=by,
            es=es,
            current=current,
            ctx=ctx,
            c=actor.combat or {},
            footing=(actor.combat or {}).get("footing", "forward"),
            ex=ex,
            opponent=opponent,
            attacker=by.get(under_way.get("attacker")) if under_way else None,
            declared=under_way is not None and bool(under_way.get("declared")),
            threat=es.get("threat") or None,
            down=down,
            pools=hooks._pools(actor),
            turn_gate=hooks._gate(actor, es, current, on_turn=True, down=down),
            any_gate=hooks._gate(actor, es, current, on_turn=False, down=down),
            exchange_gate=hooks._gate(actor, es, current, on_turn=False, surprise_waived=seized, down=down),
        )


class ParagonCombat(CombatRules):
    # ---------------------------------------------------------------- reading a fighter

    def _maxima(self, f: Fighter) -> dict[str, int]:
        return maxima(f.build, self.report_of(f), self.ctx_of(f))

    def _pools(self, f: Fighter, state: dict | None = None) -> dict[str, int]:
        st = normal(f.state if state is None else state, f.build, self.report_of(f), self.ctx_of(f))
        return st["pools"]

    def _conditions(self, f: Fighter, state: dict | None = None) -> list[str]:
        fx = self.effects_of(f, state)
        return list(fx.get("conditions") or [])

    def _down(self, f: Fighter, state: dict | None = None) -> str:
        """ "dead", "incapacitated" or "" (can fight)."""
        found = self._conditions(f, state)
        if "bodily_death" in found:
            return "dead"
        if "incapacitated" in found:
            return "incapacitated"
        return ""

    @staticmethod
    def _forces(f: Fighter) -> dict[str, int]:
        raw = get_as(f.build, "forces", dict, {})
        return {k: v for k, v in raw.items() if is_int(v) and 0 <= v <= dice.ODDS_LIMIT}

    @staticmethod
    def _rank(f: Fighter, skill: str) -> int:
        raw = get_as(f.build, "skills", dict, {})
        value = raw.get(skill, 0)
        return value if is_int(value) and 0 <= value <= dice.ODDS_LIMIT else 0

    def _check(self, f: Fighter, skill: str, extra_dice: int = 0) -> dict[str, int]:
        """The odds request of a skill check (without its TN)."""
        entry = self.ctx_of(f).catalogue.get("skills", {}).get(skill, {})
        force = lookup(self._forces(f), entry.get("force"), 0)
        return {"force": min(force + extra_dice, dice.ODDS_LIMIT), "skill": self._rank(f, skill)}

    def _defense(self, f: Fighter, kind: str) -> int:
        d = f.derived or {}
        key = "defense_melee" if kind == "melee" else "defense_missile"
        values = [d[k] for k in (key, "defense_triarmatura") if is_int(d.get(k))]
        return max(values) if values else 10

    def _strike_skills(self, f: Fighter) -> list[str]:
        skills = ["melee", "missile"]
        if f.build.get("power_level") is not None:
            skills.append("triarmatura")
        return skills

    def _best_skill(self, f: Fighter, kind: str) -> str:
        options = self._strike_skills(f)
        if kind == "ranged":
            options = [s for s in options if s != "melee"]
        return max(options, key=lambda s: (self._rank(f, s), s == "triarmatura"))

    # ---------------------------------------------------------------- opening

    def start(
        self, fighters: list[Fighter], encounter_state: dict, roller: Roller, *, ctx: Context | None = None
    ) -> Outcome:
        es = dict(encounter_state or {})
        intent_ids = {str(i) for i in es.get("killing_intent") or []}
        surprised_ids = {str(i) for i in es.get("surprised") or []}
        footings = get_as(es, "footing", dict, {})
        out = Outcome()
        for f in fighters:
            c = self.combat_numbers(f)
            intent = bool(c.get("killing_intent")) or str(f.id) in intent_ids
            footing = c.get("footing") or footings.get(str(f.id)) or "forward"
            roll = dice.roll(self._check(f, "initiative"), roller)
            total, text = roll["total"], roll["text"]
            if intent:
                bonus = roller.d(6)
                total += bonus
                text += f" + killing intent d6 {bonus} = {total}"
            c.update(
                initiative=total,
                initiative_text=text,
                killing_intent=intent,
                temp_morale=KILLING_INTENT_MORALE if intent else 0,
                footing=footing if footing in ("forward", "rearward") else "forward",
                surprised=bool(c.get("surprised")) or str(f.id) in surprised_ids,
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
        out.encounter_state = {
            **es,
            "surprise_round": surprise,
            "opening": True,
            "exchange": None,
            "threat": None,
        }
        return out

    @staticmethod
    def _sorted(fighters: list[Fighter], combat: dict[int, dict]) -> list[int]:
        """Highest initiative first; ties keep the listed order (a stable sort)."""
        return [f.id for f in sorted(fighters, key=lambda f: -(combat.get(f.id, {}).get("initiative") or 0))]

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
        roll = dice.roll(self._check(fighter, "initiative"), roller)
        c = self.combat_numbers(fighter)
        c.update(
            initiative=roll["total"],
            initiative_text=roll["text"],
            killing_intent=False,
            temp_morale=0,
            footing=c.get("footing") if c.get("footing") in ("forward", "rearward") else "forward",
            surprised=False,
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

    def _gate(
        self,
        actor: Fighter,
        es: dict,
        current: int | None,
        *,
        on_turn: bool,
        surprise_waived: bool = False,
        down: str | None = None,
    ) -> tuple[str, str]:
        """Why ``actor`` cannot act at all now ("", "" when it can). ``surprise_waived``: Hero Points
        seized the offensive of the actor's exchange, "regardless of ... surprise assaults" (seed)."""
        c = actor.combat or {}
        down = self._down(actor) if down is None else down
        if c.get("retreated"):
            return f"{actor.name} has quit the field.", "paragon.retreated"
        if down == "dead":
            return f"{actor.name} is dead (Health 0).", "paragon.dead"
        if down == "incapacitated":
            return (
                f"{actor.name} is incapacitated (Health below half): spend a Hero Point to resist first.",
                "paragon.incapacitated",
            )
        if es.get("surprise_round") and c.get("surprised") and not surprise_waived:
            return f"{actor.name} is surprised and cannot act in the surprise round.", "paragon.surprised"
        if on_turn and current != actor.id:
            return self.not_your_turn(actor)
        if on_turn and c.get("forgo"):
            return (
                f"{actor.name} changed to Rearward for free and forgoes the turn's other actions.",
                "paragon.turn_forgone",
            )
        return "", ""

    def _stamina_spec(
        self, spec: ActionSpec, actor: Fighter, cost: int, what: str, pools: dict[str, int] | None = None
    ) -> None:
        have = (pools or self._pools(actor))["stamina"]
        if cost > have:
            spec.deny(
                f"{what} costs {cost} stamina but {actor.name} has {have}.", "paragon.not_enough_stamina"
            )

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
        specs = [
            self._engage_spec(now),
            self._strike_spec(now),
            self._end_spec(now),
            self._seize_spec(now),
            *self._threat_specs(now),
            self._footing_spec(now),
            self._intercept_spec(now),
            self._evade_spec(now),
            self._retreat_spec(now),
            self._resist_spec(now),
        ]
        if es.get("opening"):
            specs.append(self._intent_spec(now))
        specs.extend(self._gm_specs(actor, es))
        return specs

    def _engage_spec(self, now: _Now) -> ActionSpec:
        """Engage: open an exchange (one per turn); from Rearward footing only ranged ones."""
        actor, rearward = now.actor, now.footing == "rearward"
        engage = ActionSpec(
            id="engage",
            label="Engage a foe (open an exchange)",
            target="enemy",
            cost="free; 1 stamina for melee against a Rearward foe",
            params=[
                {
                    "id": "kind",
                    "label": "Exchange",
                    "kind": "choice",
                    "options": ["ranged"] if rearward else ["melee", "ranged"],
                    "default": "ranged" if rearward else "melee",
                }
            ],
        )
        engage.deny(*now.turn_gate)
        if now.c.get("engaged"):
            engage.deny(f"{actor.name} already engaged a foe this turn.", "paragon.already_engaged")
        if now.threat:
            engage.deny("A threat is waiting for the defender's answer.", "paragon.threat_pending")
        return engage

    def _strike_spec(self, now: _Now) -> ActionSpec:
        """Strike the other side of the actor's exchange: chained up to 5, the first free."""
        actor, ex, opponent = now.actor, now.ex, now.opponent
        kind = ex.get("kind", "melee") if ex else "melee"
        strikes = (ex.get("strikes") or {}).get(str(actor.id), 0) if ex else 0
        skill = self._best_skill(actor, kind)
        strike = ActionSpec(
            id="strike",
            label=f"Strike {opponent.name}" if opponent else "Strike",
            target="enemy",
            reaction=True,
            cost="free (first strike)"
            if strikes == 0
            else f"1 stamina (chained strike {strikes + 1}/{MAX_CHAIN})",
            params=[
                {
                    "id": "skill",
                    "label": "Combat skill",
                    "kind": "choice",
                    "default": skill,
                    "options": [s for s in self._strike_skills(actor) if kind == "melee" or s != "melee"],
                },
                {
                    "id": "weapon",
                    "label": "Weapon",
                    "kind": "choice",
                    "default": "unarmed",
                    "options": [{"id": w, "label": f"{n} ({d}d6)"} for w, (n, d) in WEAPONS.items()],
                },
            ],
            odds={**self._check(actor, skill), "tn": self._defense(opponent, kind)} if opponent else None,
        )
        strike.deny(*now.exchange_gate)
        if ex is None:
            strike.deny(f"{actor.name} is in no exchange: engage a foe first.", "paragon.no_exchange")
        elif now.threat:
            strike.deny(
                "A threat is waiting for the defender's answer (avoid it or take the hit).",
                "paragon.threat_pending",
            )
        elif strikes >= MAX_CHAIN:
            strike.deny(
                f"A chain holds at most {MAX_CHAIN} strikes, the first included.", "paragon.chain_limit"
            )
        elif actor.id in (ex.get("done") or []):
            strike.deny(f"{actor.name}'s action in this exchange is over.", "paragon.action_used")
        elif (
            ex.get("first") not in (None, actor.id)
            and ex["first"] not in (ex.get("done") or [])
            and self._down(now.by[ex["first"]]) == ""
        ):
            strike.deny(self._first_reason(now.by[ex["first"]], actor, ex), "paragon.acts_second")
        elif strikes >= 1:
            self._stamina_spec(strike, actor, 1, "A chained strike", now.pools)
        return strike

    def _end_spec(self, now: _Now) -> ActionSpec:
        end = ActionSpec(
            id="end_action", label="End my action in this exchange (stop chaining)", reaction=True
        )
        end.deny(*now.exchange_gate)
        if now.ex is None or now.actor.id in (now.ex.get("done") or []):
            end.deny(f"{now.actor.name} has no action under way in an exchange.", "paragon.no_exchange")
        elif now.threat:
            end.deny("A threat is waiting for the defender's answer.", "paragon.threat_pending")
        return end

    def _seize_spec(self, now: _Now) -> ActionSpec:
        """Seizing the offensive: either side of an exchange spends Hero Points before its first strike;
        the higher spender acts first (seed, the note on exchanges). Equal spends: the house default."""
        actor, ex = now.actor, now.ex
        tie = seize_tie(now.ctx)
        spec = ActionSpec(
            id="seize_offensive",
            label="Seize the offensive (spend Hero Points to act first)",
            reaction=True,
            cost=f"Hero Points: whoever spends more acts first; {SEIZE_TIES[tie]}{HOUSE_NOTE}",
            params=[
                {
                    "id": "amount",
                    "label": "Hero Points",
                    "kind": "number",
                    "min": 1,
                    "max": max(1, now.pools["heroism"]),
                    "default": 1,
                }
            ],
        )
        spec.deny(*self._gate(actor, now.es, now.current, on_turn=False, surprise_waived=True, down=now.down))
        if ex is None:
            spec.deny(
                f"Hero Points seize the offensive in an exchange, and {actor.name} is in none.",
                "paragon.no_exchange",
            )
        elif ex.get("strikes") or now.threat:
            spec.deny(
                "The exchange is under way: the offensive is seized before its first strike.",
                "paragon.offensive_closed",
            )
        elif now.pools["heroism"] < 1:
            spec.deny(
                f"Hero Points can be expended to seize the offensive, but {actor.name} has none left.",
                "paragon.no_hero_points",
            )
        return spec

    def _threat_specs(self, now: _Now) -> list[ActionSpec]:
        """The defender's answers to a threat: avoid it (1 stamina) or let it hit."""
        actor, threat = now.actor, now.threat
        avoid = ActionSpec(id="avoid", label="Avoid the strike", cost="1 stamina", reaction=True)
        take = ActionSpec(
            id="take_hit", label="Let the strike hit", cost="Health and 1d6 Morale", reaction=True
        )
        if not (threat and threat.get("defender") == actor.id):
            for spec in (avoid, take):
                spec.deny(f"No strike threatens {actor.name} now.", "paragon.no_threat")
        if now.down == "dead":
            avoid.deny(f"{actor.name} is dead.", "paragon.dead")
        elif now.down == "incapacitated":
            avoid.deny("An incapacitated combatant cannot avoid a strike.", "paragon.incapacitated")
        self._stamina_spec(avoid, actor, 1, "Avoiding", now.pools)
        return [avoid, take]

    def _footing_spec(self, now: _Now) -> ActionSpec:
        """Rearward → Forward is free; Forward → Rearward costs 1 stamina or the turn's other actions."""
        to = "forward" if now.footing == "rearward" else "rearward"
        foot = ActionSpec(
            id="footing",
            label=f"Change footing to {to.title()}",
            cost="free"
            if to == "forward" or now.es.get("opening")
            else "1 stamina, or free by forgoing the turn's other actions",
            params=[]
            if to == "forward"
            else [
                {
                    "id": "forgo",
                    "label": "Forgo the turn's other actions instead of 1 stamina",
                    "kind": "flag",
                    "default": False,
                }
            ],
        )
        foot.deny(*now.turn_gate)
        if now.threat:
            foot.deny("A threat is waiting for the defender's answer.", "paragon.threat_pending")
        return foot

    def _intercept_spec(self, now: _Now) -> ActionSpec:
        """A Forward ally of a Rearward foe steps into a melee exchange declared against it."""
        actor, ex, attacker = now.actor, now.es.get("exchange") or {}, now.attacker  # read once declared
        intercept = ActionSpec(
            id="intercept",
            label=f"Intercept {attacker.name}" if attacker else "Intercept",
            cost="1 stamina",
            reaction=True,
        )
        intercept.deny(*now.any_gate)
        if (
            not now.declared
            or attacker is None
            or _side(attacker) == _side(actor)
            or actor.id == ex.get("defender")
        ):
            intercept.deny(
                "Interception answers a melee exchange declared against a Rearward ally.",
                "paragon.no_interception",
            )
        elif now.footing != "forward":
            intercept.deny("Only a combatant in Forward footing can intercept.", "paragon.not_forward")
        self._stamina_spec(intercept, actor, 1, "Interception", now.pools)
        return intercept

    def _evade_spec(self, now: _Now) -> ActionSpec:
        """A Rearward foe evades a melee exchange declared against it (opposed athletics or cavalry)."""
        actor, ex, attacker = now.actor, now.es.get("exchange") or {}, now.attacker  # read once declared
        evasion_skill = max(EVASION_SKILLS, key=lambda s: self._rank(actor, s))
        evade = ActionSpec(
            id="evade",
            label="Evade the melee exchange",
            cost="1 stamina",
            reaction=True,
            params=[
                {
                    "id": "skill",
                    "label": "Roll",
                    "kind": "choice",
                    "options": list(EVASION_SKILLS),
                    "default": evasion_skill,
                }
            ],
        )
        if now.declared and attacker is not None:
            mine = self._check(actor, evasion_skill, extra_dice=1 if now.footing == "rearward" else 0)
            theirs = self._check(attacker, evasion_skill)
            evade.odds = {
                **mine,
                "tn": round(EXPLODING_D12_MEAN + 3.5 * theirs["force"] + 2 * theirs["skill"]),
            }
        evade.deny(*now.any_gate)
        if not now.declared or ex.get("defender") != actor.id:
            evade.deny("Evasion answers a melee exchange declared against you.", "paragon.no_evasion")
        elif ex.get("evaded"):
            evade.deny(f"{actor.name} already tried to evade this exchange.", "paragon.evasion_tried")
        elif now.footing != "rearward":
            evade.deny("Only a combatant in Rearward footing can evade.", "paragon.not_rearward")
        self._stamina_spec(evade, actor, 1, "Evasion", now.pools)
        return evade

    def _retreat_spec(self, now: _Now) -> ActionSpec:
        retreat = ActionSpec(id="retreat", label="Retreat from the battle", cost="the whole turn")
        retreat.deny(*now.turn_gate)
        if now.footing != "rearward":
            retreat.deny("Retreat needs Rearward footing: change footing first.", "paragon.not_rearward")
        elif now.c.get("engaged"):
            retreat.deny("Retreat must be the turn's only action.", "paragon.not_sole_action")
        return retreat

    def _resist_spec(self, now: _Now) -> ActionSpec:
        """Seed: "A combatant may resist incapacitation by expending one Hero Point"."""
        actor = now.actor
        resist = ActionSpec(
            id="resist_incapacitation",
            label="Spend a Hero Point to resist incapacitation",
            cost="1 Hero Point",
            reaction=True,
        )
        if now.down != "incapacitated":
            resist.deny(
                "Dead." if now.down == "dead" else f"{actor.name} is not incapacitated.",
                "paragon.not_incapacitated",
            )
        elif now.pools["heroism"] < 1:
            resist.deny(f"{actor.name} has no Hero Points left.", "paragon.no_hero_points")
        return resist

    def _intent_spec(self, now: _Now) -> ActionSpec:
        """Killing intent, declared while nobody has acted yet."""
        intent = ActionSpec(
            id="killing_intent",
            label="Declare killing intent",
            cost="+1d6 initiative, +5 temporary Morale; radiates a murderous aura",
            reaction=True,
        )
        if now.c.get("killing_intent"):
            intent.deny(f"{now.actor.name} has already declared killing intent.", "paragon.intent_declared")
        return intent

    @staticmethod
    def _first_reason(first: Fighter, actor: Fighter, ex: dict) -> str:
        """Why ``first``, not ``actor``, acts first in the exchange: the words of the rule that decided."""
        if ex.get("first_by") == "hero_points":
            spent = (ex.get("seized") or {}).get(str(first.id), 0)
            return (
                f"{first.name} seized the offensive with {spent} Hero Point{'s' if spent != 1 else ''} and "
                "acts first in this exchange."
            )
        if ex.get("first_by") == "surprise":
            return f"{first.name} took {actor.name} by surprise and acts first in this exchange."
        return f"{first.name} has the higher initiative and acts first in this exchange."

    def _gm_specs(self, actor: Fighter, es: dict) -> list[ActionSpec]:
        pool = {"id": "pool", "label": "Pool", "kind": "choice", "options": list(POOLS), "default": "health"}
        amount = {"id": "amount", "label": "Amount", "kind": "number", "min": 1, "default": 1}
        specs = [
            ActionSpec(
                id="gm_damage", label="Lose points", cost="GM", gm=True, reaction=True, params=[pool, amount]
            ),
            ActionSpec(
                id="gm_restore",
                label="Regain points",
                cost="GM",
                gm=True,
                reaction=True,
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
        return specs

    # ---------------------------------------------------------------- perform

    def _target(self, action: dict, actor: Fighter, fighters: list[Fighter]) -> Fighter:
        """The foe ``action["target"]`` names (the engine's ``target_of``), never the actor itself."""
        target = self.target_of(action, fighters)
        if target.id == actor.id:
            raise CombatRefused("combat.invalid_target", f"{actor.name} cannot engage themselves.")
        return target

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
            return self._gm(aid, action, actor, fighters, es)
        if not spec.allowed:
            raise self.refusal(spec)
        out = getattr(self, "_do_" + aid)(action, actor, fighters, es, roller, ctx)
        if es.get("opening") and aid not in ("killing_intent", "footing"):
            base = out.encounter_state if out.encounter_state is not None else es
            out.encounter_state = {**base, "opening": False}
        return out

    def _spend_stamina(
        self, f: Fighter, state: dict, amount: int, roller: Roller, out: Outcome, why: str
    ) -> dict:
        """Spend stamina through the play-state hook (dropping below 10 and to 0 costs Morale)."""
        have = self._pools(f, state)["stamina"]
        if amount > have:
            raise CombatRefused(
                "paragon.not_enough_stamina", f"{why} costs {amount} stamina but {f.name} has {have}."
            )
        new_state, text = self.play_state_action(
            f, state, {"action": "damage", "pool": "stamina", "amount": amount}, roller
        )
        out.state[f.id] = new_state
        out.log("stamina", f"{why}: {text}", f.id, amount=amount)
        return new_state

    def _state_of(self, f: Fighter, out: Outcome) -> dict:
        return out.state.get(f.id, f.state)

    def _do_engage(self, action, actor, fighters, es, roller, ctx=None) -> Outcome:
        target = self._target(action, actor, fighters)
        kind = action.get("kind", "melee")
        if kind not in ("melee", "ranged"):
            raise CombatRefused("paragon.invalid_exchange", 'An exchange is "melee" or "ranged".')
        c, t = actor.combat or {}, target.combat or {}
        if t.get("retreated"):
            raise CombatRefused("paragon.retreated", f"{target.name} has quit the field.")
        if self._down(target) == "dead":
            raise CombatRefused("paragon.dead", f"{target.name} is already dead.")
        if kind == "melee" and c.get("footing") == "rearward":
            raise CombatRefused(
                "paragon.rearward_ranged_only",
                "From Rearward footing only ranged exchanges can be started: change to Forward "
                "footing (free) to fight in melee.",
            )
        out = Outcome()
        declared = kind == "melee" and t.get("footing") == "rearward"
        if declared:
            self._spend_stamina(actor, actor.state, 1, roller, out, f"Melee against Rearward {target.name}")
        first, first_by = self._first(actor, target, es)
        ex = {
            "attacker": actor.id,
            "defender": target.id,
            "kind": kind,
            "declared": declared,
            "first": first,
            "first_by": first_by,
            "seized": {},
            "strikes": {},
            "done": [],
            "intercepted": None,
        }
        new_c = {**self.combat_numbers(actor), "engaged": True}
        out.combat[actor.id] = new_c
        if kind == "melee" and t.get("retreating"):
            out.combat[target.id] = {**self.combat_numbers(target), "retreating": False}
            out.log("retreat", f"{target.name} is engaged in melee: the retreat fails.", target.id)
        first = ex["first"]
        order = (
            "simultaneously"
            if first is None
            else f"{actor.name if first == actor.id else target.name} acts first"
        )
        text = f"{actor.name} engages {target.name} in {a(kind)} exchange ({order})."
        if declared:
            text += f" {target.name} may evade; Forward allies of theirs may intercept."
        out.log("engage", text, actor.id, target=target.id, exchange=kind, first=first)
        out.encounter_state = {**es, "exchange": ex, "threat": None}
        return out

    @staticmethod
    def _first(
        a: Fighter, b: Fighter, es: dict, seized: dict | None = None, tie: str = "initiative"
    ) -> tuple[int | None, str]:
        """(who acts first in an exchange of attacker ``a`` and defender ``b`` — None: simultaneously —,
        and why: "hero_points", "surprise" or "initiative"). Seed: "a combatant who expends more HP
        than their opponent always gets to act first, regardless of Initiative and surprise
        assaults"; "a combatant initiating an exchange against a surprised foe acts first regardless
        of Initiative"; "the combatant with the higher Initiative acts first". Equal spends: ``tie``."""
        spent_a, spent_b = (seized or {}).get(str(a.id), 0), (seized or {}).get(str(b.id), 0)
        if spent_a != spent_b:
            return (a.id if spent_a > spent_b else b.id), "hero_points"
        if spent_a and tie == "simultaneous":
            return None, "hero_points"
        if es.get("surprise_round") and (b.combat or {}).get("surprised"):
            return a.id, "surprise"
        ia, ib = (a.combat or {}).get("initiative") or 0, (b.combat or {}).get("initiative") or 0
        return (None if ia == ib else a.id if ia > ib else b.id), "initiative"

    def _do_strike(self, action, actor, fighters, es, roller, ctx=None) -> Outcome:
        ex = copy.deepcopy(es["exchange"])
        by = {f.id: f for f in fighters}
        opponent = by[ex["defender"] if ex["attacker"] == actor.id else ex["attacker"]]
        if action.get("target") not in (None, "") and str(action.get("target")) != str(opponent.id):
            raise CombatRefused(
                "paragon.not_in_exchange",
                f"{actor.name} can strike only {opponent.name}, the other side of the exchange.",
            )
        skill = action.get("skill") or self._best_skill(actor, ex["kind"])
        allowed = [s for s in self._strike_skills(actor) if ex["kind"] == "melee" or s != "melee"]
        if skill not in allowed:
            raise CombatRefused(
                "paragon.invalid_skill", f"Strike with {' or '.join(allowed)} in this exchange."
            )
        weapon = action.get("weapon") or "unarmed"
        if weapon not in WEAPONS:
            raise CombatRefused("paragon.invalid_weapon", f"The weapon is one of {', '.join(WEAPONS)}.")
        out = Outcome()
        key = str(actor.id)
        strikes = ex["strikes"].get(key, 0)
        if strikes >= 1:
            self._spend_stamina(actor, actor.state, 1, roller, out, f"Chained strike {strikes + 1}")
        ex["strikes"][key] = strikes + 1
        ex["declared"] = False  # the blow falls: too late to intercept or evade
        name = WEAPONS[weapon][0].lower()
        down = self._down(opponent)
        new_es = {**es, "exchange": ex, "threat": None}
        if down == "dead":
            raise CombatRefused("paragon.dead", f"{opponent.name} is already dead.")
        if down == "incapacitated":
            # Defenceless: a melee blow finishes them; a ranged one needs only TN 10 and cannot be avoided.
            if ex["kind"] == "ranged":
                roll = dice.roll({**self._check(actor, skill), "tn": INCAPACITATED_RANGED_TN}, roller)
                if roll["outcome"] != "pass":
                    out.log(
                        "strike",
                        f"{actor.name} shoots at the defenceless {opponent.name} and misses "
                        f"({roll['text']}).",
                        actor.id,
                        faces=roll["faces"],
                        target=opponent.id,
                    )
                    ex["done"] = sorted(set(ex["done"]) | {actor.id})
                    out.encounter_state = new_es
                    return out
            new_state, text = self.play_state_action(
                opponent, opponent.state, {"action": "set", "pool": "health", "value": 0}
            )
            out.state[opponent.id] = new_state
            out.log(
                "strike",
                f"{actor.name} finishes off the defenceless {opponent.name} ({name}). {text}",
                actor.id,
                target=opponent.id,
            )
            out.encounter_state = {**es, "exchange": None, "threat": None}
            out.log("exchange", "The exchange ends.")
            return out
        tn = self._defense(opponent, ex["kind"])
        roll = dice.roll({**self._check(actor, skill), "tn": tn}, roller)
        n = ex["strikes"][key]
        if roll["outcome"] == "pass":
            new_es["threat"] = {
                "attacker": actor.id,
                "defender": opponent.id,
                "weapon": weapon,
                "total": roll["total"],
                "tn": tn,
            }
            out.log(
                "strike",
                f"{actor.name} strikes at {opponent.name} ({name}, strike {n}/{MAX_CHAIN}): "
                f"{roll['text']}: a threat. {opponent.name} may avoid it (1 stamina) or take the hit.",
                actor.id,
                faces=roll["faces"],
                total=roll["total"],
                tn=tn,
                target=opponent.id,
            )
        else:
            ex["done"] = sorted(set(ex["done"]) | {actor.id})
            out.log(
                "strike",
                f"{actor.name} strikes at {opponent.name} ({name}, strike {n}/{MAX_CHAIN}): "
                f"{roll['text']}: a miss, the chain ends.",
                actor.id,
                faces=roll["faces"],
                total=roll["total"],
                tn=tn,
                target=opponent.id,
            )
            self._maybe_close(ex, new_es, out)
        out.encounter_state = new_es
        return out

    @staticmethod
    def _maybe_close(ex: dict, es: dict, out: Outcome) -> None:
        if {ex["attacker"], ex["defender"]} <= set(ex["done"]):
            es["exchange"] = None
            out.log("exchange", "Both sides have acted: the exchange ends.")

    def _after_threat(self, es: dict, fighters: list[Fighter], out: Outcome) -> dict:
        """The threat is answered: a chain at 5 strikes is over; a fallen side ends the exchange."""
        threat = es["threat"]
        ex = copy.deepcopy(es["exchange"]) if es.get("exchange") else None
        new_es = {**es, "threat": None, "exchange": ex}
        if ex is None:
            return new_es
        if ex["strikes"].get(str(threat["attacker"]), 0) >= MAX_CHAIN:
            ex["done"] = sorted(set(ex["done"]) | {threat["attacker"]})
        by = {f.id: f for f in fighters}
        defender = by[threat["defender"]]
        down = self._down(defender, out.state.get(defender.id))
        if down:
            what = "dead" if down == "dead" else "incapacitated"
            new_es["exchange"] = None
            out.log("exchange", f"{defender.name} is {what}: the exchange ends.")
            if ex.get("intercepted") and defender.id == ex["defender"]:
                attacker = by[ex["attacker"]]
                numbers = out.combat.get(attacker.id, self.combat_numbers(attacker))
                out.combat[attacker.id] = {**numbers, "engaged": False}
                out.log(
                    "intercept",
                    f"{attacker.name} defeated the interceptor and may carry out the declared exchange.",
                    attacker.id,
                )
            return new_es
        self._maybe_close(ex, new_es, out)
        return new_es

    def _do_avoid(self, action, actor, fighters, es, roller, ctx=None) -> Outcome:
        out = Outcome()
        self._spend_stamina(actor, actor.state, 1, roller, out, f"{actor.name} avoids the strike")
        out.encounter_state = self._after_threat(es, fighters, out)
        return out

    def _do_take_hit(self, action, actor, fighters, es, roller, ctx=None) -> Outcome:
        threat = es["threat"]
        attacker = next(f for f in fighters if f.id == threat["attacker"])
        out = Outcome()
        self._hit(attacker, actor, threat.get("weapon", "unarmed"), roller, out)
        out.encounter_state = self._after_threat(es, fighters, out)
        return out

    def _hit(self, attacker: Fighter, defender: Fighter, weapon: str, roller: Roller, out: Outcome) -> None:
        """A confirmed hit: the weapon's d6 off Health, and 1d6 Morale (temporary Morale first)."""
        name, dice = WEAPONS.get(weapon, WEAPONS["unarmed"])
        faces = roller.roll(dice, 6)
        damage = sum(faces)
        state = self._state_of(defender, out)
        state, text = self.play_state_action(
            defender, state, {"action": "damage", "pool": "health", "amount": damage}, roller
        )
        morale = roller.d(6)
        c = {**self.combat_numbers(defender), **out.combat.get(defender.id, {})}
        temp = c.get("temp_morale") or 0
        absorbed = min(temp, morale)
        morale_text = ""
        if absorbed:
            c["temp_morale"] = temp - absorbed
            out.combat[defender.id] = c
            morale_text = f" {absorbed} temporary Morale lost ({c['temp_morale']} left)."
        if morale - absorbed > 0 and self._pools(defender, state)["health"] > 0:
            state, mtext = self.play_state_action(
                defender, state, {"action": "damage", "pool": "morale", "amount": morale - absorbed}, roller
            )
            morale_text += " " + mtext
        out.state[defender.id] = state
        out.log(
            "hit",
            f"{attacker.name} hits {defender.name} ({name.lower()} {dice}d6: "
            f"{'+'.join(map(str, faces))} = {damage}). {text} Morale −{morale}.{morale_text}",
            attacker.id,
            target=defender.id,
            damage=damage,
            morale=morale,
            faces=faces,
        )

    def _do_end_action(self, action, actor, fighters, es, roller, ctx=None) -> Outcome:
        ex = copy.deepcopy(es["exchange"])
        ex["done"] = sorted(set(ex["done"]) | {actor.id})
        out = Outcome()
        out.log("exchange", f"{actor.name} ends their action in the exchange.", actor.id)
        new_es = {**es, "exchange": ex}
        self._maybe_close(ex, new_es, out)
        out.encounter_state = new_es
        return out

    def _do_footing(self, action, actor, fighters, es, roller, ctx=None) -> Outcome:
        c = self.combat_numbers(actor)
        out = Outcome()
        to = "forward" if c.get("footing") == "rearward" else "rearward"
        how = "free"
        if to == "rearward" and not es.get("opening"):
            if action.get("forgo") in (True, "true", "on", "1", 1):
                if c.get("engaged"):
                    raise CombatRefused(
                        "paragon.cannot_forgo",
                        f"{actor.name} has already acted this turn; "
                        "the change to Rearward costs 1 stamina now.",
                    )
                c["forgo"] = True
                how = "forgoing the turn's other actions"
                out.end_turn = True
            else:
                self._spend_stamina(actor, actor.state, 1, roller, out, "Forward → Rearward")
                how = "1 stamina"
        c["footing"] = to
        out.combat[actor.id] = c
        out.log("footing", f"{actor.name} takes the {to.title()} footing ({how}).", actor.id, footing=to)
        return out

    def _do_intercept(self, action, actor, fighters, es, roller, ctx=None) -> Outcome:
        ex = copy.deepcopy(es["exchange"])
        by = {f.id: f for f in fighters}
        attacker, target = by[ex["attacker"]], by[ex["defender"]]
        out = Outcome()
        self._spend_stamina(actor, actor.state, 1, roller, out, f"{actor.name} intercepts")
        # A new exchange with the interceptor: the attacker's Hero Points stay spent on it.
        seized = {k: v for k, v in (ex.get("seized") or {}).items() if k == str(attacker.id)}
        first, first_by = self._first(attacker, actor, es, seized, seize_tie(ctx or self.ctx_of(actor)))
        ex.update(
            defender=actor.id,
            declared=False,
            intercepted=target.id,
            strikes={},
            done=[],
            first=first,
            first_by=first_by,
            seized=seized,
        )
        out.log(
            "intercept",
            f"{actor.name} intercepts {attacker.name} before they reach {target.name}: a melee "
            f"exchange between {attacker.name} and {actor.name}.",
            actor.id,
            target=attacker.id,
        )
        out.encounter_state = {**es, "exchange": ex, "threat": None}
        return out

    def _do_evade(self, action, actor, fighters, es, roller, ctx=None) -> Outcome:
        skill = action.get("skill") or max(EVASION_SKILLS, key=lambda s: self._rank(actor, s))
        if skill not in EVASION_SKILLS:
            raise CombatRefused("paragon.invalid_skill", "Evade with athletics, or cavalry when mounted.")
        ex = copy.deepcopy(es["exchange"])
        attacker = next(f for f in fighters if f.id == ex["attacker"])
        out = Outcome()
        self._spend_stamina(actor, actor.state, 1, roller, out, f"{actor.name} tries to evade")
        extra = 1 if (actor.combat or {}).get("footing") == "rearward" else 0
        for _ in range(dice.MAX_EXPLOSIONS):  # ties are rolled again
            mine = dice.roll(self._check(actor, skill, extra_dice=extra), roller)
            theirs = dice.roll(self._check(attacker, skill), roller)
            if mine["total"] != theirs["total"]:
                break
            out.log(
                "evade",
                f"Tie at {mine['total']}: roll again.",
                actor.id,
                faces=[*mine["faces"], *theirs["faces"]],
            )
        won = mine["total"] > theirs["total"]
        text = (
            f"{actor.name} tries to evade {attacker.name} ({skill}: {mine['text']} against {theirs['text']}): "
            + ("evaded, no melee exchange." if won else "caught, the exchange goes on.")
        )
        out.log(
            "evade",
            text,
            actor.id,
            won=won,
            mine=mine["total"],
            theirs=theirs["total"],
            faces=[*mine["faces"], *theirs["faces"]],
        )
        if won:
            out.encounter_state = {**es, "exchange": None, "threat": None}
        else:
            ex["evaded"] = True
            out.encounter_state = {**es, "exchange": ex}
        return out

    def _do_seize_offensive(self, action, actor, fighters, es, roller, ctx=None) -> Outcome:
        amount = whole_number(action.get("amount", 1))  # a number, or a form field's text
        if amount is None or amount < 1:
            raise CombatRefused("paragon.invalid_amount", "Spend a whole number of Hero Points, 1 or more.")
        have = self._pools(actor)["heroism"]
        if amount > have:
            raise CombatRefused(
                "paragon.no_hero_points",
                f"Seizing the offensive with {amount} Hero Points needs {amount}, but {actor.name} "
                f"has {have}.",
            )
        ex = copy.deepcopy(es["exchange"])
        by = {f.id: f for f in fighters}
        attacker, defender = by[ex["attacker"]], by[ex["defender"]]
        opponent = defender if actor.id == attacker.id else attacker
        new_state, _ = self.play_state_action(
            actor,
            actor.state,
            {"action": "spend_hero_point", "amount": amount, "reason": "seizing the offensive"},
        )
        seized = dict(ex.get("seized") or {})
        seized[str(actor.id)] = seized.get(str(actor.id), 0) + amount
        tie = seize_tie(ctx or self.ctx_of(actor))
        first, first_by = self._first(attacker, defender, es, seized, tie)
        ex.update(seized=seized, first=first, first_by=first_by)
        out = Outcome()
        out.state[actor.id] = new_state
        mine, theirs = seized[str(actor.id)], seized.get(str(opponent.id), 0)
        points = "Hero Point" if amount == 1 else "Hero Points"
        text = (
            f"{actor.name} spends {amount} {points} to seize the offensive ({mine} against {opponent.name}'s "
            f"{theirs}; {new_state['pools']['heroism']} left): "
        )
        if first_by == "hero_points" and first is not None:
            text += f"{by[first].name} acts first in this exchange."
        elif first is None:
            text += f"equal spends, both act simultaneously{HOUSE_NOTE}."
        else:
            why = "surprise" if first_by == "surprise" else "initiative"
            text += f"equal spends cancel out, and by {why} {by[first].name} acts first{HOUSE_NOTE}."
        out.log("seize_offensive", text, actor.id, amount=amount, first=first, target=opponent.id)
        out.encounter_state = {**es, "exchange": ex}
        return out

    def _do_retreat(self, action, actor, fighters, es, roller, ctx=None) -> Outcome:
        out = Outcome(end_turn=True)
        out.combat[actor.id] = {**self.combat_numbers(actor), "retreating": True}
        out.log(
            "retreat",
            f"{actor.name} retreats: unless engaged in melee, they quit the field on their next turn.",
            actor.id,
        )
        return out

    def _do_resist_incapacitation(self, action, actor, fighters, es, roller, ctx=None) -> Outcome:
        out = Outcome()
        new_state, text = self.play_state_action(actor, actor.state, {"action": "resist_incapacitation"})
        out.state[actor.id] = new_state
        out.log("hero_point", text, actor.id)
        return out

    def _do_killing_intent(self, action, actor, fighters, es, roller, ctx=None) -> Outcome:
        out = Outcome()
        c = self.combat_numbers(actor)
        bonus = roller.d(6)
        c.update(
            killing_intent=True,
            temp_morale=KILLING_INTENT_MORALE,
            initiative=(c.get("initiative") or 0) + bonus,
            initiative_text=f"{c.get('initiative_text', '')} + killing intent d6 {bonus}".strip(" +"),
        )
        out.combat[actor.id] = c
        combat = {f.id: (c if f.id == actor.id else (f.combat or {})) for f in fighters}
        out.order = self._sorted(fighters, combat)
        out.log(
            "killing_intent",
            f"{actor.name} declares killing intent: initiative +{bonus} = {c['initiative']}, "
            f"+{KILLING_INTENT_MORALE} temporary Morale.",
            actor.id,
            bonus=bonus,
            faces=[bonus],
        )
        return out

    def _gm(self, aid: str, action: dict, actor: Fighter, fighters: list[Fighter], es: dict) -> Outcome:
        out = Outcome()
        if aid in ("gm_damage", "gm_restore"):
            amount = whole_number(action.get("amount"))
            new_state, text = self.play_state_action(
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
            out.combat[actor.id] = {**self.combat_numbers(actor), "surprised": surprised}
            others = any((f.combat or {}).get("surprised") for f in fighters if f.id != actor.id)
            out.encounter_state = {**es, "surprise_round": surprised or others}
            out.log(
                "surprise", f"GM: {actor.name} is {'surprised' if surprised else 'not surprised'}.", actor.id
            )
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
