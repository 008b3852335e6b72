"""Paragon RPG (seed 001, RULES.md section 2): checks, prices and derives a build, and says
what a build is made of for the builder (traits, blank build). The odds and rolls are in ``dice.py``,
the play state in ``state.py``, violence in ``combat/``.

Build document (RULES.md §2)::

    {"ruleset": "paragon", "name": "Aren", "budget": {"skill_points": 20},
     "power_level": 1,                      # 1–5, null (or left out) = an ordinary person
     "forces": {"fire": 2, "wind": 3, "thunder": 1, "light": 1, "shadow": 1},
     "path": {"name": "Blade of the Eastern Gate", "grants": {"triarmatura": 1}},   # optional
     "skills": {"melee": 2, "triarmatura": 2},  # sparse: left out = rank 0
     "resources": {"health": 20, ...}}          # maxima; left out = house defaults

Currencies: ``force_points`` (budget = the power level table's total, never the
document's) and ``skill_points`` (the document's budget, or the house default). A rank
outside its range is still priced (RULES.md): only a value that is not a whole number, or
one below 0 (which buys nothing), is left out of ``spent``.

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
"""

from __future__ import annotations

from typing import Any

from rulesets.engine.context import Context
from rulesets.engine.fields import is_int, name_key
from rulesets.engine.pointer import ptr
from rulesets.engine.report import Issue, Report
from rulesets.engine.ruleset import FORMAT

from .. import powers
from ..dice import check_text
from ..state import POOLS

FORCES = ("fire", "wind", "thunder", "light", "shadow")


def rank_cost(rank: int) -> int:
    """Forces and skills alike: rank r costs 0+1+…+r = r(r+1)/2 points in total."""
    return rank * (rank + 1) // 2


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
        return max(
            (r["max_rank"] for r in table.values() if isinstance(r, dict) and is_int(r.get("max_rank"))),
            default=5,
        )

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
            "Force points come from the power level table, not from the budget: the budget's force points "
            "are not counted.",
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
    if level_ok and len(forces) == len(FORCES):
        # RULES.md W6: every power of a force held at its rank or more, id → Dynama cost.
        report.derived["powers"] = powers.derived(build, ctx)


def _force_names(ctx: Context) -> str:
    """ "Fire, Wind, Thunder, Light and Shadow": the forces by their names, in the catalogue's order."""
    names = [
        f.get("name", key) if isinstance(f, dict) else key
        for key, f in ctx.catalogue.get("forces", {}).items()
    ]
    return ", ".join(names[:-1]) + (" and " if len(names) > 1 else "") + names[-1] if names else "the forces"


