"""The builder pages: create, build (live validation), drafts, history, export/import, homebrew.

Thin function views: they read through the selectors (which 404 what the user may not
see), write through the services, and render one generic builder driven by the
ruleset's traits (its view-model in ``characters.builder.presenters``). A POST of the builder form re-validates; with htmx it answers the
named partials (the sections and, out of band, the panels), without it the whole page.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse, HttpResponseRedirect, JsonResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.text import slugify
from django.views.decorators.http import require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect

from characters.builder import services as svc
from characters.builder.forms import apply_steps, build_from_post, builder_meta, html_id
from characters.builder.presenters import builder_context, sheet_url
from characters.campaigns.selectors import campaign_for_user
from characters.diff import build_diff, build_merge, label_for, phrase
from characters.models import Character
from characters.selectors import (
    builder_traits,
    can_edit_build,
    character_for_user,
    character_versions,
)
from config.bounds import OutOfBounds
from config.errors import Conflict, DraftConflict, RuleRefused
from config.forms import FormInputError, check_json, check_post, post_text, post_whole_number

MAX_IMPORT_BYTES = 256 * 1024


def _redirect(request, url: str):
    if request.htmx:
        return HttpResponseClientRedirect(url)
    return HttpResponseRedirect(url)


# ------------------------------------------------------------------ create


@login_required
@require_http_methods(["GET", "POST"])
def character_create(request, campaign_id):
    """A new character in the campaign: a name, then the builder (any member may create one)."""
    campaign = campaign_for_user(request.user, campaign_id)
    error = ""
    name = ""
    if request.method == "POST":
        name = post_text(request.POST, "name", label="Name", strip=True)
        if not 1 <= len(name) <= 120:
            error = "Give the character a name of 1 to 120 characters."
        else:
            character = svc.character_create(campaign=campaign, owner=request.user, name=name)
            messages.success(request, f"{character.name} is started as a draft. Build away: nothing is lost.")
            return HttpResponseRedirect(reverse("character_builder", args=[character.id]))
    return render(
        request,
        "characters/builder/builder_new.html",
        {
            "campaign": campaign,
            "error": error,
            "name": name,
            "budget": svc.new_character_budget(campaign),
        },
        status=400 if error else 200,
    )


# ------------------------------------------------------------------ the builder


@dataclass(frozen=True)
class _Posted:
    """What a builder page's POST says: the version it was drawn from and that version's build, the
    page's build read over it, its − / + steps and its token."""

    version: int | None
    base_build: Any
    mine: dict
    steps: list[str]
    page: str


_UPDATE = "characters/builder/builder.html#builder-update"
_PAGE = "characters/builder/builder.html"


@login_required
@require_http_methods(["GET", "POST"])
def character_builder(request, character_id):
    """The builder: GET shows the saved build; a POST is one of four intents, by its button: Reload
    with my changes (``_rebase``), Check (``_check``, saves nothing), Submit (``_submit``), or a
    save (Save draft ``_save``, else the autosave of a change or a − / + step)."""
    character = character_for_user(user=request.user, character_id=character_id, with_creation_review=True)
    if request.method == "GET":
        return _builder_page(request, character)
    refused = _refuse_change(request, character)
    if refused is not None:
        return refused
    posted = _read_post(request, character)
    if "_rebase" in request.POST:
        return _builder_rebased(request, character, posted.base_build, posted.mine)
    explicit = "_save" in request.POST
    if "_submit" in request.POST:
        return _builder_submit(request, character, posted, explicit=explicit)
    if "_check" in request.POST and not (posted.steps or explicit):
        return _builder_check(request, character, posted)
    return _builder_save(request, character, posted, explicit=explicit)


def _builder_page(request, character: Character):
    editable = can_edit_build(request.user, character) and character.status == Character.Status.DRAFT
    report = character.report or {}
    if editable:  # re-validate: homebrew or house rules may have changed since it was saved
        report = svc.character_validate(campaign=character.campaign, build=character.build)
    return render(
        request, _PAGE, builder_context(request, character, character.build, report, readonly=not editable)
    )


