"""Pages of the characters app, one module per feature so that each can grow on its own."""

from django.urls import include, path

urlpatterns = [
    path("", include("characters.urls_campaigns")),  # home, accounts, campaigns
    path("", include("characters.urls_builder")),  # builder, sheet, history, homebrew
    path("", include("characters.urls_advancement")),  # awards, requests, review, ledger
]
