"""Writes about characters' builds: create, save a draft, submit, revert, import/export, homebrew.

Every service is keyword-only, owns its transaction and locks the character row
(``select_for_update``) before changing it. The rules service is always called with
the campaign's house rules and homebrew, so every door (page, API, import) sees the
same report.

Errors (config/errors.py): ``CharacterNotFound`` (404, via the selectors) for what the
user may not see, ``NotPermitted`` for what they may not do, ``Conflict`` for a stale version and
``RuleRefused`` for a rules refusal (submit an invalid build, import a document of
another ruleset). Views and the API turn these into 404/403/409/422.
"""

from __future__ import annotations

import copy
import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.core.cache import cache
from django.db import transaction

from characters.builder.approval import campaign_approves_new_characters, creation_review_open
from characters.builder.forms.binding import apply_steps
from characters.campaigns.selectors import campaign_context
from characters.diff import build_merge, builds_equal
from characters.ledger import ledger_award_starting_budget
from characters.lifecycle import character_activate
from characters.models import Campaign, Character, CharacterVersion
from characters.rules import (
    campaign_ruleset,
    campaign_starting_budget,
    character_budget,
    character_validate,
    new_character_budget,
    stored_build,
)
from characters.selectors import builder_traits, can_edit_build, character_for_user, is_campaign_gm
from characters.versions import DRAFT_ROWS_KEPT, character_version_write
from config.bounds import OutOfBounds, require_bounded
from config.errors import Conflict, DraftConflict, NotPermitted, RuleRefused
from rulesets.engine import FORMAT, Report, registry
from rulesets.engine.fields import whole_number
from rulesets.engine.words import a

__all__ = [  # the rules bridge, re-exported for the views that call it through this module
    "campaign_ruleset",
    "campaign_starting_budget",
    "character_budget",
    "character_validate",
    "new_character_budget",
    "stored_build",
]

logger = logging.getLogger(__name__)

#: What a character without a name is called until the player names it.
UNNAMED = "Unnamed character"


# ----------------------------------------------------------------- helpers


def _name_of(build: Any) -> str:
    name = build.get("name") if isinstance(build, dict) else None
    if isinstance(name, str) and name.strip():
        return name.strip()[:120]
    return UNNAMED


def _check_version(character: Character, version: Any) -> None:
    if not isinstance(version, int) or isinstance(version, bool) or version != character.version:
        message = (
            f"This character is at version {character.version}; you edited version {version}. "
            "Reload it and make your change again."
        )
        raise Conflict(
            message,
            errors=[
                {
                    "field": "version",
                    "code": "version.stale",
                    "message": message,
                    "current": character.version,
                }
            ],
        )


def _require_build_editor(user, character: Character) -> None:
    if not can_edit_build(user, character):
        raise NotPermitted("Only the character's owner may change its build.")


def _require_draft(character: Character, action: str) -> None:
    if character.status == Character.Status.PENDING:
        raise RuleRefused(
            f"{character.name} is waiting for the GM's approval: it cannot be changed until the GM "
            "approves it or returns it to draft.",
            errors=[{"code": "character.pending", "path": "", "message": "Waiting for the GM's approval."}],
        )
    if character.status != Character.Status.DRAFT:
        raise RuleRefused(
            f"This character is {character.get_status_display().lower()}: {action} only drafts; "
            "an active character changes through advancement.",
            errors=[{"code": "character.not_draft", "path": "", "message": "Not a draft."}],
        )


# ----------------------------------------------------------------- services


@transaction.atomic
def character_create(
    *, campaign: Campaign, owner, name: str = "", build: Any = None, budget: dict | None = None
) -> Character:
    """Create a draft character in ``campaign``'s ruleset with the campaign's starting budget.

    ``build`` (optional) is a build document: it is kept even when invalid, with its
    report; its ``budget`` is replaced by the campaign's starting budget (``budget``
    overrides that for trusted callers such as the demo seed). A starting-budget
    award is written to the ledger per awardable currency, and version 1 is created.
    """
    if build is not None:
        require_bounded(build, what="The build")
    ruleset = campaign_ruleset(campaign)
    budget = dict(budget) if isinstance(budget, dict) else campaign_starting_budget(campaign)
    if build is None:
        ctx = campaign_context(campaign=campaign, ruleset=ruleset)
        build = ruleset.blank_build(name.strip() or UNNAMED, budget, ctx)
    elif name and isinstance(build, dict):
        build = {**build, "name": name}
    build = stored_build(build, ruleset_slug=ruleset.slug, budget=budget)
    report = character_validate(campaign=campaign, build=build)
    character = Character.objects.create(
        campaign=campaign,
        owner=owner,
        name=_name_of(build),
        ruleset=ruleset.slug,
        status=Character.Status.DRAFT,
        build=build,
        state={},
        report=report.as_dict(),
        version=1,
    )
    ledger_award_starting_budget(character=character, budget=budget, author=owner)
    character_version_write(character=character, author=owner, reason="created")
    return character


