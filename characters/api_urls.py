from django.urls import include, path

urlpatterns = [
    path("", include("characters.campaigns.api")),  # auth, campaigns
    path("", include("characters.builder.api")),  # characters, export, history, state
    path("", include("characters.advancement.api")),  # awards, advancements, ledger
]
