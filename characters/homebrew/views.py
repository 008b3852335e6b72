"""The campaign's homebrew pages: each kind's entries in words, an editor per entry drawn from the
ruleset's description of the kind (``rulesets.engine`` ``EntryForm``), checked as it is typed
(htmx), and the kind's JSON as an advanced door (import: the whole list; export: a download).
The GM edits; players read; anyone else gets a 404."""

from __future__ import annotations

import json
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from characters.builder import services as builder_svc
from characters.campaigns.selectors import campaign_for_user
from characters.homebrew import services as svc
from characters.selectors import builder_traits, is_campaign_gm
from config.forms import FormInputError, check_json, check_post, post_text
from rulesets.engine import words
from rulesets.engine.entries import (
    EntryForm,
    entry_from_form,
    entry_words,
    field_choices,
    form_values,
    numbers_values,
)


def _kind_or_404(ruleset, kind: str) -> EntryForm:
    form = ruleset.entry_form(kind) if ruleset is not None else None
    if form is None:
        raise Http404("This ruleset's homebrew has no such kind.")
    return form


def _dom(name: str) -> str:
    return "hb-f-" + name.replace("/", "-").replace("_", "-").replace(".", "-")


def controls(form: EntryForm, entry: dict, ctx, errors: dict[str, str]) -> list[dict[str, Any]]:
    """The editor's controls, one per field: what the template draws (input, select, checkboxes…)."""
    return [control(fld, fld.get(entry), fld.name, ctx, errors.get(fld.name, "")) for fld in form.fields]


def control(fld, value, name: str, ctx, error: str = "") -> dict[str, Any]:
    """One field's control under the form name ``name``; a ``records`` field's rows hold their own
    (the rows it has and one blank row to add another)."""
    chosen = set(form_values(fld, value, ctx)) if fld.type != "records" else set()
    return {
        "name": name,
        "dom": _dom(name),
        "label": fld.label,
        "type": fld.type,
        "help": fld.help,
        "required": fld.required,
        "min": fld.min,
        "max": fld.max,
        "value": (form_values(fld, value, ctx) or [""])[0] if fld.type != "records" else "",
        "options": [
            {"index": str(i), "words": w, "selected": str(i) in chosen}
            for i, (_, w) in enumerate(field_choices(fld, ctx))
        ]
        if fld.type in ("choice", "choices")
        else [],
        "rows": [
            {"name": f"{name}.{i}", "dom": f"{_dom(name)}-{i}", "words": w, "value": "" if n is None else n}
            for i, w, n in numbers_values(fld, value, ctx)
        ]
        if fld.type == "numbers"
        else [],
        "records": [
            {
                "number": i + 1,
                "cells": [
                    control(sub, row.get(sub.name), f"{name}.{i}.{sub.name}", ctx) for sub in fld.fields
                ],
            }
            for i, row in enumerate([*(r for r in (value or []) if isinstance(r, dict)), {}])
        ]
        if fld.type == "records"
        else [],
        "error": error,
    }


def _form_data(post, form: EntryForm) -> dict[str, list[str]]:
    check_post(post)
    names = {f.name for f in form.fields}
    return {k: post.getlist(k) for k in post if k in names or k.split(".")[0] in names}


def _field_errors(result: svc.EntryResult, read: dict[str, str]) -> tuple[dict[str, str], list[str]]:
    """Per field: the first problem (what could not be read first); the rest in words, for the top."""
    errors = dict(read)
    other = []
    for issue in result.issues:
        if issue.get("mine") and issue.get("field"):
            errors.setdefault(issue["field"], issue["message"])
        elif issue.get("mine") or issue.get("code") != "homebrew.malformed" or not issue.get("field"):
            other.append(issue["message"])
    return errors, other


def _page(request, campaign_id):
    campaign = campaign_for_user(request.user, campaign_id)
    ruleset, ctx, _ = builder_traits(campaign=campaign)
    return campaign, ruleset, ctx, is_campaign_gm(request.user, campaign)


@login_required
@require_http_methods(["GET", "POST"])
def homebrew_overview(request, campaign_id):
    """Each kind's entries in words (read-only for players), with the GM's doors beside them; a POST
    is the advanced door (``homebrew_import``)."""
    if request.method == "POST":
        return homebrew_import(request, campaign_id)
    campaign, ruleset, ctx, is_gm = _page(request, campaign_id)
    return render(request, "characters/homebrew/overview.html", _overview(campaign, ruleset, ctx, is_gm))


