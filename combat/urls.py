"""Encounter pages, under /encounters/ (config/urls.py)."""

from django.urls import path

from combat import views
from combat.library import views as library

urlpatterns = [
    path("campaign/<int:campaign_id>/", views.encounter_list, name="encounter_list"),
    path("campaign/<int:campaign_id>/new/", views.encounter_create, name="encounter_create"),
    path("<int:encounter_id>/", views.encounter_detail, name="encounter_detail"),
    path("<int:encounter_id>/panel/", views.encounter_panel, name="encounter_panel"),
    path("<int:encounter_id>/board/", views.encounter_board, name="encounter_board"),
    path("<int:encounter_id>/combatants/", views.encounter_add_combatant, name="encounter_add_combatant"),
    path(
        "<int:encounter_id>/combatants/<int:combatant_id>/remove/",
        views.encounter_remove_combatant,
        name="encounter_remove_combatant",
    ),
    path(
        "<int:encounter_id>/combatants/library/",
        library.encounter_add_from_library,
        name="encounter_add_from_library",
    ),
    path("<int:encounter_id>/npcs/", library.encounter_add_npcs, name="encounter_add_npcs"),
    path("<int:encounter_id>/effects/", views.encounter_effect_apply, name="encounter_effect_apply"),
    path(
        "<int:encounter_id>/effects/remove/",
        views.encounter_effect_remove,
        name="encounter_effect_remove",
    ),
    path("campaign/<int:campaign_id>/npcs/", library.npc_library_page, name="npc_library"),
    path("campaign/<int:campaign_id>/npcs/new/", library.npc_new, name="npc_new"),
    path("campaign/<int:campaign_id>/npcs/<int:npc_id>/", library.npc_edit, name="npc_edit"),
    path("campaign/<int:campaign_id>/npcs/<int:npc_id>/delete/", library.npc_delete, name="npc_delete"),
    path("<int:encounter_id>/start/", views.encounter_start, name="encounter_start"),
    path("<int:encounter_id>/act/", views.encounter_act, name="encounter_act"),
    path("<int:encounter_id>/next-turn/", views.encounter_next_turn, name="encounter_next_turn"),
    path("<int:encounter_id>/end/", views.encounter_end, name="encounter_end"),
]
