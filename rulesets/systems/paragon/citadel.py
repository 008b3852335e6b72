"""The citadel phase (RULES.md W9; seed "PHASES OF THE GAME"): "Players have to make decisions on what
sort of activities their characters spend their time on during a citadel phase … the game master may
allow 1-3 activities to be selected by each player character. The same activity may be selected more
than once during the phase … PCs may be limited to a maximum of a single training activity".

The activities are ``content/activities.json`` (house defaults: the seed lists them and gives no
numbers), each with what it does in numbers:

- ``award``: points to award ({currency: n}), booked as ledger rows when the GM approves;
- ``restore``: pools regained (or lost, when negative) up to their maximum; a pool locked at 0 (bodily,
  social or spiritual death) stays locked;
- ``cleanse``: Corruption lost;
- ``roll``: ``{"skills": [ids], "tn", "pass"?: {pool: n}, "fail"?: {pool: n}}``: the character's best of
  those skills (the highest mean) rolled by the server against the TN, and what a pass or a failure does;
- ``limit_setting``: the house rule that caps how often one request may hold it (training's
  ``training_per_phase``, house default 1).

The engine's hooks (engine/activities.py) call ``check`` and ``apply``; the GM approves the request
through the advancement queue.
"""

from __future__ import annotations

from rulesets.engine.activities import Downtime
from rulesets.engine.context import Context
from rulesets.engine.dice import Roller
from rulesets.engine.fields import get_as, is_int
from rulesets.engine.pointer import ptr
from rulesets.engine.report import Issue, Report

from .checks import ODDS_LIMIT, one_side
from .state import LOCKED_AT_ZERO, POOLS, maxima, normal


def check(picks: list, ctx: Context) -> list[Issue]:
    """The limits of the activities themselves (training once a phase, by default)."""
    catalogue = ctx.catalogue.get("activities", {})
    issues = []
    seen: dict[str, int] = {}
    for i, pick in enumerate(picks):
        entry = catalogue.get(pick) if isinstance(pick, str) else None
        if entry is None:
            continue
        seen[pick] = seen.get(pick, 0) + 1
        setting = entry.get("limit_setting")
        limit = ctx.settings.get(setting) if isinstance(setting, str) else None
        if is_int(limit) and seen[pick] > limit:
            issues.append(
                Issue(
                    "paragon.activity_limit",
                    ptr("activities", i),
                    f"{entry.get('name')} may be picked at most {limit} time{'s' if limit != 1 else ''} a phase.",
                )
            )
    return issues


def _best_skill(skills: list[str], build: dict, ctx: Context) -> tuple[str, int, int]:
    """The skill of ``skills`` with the highest mean roll for ``build``: (id, force dice, rank)."""
    forces = get_as(build, "forces", dict, {})
    ranks = get_as(build, "skills", dict, {})
    catalogue = ctx.catalogue.get("skills", {})
    best: tuple[float, str, int, int] | None = None
    for skill in skills:
        force = forces.get((catalogue.get(skill) or {}).get("force"), 0)
        rank = ranks.get(skill, 0)
        force = min(force, ODDS_LIMIT) if is_int(force) and force > 0 else 0
        rank = min(rank, ODDS_LIMIT) if is_int(rank) and rank > 0 else 0
        mean = 3.5 * force + 2 * rank
        if best is None or mean > best[0]:
            best = (mean, skill, force, rank)
    assert best is not None
    return best[1], best[2], best[3]


def _change(st: dict, top: dict[str, int], pool: str, amount: int) -> str:
    """Move ``pool`` by ``amount`` within 0..maximum; a pool locked at 0 does not move. Its words."""
    pools = st["pools"]
    label = pool.title()
    before = pools[pool]
    if pool in LOCKED_AT_ZERO and before == 0:
        return f"{label} stays locked at 0"
    pools[pool] = max(0, min(top.get(pool, 0), before + amount))
    return f"{label} {before} → {pools[pool]}"


def apply(
    state: dict, build: dict, report: Report, picks: list[str], roller: Roller, ctx: Context
) -> Downtime:
    """Each activity in the order picked: its awards, its recovery, its roll (the server's dice)."""
    st = normal(state, build, report, ctx)
    st["pools"] = dict(st["pools"])
    top = maxima(build, report, ctx)
    catalogue = ctx.catalogue.get("activities", {})
    skill_names = {k: v.get("name", k) for k, v in ctx.catalogue.get("skills", {}).items()}
    awards: dict[str, int] = {}
    lines = []
    for pick in picks:
        entry = catalogue[pick]
        parts: list[str] = []
        for currency, amount in (entry.get("award") or {}).items():
            if is_int(amount) and amount > 0:
                awards[currency] = awards.get(currency, 0) + amount
                parts.append(f"{amount} {currency.replace('_', ' ')}")
        for pool, amount in (entry.get("restore") or {}).items():
            if pool in POOLS and is_int(amount):
                parts.append(_change(st, top, pool, amount))
        cleanse = entry.get("cleanse")
        if is_int(cleanse) and cleanse > 0:
            before = st["corruption"]
            st["corruption"] = max(0, before - cleanse)
            parts.append(f"Corruption {before} → {st['corruption']}")
        roll = entry.get("roll")
        if isinstance(roll, dict) and roll.get("skills"):
            skill, force, rank = _best_skill(list(roll["skills"]), build, ctx)
            _, _, total, text = one_side(force, rank, roller)
            tn = roll.get("tn", 12)
            passed = total >= tn
            parts.append(f"{skill_names.get(skill, skill)} {text} vs TN {tn}: {'pass' if passed else 'fail'}")
            for pool, amount in (roll.get("pass" if passed else "fail") or {}).items():
                if pool in POOLS and is_int(amount):
                    parts.append(_change(st, top, pool, amount))
        lines.append(f"{entry.get('name')}: {'; '.join(parts) or 'the GM tells what comes of it'}.")
    if st["pools"]["health"] * 2 >= top.get("health", 0):
        st["incapacitation_resisted"] = False
    return Downtime(st, awards, lines)
