"""Ascendant's homebrew: feats, ancestries, heritages, backgrounds and Lores, checked entry by entry."""

from __future__ import annotations

from typing import Any

from rulesets.engine.context import ID_RE
from rulesets.engine.fields import lookup
from rulesets.engine.report import Issue

from ..feats import check_effect
from .common import ATTRIBUTES, DEFENSES, FEAT_KINDS


def check_homebrew_entry(kind: str, entry: dict, path: str, *, ranks: list[str], skills: dict) -> list[Issue]:
    """Field checks for homebrew feats, ancestries, heritages, backgrounds and lores beyond their forms
    (homebrew_forms.py; weapons, armor and gear need nothing beyond theirs: a price, a Bulk, a die)."""
    issues: list[Issue] = []

    def bad(key: str, message: str) -> None:
        issues.append(Issue("homebrew.malformed", f"{path}/{key}", message))

    if not isinstance(entry.get("name"), str) or not entry["name"].strip():
        bad("name", "Give the entry a name.")
    check = _HOMEBREW_CHECKS.get(kind)
    if check is not None:
        check(entry, path, bad, issues, ranks, skills)
    return issues


def _is_id(value: Any) -> bool:
    return isinstance(value, str) and bool(ID_RE.match(value))


def _attr_list(entry: dict, key: str, bad, *, required: bool) -> None:
    value = entry.get(key)
    if value is None and not required:
        return
    if (
        not isinstance(value, list)
        or not all(a in ATTRIBUTES for a in value)
        or len(set(value)) != len(value)
    ):
        bad(key, "A list of different attributes among str, dex, con, int, wis, cha.")


def _homebrew_feat(entry: dict, path: str, bad, issues: list[Issue], ranks: list[str], skills: dict) -> None:
    feat_kind = entry.get("kind")
    if feat_kind not in FEAT_KINDS:
        bad("kind", f"A feat's kind is one of {', '.join(FEAT_KINDS)}.")
    if entry.get("rank") not in ranks[1:]:
        bad("rank", f"A feat's rank is one of {', '.join(ranks[1:])}.")
    owner = lookup(
        {"ancestry": "ancestry", "class": "class", "archetype": "archetype", "skill": "skill"}, feat_kind
    )
    if owner and not _is_id(entry.get(owner)):  # the owner field is named as the kind
        bad(owner, f"A{'n' if owner[0] in 'aeiou' else ''} {owner} feat names its {owner} (an id).")
    if feat_kind == "skill" and _is_id(entry.get("skill")) and entry["skill"] not in skills:
        bad("skill", f"{entry['skill']!r} is not a skill.")
    prereqs = entry.get("prerequisites", [])
    if not isinstance(prereqs, list):
        bad("prerequisites", "Prerequisites are a list.")
    else:
        for i, need in enumerate(prereqs):
            ok = isinstance(need, dict) and (
                (set(need) == {"feat"} and _is_id(need["feat"]))
                or (
                    set(need) == {"attribute", "min"}
                    and need["attribute"] in ATTRIBUTES
                    and isinstance(need["min"], int)
                )
                or (set(need) == {"skill", "rank"} and need["skill"] in skills and need["rank"] in ranks)
            )
            if not ok:
                bad(
                    f"prerequisites/{i}",
                    'A prerequisite is {"feat": id}, {"attribute": "str", "min": 2} '
                    'or {"skill": "athletics", "rank": "expert"}.',
                )
    effects = entry.get("effects", [])
    if not isinstance(effects, list):
        bad(
            "effects",
            'Effects are a list, such as [{"kind": "modifier", "selector": "skill.athletics", '
            '"type": "circumstance", "value": 1}].',
        )
    else:
        names = {"skill": skills, "defense": DEFENSES, "ranks": ranks}
        for i, effect in enumerate(effects):
            issues += check_effect(effect, f"{path}/effects/{i}", names)


def _homebrew_ancestry(
    entry: dict, path: str, bad, issues: list[Issue], ranks: list[str], skills: dict
) -> None:
    if not isinstance(entry.get("stamina"), int) or entry["stamina"] < 0:
        bad("stamina", "An ancestry's Stamina is a whole number ≥ 0.")
    _attr_list(entry, "boosts", bad, required=False)
    free = entry.get("free_boosts", 0)
    if not isinstance(free, int) or not 0 <= free <= len(ATTRIBUTES):
        bad("free_boosts", "Free boosts are a whole number from 0 to 6.")


def _homebrew_heritage(
    entry: dict, path: str, bad, issues: list[Issue], ranks: list[str], skills: dict
) -> None:
    for key in ("ancestry", "feat"):
        if not _is_id(entry.get(key)):
            bad(key, f"A heritage names its {key} (an id).")


def _homebrew_background(
    entry: dict, path: str, bad, issues: list[Issue], ranks: list[str], skills: dict
) -> None:
    _attr_list(entry, "boosts", bad, required=True)
    if entry.get("skill") not in skills:
        bad("skill", "A background trains one skill (a skill id).")
    for key in ("lore", "skill_feat", "general_feat"):
        if not _is_id(entry.get(key)):
            bad(key, f"A background names its {key.replace('_', ' ')} (an id).")


_HOMEBREW_CHECKS = {
    "feats": _homebrew_feat,
    "ancestries": _homebrew_ancestry,
    "heritages": _homebrew_heritage,
    "backgrounds": _homebrew_background,
}