def _refuse_change(request, character: Character):
    """403 for anyone but the owner; a character past its draft goes to its sheet; else None."""
    if not can_edit_build(request.user, character):
        raise PermissionDenied("Only the character's owner may change its build.")
    if character.status == Character.Status.DRAFT:
        return None
    messages.error(
        request,
        f"{character.name} is {character.get_status_display().lower()}: its build cannot be changed here.",
    )
    return _redirect(request, sheet_url(character))


def _read_post(request, character: Character) -> _Posted:
    """The page's fields are read over the build of the version it was drawn from (its base), and
    its − / + steps are applied to what is saved: a click counts on top of the latest build."""
    check_post(request.POST)
    version = post_whole_number(request.POST, "_version", label="Version", default=None, min_value=0)
    ruleset, _, traits = builder_traits(campaign=character.campaign)
    post = request.POST.copy()
    steps = post.pop("_step", [])
    base_build = svc.character_draft_base(character=character, version=version)
    over = base_build if base_build is not None else character.build
    mine = build_from_post(traits, post, over, builder_meta(ruleset))
    return _Posted(version, base_build, mine, steps, _page_token(request.POST.get("_page")))


def _builder_check(request, character: Character, posted: _Posted):
    """Check validates and saves nothing, but shows the draft as it is now: a page drawn before
    another tab's save catches up with it (its own changes merged on top, still to save), so its
    next save can never put the other tab's values back."""
    try:
        shown = svc.draft_on_latest(
            character=character,
            base_version=posted.version,
            base_build=posted.base_build,
            build=posted.mine,
            page=posted.page,
        )
    except DraftConflict as exc:
        return _builder_conflict(request, character, posted.mine, posted.version, exc)
    report = svc.character_validate(campaign=character.campaign, build=shown)
    ctx = builder_context(request, character, shown, report, readonly=False)
    if request.htmx:
        return HttpResponse(render_to_string(_UPDATE, ctx))
    return render(request, _PAGE, ctx)


def _save_page(request, character: Character, posted: _Posted, *, explicit: bool) -> svc.PageSave:
    """The page's save (``character_save_page_draft``); a save does not change the character's
    creation review, read with it."""
    review_status = character.creation_review_status
    result = svc.character_save_page_draft(
        character_id=character.id,
        user=request.user,
        base_version=posted.version,
        base_build=posted.base_build,
        build=posted.mine,
        steps=posted.steps,
        explicit=explicit,
        page=posted.page,
    )
    result.character.creation_review_status = review_status
    return result


def _refused(request, character: Character, posted: _Posted, exc: Exception):
    """A save or submit the services refused: a conflict with another tab's save (409, the page's
    values and both ways on), a submit that lost a race (409), or the rules (422)."""
    if isinstance(exc, DraftConflict):
        if posted.steps:
            apply_steps(builder_traits(campaign=character.campaign)[2], posted.steps, posted.mine)
        return _builder_conflict(request, character, posted.mine, posted.version, exc)
    if isinstance(exc, Conflict):
        report = svc.character_validate(campaign=character.campaign, build=posted.mine)
        ctx = builder_context(request, character, posted.mine, report, readonly=False, note=str(exc.detail))
        return render(request, _PAGE, ctx, status=409)
    assert isinstance(exc, RuleRefused)
    character.refresh_from_db()
    report = svc.character_validate(campaign=character.campaign, build=character.build)
    ctx = builder_context(request, character, character.build, report, readonly=False, note=str(exc.detail))
    if request.htmx:
        ctx["autosave_error"] = f"Not saved: {exc.detail}"
        return HttpResponse(render_to_string(_UPDATE, ctx))
    return render(request, _PAGE, ctx, status=422)


def _builder_submit(request, character: Character, posted: _Posted, *, explicit: bool):
    """Submit: the page saved (as an autosave, or a version with Save draft), then submitted; to the sheet, or back to the
    builder while the GM reviews it."""
    try:
        saved = _save_page(request, character, posted, explicit=explicit).character
        character = svc.character_submit(character_id=saved.id, user=request.user, version=saved.version)
    except (DraftConflict, Conflict, RuleRefused) as exc:
        return _refused(request, character, posted, exc)
    if character.status == Character.Status.PENDING:
        messages.success(request, f"{character.name} is submitted: the GM will review it before play.")
        return _redirect(request, reverse("character_builder", args=[character.id]))
    messages.success(request, f"{character.name} is submitted and active.")
    return _redirect(request, sheet_url(character))


