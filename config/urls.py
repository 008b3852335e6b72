from django.contrib import admin
from django.urls import include, path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from config.api import api_not_found

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="api-docs"),
    path("api/v1/", include("config.api_urls")),
    re_path(r"^api/", api_not_found),  # /api/anything-else: the same JSON 404 as inside /api/v1/
    path("rulesets/", include("rulesets.urls")),
    path("encounters/", include("combat.urls")),
    path("", include("characters.urls")),
]
