"""Who should roll (CONTRACT.md "The GM's screen", ``party-odds``): each character in play that
has the roll, its odds with the table's numbers and help put in, best first, and the party's
chances together. The question is checked by characters/party/forms.py; the characters and the
rules' answers about them are read by characters/party/selectors.py.
"""

from __future__ import annotations

import logging
import math
from typing import Any

from characters.models import Campaign, Character
from characters.party.forms import PartyRefused, check_aid, check_need, check_table, refuse
from characters.party.selectors import MemberRules, campaign_rules, member_rules, party_characters
from rulesets.engine import OddsError
from rulesets.engine import effects as fx
from rulesets.engine.context import Context
from rulesets.engine.ruleset import Ruleset

logger = logging.getLogger(__name__)


def roll_label(labels: list[str], fallback: str) -> str:
    """One name for a roll several characters have under labels that differ in their numbers
    ("Capability (Coordination 3d6, level 1)", "… 4d6, level 2"): the words they all start with,
    before any parenthesis; the ruleset's word for the roll's id when they share none."""
    labels = [lab for lab in labels if lab]
    if not labels:
        return fallback
    if all(lab == labels[0] for lab in labels):
        return labels[0]
    common: list[str] = []
    for words in zip(*(lab.split() for lab in labels), strict=False):
        if any(w != words[0] for w in words):
            break
        common.append(words[0])
    text = " ".join(common).split(" (")[0].rstrip(" ,:;(–-")
    if len(text) >= 3:
        return text
    # Nothing shared ("Sword: strike", "Bow: strike": what each holds first): the rolls themselves,
    # never the roll's id in words ("Item: 0: strike").
    heads = list(dict.fromkeys(lab.split(" (")[0].strip() for lab in labels))
    if len(heads) <= 3:
        return " or ".join(heads)
    return f"{heads[0]}, {heads[1]} or {len(heads) - 2} other rolls"


def party_rolls(ruleset: Ruleset, members: list[MemberRules]) -> list[dict[str, str]]:
    """Every roll some character of the party has, in the order the first sheet lists them:
    [{"id", "label"}] (the label ``roll_label`` of the characters' labels)."""
    labels: dict[str, list[str]] = {}
    for rules in members:
        for r in rules.rollables:
            labels.setdefault(r["id"], []).append(str(r.get("label") or ""))
    return [{"id": rid, "label": roll_label(found, ruleset.label(rid))} for rid, found in labels.items()]


def aid_view(ruleset: Ruleset, aid: dict[str, Any]) -> dict[str, Any]:
    """An aid as the answer names it: its id, label, text and each change in words."""
    changes = [c for c in aid.get("changes") or () if isinstance(c, dict)]
    return {
        "id": aid["id"],
        "label": str(aid.get("label") or ruleset.label(aid["id"])),
        "text": str(aid.get("text") or ""),
        "changes": changes,
        "changed": [fx.describe_change(ruleset, c) for c in changes],
    }


def _odds(
    ruleset: Ruleset, ctx: Context | None, request: dict[str, Any], who: str, what: str
) -> dict[str, Any]:
    try:
        return ruleset.odds(request, ctx=ctx)
    except OddsError as exc:
        raise refuse(f"{who}'s {what} cannot be worked out: {exc}", "table") from None
    except NotImplementedError:
        raise refuse(f"{ruleset.name} has no odds.", "rollable") from None
    except Exception:  # a ruleset bug must not become a 500; the log keeps it
        logger.exception("party odds of %s raised on %r", ruleset.slug, request)
        raise refuse(f"{who}'s {what} cannot be worked out.", "table") from None