def _builder_save(request, character: Character, posted: _Posted, *, explicit: bool):
    """Save draft (a version people read, then the page again), or an autosave of a change or a
    − / + step: with htmx the page's updated parts, without it Post/Redirect/Get."""
    try:
        result = _save_page(request, character, posted, explicit=explicit)
    except (DraftConflict, Conflict, RuleRefused) as exc:
        return _refused(request, character, posted, exc)
    character = result.character
    merged_note = (
        "Saved elsewhere too (another tab or device): this page now shows both." if result.merged else ""
    )
    if explicit:
        valid = character.report.get("valid")
        messages.success(
            request,
            f"Draft saved as version {character.shown_version}"
            + ("." if valid else " — it still has problems to fix before you can submit it."),
        )
        return _redirect(request, reverse("character_builder", args=[character.id]))
    if not request.htmx:
        # A plain form post (a − / + or Check before the page's scripts run, or without them):
        # saved like any other; Post/Redirect/Get, so a reload never sends the click again.
        if merged_note:
            messages.info(request, merged_note)
        anchor = "#" + html_id(posted.steps[0].rpartition("|")[0]) if posted.steps else ""
        return HttpResponseRedirect(reverse("character_builder", args=[character.id]) + anchor)
    report = result.report
    if report is None:
        report = svc.character_validate(campaign=character.campaign, build=character.build)
    ctx = builder_context(
        request,
        character,
        character.build,  # as stored (the server's budget): the page and the draft agree
        report,
        readonly=False,
        autosaved=result.saved,
        save_note=merged_note,
    )
    # The partials need nothing from the request: rendering without it skips the context
    # processors (the navigation's queries) on the hottest path of the app.
    return HttpResponse(render_to_string(_UPDATE, ctx))


#: A builder page's token (builder.js makes one per page load): letters, digits and dashes.
_PAGE_TOKEN = re.compile(r"[A-Za-z0-9-]{8,64}\Z")


def _page_token(raw) -> str:
    """The page's token as posted, or "" (none, or not one builder.js makes: merged as any tab's)."""
    return raw if isinstance(raw, str) and _PAGE_TOKEN.match(raw) else ""


def _game_words(character: Character) -> tuple[dict[str, str], dict[str, str]]:
    """(content id → its name, a builder section's JSON pointer → its label) for ``character``'s
    campaign (homebrew included): how a refusal names what it is about."""
    _, ctx, traits = builder_traits(campaign=character.campaign)
    names: dict[str, str] = {}
    for entries in (getattr(ctx, "catalogue", None) or {}).values():
        if isinstance(entries, dict):
            for ident, entry in entries.items():
                if isinstance(entry, dict) and isinstance(entry.get("name"), str):
                    names.setdefault(str(ident), entry["name"])
    labels: dict[str, str] = {}
    for s in traits.get("sections", []):
        if isinstance(s, dict) and isinstance(s.get("path"), str) and isinstance(s.get("label"), str):
            labels.setdefault(s["path"], s["label"])  # the list's own section, not a widget on it
    return names, labels


def _conflict_words(exc: DraftConflict, character: Character) -> str:
    if exc.problems:
        return (
            "Not saved: this draft was changed in another tab or device since this page was drawn, "
            "and your changes together with those break the rules: " + " ".join(exc.problems)
        )
    if not exc.conflicts:
        return (
            "Not saved: this draft was saved elsewhere (another tab or device) since this page was "
            "drawn, too long ago to combine."
        )
    names, labels = _game_words(character)

    def shown(value) -> str:
        if value is None or value == [] or value == {}:
            return "nothing"
        return phrase(value, names)

    def one(c: dict) -> str:
        label = label_for(c["path"], labels)
        if not c.get("entry"):
            return f"{label} is {shown(c['theirs'])} there, {shown(c['mine'])} here"
        entry = next(v for v in (c["base"], c["theirs"], c["mine"]) if v is not None)
        what = phrase(entry, names) if not isinstance(entry, dict) else _entry_name(entry, names)

        def state(value) -> str:
            if value is None:
                return "removed"
            return (
                (phrase(value, names, name=False) or "unchanged") if isinstance(value, dict) else shown(value)
            )

        return f"{label}: {what} is {state(c['theirs'])} there, {state(c['mine'])} here"

    what = "; ".join(one(c) for c in exc.conflicts[:3])
    more = f" (and {len(exc.conflicts) - 3} more)" if len(exc.conflicts) > 3 else ""
    return (
        "Not saved: this draft was changed in another tab or device since this page was drawn, "
        f"and the same choices differ: {what}{more}."
    )


