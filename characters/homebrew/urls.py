"""Homebrew pages: each kind's entries, the entry editor and its live check, the JSON door."""

from django.urls import path

from characters.homebrew import views

urlpatterns = [
    path("campaigns/<int:campaign_id>/homebrew/", views.homebrew_overview, name="campaign_homebrew"),
    path("campaigns/<int:campaign_id>/homebrew/<slug:kind>/new/", views.homebrew_entry, name="homebrew_new"),
    path(
        "campaigns/<int:campaign_id>/homebrew/<slug:kind>/check/", views.homebrew_check, name="homebrew_check"
    ),
    path(
        "campaigns/<int:campaign_id>/homebrew/<slug:kind>/export/",
        views.homebrew_export,
        name="homebrew_export",
    ),
    path(
        "campaigns/<int:campaign_id>/homebrew/<slug:kind>/<slug:entry_id>/",
        views.homebrew_entry,
        name="homebrew_edit",
    ),
    path(
        "campaigns/<int:campaign_id>/homebrew/<slug:kind>/<slug:entry_id>/remove/",
        views.homebrew_remove,
        name="homebrew_remove",
    ),
]
