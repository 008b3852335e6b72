"""Ascendant: the d20 "Game Basics" system (seed 002, RULES.md section 3).

The build document (``sheetforge.build/1``; players export it, keep it stable)
==============================================================================

::

    {
      "format": "sheetforge.build/1", "ruleset": "ascendant", "name": "Brannoc",
      "budget": {"xp": 2400},
      "level": 3,
      "ancestry": "dwarf", "heritage": "rock_dwarf", "background": "soldier", "class": "fighter",
      "armor": "chain_mail",
      "boosts": {"ancestry": ["con", "wis"], "background": ["str", "con", "dex"],
                 "class": "str", "free": ["str", "dex", "wis", "cha"]},
      "skills": {"acrobatics": "trained", "survival": "trained", "medicine": "trained"},
      "lores": ["mining"],
      "levels": {
        "1": {"feats": {"ancestry": "stonecunning", "class": "power_attack",
                        "archetype": "sentinel_dedication", "general": "fleet"}},
        "2": {"attributes": {"str": 2, "dex": 1},
              "feats": {"class": "sudden_charge", "skill": "quick_jump", "archetype": "steel_skin"}},
        "3": {"skill_increase": "acrobatics",
              "feats": {"ancestry": "mountain_stance", "general": ["diehard", "incredible_initiative"]}}
      }
    }

Keys (all ids are catalogue ids from ``content/*.json`` or the campaign's homebrew):

``level``
    1–20, required. XP is not spent: the budget is the XP earned, and the build
    "spends" (level − 1) × 1000 (``xp_per_level``); a level the XP does not reach
    is ``budget.exceeded`` at ``/budget/xp``. A level above 20 is an error and still
    priced (RULES.md: out-of-range values are priced).
``ancestry``, ``heritage``, ``background``, ``class``
    one id each; the heritage must belong to the ancestry. ``null`` or absent
    means "not chosen yet" (``ascendant.level_choices_missing``).
``armor``
    optional armor id (``null`` = unarmored); feeds Deflection, costs its price in gp, weighs its Bulk.
``gear``
    optional list of the weapons and gear bought (W11, character/gear.py): ``[{"item": "dagger"},
    {"item": "torch", "state": "set_down"}]``, an item twice is two of it. Each costs its ``price`` in
    gp (``budget.gp``, the house rule ``starting_gp``, 15); a carried one weighs its Bulk (W12).
``boosts``
    the creation boosts, each +1: ``ancestry`` — the ancestry's fixed boosts plus
    its free ones (a human lists two different attributes; a dwarf lists con and
    wis, or leaves the key out); ``background`` — three different attributes, at
    least one of them among the background's own (scholar: int or wis);
    ``class`` — one of the class's key attributes; ``free`` — four different
    attributes. No attribute above +4 at level 1 (``creation_attribute_max``).
``skills``
    the skills trained at level 1 by choice: ``{"skill": "trained"}``; as many as
    the class's ``skill_choices``. The class's key skill and the background's
    skill are trained automatically (listing them too is harmless and not
    counted). Ranks rise later only by skill increases.
``lores``
    the Lores chosen: at most max(0, Intelligence) of them (plus one per Lore a feat
    gives), one more whenever Intelligence rises. The background's Lore comes on top:
    it may be listed or left out, and uses no slot either way.
``levels``
    ``{"<n>": {...}}`` for n = 1..level; what each level-up chose:

    - ``"feats"``: ``{kind: feat_id}`` for each slot the level gives, kinds
      ``ancestry``, ``class``, ``archetype``, ``skill``, ``general`` (table in
      ``house.json`` ``feat_slots``: ancestry at 1 and odd levels, class and
      archetype at 1 and even levels, skill at even levels, general at 1 and odd
      levels from 3). The heritage's ancestry feat and the background's skill and
      general feats are granted, never listed. A slot may trade down *once*:
      ``[feat_a, feat_b]``, two feats each exactly one rank below the slot's highest;
      a slot never holds more than two (two Expert feats do not become four Trained
      ones); anything else is ``ascendant.feat_trade_invalid`` on the slot.
    - ``"attributes"``: at even levels, 3 points as ``{attr: n}`` — +1/+1/+1,
      +2/+1 or +3 — never above the cap of that level's Class Proficiency.
    - ``"skill_increase"``: at 3 and odd levels, one skill id raised one rank,
      never above Class Proficiency; the class's key skill rises on its own.

    Entries for levels above ``level`` are kept (planning ahead) with a warning.

What the numbers use (documented choices where RULES.md leaves them open)
--------------------------------------------------------------------------

- Class Proficiency: trained at 1, one rank up at 3, 7, 11, 15, 19; rank bonus 2 per
  rank (untrained 0 … ascendant 12). A feat's rank must be ≤ Class Proficiency at
  the level it is taken (skill feats: ≤ the rank in their skill at that level).
- Defenses and Perception use Class Proficiency, except those the class lists as
  ``lagging``, which run one rank behind (never below trained): a fighter's Clarity
  and Spirit, a wizard's Stability, Evasion and Perception, a bard's Stability and
  Resilience. Deflection = 10 + armor proficiency (Class Proficiency when the class
  is trained in the armor's category, else 0) + dex + the armor's item bonus.
- Skills: rank bonus + the skill's attribute; Lores are trained (int) and rise by
  skill increases like skills (``skill_increase`` may name a Lore the character knows).
- Feats are choices and prerequisites, and their ``effects`` change numbers (feats.py):
  typed modifiers to skills, Lores, defenses, Perception, initiative, Deflection and
  attacks (stacked by the seed's rule), Stamina per level, speed, Lore slots, armor,
  skill, Perception and weapon proficiencies, combat actions, the Dying maximum and
  resistances. ``derived["breakdown"]`` shows each number's base and every modifier
  with its source; ``derived["situational"]`` the bonuses that apply only "when …".

Codes (besides the common ones)
-------------------------------

``ascendant.attribute_cap`` (a boost or level point above the cap; path to it),
``ascendant.boost_invalid`` (same attribute twice where different ones are
required, too many boosts or points, a boost the ancestry/background/class does not
allow, points at an odd level), ``ascendant.feat_slot_missing`` (a feat with no
slot: the level gives no slot of that kind, a feat of another kind in the slot, a
third feat in a traded slot), ``ascendant.feat_rank_too_high``,
``ascendant.feat_trade_invalid`` (a slot traded down otherwise than for two feats exactly
one rank below, or traded again), ``ascendant.feat_prerequisite_missing`` (also: another
ancestry's or class's feat,
a heritage-only feat, a first archetype feat that is not a Dedication, an archetype
feat without its Dedication), ``ascendant.skill_rank_too_high`` (also raising the
key skill), ``ascendant.too_many_lores``, ``ascendant.level_choices_missing``
(a choice not made yet — fewer boosts or points than given, an empty slot:
warning while ``phase == "draft"``, error on ``"approval"``), and four of this
ruleset's own: ``ascendant.too_many_skills`` (more level-1 skills than the class
gives), ``ascendant.heritage_mismatch``, ``ascendant.choice_not_due`` (a skill
increase at a level without one), ``ascendant.history_changed`` (an advancement
changed a choice of an already-approved level, see ``check_advancement``), and
the warning ``ascendant.lore_slots_unused``, and ``ascendant.overloaded`` (W12: more Bulk than
``overload_base`` + Strength; the path is the armor or gear entry that crossed the line). Unknown ids are ``skill.unknown``
(feats, skills, lores, ancestries, heritages, backgrounds, classes, armor), a feat
or lore taken twice ``skill.duplicate``, unknown attributes ``attribute.unknown``.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any, ClassVar

from rulesets.engine import effects as fx
from rulesets.engine.context import Context
from rulesets.engine.errors import StateError
from rulesets.engine.report import Issue, Report
from rulesets.engine.ruleset import Ruleset

from . import character as rules
from . import dice as dice_rules
from . import effects, homebrew_forms
from . import state as play_rules
from .character import gear as gear_rules
from .character.builder import item_numbers


class AscendantRuleset(Ruleset):
    slug = "ascendant"
    name = "Ascendant (d20 Game Basics)"
    seed = "002_f9bed0beaa8b4424.txt"
    #: XP (awarded, ledgered) and golden pieces (W11: the house rule ``starting_gp``, 15 at any level,
    #: priced but not awarded or booked: the seed has no wealth table; a document's ``budget.gp`` wins).
    currencies = ("xp", "gp")
    awardable = ("xp",)
    known_keys = frozenset(
        {
            "level",
            "ancestry",
            "heritage",
            "background",
            "class",
            "armor",
            "gear",
            "boosts",
            "skills",
            "lores",
            "levels",
        }
    )
    homebrew_kinds = ("feats", "ancestries", "heritages", "backgrounds", "lores", "weapons", "armor", "gear")
    #: Two daggers, two torches: the gear list may hold one item twice (W11).
    duplicate_lists = ("/gear",)
    equipment_key = "gear"
    homebrew_forms = homebrew_forms.FORMS
    about = "A d20 game: to attempt a check, roll a twenty-sided die and add your modifier against the threshold. Only the highest bonus and the worst penalty of each type count. Characters grow by ancestry, heritage, background, class and feats, level by level."
    content_dir: ClassVar[Path] = Path(__file__).parent / "content"
    # Effects (engine/effects.py, effects.py here): the conditions are the named effects; a custom
    # effect adds to the modifier (untyped) or brings a typed bonus or penalty, stacked by the seed's
    # rule. The threshold is the table's (the DC, a foe's Deflection): the GM sets it for a party roll,
    # and no effect on a character moves it (the seed: bonuses and penalties change your total).
    effect_keys_declared: ClassVar[dict[str, int | None] | None] = {"modifier": None}
    typed_modifiers = True
    modifier_types = ("circumstance", "status", "item", effects.UNTYPED)
    table_keys = ("threshold",)

    def success(self, answer: dict, need: int | None = None) -> float:
        """CONTRACT.md "Success": a success or a critical success."""
        return float(answer.get("success", 0.0)) + float(answer.get("critical_success", 0.0))

    def effect_catalogue(self, ctx: Context | None = None) -> dict[str, fx.EffectKind]:
        """The conditions as native named effects (effects.py), after any ``content/effects.json``."""
        ctx = self.context_of(None, ctx)
        found = fx.default_catalogue(ctx)
        found.update(
            ctx.memo(
                "ascendant.effect_catalogue",
                lambda: effects.catalogue(play_rules.conditions_of(ctx), ctx.catalogue.get("skills", {})),
            )
        )
        return found

    def join_modifiers(self, request: dict[str, Any], added: list[dict[str, Any]]) -> None:
        """An effect's typed bonus or penalty restacks the request's modifier (effects.py ``join``)."""
        effects.join(request, added)

    def roll_aids(self, ctx: Context | None = None) -> list[dict[str, Any]]:
        """An ally's song, the seed's own example of a bonus ("Game Basics"): +1 status bonus, which
        a character who has a status bonus already (inspired) does not add."""
        return [dict(aid, changes=[dict(c) for c in aid["changes"]]) for aid in effects.ROLL_AIDS]

    def effects_in_step(self, state: dict[str, Any], *, ctx: Context) -> dict[str, Any]:
        """A condition a play-state action took away ends its effects; one it lowered lowers them
        (effects.py ``in_step``)."""
        return effects.in_step(state, self.effect_catalogue(ctx))

    def summary(
        self, build: dict, report: Report, state: dict | None, *, ctx: Context | None = None
    ) -> list[dict[str, Any]]:
        """Level, Deflection, Perception and the six defenses, conditions and effects applied."""
        derived = report.derived if report is not None else {}
        if "defenses" not in derived:
            return []
        rolls = self.rollables(build, report, state, ctx=ctx)
        thresholds = self.state_effects(build, report, state or {}, ctx=ctx).get("thresholds") or {}
        return effects.summary(derived, rolls, thresholds)

    def pools(
        self, build: dict, report: Report, state: dict | None, *, ctx: Context | None = None
    ) -> list[dict[str, Any]]:
        """Stamina and Hero Points with their maxima; temporary Stamina (no maximum) while there is some."""
        return [
            p
            for p in super().pools(build, report, state, ctx=ctx)
            if p["id"] != "temp_stamina" or p["current"]
        ]

    def label(self, key: Any) -> str:
        """A roll's id in words: "skill.athletics" → "Athletics", "defense.evasion" → "Evasion",
        "lore.warfare" → "Warfare Lore" (an effect's change names its roll so); else the labels."""
        if isinstance(key, str) and "." in key:
            group, _, rid = key.partition(".")
            if group == "skill" and rid in self.catalogue.get("skills", {}):
                return str(self.catalogue["skills"][rid].get("name") or rid)
            if group == "defense" and rid in rules.DEFENSES:
                return rid.title()
            if group == "lore" and rid:
                found = self.catalogue.get("lores", {}).get(rid) or {}
                return str(found.get("name") or f"{super().label(rid)} Lore")
        return super().label(key)

    # ---------------------------------------------------------------- building (character/)

    def check(self, build: dict, report: Report, ctx: Context) -> None:
        rules.check(build, report, ctx)

    def budget_of(self, build: dict, ctx: Context, report: Report) -> dict[str, int]:
        """XP from the document (else the starting budget); gp from the document, else the house rule
        ``starting_gp`` (W11: "You begin with 15 golden pieces", at any level)."""
        out = super().budget_of(build, ctx, report)
        if "gp" not in out and isinstance(ctx.settings.get("starting_gp"), int):
            out["gp"] = ctx.settings["starting_gp"]
        return out

    def check_advancement(self, old: dict, new: dict, report: Report, ctx: Context) -> None:
        """A level-up keeps what earlier levels chose; see ``build.check_advancement``."""
        rules.check_advancement(old, new, report)

    def blank_build(
        self, name: str, budget: dict[str, int] | None = None, ctx: Context | None = None
    ) -> dict:
        return rules.blank_build(self.slug, name, budget, ctx or self._default_context)

    def traits(self, ctx: Context) -> dict[str, Any]:
        return rules.traits(ctx)

    def check_homebrew_entry(self, kind: str, entry: dict, path: str) -> list[Issue]:
        return rules.check_homebrew_entry(
            kind, entry, path, ranks=self.house_defaults["ranks"], skills=self.catalogue.get("skills", {})
        )

    def equipment(self, build: dict, *, ctx: Context | None = None) -> dict[str, Any] | None:
        """The sheet's gear (W11, W12): each weapon or item with its price and Bulk, carried or set down
        (a change the owner makes from the sheet; picking up what overloads is refused by the rules)."""
        gear = build.get("gear") if isinstance(build, dict) else None
        if not isinstance(gear, list):
            return None
        ctx = self.context_of(None, ctx)
        items = {**gear_rules.items_of(ctx.catalogue), **gear_rules.weapon_table(ctx)}
        rows: list[dict[str, Any]] = []
        for i, entry in enumerate(gear):
            if not isinstance(entry, dict):
                continue
            item_id = entry.get("item")
            item = items.get(item_id) if isinstance(item_id, str) else None
            state = entry.get("state", "carried")
            rows.append(
                {
                    "index": i,
                    "name": self.item_name(entry, items, i),
                    "state": state if state in gear_rules.STATES else None,
                    "state_label": gear_rules.STATES.get(state, ""),
                    "detail": item_numbers(item) if item else "",
                    "keep": {},
                    "has_state": item is not None,
                }
            )
        return {"label": "Weapons and gear", "states": list(gear_rules.STATES.items()), "rows": rows}

    def equipment_change(
        self, build: dict, index: int, change: Any, *, ctx: Context | None = None
    ) -> tuple[dict, str]:
        """Carry an item or set it down: a new build (the caller re-validates it, so picking up what
        would overload the character is refused with ``ascendant.overloaded``)."""
        state = change.get("state") if isinstance(change, dict) else change
        gear = build.get("gear") if isinstance(build, dict) else None
        if not isinstance(gear, list) or not 0 <= index < len(gear) or not isinstance(gear[index], dict):
            raise StateError("equipment.unknown", "There is no such weapon or item.", f"/gear/{index}")
        if state not in gear_rules.STATES:
            raise StateError("equipment.state", "An item is carried or set down.", f"/gear/{index}/state")
        new = copy.deepcopy(build)
        new["gear"][index]["state"] = state
        items = gear_rules.items_of(self.context_of(None, ctx).catalogue)
        name = self.item_name(gear[index], items, index)
        return new, f"{name} {gear_rules.STATES[state].lower()}"

    def item_summary(self, option: dict[str, Any]) -> str:
        """A weapon's, armor's or gear's line in the builder: price, Bulk, its die (builder.py ``item_words``)."""
        return str(option.get("help") or "") if isinstance(option, dict) else ""

    # ------------------------------------------------ dice (dice.py), play state (state.py)
    # The base class's odds, roll, rollables and play-state hooks call these (engine/interfaces.py).

    dice = dice_rules
    play_state = play_rules

    def conditions_of(self, ctx: Context) -> dict[str, dict]:
        """The conditions, with Dying's maximum the campaign's ``dying_max`` (at it, one dies)."""
        return play_rules.conditions_of(ctx)

    def conditions_for(self, ctx: Context, derived: dict) -> dict[str, dict]:
        """The campaign's conditions as they bear on one character (Diehard raises Dying's maximum)."""
        return play_rules.conditions_for(ctx, derived)

    # ---------------------------------------------------------------- combat (combat/)

    def make_combat(self):
        """Ascendant's encounters (combat/)."""
        from .combat import AscendantCombat

        return AscendantCombat(self)


RULESET = AscendantRuleset()
