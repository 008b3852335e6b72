"""The party page: the GM's screen of a campaign (``/campaigns/<id>/party/``).

Thin function views over ``characters.party.selectors`` and ``odds`` (the same reads as the API) and
``presenters``. Only the campaign's GM: a player of it gets 403, anyone else 404. "Who should
roll" is a GET form: without JavaScript it reloads the page with the answer; with htmx it asks
``party_odds`` for the answer block alone. The page follows the party live (characters/party/live.py):
its script fetches a changed character's card (``party_card``) and, after a reconnect, every card
(``party_cards``), each through the same access check as the page.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.middleware.csrf import get_token
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from characters.advancement import services as awards
from characters.models import Campaign, Character
from characters.obstacles.selectors import campaign_obstacles
from characters.party import presenters
from characters.party.forms import PartyRefused
from characters.party.odds import party_odds
from characters.party.selectors import campaign_rules, party_campaign, party_character, party_characters
from characters.party.services import party_rest
from config.errors import SHOWN_INLINE
from config.forms import FormInputError, check_post, post_text, post_whole_number, post_whole_numbers
from config.htmx import HtmxHttpRequest
from rulesets.engine.clock import MAX_HOURS

TEMPLATE = "characters/party/party.html"
ANSWER_TEMPLATE = "characters/party/_party_odds_answer.html"
ACT_ANSWER_TEMPLATE = "characters/party/_party_act_answer.html"


def _answer(campaign: Campaign, characters: list[Character], values: dict) -> dict:
    """The "who should roll" answer for the form's values, or the reason there is none, in words."""
    ruleset, _ = campaign_rules(campaign)
    if ruleset is None or not values.get("roll"):
        return {}
    try:
        answer = party_odds(
            campaign=campaign,
            rollable=values["roll"],
            table=values["table"],
            need=values["need"],
            aid=values["aid"],
            form=True,
            characters=characters,
        )
    except PartyRefused as exc:
        field = (exc.errors[0].get("field") if exc.errors else "") or ""
        if field == "rollable":
            return {"odds_error": "No character in play has that roll."}
        if field == "aid":
            return {"odds_error": "Choose one of the help options the rules offer."}
        return {"odds_error": exc.message}
    return {"odds": presenters.odds_view(answer, characters=characters, ruleset=ruleset)}


@login_required
@require_GET
def party_page(request: HtmxHttpRequest, campaign_id: int) -> HttpResponse:
    """The party page; with ``?roll=…`` (the "who should roll" form) it shows the answer too."""
    campaign = party_campaign(user=request.user, campaign_id=campaign_id)
    characters = party_characters(campaign=campaign)
    ruleset, ctx = campaign_rules(campaign)
    values = presenters.form_values(request.GET)
    cards = presenters.party_cards(campaign=campaign, characters=characters)
    context = {
        "campaign": campaign,
        "ruleset_name": ruleset.name if ruleset else campaign.ruleset,
        **cards,
        "act": presenters.act_form(campaign=campaign, cards=cards["cards"]),
        "form": presenters.odds_form(ruleset=ruleset, ctx=ctx, characters=characters, values=values)
        if ruleset
        else None,
        **_answer(campaign, characters, values),
        "obstacles": campaign_obstacles(campaign=campaign, user=request.user),
        "obstacle_characters": [{"id": c.pk, "name": c.name} for c in characters],
        "clock_max_hours": MAX_HOURS,
    }
    return render(request, TEMPLATE, context)


@login_required
@require_GET
def party_odds_answer(request: HtmxHttpRequest, campaign_id: int) -> HttpResponse:
    """The answer block alone (htmx); a plain GET goes to the page with the same question."""
    campaign = party_campaign(user=request.user, campaign_id=campaign_id)
    if not request.htmx:
        query = request.GET.urlencode()
        return redirect(
            reverse("campaign_party", args=[campaign.pk]) + (f"?{query}" if query else "") + "#party-odds"
        )
    characters = party_characters(campaign=campaign)
    values = presenters.form_values(request.GET)
    html = render_to_string(ANSWER_TEMPLATE, _answer(campaign, characters, values))
    return HttpResponse(html)