def party_odds(
    *,
    campaign: Campaign,
    rollable: Any,
    table: Any = None,
    need: Any = None,
    aid: Any = None,
    form: bool = False,
    characters: list[Character] | None = None,
) -> dict[str, Any]:
    """Who should roll (CONTRACT.md "The GM's screen", ``party-odds``).

    For each character in play that has the roll ``rollable``: its own request (the API's
    ``rollables``, effects and house defaults applied) with the ``table`` numbers put in, then the
    ``aid``'s changes (the help the table gives: ``Ruleset.roll_aids``), its exact odds and its
    ``success`` (``Ruleset.success(odds, need)``); best first. ``missing``: the ids of the
    characters in play without that roll. ``refused``: [{"id", "reason"}], the characters whose
    request the rules refuse (the reason in words); the others are answered (when the rules refuse
    every one, a ``PartyRefused`` with the reasons). ``at_least_one`` = 1 − Π(1 − success); ``all`` =
    Π success. With an aid, each character also has ``without_aid`` (its success without the
    help) and ``aid`` says what the help changes.

    ``form``: the values are a form's text. Refusals (``PartyRefused``, a 400): a roll no character
    in play has, a key the table does not set, a value the odds form or the odds refuse, a
    ``need`` where the ruleset counts none, an aid the ruleset does not offer."""
    ruleset, ctx = campaign_rules(campaign)
    if ruleset is None:
        raise refuse("This campaign's ruleset is not available.", "rollable")
    if not isinstance(rollable, str) or not rollable:
        raise refuse("Name the roll: one of the rolls of the party's characters.", "rollable")
    table = check_table(ruleset, table, form=form)
    need = check_need(ruleset, need, form=form)
    chosen = check_aid(ruleset, ctx, aid, form=form)
    characters = party_characters(campaign=campaign) if characters is None else characters
    having: list[tuple[Character, dict[str, Any]]] = []
    missing: list[Character] = []
    for character in characters:
        found = member_rules(character).rollable(rollable)
        if found is None:
            missing.append(character)
        else:
            having.append((character, found))
    if not having:
        raise refuse(f"No character in play has the roll {rollable!r}.", "rollable")
    label = roll_label([str(r.get("label") or "") for _, r in having], ruleset.label(rollable))
    rows = []
    refused: list[dict[str, Any]] = []
    for character, found in having:
        # The table's numbers go in before the character's effects and the aid change them, and
        # the effects and the aid go together (a hard roll and a helper's easy may cancel).
        base = {**found.get("unaffected", found["request"]), **table}
        effects = fx.active_changes(character.state) if "unaffected" in found else []
        plain = fx.apply_changes(ruleset, base, effects, rollable) if effects else base
        request = (
            fx.apply_changes(ruleset, base, effects + list(chosen["changes"]), rollable) if chosen else plain
        )
        try:
            answer = _odds(ruleset, ctx, request, character.name, label)
            before = (
                _odds(ruleset, ctx, plain, character.name, label) if chosen and request != plain else answer
            )
        except PartyRefused as exc:
            # One character's numbers the rules refuse (an outlier effect, a build past the dice)
            # never hide the rest of the party: it is listed with the reason, the others answered.
            refused.append({"id": character.pk, "reason": exc.message})
            continue
        row: dict[str, Any] = {
            "id": character.pk,
            "name": character.name,
            "label": found.get("label", ""),
            "request": request,
            "odds": answer,
            "success": ruleset.success(answer, need),
        }
        if chosen:
            row["without_aid"] = ruleset.success(before, need)
        rows.append(row)
    if refused and not rows:  # nobody answered: the question itself cannot be, say why
        raise refuse(" ".join(r["reason"] for r in refused), "table")
    rows.sort(key=lambda r: (-r["success"], r["name"], r["id"]))
    return {
        "rollable": rollable,
        "label": label,
        "table": table,
        "need": need,
        "aid": aid_view(ruleset, chosen) if chosen else None,
        "characters": rows,
        "missing": [c.pk for c in missing],
        "refused": refused,
        "at_least_one": 1 - math.prod(1 - r["success"] for r in rows),
        "all": math.prod(r["success"] for r in rows),
    }
