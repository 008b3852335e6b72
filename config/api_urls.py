"""/api/v1/: each app contributes its own endpoints (CONTRACT.md "Doors" and "Resources")."""

from django.urls import include, path

urlpatterns = [
    path("", include("rulesets.api_urls")),
    path("", include("characters.api_urls")),
    path("", include("combat.api_urls")),
]
