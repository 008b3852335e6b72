"""Home and campaign pages. Thin: access helpers, forms, then a service call."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from characters.accounts.throttling import JoinAttempt
from characters.campaigns import services
from characters.campaigns.forms import CampaignCreateForm, CampaignSettingsForm, JoinForm
from characters.campaigns.selectors import (
    campaign_characters,
    campaign_for_user,
    campaign_member,
    campaign_members,
    campaign_role,
    characters_owned_by,
    home_campaigns,
)
from characters.models import Campaign, Membership
from characters.sheet.selectors import campaign_roll_feed
from characters.table.feed import FEED_LENGTH, roll_line
from characters.webhooks.presenters import webhooks_block
from rulesets.engine import registry

User = get_user_model()


def _get_campaign_for_user(request, campaign_id) -> Campaign:
    """The campaign if the signed-in user belongs to it; 404 otherwise (its existence is not leaked)."""
    return campaign_for_user(request.user, campaign_id)


def _get_campaign_for_gm(request, campaign_id) -> Campaign:
    """404 for strangers, 403 for players: only the GM passes."""
    campaign = _get_campaign_for_user(request, campaign_id)
    if not campaign.is_gm(request.user):
        raise PermissionDenied("Only the campaign's GM may do this.")
    return campaign


def _add_errors(form, exc: ValidationError) -> None:
    if hasattr(exc, "error_dict"):
        for field, errors in exc.message_dict.items():
            for error in errors:
                form.add_error(field if field in form.fields else None, error)
    else:
        for error in exc.messages:
            form.add_error(None, error)


def _with_links(characters, *, viewer=None, is_gm: bool = True):
    """Each character with the link to its sheet, when the viewer may open it: a player
    sees the other players' characters listed but their sheets are theirs (a 404)."""
    for character in characters:
        visible = is_gm or viewer is None or character.owner_id == viewer.pk
        character.url = reverse("character_sheet", args=[character.pk]) if visible else None
    return characters


def home(request):
    if not request.user.is_authenticated:
        return render(request, "characters/campaigns/welcome.html", {"rulesets": services.ruleset_choices()})
    return render(
        request,
        "characters/campaigns/home.html",
        {
            **home_campaigns(request.user),
            "characters": _with_links(list(characters_owned_by(request.user))),
            "join_form": JoinForm(),
        },
    )


@login_required
def campaign_list(request):
    return render(
        request,
        "characters/campaigns/campaign_list.html",
        {**home_campaigns(request.user), "join_form": JoinForm()},
    )


def _chosen_ruleset(request) -> str | None:
    """The ruleset the new-campaign page is about: the posted or asked one, else the first."""
    raw = request.POST.get("ruleset") if request.method == "POST" else request.GET.get("ruleset")
    return raw if isinstance(raw, str) and raw else None


@login_required
def campaign_create(request):
    """A new campaign. The chosen ruleset's settings are typed fields; changing the ruleset swaps
    them (htmx asks for ``#ruleset-fields``; without JavaScript "Show its settings" posts the
    page back). A post whose fields were shown for another ruleset creates nothing: the page
    shows the chosen ruleset's fields to check first, keeping the name and approval."""
    slug = _chosen_ruleset(request)
    if request.method == "GET":
        form = CampaignCreateForm(ruleset_slug=slug)
        if request.htmx and slug is not None:
            return render(request, "characters/campaigns/campaign_form.html#ruleset-fields", {"form": form})
        return render(request, "characters/campaigns/campaign_form.html", {"form": form})
    shown_for = request.POST.get("_fields_for")
    switched = "_switch" in request.POST or (
        shown_for is not None and registry.get(slug or "") is not None and shown_for != slug
    )
    if switched:
        initial = {
            "name": request.POST.get("name", ""),
            "ruleset": slug,
            "approve_new_characters": "approve_new_characters" in request.POST,
        }
        form = CampaignCreateForm(initial=initial, ruleset_slug=slug)
        note = (
            ""
            if "_switch" in request.POST
            else "These are the settings of the ruleset you chose: check them, then create the campaign."
        )
        return render(request, "characters/campaigns/campaign_form.html", {"form": form, "note": note})
    form = CampaignCreateForm(request.POST, ruleset_slug=slug)
    if form.is_valid():
        try:
            campaign = services.campaign_create(
                gm=request.user,
                name=form.cleaned_data["name"],
                ruleset=form.cleaned_data["ruleset"],
                settings=form.settings(),
            )
        except ValidationError as exc:
            _add_errors(form, exc)
        else:
            messages.success(
                request, f"Campaign “{campaign.name}” created. Share the join code with your players."
            )
            return redirect("campaign_detail", campaign_id=campaign.pk)
    return render(request, "characters/campaigns/campaign_form.html", {"form": form}, status=400)


