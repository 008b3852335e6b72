"""Paragon RPG (seed 001, RULES.md section 2): checks, prices and derives a build,
answers the odds of a check, and keeps the play state.

Build document (RULES.md §2)::

    {"ruleset": "paragon", "name": "Aren", "budget": {"skill_points": 20},
     "power_level": 1,                      # 1–5, null (or left out) = an ordinary person
     "forces": {"fire": 2, "wind": 3, "thunder": 1, "light": 1, "shadow": 1},
     "path": {"name": "Blade of the Eastern Gate", "grants": {"triarmatura": 1}},   # optional
     "skills": {"melee": 2, "triarmatura": 2},  # sparse: left out = rank 0
     "resources": {"health": 20, ...}}          # maxima; left out = house defaults

Currencies: ``force_points`` (budget = the power level table's total, never the
document's) and ``skill_points`` (the document's budget, or the house default).

Codes (besides the common ones): ``forces.unspent`` (warning),
``paragon.grant_exceeds_rank``, ``paragon.triarmatura_cap``,
``paragon.requires_power_level``, ``paragon.force_budget_ignored`` (warning: a
document that sets its own force point budget). Advancement (``previous`` given):
``paragon.power_level_changed`` (warning for the GM: a power level rises only by
the ascension ritual the GM approves), ``paragon.below_previous`` (error: a power
level, force rank or skill rank lower than the approved build's),
``paragon.resource_lowered`` (warning: a lower maximum, e.g. a long-term Morale
decrement, is shown to the GM, never applied silently), ``paragon.path_changed``
(warning: the GM approves paths).

Play state (never priced)::

    {"pools": {"health": 20, "face": 20, "purity": 20, "stamina": 20,
               "heroism": 5, "dynama": 30, "morale": 12},   # current points, 0..maximum
     "corruption": 0,                  # no maximum; above Purity calls for resistance checks
     "incapacitation_resisted": false} # a Hero Point (or first aid) lifted the incapacitation

Hero Points are the current ``heroism`` pool. Conditions are read from the values:
health below half its maximum → incapacitated (unless resisted), 0 → bodily death;
face below 10 → disgraced, 0 → pariah (locked); purity 0 → spiritual death (locked;
with corruption > 0, fallen to the Scourge); stamina below 10 → winded, 0 → tired;
dynama 0 → paralysed; morale 0 → morale failure; corruption > purity → resistance
checks. A pool at 0 that is locked (health, face, purity) refuses every change.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from rulesets.engine.base import Context, OddsError, StateError, action_amount, is_int, name_key
from rulesets.engine.dice import Roller, exploding, sum_dice
from rulesets.engine.pointer import ptr
from rulesets.engine.report import Issue, Report

FORCES = ("fire", "wind", "thunder", "light", "shadow")
POOLS = ("health", "face", "purity", "stamina", "heroism", "dynama", "morale")
# Pools that, once at 0, stay there (bodily, social and spiritual death).
LOCKED_AT_ZERO = ("health", "face", "purity")
MAX_EXPLOSIONS = 200  # a real roll stops long before; a broken roller must not loop forever
ODDS_LIMIT = 20  # force dice and skill ranks an odds request may ask for


def rank_cost(rank: int) -> int:
    """Forces and skills alike: rank r costs 0+1+…+r = r(r+1)/2 points in total."""
    return rank * (rank + 1) // 2


@lru_cache(maxsize=1024)
def check_text(force: int, rank: int) -> str:
    """The roll as players write it: ``d12!+3d6+4`` (the d12 explodes on 12)."""
    text = "d12!"
    if force:
        text += f"+{force}d6"
    if rank:
        text += f"+{2 * rank}"
    return text


def power_level_row(ctx: Context, level: Any) -> dict | None:
    """The power level table's row for ``level`` (None → the ordinary person's row)."""
    table = ctx.settings.get("power_levels", {})
    row = table.get("none" if level is None else str(level))
    if isinstance(row, dict) and is_int(row.get("force_points")) and is_int(row.get("max_rank")):
        return row
    return None


def _levels_of(ctx: Context) -> tuple[list[int], frozenset[int]]:
    """(sorted power levels, the same as a set) of the context's power level table, once per
    context (``Context.memo``)."""
    def levels() -> tuple[list[int], frozenset[int]]:
        found = sorted(int(k) for k in ctx.settings.get("power_levels", {}) if k.isdigit())
        return found, frozenset(found)

    return ctx.memo("paragon.power_levels", levels)


def _absolute_max_rank(ctx: Context) -> int:
    """The highest max_rank of any row of the power level table (5 when none), once per context."""
    def highest() -> int:
        table = ctx.settings.get("power_levels", {})
        return max((r["max_rank"] for r in table.values() if isinstance(r, dict) and is_int(r.get("max_rank"))),
                   default=5)

    return ctx.memo("paragon.absolute_max_rank", highest)


def power_levels(ctx: Context) -> list[int]:
    return list(_levels_of(ctx)[0])


# ------------------------------------------------------------------ the build


def read_power_level(build: dict, report: Report, ctx: Context) -> tuple[bool, int | None]:
    """(ok, level): level None is an ordinary person; ok False when the value is unusable."""
    level = build.get("power_level")
    if level is None:
        return True, None
    if not is_int(level) or level not in _levels_of(ctx)[1]:
        levels = power_levels(ctx)
        report.error(
            "build.malformed",
            "/power_level",
            f"Power level must be one of {', '.join(map(str, levels))}, or null for an ordinary person "
            f"(not {level!r}).",
        )
        return False, None
    return True, level


def without_force_budget(build: dict, report: Report) -> dict:
    """The document with any ``budget.force_points`` taken out (and a warning): force
    points come from the power level table, never from the document."""
    raw = build.get("budget")
    if isinstance(raw, dict) and "force_points" in raw:
        report.warn(
            "paragon.force_budget_ignored",
            "/budget/force_points",
            "Force points come from the power level table, not from the budget; remove force_points "
            "from the budget (the value is ignored).",
        )
        return {**build, "budget": {k: v for k, v in raw.items() if k != "force_points"}}
    return build


def force_budget(build: dict, ctx: Context) -> int | None:
    """The force point total of the build's power level, None when the level is unusable."""
    level = build.get("power_level")
    # read_power_level without a report (its error is the check's to report, not the budget's)
    ok = level is None or (is_int(level) and level in _levels_of(ctx)[1])
    row = power_level_row(ctx, level) if ok else None
    return row["force_points"] if row is not None else None


