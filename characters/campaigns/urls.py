from django.urls import path

from characters.campaigns import views as views_campaigns

urlpatterns = [
    path("", views_campaigns.home, name="home"),
    path("campaigns/", views_campaigns.campaign_list, name="campaign_list"),
    path("campaigns/new/", views_campaigns.campaign_create, name="campaign_create"),
    path("campaigns/join/", views_campaigns.campaign_join, name="campaign_join"),
    path("campaigns/<int:campaign_id>/", views_campaigns.campaign_detail, name="campaign_detail"),
    path("campaigns/<int:campaign_id>/rolls/", views_campaigns.campaign_feed, name="campaign_feed"),
    path(
        "campaigns/<int:campaign_id>/settings/", views_campaigns.campaign_settings, name="campaign_settings"
    ),
    path("campaigns/<int:campaign_id>/leave/", views_campaigns.campaign_leave, name="campaign_leave"),
    path(
        "campaigns/<int:campaign_id>/members/<int:user_id>/remove/",
        views_campaigns.campaign_remove_member,
        name="campaign_remove_member",
    ),
    path(
        "campaigns/<int:campaign_id>/join-code/",
        views_campaigns.campaign_regenerate_code,
        name="campaign_regenerate_code",
    ),
]