def _check_forces(build: dict, report: Report, ctx: Context, row: dict | None) -> dict[str, int]:
    """Validate and price the five force attributes; returns the sound ranks."""
    good: dict[str, int] = {}
    raw = build.get("forces")
    if raw is None:
        report.error(
            "build.malformed",
            "/forces",
            f"Give each of the five forces a rank: {_force_names(ctx)}.",
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
        report.error(
            "build.malformed", "/skills", 'Skills must be an object of skill → rank, e.g. {"melee": 2}.'
        )
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
            report.charge(
                "skill_points",
                cost,
                path=where.get(skill_id) or ptr("skills", skill_id),
                label=f"{label} {rank}{suffix}",
            )
    report.spent.setdefault("skill_points", 0)
    return {k: v for k, v in final.items() if k not in broken and k not in over}


def _read_grants(
    build: dict, report: Report, ctx: Context, index: dict[str, str], cap: int
) -> dict[str, int]:
    path_doc = build.get("path")
    if path_doc is None:
        return {}
    if not isinstance(path_doc, dict):
        report.error(
            "build.malformed", "/path", 'The path must be an object: {"name": …, "grants": {skill: rank}}.'
        )
        return {}
    name = path_doc.get("name")
    if name is not None and not isinstance(name, str):
        report.error("build.malformed", "/path/name", "The path's name must be text.")
    raw = path_doc.get("grants", {})
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        report.error(
            "build.malformed", "/path/grants", "The path's grants must be an object of skill → free ranks."
        )
        return {}
    catalogue = ctx.catalogue.get("skills", {})
    grants: dict[str, int] = {}
    for key, rank in raw.items():
        path = ptr("path", "grants", key)
        skill_id = key if key in catalogue else index.get(name_key(key))
        if skill_id is None:
            report.error(
                "skill.unknown",
                path,
                f"The path grants {key!r}, which is not a Paragon skill; fix or remove the grant.",
            )
            continue
        if skill_id in grants:
            report.error(
                "skill.duplicate", path, f"The path grants {catalogue[skill_id]['name']} twice; keep one."
            )
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


def _check_resources(
    build: dict, report: Report, ctx: Context, level_ok: bool, level: int | None
) -> dict | None:
    """The resource maxima in force: the document's, else the house defaults for a
    paragon or an ordinary person. None when the power level (which picks the defaults)
    or a resource value is broken."""
    kind = "ordinary" if level is None else "paragon"
    defaults = dict(ctx.settings.get("resources", {}).get(kind, {}))
    raw = build.get("resources", {})
    if raw is None:
        raw = {}
    if not isinstance(raw, dict):
        report.error(
            "build.malformed", "/resources", 'Resources must be an object of maxima, e.g. {"health": 20}.'
        )
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
            report.error(
                "build.malformed",
                path,
                f"The {key} maximum must be a whole number (house default {defaults.get(key)}).",
            )
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
    for key, code, label in (
        ("forces", "paragon.below_previous", "force"),
        ("skills", "paragon.below_previous", "skill"),
    ):
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


#: The readings of the house rule ``seize_offensive_tie`` (equal Hero Point spends; combat/).
SEIZE_OFFENSIVE_TIES = ("initiative", "simultaneous")


def check_settings(settings: dict, defaults: dict) -> list[Issue]:
    """Paragon's house-rule checks on top of the base type checks (``defaults``: the house defaults)."""
    issues = _check_weapons(settings.get("weapons"), defaults.get("weapons") or {})
    tie = settings.get("seize_offensive_tie")
    if "seize_offensive_tie" in settings and isinstance(tie, str) and tie not in SEIZE_OFFENSIVE_TIES:
        return issues + [
            Issue(
                "settings.malformed",
                "/seize_offensive_tie",
                'seize_offensive_tie is "initiative" (equal Hero Point spends cancel out) or "simultaneous" '
                "(both sides act at once); the default applies.",
            )
        ]
    return issues


def _check_weapons(table: Any, default: dict) -> list[Issue]:
    """House rule ``weapons`` (W21): weapon id → {"name": text, "dice": damage d6 0–20}; a weapon of
    the house default may change only its name or its dice, a new one gives both."""
    if not isinstance(table, dict):
        return []  # absent, or the wrong type (the base check says so)
    issues = []
    for wid, entry in table.items():
        path = ptr("weapons", wid)
        if not isinstance(entry, dict):
            issues.append(Issue("settings.malformed", path, 'A weapon is {"name": "Greatsword", "dice": 3}.'))
            continue
        dice = entry.get("dice")
        if "dice" in entry and not (is_int(dice) and 0 <= dice <= 20):
            issues.append(Issue("settings.malformed", path + "/dice", "A weapon's damage is 0 to 20 d6."))
        name = entry.get("name")
        if "name" in entry and not (isinstance(name, str) and name.strip()):
            issues.append(Issue("settings.malformed", path + "/name", "Give the weapon a name."))
        for key in ("name", "dice"):
            if wid not in default and key not in entry:
                issues.append(Issue("settings.malformed", path + "/" + key, f"A new weapon needs its {key}."))
    return issues


def check_homebrew_entry(kind: str, entry: dict, path: str, skills: frozenset[str]) -> list[Issue]:
    """A homebrew skill or power (beyond its form, homebrew_forms.py): based on one of the five forces;
    a power's roll (powers.py) one of ``skills``."""
    if kind not in ("skills", "powers"):
        return []
    issues = []
    if kind == "skills" and (not isinstance(entry.get("name"), str) or not entry["name"].strip()):
        issues.append(Issue("homebrew.malformed", path + "/name", "Give the homebrew skill a name."))
    if entry.get("force") not in FORCES:
        what = "A Paragon skill is based on" if kind == "skills" else "A power belongs to"
        issues.append(Issue("homebrew.malformed", path + "/force", f"{what} one force: {', '.join(FORCES)}."))
    if kind == "powers":
        issues.extend(powers.check_homebrew_roll(entry, path, skills))
    return issues


# ------------------------------------------------------------------ the builder


def traits(ctx: Context) -> dict[str, Any]:
    """The builder's sections: power level, forces, path, skills, resource maxima (house defaults shown)."""
    levels = power_levels(ctx)
    table = ctx.settings.get("power_levels", {})
    rows = "; ".join(
        f"{'none' if k == 'none' else k}: {v.get('force_points')} points, max rank {v.get('max_rank')}"
        for k, v in table.items()
        if isinstance(v, dict)
    )
    max_rank = max((v.get("max_rank", 0) for v in table.values() if isinstance(v, dict)), default=5)
    cap = ctx.settings.get("skill_rank_max", 5)
    skills = [
        {"id": sid, "label": e.get("name", sid), "group": e.get("force"), "max": cap}
        for sid, e in ctx.catalogue.get("skills", {}).items()
    ]
    paragon_res = ctx.settings.get("resources", {}).get("paragon", {})
    return {
        "sections": [
            {
                "id": "power_level",
                "label": "Power level",
                "kind": "number",
                "path": "/power_level",
                "min": min(levels, default=1),
                "max": max(levels, default=5),
                "default": ctx.settings.get("new_power_level", 1),
                "nullable": True,
                "help": "Paragons have a power level (new paragons 1); ordinary people have none. "
                f"It sets the force points and the maximum force rank: {rows}.",
            },
            {
                "id": "forces",
                "label": "Force attributes",
                "kind": "numbers",
                "path": "/forces",
                "help": "Rank r costs 0+1+…+r force points (1, 3, 6, 10, 15).",
                "fields": [
                    {"id": fid, "label": e.get("name", fid), "min": 0, "max": max_rank, "default": 0}
                    for fid, e in ctx.catalogue.get("forces", {}).items()
                ],
            },
            {
                "id": "path",
                "label": "Path",
                "kind": "object",
                "path": "/path",
                "help": "The path the GM approves; its granted ranks are free.",
                "fields": [
                    {"id": "name", "label": "Path name", "kind": "text"},
                    {
                        "id": "grants",
                        "label": "Granted ranks",
                        "kind": "ranks",
                        "options": skills,
                        "min": 0,
                        "max": cap,
                    },
                ],
            },
            {
                "id": "skills",
                "label": "Skills",
                "kind": "ranks",
                "path": "/skills",
                "help": "Rank r costs 0+1+…+r skill points, less what the path grants. Triarmatura never "
                "exceeds Melee + Missile.",
                "options": skills,
                "min": 0,
                "max": cap,
            },
            {
                "id": "resources",
                "label": "Resource maxima",
                "kind": "numbers",
                "path": "/resources",
                "help": "Maxima set by the GM; left out, the house defaults apply (ordinary people: "
                "heroism 0, dynama 3, morale 6).",
                "fields": [
                    {
                        "id": pid,
                        "label": e.get("name", pid),
                        "min": 0,
                        "max": None,
                        "default": paragon_res.get(pid, 0),
                    }
                    for pid, e in ctx.catalogue.get("pools", {}).items()
                ],
            },
        ]
    }


def blank_build(slug: str, name: str, budget: dict[str, int] | None, ctx: Context) -> dict:
    """A new character: the house default power level, every force at 0, no skills."""
    skill_points = (budget or {}).get("skill_points")
    if not isinstance(skill_points, int):
        skill_points = ctx.settings.get("starting_budget", {}).get("skill_points", 0)
    return {
        "format": FORMAT,
        "ruleset": slug,
        "name": name,
        "budget": {"skill_points": skill_points},
        "power_level": ctx.settings.get("new_power_level", 1),
        "forces": {force: 0 for force in ctx.catalogue.get("forces", {})},
        "skills": {},
    }
