"""Paragon's check rolled for real (seed: "a d12 that explodes on 12 + force d6 + 2×skill"), and the
roll in players' words: what ``dice.py`` (odds, rolls, roll buttons) and ``powers.py`` (a power's
roll, from the play state) share, importing neither."""

from __future__ import annotations

from functools import lru_cache

from rulesets.engine.dice import Roller

MAX_EXPLOSIONS = 200  # a real roll stops long before; a broken roller must not loop forever
ODDS_LIMIT = 20  # force dice and skill ranks an odds request may ask for


@lru_cache(maxsize=1024)
def check_text(force: int, rank: int) -> str:
    """The roll as players write it: ``d12!+3d6+4`` (the d12 explodes on 12)."""
    text = "d12!"
    if force:
        text += f"+{force}d6"
    if rank:
        text += f"+{2 * rank}"
    return text


def one_side(force: int, skill: int, roller: Roller) -> tuple[list[int], list[int], int, str]:
    """One side's check rolled: (the d12s, the d6s, the total, the roll in words)."""
    d12 = [roller.d(12)]
    while d12[-1] == 12 and len(d12) < MAX_EXPLOSIONS:
        d12.append(roller.d(12))
    d6 = roller.roll(force, 6)
    total = sum(d12) + sum(d6) + 2 * skill
    text = check_text(force, skill) + ": " + "+".join(map(str, d12))
    if d6:
        text += " | " + ",".join(map(str, d6))
    if skill:
        text += f" +{2 * skill}"
    return d12, d6, total, text + f" = {total}"
