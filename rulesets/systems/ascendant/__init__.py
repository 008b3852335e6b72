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
    is ``budget.exceeded`` at ``/budget/xp``.
``ancestry``, ``heritage``, ``background``, ``class``
    one id each; the heritage must belong to the ancestry. ``null`` or absent
    means "not chosen yet" (``ascendant.level_choices_missing``).
``armor``
    optional armor id (``null`` = unarmored); feeds Deflection only.
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
    the Lores chosen: at most max(0, Intelligence) of them, one more whenever
    Intelligence rises. The background's Lore comes on top and is not listed.
``levels``
    ``{"<n>": {...}}`` for n = 1..level; what each level-up chose:

    - ``"feats"``: ``{kind: feat_id}`` for each slot the level gives, kinds
      ``ancestry``, ``class``, ``archetype``, ``skill``, ``general`` (table in
      ``house.json`` ``feat_slots``: ancestry at 1 and odd levels, class and
      archetype at 1 and even levels, skill at even levels, general at 1 and odd
      levels from 3). The heritage's ancestry feat and the background's skill and
      general feats are granted, never listed. A slot may trade down *once*:
      ``[feat_a, feat_b]``, two feats of the rank just below the slot's; a slot
      never holds more than two (two Expert feats do not become four Trained ones).
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
- Skills: rank bonus + the skill's attribute; Lores are trained (int).
- Feats are choices and prerequisites; their texts have no automatic effect on
  the derived numbers (the sample content has no number-changing feats).

Codes (besides the common ones)
-------------------------------

``ascendant.attribute_cap`` (a boost or level point above the cap; path to it),
``ascendant.boost_invalid`` (same attribute twice where different ones are
required, too many boosts or points, a boost the ancestry/background/class does not
allow, points at an odd level), ``ascendant.feat_slot_missing`` (a feat with no
slot: the level gives no slot of that kind, a feat of another kind in the slot, a
third feat in a traded slot), ``ascendant.feat_rank_too_high``,
``ascendant.feat_prerequisite_missing`` (also: another ancestry's or class's feat,
a heritage-only feat, a first archetype feat that is not a Dedication, an archetype
feat without its Dedication), ``ascendant.skill_rank_too_high`` (also raising the
key skill), ``ascendant.too_many_lores``, ``ascendant.level_choices_missing``
(a choice not made yet — fewer boosts or points than given, an empty slot:
warning while ``phase == "draft"``, error on ``"approval"``), and four of this
ruleset's own: ``ascendant.too_many_skills`` (more level-1 skills than the class
gives), ``ascendant.heritage_mismatch``, ``ascendant.choice_not_due`` (a skill
increase at a level without one), ``ascendant.history_changed`` (an advancement
changed a choice of an already-approved level, see ``check_advancement``), and
the warning ``ascendant.lore_slots_unused``. Unknown ids are ``skill.unknown``
(feats, skills, lores, ancestries, heritages, backgrounds, classes, armor), a feat
or lore taken twice ``skill.duplicate``, unknown attributes ``attribute.unknown``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

from rulesets.engine.base import FORMAT, ID_RE, Context, Ruleset, is_int
from rulesets.engine.dice import Roller
from rulesets.engine.pointer import ptr
from rulesets.engine.report import Issue, Report

from . import play, rules
from .feats import check_effect
from .rules import ATTRIBUTE_LABELS, ATTRIBUTES, DEFENSES, FEAT_KINDS, Rules


