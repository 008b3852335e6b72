"""Effects' pages: the "Apply an effect" form, removing one, and the campaign's kept effects.

The form is one partial (``_effect_apply.html``, root ``#effect-apply-<character id>``) and one
view, so any page may show it: the sheet loads it when its "Apply an effect" opens, the party page
includes it (``effect_apply_context``) or loads it the same way, each with the ``next`` URL a plain
POST returns to. htmx answers swap the form itself (what was applied, or why not, inline; a refusal
is a 400 and changes nothing) and the character's effects list (``#character-effects-<id>``) out of
band; posted from the sheet (``place=sheet``), the sheet's blocks the effect changes come along too
(the rolls and their odds, the numbers, the version), as after any play-state change; from the party
page (``place=party``) the form alone: the card around it, which lists effects its own way, is drawn
again by the party page's live update (static/js/party_live.js keeps the form open in it). A plain POST
redirects to ``next``, or shows the form again with the reason (400).

Who: the GM, or the owner on their own character (a player on another's character: 404, as for its
sheet; someone who may see but not change it: 403). The kept effects' page is the GM's.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse, HttpResponseRedirect
from django.middleware.csrf import get_token
from django.shortcuts import redirect, render
from django.template.loader import get_template, render_to_string
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST

from characters.campaigns.selectors import campaign_for_user
from characters.effects import forms as effect_forms
from characters.effects import services as svc
from characters.effects.selectors import (
    campaign_saved_effects,
    effects_shown,
    has_rest,
    running_encounters,
)
from characters.models import Character
from characters.selectors import can_edit_state, character_for_user, is_campaign_gm
from characters.sheet.presenters import sheet_context
from characters.sheet.selectors import sheet_rules
from characters.sheet.views import STATE_CHANGED
from config.errors import SHOWN_INLINE, ApplicationError, NotPermitted
from config.forms import FormInputError
from config.htmx import HtmxHttpRequest
from config.navigation import local_path
from rulesets.engine import effects as fx
from rulesets.engine import registry

FORM = "characters/effects/_effect_apply.html"
LIST = "characters/effects/_effects_list.html"
PAGE = "characters/effects/effect_apply.html"
SHEET = "characters/sheet/sheet.html"
PLACES = ("sheet", "party")


def _next(request: HtmxHttpRequest, character: Character) -> str:
    """Where a plain POST goes back to: the page's ``next`` when it is a path of this site
    (``config.navigation``), else the sheet."""
    raw = request.POST.get("next") if request.method == "POST" else request.GET.get("next")
    return local_path(raw, request) or reverse("character_sheet", args=[character.pk])


def _place(request: HtmxHttpRequest) -> str:
    raw = request.POST.get("place") if request.method == "POST" else request.GET.get("place")
    return raw if raw in PLACES else ""


def _refused_page(request: HtmxHttpRequest, message: str, back: str) -> HttpResponse:
    return render(request, "form_refused.html", {"message": message, "back_url": back}, status=403)


def effect_apply_context(
    request: HtmxHttpRequest,
    character: Character,
    *,
    next_url: str,
    place: str = "",
    error: str = "",
    done: str = "",
    values: Any = None,
) -> dict[str, Any]:
    """The form's context for ``character`` (the partial's ``{% include %}`` on another page needs
    this): what it offers now, and the values to show again after a refusal."""
    rules = sheet_rules(character=character)
    made = None
    if rules.ruleset is not None and character.status == Character.Status.ACTIVE:
        made = effect_forms.offer(
            ruleset=rules.ruleset,
            ctx=rules.ctx,
            rollables=[r for r in rules.rollables if isinstance(r, dict)],
            saved=campaign_saved_effects(campaign_id=character.campaign_id),
            running=running_encounters(campaign_id=character.campaign_id),
            rest=has_rest(rules.ruleset, rules.sections),
        )
    return {
        "character": character,
        "offer": made,
        "form_values": _values(values, made),
        "effect_next": next_url,
        "effect_place": place,
        "effect_error": error,
        "effect_done": done,
        "is_gm": is_campaign_gm(request.user, character.campaign),
        "rules": rules,
    }


def _values(post: Any, made: effect_forms.Offer | None) -> dict[str, Any]:
    """The posted values as the template fills them back in (nothing posted: the defaults)."""
    get = (lambda name: post.get(name, "")) if post is not None else (lambda name: "")
    rows = [
        {
            "i": i,
            "what": get(f"what-{i}"),
            "target": get(f"target-{i}") or "all",
            "amount": get(f"amount-{i}"),
        }
        for i in (made.rows if made is not None else ())
    ]
    return {
        "effect": get("effect"),
        "value": get("value") or "1",
        "custom_name": get("custom_name"),
        "save": get("save") == "on",
        "duration": get("duration") or "none",
        "rounds": get("rounds") or "1",
        "encounter": get("encounter"),
        "combatant": get("combatant"),
        "rows": rows,
    }


def _message(exc: Exception, parsed: effect_forms.Parsed | None, character: Character) -> str:
    if isinstance(exc, FormInputError):
        return str(exc)
    if isinstance(exc, ApplicationError):
        errors = getattr(exc, "errors", None) or []
        code = errors[0].get("code", "") if errors and isinstance(errors[0], dict) else ""
        return effect_forms.refusal_text(code, exc.message, parsed=parsed, character_name=character.name)
    return str(exc) or "You may not do that."


def _sheet_blocks(request: HtmxHttpRequest, character: Character) -> str:
    """The sheet's blocks an effect changes, out of band (its rolls and odds, numbers, play state, version)."""
    context = {**sheet_context(request, character), "csrf_token": get_token(request)}
    return get_template(f"{SHEET}#effects-update").render(context)


