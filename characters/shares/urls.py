"""Share links' pages: the shared sheet (anyone with the link) and the list of links (owner, GM)."""

from django.urls import path, re_path

from characters.shares import views

TOKEN = r"(?P<token>[A-Za-z0-9_-]{1,100})"

urlpatterns = [
    re_path(rf"^s/{TOKEN}/$", views.shared_sheet, name="shared_sheet"),
    re_path(rf"^s/{TOKEN}/live/$", views.shared_sheet_live, name="shared_sheet_live"),
    re_path(
        rf"^s/{TOKEN}/rolls/(?P<roll_id>[0-9]{{1,18}})/$", views.shared_sheet_roll, name="shared_sheet_roll"
    ),
    path("characters/<int:character_id>/shares/", views.character_shares, name="character_shares"),
    re_path(
        rf"^characters/(?P<character_id>[0-9]{{1,18}})/shares/{TOKEN}/revoke/$",
        views.character_share_revoke,
        name="character_share_revoke",
    ),
]
