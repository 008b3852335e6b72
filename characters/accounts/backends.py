"""The session's user, loaded with what every page's navigation shows of them.

Django's ``ModelBackend`` loads the signed-in user on each request with one query; the navigation's
review badge (characters/advancement/selectors.py ``review_badge``) then asked a second. This backend
loads the user with the badge's two numbers in the same statement (characters/selectors.py
``with_review_badge``), so an
authenticated page costs one query fewer. Signing in, permissions and inactive users are Django's
own. Sessions signed in before it was configured name ``ModelBackend`` and keep working (it stays in
``AUTHENTICATION_BACKENDS``); their badge is asked by its own query as before.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.db.models import QuerySet, Value

from characters.compiled import CompiledQuery
from characters.selectors import with_review_badge


def _session_user(user: int) -> QuerySet:
    # Value(): as characters/advancement/selectors.py ``_badge_row``.
    return with_review_badge(get_user_model()._default_manager.filter(pk=Value(user)))


#: Every signed-in request runs it: compiled once per process (characters/compiled.py).
_SESSION_USER = CompiledQuery(_session_user, "user")


class SessionUserBackend(ModelBackend):
    def get_user(self, user_id):
        try:
            pk = int(user_id)
        except (TypeError, ValueError):
            return None
        rows = _SESSION_USER.fetch(user=pk) if 0 < pk < 2**63 else []
        if not rows:
            return None
        user = rows[0]
        user.loaded_review_badge = (user.review_gm_read, user.review_pending_read)
        return user if self.user_can_authenticate(user) else None
