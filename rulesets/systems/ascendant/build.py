"""Ascendant character rules: validate, price and derive a build document.

The document's shape is described in the package docstring (``__init__.py``). Every
number that RULES.md marks HD comes from ``content/house.json`` through
``ctx.settings``, so a campaign's house rules change it without code.

Checking walks the levels in order (1 → the character's level), the way a player
levels up: Class Proficiency and the attribute cap of level N, then that level's
attribute points, its skill increase, and its feats, whose ranks and
prerequisites are judged against the character *as of* level N (attributes after
that level's points, skills after that level's increase, feats of earlier levels
and of the same level — the seed lets a player take the steps of a level-up in
any order).
"""

from __future__ import annotations

from operator import itemgetter
from typing import Any

from rulesets.engine.context import ID_RE, Context
from rulesets.engine.fields import get_as, is_int, lookup, whole_or
from rulesets.engine.pointer import escape as esc
from rulesets.engine.pointer import ptr
from rulesets.engine.report import Issue, Report
from rulesets.engine.ruleset import FORMAT
from rulesets.engine.words import a, few

from .feats import ACTIONS, Effects, check_effect, flat

ATTRIBUTES: tuple[str, ...] = ("str", "dex", "con", "int", "wis", "cha")
ATTRIBUTE_LABELS = {
    "str": "Strength",
    "dex": "Dexterity",
    "con": "Constitution",
    "int": "Intelligence",
    "wis": "Wisdom",
    "cha": "Charisma",
}
#: Each defense and the attribute it adds (seed, "Attributes").
DEFENSES: dict[str, str] = {
    "stability": "str",
    "evasion": "dex",
    "resilience": "con",
    "clarity": "int",
    "spirit": "wis",
    "resolve": "cha",
}
FEAT_KINDS: tuple[str, ...] = ("ancestry", "class", "archetype", "skill", "general")
GROUP_SLOTS = ("ancestry", "background", "class", "free")

MISSING = "ascendant.level_choices_missing"
TRADE = "ascendant.feat_trade_invalid"


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


def check(build: dict, report: Report, ctx: Context) -> None:
    """Validate ``build`` into ``report`` (errors, warnings, xp spent, derived), step by step."""
    c = _Check(build, report, ctx)
    level = c.level()
    if level is None:
        return
    c.big_choices()
    c.creation_boosts()
    c.levels_object(level)
    c.level_one_skills()
    c.known_lores()
    c.walk_levels(level)
    fx = c.feat_effects(level)
    c.lores(fx)
    armor = c.armor()
    _derive(
        report.derived,
        c.rules,
        c.s,
        level=level,
        xp=report.budget.get("xp"),
        attrs=c.attrs if c.attrs_ok else None,
        skill_rank=c.skill_rank,
        lore_rank=c.lore_rank,
        lores_held=c.lores_held,
        lore_slots=c.lore_slots,
        held=c.held,
        fx=fx,
        ancestry=c.ancestry,
        klass=c.klass,
        armor=armor,
        skill_attr=_skill_attributes(ctx),
        final_cap=c.rules.cap(level),
        names=_names(ctx),
        selectors=_selectors(ctx),
    )


