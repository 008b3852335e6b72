"""The campaign's clock on the party page: the GM's "Time passes" and "A new day"."""

from django.urls import path

from characters.clock import views

urlpatterns = [
    path("campaigns/<int:campaign_id>/clock/", views.campaign_clock_move, name="campaign_clock_move"),
]
