"""/api/v1/: each app contributes its own endpoints (CONTRACT.md "Doors" and "Resources")."""

from django.urls import include, path, re_path

from config.api import api_not_found

urlpatterns = [
    path("", include("rulesets.api_urls")),
    path("", include("characters.api_urls")),
    path("", include("combat.api_urls")),
    re_path(r"^.*$", api_not_found),  # last: a JSON 404 for everything else under /api/v1/
]