def _skill_index(skills: dict[str, dict]) -> dict[str, str]:
    index: dict[str, str] = {}
    for skill_id, entry in skills.items():
        index[name_key(skill_id)] = skill_id
        if isinstance(entry.get("name"), str):
            index.setdefault(name_key(entry["name"]), skill_id)
    return index


def skill_index(ctx: Context) -> dict[str, str]:
    """Skill names typed by people ("Forbidden Lore") find their id (RULES.md: ids and names
    compare with everything but letters and digits removed). Once per context."""
    return ctx.memo("paragon.skill_index", lambda: _skill_index(ctx.catalogue.get("skills", {})))


def check(build: dict, report: Report, ctx: Context) -> None:
    level_ok, level = read_power_level(build, report, ctx)
    row = power_level_row(ctx, level) if level_ok else None
    paragon = level_ok and level is not None
    if row is not None:
        report.derived["force_points_total"] = row["force_points"]
        report.derived["max_force_rank"] = row["max_rank"]

    forces = _check_forces(build, report, ctx, row)
    skills = _check_skills(build, report, ctx)
    _check_triarmatura(report, skills, level_ok, level)
    resources = _check_resources(build, report, ctx, level_ok, level)

    # Derived: each key only when all of its inputs are sound.
    if "fire" in forces and "melee" in skills:
        report.derived["defense_melee"] = 10 + 3 * forces["fire"] + 2 * skills["melee"]
    if "wind" in forces and "missile" in skills:
        report.derived["defense_missile"] = 10 + 3 * forces["wind"] + 2 * skills["missile"]
    if paragon and "wind" in forces and "triarmatura" in skills:
        report.derived["defense_triarmatura"] = 10 + 3 * forces["wind"] + 2 * skills["triarmatura"]
    applicable = ["defense_melee", "defense_missile"] + (["defense_triarmatura"] if paragon else [])
    if level_ok and all(key in report.derived for key in applicable):
        report.derived["defense"] = max(report.derived[key] for key in applicable)
    checks = {}
    for skill_id, entry in ctx.catalogue.get("skills", {}).items():
        force = entry.get("force")
        if force in forces and skill_id in skills:
            checks[skill_id] = check_text(forces[force], skills[skill_id])
    if checks:
        report.derived["checks"] = checks
    if resources is not None:
        report.derived["resources"] = resources


