"""The one writer of character versions.

Every change of a character's build or play state bumps ``Character.version``, the concurrency
token of every door (the API's ``version``; a write based on an older one is refused, or merged
by the builder page). Most changes are also a ``CharacterVersion`` people read (the history,
the revert, the play log), numbered for people by ``Character.shown_version``.

A builder autosave (every + or − of the builder) is not one people read: it bumps the token and
writes a ``kind="draft"`` row that is never listed. Those rows are the builds a stale builder
page's three-way merge starts from (``character_draft_base``): a page drawn from version 41
posts 41, and the merge needs the build of 41 to know what that page changed. Only the last
``DRAFT_ROWS_KEPT`` of them are kept (older ones are deleted every ``DRAFT_PRUNE_EVERY`` saves,
one statement); a page older than that is refused with the reason, never merged blindly. So a
fresh character built with 40 clicks and submitted reads "version 2" (created, submitted),
while the token says 42.

This is the only place that writes one.
"""

from __future__ import annotations

from collections.abc import Iterable

from characters.models import Character, CharacterVersion

#: The length of ``CharacterVersion.reason``.
REASON_LENGTH = 200
#: Autosave rows kept per character (the bases a stale builder page can still merge from).
DRAFT_ROWS_KEPT = 40
#: Old autosave rows are deleted when the token is a multiple of this (one DELETE, not one per save).
DRAFT_PRUNE_EVERY = 10


def character_version_write(
    *, character: Character, author, reason: str, fields: Iterable[str] = (), draft: bool = False
) -> CharacterVersion:
    """Record ``character`` as it is now as a version, in the caller's transaction.

    ``fields`` are the columns the caller changed on ``character``: the version counter is
    bumped and the row saved with them first. Without them (a new character) the current
    version number is recorded as it is.

    A change of the play state alone (``fields`` are ["state"]: harm, a pool, a combat round)
    is a "play" version, listed in the play log; every other is a "build" version (History).
    ``draft``: a builder autosave, a "draft" row that is not listed and does not change the
    number people read (see the module's docstring).
    """
    fields = list(fields)
    if fields:
        character.version += 1
        update = [*fields, "version", "updated"]
        if not draft:
            character.shown_version += 1
            update.append("shown_version")
        character.save(update_fields=update)
    if draft:
        kind = "draft"
    else:
        kind = "play" if set(fields) == {"state"} else "build"
    row = CharacterVersion.objects.create(
        character=character,
        number=character.version,
        shown_number=None if draft else character.shown_version,
        build=character.build,
        state=character.state,
        report=character.report,
        reason=reason[:REASON_LENGTH],
        author=author,
        kind=kind,
    )
    if draft and character.version % DRAFT_PRUNE_EVERY == 0:
        CharacterVersion.objects.filter(
            character=character, kind="draft", number__lte=character.version - DRAFT_ROWS_KEPT
        ).delete()
    return row
