"""Sign-up and the account page (API tokens); log-in, log-out and password change are Django's own
views with our templates."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from characters.accounts.forms import SignUpForm
from characters.accounts.selectors import account_tokens
from characters.accounts.services import account_register, account_token_revoke
from config.navigation import local_path


def signup(request):
    if request.user.is_authenticated:
        return redirect("home")
    next_url = local_path(request.POST.get("next") or request.GET.get("next"), request) or ""
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            user = account_register(
                username=form.cleaned_data["username"], password=form.cleaned_data["password1"]
            )
        except ValidationError as exc:
            for field, errors in exc.message_dict.items():
                for error in errors:
                    form.add_error(field if field in form.fields else None, error)
        else:
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            messages.success(request, f"Welcome to Sheetforge, {user.get_username()}!")
            return HttpResponseRedirect(next_url or reverse("home"))
    return render(request, "registration/signup.html", {"form": form, "next": next_url})


@login_required
def account(request):
    """The account page: the password-change link and the user's API tokens, each revocable."""
    return render(request, "registration/account.html", {"tokens": account_tokens(user=request.user)})


@login_required
@require_POST
def account_token_revoke_view(request, token_id: int):
    if not account_token_revoke(user=request.user, token_id=token_id):
        raise Http404("You have no such token (already revoked?).")  # somebody else's id leaks nothing
    messages.success(request, "The token is revoked: programs using it are signed out.")
    return redirect("account")
