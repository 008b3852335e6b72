"""Websocket routes of the characters app (config/asgi.py)."""

from django.urls import re_path

from characters.shares.consumers import SharedSheetConsumer
from characters.table.consumers import SheetConsumer, TableFeedConsumer

websocket_urlpatterns: list = [
    re_path(r"^ws/campaigns/(?P<campaign_id>[0-9]{1,18})/rolls/$", TableFeedConsumer.as_asgi()),
    re_path(r"^ws/characters/(?P<character_id>[0-9]{1,18})/sheet/$", SheetConsumer.as_asgi()),
    re_path(r"^ws/s/(?P<token>[A-Za-z0-9_-]{1,100})/$", SharedSheetConsumer.as_asgi()),
]
