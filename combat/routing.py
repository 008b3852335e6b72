"""Websocket routes (config/asgi.py)."""

websocket_urlpatterns: list = []
