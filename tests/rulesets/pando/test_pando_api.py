"""Pando through the rules service's HTTP door (moved from tests/rulesets/test_api.py): the odds of a
roll, and the odds requests it cannot answer."""

from __future__ import annotations

import pytest

from tests.rulesets.test_api import api, post_json  # noqa: F401

pytestmark = pytest.mark.django_db


def test_the_odds_of_a_pando_roll(api):  # noqa: F811
    response = post_json(api, "/api/v1/rulesets/pando/odds/", {"dice": 2, "skill": 3})
    assert response.status_code == 200
    ep = response.json()["ep"]
    assert abs(ep["0"] - 0.25) < 1e-12 and abs(ep["1"] - 0.5) < 1e-12 and abs(ep["2"] - 0.25) < 1e-12


@pytest.mark.parametrize(
    "body", [{"dice": "three", "skill": 2}, {"skill": 2}, {"dice": -1, "skill": 2}, [3, 2]]
)
def test_an_odds_request_the_ruleset_cannot_answer_is_a_400(api, body):  # noqa: F811
    response = post_json(api, "/api/v1/rulesets/pando/odds/", body)
    assert response.status_code == 400
    data = response.json()
    assert set(data) == {"detail", "errors"}
    assert data["detail"].startswith("This odds request cannot be answered")
