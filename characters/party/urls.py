"""The party page (the GM's screen): the page, the "who should roll" answer, and the blocks its
live script fetches."""

from django.urls import path

from characters.party import views

urlpatterns = [
    path("campaigns/<int:campaign_id>/party/", views.party_page, name="campaign_party"),
    path("campaigns/<int:campaign_id>/party/odds/", views.party_odds_answer, name="campaign_party_odds"),
    path("campaigns/<int:campaign_id>/party/cards/", views.party_cards, name="campaign_party_cards"),
    path("campaigns/<int:campaign_id>/party/act/", views.party_act, name="campaign_party_act"),
    path(
        "campaigns/<int:campaign_id>/party/cards/<int:character_id>/",
        views.party_card,
        name="campaign_party_card",
    ),
]