def _check_forces(build: dict, report: Report, ctx: Context, row: dict | None) -> dict[str, int]:
    """Validate and price the five force attributes; returns the sound ranks."""
    good: dict[str, int] = {}
    raw = build.get("forces")
    if raw is None:
        report.error(
            "build.malformed",
            "/forces",
            'Give the five force attributes, e.g. "forces": {"fire": 1, "wind": 3, "thunder": 1, '
            '"light": 1, "shadow": 1}.',
        )
        return good
    if not isinstance(raw, dict):
        report.error("build.malformed", "/forces", "Forces must be an object of force → rank (0–5).")
        return good
    known = ctx.catalogue.get("forces", {})
    max_rank = row["max_rank"] if row is not None else _absolute_max_rank(ctx)
    for force, rank in raw.items():
        path = ptr("forces", force)
        if force not in known:
            report.error(
                "attribute.unknown",
                path,
                f"Paragon has no force {force!r}; the five forces are {', '.join(FORCES)}. Remove it or "
                "rename it to one of them.",
            )
            continue
        label = known[force].get("name", force)
        if not is_int(rank):
            report.error("build.malformed", path, f"{label} must be a whole number from 0 to {max_rank}.")
            continue
        if rank < 0:
            report.error("attribute.below_minimum", path, f"{label} cannot be below 0; set it to 0 or more.")
            continue
        # Out of range is still priced (RULES.md): spent and budget.exceeded stay true beside the error.
        report.charge("force_points", rank_cost(rank), path=path, label=f"{label} {rank}")
        if rank > max_rank:
            if row is not None:
                report.error(
                    "attribute.above_maximum",
                    path,
                    f"{label} {rank} is above the maximum force rank {max_rank} of this power level; lower "
                    f"it to {max_rank} or raise the power level (with the GM's approval).",
                )
            else:
                report.error("attribute.above_maximum", path, f"{label} cannot be above {max_rank}.")
            continue
        good[force] = rank
    for force in known:
        if force not in raw:
            report.error(
                "attribute.missing",
                ptr("forces", force),
                f"{known[force].get('name', force)} is missing; give it a rank (0 if the force is absent "
                "in this character).",
            )
    if row is not None and len(good) == len(known):
        spent = report.spent.get("force_points", 0)
        if spent < row["force_points"]:
            left = row["force_points"] - spent
            report.warn(
                "forces.unspent",
                "/forces",
                f"{left} force point{'s' if left != 1 else ''} of {row['force_points']} unspent: force ranks "
                "are set at creation and when the power level rises, so spend them now.",
            )
    return good


def _check_skills(build: dict, report: Report, ctx: Context) -> dict[str, int]:
    """Validate and price the skills net of the path's free grants; returns the sound
    final ranks of every catalogue skill (0 when left out)."""
    catalogue = ctx.catalogue.get("skills", {})
    cap = ctx.settings.get("skill_rank_max", 5)
    index = skill_index(ctx)
    final: dict[str, int] = {}
    broken: set[str] = set()
    over: set[str] = set()  # ranks above the cap: priced, never derived from
    where: dict[str, str] = {}  # skill id → the path of its rank in the document

    raw = build.get("skills", {})
    if raw is None:
        raw = {}
    if not isinstance(raw, dict):
        report.error("build.malformed", "/skills", 'Skills must be an object of skill → rank, e.g. {"melee": 2}.')
        raw = {}
        broken.update(catalogue)
    for key, rank in raw.items():
        path = ptr("skills", key)
        skill_id = key if key in catalogue else index.get(name_key(key))
        if skill_id is None:
            report.error(
                "skill.unknown",
                path,
                f"There is no skill {key!r} in Paragon or this campaign's homebrew; check the spelling or "
                "remove it.",
            )
            continue
        if skill_id in where:
            report.error(
                "skill.duplicate",
                path,
                f"{catalogue[skill_id]['name']} is listed twice (also at {where[skill_id]}); keep one entry.",
            )
            continue
        where[skill_id] = path
        label = catalogue[skill_id].get("name", skill_id)
        if not is_int(rank) or rank < 0:
            report.error("build.malformed", path, f"{label} must be a whole number of ranks from 0 to {cap}.")
            broken.add(skill_id)
            continue
        if rank > cap:
            report.error(
                "skill.above_maximum",
                path,
                f"{label} {rank} is above the highest skill rank, {cap}; lower it to {cap}.",
            )
            over.add(skill_id)  # still priced below (RULES.md), but no sound rank to derive from
        final[skill_id] = rank

    grants = _read_grants(build, report, ctx, index, cap)
    for skill_id in catalogue:
        if skill_id in broken:
            continue
        rank = final.get(skill_id, 0)
        granted = grants.get(skill_id, 0)
        if not rank and not granted:
            final[skill_id] = 0
            continue
        label = catalogue[skill_id].get("name", skill_id)
        if granted > rank:
            report.error(
                "paragon.grant_exceeds_rank",
                ptr("path", "grants", skill_id),
                f"The path grants {label} {granted} but the character has {label} {rank}; raise the skill "
                f"to at least {granted} (the granted ranks are free).",
            )
            broken.add(skill_id)
            continue
        final.setdefault(skill_id, 0)
        cost = rank_cost(rank) - rank_cost(granted)
        if cost:
            suffix = f" ({granted} from the path)" if granted else ""
            report.charge("skill_points", cost, path=where.get(skill_id) or ptr("skills", skill_id),
                          label=f"{label} {rank}{suffix}")
    report.spent.setdefault("skill_points", 0)
    return {k: v for k, v in final.items() if k not in broken and k not in over}