class _Check:
    """One check of one build: the character as the levels are walked (RULES.md 3 "Rules")."""

    __slots__ = (
        "build",
        "report",
        "ctx",
        "rules",
        "s",
        "cat",
        "approval",
        "ancestry",
        "heritage",
        "background",
        "klass",
        "attrs",
        "attrs_ok",
        "boosts",
        "levels",
        "skill_rank",
        "key_skill",
        "held",
        "lore_rank",
        "doc_lores",
        "bg_lore",
        "lores_held",
        "lore_slots",
        "trade_downs",
        "bad_trades",
        "fast_feats",
    )

    def __init__(self, build: dict, report: Report, ctx: Context):
        self.build, self.report, self.ctx = build, report, ctx
        self.rules = Rules.of(ctx)
        self.s, self.cat = ctx.settings, ctx.catalogue
        self.approval = ctx.phase == "approval"
        self.attrs = dict.fromkeys(ATTRIBUTES, 0)
        self.attrs_ok = True
        self.held: dict[str, str] = {}  # feat id -> path where it was gained
        self.trade_downs = 0
        self.bad_trades: set[str] = set()

    def missing(self, path: str, message: str) -> None:
        """A choice not made yet: a warning while building, an error on approval."""
        (self.report.error if self.approval else self.report.warn)(MISSING, path, message)

    # ------------------------------------------------------------------ level and XP

    def level(self) -> int | None:
        s, report = self.s, self.report
        level = self.build.get("level")
        max_level = s["max_level"]
        if not is_int(level) or not 1 <= level <= max_level:
            if is_int(level) and level > max_level:
                # RULES.md: a value out of its range is still priced, so spent and budget.exceeded stay true.
                report.charge("xp", (level - 1) * s["xp_per_level"], path="/level", label=f"Level {level}")
            report.error(
                "build.malformed", "/level", f"The level must be a whole number from 1 to {max_level}."
            )
            return None
        report.charge("xp", (level - 1) * s["xp_per_level"], path="/level", label=f"Level {level}")
        return level

    # ------------------------------------------------------------ the big choices

    def _name(self, kind: str, entry_id: Any) -> str:
        """The catalogue name of ``entry_id`` among ``kind`` (the id itself when it is not there)."""
        return _label(self.cat.get(kind, {}).get(entry_id), str(entry_id))

    def pick(self, key: str, kind: str, label: str) -> dict | None:
        value = self.build.get(key)
        entries = self.cat.get(kind, {})
        if type(value) is str:
            entry = entries.get(value)
            if entry is not None:
                return entry
        options = list(entries)
        if value is None:
            self.missing(ptr(key), f"Choose {a(label)}: one of {_few(options, names=entries)}.")
            return None
        if not isinstance(value, str):
            self.report.error(
                "build.malformed", ptr(key), f"The {label} must be an id such as {options[0]!r}."
            )
            return None
        self.report.error(
            "skill.unknown",
            ptr(key),
            f"{value!r} is not {a(label)} here; choose one of {_few(options, names=entries)}.",
        )
        return None

    def big_choices(self) -> None:
        build, report = self.build, self.report
        ancestry = self.ancestry = self.pick("ancestry", "ancestries", "ancestry")
        heritage = None
        if ancestry is not None:
            heritage = self.pick("heritage", "heritages", "heritage")
            if heritage is not None and heritage.get("ancestry") != ancestry["id"]:
                own = [
                    h for h, e in self.cat.get("heritages", {}).items() if e.get("ancestry") == ancestry["id"]
                ]
                report.error(
                    "ascendant.heritage_mismatch",
                    "/heritage",
                    f"{_label(heritage, build['heritage'])} is a heritage of another ancestry; "
                    f"{a(_label(ancestry, ancestry['id']))} chooses one of "
                    f"{_few(own, names=self.cat.get('heritages', {}))}.",
                )
                heritage = None
        elif build.get("heritage") is not None and not isinstance(build.get("heritage"), str):
            report.error("build.malformed", "/heritage", 'The heritage must be an id such as "rock_dwarf".')
        self.heritage = heritage
        self.background = self.pick("background", "backgrounds", "background")
        self.klass = self.pick("class", "classes", "class")

    # ----------------------------------------------------------------- creation

    def creation_boosts(self) -> None:
        report, s = self.report, self.s
        boosts = self.build.get("boosts")
        if boosts is None:
            boosts = {}
            self.missing(
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
            boosts, self.attrs_ok = {}, False
        for key in boosts:
            if key not in GROUP_SLOTS:
                report.warn(
                    "build.unknown_key",
                    ptr("boosts", key),
                    f"Boosts come from {', '.join(GROUP_SLOTS)}; {key!r} is ignored.",
                )
        self.boosts = boosts
        applied = self.ancestry_boosts() + self.background_boosts() + self.class_boost()
        applied += self.boost_list("free", s["free_boosts"], "free boosts")
        attrs, creation_cap = self.attrs, self.rules.cap(1)
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

    def boost_list(self, group: str, required: int, what: str) -> list[tuple[str, str]]:
        """The boosts of one group that count: different attributes, no more than ``required``."""
        report = self.report
        path = f"/boosts/{group}"
        raw = self.boosts.get(group)
        if raw is None or raw == []:
            if required:
                self.missing(path, f"Choose {required} different attributes to boost from your {what}.")
            return []
        if not isinstance(raw, list):
            report.error(
                "build.malformed",
                path,
                f'The {what} boosts must be a list of attributes such as ["str", "con"].',
            )
            self.attrs_ok = False
            return []
        out: list[tuple[str, str]] = []
        seen: set[str] = set()
        paths = _BOOST_PATHS.get(group, ())
        for i, attr in enumerate(raw):
            p = paths[i] if i < len(paths) else f"/boosts/{group}/{i}"
            if not isinstance(attr, str):
                report.error(
                    "build.malformed", p, "A boost is an attribute id: str, dex, con, int, wis or cha."
                )
                self.attrs_ok = False
            elif attr not in self.attrs:
                report.error(
                    "attribute.unknown",
                    p,
                    f"{attr!r} is not an attribute; use str, dex, con, int, wis or cha.",
                )
                self.attrs_ok = False
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
            self.missing(
                path,
                f"Your {what} gives {required} boosts; choose {required - len(raw)} more, each to a "
                "different attribute.",
            )
        return out

    def ancestry_boosts(self) -> list[tuple[str, str]]:
        ancestry, boosts = self.ancestry, self.boosts
        if ancestry is None:
            if isinstance(boosts.get("ancestry"), list):
                return self.boost_list("ancestry", len(boosts["ancestry"]), "ancestry")
            return []
        fixed = [a for a in ancestry.get("boosts", []) if a in self.attrs]
        free = ancestry.get("free_boosts", 0)
        if boosts.get("ancestry") is None and not free:
            return [(ptr("boosts", "ancestry"), a) for a in fixed]  # nothing to choose: automatic
        got = self.boost_list("ancestry", len(fixed) + free, f"ancestry ({_label(ancestry, ancestry['id'])})")
        lacking = [a for a in fixed if a not in {a for _, a in got}]
        if (
            lacking
            and isinstance(boosts.get("ancestry"), list)
            and len(boosts["ancestry"]) >= len(fixed) + free
        ):
            self.report.error(
                "ascendant.boost_invalid",
                ptr("boosts", "ancestry"),
                f"{a(_label(ancestry, ancestry['id'])).capitalize()} always boosts {', '.join(fixed)}; "
                f"list {', '.join(lacking)} here.",
            )
        return got

    def background_boosts(self) -> list[tuple[str, str]]:
        background, count = self.background, self.s["background_boosts"]
        got = self.boost_list("background", count, "background")
        if background is not None and len(got) == count:
            options = background.get("boosts") or list(ATTRIBUTES)
            if not any(a in options for _, a in got):
                self.report.error(
                    "ascendant.boost_invalid",
                    ptr("boosts", "background"),
                    f"The {_label(background, background['id'])} background boosts {' or '.join(options)} with one "
                    "of its three boosts; put one of them in this list.",
                )
        return got

    def class_boost(self) -> list[tuple[str, str]]:
        report, klass = self.report, self.klass
        class_boost = self.boosts.get("class")
        if class_boost is None:
            self.missing(
                "/boosts/class",
                "Boost your class's key attribute"
                + (f": {' or '.join(klass.get('key_attributes', []))}." if klass else "."),
            )
        elif not isinstance(class_boost, str):
            report.error(
                "build.malformed", "/boosts/class", 'The class boost is one attribute id, such as "str".'
            )
            self.attrs_ok = False
        elif class_boost not in self.attrs:
            report.error("attribute.unknown", "/boosts/class", f"{class_boost!r} is not an attribute.")
            self.attrs_ok = False
        elif klass is not None and class_boost not in klass.get("key_attributes", []):
            report.error(
                "ascendant.boost_invalid",
                "/boosts/class",
                f"The {_label(klass, klass['id'])}'s key attribute is "
                f"{' or '.join(klass.get('key_attributes', []))}; boost that instead of {class_boost}.",
            )
        else:
            return [("/boosts/class", class_boost)]
        return []

    # ------------------------------------------------------------- levels object

    def levels_object(self, level: int) -> None:
        report, max_level = self.report, self.s["max_level"]
        levels = self.build.get("levels")
        if levels is None:
            levels = {}
        elif not isinstance(levels, dict):
            report.error(
                "build.malformed", "/levels", 'Levels must be an object keyed by level: {"2": {...}}.'
            )
            levels = {}
        self.levels = levels
        level_numbers = self.rules.level_numbers
        for key, value in levels.items():
            if type(key) is not str:
                key = str(key)
            number = level_numbers.get(key)  # "1" … str(max_level) only
            if number is None:
                report.error(
                    "build.malformed",
                    ptr("levels", key),
                    f'Level keys are "1" to "{max_level}", not {key!r}.',
                )
            elif not isinstance(value, dict):
                report.error(
                    "build.malformed",
                    ptr("levels", key),
                    'Each level is an object: {"feats": {...}, '
                    '"attributes": {...}, "skill_increase": "..."}.',
                )
            elif number > level:
                report.warn(
                    "build.unknown_key",
                    ptr("levels", key),
                    f"Level {number} choices are kept for later "
                    f"and ignored until the character reaches level {number}.",
                )
            elif not _LEVEL_KEYS.issuperset(value):
                for sub in value:
                    if sub not in _LEVEL_KEYS:
                        report.warn(
                            "build.unknown_key",
                            ptr("levels", key, sub),
                            f"A level holds feats, attributes and skill_increase; {sub!r} is ignored.",
                        )

    # ------------------------------------------------------------------- skills

    def level_one_skills(self) -> None:
        report, rules, klass, background = self.report, self.rules, self.klass, self.background
        skills_cat = self.cat.get("skills", {})
        skill_rank = self.skill_rank = dict.fromkeys(skills_cat, 0)
        key_skill = self.key_skill = klass.get("key_skill") if klass else None
        automatic: set[str] = set()
        if background and background.get("skill") in skill_rank:
            automatic.add(background["skill"])
        if klass:
            automatic.update(x for x in [key_skill, *klass.get("trained_skills", [])] if x in skill_rank)
        for name in automatic:
            skill_rank[name] = 1
        chosen_skills = 0
        picks = klass.get("skill_choices", 0) if klass else None
        doc_skills = self.build.get("skills")
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
            self.missing(
                "/skills",
                f"The {_label(klass, '')} is trained in {picks} skills of your choice; "
                f"{picks - chosen_skills} still to choose.",
            )

    def known_lores(self) -> None:
        """The Lores known (the background's and the listed ones), so that skill increases may raise them."""
        lore_cat = self.cat.get("lores", {})
        bg_lore = self.bg_lore = self.background.get("lore") if self.background else None
        doc_lores = self.build.get("lores")
        if doc_lores is None:
            doc_lores = []
        elif not isinstance(doc_lores, list):
            self.report.error(
                "build.malformed", "/lores", 'Lores are a list of lore ids, such as ["warfare"].'
            )
            doc_lores = []
        self.doc_lores = doc_lores
        self.lore_rank = dict.fromkeys([bg_lore] if bg_lore in lore_cat else [], 1)
        self.lore_rank.update((lore, 1) for lore in doc_lores if type(lore) is str and lore in lore_cat)

    # ------------------------------------------------------------ the level-ups

    def walk_levels(self, level: int) -> None:
        """Levels 1 → ``level`` in order: Class Proficiency, attribute points, skill increase, feats."""
        heritage, background, held = self.heritage, self.background, self.held
        granted: list[tuple[str, str]] = []
        if heritage and heritage.get("feat"):
            granted.append(("/heritage", heritage["feat"]))
        if background:
            granted += [
                ("/background", background[k]) for k in ("skill_feat", "general_feat") if background.get(k)
            ]
        for path, fid in granted:
            held[fid] = path
        level_plan, levels, skill_rank, key_skill = (
            self.rules.level_plan,
            self.levels,
            self.skill_rank,
            self.key_skill,
        )
        key_skill_known = key_skill in skill_rank
        feat_table, feats_cat = _feat_table(self.ctx), self.cat.get("feats", {})
        self.fast_feats = _fast_feats(
            self.ctx,
            self.rules,
            self.ancestry["id"] if self.ancestry else None,
            self.klass["id"] if self.klass else None,
        )
        for n in range(1, level + 1):
            plan = level_plan[n]
            lv = levels.get(plan[0])
            if type(lv) is not dict:
                lv = lv if isinstance(lv, dict) else _NO_CHOICES
            cp = plan[1]
            if key_skill_known and key_skill is not None and skill_rank[key_skill] < cp:
                skill_rank[key_skill] = cp
            points, raised, feats = lv.get("attributes"), lv.get("skill_increase"), lv.get("feats")
            if plan[3] or points is not None:
                self.attribute_points(n, plan, points)
            if plan[4] or raised is not None:
                self.skill_increase(n, cp, plan[4], plan[8], raised)
            if plan[5] or feats is not None:
                if not self.plain_feats(n, plan, feats):
                    picked = self.feat_picks(n, plan, feats)
                    if picked:
                        self.judge_feats(n, cp, picked, feat_table, feats_cat)

    def attribute_points(self, n: int, plan: tuple, points: Any) -> None:
        report, s, attrs = self.report, self.s, self.attrs
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
            self.missing(
                base,
                f"Level {n} gives {due} attribute points: +1 to three attributes, +2 and +1, or +3 to one.",
            )
            return
        if not isinstance(points, dict):
            report.error(
                "build.malformed", base, 'Attribute points are an object such as {"str": 2, "dex": 1}.'
            )
            self.attrs_ok = False
            return
        total = 0
        for attr, amount in points.items():
            if type(amount) is int and amount > 0 and attr in attrs:  # the common case
                total += amount
                value = attrs[attr] = attrs[attr] + amount
                if value > cap:
                    self.above_cap(n, cp, cap, base + "/" + esc(attr), attr)
                continue
            p = base + "/" + esc(attr)
            if attr not in attrs:
                report.error(
                    "attribute.unknown",
                    p,
                    f"{attr!r} is not an attribute; use str, dex, con, int, wis or cha.",
                )
                self.attrs_ok = False
            elif not is_int(amount) or amount < 0:
                report.error("build.malformed", p, "Attribute points are whole numbers from 1 to 3.")
                self.attrs_ok = False
            else:
                total += amount
                attrs[attr] += amount
                if amount and attrs[attr] > cap:
                    self.above_cap(n, cp, cap, p, attr)
        if total > due:
            report.error(
                "ascendant.boost_invalid",
                base,
                f"Level {n} gives {due} attribute points, not {total}: take {total - due} away.",
            )
        elif total < due:
            self.missing(base, f"Level {n} gives {due} attribute points; {due - total} still to place.")

    def above_cap(self, n: int, cp: int, cap: int, path: str, attr: str) -> None:
        self.report.error(
            "ascendant.attribute_cap",
            path,
            f"{ATTRIBUTE_LABELS[attr]} would reach +{self.attrs[attr]}, above the +{cap} that "
            f"{self.rules.rank_label(cp)} Class Proficiency allows at level {n}; put these points "
            "elsewhere.",
        )

    def skill_increase(self, n: int, cp: int, due: bool, base: str, raised: Any) -> None:
        report, rules, skill_rank, lore_rank = self.report, self.rules, self.skill_rank, self.lore_rank
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
            self.missing(base, f"Level {n} gives a skill increase: name a skill to raise by one rank.")
            return
        if not isinstance(raised, str):
            report.error("build.malformed", base, 'A skill increase is one skill id, such as "stealth".')
            return
        if raised in lore_rank and raised not in skill_rank:
            rank = lore_rank[raised]
        elif raised not in skill_rank:
            skills_cat = self.cat.get("skills", {})
            report.error(
                "skill.unknown",
                base,
                f"{raised!r} is not a skill or one of your Lores; choose from "
                f"{_few(list(skills_cat), 15, skills_cat)}, or a Lore you know.",
            )
            return
        elif raised == self.key_skill:
            report.error(
                "ascendant.skill_rank_too_high",
                base,
                f"{_label(self.cat.get('skills', {}).get(raised), raised)} is your class's key skill and rises with Class "
                "Proficiency by itself; raise another skill.",
            )
            return
        else:
            rank = skill_rank[raised]
        if rank + 1 > cp:
            kind = "skills" if raised in skill_rank else "lores"
            name = _label(self.cat.get(kind, {}).get(raised), raised)
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

    # ------------------------------------------------------------------- feats

    def feat_picks(self, n: int, plan: tuple, feats: Any) -> list[tuple[str, str, str, bool]]:
        """This level's feats as (path, feat id, slot kind, traded down); a slot's shape is checked here."""
        _, cp, _, _, _, due_kinds, slot_kinds, _, _, base, kind_paths, _ = plan
        if feats is None:
            feats = {}
        elif not isinstance(feats, dict):
            self.report.error(
                "build.malformed", base, 'Feats are an object keyed by kind: {"class": "power_attack"}.'
            )
            feats = {}
        for kind in due_kinds:
            if feats.get(kind) in _NO_FEAT:
                self.missing_feat(n, cp, kind, base)
        picked: list[tuple[str, str, str, bool]] = []
        for kind, value in feats.items():
            if type(value) is str and value and kind in slot_kinds:  # the common case: one feat id
                picked.append((kind_paths.get(kind) or base + "/" + esc(kind), value, kind, False))
                continue
            report, rules = self.report, self.rules
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
            elif self.trade_allowed(path, value):
                picked += [(f"{path}/{i}", fid, kind, True) for i, fid in enumerate(value)]
        return picked

    def missing_feat(self, n: int, cp: int, kind: str, base: str) -> None:
        options = allowed_feats(
            self.ctx,
            self.rules,
            kind,
            cp,
            ancestry=self.ancestry["id"] if self.ancestry else None,
            klass=self.klass["id"] if self.klass else None,
        )
        if kind == "archetype" and n == self.rules.first_archetype:
            feats_cat = self.cat.get("feats", {})
            options = [f for f in options if feats_cat[f].get("dedication")]
        self.missing(
            f"{base}/{kind}",
            f"Level {n} gives {a(kind + ' feat')}: choose one (e.g. "
            f"{_few(options, 5, self.cat.get('feats', {}))}).",
        )

    def trade_allowed(self, path: str, value: Any) -> bool:
        """A slot holding a list: two feat ids, once, where the campaign trades down (RULES.md)."""
        report, s = self.report, self.s
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
            self.trade_downs += 1
            trade_max = s.get("trade_downs_max")
            if not (is_int(trade_max) and self.trade_downs > trade_max):
                return True
            report.error(
                TRADE,
                path,
                f"This campaign allows {trade_max} trade-down"
                f"{'s' if trade_max != 1 else ''} in all; keep one feat in this slot.",
            )
        return False

    def plain_feats(self, n: int, plan: tuple, feats: Any) -> bool:
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
        slot_kinds, fast, held, skill_rank, cp = plan[6], self.fast_feats, self.held, self.skill_rank, plan[1]
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
                or (f[4] is not None and not self.needs_met(n, fid, f[4], level_ids))
            ):
                clean = False
        _, _, _, _, _, due_kinds, _, _, _, base, _, paths = plan
        for kind in due_kinds:
            if kind not in feats:
                self.missing_feat(n, cp, kind, base)
        if not clean:
            self.report_feats(n, cp, feats, paths, level_ids)
        for kind, fid in feats.items():
            if fid not in held:
                held[fid] = paths[kind]
        return True

    def report_feats(self, n: int, cp: int, feats: dict, paths: dict, level_ids: set) -> None:
        """What is wrong with the feats of a plain level (``plain_feats``), feat by feat."""
        fast, held, skill_rank = self.fast_feats, self.held, self.skill_rank
        for kind, fid in feats.items():
            f = fast[fid]
            if fid in held and not f[3]:
                self.duplicate_feat(n, paths[kind], fid, f[5][1])
            elif f[2] > (skill_rank.get(f[1], 0) if kind == "skill" else cp):
                self.feat_fits(n, cp, paths[kind], kind, False, f[5])  # says why it does not fit
            elif f[4] is not None and not self.needs_met(n, fid, f[4], level_ids):
                self.feat_prerequisites(n, paths[kind], fid, kind, f[5], level_ids)

    def needs_met(self, n: int, fid: str, needs: tuple, level_ids: set) -> bool:
        """Whether ``feat_prerequisites`` would find nothing unmet (``_needs``); it is what says why."""
        held = self.held
        for need in needs:
            what = need[0]
            if what == "feat":  # held, or taken at this level (by another feat than this one)
                if need[1] not in held and (need[1] not in level_ids or (need[2] and need[1] == fid)):
                    return False
            elif what == "attribute":
                if self.attrs.get(need[1], 0) < need[2]:
                    return False
            elif what == "skill":
                if self.skill_rank.get(need[1], 0) < need[2]:
                    return False
            elif what == "first_archetype":
                if n == self.rules.first_archetype:
                    return False
            else:
                return False
        return True

    def judge_feats(
        self, n: int, cp: int, picked: list[tuple[str, str, str, bool]], feat_table: dict, feats_cat: dict
    ) -> None:
        """Each feat taken at level ``n``: known, not held, in its kind's slot, of a rank the slot allows,
        its prerequisites met (by the character as of this level, this level's other feats included)."""
        held, skill_rank, fast = self.held, self.skill_rank, self.fast_feats
        level_ids = set(map(_FEAT_ID, picked))
        seen_here: set[str] = set()
        for path, fid, kind, traded in picked:
            # The common case: a known feat of the slot's kind that this character may take
            # (``_fast_feats``); anything else goes the long way, which says what is wrong.
            f = fast.get(fid)
            if f is None or f[0] != kind:
                self.judge_feat(n, cp, path, fid, kind, traded, feat_table.get(fid), level_ids, seen_here)
                continue
            if (fid in held or fid in seen_here) and not f[3]:
                self.duplicate_feat(n, path, fid, f[5][1])
                continue
            seen_here.add(fid)
            limit = skill_rank.get(f[1], 0) if kind == "skill" else cp
            rank = f[2]
            if rank <= limit and (not traded or rank == limit - 1):
                if f[4] is not None and not self.needs_met(n, fid, f[4], level_ids):
                    self.feat_prerequisites(n, path, fid, kind, f[5], level_ids)
            else:
                self.feat_fits(n, cp, path, kind, traded, f[5])  # says why it does not fit
        for path, fid, _, _ in picked:
            if fid in feats_cat:
                held.setdefault(fid, path)

    def judge_feat(
        self,
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
            self.report.error(
                "skill.unknown", path, f"{fid!r} is not a feat here; pick one from the level-up list."
            )
            return
        if (fid in self.held or fid in seen_here) and not record[0].get("repeatable"):
            self.duplicate_feat(n, path, fid, record[1])
            return
        seen_here.add(fid)
        if self.feat_fits(n, cp, path, kind, traded, record) and (record[8] or kind == "archetype"):
            self.feat_prerequisites(n, path, fid, kind, record, level_ids)

    def duplicate_feat(self, n: int, path: str, fid: str, name: str) -> None:
        where = self.held.get(fid, f"level {n}")
        self.report.error("skill.duplicate", path, f"{name} is already taken ({where}); choose another feat.")

    def feat_fits(self, n: int, cp: int, path: str, kind: str, traded: bool, record: tuple) -> bool:
        """The feat is of the slot's kind, the character's own, and of a rank the slot allows."""
        report, rules = self.report, self.rules
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
                f"{name} comes only with the {self._name('heritages', feat['heritage'])} heritage; "
                "choose another feat.",
            )
            return False
        if kind == "ancestry" and f_ancestry not in (None, self.ancestry["id"] if self.ancestry else None):
            report.error(
                "ascendant.feat_prerequisite_missing",
                path,
                f"{name} is a feat of the {self._name('ancestries', feat.get('ancestry'))} ancestry; "
                "choose one of your own.",
            )
            return False
        if kind == "class" and f_class not in (None, self.klass["id"] if self.klass else None):
            report.error(
                "ascendant.feat_prerequisite_missing",
                path,
                f"{name} is {a(self._name('classes', feat.get('class')))} feat; choose one of your own class's.",
            )
            return False
        limit = self.skill_rank.get(f_skill, 0) if kind == "skill" else cp
        rank = rules.rank_index.get(f_rank, len(rules.ranks))
        if rank <= limit and (not traded or rank == limit - 1):
            return True
        if kind == "skill":
            where = (
                f"your proficiency in "
                f"{_label(self.cat.get('skills', {}).get(feat.get('skill')), str(feat.get('skill')))}"
            )
        else:
            where = f"your Class Proficiency at level {n}"
        if traded:
            slot = path.rsplit("/", 1)[0]
            if slot not in self.bad_trades:
                self.bad_trades.add(slot)
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
        self, n: int, path: str, fid: str, kind: str, record: tuple, level_ids: set
    ) -> None:
        feat, name, prerequisites = record[0], record[1], record[8]
        if kind != "archetype" and (prerequisites == () or prerequisites == []):
            return
        cat, held = self.cat, self.held
        unmet = []
        if kind == "archetype":
            if n == self.rules.first_archetype and not feat.get("dedication"):
                unmet.append("your first archetype feat must be a Dedication")
            elif not feat.get("dedication"):
                dedication = (cat.get("archetypes", {}).get(feat.get("archetype")) or {}).get("dedication")
                if dedication and dedication not in held and dedication not in level_ids:
                    unmet.append(f"{_label(cat.get('feats', {}).get(dedication), dedication)} first")
        for need in prerequisites:
            text = _unmet(need, self.attrs, self.skill_rank, held, level_ids, fid, self.rules, cat)
            if text:
                unmet.append(text)
        if unmet:
            self.report.error(
                "ascendant.feat_prerequisite_missing", path, f"{name} needs {'; '.join(unmet)}."
            )

    # ----------------------------------------------------------- feat effects, lores, armor

    def feat_effects(self, level: int) -> Effects:
        fx = _effects(self.ctx, self.held, level)
        rank_index, skill_rank = self.rules.rank_index, self.skill_rank
        for skill, rank, _ in fx.skills:  # a feat's trained skill (never lowers one)
            if skill in skill_rank:
                skill_rank[skill] = max(skill_rank[skill], rank_index.get(rank, 1))
        return fx

    def lores(self, fx: Effects) -> None:
        report, attrs, bg_lore, doc_lores = self.report, self.attrs, self.bg_lore, self.doc_lores
        lore_cat = self.cat.get("lores", {})
        lore_slots = self.lore_slots = max(0, attrs["int"]) + sum(n for n, _ in fx.lores)
        lores_held = self.lores_held = [bg_lore] if bg_lore else []
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
        if self.attrs_ok and chosen < lore_slots:
            report.warn(
                "ascendant.lore_slots_unused",
                "/lores",
                f"You know {lore_slots} Lores and {chosen} are chosen; add {lore_slots - chosen} more.",
            )

    def armor(self) -> dict | None:
        armor_id = self.build.get("armor")
        if armor_id is None:
            return None
        if not isinstance(armor_id, str):
            self.report.error("build.malformed", "/armor", 'Armor is an id such as "chain_mail" (or null).')
            return None
        armor = self.cat.get("armor", {}).get(armor_id)
        if armor is None:
            self.report.error(
                "skill.unknown",
                "/armor",
                f"{armor_id!r} is not armor here; choose from "
                f"{_few(list(self.cat.get('armor', {})), names=self.cat.get('armor', {}))}.",
            )
        return armor


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


