"""The campaign's homebrew, one entry at a time: add, replace, remove (GM only).

Each write takes the campaign's row lock, checks the whole homebrew with the rules service (the
kind's fields, ``rulesets.engine`` ``check_entry``, and the ruleset's own checks) and saves nothing
while an issue remains. Removing an entry that a character in play uses is refused, naming them.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction

from characters.models import Campaign, Character
from characters.rules import campaign_ruleset
from characters.selectors import is_campaign_gm
from config.errors import NotPermitted
from rulesets.engine.entries import new_id
from rulesets.engine.words import few

#: The characters whose builds hold an entry in place: removing it is refused while one uses it.
IN_PLAY = (Character.Status.ACTIVE, Character.Status.PENDING)


@dataclass
class EntryResult:
    """What happened to one entry: saved or not, its id, and the issues (dicts with code/path/message)
    — those of the entry itself with their ``field`` (the field's name) for the form."""

    saved: bool
    entry_id: str = ""
    issues: list[dict] = field(default_factory=list)


def homebrew_list(campaign: Campaign, kind: str) -> list[dict]:
    entries = (campaign.homebrew or {}).get(kind) if isinstance(campaign.homebrew, dict) else None
    return [e for e in entries if isinstance(e, dict)] if isinstance(entries, list) else []


def homebrew_entry(campaign: Campaign, kind: str, entry_id: str) -> dict | None:
    return next((e for e in homebrew_list(campaign, kind) if e.get("id") == entry_id), None)


def homebrew_with(campaign: Campaign, kind: str, entry: dict, *, replace: str | None) -> tuple[dict, int]:
    """The campaign's homebrew with ``entry`` added to ``kind`` (or put in place of ``replace``), and
    the entry's index in its list."""
    homebrew = copy.deepcopy(campaign.homebrew) if isinstance(campaign.homebrew, dict) else {}
    entries = (
        [e for e in homebrew.get(kind, []) if isinstance(e, dict)]
        if isinstance(homebrew.get(kind), list)
        else []
    )
    index = next((i for i, e in enumerate(entries) if replace is not None and e.get("id") == replace), None)
    if index is None:
        entries.append(entry)
        index = len(entries) - 1
    else:
        entries[index] = entry
    homebrew[kind] = entries
    return homebrew, index


def homebrew_check(*, campaign: Campaign, kind: str, entry: dict, replace: str | None = None) -> EntryResult:
    """The issues the rules find in the homebrew with ``entry`` in it (nothing is saved). An issue of
    the entry itself gets the field it is about (``field``: the form's field name, "" for none)."""
    ruleset = campaign_ruleset(campaign)
    entry = dict(entry)
    if replace is None:
        # Unlike any id of any kind, so that a build holding it holds this entry (``homebrew_uses``).
        taken = {i for entries in ruleset.catalogue.values() for i in entries} | {
            e.get("id") for k in ruleset.homebrew_kinds for e in homebrew_list(campaign, k)
        }
        form = ruleset.entry_form(kind)
        entry["id"] = new_id(
            entry.get("name"), {t for t in taken if isinstance(t, str)}, form.one if form else "entry"
        )
    else:
        entry["id"] = replace
    homebrew, index = homebrew_with(campaign, kind, entry, replace=replace)
    _, issues = ruleset.split_homebrew(homebrew)
    form = ruleset.entry_form(kind)
    names = [f.name for f in form.fields] if form else []
    mine = f"/{kind}/{index}"
    out = []
    for issue in issues:
        found = issue.as_dict()
        if issue.path == mine or issue.path.startswith(mine + "/"):
            rest = issue.path[len(mine) + 1 :]
            found["field"] = next((n for n in names if rest == n or rest.startswith(n + "/")), "")
            found["mine"] = True
        else:
            found["field"], found["mine"] = "", False
        out.append(found)
    return EntryResult(not out, entry["id"], out)


@transaction.atomic
def homebrew_entry_save(
    *, campaign: Campaign, user, kind: str, entry: dict, replace: str | None = None
) -> EntryResult:
    """Add ``entry`` to the campaign's homebrew ``kind`` (a new id from its name), or put it in place
    of the entry ``replace`` (its id kept: the characters using it now use the new one). Nothing is
    saved while the rules find an issue in the whole homebrew."""
    if not is_campaign_gm(user, campaign):
        raise NotPermitted("Only the campaign's GM may edit its homebrew.")
    locked = Campaign.objects.select_for_update().get(pk=campaign.pk)
    result = homebrew_check(campaign=locked, kind=kind, entry=entry, replace=replace)
    if not result.saved:
        return result
    homebrew, _ = homebrew_with(locked, kind, {**entry, "id": result.entry_id}, replace=replace)
    locked.homebrew = homebrew
    locked.save(update_fields=["homebrew"])
    campaign.homebrew = homebrew
    return result


def homebrew_users(*, campaign: Campaign, kind: str, entry_id: str) -> list[Character]:
    """The campaign's characters in play whose builds use the entry."""
    ruleset = campaign_ruleset(campaign)
    return [
        c
        for c in campaign.characters.filter(status__in=IN_PLAY).only("id", "name", "build")
        if ruleset.homebrew_uses(kind, entry_id, c.build)
    ]


@transaction.atomic
def homebrew_entry_remove(*, campaign: Campaign, user, kind: str, entry_id: str) -> EntryResult:
    """Remove the entry, unless a character in play uses it (refused, naming them) or another entry
    of the homebrew needs it (refused with the rules' words)."""
    if not is_campaign_gm(user, campaign):
        raise NotPermitted("Only the campaign's GM may edit its homebrew.")
    locked = Campaign.objects.select_for_update().get(pk=campaign.pk)
    entry = homebrew_entry(locked, kind, entry_id)
    if entry is None:
        return EntryResult(
            False, entry_id, [{"code": "homebrew.gone", "path": "", "message": "That entry is already gone."}]
        )
    users = homebrew_users(campaign=locked, kind=kind, entry_id=entry_id)
    name = entry.get("name") or "This entry"
    if users:
        message = (
            f"{name} is used by {few([c.name for c in users], 6)}: it stays. Edit it to replace what it "
            "does (they keep using it), or change those characters first."
        )
        return EntryResult(False, entry_id, [{"code": "homebrew.in_use", "path": "", "message": message}])
    homebrew = copy.deepcopy(locked.homebrew)
    homebrew[kind] = [e for e in homebrew_list(locked, kind) if e.get("id") != entry_id]
    if not homebrew[kind]:
        del homebrew[kind]
    _, issues = campaign_ruleset(locked).split_homebrew(homebrew)
    if issues:
        return EntryResult(
            False,
            entry_id,
            [
                {
                    "code": "homebrew.needed",
                    "path": "",
                    "message": f"{name} is needed by other homebrew: {issues[0].message}",
                }
            ],
        )
    locked.homebrew = homebrew
    locked.save(update_fields=["homebrew"])
    campaign.homebrew = homebrew
    return EntryResult(True, entry_id)


def homebrew_export(campaign: Campaign, kind: str) -> list[dict[str, Any]]:
    return copy.deepcopy(homebrew_list(campaign, kind))
