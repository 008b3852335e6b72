"""The one writer of character versions.

Every change of a character's build or play state bumps ``Character.version``, the concurrency
token of every door (the API's ``version``; a write based on an older one is refused, or merged
by the builder page). Most changes are also a ``CharacterVersion`` people read (the history,
the revert, the play log), numbered for people by ``Character.shown_version``. This is the only
place that writes one, so it is also where every open sheet of the character hears of the change
(characters/sheet/live.py).

Play-state changes are grouped per session of play: a change of the play state alone that
follows another within ``PLAY_SESSION_GAP`` (the play row's ``changed``: a change without a version,
as an award's new budget, starts no session and extends none) updates that play version's row in place (its number
becomes the new version, its reason gains the new sentence) instead of adding a row, so the play
log and History list one row per session, not one per pool click. The version counter still moves
on every change: it is the token of every stale-version check; the number people read
(``shown_version``) moves only when a new row is listed.

A builder autosave (every + or − of the builder) is not one people read: it bumps the token and
writes a ``kind="draft"`` row that is never listed. Those rows are the builds a stale builder
page's three-way merge starts from (``character_draft_base``): a page drawn from version 41
posts 41, and the merge needs the build of 41 to know what that page changed. Only the last
``DRAFT_ROWS_KEPT`` of them are kept (older ones are deleted every ``DRAFT_PRUNE_EVERY`` saves,
one statement); a page older than that is refused with the reason, never merged blindly. So a
fresh character built with 40 clicks and submitted reads "version 2" (created, submitted),
while the token says 42.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import timedelta

from django.db.models import F, Value
from django.db.models.functions import Concat, Right
from django.utils import timezone

from characters.models import Character, CharacterVersion
from characters.sheet.live import sheet_changed
from config.errors import Conflict

#: The length of ``CharacterVersion.reason``.
REASON_LENGTH = 200
#: A play change this long after the character's previous change starts a new session of play.
PLAY_SESSION_GAP = timedelta(hours=2)
#: Between the sentences of one session of play in its version's reason.
PLAY_JOIN = " · "
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

    The row is saved only if it is still at the version the caller read (a compare-and-swap on
    ``version``): a writer that did not lock the row and lost a race gets ``Conflict`` instead
    of silently writing over the change that won.

    A change of the play state alone (``fields`` are ["state"]: harm, a pool, a combat round)
    is a "play" version, listed in the play log; every other is a "build" version (History).
    Play versions are grouped per session of play (the module docstring).
    ``draft``: a builder autosave, a "draft" row that is not listed and does not change the
    number people read (see the module's docstring).
    """
    fields = list(fields)
    play = set(fields) == {"state"} and not draft
    reason = reason[:REASON_LENGTH]
    if not fields:
        version = CharacterVersion.objects.create(
            character=character,
            number=character.version,
            shown_number=character.shown_version,
            build=character.build,
            state=character.state,
            report=character.report,
            reason=reason,
            author=author,
            kind="build",
            changed=timezone.now(),
        )
        sheet_changed(character, build=True)
        return version
    read_version, last_change = character.version, character.updated
    now = timezone.now()
    # A guess from the row's stamp, which changes without a version too (an award's new budget):
    # the play row itself decides below, by when it last took a change.
    same_session = play and last_change is not None and now - last_change < PLAY_SESSION_GAP
    columns = {name: getattr(character, name) for name in fields if name not in ("version", "updated")}
    # A row people read moves the number they read; a play change of the same session may join the
    # previous play row instead (decided below), so it moves the number only if it does not.
    shown = character.shown_version + (0 if draft or same_session else 1)
    saved = Character.objects.filter(pk=character.pk, version=read_version).update(
        **columns, version=read_version + 1, updated=now, shown_version=shown
    )
    if saved != 1:
        raise Conflict(
            f"{character.name} changed while this was being done: nothing was saved. Reload and try again."
        )
    character.version, character.updated, character.shown_version = read_version + 1, now, shown
    sheet_changed(character, build=not play)
    if same_session:
        # The same session of play: the previous play version (still the latest row, and its last
        # change within the gap) takes it in.
        grouped = CharacterVersion.objects.filter(
            character=character, number=read_version, kind="play", changed__gte=now - PLAY_SESSION_GAP
        ).update(
            number=character.version,
            state=character.state,
            author=author,
            changed=now,
            reason=Right(Concat(F("reason"), Value(PLAY_JOIN + reason)), REASON_LENGTH),
        )
        if grouped:
            return CharacterVersion(
                character=character,
                number=character.version,
                shown_number=character.shown_version,
                build=character.build,
                state=character.state,
                report=character.report,
                reason=reason,
                author=author,
                kind="play",
            )
        character.shown_version += 1
        Character.objects.filter(pk=character.pk).update(shown_version=character.shown_version)
    row = CharacterVersion.objects.create(
        character=character,
        number=character.version,
        shown_number=None if draft else character.shown_version,
        build=character.build,
        state=character.state,
        report=character.report,
        reason=reason,
        author=author,
        kind="draft" if draft else ("play" if play else "build"),
        changed=now,
    )
    if draft and character.version % DRAFT_PRUNE_EVERY == 0:
        CharacterVersion.objects.filter(
            character=character, kind="draft", number__lte=character.version - DRAFT_ROWS_KEPT
        ).delete()
    return row
