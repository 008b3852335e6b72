"""Ascendant's house tables (``Rules``) and the catalogue's indexes, worked out once per context."""

from __future__ import annotations

from operator import itemgetter
from typing import Any

from rulesets.engine.context import Context
from rulesets.engine.fields import lookup
from rulesets.engine.pointer import escape as esc
from rulesets.engine.words import few

from ..feats import Effects, check_effect
from .common import FEAT_KINDS, GROUP_SLOTS


class Rules:
    """The house tables of one context, indexed once per check."""

    __slots__ = (
        "s",
        "ranks",
        "rank_index",
        "bonus",
        "cp_levels",
        "attr_max",
        "slots",
        "attr_levels",
        "skill_levels",
        "_cp",
        "_cap",
        "_bonus",
        "level_plan",
        "rank_bonus_of",
        "level_numbers",
        "first_archetype",
    )

    def __init__(self, settings: dict[str, Any]):
        self.s = settings
        self.ranks: list[str] = list(settings["ranks"])
        self.rank_index = {r: i for i, r in enumerate(self.ranks)}
        self.bonus: dict[str, int] = settings["rank_bonus"]
        self.cp_levels = sorted(settings["class_proficiency_levels"])
        self.attr_max: dict[str, int] = settings["attribute_max"]
        self.slots = {kind: frozenset(levels) for kind, levels in settings["feat_slots"].items()}
        self.attr_levels = frozenset(settings["attribute_levels"])
        self.skill_levels = frozenset(settings["skill_increase_levels"])
        top = len(self.ranks) - 1
        levels = range(settings["max_level"] + 1)
        self._cp = [min(sum(1 for lv in self.cp_levels if lv <= n), top) for n in levels]
        self._bonus = [self.bonus.get(rank, 0) for rank in self.ranks]
        self._cap = [self._compute_cap(n) for n in levels]
        #: Rank id -> its bonus, for ranks that are ranks here.
        self.rank_bonus_of = {rank: self.bonus.get(rank, 0) for rank in self.ranks}
        #: Per level n (index n): what ``check`` walks — (level key, Class Proficiency, cap,
        #: attribute points due, skill increase due, FEAT_KINDS with a slot here, every slot kind
        #: here, the attributes / skill_increase / feats paths, each feat kind's path, each slot's path).
        self.level_plan = [
            (
                str(n),
                self._cp[n],
                self._cap[n],
                n in self.attr_levels,
                n in self.skill_levels,
                tuple(k for k in FEAT_KINDS if n in self.slots.get(k, ())),
                frozenset(k for k, lvls in self.slots.items() if n in lvls),
                f"/levels/{n}/attributes",
                f"/levels/{n}/skill_increase",
                f"/levels/{n}/feats",
                {k: f"/levels/{n}/feats/{k}" for k in FEAT_KINDS},
                {k: f"/levels/{n}/feats/{esc(k)}" for k, lvls in self.slots.items() if n in lvls},
            )
            for n in levels
        ]
        #: "1" … str(max_level) -> the level number (the keys ``levels`` may have).
        self.level_numbers = {str(n): n for n in range(1, settings["max_level"] + 1)}
        #: The level of the first archetype feat (a Dedication).
        self.first_archetype = min(self.slots.get("archetype", [1]) or [1])

    @classmethod
    def of(cls, ctx: Context) -> Rules:
        """The tables of the context's house rules, built once per context (``Context.memo``)."""
        found = ctx.cache.get("ascendant.rules")  # the common case, without making the closure
        return found if found is not None else ctx.memo("ascendant.rules", lambda: cls(ctx.settings))

    def class_proficiency(self, level: int) -> int:
        """Rank index of Class Proficiency at ``level`` (1 = trained)."""
        return self._cp[level]

    def rank_label(self, index: int) -> str:
        rank = self.ranks[max(0, min(index, len(self.ranks) - 1))]
        return self.s.get("rank_labels", {}).get(rank, rank.title())

    def bonus_of(self, index: int) -> int:
        return self._bonus[max(0, min(index, len(self._bonus) - 1))]

    def cap(self, level: int) -> int:
        """The highest an attribute may be at ``level`` (HD table; the creation cap at 1)."""
        return self._cap[level]

    def _compute_cap(self, level: int) -> int:
        cp = self.ranks[self._cp[level]]
        cap = self.attr_max.get(cp, 0)
        if level == 1:
            cap = min(cap, self.s["creation_attribute_max"])
        return cap


