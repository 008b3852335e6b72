"""Tags of the encounter page's own fragments."""

from __future__ import annotations

from typing import Any

from django import template

from combat.library.views import add_npcs_context
from combat.views import encounter_effects_context

register = template.Library()


@register.simple_tag(takes_context=True)
def add_npcs(context: Any, encounter: Any) -> dict[str, Any]:
    """What the "Add NPCs" form (combat/_add_npcs.html) shows to this user; the page's view need
    not know of it (a refused plain POST passes ``add_npcs_state`` with the reason)."""
    return add_npcs_context(context.get("request"), encounter, context.get("add_npcs_state"))


@register.simple_tag(takes_context=True)
def encounter_effects(context: Any, encounter: Any) -> dict[str, Any]:
    """What the GM's effects form (combat/_encounter_effects.html) shows to this user (a refused plain
    POST passes ``effects_state`` with the reason)."""
    return encounter_effects_context(
        context.get("request"), encounter, context.get("board"), context.get("effects_state")
    )
