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
