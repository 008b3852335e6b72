"""What every module of Paragon's combat shares: the house readings and the weapons."""

from __future__ import annotations

from typing import Any

from rulesets.engine.combat import Fighter
from rulesets.engine.context import Context
from rulesets.engine.fields import is_int

STRIKE_SKILLS = ("melee", "missile", "triarmatura")
EVASION_SKILLS = ("athletics", "cavalry")
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


# ------------------------------------------------------------- the house defaults of violence (W21)
# The weapon table, the chain and killing intent's Morale are house defaults in content/house.json:
# a campaign overrides them (and adds weapons) as house rules; the fight reads them here.


def weapons(ctx: Context | None) -> dict[str, tuple[str, int]]:
    """The weapon table: id → (name, damage d6 up to 20), house rule ``weapons`` over the house
    default; a malformed entry keeps the default's, or is left out when it is a new weapon (the house
    rules page says why)."""
    table = ctx.settings.get("weapons") if ctx is not None else None
    default = ((ctx.tables.get("house") or {}).get("weapons") or {}) if ctx is not None else {}
    out: dict[str, tuple[str, int]] = {}
    for wid, entry in table.items() if isinstance(table, dict) else ():
        for found in (entry, default.get(wid)):  # a malformed override keeps the house default
            if isinstance(found, dict) and _weapon_ok(found):
                out[wid] = (found["name"], found["dice"])
                break
    return out or {"unarmed": ("Unarmed strike", 1)}


def _weapon_ok(entry: Any) -> bool:
    """Whether a weapon entry has a name and 0 to 20 damage d6 (``character.check_settings`` says why not)."""
    if not isinstance(entry, dict) or not isinstance(entry.get("name"), str) or not entry["name"].strip():
        return False
    dice = entry.get("dice")
    return is_int(dice) and 0 <= dice <= 20


def _setting(ctx: Context | None, key: str, default: int, low: int) -> int:
    value = ctx.settings.get(key, default) if ctx is not None else default
    return value if is_int(value) and value >= low else default


def max_chain(ctx: Context | None) -> int:
    """House default ``max_chain`` (the rulebook's 5): the most strikes in one chain."""
    return _setting(ctx, "max_chain", 5, 1)


def chained_strike_stamina(ctx: Context | None) -> int:
    """House default ``chained_strike_stamina`` (the rulebook's 1): each strike after the first."""
    return _setting(ctx, "chained_strike_stamina", 1, 0)


def killing_intent_morale(ctx: Context | None) -> int:
    """House default ``killing_intent_morale`` (the rulebook's 5 temporary Morale)."""
    return _setting(ctx, "killing_intent_morale", 5, 0)
