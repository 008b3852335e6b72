from django.contrib.auth import views as auth_views
from django.urls import path

from characters.accounts import views as views_accounts
from characters.campaigns import views as views_campaigns

urlpatterns = [
    path("", views_campaigns.home, name="home"),
    # Accounts
    path("accounts/", views_accounts.account, name="account"),
    path(
        "accounts/tokens/<int:token_id>/revoke/",
        views_accounts.account_token_revoke_view,
        name="account_token_revoke",
    ),
    path("accounts/signup/", views_accounts.signup, name="signup"),
    path("accounts/login/", auth_views.LoginView.as_view(redirect_authenticated_user=True), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("accounts/password/", auth_views.PasswordChangeView.as_view(), name="password_change"),
    path("accounts/password/done/", auth_views.PasswordChangeDoneView.as_view(), name="password_change_done"),
    # Campaigns
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
