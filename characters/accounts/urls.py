"""Pages of accounts: sign-up, log-in, log-out, password change, the account page and its tokens."""

from django.contrib.auth import views as auth_views
from django.urls import path

from characters.accounts import views as views_accounts

urlpatterns = [
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
]