def _read_grants(build: dict, report: Report, ctx: Context, index: dict[str, str], cap: int) -> dict[str, int]:
    path_doc = build.get("path")
    if path_doc is None:
        return {}
    if not isinstance(path_doc, dict):
        report.error("build.malformed", "/path", 'The path must be an object: {"name": …, "grants": {skill: rank}}.')
        return {}
    name = path_doc.get("name")
    if name is not None and not isinstance(name, str):
        report.error("build.malformed", "/path/name", "The path's name must be text.")
    raw = path_doc.get("grants", {})
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        report.error("build.malformed", "/path/grants", "The path's grants must be an object of skill → free ranks.")
        return {}
    catalogue = ctx.catalogue.get("skills", {})
    grants: dict[str, int] = {}
    for key, rank in raw.items():
        path = ptr("path", "grants", key)
        skill_id = key if key in catalogue else index.get(name_key(key))
        if skill_id is None:
            report.error("skill.unknown", path, f"The path grants {key!r}, which is not a Paragon skill; fix or "
                                                "remove the grant.")
            continue
        if skill_id in grants:
            report.error("skill.duplicate", path, f"The path grants {catalogue[skill_id]['name']} twice; keep one.")
            continue
        if not is_int(rank) or rank < 0:
            report.error("build.malformed", path, f"A granted rank must be a whole number from 0 to {cap}.")
            continue
        if rank > cap:
            report.error("skill.above_maximum", path, f"A path cannot grant more than rank {cap}; lower it.")
            continue
        grants[skill_id] = rank
    return grants


def _check_triarmatura(report: Report, skills: dict[str, int], level_ok: bool, level: int | None) -> None:
    tri = skills.get("triarmatura")
    if tri is None:
        return
    if tri > 0 and level_ok and level is None:
        report.error(
            "paragon.requires_power_level",
            "/skills/triarmatura",
            "Only paragons (characters with a power level) can learn Triarmatura; set a power level or "
            "lower Triarmatura to 0.",
        )
    if "melee" in skills and "missile" in skills and tri > skills["melee"] + skills["missile"]:
        cap = skills["melee"] + skills["missile"]
        report.error(
            "paragon.triarmatura_cap",
            "/skills/triarmatura",
            f"Triarmatura {tri} is above Melee + Missile ({cap}); lower it to {cap} or raise Melee or Missile.",
        )


def _check_resources(build: dict, report: Report, ctx: Context, level_ok: bool, level: int | None) -> dict | None:
    """The resource maxima in force: the document's, else the house defaults for a
    paragon or an ordinary person. None when the power level (which picks the defaults)
    or a resource value is broken."""
    kind = "ordinary" if level is None else "paragon"
    defaults = dict(ctx.settings.get("resources", {}).get(kind, {}))
    raw = build.get("resources", {})
    if raw is None:
        raw = {}
    if not isinstance(raw, dict):
        report.error("build.malformed", "/resources", 'Resources must be an object of maxima, e.g. {"health": 20}.')
        return None
    sound = True
    out = dict(defaults)
    for key, value in raw.items():
        path = ptr("resources", key)
        if key not in POOLS:
            report.error(
                "attribute.unknown",
                path,
                f"Paragon has no resource {key!r}; the resources are {', '.join(POOLS)}. Remove it.",
            )
            continue
        if not is_int(value):
            report.error("build.malformed", path, f"The {key} maximum must be a whole number (house default "
                                                  f"{defaults.get(key)}).")
            sound = False
            continue
        if value < 0:
            report.error("attribute.below_minimum", path, f"The {key} maximum cannot be below 0.")
            sound = False
            continue
        out[key] = value
    if level_ok and level is None and out.get("heroism", 0) > 0:
        sound = False
        report.error(
            "paragon.requires_power_level",
            "/resources/heroism" if "heroism" in raw else "/power_level",
            "Only characters with a power level have Heroism; set a power level or set the heroism maximum "
            "to 0.",
        )
    if not level_ok or not sound:
        return None
    return out


def check_advancement(old: dict, new: dict, report: Report, ctx: Context) -> None:
    """What the GM must see when approving: a changed power level (the ascension ritual),
    a changed path, lowered maxima; and what is refused: anything lower than approved."""
    old_level, new_level = old.get("power_level"), new.get("power_level")
    if old_level != new_level:
        ranks = {None: 0}
        o = old_level if is_int(old_level) else ranks.get(old_level, 0)
        n = new_level if is_int(new_level) else ranks.get(new_level, 0)
        if n < o:
            report.error(
                "paragon.below_previous",
                "/power_level",
                f"The power level cannot fall from {old_level} to {new_level}; restore power level {old_level}.",
            )
        else:
            report.warn(
                "paragon.power_level_changed",
                "/power_level",
                f"The power level rises from {old_level if old_level is not None else 'none'} to {new_level}: "
                "only the GM's approval of the ascension ritual makes this so. GM: approve only if the ritual "
                "was performed.",
            )
    for key, code, label in (("forces", "paragon.below_previous", "force"), ("skills", "paragon.below_previous", "skill")):
        before, after = old.get(key), new.get(key)
        if not isinstance(before, dict) or not isinstance(after, dict):
            continue
        for item, was in before.items():
            now = after.get(item, 0)
            if is_int(was) and is_int(now) and now < was:
                report.error(
                    code,
                    ptr(key, item),
                    f"The {label} {item} cannot fall from {was} to {now}; ranks once gained are kept. "
                    f"Set it back to {was}.",
                )
    before, after = old.get("resources"), new.get("resources")
    before = before if isinstance(before, dict) else {}
    after = after if isinstance(after, dict) else {}
    for pool in POOLS:
        was, now = before.get(pool), after.get(pool)
        if is_int(was) and is_int(now) and now < was:
            report.warn(
                "paragon.resource_lowered",
                ptr("resources", pool),
                f"The {pool} maximum falls from {was} to {now}. GM: approve only for a lasting condition "
                "(such as a long-term Morale decrement).",
            )
    if old.get("path") != new.get("path") and old.get("path") is not None:
        report.warn(
            "paragon.path_changed",
            "/path",
            "The path (and its free ranks) changed; the GM approves a character's path.",
        )