def _skill_attributes(ctx: Context) -> dict[str, Any]:
    """Skill id -> the attribute it adds, once per context (``Context.memo``)."""
    found = ctx.cache.get("ascendant.skill_attributes")
    if found is not None:
        return found

    def table() -> dict[str, Any]:
        return {k: entry.get("attribute", "str") for k, entry in ctx.catalogue.get("skills", {}).items()}

    return ctx.memo("ascendant.skill_attributes", table)


def _feat_table(ctx: Context) -> dict[str, tuple]:
    """Feat id -> (entry, name, kind, heritage, ancestry, class, skill, rank, prerequisites): the
    fields ``check`` reads of every feat taken, read once per context (``Context.memo``)."""
    found = ctx.cache.get("ascendant.feat_table")
    if found is not None:
        return found

    def table() -> dict[str, tuple]:
        return {
            fid: (
                feat,
                feat.get("name", fid),
                feat.get("kind"),
                feat.get("heritage"),
                feat.get("ancestry"),
                feat.get("class"),
                feat.get("skill"),
                feat.get("rank"),
                feat.get("prerequisites", ()),
            )
            for fid, feat in ctx.catalogue.get("feats", {}).items()
        }

    return ctx.memo("ascendant.feat_table", table)


_FEAT_ID = itemgetter(1)
#: What a level of ``levels`` holds.
_LEVEL_KEYS = frozenset(("feats", "attributes", "skill_increase"))
#: A level without choices (read only).
_NO_CHOICES: dict[str, Any] = {}
#: What an empty feat slot holds.
_NO_FEAT: tuple[Any, ...] = (None, [], "")
_HASHABLE = (str, int, float, bool, type(None))


def _fast_feats(ctx: Context, rules: Rules, ancestry: str | None, klass: str | None) -> dict[str, tuple]:
    """Feat id -> (kind, skill, rank index, repeatable, what its prerequisites need (``_needs``),
    ``_feat_table`` record) of every feat a character of ``ancestry`` and ``klass`` may put in a slot
    of its kind (not heritage-only, not another ancestry's or class's): the feats ``judge_feats`` and
    ``plain_feats`` take the short way. Once per context, ancestry and class (``Context.memo``)."""
    found = ctx.cache.get(("ascendant.fast_feats", ancestry, klass))
    if found is not None:
        return found

    def table() -> dict[str, tuple]:
        out = {}
        n_ranks = len(rules.ranks)
        for fid, record in _feat_table(ctx).items():
            feat, _, kind, heritage, f_ancestry, f_class, skill, rank, prerequisites = record
            if heritage or not isinstance(rank, _HASHABLE) or not isinstance(kind, _HASHABLE):
                continue
            if kind == "ancestry" and f_ancestry not in (None, ancestry):
                continue
            if kind == "class" and f_class not in (None, klass):
                continue
            rank_i = rules.rank_index.get(rank, n_ranks) if isinstance(rank, str) else n_ranks
            needs = _needs(ctx, rules, kind, feat, prerequisites)
            out[fid] = (kind, skill, rank_i, bool(feat.get("repeatable")), needs, record)
        return out

    return ctx.memo(("ascendant.fast_feats", ancestry, klass), table)


#: ``_needs`` of a feat whose prerequisites only ``feat_prerequisites`` reads.
_JUDGE = ("judge",)


def _needs(ctx: Context, rules: Rules, kind: Any, feat: dict, prerequisites: Any) -> tuple | None:
    """What ``feat_prerequisites`` checks of a feat, as tests ``needs_met`` runs: None when it checks
    nothing, ``_JUDGE`` when the prerequisites are not of the usual shapes (it then reads them itself)."""
    if kind != "archetype" and not prerequisites:
        return None
    if not isinstance(prerequisites, (list, tuple)):
        return _JUDGE
    needs: list[tuple] = []
    if kind == "archetype" and not feat.get("dedication"):
        archetype = feat.get("archetype")
        if not isinstance(archetype, _HASHABLE):
            return _JUDGE
        needs.append(("first_archetype",))
        entry = ctx.catalogue.get("archetypes", {}).get(archetype) if isinstance(archetype, str) else None
        dedication = (entry or {}).get("dedication")
        if dedication:
            if not isinstance(dedication, _HASHABLE):
                return _JUDGE
            needs.append(("feat", dedication, None))
    for need in prerequisites:
        if not isinstance(need, dict):
            continue
        if "feat" in need:
            if not isinstance(need["feat"], _HASHABLE):
                return _JUDGE
            needs.append(("feat", need["feat"], True))
        elif "attribute" in need:
            low = need.get("min", 0)
            if not isinstance(need["attribute"], _HASHABLE) or type(low) is not int:
                return _JUDGE
            needs.append(("attribute", need["attribute"], low))
        elif "skill" in need:
            if not isinstance(need["skill"], _HASHABLE):
                return _JUDGE
            needs.append(("skill", need["skill"], lookup(rules.rank_index, need.get("rank"), 1)))
    return tuple(needs)