def _list_html(
    request: HtmxHttpRequest, character: Character, *, next_url: str, place: str, oob: bool, error: str = ""
) -> str:
    rules = sheet_rules(character=character)
    shown = (
        effects_shown(character=character, ruleset=rules.ruleset, rollables=rules.rollables, ctx=rules.ctx)
        if rules.ruleset
        else []
    )
    return render_to_string(
        LIST,
        {
            "character": character,
            "active_effects": shown,
            "can_edit_state": can_edit_state(request.user, character),
            "effects_next": next_url,
            "effects_place": place,
            "effects_error": error,
            "oob": oob,
        },
        request=request,
    )


def _changed(response: HttpResponse) -> HttpResponse:
    response["HX-Trigger-After-Settle"] = STATE_CHANGED  # the sheet's odds preview asks again
    return response


@login_required
@require_http_methods(["GET", "POST"])
def character_effect_apply(request: HtmxHttpRequest, character_id: int) -> HttpResponse:
    """The form (GET: the partial for htmx, a page otherwise) and its POST."""
    character = character_for_user(user=request.user, character_id=character_id)  # 404 first
    next_url, place = _next(request, character), _place(request)
    if not can_edit_state(request.user, character):
        return _refused_page(
            request, "Only the GM, or the player on their own character, applies effects.", next_url
        )
    if request.method == "GET":
        context = effect_apply_context(request, character, next_url=next_url, place=place)
        return render(request, FORM if request.htmx else PAGE, context)
    context = effect_apply_context(request, character, next_url=next_url, place=place)
    parsed = None
    error = ""
    entry = None
    try:
        if context["offer"] is None:
            raise FormInputError(
                "effect", f"{character.name} is not in play: effects apply to characters in play."
            )
        parsed = effect_forms.parse(request.POST, context["offer"])
        character, entry = svc.character_effect_apply(
            character_id=character.pk,
            user=request.user,
            spec=parsed.spec,
            duration=parsed.duration,
            encounter=parsed.encounter,
            keep_as=parsed.save_as,
        )
    except (FormInputError, *SHOWN_INLINE, NotPermitted) as exc:
        error = _message(exc, parsed, character)
    if error:
        context.update(effect_error=error, form_values=_values(request.POST, context["offer"]))
        return render(request, FORM if request.htmx else PAGE, context, status=400)
    assert entry is not None
    done = f"{entry['name']} is on {character.name}" + (
        f", {fx.duration_text(entry.get('duration'))}." if entry.get("duration") else "."
    )
    if parsed is not None and parsed.save_as:
        done += f" The campaign keeps {parsed.save_as} for next time."
    if not request.htmx:
        messages.success(request, done)
        return HttpResponseRedirect(next_url)
    character = character_for_user(user=request.user, character_id=character.pk)
    html: str = render_to_string(
        FORM,
        effect_apply_context(
            request,
            character,
            next_url=next_url,
            place=place,
            done=done,
            values=effect_forms.kept_after(request.POST),
        ),
        request=request,
    )
    if place != "party":  # the party card, which has no such list, is drawn again by its live update
        html += _list_html(request, character, next_url=next_url, place=place, oob=True)
    if place == "sheet":
        html += _sheet_blocks(request, character)
    return _changed(HttpResponse(html))