def check_advancement(old: Any, new: dict, report: Report) -> None:
    """A level-up keeps every earlier choice: flag ``ascendant.history_changed`` where it does not.

    Compared: the level (it may not drop), ancestry, heritage, background, class,
    the creation boosts, the level-1 skills (new ones may fill unused picks), lores
    (new ones may be added as Intelligence rises) and, for every level up to the
    approved one, its attribute points, skill increase and each feat slot. A choice
    the approved build left empty may be filled in. Armor is equipment and may change.
    """
    if not isinstance(old, dict):
        return

    def changed(path: str, what: str) -> None:
        report.error(
            "ascendant.history_changed",
            path,
            f"{what} was approved earlier and cannot change in a level-up; put it back as it was "
            "(ask your GM for a retraining if you want it changed).",
        )

    old_level = whole_or(old, "level", 1)
    new_level = new.get("level")
    if is_int(new_level) and new_level < old_level:
        changed("/level", f"Level {old_level}")
    for key in ("ancestry", "heritage", "background", "class"):
        if old.get(key) is not None and new.get(key) != old.get(key):
            changed(ptr(key), f"The {key} {old.get(key)!r}")
    old_boosts = get_as(old, "boosts", dict, {})
    new_boosts = get_as(new, "boosts", dict, {})
    for group in GROUP_SLOTS:
        if old_boosts.get(group) not in (None, []) and new_boosts.get(group) != old_boosts.get(group):
            changed(ptr("boosts", group), f"The {group} boosts")
    old_skills = get_as(old, "skills", dict, {})
    new_skills = get_as(new, "skills", dict, {})
    for name, rank in old_skills.items():
        if new_skills.get(name) != rank:
            changed(ptr("skills", name), f"{name} ({rank})")
    old_lores = get_as(old, "lores", list, [])
    new_lores = get_as(new, "lores", list, [])
    for i, lore in enumerate(old_lores):
        if lore not in new_lores:
            changed(ptr("lores", i), f"The lore {lore!r}")
    old_levels = get_as(old, "levels", dict, {})
    new_levels = get_as(new, "levels", dict, {})
    for n in range(1, old_level + 1):
        before = old_levels.get(str(n))
        if not isinstance(before, dict):
            continue
        after = new_levels.get(str(n))
        after = after if isinstance(after, dict) else {}
        for key in ("attributes", "skill_increase"):
            if before.get(key) not in (None, {}) and after.get(key) != before.get(key):
                changed(ptr("levels", n, key), f"Level {n}'s {key.replace('_', ' ')}")
        old_feats = get_as(before, "feats", dict, {})
        new_feats = get_as(after, "feats", dict, {})
        for kind, value in old_feats.items():
            if value not in (None, [], "") and new_feats.get(kind) != value:
                changed(ptr("levels", n, "feats", kind), f"Level {n}'s {kind} feat {value!r}")


