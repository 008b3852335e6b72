"""Effects' pages: the apply form (any page may show it), removing one, the campaign's kept effects."""

from django.urls import path

from characters.effects import views

urlpatterns = [
    path(
        "characters/<int:character_id>/effects/apply/",
        views.character_effect_apply,
        name="character_effect_apply",
    ),
    path(
        "characters/<int:character_id>/effects/<str:effect_id>/remove/",
        views.character_effect_remove,
        name="character_effect_remove",
    ),
    path("campaigns/<int:campaign_id>/effects/", views.campaign_effects, name="campaign_effects"),
    path(
        "campaigns/<int:campaign_id>/effects/<int:effect_id>/delete/",
        views.campaign_effect_delete,
        name="campaign_effect_delete",
    ),
]