@transaction.atomic
def character_save_draft(
    *, character_id, user, build: Any, version: Any, reason: str = "saved draft", autosave: bool = False
) -> Character:
    """Save a draft's build, valid or not, with its report; a new version.

    The owner only (403 otherwise), drafts only (422), ``version`` must be current (409: the
    API's rule; the builder page merges instead, ``character_save_page_draft``). ``autosave``:
    saved in place (the token changes, the history people read does not; ``versions``).
    """
    character = character_for_user(user=user, character_id=character_id, for_update=True)
    _require_build_editor(user, character)
    _require_draft(character, "saving a build applies to")
    _check_version(character, version)
    build = _stored(character, build)
    _write_draft(character=character, user=user, build=build, reason=reason, autosave=autosave)
    return character


def _require_object(build: Any) -> None:
    if not isinstance(build, dict):
        raise RuleRefused(
            "A build document must be a JSON object.",
            errors=[
                {"code": "build.malformed", "path": "", "message": "A build document must be a JSON object."}
            ],
        )


def _stored(character: Character, build: Any) -> Any:
    """``build`` as a draft of ``character`` stores it (``stored_build``: the server's budget), once
    per save; a document that is not a JSON object, or past the sanity bounds, is refused."""
    _require_object(build)
    require_bounded(build, what="The build")
    return stored_build(build, ruleset_slug=character.ruleset, budget=character_budget(character))


def _write_draft(*, character: Character, user, build: Any, reason: str, autosave: bool) -> Report:
    """Write ``build`` (already ``_stored``) as ``character``'s draft with its report, a new version;
    the rules' ``Report`` itself for a caller that shows it (the builder's autosave)."""
    report = character_validate(campaign=character.campaign, build=build)
    character.build = build
    character.report = report.as_dict()
    character.name = _name_of(build)
    character_version_write(
        character=character, author=user, reason=reason, fields=["build", "report", "name"], draft=autosave
    )
    return report


def character_draft_base(*, character: Character, version: Any) -> Any:
    """The build of ``character``'s version ``version`` (the base a builder page was drawn from),
    or None when that version is unknown or no longer kept (``versions.DRAFT_ROWS_KEPT``)."""
    if not isinstance(version, int) or isinstance(version, bool):
        return None
    if version == character.version:
        return character.build
    if not 1 <= version <= 2**31 - 1:
        return None
    return (
        CharacterVersion.objects.filter(character=character, number=version)
        .values_list("build", flat=True)
        .first()
    )


#: How long the server remembers which builder page wrote a draft version (``page_wrote``): longer
#: than a page stays open between two of its saves, in practice.
PAGE_MEMORY_SECONDS = 6 * 3600


def _page_key(character_id: int, version: int) -> str:
    return f"builder-page:{character_id}:{version}"


def page_wrote(*, character: Character, base_version: Any, page: str) -> bool:
    """Whether every version of ``character`` after ``base_version`` was written by the builder page
    ``page`` (a token each page load makes: builder.js): the page's own earlier saves, whose answers
    it has not drawn yet, not another tab's. Remembered in the cache (``remember_page``); unknown
    (forgotten, Redis away, no token): False, and the page's save is merged as another tab's would be."""
    if not page or not isinstance(base_version, int) or isinstance(base_version, bool):
        return False
    if not 0 < character.version - base_version <= DRAFT_ROWS_KEPT:
        return False
    keys = [_page_key(character.pk, v) for v in range(base_version + 1, character.version + 1)]
    try:
        found = cache.get_many(keys)
    except Exception:  # the cache is an optimisation of words, never a reason to fail a save
        return False
    return all(found.get(key) == page for key in keys)


