"""Ascendant's build, the feat stage: the feats each level's slots hold (trades, ranks, prerequisites,
duplicates) and what they change (``Effects``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rulesets.engine.fields import is_int, lookup
from rulesets.engine.pointer import escape as esc
from rulesets.engine.words import a, few

from ..feats import Effects
from .common import FEAT_KINDS, TRADE
from .derive import _unmet
from .tables import (
    _FEAT_ID,
    _HASHABLE,
    _NO_FEAT,
    _effects,
    _label,
    allowed_feats,
)

if TYPE_CHECKING:
    from .checking import Check


def feat_picks(c: Check, n: int, plan: tuple, feats: Any) -> list[tuple[str, str, str, bool]]:
    """This level's feats as (path, feat id, slot kind, traded down); a slot's shape is checked here."""
    _, cp, _, _, _, due_kinds, slot_kinds, _, _, base, kind_paths, _ = plan
    if feats is None:
        feats = {}
    elif not isinstance(feats, dict):
        c.report.error(
            "build.malformed", base, 'Feats are an object keyed by kind: {"class": "power_attack"}.'
        )
        feats = {}
    for kind in due_kinds:
        if feats.get(kind) in _NO_FEAT:
            missing_feat(c, n, cp, kind, base)
    picked: list[tuple[str, str, str, bool]] = []
    for kind, value in feats.items():
        if type(value) is str and value and kind in slot_kinds:  # the common case: one feat id
            picked.append((kind_paths.get(kind) or base + "/" + esc(kind), value, kind, False))
            continue
        report, rules = c.report, c.rules
        path = kind_paths.get(kind) or base + "/" + esc(kind)
        if kind not in slot_kinds:
            due = sorted(k for k in FEAT_KINDS if n in rules.slots.get(k, ()))
            report.error(
                "ascendant.feat_slot_missing",
                path,
                f"Level {n} has no {kind} feat slot (its slots: {', '.join(due) or 'none'}); move this feat to a "
                "level that gives one.",
            )
        elif value in _NO_FEAT:
            continue
        elif isinstance(value, str):
            picked.append((path, value, kind, False))
        elif isinstance(value, list) and len(value) == 1 and isinstance(value[0], str):
            picked.append((path + "/0", value[0], kind, False))
        elif trade_allowed(c, path, value):
            picked += [(f"{path}/{i}", fid, kind, True) for i, fid in enumerate(value)]
    return picked


def _slot_hint(c: Check, n: int, cp: int, kind: str) -> tuple[str, list[tuple[str, str, Any, dict]], dict]:
    """What the hint of an empty slot of ``kind`` at Class Proficiency ``cp`` reads, once per context,
    ancestry and class (``Context.memo``): the slot in words ("a class feat"), the feats it could
    take by rank and owner (a first archetype slot: the Dedications, none teaching the character's own
    class), each as (id, name, what ``could_pick`` tests of it (``_pick_needs``), entry), and the
    hints worded so far (``missing_feat``)."""
    ancestry = c.ancestry["id"] if c.ancestry else None
    klass = c.klass["id"] if c.klass else None
    first = kind == "archetype" and n == c.rules.first_archetype
    key = ("ascendant.slot_hint", kind, cp, ancestry, klass, first)
    found = c.ctx.cache.get(key)
    if found is not None:
        return found

    def hint() -> tuple[str, list[tuple[str, str, Any, dict]], dict]:
        feats_cat = c.cat.get("feats", {})
        out = allowed_feats(c.ctx, c.rules, kind, cp, ancestry=ancestry, klass=klass)
        if first:
            archetypes = c.cat.get("archetypes", {})

            def teaches(fid: str) -> Any:
                archetype = feats_cat[fid].get("archetype")
                return (
                    (archetypes.get(archetype) or {}).get("teaches") if isinstance(archetype, str) else None
                )

            out = [
                f for f in out if feats_cat[f].get("dedication") and (klass is None or teaches(f) != klass)
            ]
        options = []
        for fid in out:
            feat = feats_cat[fid]
            options.append((fid, str(feat.get("name", fid)), _pick_needs(c, feat), feat))
        return a(kind + " feat"), options, {}

    return c.ctx.memo(key, hint)


#: ``_pick_needs`` of a feat whose prerequisites only ``could_pick`` itself reads.
_ASK = ("ask",)


def _pick_needs(c: Check, feat: dict) -> tuple:
    """What ``could_pick`` tests of ``feat``, as (repeats, needs): each need ("feat", id), ("attribute",
    id, least) or ("skill", id, rank index); ``_ASK`` when a prerequisite is not of those plain shapes."""
    prerequisites, feats_cat = feat.get("prerequisites"), c.cat.get("feats", {})
    repeats = bool(feat.get("repeatable"))
    if not isinstance(prerequisites, list):
        return repeats, ()
    needs: list[tuple] = []
    for need in prerequisites:
        if not isinstance(need, dict):
            continue
        if "feat" in need:
            fid = need["feat"]
            if not isinstance(fid, _HASHABLE):
                return _ASK
            if _label(lookup(feats_cat, fid), str(fid)):  # ``_unmet`` says why by its name: none, no need
                needs.append(("feat", fid))
        elif "attribute" in need:
            low = need.get("min", 0)
            if not isinstance(need["attribute"], _HASHABLE) or type(low) is not int:
                return _ASK
            needs.append(("attribute", need["attribute"], low))
        elif "skill" in need:
            if not isinstance(need["skill"], _HASHABLE):
                return _ASK
            needs.append(("skill", need["skill"], lookup(c.rules.rank_index, need.get("rank"), 1)))
    return repeats, tuple(needs)


def missing_feat(c: Check, n: int, cp: int, kind: str, base: str) -> None:
    slot, options, worded = _slot_hint(c, n, cp, kind)
    # The hint names only what can be picked here: not a feat already held (a background's or
    # heritage's, an earlier level's) unless it repeats, nor one whose prerequisites are unmet.
    # It shows five: a sixth is enough to know there are more.
    held, attrs, skill_rank = c.held, c.attrs, c.skill_rank
    names: list[str] = []
    for fid, name, needs, feat in options:
        if needs is _ASK:
            if not could_pick(c, fid, feat):
                continue
        elif fid in held and not needs[0]:
            continue
        else:
            met = True
            for need in needs[1]:
                what = need[0]
                if (
                    (need[1] not in held)
                    if what == "feat"
                    else (attrs.get(need[1], 0) < need[2])
                    if what == "attribute"
                    else (skill_rank.get(need[1], 0) < need[2])
                ):
                    met = False
                    break
            if not met:
                continue
        names.append(name)
        if len(names) > 5:
            break
    key = (n, *names)
    message = worded.get(key)
    if message is None:
        if len(worded) > 256:  # a few per level and set of feats held: bounded all the same
            worded.clear()
        examples = f" (e.g. {few(names, 5)})" if names else ""
        message = worded[key] = f"Level {n} gives {slot}: choose one{examples}."
    c.missing(f"{base}/{kind}", message)


def could_pick(c: Check, fid: str, feat: dict) -> bool:
    """Whether ``fid`` could fill an empty slot now: not held (or repeatable), prerequisites met."""
    if fid in c.held and not feat.get("repeatable"):
        return False
    prerequisites = feat.get("prerequisites")
    if not isinstance(prerequisites, list):
        return True
    return not any(
        _unmet(need, c.attrs, c.skill_rank, c.held, set(), fid, c.rules, c.cat) for need in prerequisites
    )


def trade_allowed(c: Check, path: str, value: Any) -> bool:
    """A slot holding a list: two feat ids, once, where the campaign trades down (RULES.md)."""
    report, s = c.report, c.s
    if isinstance(value, list) and any(isinstance(v, list) for v in value):
        report.error(
            TRADE,
            path,
            "A feat taken by trading a slot down cannot be traded down again "
            "(two Expert feats never become four Trained ones); list two feat ids, or one.",
        )
    elif not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        report.error(
            "build.malformed",
            path,
            "A feat slot holds one feat id, or a list of two feat ids of the rank below.",
        )
    elif not s.get("trade_down", True):
        report.error(
            TRADE, path, "This campaign does not trade a feat slot for two lower feats; keep one feat."
        )
    elif len(value) > 2:
        report.error(
            TRADE,
            path,
            f"A slot traded down holds exactly two feats of the rank below, not "
            f"{len(value)}: a slot is traded once (two Expert feats never become four Trained ones).",
        )
    else:
        c.trade_downs += 1
        trade_max = s.get("trade_downs_max")
        if not (is_int(trade_max) and c.trade_downs > trade_max):
            return True
        report.error(
            TRADE,
            path,
            f"This campaign allows {trade_max} trade-down"
            f"{'s' if trade_max != 1 else ''} in all; keep one feat in this slot.",
        )
    return False


def plain_feats(c: Check, n: int, plan: tuple, feats: Any) -> bool:
    """The common level: one feat id in each slot, each a feat of the slot's kind that the character
    may take (``_fast_feats``), no feat twice. Judged here (what ``feat_picks`` and ``judge_feats``
    would find, in their order); False, having reported nothing, when the level is not such a level."""
    if type(feats) is not dict:
        return False
    try:
        level_ids = set(feats.values())
    except TypeError:  # a list: a traded slot, or worse
        return False
    if len(level_ids) != len(feats):
        return False
    slot_kinds, fast, held, skill_rank, cp = plan[6], c.fast_feats, c.held, c.skill_rank, plan[1]
    clean = True  # so far nothing to report
    for kind, fid in feats.items():
        if type(fid) is not str or kind not in slot_kinds:
            return False
        f = fast.get(fid)
        if f is None or f[0] != kind:
            return False
        if clean and (
            (fid in held and not f[3])
            or f[2] > (skill_rank.get(f[1], 0) if kind == "skill" else cp)
            or (f[4] is not None and not needs_met(c, n, fid, f[4], level_ids))
        ):
            clean = False
    _, _, _, _, _, due_kinds, _, _, _, base, _, paths = plan
    for kind in due_kinds:
        if kind not in feats:
            missing_feat(c, n, cp, kind, base)
    if not clean:
        report_feats(c, n, cp, feats, paths, level_ids)
    for kind, fid in feats.items():
        if fid not in held:
            held[fid] = paths[kind]
    return True


def report_feats(c: Check, n: int, cp: int, feats: dict, paths: dict, level_ids: set) -> None:
    """What is wrong with the feats of a plain level (``plain_feats``), feat by feat."""
    fast, held, skill_rank = c.fast_feats, c.held, c.skill_rank
    for kind, fid in feats.items():
        f = fast[fid]
        if fid in held and not f[3]:
            duplicate_feat(c, n, paths[kind], fid, f[5][1])
        elif f[2] > (skill_rank.get(f[1], 0) if kind == "skill" else cp):
            feat_fits(c, n, cp, paths[kind], kind, False, f[5])  # says why it does not fit
        elif f[4] is not None and not needs_met(c, n, fid, f[4], level_ids):
            feat_prerequisites(c, n, paths[kind], fid, kind, f[5], level_ids)


def needs_met(c: Check, n: int, fid: str, needs: tuple, level_ids: set) -> bool:
    """Whether ``feat_prerequisites`` would find nothing unmet (``_needs``); it is what says why."""
    held = c.held
    for need in needs:
        what = need[0]
        if what == "feat":  # held, or taken at this level (by another feat than this one)
            if need[1] not in held and (need[1] not in level_ids or (need[2] and need[1] == fid)):
                return False
        elif what == "attribute":
            if c.attrs.get(need[1], 0) < need[2]:
                return False
        elif what == "skill":
            if c.skill_rank.get(need[1], 0) < need[2]:
                return False
        elif what == "first_archetype":
            if n == c.rules.first_archetype:
                return False
        else:
            return False
    return True


def judge_feats(
    c: Check, n: int, cp: int, picked: list[tuple[str, str, str, bool]], feat_table: dict, feats_cat: dict
) -> None:
    """Each feat taken at level ``n``: known, not held, in its kind's slot, of a rank the slot allows,
    its prerequisites met (by the character as of this level, this level's other feats included)."""
    held, skill_rank, fast = c.held, c.skill_rank, c.fast_feats
    level_ids = set(map(_FEAT_ID, picked))
    seen_here: set[str] = set()
    for path, fid, kind, traded in picked:
        # The common case: a known feat of the slot's kind that this character may take
        # (``_fast_feats``); anything else goes the long way, which says what is wrong.
        f = fast.get(fid)
        if f is None or f[0] != kind:
            judge_feat(c, n, cp, path, fid, kind, traded, feat_table.get(fid), level_ids, seen_here)
            continue
        if (fid in held or fid in seen_here) and not f[3]:
            duplicate_feat(c, n, path, fid, f[5][1])
            continue
        seen_here.add(fid)
        limit = skill_rank.get(f[1], 0) if kind == "skill" else cp
        rank = f[2]
        if rank <= limit and (not traded or rank == limit - 1):
            if f[4] is not None and not needs_met(c, n, fid, f[4], level_ids):
                feat_prerequisites(c, n, path, fid, kind, f[5], level_ids)
        else:
            feat_fits(c, n, cp, path, kind, traded, f[5])  # says why it does not fit
    for path, fid, _, _ in picked:
        if fid in feats_cat:
            held.setdefault(fid, path)


def judge_feat(
    c: Check,
    n: int,
    cp: int,
    path: str,
    fid: str,
    kind: str,
    traded: bool,
    record: tuple | None,
    level_ids: set,
    seen_here: set,
) -> None:
    """One feat that is not plainly in its slot: unknown, taken twice, or why it does not fit."""
    if record is None:
        c.report.error("skill.unknown", path, f"{fid!r} is not a feat here; pick one from the level-up list.")
        return
    if (fid in c.held or fid in seen_here) and not record[0].get("repeatable"):
        duplicate_feat(c, n, path, fid, record[1])
        return
    seen_here.add(fid)
    if feat_fits(c, n, cp, path, kind, traded, record) and (record[8] or kind == "archetype"):
        feat_prerequisites(c, n, path, fid, kind, record, level_ids)


def duplicate_feat(c: Check, n: int, path: str, fid: str, name: str) -> None:
    where = c.held.get(fid, f"level {n}")
    c.report.error("skill.duplicate", path, f"{name} is already taken ({where}); choose another feat.")


def feat_fits(c: Check, n: int, cp: int, path: str, kind: str, traded: bool, record: tuple) -> bool:
    """The feat is of the slot's kind, the character's own, and of a rank the slot allows."""
    report, rules = c.report, c.rules
    feat, name, f_kind, f_heritage, f_ancestry, f_class, f_skill, f_rank, _ = record
    if f_kind != kind:
        report.error(
            "ascendant.feat_slot_missing",
            path,
            f"{name} is {a(str(feat.get('kind')) + ' feat')}, and this is {a(kind + ' slot')}; "
            f"put it in {a(str(feat.get('kind')) + ' slot')} or choose {a(kind + ' feat')}.",
        )
        return False
    if f_heritage:
        report.error(
            "ascendant.feat_prerequisite_missing",
            path,
            f"{name} comes only with the {c._name('heritages', feat['heritage'])} heritage; "
            "choose another feat.",
        )
        return False
    if kind == "ancestry" and f_ancestry not in (None, c.ancestry["id"] if c.ancestry else None):
        report.error(
            "ascendant.feat_prerequisite_missing",
            path,
            f"{name} is a feat of the {c._name('ancestries', feat.get('ancestry'))} ancestry; "
            "choose one of your own.",
        )
        return False
    if kind == "class" and f_class not in (None, c.klass["id"] if c.klass else None):
        report.error(
            "ascendant.feat_prerequisite_missing",
            path,
            f"{name} is {a(c._name('classes', feat.get('class')))} feat; choose one of your own class's.",
        )
        return False
    limit = c.skill_rank.get(f_skill, 0) if kind == "skill" else cp
    rank = rules.rank_index.get(f_rank, len(rules.ranks))
    if rank <= limit and (not traded or rank == limit - 1):
        return True
    if kind == "skill":
        where = (
            f"your proficiency in "
            f"{_label(c.cat.get('skills', {}).get(feat.get('skill')), str(feat.get('skill')))}"
        )
    else:
        where = f"your Class Proficiency at level {n}"
    if traded:
        slot = path.rsplit("/", 1)[0]
        if slot not in c.bad_trades:
            c.bad_trades.add(slot)
            below = (
                f"exactly one rank below the slot's ({rules.rank_label(limit - 1)} here, from {where}: "
                f"{rules.rank_label(limit)})"
                if limit > 1
                else f"of a rank below the slot's, and {where} is {rules.rank_label(limit)}, the lowest"
            )
            report.error(
                TRADE,
                slot,
                f"Two feats in one slot must each be {below}; {name} is "
                f"{rules.rank_label(rank)}. Choose another feat or keep one feat in this slot.",
            )
        return False
    report.error(
        "ascendant.feat_rank_too_high",
        path,
        f"{name} is {a(rules.rank_label(rank))} feat, above {where} ({rules.rank_label(limit)}); "
        "take it at a later level.",
    )
    return False


def feat_prerequisites(
    c: Check, n: int, path: str, fid: str, kind: str, record: tuple, level_ids: set
) -> None:
    feat, name, prerequisites = record[0], record[1], record[8]
    if kind != "archetype" and (prerequisites == () or prerequisites == []):
        return
    cat, held = c.cat, c.held
    unmet = []
    if kind == "archetype":
        if n == c.rules.first_archetype and not feat.get("dedication"):
            unmet.append("your first archetype feat must be a Dedication")
        elif not feat.get("dedication"):
            dedication = (cat.get("archetypes", {}).get(feat.get("archetype")) or {}).get("dedication")
            if dedication and dedication not in held and dedication not in level_ids:
                unmet.append(f"{_label(cat.get('feats', {}).get(dedication), dedication)} first")
    for need in prerequisites:
        text = _unmet(need, c.attrs, c.skill_rank, held, level_ids, fid, c.rules, cat)
        if text:
            unmet.append(text)
    if unmet:
        c.report.error("ascendant.feat_prerequisite_missing", path, f"{name} needs {'; '.join(unmet)}.")


def feat_effects(c: Check, level: int) -> Effects:
    fx = _effects(c.ctx, c.held, level)
    rank_index, skill_rank = c.rules.rank_index, c.skill_rank
    for skill, rank, _ in fx.skills:  # a feat's trained skill (never lowers one)
        if skill in skill_rank:
            skill_rank[skill] = max(skill_rank[skill], rank_index.get(rank, 1))
    return fx
