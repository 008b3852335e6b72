"""Maelstrom dice: the seed's worked rolls, exact odds against brute force, and refusals."""

import itertools
from fractions import Fraction

import pytest

from rulesets.engine import FixedRoller, OddsError, odds
from rulesets.systems.maelstrom import RULESET, dice


def brute_force(pool: int, difficulty: int, threshold: int) -> dict:
    """Every one of the 10**pool ordered rolls, counted exactly."""
    counts: dict[str, Fraction] = {}
    weight = Fraction(1, 10**pool)
    for faces in itertools.product(range(1, 11), repeat=pool):
        result = RULESET.roll(
            {"pool": pool, "difficulty": difficulty, "threshold": threshold}, FixedRoller(faces)
        )
        key = result["outcome"] if result["outcome"] != "success" else str(result["total"])
        counts[key] = counts.get(key, Fraction(0)) + weight
    return counts


@pytest.mark.parametrize(
    "faces, difficulty, threshold, outcome, total",
    [
        ((1, 3, 4, 6, 7), 6, 0, "success", 1),  # the seed: two successes, one botch cancels one
        ((1, 3, 4, 6, 7), 8, 0, "botch", 0),  # "had the difficulty been higher": no success, a botch
        ((6, 7, 1), 6, 2, "botch", 0),  # the seed: threshold 2 removes both successes; the botch stands
        ((6, 7, 2), 6, 2, "failure", 0),  # threshold eats both successes, no botch
        ((6, 7, 8, 1), 6, 2, "failure", 0),  # one success left, cancelled by the botch
        ((10, 10, 10, 1), 6, 1, "success", 1),
        ((2, 3, 4), 6, 0, "failure", 0),
        ((1, 1, 9), 6, 0, "botch", 0),
        ((2, 2), 2, 0, "success", 2),  # difficulty 2: every face but 1 succeeds
    ],
)
def test_roll_counts_successes_botches_and_threshold(faces, difficulty, threshold, outcome, total):
    result = RULESET.roll(
        {"pool": len(faces), "difficulty": difficulty, "threshold": threshold}, FixedRoller(faces)
    )
    assert result["faces"] == list(faces)
    assert (result["outcome"], result["total"]) == (outcome, total)
    assert result["text"]


def test_the_seed_example_reads_as_one_success():
    result = RULESET.roll({"pool": 5, "difficulty": 6}, FixedRoller([1, 3, 4, 6, 7]))
    assert result["successes"] == 2 and result["botches"] == 1
    assert result["text"].endswith("→ 1 success.")


def test_a_botch_counts_its_uncancelled_botches():
    result = RULESET.roll({"pool": 4, "difficulty": 6, "threshold": 1}, FixedRoller([1, 1, 1, 7]))
    assert result["outcome"] == "botch" and result["uncancelled_botches"] == 3


@pytest.mark.parametrize("pool", [0, 1, 2, 3])
@pytest.mark.parametrize("difficulty", range(2, 11))
@pytest.mark.parametrize("threshold", [0, 1, 2])
def test_odds_match_brute_force(pool, difficulty, threshold):
    exact = brute_force(pool, difficulty, threshold)
    answer = odds("maelstrom", {"pool": pool, "difficulty": difficulty, "threshold": threshold})
    assert answer["botch"] == pytest.approx(float(exact.get("botch", 0)), abs=1e-12)
    assert answer["failure"] == pytest.approx(float(exact.get("failure", 0)), abs=1e-12)
    expected = {k: float(v) for k, v in exact.items() if k not in ("botch", "failure")}
    assert answer["successes"].keys() == expected.keys()
    for key, p in expected.items():
        assert answer["successes"][key] == pytest.approx(p, abs=1e-12)


@pytest.mark.parametrize("difficulty, threshold", [(6, 0), (8, 2), (3, 1)])
def test_odds_match_brute_force_for_four_dice(difficulty, threshold):
    exact = brute_force(4, difficulty, threshold)
    answer = odds("maelstrom", {"pool": 4, "difficulty": difficulty, "threshold": threshold})
    assert answer["botch"] == pytest.approx(float(exact.get("botch", 0)), abs=1e-12)
    for key, p in answer["successes"].items():
        assert p == pytest.approx(float(exact[key]), abs=1e-12)


def test_one_die_at_difficulty_six_by_hand():
    answer = odds("maelstrom", {"pool": 1, "difficulty": 6, "threshold": 0})
    assert answer["botch"] == pytest.approx(0.1)
    assert answer["failure"] == pytest.approx(0.4)
    assert answer["successes"] == pytest.approx({"1": 0.5})


@pytest.mark.parametrize("pool", [0, 1, 5, 10, 20, 30])
@pytest.mark.parametrize("difficulty", [2, 6, 10])
@pytest.mark.parametrize("threshold", [0, 3, 40])
def test_odds_sum_to_one(pool, difficulty, threshold):
    answer = odds("maelstrom", {"pool": pool, "difficulty": difficulty, "threshold": threshold})
    assert abs(answer["botch"] + answer["failure"] + sum(answer["successes"].values()) - 1) < 1e-9


def test_a_threshold_can_leave_no_successes_at_all():
    answer = odds("maelstrom", {"pool": 3, "difficulty": 6, "threshold": 3})
    assert answer["successes"] == {}
    assert answer["botch"] == pytest.approx(1 - 0.9**3)


def test_difficulty_and_threshold_default_to_six_and_zero():
    assert odds("maelstrom", {"pool": 4}) == odds("maelstrom", {"pool": 4, "difficulty": 6, "threshold": 0})


@pytest.mark.parametrize(
    "request_",
    [
        {"pool": 31},
        {"pool": -1},
        {"pool": 2.5},
        {"pool": True},
        {"pool": 3, "difficulty": 1},
        {"pool": 3, "difficulty": 11},
        {"pool": 3, "difficulty": "6"},
        {"pool": 3, "threshold": -1},
        {"difficulty": 6},
        {"pool": 3, "dificulty": 7},
        [5, 6],
    ],
)
def test_bad_requests_raise_odds_error(request_):
    with pytest.raises(OddsError):
        odds("maelstrom", request_)
    with pytest.raises(OddsError):
        RULESET.roll(request_, FixedRoller([5] * 40))


def test_odds_for_pool_ten_uncached():
    # Its latency is measured in bench/run.py, not here.
    dice._distribution.cache_clear()
    answer = odds("maelstrom", {"pool": 10, "difficulty": 6, "threshold": 0})
    assert answer["successes"]["10"] == pytest.approx(0.5**10)


@pytest.mark.parametrize("pool", range(1, 11))
@pytest.mark.parametrize("threshold", [0, 2, 5])
def test_no_successes_is_a_failure_or_a_botch_never_a_count_of_zero(pool, threshold):
    answer = RULESET.odds({"pool": pool, "difficulty": 7, "threshold": threshold})
    assert "0" not in answer["successes"]
    assert sum(answer["successes"].values()) + answer["botch"] + answer["failure"] == pytest.approx(
        1, abs=1e-9
    )