#: The readings of the house rule ``seize_offensive_tie`` (equal Hero Point spends; combat.py).
SEIZE_OFFENSIVE_TIES = ("initiative", "simultaneous")


def check_settings(settings: dict) -> list[Issue]:
    """Paragon's house-rule checks on top of the base type checks."""
    tie = settings.get("seize_offensive_tie")
    if "seize_offensive_tie" in settings and isinstance(tie, str) and tie not in SEIZE_OFFENSIVE_TIES:
        return [Issue("settings.malformed", "/seize_offensive_tie",
                      'seize_offensive_tie is "initiative" (equal Hero Point spends cancel out) or "simultaneous" '
                      "(both sides act at once); the default applies.")]
    return []


def check_homebrew_entry(kind: str, entry: dict, path: str) -> list[Issue]:
    if kind != "skills":
        return []
    issues = []
    if not isinstance(entry.get("name"), str) or not entry["name"].strip():
        issues.append(Issue("homebrew.malformed", path + "/name", "Give the homebrew skill a name."))
    if entry.get("force") not in FORCES:
        issues.append(Issue(
            "homebrew.malformed",
            path + "/force",
            f"A Paragon skill is based on one force: {', '.join(FORCES)}.",
        ))
    return issues


# ------------------------------------------------------------------ odds and rolls


def _read_request(request: Any) -> tuple[int, int, int | None]:
    if not isinstance(request, dict):
        raise OddsError('A Paragon check is {"force": F, "skill": S, "tn": T}.')
    force, skill, tn = request.get("force"), request.get("skill", 0), request.get("tn")
    for key, value in (("force", force), ("skill", skill)):
        if not is_int(value) or not 0 <= value <= ODDS_LIMIT:
            raise OddsError(f'"{key}" must be a whole number from 0 to {ODDS_LIMIT} (got {value!r}).')
    if tn is not None and not is_int(tn):
        raise OddsError(f'"tn" must be a whole number (got {tn!r}).')
    return force, skill, tn


def _survival(force: int) -> tuple[dict[int, float], int]:
    """P(force d6 ≥ k) for every k the dice can reach, and the highest total."""
    dist = sum_dice(force, 6)
    surv: dict[int, float] = {}
    acc = 0.0
    for value in sorted(dist, reverse=True):
        acc += dist[value]
        surv[value] = acc
    return surv, max(dist)


_ODDS_CACHE: dict[tuple[int, int, int], float] = {}


def pass_chance(force: int, skill: int, tn: int) -> float:
    """P(d12! + force d6 + 2×skill ≥ tn), exact up to the exploding die's 1e-15 tail."""
    key = (force, skill, tn)
    hit = _ODDS_CACHE.get(key)
    if hit is not None:
        return hit
    surv, top = _survival(force)
    need = tn - 2 * skill
    p = 0.0
    for x, px in exploding(12).items():
        k = need - x  # the force dice must make at least k
        if k <= force:  # force d6 never totals less than force
            p += px
        elif k <= top:
            p += px * surv[k]
    p = min(1.0, p)
    if len(_ODDS_CACHE) > 4096:
        _ODDS_CACHE.clear()
    _ODDS_CACHE[key] = p
    return p


def odds(request: Any) -> dict[str, Any]:
    force, skill, tn = _read_request(request)
    if tn is None:
        raise OddsError('"tn" is required: the target number the check must reach.')
    return {"pass": pass_chance(force, skill, tn)}


def roll(request: Any, roller: Roller) -> dict[str, Any]:
    force, skill, tn = _read_request(request)
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
    text += f" = {total}"
    if tn is None:
        outcome = "rolled"
    else:
        outcome = "pass" if total >= tn else "fail"
        text += f" vs TN {tn}: {outcome}"
    return {"faces": d12 + d6, "d12": d12, "d6": d6, "total": total, "outcome": outcome, "text": text}