def _entry_name(entry: dict, names: dict[str, str]) -> str:
    """What a list's entry is called: its catalogue name, or the name a person gave it."""
    for key in ("item", "id", "feat", "skill"):
        if isinstance(entry.get(key), str):
            return names.get(entry[key]) or phrase(entry[key], names)
    if isinstance(entry.get("name"), str):
        ability = entry.get("ability")
        return f"{phrase(ability, names)}: {entry['name']}" if isinstance(ability, str) else entry["name"]
    return phrase(entry, names)


def _builder_conflict(request, character: Character, mine: dict, version, exc: DraftConflict):
    """The page's values as it shows them, at its own version, with what happened in words and
    the two ways on: reload with these changes on top of the latest, or reload without them."""
    report = svc.character_validate(campaign=character.campaign, build=mine)
    ctx = builder_context(
        request,
        character,
        mine,
        report,
        readonly=False,
        version=version,
        autosave_error=_conflict_words(exc, character),
    )
    ctx["conflict"] = True
    if request.htmx:  # 200: htmx swaps only 2xx answers (base.html's responseHandling)
        return HttpResponse(render_to_string("characters/builder/builder.html#builder-update", ctx))
    ctx["note"] = ctx["autosave_error"]
    return render(request, "characters/builder/builder.html", ctx, status=409)


def _builder_rebased(request, character: Character, base_build, mine: dict):
    """ "Reload with my changes": the latest draft with this page's changes since its version on
    top (where both changed, this page's value), shown as unsaved under the latest version: the
    player sees both and saves on purpose."""
    latest = character.build
    if base_build is None:
        rebased = mine
    else:
        # From the latest draft, entry by entry (another tab's lore stays ticked); where both
        # changed one trait or one entry, this page's value.
        rebased, _ = build_merge(
            base_build, mine, latest, lists=svc.campaign_ruleset(character.campaign), prefer_mine=True
        )
        if not isinstance(rebased, dict):
            rebased = mine
    report = svc.character_validate(campaign=character.campaign, build=rebased)
    ctx = builder_context(
        request,
        character,
        rebased,
        report,
        readonly=False,
        save_note=(
            "This page now shows the draft as last saved (in any tab or device) with your unsaved "
            "changes on top. Press Save draft to keep them, or reload the page to drop them."
        ),
    )
    if request.htmx:
        return HttpResponse(render_to_string("characters/builder/builder.html#builder-update", ctx))
    return render(request, "characters/builder/builder.html", ctx)


# ------------------------------------------------------------------ history


def _version_pick(versions: list, raw, default):
    try:
        number = int(raw)
    except (TypeError, ValueError):
        return default
    return next((v for v in versions if v.number == number), default)


@login_required
@require_http_methods(["GET"])
def character_history(request, character_id):
    """Build versions newest first (number, date, author, reason, valid?) and a diff of any two;
    ``?show=all`` lists the play-state versions too (the play log has its own page)."""
    character = character_for_user(user=request.user, character_id=character_id)
    show_all = request.GET.get("show") == "all"
    versions = list(character_versions(character=character, kind=None if show_all else "build"))
    new = _version_pick(versions, request.GET.get("b"), versions[0] if versions else None)
    old_default = next((v for v in versions if new and v.number < new.number), None)
    old = _version_pick(versions, request.GET.get("a"), old_default)
    diff = build_diff(old.build, new.build) if old and new else []
    ctx = {
        "character": character,
        "versions": versions,
        "old": old,
        "new": new,
        "diff": diff,
        "show_all": show_all,
        "play_log_url": reverse("character_play_log", args=[character.id]),
        "can_revert": can_edit_build(request.user, character) and character.status == Character.Status.DRAFT,
        "builder_url": reverse("character_builder", args=[character.id]),
        "sheet_url": sheet_url(character),
    }
    if request.htmx and request.GET.get("partial") == "diff":
        return render(request, "characters/builder/history.html#history-diff", ctx)
    return render(request, "characters/builder/history.html", ctx)


