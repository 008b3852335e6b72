"""Reading Maelstrom's catalogue: ordinals, titles, and specialties found by name."""

from __future__ import annotations

from rulesets.engine.context import Context
from rulesets.engine.fields import name_key

from .common import _PAREN_RE

_ORDINALS: dict[int, str] = {}


def ordinal(n: int) -> str:
    text = _ORDINALS.get(n) if type(n) is int else None
    if text is None:
        text = _ordinal(n)
        if type(n) is int and len(_ORDINALS) < 1024:
            _ORDINALS[n] = text
    return text


def _ordinal(n: int) -> str:
    if 10 <= n % 100 <= 20:
        return f"{n}th"
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th') }"


def _title(catalogue: dict, kind: str, key: str) -> str:
    entry = catalogue.get(kind, {}).get(key)
    return entry.get("name", key) if isinstance(entry, dict) else key.replace("_", " ").title()


def is_template(entry: dict) -> bool:
    """A suggestion that stands for many specialties: "Specific Language (Chinese, Russian, etc)",
    "Terrain (Urban, Forest, …)". Each language or terrain is its own specialty."""
    return bool(entry.get("examples")) or entry["name"].lower().startswith("specific ")


def specialty_index(ctx: Context) -> tuple[dict[tuple[str, str], dict], list[tuple[str, str, dict]]]:
    """(ability, name key) → catalogue entry, with the examples of templates as aliases;
    and the "Specific X" templates as (ability, key of X, entry) for names ending in X.
    Once per context (``Context.memo``)."""
    return ctx.memo(
        "maelstrom.specialty_index", lambda: _specialty_index(ctx.catalogue.get("specialties", {}))
    )


def _specialty_index(specs: dict) -> tuple[dict[tuple[str, str], dict], list[tuple[str, str, dict]]]:
    index: dict[tuple[str, str], dict] = {}
    suffixes: list[tuple[str, str, dict]] = []
    for entry in specs.values():
        if not isinstance(entry.get("ability"), str) or not isinstance(entry.get("name"), str):
            continue
        for example in str(entry.get("examples") or "").split(","):
            key = name_key(example)
            if key and key != "etc":
                index.setdefault((entry["ability"], key), entry)
        if entry["name"].lower().startswith("specific "):
            suffixes.append((entry["ability"], name_key(entry["name"].split(" ")[-1]), entry))
    for entry in specs.values():
        if isinstance(entry.get("ability"), str) and isinstance(entry.get("name"), str):
            index[(entry["ability"], name_key(entry["name"]))] = entry
    return index, suffixes


def find_specialty(ctx: Context, ability: str, name: str) -> dict | None:
    """The rulebook (or homebrew) entry a typed specialty name stands for, if any."""
    index, suffixes = specialty_index(ctx)
    key = name_key(name)
    entry = index.get((ability, key))
    if entry is None:
        bare = name_key(_PAREN_RE.sub("", name))
        inner = _PAREN_RE.search(name)
        entry = index.get((ability, bare))
        if entry is None and inner:
            entry = index.get((ability, name_key(inner.group(0))))
    words = name.split()
    if entry is None and len(words) > 1:
        last = name_key(words[-1])
        for owner, suffix, template in suffixes:
            if owner == ability and suffix == last:
                return template
    return entry


def _find_with_identity(ctx: Context, ability: str, name: str) -> tuple[dict | None, tuple[str, str]]:
    """``find_specialty`` and ``specialty_identity`` of a typed specialty, remembered per context
    (both depend only on the catalogue's specialties)."""
    memo: dict[tuple[str, str], tuple[dict | None, tuple[str, str]]] = ctx.memo(
        "maelstrom.specialties_found", dict
    )
    key = (ability, name)
    found = memo.get(key)
    if found is None:
        listed = find_specialty(ctx, ability, name)
        found = (listed, specialty_identity(listed, ability, name))
        if len(memo) > 4096:
            memo.clear()
        memo[key] = found
    return found


def specialty_identity(entry: dict | None, ability: str, name: str) -> tuple[str, str]:
    """What makes two specialties the same: the catalogue entry, or the typed name for templates."""
    if entry is not None and not is_template(entry):
        return (ability, entry["id"])
    return (ability, name_key(name))


# ---------------------------------------------------------------- the check
