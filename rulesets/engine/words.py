"""Small English helpers for the messages the rules write: the article, a short list of names,
where in a document an issue is (in words, not a JSON pointer)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from .pointer import split

#: Words that start with a vowel letter but a consonant sound ("a unique", "a one-handed").
_CONSONANT_SOUND = ("uni", "use", "usu", "uti", "one", "once", "eu")
#: Words that start with a consonant letter but a vowel sound ("an hour", "an honest").
_VOWEL_SOUND = ("hour", "honest", "honor", "honour", "heir")


def article(word: Any) -> str:
    """ "a" or "an" for ``word`` by its first sound: ``article("ancestry")`` → "an",
    ``article("Our D&D")`` → "an", ``article("unique")`` → "a", ``article("hour")`` → "an".

    An all-capitals abbreviation without a vowel is read letter by letter ("an NPC", "an XP cost",
    "a GM"); one with a vowel is a word ("a NEAR move")."""
    text = str(word or "").strip().lstrip("\"'“‘(")
    if not text:
        return "a"
    head = text.split()[0] if text.split() else text
    if len(head) > 1 and head.isupper() and head.isalpha() and not set(head) & set("AEIOU"):
        return "an" if head[0] in "AEFHILMNORSX" else "a"
    low = text.lower()
    if low.startswith(_VOWEL_SOUND):
        return "an"
    if low.startswith(_CONSONANT_SOUND):
        return "a"
    if low[0].isdigit():
        return "an" if low.startswith(("8", "11", "18")) and not low.startswith(("110", "180")) else "a"
    return "an" if low[0] in "aeiou" else "a"


def a(word: Any) -> str:
    """``a("ancestry")`` → "an ancestry", ``a("class feat")`` → "a class feat"."""
    text = str(word or "").strip()
    return f"{article(text)} {text}" if text else ""


def few(items: Iterable[Any], limit: int = 8, *, names: Mapping[str, Any] | None = None) -> str:
    """The first ``limit`` of ``items`` joined by commas, "…" when there are more, "none" when empty.
    With ``names`` (a catalogue: id → entry with a "name"), each id is shown by its name."""
    shown: list[str] = []
    for item in items:
        if len(shown) > limit:  # one past the limit is enough to know there are more
            break
        entry = names.get(item) if names is not None and isinstance(item, str) else None
        shown.append(
            str(entry.get("name", item)) if entry is not None and isinstance(entry, Mapping) else str(item)
        )
    if not shown:
        return "none"
    return ", ".join(shown[:limit]) + (", …" if len(shown) > limit else "")


def where(pointer: Any, labels: Mapping[str, str] | None = None) -> str:
    """Where a JSON pointer points, in words: ``"/skills/0/id"`` → "Skills, entry 1, id";
    ``""`` → "" (the whole document). ``labels`` names a key ("ruleset" → "Ruleset");
    other keys read with spaces for underscores."""
    try:
        tokens = split(str(pointer or ""))
    except ValueError:
        return ""
    parts = []
    for token in tokens:
        if token.isdigit():
            parts.append(f"entry {int(token) + 1}")
        elif labels and token in labels:
            parts.append(labels[token])
        else:
            parts.append(token.replace("_", " "))
    if parts:
        parts[0] = parts[0][:1].upper() + parts[0][1:]
    return ", ".join(parts)


def label(key: Any, labels: Mapping[str, str] | None = None) -> str:
    """A key as people read it: its word in ``labels`` (a ruleset's ``labels()``), else the key in
    words: ``max_speed`` → "Max speed", ``exhaustion:cold`` → "Exhaustion: cold"."""
    text = str(key)
    if labels:
        found = labels.get(text)
        if found is not None:
            return found
    text = text.replace(":", ": ").replace("_", " ").strip()
    return text[:1].upper() + text[1:]
