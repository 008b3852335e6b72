"""A reviewer's comment (a creation's, an advancement's, a plan's approval or rejection): one check
for the three services that take one, and its bound for their serializers."""

from __future__ import annotations

from typing import Any

from config.errors import BadInput

MAX_COMMENT = 2000


def check_comment(comment: Any, *, required: bool) -> str:
    """The comment stripped; text of at most ``MAX_COMMENT`` characters, and not blank when
    ``required`` (a rejection says why)."""
    if comment is None:
        comment = ""
    if not isinstance(comment, str) or len(comment) > MAX_COMMENT:
        raise BadInput(f"The comment must be text of at most {MAX_COMMENT} characters.", field="comment")
    if required and not comment.strip():
        raise BadInput("Say why: a rejection needs a comment for the player.", field="comment")
    return comment.strip()
