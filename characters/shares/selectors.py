"""Reads about share links: a character's links (for those who manage them) and the character a
link shows (for anyone who has it).

A link shows its character while it is not revoked and the person who made it may still see the
character (its owner while a member of the campaign, or the campaign's GM): a removed player's
links stop with their access. Anything else is a 404, the same as a link that never was.
"""

from __future__ import annotations

import re

from django.db.models import QuerySet
from django.http import Http404

from characters.models import Character, ShareLink
from characters.selectors import characters_visible_to

TOKEN = re.compile(r"^[A-Za-z0-9_-]{20,64}$")


class ShareNotFound(Http404):
    """No such link, revoked, or its maker may no longer see the character (404 alike)."""


def shares_of(*, character: Character) -> QuerySet[ShareLink]:
    """The character's links that work, newest first (the caller has checked the user's rights)."""
    return ShareLink.objects.filter(character=character, revoked__isnull=True).select_related("created_by")


def shared_character(*, token) -> tuple[ShareLink, Character]:
    """The link ``token`` and the character it shows, or ``ShareNotFound``."""
    if not isinstance(token, str) or not TOKEN.match(token):
        raise ShareNotFound("No such link.")
    link = (
        ShareLink.objects.filter(token=token, revoked__isnull=True)
        .select_related("character", "character__campaign", "character__owner", "created_by")
        .first()
    )
    if link is None or link.created_by is None:
        raise ShareNotFound("No such link.")
    if not characters_visible_to(user=link.created_by).filter(pk=link.character_id).exists():
        raise ShareNotFound("No such link.")
    return link, link.character
