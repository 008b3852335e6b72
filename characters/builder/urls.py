"""Builder pages: create, build, drafts, history, export/import."""

from django.urls import path

from characters.builder import views as views_builder

urlpatterns = [
    path(
        "campaigns/<int:campaign_id>/characters/new/", views_builder.character_create, name="character_create"
    ),
    path(
        "campaigns/<int:campaign_id>/characters/import/",
        views_builder.character_import,
        name="character_import",
    ),
    path("characters/<int:character_id>/build/", views_builder.character_builder, name="character_builder"),
    path("characters/<int:character_id>/history/", views_builder.character_history, name="character_history"),
    path(
        "characters/<int:character_id>/play-log/", views_builder.character_play_log, name="character_play_log"
    ),
    path("characters/<int:character_id>/revert/", views_builder.character_revert, name="character_revert"),
    path("characters/<int:character_id>/export/", views_builder.character_export, name="character_export"),
]
