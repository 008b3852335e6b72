"""The GM acts on the party: a rest for chosen characters (CONTRACT.md "A campaign's months").

Each character rests by its own ruleset's rest, through the sheet's own service
(``characters.sheet.services.character_state_action``): its own transaction, under its row lock,
a new version, live on every open sheet and on the party page. One refused (a second rest the same
day, a character not in play) is that character's row and stops no other.
"""

from __future__ import annotations

from typing import Any

from characters.models import Campaign, Character
from characters.sheet import services as play
from characters.sheet.actions import action_from_body, play_actions
from characters.sheet.selectors import character_ruleset, sheet_rules
from config.errors import ApplicationError, BadInput, NotPermitted, RuleRefused, rule_refused

#: Characters one party rest takes at most.
MAX_PARTY = 100


def rests_of(character: Character, offered: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The rests among the actions the sheet offers: the ruleset's rest actions (those that end
    effects lasting "until rest"), then any other whose name says rest (a day's, a week's)."""
    ruleset = character_ruleset(character)
    named = tuple(getattr(ruleset, "rest_actions", ()) or ())
    first = [a for a in offered if a["action"] in named]
    return first + [a for a in offered if a not in first and a["action"].startswith("rest")]


def party_rest(*, gm, campaign: Campaign, character_ids: Any, kind: Any = None) -> list[dict[str, Any]]:
    """Rest each chosen character of ``campaign`` (the GM only): ``[{id, status, message}]`` in
    the order asked, ``status`` 200 (``message`` the rest's sentence) or the refusal's (404 no
    such character in this campaign, 422 the rules refuse, with the reason in words).

    ``kind``: the rest to take, a name among the character's actions (GET /characters/<id>/actions/);
    default the ruleset's own rest. ``character_ids`` must be a non-empty list of ids (400)."""
    if not campaign.is_gm(gm):
        raise NotPermitted("Only the campaign's GM rests the party.")
    if (
        not isinstance(character_ids, list)
        or not character_ids
        or len(character_ids) > MAX_PARTY
        or not all(isinstance(i, int) and not isinstance(i, bool) and 0 < i < 2**63 for i in character_ids)
    ):
        raise BadInput(f"Choose the characters to rest: a list of 1 to {MAX_PARTY} ids.", field="characters")
    if kind is not None and (not isinstance(kind, str) or not kind or len(kind) > 80):
        raise BadInput("kind is the name of a rest among the character's actions.", field="kind")
    found = {
        c.pk: c
        for c in Character.objects.filter(campaign=campaign, pk__in=character_ids).select_related("campaign")
    }
    results = []
    for pk in dict.fromkeys(character_ids):
        character = found.get(pk)
        if character is None:
            results.append({"id": pk, "status": 404, "message": "No such character in this campaign."})
            continue
        try:
            sentence = _rest_one(gm=gm, character=character, kind=kind)
        except ApplicationError as exc:
            results.append(
                {"id": pk, "status": exc.status_code, "message": f"{character.name}: {exc.message}"}
            )
            continue
        results.append({"id": pk, "status": 200, "message": f"{character.name}: {sentence}".strip()})
    return results


def _rest_one(*, gm, character: Character, kind: str | None) -> str:
    if character.status != Character.Status.ACTIVE:
        raise rule_refused("state.not_active", "not in play.")
    offered = play_actions(character, sheet_rules(character=character))
    rests = rests_of(character, offered)
    if not rests:
        raise rule_refused("rest.none", "these rules have no rest on the sheet.")
    rest = next((r for r in rests if r["action"] == kind), None) if kind else rests[0]
    if rest is None:
        words = ", ".join(f"{r['action']} ({r['label']})" for r in rests)
        raise rule_refused("rest.unknown", f"no such rest; the sheet offers {words}.")
    try:
        action = action_from_body(offered, {"action": rest["action"]})
    except BadInput as exc:  # a rest whose fields have no default: the sheet asks for them
        raise RuleRefused(exc.message, code="rest.needs_input") from None
    _, sentence = play.character_state_action(character_id=character.pk, user=gm, action=action)
    return sentence or rest["label"]
