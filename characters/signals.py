"""What follows a change of rights: live sockets close (characters/table/live.py), API tokens go.

- A ``Membership`` deleted (leave, removal, the admin, a campaign deleted): the user's sockets
  on that campaign close.
- A log-out: the user's sockets close; each page reconnects, and only those of sessions still
  signed in (other devices) are let back in.
- A password change (``set_password`` then ``save``: the password change page, the admin,
  ``manage.py changepassword``): every API token of the user is deleted and their sockets
  close; sessions other than the one that changed it are already void (Django's session hash).
- An account deactivated (``is_active`` false): its sockets close (knox already refuses its tokens).
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.signals import user_logged_out
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

from characters.accounts import throttling  # noqa: F401  (logs lock-outs)
from characters.accounts.services import account_tokens_revoke_all
from characters.models import Membership
from characters.table.live import close_user_sockets


@receiver(post_delete, sender=Membership, dispatch_uid="characters.membership_deleted")
def _membership_deleted(sender, instance: Membership, **kwargs) -> None:
    close_user_sockets(user_id=instance.user_id, campaign_id=instance.campaign_id)


@receiver(user_logged_out, dispatch_uid="characters.logged_out")
def _logged_out(sender, request, user, **kwargs) -> None:
    if user is not None and user.pk is not None:
        close_user_sockets(user_id=user.pk)


@receiver(post_save, sender=settings.AUTH_USER_MODEL, dispatch_uid="characters.password_changed")
def _user_saved(sender, instance, created: bool, **kwargs) -> None:
    if created:
        return
    # AbstractBaseUser.set_password keeps the new raw password in ``_password`` until the save
    # that stores its hash (this one) is done: it tells a password change from any other save.
    if getattr(instance, "_password", None) is not None:
        account_tokens_revoke_all(user=instance)
        close_user_sockets(user_id=instance.pk)
    elif not instance.is_active:  # a deactivated account: its sockets go too (it cannot reconnect)
        close_user_sockets(user_id=instance.pk)