@login_required
def character_play_log(request, character_id):
    """The play log: every play-state change (harm, pools, combat rounds), newest first."""
    character = character_for_user(user=request.user, character_id=character_id)
    entries = list(character_versions(character=character, kind="play")[:200])
    return render(
        request,
        "characters/builder/play_log.html",
        {
            "character": character,
            "entries": entries,
            "sheet_url": sheet_url(character),
            "history_url": reverse("character_history", args=[character.id]),
        },
    )


@login_required
@require_POST
def character_revert(request, character_id):
    """Revert a draft to an earlier version: a new version carrying the old build."""
    character = character_for_user(user=request.user, character_id=character_id)
    try:
        character = svc.character_revert(
            character_id=character.id,
            user=request.user,
            to_version=post_whole_number(request.POST, "to_version", label="Version", min_value=1),
        )
    except RuleRefused as exc:
        messages.error(request, str(exc.detail))
        return HttpResponseRedirect(reverse("character_history", args=[character.id]))
    messages.success(
        request, f"Reverted: version {character.shown_version} carries the build of an earlier one."
    )
    return HttpResponseRedirect(reverse("character_history", args=[character.id]))


# ------------------------------------------------------------------ export / import


@login_required
@require_http_methods(["GET"])
def character_export(request, character_id):
    """The build document as a JSON download."""
    character = character_for_user(user=request.user, character_id=character_id)
    document = svc.character_export(character)
    response = JsonResponse(document, json_dumps_params={"indent": 2, "ensure_ascii": False})
    filename = f"{slugify(character.name) or 'character'}.{character.ruleset}.json"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@login_required
@require_http_methods(["GET", "POST"])
def character_import(request, campaign_id):
    """Import a build document (a file or pasted JSON) into the campaign as a draft."""
    campaign = campaign_for_user(request.user, campaign_id)
    errors: list[dict] = []
    pasted = ""
    status = 422
    if request.method == "POST":
        upload = request.FILES.get("file")
        pasted = post_text(request.POST, "document", label="Build document")
        text = ""
        if upload is not None:
            if upload.size > MAX_IMPORT_BYTES:
                errors.append(
                    {"path": "", "message": "That file is larger than 256 KiB: not a build document."}
                )
            else:
                raw = upload.read()
                try:
                    text = raw.decode("utf-8-sig")
                except UnicodeDecodeError:
                    errors.append(
                        {"path": "", "message": "That file is not UTF-8 text: export it again as JSON."}
                    )
        elif pasted.strip():
            text = pasted
        else:
            errors.append({"path": "", "message": "Choose a JSON file or paste a build document."})
        document = None
        if text and not errors:
            try:
                document = check_json(json.loads(text), field="document", label="Build document")
            except (ValueError, RecursionError) as exc:
                if isinstance(exc, FormInputError):
                    raise
                errors.append({"path": "", "message": f"That is not valid JSON ({exc})."})
        if document is not None and not errors:
            try:
                character, conversion = svc.character_import(
                    campaign=campaign, owner=request.user, document=document
                )
            except OutOfBounds as exc:  # a number past the sanity bound: a 400, nothing stored
                errors.append({"path": "", "message": exc.message})
                status = 400
            except RuleRefused as exc:
                errors.extend(exc.errors or [{"path": "", "message": str(exc.detail)}])
            else:
                problems = len(character.report.get("errors", []))
                messages.success(
                    request,
                    f"Imported {character.name} as a draft"
                    + (
                        f" with {problems} problem{'s' if problems != 1 else ''} to fix." if problems else "."
                    ),
                )
                for issue in conversion:
                    messages.warning(request, f"From the imported sheet: {issue['message']}")
                return HttpResponseRedirect(reverse("character_builder", args=[character.id]))
    return render(
        request,
        "characters/builder/import.html",
        {"campaign": campaign, "errors": errors, "pasted": pasted},
        status=status if errors else 200,
    )
