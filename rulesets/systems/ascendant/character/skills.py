"""Ascendant's build, the skill stage: level-1 training, the Lores known, skill increases and Lore slots."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rulesets.engine.pointer import escape as esc

from ..feats import Effects
from .tables import (
    _few,
    _label,
)

if TYPE_CHECKING:
    from .checking import Check


def level_one_skills(c: Check) -> None:
    report, rules, klass, background = c.report, c.rules, c.klass, c.background
    skills_cat = c.cat.get("skills", {})
    skill_rank = c.skill_rank = dict.fromkeys(skills_cat, 0)
    key_skill = c.key_skill = klass.get("key_skill") if klass else None
    automatic: set[str] = set()
    if background and background.get("skill") in skill_rank:
        automatic.add(background["skill"])
    if klass:
        automatic.update(x for x in [key_skill, *klass.get("trained_skills", [])] if x in skill_rank)
    for name in automatic:
        skill_rank[name] = 1
    chosen_skills = 0
    picks = klass.get("skill_choices", 0) if klass else None
    doc_skills = c.build.get("skills")
    if doc_skills is None:
        doc_skills = {}
    elif not isinstance(doc_skills, dict):
        report.error("build.malformed", "/skills", 'Skills must be an object: {"athletics": "trained"}.')
        doc_skills = {}
    for name, rank in doc_skills.items():
        if name in skill_rank and type(rank) is str and rules.rank_index.get(rank) == 1:
            if name in automatic:
                continue  # trained anyway: listing it is harmless and not counted
            if picks is None or chosen_skills < picks:  # the common case: a skill trained by choice
                chosen_skills += 1
                skill_rank[name] = 1
                continue
        path = "/skills/" + esc(name)
        if name not in skill_rank:
            report.error(
                "skill.unknown",
                path,
                f"{name!r} is not a skill; choose from {_few(list(skills_cat), 15, skills_cat)}.",
            )
        elif not isinstance(rank, str) or rank not in rules.rank_index:
            report.error("build.malformed", path, f"A skill's rank is one of {', '.join(rules.ranks)}.")
        elif rules.rank_index[rank] > 1:
            report.error(
                "ascendant.skill_rank_too_high",
                path,
                f"At 1st level a skill starts at Trained, not {rules.rank_label(rules.rank_index[rank])}; raise "
                "it with the skill increases of levels 3, 5, 7….",
            )
        elif rules.rank_index[rank] == 1 and name not in automatic:
            chosen_skills += 1
            if picks is not None and chosen_skills > picks:
                report.error(
                    "ascendant.too_many_skills",
                    path,
                    f"The {_label(klass, '')} is trained in {picks} skills of your choice (besides its key "
                    f"skill and your background's); remove {name} or another.",
                )
            else:
                skill_rank[name] = 1
    if picks is not None and chosen_skills < picks:
        c.missing(
            "/skills",
            f"The {_label(klass, '')} is trained in {picks} skills of your choice; "
            f"{picks - chosen_skills} still to choose.",
        )


def known_lores(c: Check) -> None:
    """The Lores known (the background's and the listed ones), so that skill increases may raise them."""
    lore_cat = c.cat.get("lores", {})
    bg_lore = c.bg_lore = c.background.get("lore") if c.background else None
    doc_lores = c.build.get("lores")
    if doc_lores is None:
        doc_lores = []
    elif not isinstance(doc_lores, list):
        c.report.error("build.malformed", "/lores", 'Lores are a list of lore ids, such as ["warfare"].')
        doc_lores = []
    c.doc_lores = doc_lores
    c.lore_rank = dict.fromkeys([bg_lore] if bg_lore in lore_cat else [], 1)
    c.lore_rank.update((lore, 1) for lore in doc_lores if type(lore) is str and lore in lore_cat)


def skill_increase(c: Check, n: int, cp: int, due: bool, base: str, raised: Any) -> None:
    report, rules, skill_rank, lore_rank = c.report, c.rules, c.skill_rank, c.lore_rank
    if not due:
        if raised is not None:
            report.error(
                "ascendant.choice_not_due",
                base,
                f"Level {n} gives no skill increase (they come at "
                f"{_few(sorted(str(x) for x in rules.skill_levels), 3)} and every odd level); "
                "remove it.",
            )
        return
    if raised is None:
        c.missing(base, f"Level {n} gives a skill increase: name a skill to raise by one rank.")
        return
    if not isinstance(raised, str):
        report.error("build.malformed", base, 'A skill increase is one skill id, such as "stealth".')
        return
    if raised in lore_rank and raised not in skill_rank:
        rank = lore_rank[raised]
    elif raised not in skill_rank:
        skills_cat = c.cat.get("skills", {})
        report.error(
            "skill.unknown",
            base,
            f"{raised!r} is not a skill or one of your Lores; choose from "
            f"{_few(list(skills_cat), 15, skills_cat)}, or a Lore you know.",
        )
        return
    elif raised == c.key_skill:
        report.error(
            "ascendant.skill_rank_too_high",
            base,
            f"{_label(c.cat.get('skills', {}).get(raised), raised)} is your class's key skill and rises with Class "
            "Proficiency by itself; raise another skill.",
        )
        return
    else:
        rank = skill_rank[raised]
    if rank + 1 > cp:
        kind = "skills" if raised in skill_rank else "lores"
        name = _label(c.cat.get(kind, {}).get(raised), raised)
        report.error(
            "ascendant.skill_rank_too_high",
            base,
            f"{name} is already {rules.rank_label(rank)}; no skill goes above your Class Proficiency "
            f"({rules.rank_label(cp)} at level {n}). Raise another skill.",
        )
    elif raised in skill_rank:
        skill_rank[raised] += 1
    else:  # Lores rise by skill increases like other skills
        lore_rank[raised] += 1


def lores(c: Check, fx: Effects) -> None:
    report, attrs, bg_lore, doc_lores = c.report, c.attrs, c.bg_lore, c.doc_lores
    lore_cat = c.cat.get("lores", {})
    lore_slots = c.lore_slots = max(0, attrs["int"]) + sum(n for n, _ in fx.lores)
    lores_held = c.lores_held = [bg_lore] if bg_lore else []
    chosen = 0
    for i, lore in enumerate(doc_lores):
        path = f"/lores/{i}"
        if not isinstance(lore, str):
            report.error("build.malformed", path, 'A lore is an id such as "warfare".')
        elif lore not in lore_cat:
            report.error(
                "skill.unknown",
                path,
                f"{lore!r} is not a Lore here; choose from {_few(list(lore_cat), names=lore_cat)}.",
            )
        elif lore == bg_lore and lore not in doc_lores[:i]:
            continue  # RULES.md: the background's own Lore may be listed; it uses no slot
        elif lore in lores_held:
            report.error(
                "skill.duplicate",
                path,
                f"{_label(lore_cat[lore], lore)} is listed twice; choose another Lore.",
            )
        else:
            chosen += 1
            lores_held.append(lore)
            if chosen > lore_slots:
                extra = "".join(f" and {src}" for _, src in fx.lores)
                report.error(
                    "ascendant.too_many_lores",
                    path,
                    f"Intelligence +{max(0, attrs['int'])}{extra} give{'s' if not extra else ''} {lore_slots} "
                    f"Lore{'s' if lore_slots != 1 else ''}; remove this one, or raise Intelligence first.",
                )
    if c.attrs_ok and chosen < lore_slots:
        report.warn(
            "ascendant.lore_slots_unused",
            "/lores",
            f"You know {lore_slots} Lores and {chosen} are chosen; add {lore_slots - chosen} more.",
        )
