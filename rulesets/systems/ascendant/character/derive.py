"""Ascendant's derived numbers: skills, Lores, defenses, Perception, Stamina, each with its breakdown."""

from __future__ import annotations

from typing import Any

from rulesets.engine.fields import is_int, lookup

from ..feats import ACTIONS, Effects, flat
from .common import ATTRIBUTE_LABELS, DEFENSES
from .tables import Rules, _label


def _derive(
    d: dict,
    rules: Rules,
    s: dict,
    *,
    level: int,
    xp: Any,
    attrs: dict | None,
    skill_rank: dict,
    lore_rank: dict,
    lores_held: list,
    lore_slots: int,
    held: dict,
    fx: Effects,
    ancestry: dict | None,
    klass: dict | None,
    armor: dict | None,
    skill_attr: dict,
    final_cap: int,
    names: dict,
    selectors: dict,
) -> None:
    """The derived numbers (RULES.md 3 "Derived"), each feat effect in them with its source."""
    cp = rules.class_proficiency(level)
    d["level"] = level
    # The highest level the earned XP reaches: the advance page offers the level-up wizard up to it.
    if is_int(xp):
        d["level_reachable"] = max(1, min(s["max_level"], xp // s["xp_per_level"] + 1))
    d["class_proficiency"] = rules.ranks[cp]
    d["proficiency_bonus"] = rules.bonus_of(cp)
    d["attribute_max"] = final_cap
    d["skill_ranks"] = dict(zip(skill_rank, map(rules.ranks.__getitem__, skill_rank.values()), strict=False))
    d["feats"] = fx.sorted_ids(held)
    d["lores"] = lores_held
    ranks = rules.ranks
    d["lore_ranks"] = lore_ranks = {}  # never above Class Proficiency
    for lore in lores_held:
        lore_ranks[lore] = ranks[lore_rank.get(lore, 1)]
    if fx.actions:
        d["actions"] = [{"id": a, "label": ACTIONS[a], "source": src} for a, src in fx.actions]
    if fx.situational:
        d["situational"] = [dict(m) for m in fx.situational]
    if fx.resistances:
        d["resistances"] = dict(fx.resistances)
    if fx.weapons:
        d["weapon_proficiencies"] = list(fx.weapons)
    breakdowns: dict[str, dict] = {}
    if fx.dying_max:  # the campaign's Dying maximum + this; play and combat add it to their context's
        d["dying_max_bonus"] = sum([n for n, _ in fx.dying_max])
        _flat_number(breakdowns, "dying_max", "Dying maximum", s["dying_max"], fx.dying_max, "")
    if ancestry is not None and is_int(ancestry.get("speed")):
        d["speed"] = _flat_number(breakdowns, "speed", "Speed", ancestry["speed"], fx.speed, " feet")
    if attrs is None:
        if breakdowns:
            d["breakdown"] = breakdowns
        return
    d["attributes"] = dict(attrs)
    d["invest_limit"] = s["invest_base"] + attrs["cha"]
    d["lore_slots"] = _flat_number(breakdowns, "lore_slots", "Lores", max(0, attrs["int"]), fx.lores, "")
    bonus, top = rules._bonus, len(rules._bonus) - 1
    mods = fx.modifiers
    if mods:
        skills = {}
        parts = fx.per_skill(selectors, names)
        for k, v in skill_rank.items():
            base = bonus[v if v <= top else top] + attrs[skill_attr[k]]
            part = parts[k][v == 0]
            if part is None:
                skills[k] = base
            else:
                total = skills[k] = base + part[0]
                breakdowns[part[5]] = {
                    "modifiers": part[1],
                    "total": total,
                    "applied": part[2],
                    "ignored": part[3],
                    "label": part[4],
                    "base": base,
                }
        d["skills"] = skills
        d["lore_modifiers"] = _lore_modifiers(breakdowns, rules, attrs, lore_rank, lores_held, fx, names)
    else:
        d["skills"] = {k: bonus[v if v <= top else top] + attrs[skill_attr[k]] for k, v in skill_rank.items()}
        d["lore_modifiers"] = {
            lore: rules.bonus_of(lore_rank.get(lore, 1)) + attrs["int"] for lore in lores_held
        }
    if klass is None:
        if breakdowns:
            d["breakdown"] = breakdowns
        return
    _derive_defenses(
        d, breakdowns, rules, s, level=level, attrs=attrs, fx=fx, ancestry=ancestry, klass=klass, armor=armor
    )
    if breakdowns:
        d["breakdown"] = breakdowns


def _lore_modifiers(
    breakdowns: dict,
    rules: Rules,
    attrs: dict,
    lore_rank: dict,
    lores_held: list,
    fx: Effects,
    names: dict,
) -> dict[str, int]:
    """Each Lore's modifier: its rank's bonus + Intelligence, with the feats' Lore modifiers."""
    by_selector, out = fx.by_selector, {}
    for lore in lores_held:
        base = rules.bonus_of(lore_rank.get(lore, 1)) + attrs["int"]
        key = f"lore.{lore}"
        if "lores" in by_selector or key in by_selector:
            base = _number(breakdowns, key, names.get(lore, lore), base, fx, ("lores", key))
        out[lore] = base
    return out


def _derive_defenses(
    d: dict,
    breakdowns: dict,
    rules: Rules,
    s: dict,
    *,
    level: int,
    attrs: dict,
    fx: Effects,
    ancestry: dict | None,
    klass: dict,
    armor: dict | None,
) -> None:
    """Defenses, Perception, initiative, thresholds and Stamina: what the class decides."""
    cp = rules.class_proficiency(level)
    lagging = klass.get("lagging", ())
    bonus = rules._bonus

    behind = bonus[max(1, cp - 1)] if lagging else 0
    d["defenses"] = defenses = {}
    for name, attr in DEFENSES.items():
        defenses[name] = (behind if name in lagging else bonus[cp]) + attrs[attr]
    if fx.modifiers:
        for name, key, label, stacked in fx.present(_DEFENSE_KEYS):
            defenses[name] = _stacked_number(breakdowns, key, label, defenses[name], stacked)
    perception_rank = max(1, cp - 1) if "perception" in lagging else cp
    if fx.perception:
        perception_rank = max([perception_rank, *(rules.rank_index.get(r, 1) for r, _ in fx.perception)])
    perception_base = rules.bonus_of(perception_rank) + attrs["wis"]
    d["perception"] = _number(breakdowns, "perception", "Perception", perception_base, fx, ("perception",))
    d["initiative"] = _number(
        breakdowns, "initiative", "Initiative", perception_base, fx, ("perception", "initiative")
    )
    _number(breakdowns, "attack", "Attacks", 0, fx, ("attack",))  # combat stacks these on every attack roll
    category = armor.get("category", "unarmored") if armor else "unarmored"
    trained_armor = klass.get("armor", [])
    if fx.armor or fx.armor_next:
        trained_armor = d["armor_proficiencies"] = fx.armor_categories(trained_armor)
    armor_prof = rules.bonus_of(cp) if category in trained_armor else 0
    base = s["threshold_base"]
    d["thresholds"] = thresholds = {}
    for name, value in defenses.items():
        thresholds[name] = base + value
    d["thresholds"]["deflection"] = _number(
        breakdowns,
        "deflection",
        "Deflection",
        base + armor_prof + attrs["dex"] + (armor.get("bonus", 0) if armor else 0),
        fx,
        ("deflection",),
    )
    casts = klass.get("casts")
    if isinstance(casts, str) and casts in attrs:
        # W10: "every threshold you set, such as your spell threshold, are 10 plus that same modifier".
        d["spell_attribute"] = casts
        thresholds["spell"] = base + bonus[cp] + attrs[casts]
    if ancestry is not None:
        raw = ancestry.get("stamina", 0) + level * (klass.get("stamina", 0) + attrs["con"])
        d["max_stamina"] = _flat_number(
            breakdowns, "max_stamina", "Max stamina", raw, fx.stamina_parts(level), ""
        )


_DEFENSE_KEYS = tuple((name, f"defense.{name}", (f"defense.{name}",), name.title()) for name in DEFENSES)


def _number(
    breakdowns: dict, key: str, label: str, base: int, fx: Effects, selectors: tuple[str, ...]
) -> int:
    """``base`` with the feats' modifiers of ``selectors`` stacked in; the parts go to ``breakdowns``."""
    if not fx.modifiers:
        return base
    stacked = fx.stacked(selectors)
    if stacked is None:
        return base
    return _stacked_number(breakdowns, key, label, base, stacked)


def _stacked_number(breakdowns: dict, key: str, label: str, base: int, stacked: dict) -> int:
    total = base + stacked["total"]
    breakdowns[key] = {
        "label": label,
        "base": base,
        "total": total,
        "modifiers": stacked["modifiers"],
        "applied": stacked["applied"],
        "ignored": stacked["ignored"],
    }
    return total


def _flat_number(
    breakdowns: dict, key: str, label: str, base: int, parts: list[tuple[int, str]], unit: str
) -> int:
    if not parts:
        return base
    entry = breakdowns[key] = flat(label, base, parts, unit)
    return entry["total"]


def _unmet(
    need: Any,
    attrs: dict,
    skill_rank: dict,
    held: dict,
    same_level: set,
    this_feat: str,
    rules: Rules,
    cat: dict,
) -> str | None:
    """Why a prerequisite is not met (None when it is); ``same_level`` minus ``this_feat`` also count."""
    if not isinstance(need, dict):
        return None
    if "feat" in need:
        fid = need["feat"]
        if fid in held or (fid in same_level and fid != this_feat):
            return None
        return _label(cat.get("feats", {}).get(fid), str(fid))
    if "attribute" in need:
        attr, low = need["attribute"], need.get("min", 0)
        if attrs.get(attr, 0) >= low:
            return None
        return f"{ATTRIBUTE_LABELS.get(attr, attr)} +{low} (you have +{attrs.get(attr, 0)})"
    if "skill" in need:
        skill, rank = need["skill"], lookup(rules.rank_index, need.get("rank"), 1)
        if skill_rank.get(skill, 0) >= rank:
            return None
        return (
            f"{rules.rank_label(rank)} in {_label(cat.get('skills', {}).get(skill), str(skill))} "
            f"(you are {rules.rank_label(skill_rank.get(skill, 0))})"
        )
    return None
