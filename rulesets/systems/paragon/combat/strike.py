"""Strike: the combat skill against the foe's Defense, chained up to five.

One action of Paragon's combat (actions.py lists them). ``spec`` says whether and why (not) the
actor may take it now; ``perform`` takes it."""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING

from rulesets.engine.combat import ActionSpec, CombatRefused, Outcome

from .. import dice
from .common import INCAPACITATED_RANGED_TN, chained_strike_stamina, max_chain, weapons
from .ready import drawn

if TYPE_CHECKING:
    from .core import ParagonCore, _Now


def spec(rules: ParagonCore, now: _Now) -> ActionSpec:
    """Strike the other side of the actor's exchange: chained up to 5, the first free."""
    actor, ex, opponent = now.actor, now.ex, now.opponent
    kind = ex.get("kind", "melee") if ex else "melee"
    strikes = (ex.get("strikes") or {}).get(str(actor.id), 0) if ex else 0
    skill = rules._best_skill(actor, kind)
    chain, stamina, table = max_chain(now.ctx), chained_strike_stamina(now.ctx), weapons(now.ctx)
    strike = ActionSpec(
        id="strike",
        label=f"Strike {opponent.name}" if opponent else "Strike",
        target="enemy",
        reaction=True,
        cost=f"free (first strike of up to {chain}; each after it {stamina} stamina)"
        if strikes == 0
        else f"{stamina} stamina (chained strike {strikes + 1}/{chain})",
        params=[
            {
                "id": "skill",
                "label": "Combat skill",
                "kind": "choice",
                "default": skill,
                "options": [s for s in rules._strike_skills(actor) if kind == "melee" or s != "melee"],
            },
            {
                "id": "weapon",
                "label": "Weapon",
                "kind": "choice",
                "default": "unarmed",
                "options": [{"id": w, "label": f"{n} ({d}d6)"} for w, (n, d) in table.items()],
            },
        ],
        odds=rules._own(actor, {**rules._check(actor, skill), "tn": rules._defense(opponent, kind)}, skill)
        if opponent
        else None,
    )
    strike.deny(*now.exchange_gate)
    if ex is None:
        strike.deny(f"{actor.name} is in no exchange: engage a foe first.", "paragon.no_exchange")
    elif now.threat:
        strike.deny(
            "A threat is waiting for the defender's answer (avoid it or take the hit).",
            "paragon.threat_pending",
        )
    elif strikes >= chain:
        strike.deny(f"A chain holds at most {chain} strikes, the first included.", "paragon.chain_limit")
    elif actor.id in (ex.get("done") or []):
        strike.deny(f"{actor.name}'s action in this exchange is over.", "paragon.action_used")
    elif (
        ex.get("first") not in (None, actor.id)
        and ex["first"] not in (ex.get("done") or [])
        and rules._down(now.by[ex["first"]]) == ""
    ):
        strike.deny(rules._first_reason(now.by[ex["first"]], actor, ex), "paragon.acts_second")
    elif strikes >= 1:
        rules._stamina_spec(strike, actor, stamina, "A chained strike", now.pools)
    return strike


def perform(rules: ParagonCore, action, actor, fighters, es, roller, ctx=None) -> Outcome:
    ex = copy.deepcopy(es["exchange"])
    by = {f.id: f for f in fighters}
    opponent = by[ex["defender"] if ex["attacker"] == actor.id else ex["attacker"]]
    if action.get("target") not in (None, "") and str(action.get("target")) != str(opponent.id):
        raise CombatRefused(
            "paragon.not_in_exchange",
            f"{actor.name} can strike only {opponent.name}, the other side of the exchange.",
        )
    skill = action.get("skill") or rules._best_skill(actor, ex["kind"])
    allowed = [s for s in rules._strike_skills(actor) if ex["kind"] == "melee" or s != "melee"]
    if skill not in allowed:
        raise CombatRefused("paragon.invalid_skill", f"Strike with {' or '.join(allowed)} in this exchange.")
    c = rules.ctx_of(actor, ctx)
    table, chain = weapons(c), max_chain(c)
    weapon = action.get("weapon") or "unarmed"
    if weapon not in table:
        raise CombatRefused(
            "paragon.invalid_weapon", f"The weapon is one of {', '.join(n for n, _ in table.values())}."
        )
    if weapon != "unarmed" and not drawn(actor):
        raise CombatRefused(
            "paragon.weapon_sheathed",
            f"{actor.name}'s weapon is sheathed: draw it first (free, once a round), or strike unarmed.",
        )
    out = Outcome()
    key = str(actor.id)
    strikes = ex["strikes"].get(key, 0)
    if strikes >= 1 and chained_strike_stamina(c):
        rules._spend_stamina(
            actor, actor.state, chained_strike_stamina(c), roller, out, f"Chained strike {strikes + 1}"
        )
    ex["strikes"][key] = strikes + 1
    ex["declared"] = False  # the blow falls: too late to intercept or evade
    name = table[weapon][0].lower()
    down = rules._down(opponent)
    new_es = {**es, "exchange": ex, "threat": None}
    if down == "dead":
        raise CombatRefused("paragon.dead", f"{opponent.name} is already dead.")
    if down == "incapacitated":
        # Defenceless: a melee blow finishes them; a ranged one needs only TN 10 and cannot be avoided.
        if ex["kind"] == "ranged":
            check = {**rules._check(actor, skill), "tn": INCAPACITATED_RANGED_TN}
            roll = dice.roll(rules._own(actor, check, skill), roller)
            if roll["outcome"] != "pass":
                out.log(
                    "strike",
                    f"{actor.name} shoots at the defenceless {opponent.name} and misses ({roll['text']}).",
                    actor.id,
                    faces=roll["faces"],
                    target=opponent.id,
                )
                ex["done"] = sorted(set(ex["done"]) | {actor.id})
                out.encounter_state = new_es
                return out
        new_state, text = rules.play_state_action(
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
    tn = rules._defense(opponent, ex["kind"])
    # The check as the action's odds showed it (before a chained strike's Stamina is spent).
    roll = dice.roll(rules._own(actor, {**rules._check(actor, skill), "tn": tn}, skill), roller)
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
            f"{actor.name} strikes at {opponent.name} ({name}, strike {n}/{chain}): "
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
            f"{actor.name} strikes at {opponent.name} ({name}, strike {n}/{chain}): "
            f"{roll['text']}: a miss, the chain ends.",
            actor.id,
            faces=roll["faces"],
            total=roll["total"],
            tn=tn,
            target=opponent.id,
        )
        rules._maybe_close(ex, new_es, out)
    out.encounter_state = new_es
    return out
