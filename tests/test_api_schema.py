"""The OpenAPI schema and a schemathesis run over every operation in it: no server errors, ever.

The run is generic: it takes whatever operations the schema lists at run time (each app adds its
own), signed in with a token so that the authenticated endpoints are exercised past the 401.
"""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from characters.accounts.services import account_token_create
from tests import fuzz
from tests.factories import PASSWORD, make_campaign, make_user

ROOT = Path(__file__).resolve().parent.parent
SCHEMATHESIS = Path(sys.executable).with_name("schemathesis")


@pytest.fixture(scope="session")
def schemathesis_cwd(tmp_path_factory) -> Path:
    """Where schemathesis runs: one folder for the session's runs, outside the project (in the project
    it would read schemathesis.toml, which only the every-check runs ask for). Hypothesis keeps its
    table of the characters a codec can write in ``.hypothesis/`` there; in a new folder per run it
    built the table again each time (2.3 s of CPU a run, py-spy: #20)."""
    return tmp_path_factory.mktemp("schemathesis")


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
def test_schemathesis_finds_no_server_error_in_any_operation(
    live_server, monkeypatch, tmp_path, schemathesis_cwd
):
    if not SCHEMATHESIS.exists() and not shutil.which("schemathesis"):
        pytest.skip("schemathesis is not installed (requirements-dev.lock)")
    user = make_user("fuzzer")
    make_campaign(gm=user, name="Fuzzed")  # something for the list and detail endpoints to find
    _, token = account_token_create(user=user, name="schemathesis")
    command = [
        str(SCHEMATHESIS if SCHEMATHESIS.exists() else shutil.which("schemathesis")),
        "run",
        f"{live_server.url}/api/schema/",
        "--checks",
        "not_a_server_error",
        "--max-examples",
        os.environ.get("SCHEMATHESIS_MAX_EXAMPLES", str(fuzz.examples(full=15, smoke=2))),
        "--phases",
        "examples,fuzzing",
        "--header",
        f"Authorization: Token {token}",
        # Revoking the token in use would sign the rest of the run out (tests/characters/accounts/test_tokens.py covers it).
        "--exclude-name",
        "DELETE /api/v1/auth/token/",
        "--seed",
        "20261129",
        "--workers",
        "1",
        "--request-timeout",
        "20",
        "--suppress-health-check",
        "all",
        "--no-shrink",
        "--report",
        "junit",
        "--report-dir",
        os.environ.get("SCHEMATHESIS_REPORT_DIR", str(tmp_path)),
    ]
    result = subprocess.run(command, cwd=schemathesis_cwd, capture_output=True, text=True, timeout=110)
    output = result.stdout + result.stderr
    assert result.returncode == 0, output[-6000:]
    assert "/api/v1/campaigns/" in output or "operations" in output.lower(), output[-2000:]


# ------------------------------------------------------------------ every check, GM and player


def _table_with_everything():
    """A table with one of each thing the API shows: an active and a draft character, a pending and
    a rejected request (reviewed_by null and set), awards in the ledger, a started encounter."""
    from characters.advancement import services as advancement_services
    from characters.models import Advancement, Character
    from combat import services as combat
    from combat.quick_builds import quick_build
    from rulesets.engine import registry
    from tests.characters.sheet.test_sheet_fixtures import make_character

    ruleset = registry.all_rulesets()[0]
    gm, player = make_user("st-gm"), make_user("st-player")
    campaign = make_campaign(gm=gm, ruleset=ruleset.slug, players=[player], name="Schema table")
    active = make_character(ruleset=ruleset.slug, owner=player, campaign=campaign)
    make_character(ruleset=ruleset.slug, owner=player, campaign=campaign, status=Character.Status.DRAFT)
    advancement_services.award_create(
        gm=gm, character_id=active.pk, currency=ruleset.awardable_currencies[0], amount=5, reason="Session"
    )
    for status in (Advancement.Status.PENDING, Advancement.Status.REJECTED):
        Advancement.objects.create(
            character=active,
            requested_by=player,
            base_version=active.version,
            build=active.build,
            note="more",
            cost={},
            status=status,
            reviewed_by=gm if status == Advancement.Status.REJECTED else None,
        )
    encounter = combat.encounter_create(campaign=campaign, user=gm, name="Ambush")
    combat.encounter_add_combatant(encounter=encounter, user=gm, character=active)
    combat.encounter_add_combatant(
        encounter=encounter, user=gm, name="Bandit", build=quick_build(ruleset, campaign)
    )
    combat.encounter_start(encounter=encounter, user=gm)
    return gm, player


def _token(client, user) -> str:
    """A token through the API's own door (whatever the token model is)."""
    response = client.post(
        "/api/v1/auth/token/",
        {"username": user.get_username(), "password": PASSWORD},
        content_type="application/json",
    )
    assert response.status_code == 200, response.content
    return response.json()["token"]


def _failures(output: str) -> int:
    found = re.search(r"(\d+) failures?", output.splitlines()[-1] if output.strip() else "")
    return int(found.group(1)) if found else 0


#: The coverage phase sends every boundary and schema-violating case the schema defines (about 1,500
#: requests per person, three quarters of this test's time): in the full profile only (tests/fuzz.py).
#: The fuzzing phase still sends valid and invalid requests to every operation in both.
EVERY_CHECK_PHASES = "examples,coverage,fuzzing" if fuzz.FULL else "examples,fuzzing"


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("who", ["gm", "player"])
def test_schemathesis_every_check_passes_on_every_operation(
    live_server, client, tmp_path, schemathesis_cwd, who
):
    """``--checks all``: status codes, content types, headers and bodies as documented, schema-valid
    requests accepted (or refused by the rules), schema-violating ones refused, no server error."""
    if not SCHEMATHESIS.exists() and not shutil.which("schemathesis"):
        pytest.skip("schemathesis is not installed (requirements-dev.lock)")
    gm, player = _table_with_everything()
    token = _token(client, gm if who == "gm" else player)
    command = [
        str(SCHEMATHESIS if SCHEMATHESIS.exists() else shutil.which("schemathesis")),
        "--config-file",
        str(ROOT / "schemathesis.toml"),
        "run",
        f"{live_server.url}/api/schema/",
        "--checks",
        "all",
        "--max-examples",
        # Smoke: 2 generated cases per operation and phase (~13 s a person on a quiet machine, 37 s
        # with 5); the full profile keeps 5 and adds the coverage phase.
        os.environ.get("SCHEMATHESIS_MAX_EXAMPLES", str(fuzz.examples(full=5, smoke=2))),
        "--phases",
        os.environ.get("SCHEMATHESIS_PHASES", EVERY_CHECK_PHASES),
        "--header",
        f"Authorization: Token {token}",
        # Revoking the token in use would sign the rest of the run out (tests/characters/accounts/test_tokens.py covers it).
        "--exclude-name",
        "DELETE /api/v1/auth/token/",
        "--seed",
        "20261201",
        "--workers",
        "1",
        "--request-timeout",
        "20",
        "--suppress-health-check",
        "all",
        "--no-shrink",
        "--report",
        "junit",
        "--report-dir",
        os.environ.get("SCHEMATHESIS_REPORT_DIR", str(tmp_path)),
    ]
    result = subprocess.run(command, cwd=schemathesis_cwd, capture_output=True, text=True, timeout=170)
    output = result.stdout + result.stderr
    cases = re.search(r"(\d+) generated", output)
    print(
        f"\nschemathesis --checks all as {who}: {cases.group(1) if cases else '?'} cases, "
        f"{_failures(output)} failures"
    )
    assert result.returncode == 0, output[-8000:]