def remember_page(*, character: Character, page: str) -> None:
    """Remember that builder page ``page`` wrote ``character``'s current version, once the
    transaction commits (a version number rolled back is written again by someone else)."""
    if not page:
        return
    key, pk = _page_key(character.pk, character.version), character.pk

    def remember() -> None:
        try:
            cache.set(key, page, PAGE_MEMORY_SECONDS)
        except Exception:  # forgotten: the page's next save merges as another tab's would
            logger.warning("could not remember the builder page of character %s", pk)

    transaction.on_commit(remember)


def draft_on_latest(
    *, character: Character, base_version: Any, base_build: Any, build: Any, page: str = ""
) -> Any:
    """``build`` (a page drawn from version ``base_version``, whose build is ``base_build``) as it
    applies to ``character``'s latest build: itself when the page is current, else the page's
    changes since its version merged onto the latest (``build_merge``, lists entry by entry as the
    ruleset says). ``DraftConflict`` when a trait (or one entry of a list) was changed differently on
    both sides, when the page's version is no longer known, or when the merged build breaks a rule
    that neither side broke (two tabs spending the same points): ``problems`` says which, in the
    game's words, and nothing is merged.

    ``page``: the builder page's token. When every version since the page's was the same page's own
    save (``page_wrote``: its answer not drawn yet, the person typed on), the page is not in conflict
    with itself: where both changed one trait, the page's value, the one typed last, is kept."""
    if base_version == character.version:
        return copy.deepcopy(build)
    if base_build is None:
        raise DraftConflict(
            f"This page shows version {base_version}, which is too old to combine with the latest "
            f"(version {character.version}).",
            conflicts=[],
            current_version=character.version,
            latest=character.build,
        )
    own = page_wrote(character=character, base_version=base_version, page=page)
    target, conflicts = build_merge(
        base_build, build, character.build, lists=campaign_ruleset(character.campaign), prefer_mine=own
    )
    if conflicts and not own:
        raise DraftConflict(
            "Saved elsewhere since this page was drawn, with different values: "
            + "; ".join(c["label"] for c in conflicts)
            + ".",
            conflicts=conflicts,
            current_version=character.version,
            latest=character.build,
        )
    problems = merged_problems(character=character, merged=target, mine=build)
    if problems:
        raise DraftConflict(
            "Saved elsewhere since this page was drawn; the two together break the rules: "
            + " ".join(problems),
            conflicts=[],
            current_version=character.version,
            latest=character.build,
            problems=problems,
        )
    return copy.deepcopy(target)


def _problem_key(issue) -> tuple[str, str]:
    """An error as (code, path with its numbers as ``*``): a list's entries move when two sides'
    entries merge, and the same problem of the same trait is not a new one."""
    return (issue.code, "/".join("*" if token.isdigit() else token for token in issue.path.split("/")))


def merged_problems(*, character: Character, merged: Any, mine: Any) -> list[str]:
    """The rules ``merged`` (a stale page's ``mine`` merged onto ``character``'s latest build) breaks
    where neither the page's build nor the latest one did: the messages, in the game's words (none:
    the merge may be saved)."""
    budget = character_budget(character)

    def report_of(build: Any) -> Report:
        doc = stored_build(build, ruleset_slug=character.ruleset, budget=budget)
        return character_validate(campaign=character.campaign, build=doc)

    together = report_of(merged)
    if not together.errors:
        return []
    before = {_problem_key(i) for build in (mine, character.build) for i in report_of(build).errors}
    out: list[str] = []
    for issue in together.errors:
        if _problem_key(issue) not in before and issue.message not in out:
            out.append(issue.message)
    return out


@dataclass(frozen=True)
class PageSave:
    """What a builder page's save did (``character_save_page_draft``)."""

    #: The character as saved (or as it was, when nothing changed).
    character: Character
    #: Whether a version was written (nothing changed, not the Save draft button: nothing is).
    saved: bool
    #: Whether the latest build had changes the page had not shown (another tab's or device's).
    merged: bool
    #: The rules' report of the saved build (None when nothing was written).
    report: Report | None = None


