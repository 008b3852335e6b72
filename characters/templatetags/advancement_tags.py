"""Template helpers of advancement: costs for people, the player's notices, the review badge."""

from __future__ import annotations

from django import template

from rulesets.engine import registry

register = template.Library()


@register.simple_tag
def cost_text(cost, slug) -> str:
    """{"xp": 8, "force_points": 0} → "+8 XP" ("free" when nothing changes, "−2 CP" for a refund)."""
    if not isinstance(cost, dict):
        return ""
    ruleset = registry.get(slug)
    label = ruleset.currency_label if ruleset else (lambda c: c)
    parts = [f"{v:+d} {label(c)}".replace("-", "−") for c, v in cost.items() if isinstance(v, int) and v]
    return ", ".join(parts) or "free"


@register.filter
def currency_label(currency, slug) -> str:
    """"cp" → "CP": a currency as its ruleset names it (``{{ c|currency_label:character.ruleset }}``)."""
    ruleset = registry.get(slug)
    return ruleset.currency_label(currency) if ruleset else currency


@register.inclusion_tag("characters/_advancement_notices.html", takes_context=True)
def advancement_notices(context, character):
    """The owner's latest request outcomes: ``{% load advancement_tags %}{% advancement_notices character %}``."""
    from characters.selectors.advancement import advancement_notices as notices

    request = context.get("request")
    user = getattr(request, "user", None)
    return {"character": character, "notices": notices(character=character, user=user) if user else []}
