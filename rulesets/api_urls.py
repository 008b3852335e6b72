"""/api/v1/rulesets/…: the rules service's HTTP door (CONTRACT.md "Doors")."""

from django.urls import path

from . import api

urlpatterns = [
    path("rulesets/", api.RulesetListView.as_view(), name="api-rulesets"),
    path("rulesets/<str:slug>/", api.RulesetDetailView.as_view(), name="api-ruleset"),
    path("rulesets/<str:slug>/validate/", api.ValidateView.as_view(), name="api-ruleset-validate"),
    path("rulesets/<str:slug>/odds/", api.OddsView.as_view(), name="api-ruleset-odds"),
]