class AscendantRuleset(Ruleset):
    slug = "ascendant"
    name = "Ascendant (d20 Game Basics)"
    seed = "002_f9bed0beaa8b4424.txt"
    currencies = ("xp",)
    known_keys = frozenset(
        {"level", "ancestry", "heritage", "background", "class", "armor", "boosts", "skills", "lores", "levels"}
    )
    homebrew_kinds = ("feats", "ancestries", "heritages", "backgrounds", "lores")
    content_dir: ClassVar[Path] = Path(__file__).parent / "content"

    # ---------------------------------------------------------------- building

    def check(self, build: dict, report: Report, ctx: Context) -> None:
        rules.check(build, report, ctx)

    def check_advancement(self, old: dict, new: dict, report: Report, ctx: Context) -> None:
        """A level-up keeps what earlier levels chose; see ``rules.check_advancement``."""
        rules.check_advancement(old, new, report)

    def blank_build(self, name: str, budget: dict[str, int] | None = None, ctx: Context | None = None) -> dict:
        """A level-1 character with nothing chosen: every choice is a draft warning, no error."""
        ctx = ctx or self._default_context
        return {
            "format": FORMAT, "ruleset": self.slug, "name": name,
            "budget": dict(budget or ctx.settings.get("starting_budget", {"xp": 0})),
            "level": 1, "ancestry": None, "heritage": None, "background": None, "class": None, "armor": None,
            "boosts": {"ancestry": [], "background": [], "class": None, "free": []},
            "skills": {}, "lores": [], "levels": {},
        }

    def traits(self, ctx: Context) -> dict[str, Any]:
        """The builder's sections; "ascendant_levels" carries what each level-up asks for."""
        s = ctx.settings
        r = Rules.of(ctx)
        cat = ctx.catalogue

        def options(kind: str, **extra_keys: str) -> list[dict[str, Any]]:
            out = []
            for entry in cat.get(kind, {}).values():
                option = {"id": entry["id"], "label": entry.get("name", entry["id"]), "help": entry.get("text", "")}
                for key, source in extra_keys.items():
                    option[key] = entry.get(source)
                out.append(option)
            return out

        feats = {
            fid: {"label": f.get("name", fid), "kind": f.get("kind"), "rank": f.get("rank"), "help": f.get("text", ""),
                  **{k: f[k] for k in ("ancestry", "class", "archetype", "skill", "dedication", "heritage",
                                       "prerequisites") if k in f}}
            for fid, f in cat.get("feats", {}).items()
        }
        first_archetype = min(r.slots.get("archetype", [1]) or [1])
        plan = []
        for n in range(1, s["max_level"] + 1):
            cp = r.class_proficiency(n)
            slot_feats = {}
            for kind in FEAT_KINDS:
                if n not in r.slots.get(kind, ()):
                    continue
                allowed = rules.allowed_feats(ctx, r, kind, cp)
                if kind == "archetype" and n == first_archetype:
                    allowed = [f for f in allowed if cat["feats"][f].get("dedication")]
                slot_feats[kind] = allowed
            plan.append({
                "level": n,
                "class_proficiency": r.ranks[cp],
                "attribute_max": r.cap(n),
                "attribute_points": s["attribute_points"] if n in r.attr_levels else 0,
                "skill_increase": n in r.skill_levels,
                "feats": slot_feats,
                "trade_down": bool(s.get("trade_down")) and cp > 1,
                "path": ptr("levels", n),
            })
        return {"sections": [
            {"id": "level", "label": "Level", "kind": "number", "path": "/level", "min": 1, "max": s["max_level"],
             "default": 1, "nullable": False,
             "help": f"Each level after the first needs {s['xp_per_level']} XP."},
            {"id": "ancestry", "label": "Ancestry", "kind": "choice", "path": "/ancestry", "nullable": True,
             "options": options("ancestries", stamina="stamina", boosts="boosts", free_boosts="free_boosts")},
            {"id": "heritage", "label": "Heritage", "kind": "choice", "path": "/heritage", "nullable": True,
             "help": "A branch of your ancestry; it grants its ancestry feat.",
             "options": options("heritages", ancestry="ancestry", feat="feat")},
            {"id": "background", "label": "Background", "kind": "choice", "path": "/background", "nullable": True,
             "options": options("backgrounds", boosts="boosts", skill="skill", lore="lore",
                                skill_feat="skill_feat", general_feat="general_feat")},
            {"id": "class", "label": "Class", "kind": "choice", "path": "/class", "nullable": True,
             "options": options("classes", key_attributes="key_attributes", key_skill="key_skill",
                                stamina="stamina", feat_label="feat_label", skill_choices="skill_choices")},
            {"id": "boosts", "label": "Attribute boosts", "kind": "custom", "widget": "ascendant_boosts",
             "path": "/boosts",
             "help": "Ancestry, background (3 different), class key attribute, then 4 different free boosts; "
                     f"nothing above +{s['creation_attribute_max']} at level 1.",
             "data": {"attributes": [{"id": a, "label": ATTRIBUTE_LABELS[a]} for a in ATTRIBUTES],
                      "background_boosts": s["background_boosts"], "free_boosts": s["free_boosts"],
                      "creation_attribute_max": s["creation_attribute_max"]}},
            {"id": "skills", "label": "Trained skills", "kind": "ranks", "path": "/skills",
             "help": "Level-1 training of your choice (your class says how many); key and background skills are "
                     "automatic.",
             "ranks": [{"id": rank, "label": r.rank_label(i), "bonus": r.bonus_of(i)}
                       for i, rank in enumerate(r.ranks[:2])],
             "options": options("skills", attribute="attribute")},
            {"id": "lores", "label": "Lores", "kind": "multi", "path": "/lores",
             "help": "As many as your Intelligence; your background's Lore comes on top.",
             "options": options("lores")},
            {"id": "armor", "label": "Armor", "kind": "choice", "path": "/armor", "nullable": True,
             "options": options("armor", category="category", bonus="bonus")},
            {"id": "levels", "label": "Level-ups", "kind": "custom", "widget": "ascendant_levels", "path": "/levels",
             "help": "What each level asks for: feats by slot, attribute points, skill increase.",
             "data": {"levels": plan, "feats": feats,
                      "ranks": [{"id": rank, "label": r.rank_label(i), "bonus": r.bonus_of(i)}
                                for i, rank in enumerate(r.ranks)]}},
        ]}

    def check_homebrew_entry(self, kind: str, entry: dict, path: str) -> list[Issue]:
        """Field checks for homebrew feats, ancestries, heritages, backgrounds and lores."""
        issues: list[Issue] = []

        def bad(key: str, message: str) -> None:
            issues.append(Issue("homebrew.malformed", f"{path}/{key}", message))

        if not isinstance(entry.get("name"), str) or not entry["name"].strip():
            bad("name", "Give the entry a name.")
        ranks = self.house_defaults["ranks"]
        skills = self.catalogue.get("skills", {})

        def is_id(value: Any) -> bool:
            return isinstance(value, str) and bool(ID_RE.match(value))

        def attr_list(key: str, *, required: bool) -> None:
            value = entry.get(key)
            if value is None and not required:
                return
            if not isinstance(value, list) or not all(a in ATTRIBUTES for a in value) or len(set(value)) != len(value):
                bad(key, "A list of different attributes among str, dex, con, int, wis, cha.")

        if kind == "feats":
            feat_kind = entry.get("kind")
            if feat_kind not in FEAT_KINDS:
                bad("kind", f"A feat's kind is one of {', '.join(FEAT_KINDS)}.")
            if entry.get("rank") not in ranks[1:]:
                bad("rank", f"A feat's rank is one of {', '.join(ranks[1:])}.")
            owner = {"ancestry": "ancestry", "class": "class", "archetype": "archetype", "skill": "skill"}.get(
                feat_kind)
            if owner and not is_id(entry.get(owner)):
                bad(owner, f"A{'n' if feat_kind[0] in 'aeiou' else ''} {feat_kind} feat names its {owner} (an id).")
            if feat_kind == "skill" and is_id(entry.get("skill")) and entry["skill"] not in skills:
                bad("skill", f"{entry['skill']!r} is not a skill.")
            prereqs = entry.get("prerequisites", [])
            if not isinstance(prereqs, list):
                bad("prerequisites", "Prerequisites are a list.")
            else:
                for i, need in enumerate(prereqs):
                    ok = isinstance(need, dict) and (
                        (set(need) == {"feat"} and is_id(need["feat"]))
                        or (set(need) == {"attribute", "min"} and need["attribute"] in ATTRIBUTES
                            and isinstance(need["min"], int))
                        or (set(need) == {"skill", "rank"} and need["skill"] in skills and need["rank"] in ranks)
                    )
                    if not ok:
                        bad(f"prerequisites/{i}", 'A prerequisite is {"feat": id}, {"attribute": "str", "min": 2} '
                            'or {"skill": "athletics", "rank": "expert"}.')
            effects = entry.get("effects", [])
            if not isinstance(effects, list):
                bad("effects", 'Effects are a list, such as [{"kind": "modifier", "selector": "skill.athletics", '
                    '"type": "circumstance", "value": 1}].')
            else:
                names = {"skill": skills, "defense": DEFENSES, "ranks": ranks}
                for i, effect in enumerate(effects):
                    issues += check_effect(effect, f"{path}/effects/{i}", names)
        elif kind == "ancestries":
            if not isinstance(entry.get("stamina"), int) or entry["stamina"] < 0:
                bad("stamina", "An ancestry's Stamina is a whole number ≥ 0.")
            attr_list("boosts", required=False)
            free = entry.get("free_boosts", 0)
            if not isinstance(free, int) or not 0 <= free <= len(ATTRIBUTES):
                bad("free_boosts", "Free boosts are a whole number from 0 to 6.")
        elif kind == "heritages":
            for key in ("ancestry", "feat"):
                if not is_id(entry.get(key)):
                    bad(key, f"A heritage names its {key} (an id).")
        elif kind == "backgrounds":
            attr_list("boosts", required=True)
            if entry.get("skill") not in skills:
                bad("skill", "A background trains one skill (a skill id).")
            for key in ("lore", "skill_feat", "general_feat"):
                if not is_id(entry.get(key)):
                    bad(key, f"A background names its {key.replace('_', ' ')} (an id).")
        return issues

    # ---------------------------------------------------------------- checks

    def odds(self, request: Any, *, ctx: Context | None = None) -> dict[str, Any]:
        return play.odds(request)

    def roll(self, request: Any, roller: Roller, *, ctx: Context | None = None) -> dict[str, Any]:
        return play.roll(request, roller)

    def rollables(self, build: dict, report: Report, state: dict | None = None, *,
                  ctx: Context | None = None) -> list[dict[str, Any]]:
        """Skills, Lores, Perception and the six defenses as checks, with the state's conditions
        stacked in (``modifiers``/``ignored`` say which applied); the threshold is the house
        ``default_threshold`` for the sheet to change."""
        ctx = self.context_of(report, ctx)
        return play.rollables(build, report, state, self.conditions_for(ctx, report.derived), ctx.settings,
                              ctx.catalogue.get("skills", {}), ctx.catalogue.get("lores", {}))

    # ------------------------------------------------------------ play state

    def conditions_of(self, ctx: Context) -> dict[str, dict]:
        """The conditions, with Dying's maximum the campaign's ``dying_max`` (at it, one dies)."""
        def conditions() -> dict[str, dict]:
            found = dict(ctx.catalogue.get("conditions", {}))
            top = ctx.settings.get("dying_max")
            if "dying" in found and isinstance(top, int) and top >= 1 and found["dying"].get("max") != top:
                dying = found["dying"]
                text = dying.get("text", "").replace(f"dying {dying.get('max', 4)} ", f"dying {top} ")
                found["dying"] = {**dying, "max": top, "text": text}
            return found

        return ctx.memo("ascendant.conditions", conditions)

    def conditions_for(self, ctx: Context, derived: dict) -> dict[str, dict]:
        """The campaign's conditions as they bear on one character: a feat such as Diehard raises the
        Dying maximum (``derived["dying_max_bonus"]``)."""
        found = self.conditions_of(ctx)
        bonus = derived.get("dying_max_bonus") if isinstance(derived, dict) else None
        if "dying" not in found or not is_int(bonus) or bonus == 0:
            return found
        top = max(1, found["dying"].get("max", 4) + bonus)

        def conditions() -> dict[str, dict]:
            dying = found["dying"]
            text = dying.get("text", "").replace(f"dying {dying.get('max', 4)} ", f"dying {top} ")
            return {**found, "dying": {**dying, "max": top, "text": text}}

        return ctx.memo(("ascendant.conditions", top), conditions)

    def initial_state(self, build: dict, report: Report, *, ctx: Context | None = None) -> dict[str, Any]:
        ctx = self.context_of(report, ctx)
        return {
            "stamina": report.derived.get("max_stamina", 0),
            "temp_stamina": 0,
            "hero_points": ctx.settings["hero_points_start"],
            "conditions": [],
        }

    def check_state(self, state: Any, build: dict, report: Report, *, ctx: Context | None = None) -> list[Issue]:
        ctx = self.context_of(report, ctx)
        return play.check_state(state, report.derived, self.conditions_for(ctx, report.derived), ctx.settings)

    def state_effects(self, build: dict, report: Report, state: dict, *,
                      ctx: Context | None = None) -> dict[str, Any]:
        """{"checks": {id: stacked}, "thresholds": {name: n}, "threshold_modifiers", "labels", "dying"}."""
        ctx = self.context_of(report, ctx)
        return play.effects(report.derived, self.conditions_for(ctx, report.derived), state, ctx.catalogue.get("skills", {}))

    def state_sections(self, build: dict, report: Report, state: dict, *,
                       ctx: Context | None = None) -> list[dict[str, Any]]:
        ctx = self.context_of(report, ctx)
        conditions, house = self.conditions_for(ctx, report.derived), ctx.settings
        state = state if isinstance(state, dict) else {}
        top = report.derived.get("max_stamina")
        stamina = state.get("stamina", top)
        conds = [c for c in state.get("conditions", []) if isinstance(c, dict)]
        dying = next((c.get("value", 1) for c in conds if c.get("id") == "dying"), 0)
        status = f"dying {dying}" if dying else ("unconscious" if any(c.get("id") == "unconscious" for c in conds)
                                                 else "")
        amount = [{"id": "amount", "label": "Amount", "kind": "number", "min": 1}]
        condition_options = [{"id": cid, "label": c["name"], "help": c.get("text", ""), "valued": c.get("valued")}
                             for cid, c in conditions.items()]
        return [
            {"id": "stamina", "label": "Stamina", "kind": "pools", "items": [
                {"id": "stamina", "label": "Stamina", "path": "/stamina", "value": stamina, "min": 0, "max": top,
                 "status": status},
                {"id": "temp_stamina", "label": "Temporary Stamina", "path": "/temp_stamina",
                 "value": state.get("temp_stamina", 0), "min": 0, "max": None, "status": ""},
                {"id": "hero_points", "label": "Hero Points", "path": "/hero_points",
                 "value": state.get("hero_points", house["hero_points_start"]), "min": 0,
                 "max": house["hero_points_max"], "status": ""},
            ], "actions": [
                {"action": "damage", "label": "Take damage", "fields": amount},
                {"action": "heal", "label": "Heal", "fields": amount},
                {"action": "temp_stamina", "label": "Temporary Stamina", "fields": amount},
                {"action": "rest", "label": "Rest for the night", "fields": []},
                {"action": "hero_point", "label": "Spend a Hero Point", "fields": []},
            ]},
            {"id": "conditions", "label": "Conditions", "kind": "list", "items": [
                {"id": c.get("id"), "path": ptr("conditions", i), "value": c.get("value"),
                 "label": conditions.get(c.get("id"), {}).get("name", c.get("id")),
                 "help": conditions.get(c.get("id"), {}).get("text", "")}
                for i, c in enumerate(conds)
            ], "actions": [
                {"action": "add_condition", "label": "Add a condition", "fields": [
                    {"id": "id", "label": "Condition", "kind": "choice", "options": condition_options},
                    {"id": "value", "label": "Value", "kind": "number", "min": 1}]},
                {"action": "remove_condition", "label": "Remove or lower a condition", "fields": [
                    {"id": "id", "label": "Condition", "kind": "choice", "options": condition_options},
                    {"id": "value", "label": "Lower by (empty: remove)", "kind": "number", "min": 1}]},
            ]},
        ]

    def state_action(self, state: dict, action: dict, build: dict, report: Report,
                     roller: Roller | None = None, *, ctx: Context | None = None) -> tuple[dict, str]:
        ctx = self.context_of(report, ctx)
        name = build.get("name") if isinstance(build.get("name"), str) else "The character"
        return play.apply_action(state, action, report.derived, self.conditions_for(ctx, report.derived), ctx.settings, name)

    # ---------------------------------------------------------------- combat

    def make_combat(self):
        """Ascendant's encounters (combat.py)."""
        from .combat import AscendantCombat

        return AscendantCombat(self)


RULESET = AscendantRuleset()
