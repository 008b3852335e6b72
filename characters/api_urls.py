from django.urls import include, path

urlpatterns = [
    path("", include("characters.api_campaigns")),  # auth, campaigns
    path("", include("characters.api_characters")),  # characters, export, history, state
    path("", include("characters.api_advancement")),  # awards, advancements, ledger
]
