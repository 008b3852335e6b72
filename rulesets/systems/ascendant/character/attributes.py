"""Ascendant's build, the attribute stage: creation boosts (ancestry, background, class, free) and
each even level's attribute points, never above the cap."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rulesets.engine.fields import is_int
from rulesets.engine.pointer import escape as esc
from rulesets.engine.pointer import ptr
from rulesets.engine.words import a

from .common import ATTRIBUTE_LABELS, ATTRIBUTES, GROUP_SLOTS
from .tables import (
    _BOOST_PATHS,
    _label,
)

if TYPE_CHECKING:
    from .checking import Check


def creation_boosts(c: Check) -> None:
    report, s = c.report, c.s
    boosts = c.build.get("boosts")
    if boosts is None:
        boosts = {}
        c.missing(
            "/boosts",
            "Choose the attribute boosts of your ancestry, background and class, and four free ones.",
        )
    elif not isinstance(boosts, dict):
        report.error(
            "build.malformed",
            "/boosts",
            'Boosts must be an object: {"ancestry": [...], '
            '"background": [...], "class": "str", "free": [...]}.',
        )
        boosts, c.attrs_ok = {}, False
    for key in boosts:
        if key not in GROUP_SLOTS:
            report.warn(
                "build.unknown_key",
                ptr("boosts", key),
                f"Boosts come from {', '.join(GROUP_SLOTS)}; {key!r} is ignored.",
            )
    c.boosts = boosts
    applied = ancestry_boosts(c) + background_boosts(c) + class_boost(c)
    applied += boost_list(c, "free", s["free_boosts"], "free boosts")
    attrs, creation_cap = c.attrs, c.rules.cap(1)
    capped: set[str] = set()
    for path, attr in applied:
        attrs[attr] += 1
        if attrs[attr] > creation_cap and attr not in capped:
            capped.add(attr)
            report.error(
                "ascendant.attribute_cap",
                path,
                f"{ATTRIBUTE_LABELS[attr]} would start at +{attrs[attr]}; no attribute starts above "
                f"+{creation_cap}. Move this boost to another attribute.",
            )


def boost_list(c: Check, group: str, required: int, what: str) -> list[tuple[str, str]]:
    """The boosts of one group that count: different attributes, no more than ``required``."""
    report = c.report
    path = f"/boosts/{group}"
    raw = c.boosts.get(group)
    if raw is None or raw == []:
        if required:
            c.missing(path, f"Choose {required} different attributes to boost from your {what}.")
        return []
    if not isinstance(raw, list):
        report.error(
            "build.malformed",
            path,
            f'The {what} boosts must be a list of attributes such as ["str", "con"].',
        )
        c.attrs_ok = False
        return []
    out: list[tuple[str, str]] = []
    seen: set[str] = set()
    paths = _BOOST_PATHS.get(group, ())
    for i, attr in enumerate(raw):
        p = paths[i] if i < len(paths) else f"/boosts/{group}/{i}"
        if not isinstance(attr, str):
            report.error("build.malformed", p, "A boost is an attribute id: str, dex, con, int, wis or cha.")
            c.attrs_ok = False
        elif attr not in c.attrs:
            report.error(
                "attribute.unknown",
                p,
                f"{attr!r} is not an attribute; use str, dex, con, int, wis or cha.",
            )
            c.attrs_ok = False
        elif i >= required:
            report.error(
                "ascendant.boost_invalid",
                p,
                f"Your {what} gives {required} boosts, not {len(raw)}: remove this one.",
            )
        elif attr in seen:
            report.error(
                "ascendant.boost_invalid",
                p,
                f"{ATTRIBUTE_LABELS[attr]} is boosted twice by your "
                f"{what}; each of these boosts must go to a different attribute.",
            )
        else:
            seen.add(attr)
            out.append((p, attr))
    if len(raw) < required:
        c.missing(
            path,
            f"Your {what} gives {required} boosts; choose {required - len(raw)} more, each to a "
            "different attribute.",
        )
    return out


def ancestry_boosts(c: Check) -> list[tuple[str, str]]:
    ancestry, boosts = c.ancestry, c.boosts
    if ancestry is None:
        if isinstance(boosts.get("ancestry"), list):
            return boost_list(c, "ancestry", len(boosts["ancestry"]), "ancestry")
        return []
    fixed = [a for a in ancestry.get("boosts", []) if a in c.attrs]
    free = ancestry.get("free_boosts", 0)
    if boosts.get("ancestry") is None and not free:
        return [(ptr("boosts", "ancestry"), a) for a in fixed]  # nothing to choose: automatic
    got = boost_list(c, "ancestry", len(fixed) + free, f"ancestry ({_label(ancestry, ancestry['id'])})")
    lacking = [a for a in fixed if a not in {a for _, a in got}]
    if lacking and isinstance(boosts.get("ancestry"), list) and len(boosts["ancestry"]) >= len(fixed) + free:
        c.report.error(
            "ascendant.boost_invalid",
            ptr("boosts", "ancestry"),
            f"{a(_label(ancestry, ancestry['id'])).capitalize()} always boosts {', '.join(fixed)}; "
            f"list {', '.join(lacking)} here.",
        )
    return got


def background_boosts(c: Check) -> list[tuple[str, str]]:
    background, count = c.background, c.s["background_boosts"]
    got = boost_list(c, "background", count, "background")
    if background is not None and len(got) == count:
        options = background.get("boosts") or list(ATTRIBUTES)
        if not any(a in options for _, a in got):
            c.report.error(
                "ascendant.boost_invalid",
                ptr("boosts", "background"),
                f"The {_label(background, background['id'])} background boosts {' or '.join(options)} with one "
                "of its three boosts; put one of them in this list.",
            )
    return got


def _attr_names(ids: list) -> str:
    """["str", "dex"] → "Strength or Dexterity": attributes as the game names them."""
    return " or ".join(ATTRIBUTE_LABELS.get(i, str(i)) for i in ids)


def class_boost(c: Check) -> list[tuple[str, str]]:
    report, klass = c.report, c.klass
    class_boost = c.boosts.get("class")
    if class_boost is None:
        c.missing(
            "/boosts/class",
            "Boost your class's key attribute"
            + (f": {_attr_names(klass.get('key_attributes', []))}." if klass else "."),
        )
    elif not isinstance(class_boost, str):
        report.error(
            "build.malformed", "/boosts/class", 'The class boost is one attribute id, such as "str".'
        )
        c.attrs_ok = False
    elif class_boost not in c.attrs:
        report.error("attribute.unknown", "/boosts/class", f"{class_boost!r} is not an attribute.")
        c.attrs_ok = False
    elif klass is not None and class_boost not in klass.get("key_attributes", []):
        report.error(
            "ascendant.boost_invalid",
            "/boosts/class",
            f"The {_label(klass, klass['id'])}'s key attribute is "
            f"{_attr_names(klass.get('key_attributes', []))}; boost that instead of "
            f"{ATTRIBUTE_LABELS.get(class_boost, class_boost)}.",
        )
    else:
        return [("/boosts/class", class_boost)]
    return []


def attribute_points(c: Check, n: int, plan: tuple, points: Any) -> None:
    report, s, attrs = c.report, c.s, c.attrs
    _, cp, cap, attr_due, _, _, _, base, _, _, _, _ = plan
    if not attr_due:
        if points not in (None, {}):
            report.error(
                "ascendant.boost_invalid",
                base,
                f"Level {n} gives no attribute points (they come at "
                "even levels); remove them or move them to an even level.",
            )
        return
    due = s["attribute_points"]
    if points is None or points == {}:
        c.missing(
            base,
            f"Level {n} gives {due} attribute points: +1 to three attributes, +2 and +1, or +3 to one.",
        )
        return
    if not isinstance(points, dict):
        report.error("build.malformed", base, 'Attribute points are an object such as {"str": 2, "dex": 1}.')
        c.attrs_ok = False
        return
    total = 0
    for attr, amount in points.items():
        if type(amount) is int and amount > 0 and attr in attrs:  # the common case
            total += amount
            value = attrs[attr] = attrs[attr] + amount
            if value > cap:
                above_cap(c, n, cp, cap, base + "/" + esc(attr), attr)
            continue
        p = base + "/" + esc(attr)
        if attr not in attrs:
            report.error(
                "attribute.unknown",
                p,
                f"{attr!r} is not an attribute; use str, dex, con, int, wis or cha.",
            )
            c.attrs_ok = False
        elif not is_int(amount) or amount < 0:
            report.error("build.malformed", p, "Attribute points are whole numbers from 1 to 3.")
            c.attrs_ok = False
        else:
            total += amount
            attrs[attr] += amount
            if amount and attrs[attr] > cap:
                above_cap(c, n, cp, cap, p, attr)
    if total > due:
        report.error(
            "ascendant.boost_invalid",
            base,
            f"Level {n} gives {due} attribute points, not {total}: take {total - due} away.",
        )
    elif total < due:
        c.missing(base, f"Level {n} gives {due} attribute points; {due - total} still to place.")


def above_cap(c: Check, n: int, cp: int, cap: int, path: str, attr: str) -> None:
    c.report.error(
        "ascendant.attribute_cap",
        path,
        f"{ATTRIBUTE_LABELS[attr]} would reach +{c.attrs[attr]}, above the +{cap} that "
        f"{c.rules.rank_label(cp)} Class Proficiency allows at level {n}; put these points "
        "elsewhere.",
    )
