"""Template helpers of advancement: costs for people, the player's notices, the review badge."""

from __future__ import annotations

from django import template

from characters.advancement.selectors import advancement_notices as notices
from characters.diff import describe, phrase
from rulesets.engine import registry

register = template.Library()


@register.simple_tag
def cost_text(cost, slug) -> str:
    """{"xp": 8, "force_points": 0} → "+8 XP" ("free" when nothing changes, "−2 CP" for a refund)."""
    if not isinstance(cost, dict):
        return ""
    ruleset = registry.get(slug)
    label = ruleset.currency_label if ruleset else (lambda c, n=None: c)
    parts = [
        f"{v:+d} {label(c, abs(v))}".replace("-", "−") for c, v in cost.items() if isinstance(v, int) and v
    ]
    return ", ".join(parts) or "free"


@register.simple_tag
def amount_words(amount, currency, slug, sign=False) -> str:
    """1, "points" → "1 point", 3 → "3 points" (``sign=True``: "+1 point", "−2 CP"): an amount of a
    currency in the ruleset's words, singular for one."""
    ruleset = registry.get(slug)
    n = amount if isinstance(amount, int) else 0
    label = ruleset.currency_label(currency, abs(n)) if ruleset else currency
    number = f"{n:+d}".replace("-", "−") if sign else str(amount)
    return f"{number} {label}"


@register.simple_tag
def shown_version(character_id, token):
    """The version people read for an advancement's token (``{% shown_version a.character_id a.base_version %}``):
    the number History and the sheet's header show, never the concurrency token."""
    from characters.advancement.selectors import shown_version_of

    return shown_version_of(character_id=character_id, token=token)


@register.filter
def currency_label(currency, slug) -> str:
    """ "cp" → "CP": a currency as its ruleset names it (``{{ c|currency_label:character.ruleset }}``)."""
    ruleset = registry.get(slug)
    return ruleset.currency_label(currency) if ruleset else currency


@register.inclusion_tag("characters/advancement/_advancement_notices.html", takes_context=True)
def advancement_notices(context, character):
    """The owner's latest request outcomes: ``{% load advancement_tags %}{% advancement_notices character %}``."""
    request = context.get("request")
    user = getattr(request, "user", None)
    # A character read for its sheet says whether it has any request (``has_requests``): none, no query.
    asked = user and getattr(character, "has_requests", None) is not False
    return {"character": character, "notices": notices(character=character, user=user) if asked else []}


@register.simple_tag
def diff_words(row, slug) -> dict:
    """A diff row in words (``characters.diff.describe``), content ids as the ruleset names them:
    ``{% diff_words row slug as w %}`` → w.text, w.added, w.removed, w.changed, w.is_list."""
    if not isinstance(row, dict):
        return {"text": "", "added": [], "removed": [], "changed": [], "is_list": False}
    names = _row_names(row, _content_names(slug))
    words = describe(row, names)
    words["is_list"] = isinstance(row.get("old"), list) or isinstance(row.get("new"), list)
    words["old"] = "—" if row.get("old") is None else phrase(row.get("old"), names)
    words["new"] = "—" if row.get("new") is None else phrase(row.get("new"), names)
    return words


#: Top-level keys whose value a person typed: shown as typed, never re-cased as an id.
_TYPED = frozenset({"name", "concept", "notes", "description", "player"})


def _row_names(row: dict, names: dict[str, str]) -> dict[str, str]:
    """``names`` for one diff row: a typed value (the character's name) reads as typed, and the
    ruleset's slug as the ruleset's name ("coin" → "Coin")."""
    key = str(row.get("path", "")).strip("/")
    values = [v for v in (row.get("old"), row.get("new")) if isinstance(v, str)]
    if key in _TYPED:
        return {**names, **{v: v for v in values}}
    if key == "ruleset":
        return {**names, **{v: r.name for v in values if (r := registry.get(v)) is not None}}
    return names


def _content_names(slug) -> dict[str, str]:
    """Every content id of the ruleset → its name (the catalogues' ``name``)."""
    ruleset = registry.get(slug)
    if ruleset is None:
        return {}
    return _names_of(ruleset)


_NAMES: dict[str, dict[str, str]] = {}


def _names_of(ruleset) -> dict[str, str]:
    names = _NAMES.get(ruleset.slug)
    if names is None:
        names = {}
        for entries in (ruleset.catalogue or {}).values():
            if isinstance(entries, dict):
                for ident, entry in entries.items():
                    if isinstance(entry, dict) and isinstance(entry.get("name"), str):
                        names.setdefault(str(ident), entry["name"])
        _NAMES[ruleset.slug] = names
    return names
