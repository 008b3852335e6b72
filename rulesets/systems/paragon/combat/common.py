"""What every module of Paragon's combat shares: the house readings and the weapons."""

from __future__ import annotations

from rulesets.engine.combat import Fighter
from rulesets.engine.context import Context

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


def surprised_start_sheathed(ctx: Context | None) -> bool:
    """House default ``surprised_start_sheathed`` (RULES.md W7: the surprised "may be forced to begin
    the battle without readied weapons"): true unless the campaign says false."""
    return ctx is None or ctx.settings.get("surprised_start_sheathed", True) is not False