@login_required
@require_GET
def party_cards(request: HtmxHttpRequest, campaign_id: int) -> HttpResponse:
    """Every card and what waits for review (the page catching up after a reconnect)."""
    campaign = party_campaign(user=request.user, campaign_id=campaign_id)
    if not request.htmx:
        return redirect("campaign_party", campaign.pk)
    context = {
        "campaign": campaign,
        **presenters.party_cards(campaign=campaign),
        "csrf_token": get_token(request),
    }
    html = render_to_string("characters/party/_party_cards.html", context) + render_to_string(
        "characters/party/_party_pending.html", context
    )
    return HttpResponse(html)


@login_required
@require_GET
def party_card(request: HtmxHttpRequest, campaign_id: int, character_id: int) -> HttpResponse:
    """One character's card and what waits for review: what the page fetches when its websocket
    says the character changed. A character no longer in play answers an empty stand-in
    (``data-gone``) that takes its card off the page; one not of this campaign is a 404."""
    campaign = party_campaign(user=request.user, campaign_id=campaign_id)
    if not request.htmx:
        return redirect(
            reverse("campaign_party", args=[campaign.pk]) + f"#party-character-{int(character_id)}"
        )
    character = party_character(campaign=campaign, character_id=character_id)
    if character is None:
        raise Http404("No such character in this campaign.")
    if character.status != Character.Status.ACTIVE:
        context = {
            "campaign": campaign,
            "gone": character.pk,
            **presenters.party_cards(campaign=campaign, characters=[]),
        }
        html = render_to_string("characters/party/_party_card_gone.html", context) + render_to_string(
            "characters/party/_party_pending.html", context
        )
        return HttpResponse(html)
    data = presenters.one_card(campaign=campaign, character=character)
    context = {"campaign": campaign, **data, "csrf_token": get_token(request)}
    html = render_to_string("characters/party/_party_card.html", context) + render_to_string(
        "characters/party/_party_pending.html", context
    )
    return HttpResponse(html)


@login_required
@require_POST
def party_act(request: HtmxHttpRequest, campaign_id: int) -> HttpResponse:
    """The GM acts on the ticked characters: ``do=rest`` (each its ruleset's rest; one refused stops
    no other, and says why) or ``do=award`` (the award service, to those characters). htmx: the
    answer block; a plain form: back to the page with the answer as messages. The cards and every
    open sheet follow through their live updates."""
    campaign = party_campaign(user=request.user, campaign_id=campaign_id)
    rows: list[dict] = []
    error = ""
    try:
        check_post(request.POST, labels={"characters": "Characters", "reason": "Reason", "amount": "Amount"})
        chosen = post_whole_numbers(request.POST, "characters", label="Characters", max_value=2**63 - 1)
        do = request.POST.get("do")
        if not chosen:
            error = "Tick the characters first: nobody is chosen."
        elif do == "rest":
            rows = [
                {"ok": r["status"] == 200, "text": r["message"]}
                for r in party_rest(gm=request.user, campaign=campaign, character_ids=chosen)
            ]
        elif do == "award":
            currency = post_text(request.POST, "currency", label="Currency", max_length=80)
            amount = post_whole_number(
                request.POST, "amount", label="Amount", min_value=1, max_value=awards.MAX_AWARD
            )
            reason = post_text(request.POST, "reason", label="Reason", max_length=200)
            written = awards.award_create(
                gm=request.user,
                campaign=campaign,
                character_ids=chosen,
                currency=currency,
                amount=amount,
                reason=reason,
            )
            ruleset, _ = campaign_rules(campaign)
            what = ruleset.currency_label(currency, amount) if ruleset else currency
            rows = [
                {"ok": True, "text": f"{e.character.name}: +{amount} {what} ({e.reason})."} for e in written
            ]
        else:
            error = "Choose Rest or Award."
    except FormInputError as exc:
        error = str(exc)
    except SHOWN_INLINE as exc:
        error = exc.message
    if not request.htmx:
        for row in rows:
            (messages.success if row["ok"] else messages.error)(request, row["text"])
        if error:
            messages.error(request, error)
        return redirect(reverse("campaign_party", args=[campaign.pk]) + "#party-act")
    html = render_to_string(ACT_ANSWER_TEMPLATE, {"rows": rows, "error": error})
    return HttpResponse(html, status=400 if error else 200)