# ------------------------------------------------------------------ the builder


def blank_build(slug: str, name: str, budget: dict[str, int] | None, ctx: Context) -> dict:
    """A level-1 character with nothing chosen: every choice is a draft warning, no error."""
    return {
        "format": FORMAT,
        "ruleset": slug,
        "name": name,
        "budget": dict(budget or ctx.settings.get("starting_budget", {"xp": 0})),
        "level": 1,
        "ancestry": None,
        "heritage": None,
        "background": None,
        "class": None,
        "armor": None,
        "boosts": {"ancestry": [], "background": [], "class": None, "free": []},
        "skills": {},
        "lores": [],
        "levels": {},
    }


def traits(ctx: Context) -> dict[str, Any]:
    """The builder's sections; "ascendant_levels" carries what each level-up asks for."""
    s = ctx.settings
    r = Rules.of(ctx)
    cat = ctx.catalogue

    def options(kind: str, **extra_keys: str) -> list[dict[str, Any]]:
        out = []
        for entry in cat.get(kind, {}).values():
            option = {
                "id": entry["id"],
                "label": entry.get("name", entry["id"]),
                "help": entry.get("text", ""),
            }
            for key, source in extra_keys.items():
                option[key] = entry.get(source)
            out.append(option)
        return out

    feats = {
        fid: {
            "label": f.get("name", fid),
            "kind": f.get("kind"),
            "rank": f.get("rank"),
            "help": f.get("text", ""),
            **{
                k: f[k]
                for k in (
                    "ancestry",
                    "class",
                    "archetype",
                    "skill",
                    "dedication",
                    "heritage",
                    "prerequisites",
                )
                if k in f
            },
        }
        for fid, f in cat.get("feats", {}).items()
    }
    plan = _level_plan(ctx, r)
    return {
        "sections": [
            {
                "id": "level",
                "label": "Level",
                "kind": "number",
                "path": "/level",
                "min": 1,
                "max": s["max_level"],
                "default": 1,
                "nullable": False,
                "help": f"Each level after the first needs {s['xp_per_level']} XP.",
            },
            {
                "id": "ancestry",
                "label": "Ancestry",
                "kind": "choice",
                "path": "/ancestry",
                "nullable": True,
                "options": options(
                    "ancestries", stamina="stamina", boosts="boosts", free_boosts="free_boosts"
                ),
            },
            {
                "id": "heritage",
                "label": "Heritage",
                "kind": "choice",
                "path": "/heritage",
                "nullable": True,
                "help": "A branch of your ancestry; it grants its ancestry feat.",
                "options": options("heritages", ancestry="ancestry", feat="feat"),
            },
            {
                "id": "background",
                "label": "Background",
                "kind": "choice",
                "path": "/background",
                "nullable": True,
                "options": options(
                    "backgrounds",
                    boosts="boosts",
                    skill="skill",
                    lore="lore",
                    skill_feat="skill_feat",
                    general_feat="general_feat",
                ),
            },
            {
                "id": "class",
                "label": "Class",
                "kind": "choice",
                "path": "/class",
                "nullable": True,
                "options": options(
                    "classes",
                    key_attributes="key_attributes",
                    key_skill="key_skill",
                    stamina="stamina",
                    feat_label="feat_label",
                    skill_choices="skill_choices",
                ),
            },
            {
                "id": "boosts",
                "label": "Attribute boosts",
                "kind": "custom",
                "widget": "ascendant_boosts",
                "path": "/boosts",
                "help": "Ancestry, background (3 different), class key attribute, then 4 different free boosts; "
                f"nothing above +{s['creation_attribute_max']} at level 1.",
                "data": {
                    "attributes": [{"id": a, "label": ATTRIBUTE_LABELS[a]} for a in ATTRIBUTES],
                    "background_boosts": s["background_boosts"],
                    "free_boosts": s["free_boosts"],
                    "creation_attribute_max": s["creation_attribute_max"],
                },
            },
            {
                "id": "skills",
                "label": "Trained skills",
                "kind": "ranks",
                "path": "/skills",
                "help": "Level-1 training of your choice (your class says how many); key and background skills are "
                "automatic.",
                "ranks": [
                    {"id": rank, "label": r.rank_label(i), "bonus": r.bonus_of(i)}
                    for i, rank in enumerate(r.ranks[:2])
                ],
                "options": options("skills", attribute="attribute"),
            },
            {
                "id": "lores",
                "label": "Lores",
                "kind": "multi",
                "path": "/lores",
                "help": "As many as your Intelligence; your background's Lore comes on top.",
                "options": options("lores"),
            },
            {
                "id": "armor",
                "label": "Armor",
                "kind": "choice",
                "path": "/armor",
                "nullable": True,
                "options": options("armor", category="category", bonus="bonus"),
            },
            {
                "id": "levels",
                "label": "Level-ups",
                "kind": "custom",
                "widget": "ascendant_levels",
                "path": "/levels",
                "help": "What each level asks for: feats by slot, attribute points, skill increase.",
                "data": {
                    "levels": plan,
                    "feats": feats,
                    "ranks": [
                        {"id": rank, "label": r.rank_label(i), "bonus": r.bonus_of(i)}
                        for i, rank in enumerate(r.ranks)
                    ],
                },
            },
        ]
    }


