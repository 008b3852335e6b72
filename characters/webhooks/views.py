"""The campaign page's webhooks block (the GM's): add a hook in words, rotate its secret, remove
it, and a page of its deliveries. Thin views over ``characters.webhooks.services``; htmx answers
the block, a plain form goes back to the campaign page. A player gets 403, anyone else 404."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.middleware.csrf import get_token
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from characters.campaigns.selectors import campaign_for_user
from characters.models import Campaign, Webhook
from characters.webhooks import services as svc
from characters.webhooks.presenters import deliveries_view, webhooks_block
from characters.webhooks.selectors import webhook_deliveries, webhook_of
from config.errors import SHOWN_INLINE
from config.forms import FormInputError, check_post, post_text
from config.htmx import HtmxHttpRequest

BLOCK = "characters/webhooks/_campaign_webhooks.html"


def _gm_campaign(request: HtmxHttpRequest, campaign_id: int) -> Campaign:
    campaign = campaign_for_user(request.user, campaign_id)
    if not campaign.is_gm(request.user):
        raise PermissionDenied("Only the campaign's GM sets up its webhooks.")
    return campaign


def _answer(request: HtmxHttpRequest, campaign: Campaign, *, status: int = 200, **shown) -> HttpResponse:
    if not request.htmx:
        if shown.get("error"):
            messages.error(request, shown["error"])
        elif shown.get("secret"):
            messages.success(
                request, f"The secret that signs its deliveries: {shown['secret']} (shown once)."
            )
        elif shown.get("note"):
            messages.success(request, shown["note"])
        return redirect(reverse("campaign_detail", args=[campaign.pk]) + "#webhooks")
    context = {
        "campaign": campaign,
        **webhooks_block(campaign=campaign, **shown),
        "csrf_token": get_token(request),
    }
    return HttpResponse(render_to_string(BLOCK, context), status=status)


@login_required
@require_POST
def webhook_add(request: HtmxHttpRequest, campaign_id: int) -> HttpResponse:
    campaign = _gm_campaign(request, campaign_id)
    form = {"url": "", "format": "", "private": False}
    try:
        check_post(request.POST, labels={"url": "Address"})
        form = {
            "url": post_text(request.POST, "url", label="Address", strip=True, max_length=500),
            "format": request.POST.get("format", ""),
            "private": request.POST.get("private") == "true",
        }
        hook = svc.webhook_create(gm=request.user, campaign=campaign, **form)
    except FormInputError as exc:
        return _answer(request, campaign, status=400, error=str(exc), form=form)
    except SHOWN_INLINE as exc:
        return _answer(request, campaign, status=400, error=exc.message, form=form)
    if hook.format == Webhook.Format.JSON:
        return _answer(request, campaign, secret=hook.secret, secret_for=hook.pk)
    return _answer(request, campaign, note="The table's rolls now go to that Discord channel.")


@login_required
@require_POST
def webhook_rotate(request: HtmxHttpRequest, campaign_id: int, webhook_id: int) -> HttpResponse:
    campaign = _gm_campaign(request, campaign_id)
    hook = svc.webhook_rotate(gm=request.user, campaign=campaign, webhook_id=webhook_id)
    return _answer(request, campaign, secret=hook.secret, secret_for=hook.pk)


@login_required
@require_POST
def webhook_remove(request: HtmxHttpRequest, campaign_id: int, webhook_id: int) -> HttpResponse:
    campaign = _gm_campaign(request, campaign_id)
    svc.webhook_delete(gm=request.user, campaign=campaign, webhook_id=webhook_id)
    return _answer(request, campaign, note="Removed: that address gets no more rolls.")


@login_required
@require_GET
def webhook_page(request: HtmxHttpRequest, campaign_id: int, webhook_id: int) -> HttpResponse:
    """One hook's deliveries, newest first, in words."""
    campaign = _gm_campaign(request, campaign_id)
    hook = webhook_of(campaign=campaign, webhook_id=webhook_id)
    return render(
        request,
        "characters/webhooks/deliveries.html",
        {"campaign": campaign, **deliveries_view(hook, webhook_deliveries(webhook=hook))},
    )
