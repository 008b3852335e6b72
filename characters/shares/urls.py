"""Share links' pages: the shared sheet (anyone with the link) and the list of links (owner, GM).
A token of another shape is a 404 (characters/shares/selectors.py ``TOKEN``)."""

from django.urls import path

from characters.shares import views

urlpatterns = [
    path("s/<str:token>/", views.shared_sheet, name="shared_sheet"),
    path("s/<str:token>/live/", views.shared_sheet_live, name="shared_sheet_live"),
    path("s/<str:token>/rolls/<int:roll_id>/", views.shared_sheet_roll, name="shared_sheet_roll"),
    path("characters/<int:character_id>/shares/", views.character_shares, name="character_shares"),
    path(
        "characters/<int:character_id>/shares/<str:token>/revoke/",
        views.character_share_revoke,
        name="character_share_revoke",
    ),
]
