from django.urls import include, path

urlpatterns = [
    path("", include("characters.accounts.api")),  # auth: register, tokens
    path("", include("characters.campaigns.api")),  # campaigns
    path("", include("characters.builder.api")),  # characters, export, history, state
    path("", include("characters.advancement.api")),  # awards, advancements, ledger
    path("", include("characters.effects.api")),  # rollables, effects
    path("", include("characters.party.api")),  # the party, who should roll
    path("", include("characters.sheet.api")),  # play actions and rolls over the API
    path("", include("characters.table.api")),  # the table's roll feed
    path("", include("characters.webhooks.api")),  # the table's feed to Discord and webhooks
    path("", include("characters.clock.api")),  # the campaign's clock
    path("", include("characters.plans.api")),  # plans of a character's next steps
    path("", include("characters.shares.api")),  # share links of a sheet
    path("", include("characters.obstacles.api")),  # obstacles (W2)
]