#: The paths of the first boosts of each group.
_BOOST_PATHS: dict[str, tuple[str, ...]] = {
    group: tuple(f"/boosts/{group}/{i}" for i in range(8)) for group in GROUP_SLOTS
}


def _names(ctx: Context) -> dict[str, str]:
    """Skill and Lore id -> the name players read, once per context (``Context.memo``)."""
    found = ctx.cache.get("ascendant.names")
    if found is not None:
        return found

    def table() -> dict[str, str]:
        return {
            k: e.get("name", k)
            for kind in ("skills", "lores")
            for k, e in ctx.catalogue.get(kind, {}).items()
        }

    return ctx.memo("ascendant.names", table)


def _selectors(ctx: Context) -> dict[str, tuple]:
    """Skill id -> (its breakdown key, the selectors of its feat modifiers trained, untrained), once per
    context (``Context.memo``)."""
    found = ctx.cache.get("ascendant.selectors")
    if found is not None:
        return found

    def table() -> dict[str, tuple]:
        return {
            k: (f"skill.{k}", ("skills", f"skill.{k}"), ("skills", f"skill.{k}", "untrained_skills"))
            for k in ctx.catalogue.get("skills", {})
        }

    return ctx.memo("ascendant.selectors", table)


def _feat_effects(ctx: Context) -> dict[str, dict]:
    """Feat id -> the feat with only its well-formed effects, once per context (``Context.memo``)."""
    found = ctx.cache.get("ascendant.feat_effects")
    if found is not None:
        return found

    def table() -> dict[str, dict]:
        out = {}
        for fid, feat in ctx.catalogue.get("feats", {}).items():
            effects = feat.get("effects")
            if isinstance(effects, list) and effects:
                good = [e for e in effects if not check_effect(e, "", {})]
                out[fid] = {"name": feat.get("name", fid), "effects": good}
        return out

    return ctx.memo("ascendant.feat_effects", table)


def _effects(ctx: Context, held: dict, level: int) -> Effects:
    """What the held feats do at ``level``, worked out once per set of feats (bounded, on the context)."""
    cache = ctx.cache.get("ascendant.effects")
    if cache is None:
        cache = ctx.memo("ascendant.effects", dict)
    key = (frozenset(held), level)
    fx = cache.get(key)
    if fx is None:
        if len(cache) > 512:
            cache.clear()
        fx = cache[key] = Effects.of(held, _feat_effects(ctx), level)
    return fx


def _label(entry: dict | None, fallback: str) -> str:
    return entry.get("name", fallback) if isinstance(entry, dict) else fallback


def _few(ids: list[str], limit: int = 8, names: dict | None = None) -> str:
    """The first ``limit`` of ``ids``, by their names in ``names`` (a catalogue) when given."""
    return few(ids, limit, names=names)


def allowed_feats(
    ctx: Context,
    rules: Rules,
    kind: str,
    max_rank: int,
    *,
    ancestry: str | None = None,
    klass: str | None = None,
) -> list[str]:
    """Feat ids of ``kind`` a character could put in a slot of ``max_rank`` (by rank and owner only)."""
    out = []
    for fid, feat in ctx.catalogue.get("feats", {}).items():
        if feat.get("kind") != kind or lookup(rules.rank_index, feat.get("rank"), 99) > max_rank:
            continue
        if kind == "ancestry" and (feat.get("heritage") or (ancestry and feat.get("ancestry") != ancestry)):
            continue
        if kind == "class" and klass and feat.get("class") != klass:
            continue
        out.append(fid)
    return out
