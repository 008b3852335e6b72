"""Starting points for the GM's quick NPC form: a small valid build per ruleset.

Rulesets without an entry here get their own ``blank_build`` (which may need filling in:
the rules service then says what is missing when the GM adds the NPC).
"""

from __future__ import annotations

import copy
from typing import Any

QUICK_BUILDS: dict[str, dict[str, Any]] = {
    "pando": {
        "ruleset": "pando", "name": "Goblin", "budget": {"cp": 40}, "species": "humanoid",
        "attributes": {"strength": 1, "endurance": 1, "acrobatics": 2, "coordination": 2,
                       "rationality": 1, "perspective": 1, "presence": 1},
        "resistances": {"awareness": "presence", "insight": "rationality", "willpower": "perspective"},
        "skills": ["melee", "blades"],
        "equipment": [{"item": "dagger", "state": "wielded", "arms": ["right_arm"]}],
    },
    # A blank build has no class, so no maximum Stamina: nobody could strike it.
    "ascendant": {
        "ruleset": "ascendant", "name": "Bandit", "budget": {"xp": 0}, "level": 1, "ancestry": "human",
        "background": "soldier", "class": "fighter", "armor": "leather_armor",
        "boosts": {"ancestry": ["str", "dex"], "background": ["str", "con", "dex"], "class": "str",
                   "free": ["str", "dex", "con", "wis"]},
        "levels": {}, "skills": {}, "lores": [],
    },
    # A blank build misses the creation dots, so the rules refuse it as an NPC.
    "maelstrom": {
        "ruleset": "maelstrom", "name": "Thug", "budget": {"xp": 0},
        "attributes": {"strength": 3, "precision": 3, "reflexes": 3, "perception": 2, "intelligence": 2, "wits": 3},
        "abilities": {"melee": 3, "athletics": 3, "firearms": 2, "alertness": 2, "streetwise": 2, "stealth": 2,
                      "driving": 1, "survival": 1, "medicine": 1, "technology": 1, "tradecraft": 1,
                      "heavy_weapons": 1},
        "willpower": 3, "specialties": [],
    },
}


def quick_build(ruleset, campaign) -> dict[str, Any]:
    if ruleset is None:
        return {}
    if ruleset.slug in QUICK_BUILDS:
        return copy.deepcopy(QUICK_BUILDS[ruleset.slug])
    try:
        return ruleset.blank_build("Bandit", campaign.starting_budget or None)
    except Exception:
        return {"ruleset": ruleset.slug, "name": "Bandit"}
