import pytest


@pytest.fixture(autouse=True)
def _plain_http_test_settings(settings):
    """Tests talk plain HTTP to the test client and live_server: no TLS redirects or secure cookies,
    and plain static storage (no manifest to build)."""
    settings.SECURE_SSL_REDIRECT = False
    settings.SESSION_COOKIE_SECURE = False
    settings.CSRF_COOKIE_SECURE = False
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
