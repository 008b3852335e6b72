"""Pages of the characters app, one module per feature so that each can grow on its own."""

from django.urls import include, path

urlpatterns = [
    path("", include("characters.urls_campaigns")),  # home, accounts, campaigns
    path("", include("characters.urls_builder")),  # builder, drafts, history, export/import, homebrew
    path("", include("characters.urls_sheet")),  # sheet, play state, dice, print
    path("", include("characters.urls_advancement")),  # awards, requests, review, ledger
]