def rollables(build: dict, report: Report, ctx: Context, state: dict | None = None) -> list[dict[str, Any]]:
    """A check per skill (its force's d6 + 2×rank) and an attribute check per force (no skill)."""
    forces = build.get("forces") if isinstance(build.get("forces"), dict) else {}
    skills = build.get("skills") if isinstance(build.get("skills"), dict) else {}
    tn = ctx.settings.get("default_tn", 12)
    out = []
    for skill_id, entry in ctx.catalogue.get("skills", {}).items():
        force, rank = forces.get(entry.get("force")), skills.get(skill_id, 0)
        if is_int(force) and is_int(rank) and 0 <= force <= ODDS_LIMIT and 0 <= rank <= ODDS_LIMIT:
            out.append({
                "id": f"skill:{skill_id}",
                "label": f"{entry.get('name', skill_id)} ({check_text(force, rank)})",
                "group": entry.get("force"),
                "request": {"force": force, "skill": rank, "tn": tn},
            })
    for force_id, entry in ctx.catalogue.get("forces", {}).items():
        force = forces.get(force_id)
        if is_int(force) and 0 <= force <= ODDS_LIMIT:
            out.append({
                "id": f"force:{force_id}",
                "label": f"{entry.get('name', force_id)} check ({check_text(force, 0)})",
                "group": "forces",
                "request": {"force": force, "skill": 0, "tn": tn},
            })
    return out


# ------------------------------------------------------------------ play state


def maxima(build: dict, report: Report, ctx: Context) -> dict[str, int]:
    """The pools' maxima: the derived resources, else the house defaults for this kind."""
    resources = report.derived.get("resources")
    if isinstance(resources, dict):
        return resources
    kind = "ordinary" if build.get("power_level") is None else "paragon"
    return dict(ctx.settings.get("resources", {}).get(kind, {}))


def initial_state(build: dict, report: Report, ctx: Context) -> dict[str, Any]:
    return {"pools": dict(maxima(build, report, ctx)), "corruption": 0, "incapacitation_resisted": False}


def _normal(state: Any, build: dict, report: Report, ctx: Context) -> dict[str, Any]:
    """A usable copy of ``state`` (missing parts filled from a fresh state)."""
    fresh = initial_state(build, report, ctx)
    if not isinstance(state, dict):
        return fresh
    pools = state.get("pools") if isinstance(state.get("pools"), dict) else {}
    out = {
        "pools": {p: pools[p] if is_int(pools.get(p)) else fresh["pools"].get(p, 0) for p in POOLS},
        "corruption": state["corruption"] if is_int(state.get("corruption")) else 0,
        "incapacitation_resisted": state.get("incapacitation_resisted") is True,
    }
    return out


def check_state(state: Any, build: dict, report: Report, ctx: Context) -> list[Issue]:
    if not isinstance(state, dict):
        return [Issue("state.malformed", "", 'The play state must be an object: {"pools": {...}, "corruption": 0}.')]
    issues = []
    top = maxima(build, report, ctx)
    pools = state.get("pools", {})
    if not isinstance(pools, dict):
        return [Issue("state.malformed", "/pools", "Pools must be an object of pool → current points.")]
    for pool, value in pools.items():
        path = ptr("pools", pool)
        if pool not in POOLS:
            issues.append(Issue("state.unknown", path, f"There is no pool {pool!r}; the pools are {', '.join(POOLS)}."))
        elif not is_int(value):
            issues.append(Issue("state.malformed", path, f"Current {pool} must be a whole number."))
        elif value < 0:
            issues.append(Issue("state.below_minimum", path, f"Current {pool} cannot be below 0."))
        elif value > top.get(pool, 0):
            issues.append(Issue("state.above_maximum", path,
                                f"Current {pool} {value} is above its maximum {top.get(pool, 0)}; lower it."))
    corruption = state.get("corruption", 0)
    if not is_int(corruption) or corruption < 0:
        issues.append(Issue("state.malformed", "/corruption", "Corruption must be a whole number ≥ 0."))
    flag = state.get("incapacitation_resisted", False)
    if not isinstance(flag, bool):
        issues.append(Issue("state.malformed", "/incapacitation_resisted", "This must be true or false."))
    return issues


def conditions(state: dict, top: dict[str, int]) -> list[tuple[str, str]]:
    """The conditions a state implies: (id, text for the sheet)."""
    pools = state["pools"]
    out = []
    health = pools["health"]
    if health == 0:
        out.append(("bodily_death", "Bodily death: Health 0. The character leaves play (perhaps as a ghost)."))
    elif health * 2 < top.get("health", 0) and not state["incapacitation_resisted"]:
        out.append(("incapacitated", "Incapacitated: Health below half. Spend a Hero Point to recover, or "
                                     "receive first aid (Healing vs TN 15)."))
    if pools["face"] == 0:
        out.append(("pariah", "Pariah: social death; Face is locked at 0."))
    elif pools["face"] < 10:
        out.append(("disgraced", "Disgraced: Face below 10; acts of charity in the citadel restore it."))
    if pools["purity"] == 0:
        if state["corruption"] > 0:
            out.append(("fallen", "Fallen to the Scourge: Purity 0 with Corruption."))
        out.append(("spiritual_death", "Spiritual death: Purity is locked at 0."))
    elif state["corruption"] > pools["purity"]:
        out.append(("resisting_corruption", "Corruption exceeds Purity: roll checks to resist the Scourge."))
    if pools["stamina"] == 0:
        out.append(("tired", "Tired: Stamina 0."))
    elif pools["stamina"] < 10:
        out.append(("winded", "Winded: Stamina below 10."))
    if pools["dynama"] == 0:
        out.append(("paralysed", "Paralysed: Dynama 0."))
    if pools["morale"] == 0:
        out.append(("morale_failure", "Morale failure: give up (surrender, flee, cease) or suffer severe "
                                      "penalties."))
    return out


