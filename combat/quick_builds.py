"""The GM's quick NPC form starts from the ruleset's quick NPC (``Ruleset.quick_npc``)."""

from __future__ import annotations

from typing import Any


def quick_build(ruleset, campaign) -> dict[str, Any]:
    """A small build the GM can add as an NPC: the ruleset's own, else its blank build."""
    if ruleset is None:
        return {}
    ctx = ruleset.context(campaign.house_rules, campaign.homebrew)
    return ruleset.quick_npc(campaign.starting_budget or None, ctx)
