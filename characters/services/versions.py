"""The one writer of character versions.

Every change of a character's build or play state is a new ``CharacterVersion`` (the history,
the revert, the stale-version check of every door). This is the only place that writes one.
"""

from __future__ import annotations

from collections.abc import Iterable

from characters.models import Character, CharacterVersion

#: The length of ``CharacterVersion.reason``.
REASON_LENGTH = 200


def character_version_write(
    *, character: Character, author, reason: str, fields: Iterable[str] = ()
) -> CharacterVersion:
    """Record ``character`` as it is now as a version, in the caller's transaction.

    ``fields`` are the columns the caller changed on ``character``: the version counter is
    bumped and the row saved with them first. Without them (a new character) the current
    version number is recorded as it is.
    """
    fields = list(fields)
    if fields:
        character.version += 1
        character.save(update_fields=[*fields, "version", "updated"])
    return CharacterVersion.objects.create(
        character=character,
        number=character.version,
        build=character.build,
        state=character.state,
        report=character.report,
        reason=reason[:REASON_LENGTH],
        author=author,
    )