def _overview(campaign, ruleset, ctx, is_gm, *, issues=(), texts=None) -> dict[str, Any]:
    kinds = []
    for kind in ruleset.homebrew_kinds if ruleset else ():
        form = ruleset.entry_form(kind)
        if form is None:
            continue
        entries = svc.homebrew_list(campaign, kind)
        kinds.append(
            {
                "kind": kind,
                "form": form,
                "entries": [
                    {
                        "id": e.get("id"),
                        "name": e.get("name") or words.label(e.get("id", "")),
                        "lines": entry_words(form, e, ctx),
                    }
                    for e in entries
                ],
                "text": (texts or {}).get(kind)
                if texts and kind in texts
                else json.dumps(entries, indent=2, ensure_ascii=False),
                "issues": [i for i in issues if i.get("path", "").split("/")[1:2] == [kind]],
            }
        )
    return {"campaign": campaign, "ruleset": ruleset, "kinds": kinds, "is_gm": is_gm, "issues": list(issues)}


def homebrew_import(request, campaign_id):
    """The advanced door: a kind's whole list as JSON, checked and saved at once (GM only)."""
    campaign, ruleset, ctx, is_gm = _page(request, campaign_id)
    if not is_gm:
        raise PermissionDenied("Only the campaign's GM may edit its homebrew.")
    kinds = list(ruleset.homebrew_kinds) if ruleset else []
    homebrew = {k: v for k, v in (campaign.homebrew or {}).items() if k in kinds}
    texts: dict[str, str] = {}
    issues: list[dict] = []
    for kind in kinds:
        name = f"kind-{kind}"
        if name not in request.POST:
            continue
        label = ruleset.entry_form(kind).label if ruleset.entry_form(kind) else words.label(kind)
        text = texts[kind] = post_text(request.POST, name, label=label, strip=True)
        if not text:
            homebrew.pop(kind, None)
            continue
        try:
            homebrew[kind] = check_json(json.loads(text), field=name, label=label)
        except (ValueError, RecursionError) as exc:
            if isinstance(exc, FormInputError):
                raise
            issues.append(
                {
                    "code": "homebrew.malformed",
                    "path": f"/{kind}",
                    "message": f"Not valid JSON: {exc}.",
                }
            )
    if not issues:
        result = builder_svc.campaign_update_homebrew(campaign=campaign, user=request.user, homebrew=homebrew)
        if result.saved:
            messages.success(request, "Homebrew saved: every build in this campaign now sees it.")
            return HttpResponseRedirect(reverse("campaign_homebrew", args=[campaign.id]))
        issues = result.issues
    for issue in issues:
        # Where, in words: "Skills, entry 2, name" on top, "Entry 2, name" under its own kind.
        issue["where"] = words.where(issue.get("path", ""))
        inner = issue.get("path", "").split("/")[2:]
        issue["where_in_kind"] = words.where("/" + "/".join(inner)) if inner else ""
    context = _overview(campaign, ruleset, ctx, is_gm, issues=issues, texts=texts)
    return render(request, "characters/homebrew/overview.html", context, status=422)


@login_required
@require_GET
def homebrew_export(request, campaign_id, kind):
    campaign, ruleset, _, _ = _page(request, campaign_id)
    _kind_or_404(ruleset, kind)
    body = json.dumps(svc.homebrew_export(campaign, kind), indent=2, ensure_ascii=False)
    response = HttpResponse(body, content_type="application/json")
    response["Content-Disposition"] = f'attachment; filename="{campaign.ruleset}-{kind}.json"'
    return response


def _editor(request, campaign, ruleset, ctx, kind, form, *, entry, entry_id, errors, other, status=200):
    preview = entry_words(form, entry, ctx)
    return render(
        request,
        "characters/homebrew/entry.html",
        {
            "campaign": campaign,
            "ruleset": ruleset,
            "kind": kind,
            "form": form,
            "entry_id": entry_id,
            "controls": controls(form, entry, ctx, errors),
            "preview_name": entry.get("name") or "",
            "preview": preview,
            "other": other,
            # A new entry may start from one of the rulebook's or the campaign's (a copy to change).
            "sources": []
            if entry_id
            else [
                (eid, str(e.get("name") or words.label(eid)))
                for eid, e in (ctx.catalogue.get(kind, {}) if ctx is not None else {}).items()
            ],
            "check_url": reverse("homebrew_check", args=[campaign.id, kind])
            + (f"?entry={entry_id}" if entry_id else ""),
        },
        status=status,
    )


