"""``Check``: one check of one build, the character as the levels are walked (RULES.md 3 "Rules").

The stages (attributes.py, levels.py, skills.py, feat_slots.py) are functions of a ``Check`` that read
and set its fields; check.py runs them in order. This module needs none of them.
"""

from __future__ import annotations

from typing import Any

from rulesets.engine.context import Context
from rulesets.engine.fields import is_int
from rulesets.engine.pointer import ptr
from rulesets.engine.report import Report
from rulesets.engine.words import a

from .common import ATTRIBUTES, MISSING
from .tables import Rules, _few, _label


class Check:
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

    # What the stages (attributes.py, levels.py, skills.py, feat_slots.py) read and set, typed here
    # because they are functions of a ``Check``, not its methods.
    build: dict
    report: Report
    ctx: Context
    rules: Rules
    s: dict[str, Any]
    cat: dict[str, dict[str, dict[str, Any]]]
    approval: bool
    ancestry: dict | None
    heritage: dict | None
    background: dict | None
    klass: dict | None
    attrs: dict[str, int]
    attrs_ok: bool
    boosts: dict
    levels: dict
    skill_rank: dict[str, int]
    key_skill: Any | None
    held: dict[str, str]
    lore_rank: dict[Any, int]
    doc_lores: list[Any]
    bg_lore: Any | None
    lores_held: list[Any]
    lore_slots: int
    trade_downs: int
    bad_trades: set[str]
    fast_feats: dict[str, tuple[Any, ...]]

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

    def pick(self, key: str, kind: str, label: str, owner: str | None = None) -> dict | None:
        """The chosen entry of ``kind``; with ``owner`` (an ancestry id) the options a message offers are
        that ancestry's (a Human's heritages are the human ones)."""
        value = self.build.get(key)
        entries = self.cat.get(kind, {})
        if type(value) is str:
            entry = entries.get(value)
            if entry is not None:
                return entry
        options, named = self._options(kind, owner)
        if value is None:
            self.missing(ptr(key), f"Choose {a(label)}: one of {named}.")
            return None
        if not isinstance(value, str):
            self.report.error(
                "build.malformed", ptr(key), f"The {label} must be an id such as {options[0]!r}."
            )
            return None
        self.report.error(
            "skill.unknown",
            ptr(key),
            f"{value!r} is not {a(label)} here; choose one of {named}.",
        )
        return None

    def _options(self, kind: str, owner: str | None) -> tuple[list[str], str]:
        """The entries of ``kind`` a choice offers (``owner``'s, when it has any) and their names in a
        message, once per context (``Context.memo``)."""
        key = ("ascendant.options", kind, owner)
        found = self.ctx.cache.get(key)
        if found is not None:
            return found
        entries = self.cat.get(kind, {})

        def options() -> tuple[list[str], str]:
            ids = [k for k, e in entries.items() if owner is None or e.get("ancestry") == owner] or list(
                entries
            )
            return ids, _few(ids, names=entries)

        return self.ctx.memo(key, options)

    def big_choices(self) -> None:
        build, report = self.build, self.report
        ancestry = self.ancestry = self.pick("ancestry", "ancestries", "ancestry")
        heritage = None
        if ancestry is not None:
            heritage = self.pick("heritage", "heritages", "heritage", owner=ancestry["id"])
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

    # ------------------------------------------------------------------- armor

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