def _level_plan(ctx: Context, r: Rules) -> list[dict[str, Any]]:
    """What each level-up asks for (the builder's "ascendant_levels" widget)."""
    s, cat = ctx.settings, ctx.catalogue
    first_archetype = min(r.slots.get("archetype", [1]) or [1])
    plan = []
    for n in range(1, s["max_level"] + 1):
        cp = r.class_proficiency(n)
        slot_feats = {}
        for kind in FEAT_KINDS:
            if n not in r.slots.get(kind, ()):
                continue
            allowed = allowed_feats(ctx, r, kind, cp)
            if kind == "archetype" and n == first_archetype:
                allowed = [f for f in allowed if cat["feats"][f].get("dedication")]
            slot_feats[kind] = allowed
        plan.append(
            {
                "level": n,
                "class_proficiency": r.ranks[cp],
                "attribute_max": r.cap(n),
                "attribute_points": s["attribute_points"] if n in r.attr_levels else 0,
                "skill_increase": n in r.skill_levels,
                "feats": slot_feats,
                "trade_down": bool(s.get("trade_down")) and cp > 1,
                "path": ptr("levels", n),
            }
        )
    return plan


# ------------------------------------------------------------------ homebrew


def check_homebrew_entry(kind: str, entry: dict, path: str, *, ranks: list[str], skills: dict) -> list[Issue]:
    """Field checks for homebrew feats, ancestries, heritages, backgrounds and lores."""
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