@login_required
@require_POST
def character_effect_remove(request: HtmxHttpRequest, character_id: int, effect_id: str) -> HttpResponse:
    """Remove one effect now (its remove button in the effects list)."""
    character = character_for_user(user=request.user, character_id=character_id)  # 404 first
    next_url, place = _next(request, character), _place(request)
    error = ""
    name = next(
        (
            e.get("name")
            for e in (character.state or {}).get("effects") or ()
            if isinstance(e, dict) and e.get("id") == effect_id
        ),
        "",
    )
    try:
        character = svc.character_effect_remove(
            character_id=character.pk, user=request.user, effect_id=effect_id
        )
    except NotPermitted:
        return _refused_page(
            request, "Only the GM, or the player on their own character, removes effects.", next_url
        )
    except (*SHOWN_INLINE, Character.DoesNotExist) as exc:
        error = (exc.message if isinstance(exc, ApplicationError) else "") or "That effect has ended already."
    if not request.htmx:
        if error:
            messages.error(request, error)
        else:
            messages.success(request, f"{name} is removed from {character.name}.")
        return HttpResponseRedirect(next_url)
    character = character_for_user(user=request.user, character_id=character.pk)
    html: str = _list_html(request, character, next_url=next_url, place=place, oob=False, error=error)
    if place == "sheet" and not error:
        html += _sheet_blocks(request, character)
    return _changed(HttpResponse(html, status=400 if error else 200))


# ------------------------------------------------------------------ the campaign's kept effects


@login_required
@require_http_methods(["GET"])
def campaign_effects(request: HtmxHttpRequest, campaign_id: int) -> HttpResponse:
    """The campaign's kept effects, what each changes, and a delete button each (the GM's page)."""
    campaign = campaign_for_user(request.user, campaign_id)  # 404 for strangers
    if not is_campaign_gm(request.user, campaign):
        back = reverse("campaign_detail", args=[campaign.pk])
        return _refused_page(request, "Only the GM manages the campaign's kept effects.", back)
    return render(request, "characters/effects/campaign_effects.html", _kept_context(campaign))


def _kept_context(campaign, **extra) -> dict[str, Any]:
    ruleset = registry.get(campaign.ruleset)
    kept = [
        {"pk": k.pk, "name": k.name, "text": effect_forms.describe(ruleset, k.changes) if ruleset else ""}
        for k in campaign_saved_effects(campaign_id=campaign.pk)
    ]
    return {"campaign": campaign, "kept": kept, "kept_error": "", **extra}


@login_required
@require_POST
def campaign_effect_delete(request: HtmxHttpRequest, campaign_id: int, effect_id: int) -> HttpResponse:
    campaign = campaign_for_user(request.user, campaign_id)
    back = reverse("campaign_effects", args=[campaign.pk])
    try:
        name = svc.campaign_effect_delete(campaign=campaign, user=request.user, effect_id=effect_id)
    except NotPermitted:
        return _refused_page(request, "Only the GM manages the campaign's kept effects.", back)
    except SHOWN_INLINE as exc:
        if request.htmx:
            return render(
                request,
                "characters/effects/campaign_effects.html#kept-list",
                _kept_context(campaign, kept_error=exc.message),
                status=400,
            )
        messages.error(request, exc.message)
        return redirect(back)
    if request.htmx:
        return render(
            request,
            "characters/effects/campaign_effects.html#kept-list",
            _kept_context(campaign, kept_done=f"{name} is deleted."),
        )
    messages.success(request, f"{name} is deleted.")
    return redirect(back)
