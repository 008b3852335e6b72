"""The OpenAPI schema and a schemathesis run over every operation in it: no server errors, ever.

The run is generic: it takes whatever operations the schema lists at run time (each app adds its
own), signed in with a token so that the authenticated endpoints are exercised past the 401.
"""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from characters.services.accounts import account_token_create
from tests.factories import make_campaign, make_user

ROOT = Path(__file__).resolve().parent.parent
SCHEMATHESIS = Path(sys.executable).with_name("schemathesis")


@pytest.mark.django_db
def test_the_schema_documents_the_contracts_campaign_and_auth_paths(client):
    response = client.get("/api/schema/", HTTP_ACCEPT="application/json")
    assert response.status_code == 200
    paths = response.json()["paths"]
    for path, methods in {
        "/api/v1/auth/register/": {"post"},
        "/api/v1/auth/token/": {"post"},
        "/api/v1/campaigns/": {"get", "post"},
        "/api/v1/campaigns/join/": {"post"},
        "/api/v1/campaigns/{id}/": {"get", "patch"},
        "/api/v1/campaigns/{id}/leave/": {"post"},
        "/api/v1/campaigns/{id}/members/{user_id}/": {"delete"},
        "/api/v1/campaigns/{id}/join-code/": {"post"},
    }.items():
        assert methods <= set(paths[path]), path
    detail = paths["/api/v1/campaigns/{id}/"]
    assert {"200", "401", "404"} <= set(detail["get"]["responses"])
    assert {"400", "403", "404"} <= set(detail["patch"]["responses"])


@pytest.mark.django_db
def test_the_docs_page_is_served_without_a_cdn(client):
    html = client.get("/api/docs/").content.decode()
    assert "swagger-ui" in html
    assert "cdn.jsdelivr" not in html and "unpkg.com" not in html


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_schemathesis_finds_no_server_error_in_any_operation(live_server, monkeypatch, tmp_path):
    if not SCHEMATHESIS.exists() and not shutil.which("schemathesis"):
        pytest.skip("schemathesis is not installed (requirements-dev.lock)")
    user = make_user("fuzzer")
    make_campaign(gm=user, name="Fuzzed")  # something for the list and detail endpoints to find
    _, token = account_token_create(user=user, name="schemathesis")
    command = [
        str(SCHEMATHESIS if SCHEMATHESIS.exists() else shutil.which("schemathesis")),
        "run",
        f"{live_server.url}/api/schema/",
        "--checks", "not_a_server_error",
        "--max-examples", os.environ.get("SCHEMATHESIS_MAX_EXAMPLES", "15"),
        "--phases", "examples,fuzzing",
        "--header", f"Authorization: Token {token}",
        # Revoking the token in use would sign the rest of the run out (tests/characters/test_tokens.py covers it).
        "--exclude-name", "DELETE /api/v1/auth/token/",
        "--seed", "20261129",
        "--workers", "1",
        "--request-timeout", "20",
        "--suppress-health-check", "all",
        "--no-shrink",
        "--report", "junit",
        "--report-dir", os.environ.get("SCHEMATHESIS_REPORT_DIR", str(tmp_path)),
    ]
    result = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, timeout=110)
    output = result.stdout + result.stderr
    assert result.returncode == 0, output[-6000:]
    assert "/api/v1/campaigns/" in output or "operations" in output.lower(), output[-2000:]
