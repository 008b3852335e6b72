"""The campaign page's webhooks block and a hook's deliveries (the GM's)."""

from django.urls import path

from characters.webhooks import views

urlpatterns = [
    path("campaigns/<int:campaign_id>/webhooks/", views.webhook_add, name="campaign_webhook_add"),
    path(
        "campaigns/<int:campaign_id>/webhooks/<int:webhook_id>/", views.webhook_page, name="campaign_webhook"
    ),
    path(
        "campaigns/<int:campaign_id>/webhooks/<int:webhook_id>/rotate/",
        views.webhook_rotate,
        name="campaign_webhook_rotate",
    ),
    path(
        "campaigns/<int:campaign_id>/webhooks/<int:webhook_id>/remove/",
        views.webhook_remove,
        name="campaign_webhook_remove",
    ),
]
