"""What every module of Paragon's combat shares: the house readings, the weapons, and ``_Now``
(what one fighter's action specs read)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from rulesets.engine.combat import Fighter
from rulesets.engine.context import Context

if TYPE_CHECKING:
    from .rules import ParagonCombat


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
