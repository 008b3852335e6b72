"""/api/v1/encounters/… (CONTRACT.md "Resources") and the NPC library (/api/v1/npcs/…)."""

from django.urls import include, path

from combat import api

urlpatterns = [
    path("encounters/", api.encounter_list, name="api-encounter-list"),
    path("encounters/<int:pk>/", api.encounter_detail, name="api-encounter-detail"),
    path("encounters/<int:pk>/combatants/", api.encounter_combatants, name="api-encounter-combatants"),
    path("encounters/<int:pk>/start/", api.encounter_start, name="api-encounter-start"),
    path("encounters/<int:pk>/actions/", api.encounter_actions, name="api-encounter-actions"),
    path("encounters/<int:pk>/next-turn/", api.encounter_next_turn, name="api-encounter-next-turn"),
    path("encounters/<int:pk>/end/", api.encounter_end, name="api-encounter-end"),
    path("", include("combat.library.api")),  # the NPC library
]
