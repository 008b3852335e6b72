"""Pages of share links: the read-only sheet anyone with the link sees (``/s/<token>/``, its live
blocks and its rolls), and the owner's and the GM's list of links on the sheet (make, revoke).

The shared sheet is the sheet's own template drawn for nobody in particular (no user: no forms,
no GM-private rolls, no GM-only blocks), with the header's member links left out; it follows the
character live through its own socket (``/ws/s/<token>/``, characters/shares/consumers.py), which
a revocation closes.
"""

from __future__ import annotations

import copy

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import AnonymousUser
from django.http import HttpResponse, HttpResponseRedirect
from django.middleware.csrf import get_token
from django.shortcuts import render
from django.template.loader import get_template
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from characters.models import Character
from characters.shares import services as svc
from characters.shares.selectors import shared_character, shares_of
from characters.sheet.presenters import sheet_context
from characters.sheet.selectors import character_roll, character_roll_log
from config.htmx import HtmxHttpRequest

SHEET = "characters/sheet/sheet.html"
PANEL = "characters/shares/shares.html"


def _as_nobody(request: HtmxHttpRequest) -> HtmxHttpRequest:
    """The request as no one in particular sees the sheet: whoever opens a link sees the same."""
    shown = copy.copy(request)
    shown.user = AnonymousUser()
    return shown


def _shared_rolls(token: str, rows: list[dict] | None) -> list[dict] | None:
    """The roll log's rows with their links on the shared sheet, not the members' pages."""
    if rows is None:
        return None
    page = reverse("shared_sheet", args=[token])
    return [
        {
            **row,
            "sheet_url": f"{page}?roll={row['pk']}#roll-result",
            "detail_url": reverse("shared_sheet_roll", args=[token, row["pk"]]),
        }
        for row in rows
    ]


def _context(request: HtmxHttpRequest, token: str, character: Character, **extra) -> dict:
    ctx = sheet_context(_as_nobody(request), character, **extra)
    if ctx.get("rolls") is not None:
        ctx["rolls"] = _shared_rolls(token, ctx["rolls"])
    ctx.update(
        shared=True,
        share_token=token,
        links={"live": reverse("shared_sheet_live", args=[token]), "campaign": ""},
        can_edit_state=False,
        can_edit_build=False,
    )
    return ctx


@require_GET
def shared_sheet(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """The sheet, read-only, for anyone with the link (404 once it is revoked)."""
    _, character = shared_character(token=token)
    rolls = character_roll_log(character=character, viewer=None, summary=True)
    shown = (
        character_roll(character=character, roll_id=request.GET["roll"], viewer=None)
        if request.GET.get("roll")
        else None
    )
    response = render(request, SHEET, _context(request, token, character, rolls=rolls, shown_roll=shown))
    response["X-Robots-Tag"] = "noindex"
    response["Referrer-Policy"] = "no-referrer"
    return response


def _fragment(request: HtmxHttpRequest, ctx: dict, name: str) -> HttpResponse:
    return HttpResponse(get_template(f"{SHEET}#{name}").render({**ctx, "csrf_token": get_token(request)}))


@require_GET
def shared_sheet_live(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """The live blocks (what the open shared sheet fetches when its socket says the character changed)."""
    _, character = shared_character(token=token)
    if not request.htmx:
        return HttpResponseRedirect(reverse("shared_sheet", args=[token]))
    return _fragment(request, _context(request, token, character), "live-update")


@require_GET
def shared_sheet_roll(request: HtmxHttpRequest, token: str, roll_id: int) -> HttpResponse:
    """One public roll with its odds chart (htmx: the result block; plain GET: the sheet showing it)."""
    _, character = shared_character(token=token)
    if not request.htmx:
        return HttpResponseRedirect(reverse("shared_sheet", args=[token]) + f"?roll={roll_id}#roll-result")
    roll = character_roll(character=character, roll_id=roll_id, viewer=None)
    return _fragment(
        request, {"character": character, "shown_roll": roll, "slug": character.ruleset}, "roll-result"
    )


# ------------------------------------------------------------------ the owner's and the GM's list


def _panel(request: HtmxHttpRequest, character: Character, status: int = 200) -> HttpResponse:
    links = [
        {"link": link, "url": request.build_absolute_uri(reverse("shared_sheet", args=[link.token]))}
        for link in shares_of(character=character)
    ]
    ctx = {"character": character, "campaign": character.campaign, "links": links}
    if request.htmx:
        return HttpResponse(
            get_template(f"{PANEL}#shares-panel").render({**ctx, "csrf_token": get_token(request)}, request),
            status=status,
        )
    return render(request, PANEL, ctx, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def character_shares(request: HtmxHttpRequest, character_id: int) -> HttpResponse:
    """The character's links (htmx: the panel the sheet opens; plain GET: a page); POST makes one."""
    character = svc.share_manager(user=request.user, character_id=character_id)
    if request.method == "POST":
        svc.share_create(user=request.user, character_id=character.pk)
        if not request.htmx:
            messages.success(request, "A new link is made: anyone who has it sees the sheet, read-only.")
            return HttpResponseRedirect(reverse("character_shares", args=[character.pk]))
    return _panel(request, character)


@login_required
@require_POST
def character_share_revoke(request: HtmxHttpRequest, character_id: int, token: str) -> HttpResponse:
    character = svc.share_manager(user=request.user, character_id=character_id)
    svc.share_revoke(user=request.user, character_id=character.pk, token=token)
    if not request.htmx:
        messages.success(request, "The link is revoked: it shows nothing any more.")
        return HttpResponseRedirect(reverse("character_shares", args=[character.pk]))
    return _panel(request, character)
