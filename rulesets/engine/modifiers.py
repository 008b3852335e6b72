"""Typed bonuses and penalties: which of them apply to one number.

The d20 rulesets (Ascendant first; the sheet and combat for conditions) share one
stacking rule, from the seed's "Game Basics":

- every bonus and penalty may have a **type** (``"status"``, ``"circumstance"``,
  ``"item"``, or any other word a ruleset uses); of each type only the **highest
  bonus** and the **worst penalty** apply — a +1 and a +2 status bonus give +2, a −1
  and a −2 status penalty give −2, and a +2 status bonus with a −1 status penalty
  gives +1 (a bonus and a penalty of one type both apply);
- a penalty with **no type** (``None``) always applies, however many there are;
- an untyped bonus always applies too. The seed only limits typed bonuses, and an
  untyped bonus in the content is a one-off rule ("+1 while you hold the banner")
  that says nothing of others; a ruleset that wants otherwise gives it a type.

A value of 0 changes nothing and is listed as ignored. Ties keep the first one
given, so the caller's order (e.g. the order of conditions on the sheet) decides
which of two equal bonuses is shown as the one applied.
"""

from __future__ import annotations

from typing import Any, TypedDict


class Modifier(TypedDict, total=False):
    value: int
    type: str | None
    source: str


class Stacked(TypedDict):
    total: int
    applied: list[dict[str, Any]]
    ignored: list[dict[str, Any]]


def stack(modifiers: list[dict[str, Any]]) -> Stacked:
    """Apply the typed-stacking rule to ``modifiers`` ([{"value", "type", "source"}]).

    Returns {"total": n, "applied": [...], "ignored": [...]}; each ignored entry is a
    copy of the modifier with a "reason". Entries without a whole-number ``value``
    are ignored with a reason rather than raised on, so a bad homebrew condition
    cannot break a sheet.
    """
    best_bonus: dict[str, int] = {}  # type -> index into entries
    worst_penalty: dict[str, int] = {}
    entries: list[dict[str, Any]] = []
    ignored: list[dict[str, Any]] = []
    for mod in modifiers:
        value = mod.get("value") if isinstance(mod, dict) else None
        if not isinstance(value, int) or isinstance(value, bool):
            ignored.append(
                {**(mod if isinstance(mod, dict) else {"value": mod}), "reason": "not a whole number"}
            )
            continue
        if value == 0:
            ignored.append({**mod, "reason": "changes nothing"})
            continue
        kind = mod.get("type")
        index = len(entries)
        entries.append(dict(mod))
        if kind is None:
            continue  # untyped: always applies
        table = best_bonus if value > 0 else worst_penalty
        current = table.get(kind)
        if current is None:
            table[kind] = index
        elif abs(value) > abs(entries[current]["value"]):
            table[kind] = index
    keep = set(best_bonus.values()) | set(worst_penalty.values())
    applied: list[dict[str, Any]] = []
    for index, mod in enumerate(entries):
        kind = mod.get("type")
        if kind is None or index in keep:
            applied.append(mod)
            continue
        winner = entries[(best_bonus if mod["value"] > 0 else worst_penalty)[kind]]
        word = "bonus" if mod["value"] > 0 else "penalty"
        ignored.append(
            {
                **mod,
                "reason": f"{winner.get('source') or 'another'} gives a {'higher' if word == 'bonus' else 'worse'} "
                f"{kind} {word} ({winner['value']:+d}); only one {kind} {word} applies",
            }
        )
    return {"total": sum(m["value"] for m in applied), "applied": applied, "ignored": ignored}