@transaction.atomic
def character_save_page_draft(
    *,
    character_id,
    user,
    base_version: Any,
    base_build: Any,
    build: Any,
    steps: Sequence[str] = (),
    explicit: bool = False,
    page: str = "",
) -> PageSave:
    """Save what a builder page shows: ``build``, drawn from version ``base_version`` (whose build
    is ``base_build``, from ``character_draft_base``), then ``steps`` (the page's − / + clicks,
    "<path>|<delta>", applied to the result so that every click counts, whatever the page showed).

    When the draft was saved elsewhere since (another tab or device, or this page's own earlier
    click whose answer it has not drawn yet), the page's changes since its version are merged
    onto the latest build (``build_merge``); a trait both changed differently raises
    ``DraftConflict`` (409) and nothing is written. A page whose version is no longer known
    cannot be merged: ``DraftConflict`` without conflicts. Nothing changed: nothing is written
    (``saved`` is False) unless ``explicit`` (the Save draft button, a version people read);
    otherwise an autosave, in place (``versions``). ``merged`` says whether the latest build had
    changes the page had not shown (another tab's or device's: not the page's own earlier saves,
    ``page`` being its token, ``draft_on_latest``).
    """
    character = character_for_user(user=user, character_id=character_id, for_update=True)
    _require_build_editor(user, character)
    _require_draft(character, "saving a build applies to")
    _require_object(build)
    merged = base_version != character.version and not page_wrote(
        character=character, base_version=base_version, page=page
    )
    target = draft_on_latest(
        character=character, base_version=base_version, base_build=base_build, build=build, page=page
    )
    if steps:
        apply_steps(builder_traits(campaign=character.campaign)[2], list(steps), target)
    target = _stored(character, target)
    if not explicit and builds_equal(character.build, target):
        return PageSave(character=character, saved=False, merged=merged)
    report = _write_draft(
        character=character,
        user=user,
        build=target,
        reason="saved draft" if explicit else "autosave",
        autosave=not explicit,
    )
    remember_page(character=character, page=page)
    return PageSave(character=character, saved=True, merged=merged, report=report)


def submit_refusal(*, campaign: Campaign, build: Any) -> Report | None:
    """The approval-phase report when ``build`` may not be submitted, else None.

    Submission checks with ``phase="approval"`` (a ruleset's missing choices may be
    warnings in a draft and errors then); the builder uses this to disable its Submit button.
    """
    report = character_validate(campaign=campaign, build=build, phase="approval")
    return None if report.valid else report


@transaction.atomic
def character_submit(*, character_id, user, version: Any = None) -> Character:
    """Make a valid draft active: its first play state from ``ruleset.initial_state``; a version.

    Where the campaign approves new characters (``approve_new_characters``) it becomes
    ``pending`` instead, in the GM's review queue (``characters.builder.approval``).
    ``version``, when given, must be current (409).
    """
    character = character_for_user(user=user, character_id=character_id, for_update=True)
    _require_build_editor(user, character)
    _require_draft(character, "submitting applies to")
    if version is not None:
        _check_version(character, version)
    campaign = character.campaign
    report = character_validate(campaign=campaign, build=character.build, phase="approval")
    if not report.valid:
        raise RuleRefused(
            "Only a valid build can be submitted: " + "; ".join(i.message for i in report.errors[:3]),
            errors=[i.as_dict() for i in report.errors],
        )
    if campaign_approves_new_characters(campaign):
        creation_review_open(character=character, user=user, report=report)
        return character
    character_activate(character=character, author=user, reason="submitted")
    return character


@transaction.atomic
def character_revert(*, character_id, user, to_version: Any) -> Character:
    """A new version of a draft carrying the build of version ``to_version`` (re-validated)."""
    character = character_for_user(user=user, character_id=character_id, for_update=True)
    _require_build_editor(user, character)
    _require_draft(character, "reverting here applies to")
    number = whole_number(to_version) if isinstance(to_version, (int, str)) else None
    if number is None or not 1 <= number <= 2**31 - 1:  # past Postgres' integer: no such version
        number = 0
    old = CharacterVersion.objects.filter(character=character, number=number).first()
    if old is None:
        raise RuleRefused(
            f"Version {to_version} does not exist.",
            errors=[{"code": "version.unknown", "path": "", "message": f"No version {to_version}."}],
        )
    build = stored_build(old.build, ruleset_slug=character.ruleset, budget=character_budget(character))
    report = character_validate(campaign=character.campaign, build=build)
    character.build = build
    character.report = report.as_dict()
    character.name = _name_of(build) if isinstance(build, dict) else character.name
    character_version_write(
        character=character,
        author=user,
        reason=f"revert to v{old.label_number}",
        fields=["build", "report", "name"],
    )
    return character