def state_effects(build: dict, report: Report, ctx: Context, state: dict) -> dict[str, Any]:
    st = _normal(state, build, report, ctx)
    found = conditions(st, maxima(build, report, ctx))
    ids = [c for c, _ in found]
    return {
        "conditions": ids,
        "labels": [text for _, text in found],
        "can_act": not {"bodily_death", "incapacitated", "paralysed"} & set(ids),
        "hero_points": st["pools"]["heroism"],
    }


def _pool_status(pool: str, value: int, top: int, st: dict) -> str:
    if pool == "health":
        if value == 0:
            return "bodily death"
        if value * 2 < top:
            return "resisting" if st["incapacitation_resisted"] else "incapacitated"
    if pool == "face":
        return "pariah" if value == 0 else "disgraced" if value < 10 else ""
    if pool == "purity":
        return "spiritual death" if value == 0 else ""
    if pool == "stamina":
        return "tired" if value == 0 else "winded" if value < 10 else ""
    if pool == "dynama":
        return "paralysed" if value == 0 else ""
    if pool == "morale":
        return "morale failure" if value == 0 else ""
    return ""


def state_sections(build: dict, report: Report, ctx: Context, state: dict) -> list[dict[str, Any]]:
    st = _normal(state, build, report, ctx)
    top = maxima(build, report, ctx)
    catalogue = ctx.catalogue.get("pools", {})
    amount = [{"id": "pool", "kind": "choice", "options": list(POOLS)}, {"id": "amount", "kind": "number", "min": 1}]
    items = [
        {
            "id": pool,
            "label": catalogue.get(pool, {}).get("name", pool.title()),
            "path": ptr("pools", pool),
            "value": st["pools"][pool],
            "min": 0,
            "max": top.get(pool, 0),
            "status": _pool_status(pool, st["pools"][pool], top.get(pool, 0), st),
        }
        for pool in POOLS
    ]
    found = conditions(st, top)
    return [
        {
            "id": "pools", "label": "Resources", "kind": "pools", "items": items,
            "actions": [
                {"action": "damage", "label": "Lose points", "fields": amount},
                {"action": "restore", "label": "Regain points", "fields": amount},
                {"action": "resist_incapacitation", "label": "Spend a Hero Point to resist incapacitation",
                 "fields": []},
                {"action": "spend_hero_point", "label": "Spend a Hero Point", "fields": []},
                {"action": "first_aid", "label": "First aid (Healing vs TN 15 passed)", "fields": []},
                {"action": "catch_breath", "label": "Sit down and regulate your breathing", "fields": []},
            ],
        },
        {
            "id": "corruption", "label": "Corruption", "kind": "pools",
            "items": [{"id": "corruption", "label": "Corruption", "path": "/corruption", "value": st["corruption"],
                       "min": 0, "max": None,
                       "status": "resisting" if st["corruption"] > st["pools"]["purity"] else ""}],
            "actions": [
                {"action": "corrupt", "label": "Gain Corruption", "fields": [{"id": "amount", "kind": "number", "min": 1}]},
                {"action": "cleanse", "label": "Cleanse Corruption", "fields": [{"id": "amount", "kind": "number", "min": 1}]},
            ],
        },
        {
            "id": "conditions", "label": "Conditions", "kind": "flags",
            "items": [{"id": cid, "label": text, "on": True} for cid, text in found],
        },
    ]


def _pool(action: dict) -> str:
    pool = action.get("pool")
    if pool not in POOLS:
        raise StateError("state.malformed", f"Name the pool: one of {', '.join(POOLS)}.", "/pool")
    return pool


