"""A character's passage from draft to play: the one place a valid build becomes an active
character, whether the player submits it or the GM approves it (builder/services.py,
builder/approval.py), so both make exactly the same character."""

from __future__ import annotations

from characters.campaigns.selectors import campaign_context
from characters.ledger import ledger_open
from characters.models import Character
from characters.rules import campaign_ruleset, character_validate
from characters.versions import character_version_write


def character_activate(*, character: Character, author, reason: str) -> Character:
    """A locked, valid character becomes active: first play state, a version, the opening ledger rows.

    Called under the row lock by ``character_submit`` and by the GM's approval, so that
    both make exactly the same character.
    """
    campaign = character.campaign
    ruleset = campaign_ruleset(campaign)
    draft_report = character_validate(campaign=campaign, build=character.build)
    character.report = draft_report.as_dict()
    ctx = campaign_context(campaign=campaign, ruleset=ruleset)
    character.state = ruleset.initial_state(character.build, draft_report, ctx=ctx) or {}
    character.status = Character.Status.ACTIVE
    character_version_write(
        character=character, author=author, reason=reason, fields=["report", "state", "status"]
    )
    ledger_open(character=character, author=author)  # the ledger's first spend rows
    return character