@login_required
@require_http_methods(["GET", "POST"])
def homebrew_entry(request, campaign_id, kind, entry_id=None):
    """Add (``entry_id`` None; ``?from=<id>`` duplicates one) or edit an entry (GM only)."""
    campaign, ruleset, ctx, is_gm = _page(request, campaign_id)
    form = _kind_or_404(ruleset, kind)
    if not is_gm:
        raise PermissionDenied("Only the campaign's GM may edit its homebrew.")
    base: dict = {}
    if entry_id is not None:
        found = svc.homebrew_entry(campaign, kind, entry_id)
        if found is None:
            raise Http404("No such homebrew entry.")
        base = found
    elif request.method == "GET" and request.GET.get("from"):
        source = svc.homebrew_entry(campaign, kind, request.GET["from"]) or ruleset.catalogue.get(
            kind, {}
        ).get(request.GET["from"])
        if source is None:
            raise Http404("No such entry to copy.")
        base = {k: v for k, v in source.items() if k not in ("id", "homebrew")}
        base["name"] = f"{source.get('name', '')} (copy)".strip()
    else:
        base = {f.name: f.default for f in form.fields if f.default is not None and "/" not in f.name}
    if request.method == "GET":
        return _editor(
            request, campaign, ruleset, ctx, kind, form, entry=base, entry_id=entry_id, errors={}, other=[]
        )
    entry, read = entry_from_form(form, _form_data(request.POST, form), base=base, ctx=ctx)
    entry.pop("id", None)
    if not read:
        result = svc.homebrew_entry_save(
            campaign=campaign, user=request.user, kind=kind, entry=entry, replace=entry_id
        )
        if result.saved:
            verb = "saved" if entry_id else "added"
            messages.success(
                request, f"{entry.get('name', 'The entry')} {verb}: every build in this campaign now sees it."
            )
            return HttpResponseRedirect(reverse("campaign_homebrew", args=[campaign.id]) + f"#hb-{kind}")
    else:
        result = svc.EntryResult(False)
    errors, other = _field_errors(result, read)
    return _editor(
        request,
        campaign,
        ruleset,
        ctx,
        kind,
        form,
        entry=entry,
        entry_id=entry_id,
        errors=errors,
        other=other,
        status=422,
    )


@login_required
@require_POST
def homebrew_check(request, campaign_id, kind):
    """As the GM types (htmx): the entry's preview and each field's problem, nothing saved."""
    campaign, ruleset, ctx, is_gm = _page(request, campaign_id)
    form = _kind_or_404(ruleset, kind)
    if not is_gm:
        raise PermissionDenied("Only the campaign's GM may edit its homebrew.")
    entry_id = request.GET.get("entry") or None
    base = svc.homebrew_entry(campaign, kind, entry_id) if entry_id else None
    if entry_id and base is None:
        raise Http404("No such homebrew entry.")
    entry, read = entry_from_form(form, _form_data(request.POST, form), base=base or {}, ctx=ctx)
    entry.pop("id", None)
    result = (
        svc.homebrew_check(campaign=campaign, kind=kind, entry=entry, replace=entry_id)
        if not read
        else svc.EntryResult(False)
    )
    errors, other = _field_errors(result, read)
    return render(
        request,
        "characters/homebrew/_check.html",
        {
            "form": form,
            "controls": controls(form, entry, ctx, errors),
            "preview_name": entry.get("name") or "",
            "preview": entry_words(form, entry, ctx),
            "other": other,
            "oob": True,
        },
    )


@login_required
@require_POST
def homebrew_remove(request, campaign_id, kind, entry_id):
    campaign, ruleset, _, is_gm = _page(request, campaign_id)
    _kind_or_404(ruleset, kind)
    if not is_gm:
        raise PermissionDenied("Only the campaign's GM may edit its homebrew.")
    if svc.homebrew_entry(campaign, kind, entry_id) is None:
        raise Http404("No such homebrew entry.")
    result = svc.homebrew_entry_remove(campaign=campaign, user=request.user, kind=kind, entry_id=entry_id)
    if result.saved:
        messages.success(request, "Removed from the campaign's homebrew.")
    else:
        for issue in result.issues:
            messages.error(request, issue["message"])
    return HttpResponseRedirect(reverse("campaign_homebrew", args=[campaign.id]) + f"#hb-{kind}")
