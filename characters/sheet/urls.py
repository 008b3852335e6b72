"""The character sheet: the page, play-state actions, loadout, dice and the roll log."""

from django.urls import path

from characters.sheet import views as views_sheet

urlpatterns = [
    path("characters/<int:character_id>/", views_sheet.character_sheet, name="character_sheet"),
    path(
        "characters/<int:character_id>/state/",
        views_sheet.character_state_action,
        name="character_state_action",
    ),
    path(
        "characters/<int:character_id>/equipment/",
        views_sheet.character_equipment,
        name="character_equipment_change",
    ),
    path(
        "characters/<int:character_id>/equipment/<int:index>/",
        views_sheet.character_equipment,
        name="character_equipment",
    ),
    path(
        "characters/<int:character_id>/live/", views_sheet.character_sheet_live, name="character_sheet_live"
    ),
    path("characters/<int:character_id>/roll/", views_sheet.character_roll_view, name="character_roll"),
    path("characters/<int:character_id>/spend/", views_sheet.character_spend_view, name="character_spend"),
    path("characters/<int:character_id>/rolls/", views_sheet.character_sheet_rolls, name="character_rolls"),
    path("characters/<int:character_id>/odds/", views_sheet.character_roll_odds, name="character_roll_odds"),
    path(
        "characters/<int:character_id>/rolls/<int:roll_id>/",
        views_sheet.character_sheet_roll,
        name="character_roll_detail",
    ),
]
