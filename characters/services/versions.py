"""The one writer of character versions.

Every change of a character's build or play state is a new ``CharacterVersion`` (the history,
the revert, the stale-version check of every door). This is the only place that writes one, so
it is also where every open sheet of the character hears of the change (characters/sheet_live.py).

Play-state changes are grouped per session of play: a change of the play state alone that
follows another within ``PLAY_SESSION_GAP`` updates that play version's row in place (its number
becomes the new version, its reason gains the new sentence) instead of adding a row, so the play
log and History list one row per session, not one per pool click. The version counter still moves
on every change: it is the token of every stale-version check.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import timedelta

from django.db.models import F, Value
from django.db.models.functions import Concat, Right
from django.utils import timezone

from characters.errors import Conflict
from characters.models import Character, CharacterVersion

#: The length of ``CharacterVersion.reason``.
REASON_LENGTH = 200
#: A play change this long after the character's previous change starts a new session of play.
PLAY_SESSION_GAP = timedelta(hours=2)
#: Between the sentences of one session of play in its version's reason.
PLAY_JOIN = " · "


def character_version_write(
    *, character: Character, author, reason: str, fields: Iterable[str] = ()
) -> CharacterVersion:
    """Record ``character`` as it is now as a version, in the caller's transaction.

    ``fields`` are the columns the caller changed on ``character``: the version counter is
    bumped and the row saved with them first. Without them (a new character) the current
    version number is recorded as it is.

    The row is saved only if it is still at the version the caller read (a compare-and-swap on
    ``version``): a writer that did not lock the row and lost a race gets ``Conflict`` instead
    of silently writing over the change that won.

    A change of the play state alone (``fields`` are ["state"]: harm, a pool, a combat round)
    is a "play" version, listed in the play log; every other is a "build" version (History).
    Play versions are grouped per session of play (the module docstring).
    """
    from characters.sheet_live import sheet_changed

    fields = list(fields)
    play = set(fields) == {"state"}
    reason = reason[:REASON_LENGTH]
    if not fields:
        version = CharacterVersion.objects.create(
            character=character,
            number=character.version,
            build=character.build,
            state=character.state,
            report=character.report,
            reason=reason,
            author=author,
            kind="build",
        )
        sheet_changed(character, build=True)
        return version
    read_version, last_change = character.version, character.updated
    now = timezone.now()
    columns = {name: getattr(character, name) for name in fields if name not in ("version", "updated")}
    saved = Character.objects.filter(pk=character.pk, version=read_version).update(
        **columns, version=read_version + 1, updated=now
    )
    if saved != 1:
        raise Conflict(
            f"{character.name} changed while this was being done: nothing was saved. Reload and try again."
        )
    character.version, character.updated = read_version + 1, now
    sheet_changed(character, build=not play)
    if play and last_change is not None and now - last_change < PLAY_SESSION_GAP:
        # The same session of play: the previous play version (still the latest row) takes it in.
        grouped = CharacterVersion.objects.filter(
            character=character, number=read_version, kind="play"
        ).update(
            number=character.version,
            state=character.state,
            author=author,
            reason=Right(Concat(F("reason"), Value(PLAY_JOIN + reason)), REASON_LENGTH),
        )
        if grouped:
            return CharacterVersion(
                character=character,
                number=character.version,
                build=character.build,
                state=character.state,
                report=character.report,
                reason=reason,
                author=author,
                kind="play",
            )
    return CharacterVersion.objects.create(
        character=character,
        number=character.version,
        build=character.build,
        state=character.state,
        report=character.report,
        reason=reason,
        author=author,
        kind="play" if play else "build",
    )
