"""The tests' one-write ``force_login`` (tests/conftest.py) gives the session Django's would: the
user signed in, another user's session replaced, an anonymous session's data kept, the same user's
session kept. A
sign-in through the form still goes through Django's ``login()``."""

from __future__ import annotations

import pytest
from django.contrib.auth import SESSION_KEY
from django.contrib.sessions.models import Session
from django.test import Client
from django.urls import reverse

from tests.factories import PASSWORD, make_user

pytestmark = pytest.mark.django_db


def _session_key(client: Client) -> str:
    return client.cookies["sessionid"].value


def test_the_client_is_signed_in_as_the_user_and_the_account_page_says_so():
    mira = make_user("mira")
    client = Client()
    client.force_login(mira)
    assert client.session[SESSION_KEY] == str(mira.pk)
    page = client.get(reverse("account"))
    assert page.status_code == 200
    assert "mira" in page.content.decode()


def test_another_user_s_session_is_replaced_and_its_data_dropped():
    mira, tomas = make_user("mira"), make_user("tomas")
    client = Client()
    client.force_login(mira)
    session = client.session
    session["kept"] = "mira's"
    session.save()
    first = _session_key(client)
    client.force_login(tomas)
    assert client.session[SESSION_KEY] == str(tomas.pk)
    assert "kept" not in client.session
    assert not Session.objects.filter(session_key=first).exists()
    assert client.get(reverse("account")).context["user"] == tomas


def test_an_anonymous_session_keeps_its_data_under_a_new_key_and_the_same_user_keeps_the_session():
    mira = make_user("mira")
    client = Client()
    session = client.session  # anonymous: Django's test client saves it
    session["kept"] = "before sign-in"
    session.save()
    anonymous = _session_key(client)
    client.force_login(mira)
    assert client.session["kept"] == "before sign-in"
    assert _session_key(client) != anonymous
    assert not Session.objects.filter(session_key=anonymous).exists()
    signed_in = _session_key(client)
    client.force_login(mira)
    assert client.session["kept"] == "before sign-in"
    assert _session_key(client) == signed_in


def test_a_sign_in_through_the_form_still_sends_user_logged_in():
    """Only force_login is the tests' own: a person's sign-in runs Django's ``login()`` and its signal."""
    mira = make_user("mira")
    assert mira.last_login is None
    client = Client()
    response = client.post(reverse("login"), {"username": "mira", "password": PASSWORD})
    assert response.status_code == 302
    mira.refresh_from_db()
    assert mira.last_login is not None
    assert client.session[SESSION_KEY] == str(mira.pk)
