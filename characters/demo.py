"""Demo characters for `manage.py seed_demo`: the finished characters of characters/demo/<slug>/*.json."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from django.db import transaction

from characters.models import Character

DEMO_DIR = Path(__file__).resolve().parent / "demo"


def seed_demo_characters(*, gm, players, campaigns) -> list:
    """Create the finished (active, valid) demo characters of each ruleset; idempotent.

    ``campaigns`` maps a ruleset slug to its demo Campaign; ``players`` is a list of users,
    who own the characters in turn. A character already in the campaign under the same
    name is kept as it is. A demo file that does not validate is skipped with a warning.
    The document's own budget is used (the demo characters may have earned more than the
    campaign's starting budget), written to the ledger as their starting award.
    Returns the characters created or found.
    """
    from characters.services.characters import character_create, character_submit, character_validate

    out: list[Character] = []
    turn = 0
    for slug, campaign in campaigns.items():
        for path in sorted((DEMO_DIR / slug).glob("*.json")):
            try:
                document = json.loads(path.read_text(encoding="utf-8"))
            except (OSError, ValueError) as exc:
                print(f"warning: demo {path.name} is not readable JSON ({exc}); skipped", file=sys.stderr)
                continue
            name = document.get("name") if isinstance(document, dict) else None
            if not isinstance(name, str) or document.get("ruleset") != campaign.ruleset:
                print(f"warning: demo {path.name} is not a {campaign.ruleset} build; skipped", file=sys.stderr)
                continue
            existing = Character.objects.filter(campaign=campaign, name=name).first()
            if existing is not None:
                out.append(existing)
                continue
            report = character_validate(campaign=campaign, build=document, phase="approval")
            if not report.valid:
                problems = "; ".join(f"{i.path or '/'} {i.code}" for i in report.errors[:5])
                print(f"warning: demo {slug}/{path.name} does not validate ({problems}); skipped", file=sys.stderr)
                continue
            owner = players[turn % len(players)] if players else gm
            turn += 1
            with transaction.atomic():
                character = character_create(campaign=campaign, owner=owner, build=document,
                                             budget=document.get("budget"))
                character = character_submit(character_id=character.id, user=owner)
            out.append(character)
    return out
