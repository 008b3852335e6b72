"""Pages of the characters app, one module per feature so that each can grow on its own."""

from django.urls import include, path

urlpatterns = [
    path("", include("characters.accounts.urls")),  # signup, login, logout, password, account, tokens
    path("", include("characters.campaigns.urls")),  # home, campaigns
    path("", include("characters.builder.urls")),  # builder, drafts, history, export/import
    path("", include("characters.homebrew.urls")),  # the campaign's homebrew: entries, editor, JSON door
    path("", include("characters.sheet.urls")),  # sheet, play state, dice, print
    path("", include("characters.effects.urls")),  # apply an effect, remove one, the campaign's kept effects
    path("", include("characters.advancement.urls")),  # awards, requests, review, ledger
    path("", include("characters.party.urls")),  # the party page: the GM's screen
    path("", include("characters.webhooks.urls")),  # the campaign's webhooks (the GM's)
    path("", include("characters.clock.urls")),  # the campaign's clock on the party page
    path("", include("characters.plans.urls")),  # plans of a character's next steps
    path("", include("characters.shares.urls")),  # share links: the read-only sheet, the owner's list
    path("", include("characters.obstacles.views")),  # the party page's obstacle form
]
