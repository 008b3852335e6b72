"""Share links: a read-only link to a character's sheet (``/s/<token>/``), made, listed and revoked
by the character's owner and the campaign's GM.

- ``share_create``: a new link (a random token of 32 URL-safe characters).
- ``share_revoke``: the link answers 404 at once and its open sockets are closed once the
  revocation commits (characters/shares/live.py). The row is kept, with when it was revoked.

Who may: the owner (while a member) and the campaign's GM; anyone else who may see the
character is a 403 (no one else may), anyone who may not is a 404.
"""

from __future__ import annotations

import secrets

from django.db import transaction
from django.utils import timezone

from characters.models import Character, ShareLink
from characters.selectors import character_for_user, is_campaign_gm
from characters.shares.live import share_revoked
from characters.shares.selectors import TOKEN, ShareNotFound
from config.errors import NotPermitted

#: A typo guard: links of one character that work at once.
MAX_LINKS = 20


def share_manager(*, user, character_id) -> Character:
    """The character if ``user`` manages its links (owner or GM); 404 / 403 otherwise."""
    character = character_for_user(user=user, character_id=character_id)
    if character.owner_id != user.pk and not is_campaign_gm(user, character.campaign):
        raise NotPermitted("Only the character's owner and the campaign's GM share its sheet.")
    return character


@transaction.atomic
def share_create(*, user, character_id) -> ShareLink:
    character = share_manager(user=user, character_id=character_id)
    Character.objects.select_for_update(of=("self",)).filter(pk=character.pk).first()
    if ShareLink.objects.filter(character=character, revoked__isnull=True).count() >= MAX_LINKS:
        raise NotPermitted(f"{character.name} has {MAX_LINKS} links already: revoke one first.")
    return ShareLink.objects.create(character=character, token=secrets.token_urlsafe(24), created_by=user)


@transaction.atomic
def share_revoke(*, user, character_id, token) -> ShareLink:
    character = share_manager(user=user, character_id=character_id)
    if not isinstance(token, str) or not TOKEN.match(token):
        raise ShareNotFound("No such link.")
    link = (
        ShareLink.objects.select_for_update()
        .filter(character=character, token=token, revoked__isnull=True)
        .first()
    )
    if link is None:
        raise ShareNotFound("No such link.")
    link.revoked = timezone.now()
    link.save(update_fields=["revoked"])
    share_revoked(link.token)
    return link
