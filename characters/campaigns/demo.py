"""Demo characters for `manage.py seed_demo`: each ruleset's finished characters (``Ruleset.demo_builds``,
the files of ``rulesets/systems/<slug>/demo/*.json``)."""

from __future__ import annotations

import sys

from django.db import transaction

from characters.builder.services import character_create, character_submit, character_validate
from characters.models import Character
from rulesets.engine import registry
from rulesets.engine.words import a


def seed_demo_characters(*, gm, players, campaigns) -> list:
    """Create the finished (active, valid) demo characters of each ruleset; idempotent.

    ``campaigns`` maps a ruleset slug to its demo Campaign; ``players`` is a list of users,
    who own the characters in turn. A character already in the campaign under the same
    name is kept as it is. A demo file that does not validate is skipped with a warning.
    The document's own budget is used (the demo characters may have earned more than the
    campaign's starting budget), written to the ledger as their starting award.
    Returns the characters created or found.
    """
    out: list[Character] = []
    turn = 0
    for slug, campaign in campaigns.items():
        ruleset = registry.get(campaign.ruleset)
        for demo in ruleset.demo_builds() if ruleset is not None else []:
            filename = demo["file"]
            if "error" in demo:
                print(
                    f"warning: demo {filename} is not readable JSON ({demo['error']}); skipped",
                    file=sys.stderr,
                )
                continue
            document = demo["document"]
            name = document.get("name") if isinstance(document, dict) else None
            if not isinstance(name, str) or document.get("ruleset") != campaign.ruleset:
                print(
                    f"warning: demo {filename} is not {a(campaign.ruleset)} build; skipped", file=sys.stderr
                )
                continue
            existing = Character.objects.filter(campaign=campaign, name=name).first()
            if existing is not None:
                out.append(existing)
                continue
            report = character_validate(campaign=campaign, build=document, phase="approval")
            if not report.valid:
                problems = "; ".join(f"{i.path or '/'} {i.code}" for i in report.errors[:5])
                print(
                    f"warning: demo {slug}/{filename} does not validate ({problems}); skipped",
                    file=sys.stderr,
                )
                continue
            owner = players[turn % len(players)] if players else gm
            turn += 1
            with transaction.atomic():
                character = character_create(
                    campaign=campaign, owner=owner, build=document, budget=document.get("budget")
                )
                character = character_submit(character_id=character.id, user=owner)
            out.append(character)
    return out
