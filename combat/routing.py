"""Websocket routes (config/asgi.py)."""

from django.urls import re_path

from combat.consumers import EncounterConsumer

websocket_urlpatterns: list = [
    re_path(r"^ws/encounters/(?P<encounter_id>[0-9]{1,18})/$", EncounterConsumer.as_asgi()),
]
