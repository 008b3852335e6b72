"""Advancement pages: advance mode, requests, review, awards, the ledger."""

from django.urls import path

from characters.advancement import views

urlpatterns = [
    path("characters/<int:character_id>/advance/", views.character_advance, name="character_advance"),
    path(
        "characters/<int:character_id>/advancements/",
        views.character_advancements,
        name="character_advancements",
    ),
    path("characters/<int:character_id>/ledger/", views.character_ledger, name="character_ledger"),
    path(
        "characters/<int:character_id>/activities/", views.character_activities, name="character_activities"
    ),
    path("advancements/<int:advancement_id>/", views.advancement_detail, name="advancement_detail"),
    path("advancements/<int:advancement_id>/approve/", views.advancement_approve, name="advancement_approve"),
    path("advancements/<int:advancement_id>/reject/", views.advancement_reject, name="advancement_reject"),
    path("advancements/<int:advancement_id>/revert/", views.advancement_revert, name="advancement_revert"),
    path(
        "advancements/<int:advancement_id>/withdraw/", views.advancement_withdraw, name="advancement_withdraw"
    ),
    path("review/", views.review_queue, name="review_queue"),
    path("campaigns/<int:campaign_id>/review/", views.campaign_review, name="campaign_review"),
    path("campaigns/<int:campaign_id>/awards/", views.campaign_awards, name="campaign_awards"),
]
