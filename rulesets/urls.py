"""/rulesets/: the rulesets, each one's catalogue and odds calculator."""

from django.urls import path

from . import views

app_name = "rulesets"
urlpatterns = [
    path("", views.ruleset_list, name="list"),
    path("<str:slug>/", views.ruleset_detail, name="detail"),
]