def state_action(state: dict, action: dict, build: dict, report: Report, ctx: Context,
                 roller: Roller | None = None) -> tuple[dict, str]:
    if not isinstance(action, dict):
        raise StateError("state.malformed", "An action must be an object with an \"action\".")
    st = _normal(state, build, report, ctx)  # a fresh copy: the caller's state is never touched
    st["pools"] = dict(st["pools"])
    top = maxima(build, report, ctx)
    pools = st["pools"]
    kind = action.get("action")
    name = build.get("name") if isinstance(build.get("name"), str) else "The character"

    if kind in ("damage", "restore", "set"):
        pool = _pool(action)
        if pool in LOCKED_AT_ZERO and pools[pool] == 0:
            what = {"health": "bodily death", "face": "a pariah's social death",
                    "purity": "spiritual death"}[pool]
            raise StateError("paragon.pool_locked", f"{pool.title()} is locked at 0 by {what}; it cannot change.",
                             ptr("pools", pool))
        before = pools[pool]
        if kind == "set":
            value = action_amount(action, "value")
            if value > top.get(pool, 0):
                raise StateError("state.above_maximum",
                                 f"{pool.title()} cannot be above its maximum {top.get(pool, 0)}.", "/value")
            pools[pool] = value
        elif kind == "damage":
            pools[pool] = max(0, before - action_amount(action))
        else:
            pools[pool] = min(top.get(pool, 0), before + action_amount(action))
        log = f"{name}: {pool} {before} → {pools[pool]}."
        if pool == "health" and pools[pool] < before:
            st["incapacitation_resisted"] = False  # a new blow calls for a new Hero Point
        if pool == "health" and pools[pool] * 2 >= top.get("health", 0):
            st["incapacitation_resisted"] = False
        if pool == "stamina" and pools[pool] < before:
            log += _stamina_morale(st, before, pools[pool], roller)
        found = dict(conditions(st, top))
        for cid in ("bodily_death", "incapacitated", "pariah", "disgraced", "spiritual_death", "fallen", "tired",
                    "paralysed", "morale_failure"):
            if cid in found:
                log += " " + found[cid].split(":")[0] + "."
        return st, log

    if kind == "resist_incapacitation":
        if pools["health"] == 0:
            raise StateError("paragon.pool_locked", "Bodily death cannot be resisted.", "/pools/health")
        if pools["health"] * 2 >= top.get("health", 0) or st["incapacitation_resisted"]:
            raise StateError("paragon.not_incapacitated",
                             "Health is not below half its maximum (or the incapacitation is already lifted); "
                             "keep the Hero Point.", "/pools/health")
        _spend_hero_point(pools)
        st["incapacitation_resisted"] = True
        return st, f"{name} spends a Hero Point and stays in the fight ({pools['heroism']} left)."

    if kind == "first_aid":
        if pools["health"] == 0 or pools["health"] * 2 >= top.get("health", 0) or st["incapacitation_resisted"]:
            raise StateError("paragon.not_incapacitated", "First aid lifts incapacitation; this character is not "
                             "incapacitated.", "/pools/health")
        st["incapacitation_resisted"] = True
        return st, f"First aid lifts {name}'s incapacitation."

    if kind == "spend_hero_point":
        amount = action_amount(action, low=1) if "amount" in action else 1
        _spend_hero_point(pools, amount)
        reason = action.get("reason")
        why = f" ({reason})" if isinstance(reason, str) and reason else ""
        what = "a Hero Point" if amount == 1 else f"{amount} Hero Points"
        return st, f"{name} spends {what}{why}; {pools['heroism']} left."

    if kind == "catch_breath":
        before = pools["stamina"]
        pools["stamina"] = top.get("stamina", 0)
        return st, f"{name} sits down and regulates their breathing: stamina {before} → {pools['stamina']}."

    if kind in ("corrupt", "cleanse"):
        amount = action_amount(action)
        before = st["corruption"]
        st["corruption"] = before + amount if kind == "corrupt" else max(0, before - amount)
        log = f"{name}: corruption {before} → {st['corruption']}."
        if st["corruption"] > pools["purity"] and pools["purity"] > 0:
            log += " Corruption exceeds Purity: roll to resist the Scourge."
        return st, log

    raise StateError(
        "state.unknown_action",
        f"Paragon has no action {kind!r}; use damage, restore, set, resist_incapacitation, first_aid, "
        "spend_hero_point, catch_breath, corrupt or cleanse.",
        "/action",
    )


def _spend_hero_point(pools: dict[str, int], amount: int = 1) -> None:
    """Spend ``amount`` Hero Points (the current heroism pool), or refuse when there are fewer."""
    have = pools["heroism"]
    if have < 1:
        raise StateError("paragon.no_hero_points", "No Hero Points left; act boldly to regain them.",
                         "/pools/heroism")
    if have < amount:
        raise StateError("paragon.no_hero_points",
                         f"Only {have} Hero Point{'s' if have != 1 else ''} left, not the {amount} to spend; "
                         "spend fewer, or act boldly to regain them.", "/pools/heroism")
    pools["heroism"] -= amount


def _stamina_morale(st: dict, before: int, after: int, roller: Roller | None) -> str:
    """Stamina dropping below 10 costs 1d6 Morale, and dropping to 0 another 1d6 (seed)."""
    roller = roller or Roller()
    log = ""
    for crossed, why in ((before >= 10 > after, "below 10"), (before > 0 == after, "to 0: tired")):
        if crossed:
            loss = roller.d(6)
            was = st["pools"]["morale"]
            st["pools"]["morale"] = max(0, was - loss)
            log += f" Stamina {why}: lose {loss} Morale ({was} → {st['pools']['morale']})."
    return log
