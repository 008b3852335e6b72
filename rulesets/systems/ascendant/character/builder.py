"""Ascendant's builder hooks: a blank build, the traits the builder shows and the level plan."""

from __future__ import annotations

from typing import Any

from rulesets.engine.context import Context
from rulesets.engine.pointer import ptr
from rulesets.engine.ruleset import FORMAT

from .common import ATTRIBUTE_LABELS, ATTRIBUTES, FEAT_KINDS
from .gear import STATES, items_of, weapon_table
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
        "gear": [],
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

    archetypes = cat.get("archetypes", {})
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
            # W13: the class an archetype's feat teaches (its Dedication is no option for that class).
            **(
                {"teaches": archetypes[f["archetype"]]["teaches"]}
                if isinstance(f.get("archetype"), str)
                and isinstance(archetypes.get(f["archetype"]), dict)
                and archetypes[f["archetype"]].get("teaches")
                else {}
            ),
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
                "help": "Worn armor: its price comes out of your golden pieces, its Bulk is carried.",
                "options": [
                    {**o, "help": item_words(cat["armor"][o["id"]])}
                    for o in options("armor", category="category", bonus="bonus", price="price", bulk="bulk")
                ],
            },
            {
                "id": "gear",
                "label": "Weapons and gear",
                "kind": "items",
                "path": "/gear",
                "help": f"You begin with {s['starting_gp']} golden pieces (gp): spend them on weapons, armor and "
                f"gear. You carry {s['bulk_base']} Bulk + Strength before you are encumbered (Clumsy 1), "
                f"{s['overload_base']} + Strength at most; ten light items make 1 Bulk. Gear set down is "
                "yours but not carried.",
                "options": [
                    {
                        "id": iid,
                        "label": item.get("name", iid),
                        "help": item_words(item),
                        **{k: item[k] for k in ("price", "bulk", "die", "category") if k in item},
                    }
                    for iid, item in {**items_of(cat), **_bought_weapons(ctx)}.items()
                ],
                "entry_fields": [
                    {
                        "id": "state",
                        "label": "How",
                        "kind": "choice",
                        "default": "carried",
                        "options": [{"id": sid, "label": words} for sid, words in STATES.items()],
                    }
                ],
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


def item_words(item: dict[str, Any]) -> str:
    """An item in the game's words: "2 gp, Bulk 1; d6, finesse. A duellist's thrusting blade."."""
    head, text = item_numbers(item), item.get("text")
    return f"{head}. {text}" if text else head


def item_numbers(item: dict[str, Any]) -> str:
    """An item's numbers in the game's words: "2 gp, Bulk 1; d6, finesse" (the sheet's gear rows)."""
    price = item.get("price", 0)
    bulk = item.get("bulk", 0)
    bits = [f"{price} gp" if price else "free", "light" if bulk == "L" else f"Bulk {bulk or 0}"]
    head = ", ".join(bits)
    if item.get("die"):
        traits = [f"d{item['die']}"]
        traits += [word for key, word in (("agile", "agile"), ("ranged", "ranged")) if item.get(key)]
        if item.get("attribute") == "finesse":
            traits.append("finesse")
        head += "; " + ", ".join(traits)
    if item.get("category") in ("light", "medium", "heavy", "unarmored") and "bonus" in item:
        head += f"; {item['category']} armor, +{item.get('bonus', 0)} Deflection"
    return head


def _bought_weapons(ctx: Context) -> dict[str, dict[str, Any]]:
    """The weapons one may buy, with their numbers from the house table (``gear.weapon_table``)."""
    return {wid: w for wid, w in weapon_table(ctx).items() if not w.get("unarmed")}
