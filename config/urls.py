from django.contrib import admin
from django.urls import include, path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from config.api import api_not_found

#: An outage out of a middleware is a 503 in words; anything else Django's 500 (config/outage.py).
handler500 = "config.outage.server_error"

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    # The split view serves swagger-ui's start-up script as a file: the CSP allows no inline script.
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="schema"), name="api-docs"),
    path("api/v1/", include("config.api_urls")),
    re_path(r"^api/", api_not_found),  # /api/anything-else: the same JSON 404 as inside /api/v1/
    path("rulesets/", include("rulesets.urls")),
    path("encounters/", include("combat.urls")),
    path("", include("characters.urls")),
]