def import_refusal(*, campaign: Campaign, document: Any) -> list[dict]:
    """Why ``document`` cannot be imported into ``campaign`` ([] when it can)."""
    if not isinstance(document, dict):
        return [{"code": "build.malformed", "path": "", "message": "A build document must be a JSON object."}]
    errors = []
    fmt = document.get("format", FORMAT)
    if fmt != FORMAT:
        errors.append(
            {
                "code": "build.malformed",
                "path": "/format",
                "message": f'Unknown format {fmt!r}: Sheetforge reads "{FORMAT}".',
            }
        )
    named = document.get("ruleset")
    if named != campaign.ruleset:
        ruleset = registry.get(campaign.ruleset)
        other = registry.get(named)
        errors.append(
            {
                "code": "ruleset.unknown",
                "path": "/ruleset",
                "message": (
                    f"This document is {a(other.name) if other else 'a ' + repr(named)} build, but "
                    f"{campaign.name} plays {ruleset.name if ruleset else campaign.ruleset}: "
                    "import it into a campaign of that ruleset."
                )
                if named is not None
                else f'The document does not say its ruleset: add "ruleset": "{campaign.ruleset}".',
            }
        )
    return errors


def build_from_import(*, campaign: Campaign, document: Any) -> tuple[Any, list[dict]]:
    """The build document to import for ``document``: a ``sheetforge.build/1`` document as it is,
    or a character sheet in the campaign ruleset's own format converted by its ``import_sheet``
    hook. Returns (the document, what the conversion could not carry over as written: issue dicts
    whose paths point into the sheet). Anything else comes back unchanged, for the usual checks."""
    if not isinstance(document, dict) or "ruleset" in document or "format" in document:
        return document, []
    ruleset = registry.get(campaign.ruleset)
    if ruleset is None:
        return document, []
    build, issues = ruleset.import_sheet(document, ctx=campaign_context(campaign=campaign, ruleset=ruleset))
    if build is None:
        return document, []
    return build, [i.as_dict() for i in issues]


def character_import(*, campaign: Campaign, owner, document: Any) -> tuple[Character, list[dict]]:
    """Import a ``sheetforge.build/1`` document, or a sheet in the ruleset's own format
    (``build_from_import``), into ``campaign`` as a draft, with its report. Returns the character
    and the conversion's issues (for the page to show).

    The document's ruleset must be the campaign's (``RuleRefused`` with the reason);
    its budget is replaced by the campaign's starting budget (the GM awards the rest).
    """
    document, issues = build_from_import(campaign=campaign, document=document)
    errors = import_refusal(campaign=campaign, document=document)
    if errors:
        raise RuleRefused("; ".join(e["message"] for e in errors), errors=errors)
    return character_create(campaign=campaign, owner=owner, build=document), issues


def character_export(character: Character) -> dict:
    """The character's build document, ready to download and import elsewhere."""
    build = copy.deepcopy(character.build) if isinstance(character.build, dict) else {}
    return {
        "format": FORMAT,
        "ruleset": character.ruleset,
        **{k: v for k, v in build.items() if k != "format"},
    }


@dataclass
class HomebrewResult:
    """What happened to a homebrew edit: saved or not, and the issues (dicts with code/path/message)."""

    saved: bool
    issues: list[dict] = field(default_factory=list)


@transaction.atomic
def campaign_update_homebrew(*, campaign: Campaign, user, homebrew: Any) -> HomebrewResult:
    """Replace the campaign's homebrew if the rules service finds no issue in it (GM only).

    Issues are returned for the page to show, never raised; nothing is saved while any remain.
    """
    if not is_campaign_gm(user, campaign):
        raise NotPermitted("Only the campaign's GM may edit its homebrew.")
    ruleset = campaign_ruleset(campaign)
    if not isinstance(homebrew, dict):
        return HomebrewResult(
            False,
            [
                {
                    "code": "homebrew.malformed",
                    "path": "",
                    "message": "Homebrew must be an object of {kind: [entries]}.",
                }
            ],
        )
    homebrew = {kind: entries for kind, entries in homebrew.items() if entries != []}
    try:
        require_bounded(homebrew, what="The homebrew")
    except OutOfBounds as exc:
        return HomebrewResult(False, exc.errors)
    _, issues = ruleset.split_homebrew(homebrew)
    if issues:
        return HomebrewResult(False, [i.as_dict() for i in issues])
    locked = Campaign.objects.select_for_update().get(pk=campaign.pk)
    locked.homebrew = homebrew
    locked.save(update_fields=["homebrew"])
    campaign.homebrew = homebrew
    return HomebrewResult(True, [])
