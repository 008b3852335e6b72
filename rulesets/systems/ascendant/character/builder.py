"""Ascendant's builder hooks: a blank build, the traits the builder shows and the level plan."""

from __future__ import annotations

from typing import Any

from rulesets.engine.context import Context
from rulesets.engine.pointer import ptr
from rulesets.engine.ruleset import FORMAT

from .common import ATTRIBUTE_LABELS, ATTRIBUTES, FEAT_KINDS
from .tables import Rules, allowed_feats


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
