"""Demo characters for `manage.py seed_demo` (filled in by the builder work)."""

from __future__ import annotations


def seed_demo_characters(*, gm, players, campaigns) -> list:
    """Create one finished character per ruleset in the demo campaigns; idempotent.

    ``campaigns`` maps a ruleset slug to its demo Campaign; ``players`` is a list of users.
    Returns the characters created or found.
    """
    return []