@login_required
def campaign_join(request):
    form = JoinForm(request.POST or request.GET or None)
    if request.method == "POST" and form.is_valid():
        attempt = JoinAttempt(request)  # wrong codes are limited per user and per IP
        if not attempt.allowed:
            form.add_error("join_code", attempt.message)
            response = render(request, "characters/campaigns/campaign_join.html", {"form": form}, status=429)
            response["Retry-After"] = str(attempt.wait)
            return response
        try:
            membership = services.campaign_join(user=request.user, join_code=form.cleaned_data["join_code"])
        except ValidationError as exc:
            attempt.failed()
            _add_errors(form, exc)
        else:
            if getattr(membership, "is_new", True):
                messages.success(request, f"You joined “{membership.campaign.name}”.")
            elif membership.role == Membership.Role.GM:
                messages.info(request, f"You are already the GM of “{membership.campaign.name}”.")
            else:
                messages.info(request, f"You are already a member of “{membership.campaign.name}”.")
            return redirect("campaign_detail", campaign_id=membership.campaign_id)
    return render(request, "characters/campaigns/campaign_join.html", {"form": form})


@login_required
def campaign_detail(request, campaign_id: int):
    campaign = _get_campaign_for_user(request, campaign_id)
    return render(request, "characters/campaigns/campaign_detail.html", _detail_context(request, campaign))


@login_required
def campaign_feed(request, campaign_id: int):
    """The table's latest rolls (htmx: the list, swapped in place after the feed's socket
    reconnects; plain GET: the campaign page)."""
    from django.template.loader import render_to_string

    campaign = _get_campaign_for_user(request, campaign_id)
    if not request.htmx:
        return redirect(reverse("campaign_detail", args=[campaign.pk]) + "#table-feed")
    lines = [
        roll_line(r) for r in campaign_roll_feed(campaign=campaign, viewer=request.user, limit=FEED_LENGTH)
    ]
    html = "".join(
        render_to_string("characters/table/_table_feed_item.html", {"line": line}) for line in lines
    )
    return HttpResponse(f'<ol class="table-feed-list" id="table-feed-list" aria-live="polite">{html}</ol>')


def _detail_context(request, campaign: Campaign) -> dict:
    role = campaign_role(request.user, campaign)
    return {
        "campaign": campaign,
        "role": role,
        "is_gm": role == Membership.Role.GM,
        "members": campaign_members(campaign),
        "characters": _with_links(
            list(campaign_characters(campaign)), viewer=request.user, is_gm=role == Membership.Role.GM
        ),
        "ruleset_name": services.ruleset_name(campaign.ruleset),
        "new_character_url": reverse("character_create", args=[campaign.pk]),
        # The GM edits the homebrew; players read it once there is some.
        "homebrew_url": reverse("campaign_homebrew", args=[campaign.pk])
        if role == Membership.Role.GM or any((campaign.homebrew or {}).values())
        else None,
        **(webhooks_block(campaign=campaign) if role == Membership.Role.GM else {}),
    }


@login_required
def campaign_settings(request, campaign_id: int):
    campaign = _get_campaign_for_gm(request, campaign_id)
    ruleset = registry.get(campaign.ruleset)
    if ruleset is None:
        raise Http404("This campaign's ruleset is not installed.")
    initial = {
        "name": campaign.name,
        "approve_new_characters": (campaign.settings or {}).get("approve_new_characters") is True,
    }
    for currency in ruleset.currencies:
        initial[f"budget_{currency}"] = campaign.starting_budget.get(currency, 0)
    form = CampaignSettingsForm(
        request.POST or None,
        initial=initial,
        ruleset=ruleset,
        house_rules=campaign.house_rules,
        currency_label=ruleset.currency_label,
    )
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                services.campaign_update_settings(
                    gm=request.user,
                    campaign=campaign,
                    name=form.cleaned_data["name"],
                    settings=form.settings(),
                )
            except ValidationError as exc:
                _add_errors(form, exc)
            else:
                messages.success(request, "Settings saved.")
                return redirect("campaign_detail", campaign_id=campaign.pk)
        campaign.refresh_from_db()  # nothing changed: the page shows the saved name
        status = 400
    return render(
        request,
        "characters/campaigns/campaign_settings.html",
        {"campaign": campaign, "form": form},
        status=status,
    )


@login_required
@require_POST
def campaign_leave(request, campaign_id: int):
    campaign = _get_campaign_for_user(request, campaign_id)
    try:
        services.campaign_leave(user=request.user, campaign=campaign)
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
        return redirect("campaign_detail", campaign_id=campaign.pk)
    messages.success(request, f"You left “{campaign.name}”.")
    return redirect("home")


@login_required
@require_POST
def campaign_remove_member(request, campaign_id: int, user_id: int):
    campaign = _get_campaign_for_gm(request, campaign_id)
    member = campaign_member(campaign, user_id)
    if member is None:
        raise Http404("No such member.")
    try:
        services.campaign_remove_player(gm=request.user, campaign=campaign, user=member.user)
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
    else:
        messages.success(request, f"{member.user.get_username()} was removed from the campaign.")
    if request.htmx:
        return render(
            request, "characters/campaigns/campaign_detail.html#members", _detail_context(request, campaign)
        )
    return redirect("campaign_detail", campaign_id=campaign.pk)


@login_required
@require_POST
def campaign_regenerate_code(request, campaign_id: int):
    campaign = _get_campaign_for_gm(request, campaign_id)
    services.campaign_regenerate_join_code(gm=request.user, campaign=campaign)
    if request.htmx:
        return render(
            request, "characters/campaigns/campaign_detail.html#join-code", _detail_context(request, campaign)
        )
    messages.success(request, "A new join code was made; the old one no longer works.")
    return redirect("campaign_detail", campaign_id=campaign.pk)
