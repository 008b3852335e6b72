"""The ledger writer: every ``LedgerEntry`` row is written here (the rules are in
``characters/advancement/services.py``'s module doc: awards, spends, reversals; rows are
never updated or deleted). Call inside the caller's transaction, under its row lock.
"""

from __future__ import annotations

from characters.models import Advancement, Character, LedgerEntry
from characters.rules import character_validate
from rulesets.engine import registry


def ledger_award_starting_budget(*, character: Character, budget: dict, author) -> list[LedgerEntry]:
    """The starting budget as the first award, one row per awardable currency (version 1)."""
    ruleset = registry.get(character.ruleset)
    awardable = ruleset.awardable_currencies if ruleset is not None else ()
    return LedgerEntry.objects.bulk_create(
        [
            LedgerEntry(
                character=character,
                kind=LedgerEntry.Kind.AWARD,
                currency=currency,
                amount=budget[currency],
                reason="starting budget",
                author=author,
                version=1,
            )
            for currency in awardable
            if isinstance(budget.get(currency), int) and budget[currency] > 0
        ]
    )


def ledger_open(*, character: Character, author=None) -> list[LedgerEntry]:
    """Book the approved build's price as its first spend rows, once (call under the row lock).

    ``character_submit`` calls this when a draft becomes active. For an active character
    that has no spend rows yet (made active before the ledger tracked spends, or seeded),
    the advancement services call it before pricing anything, so the invariant holds.
    """
    if character.status != Character.Status.ACTIVE:
        return []
    if LedgerEntry.objects.filter(character=character).exclude(kind=LedgerEntry.Kind.AWARD).exists():
        return []
    if Advancement.objects.filter(character=character, status=Advancement.Status.APPROVED).exists():
        return []
    ruleset = registry.get(character.ruleset)
    if ruleset is None:
        return []
    report = character_validate(campaign=character.campaign, build=character.build)
    rows = [
        LedgerEntry(
            character=character,
            kind=LedgerEntry.Kind.SPEND,
            currency=currency,
            amount=-report.spent.get(currency, 0),
            reason="initial build",
            author=author,
            version=character.version,
        )
        for currency in ruleset.awardable_currencies
        if report.spent.get(currency, 0)
    ]
    return LedgerEntry.objects.bulk_create(rows)


def ledger_award(
    *, character: Character, currency: str, amount: int, reason: str, author, advancement=None
) -> LedgerEntry:
    """One GM award row (``advancement``: the approved request it comes from, activities between
    adventures)."""
    return LedgerEntry.objects.create(
        character=character,
        kind=LedgerEntry.Kind.AWARD,
        currency=currency,
        amount=amount,
        reason=reason,
        author=author,
        version=character.version,
        advancement=advancement,
    )


def ledger_spend(
    *, character: Character, cost: dict[str, int], currencies, reason: str, author, advancement: Advancement
) -> list[LedgerEntry]:
    """What an approved change cost, one row per currency of ``currencies`` whose price changed."""
    return LedgerEntry.objects.bulk_create(
        [
            LedgerEntry(
                character=character,
                kind=LedgerEntry.Kind.SPEND,
                currency=currency,
                amount=-cost[currency],
                reason=reason,
                author=author,
                advancement=advancement,
                version=character.version,
            )
            for currency in currencies
            if cost.get(currency)
        ]
    )


def ledger_reverse(
    *, character: Character, advancement: Advancement, reason: str, author
) -> list[LedgerEntry]:
    """Undo ``advancement``'s spends: a row of the opposite amount for each."""
    return LedgerEntry.objects.bulk_create(
        [
            LedgerEntry(
                character=character,
                kind=LedgerEntry.Kind.REVERSAL,
                currency=row.currency,
                amount=-row.amount,
                reason=reason,
                author=author,
                advancement=advancement,
                version=character.version,
            )
            for row in LedgerEntry.objects.filter(advancement=advancement, kind=LedgerEntry.Kind.SPEND)
        ]
    )
