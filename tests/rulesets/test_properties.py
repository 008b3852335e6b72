"""Properties of the rules service over arbitrary input, for every ruleset in the registry.

- Any JSON at all, and any mutation of a real build (a leaf or key swapped for junk, a key
  dropped, a value wrapped in a list), gets a contract-shaped report; the service never raises
  and never falls back to its safety net ("could not read this build"): the rulesets handle bad
  types themselves, with a ``build.malformed`` at the bad value's path.
- Odds in the contract's ranges are exact distributions: every p in [0, 1], summing to 1 within
  1e-9; a request out of range or of the wrong type is an ``OddsError``, never anything else.
"""

from __future__ import annotations

import copy
import json
import math
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulesets.engine import OddsError, registry, validate
from rulesets.engine import odds as engine_odds
from tests import fuzz

from .test_contract import assert_contract_report

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = Path(__file__).parent / "examples"
SAFETY_NET = "could not read this build"

PROPERTY = settings(
    max_examples=fuzz.examples(full=200, smoke=40),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(min_value=-3, max_value=12)  # the numbers rules care about, more often
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=20)
    | st.sampled_from(["", "pando", "strength", "left_arm", "melee", "d6", "x" * 200])
)
json_values = st.recursive(
    scalars,
    lambda children: (
        st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=12), children, max_size=5)
    ),
    max_leaves=15,
)

#: Junk for mutations: shallow, so that hypothesis spends its time on where to break, not on what.
junk_values = (
    scalars | st.lists(scalars, max_size=3) | st.dictionaries(st.text(max_size=8), scalars, max_size=3)
)


def seed_builds(slug: str) -> list[dict]:
    """Real builds of ``slug`` to mutate: the blank build, the bench's typical build, the examples."""
    builds = [registry.get(slug).blank_build("Mutant")]
    typical = ROOT / "bench" / "builds" / f"{slug}_typical.json"
    if typical.exists():
        builds.append(json.loads(typical.read_text()))
    builds += [json.loads(p.read_text())["build"] for p in sorted((EXAMPLES / slug).glob("*.json"))]
    return builds


def _pointers(node, prefix=()):
    yield prefix
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _pointers(value, (*prefix, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _pointers(value, (*prefix, index))


def _parent(doc, path):
    node = doc
    for token in path[:-1]:
        node = node[token]
    return node


@st.composite
def mutated_builds(draw, base: dict):
    """``base`` with one to four things broken in it."""
    doc = copy.deepcopy(base)
    for _ in range(draw(st.integers(min_value=1, max_value=4))):
        path = draw(st.sampled_from(list(_pointers(doc))))
        op = draw(st.sampled_from(["replace", "replace", "drop", "rename", "wrap", "add"]))
        junk = draw(junk_values)
        if not path:
            if op == "replace":
                return junk
            if op == "add" and isinstance(doc, dict):
                doc[draw(st.text(max_size=12))] = junk
            continue
        parent, last = _parent(doc, path), path[-1]
        if op == "replace":
            parent[last] = junk
        elif op == "drop":
            del parent[last]
        elif op == "wrap":
            parent[last] = [parent[last]]
        elif op == "rename" and isinstance(parent, dict):
            parent[draw(st.text(max_size=12))] = parent.pop(last)
        elif op == "add" and isinstance(parent[last], dict):
            parent[last][draw(st.text(max_size=12))] = junk
        elif op == "add" and isinstance(parent[last], list):
            parent[last].append(junk)
    return doc


def assert_sound_report(doc, slug: str) -> None:
    report = validate(doc, slug=slug).as_dict()
    assert_contract_report(report)
    safety = [e for e in report["errors"] if SAFETY_NET in e["message"]]
    assert not safety, f"{slug} fell back to the safety net on {json.dumps(doc)[:2000]}"


@pytest.mark.parametrize("slug", registry.SYSTEMS)
@PROPERTY
@given(doc=json_values)
def test_any_json_gets_a_contract_report(slug, doc):
    assert_sound_report(doc, slug)
    if isinstance(doc, dict):
        assert_sound_report({**doc, "ruleset": slug}, slug)


@pytest.mark.parametrize("slug", registry.SYSTEMS)
@PROPERTY
@given(data=st.data())
def test_a_mutated_build_gets_a_contract_report(slug, data):
    base = data.draw(st.sampled_from(seed_builds(slug)))
    doc = data.draw(mutated_builds(base))
    assert_sound_report(doc, slug)


# ---------------------------------------------------------------------------------------- odds


def _ints(lo, hi):
    return st.integers(min_value=lo, max_value=hi)


#: Requests inside the contract's ranges (CONTRACT.md "Odds", RULES.md): up to 10 dice.
ODDS_REQUESTS = {
    "pando": st.fixed_dictionaries({"dice": _ints(1, 10), "skill": _ints(0, 6)}),
    "paragon": st.fixed_dictionaries({"force": _ints(0, 5), "skill": _ints(0, 5), "tn": _ints(1, 60)}),
    "ascendant": st.fixed_dictionaries({"modifier": _ints(-10, 30), "threshold": _ints(1, 40)}),
    "ourdnd": st.fixed_dictionaries(
        {"stat": _ints(-5, 10), "td": _ints(1, 30), "mode": st.sampled_from(["normal", "easy", "hard"])}
    ),
    "maelstrom": st.fixed_dictionaries(
        {"pool": _ints(1, 10), "difficulty": _ints(2, 10), "threshold": _ints(0, 5)}
    ),
}
#: A key of each request that counts dice (or ranks) and must refuse -1 and 1000.
COUNT_KEY = {"pando": "dice", "paragon": "force", "ascendant": None, "ourdnd": None, "maelstrom": "pool"}
#: Keys without which there is no roll to price (others, such as Maelstrom's difficulty, may default).
REQUIRED_KEY = {
    "pando": "dice",
    "paragon": "tn",
    "ascendant": "threshold",
    "ourdnd": "td",
    "maelstrom": "pool",
}


def _is_p(p) -> bool:
    return isinstance(p, float | int) and not isinstance(p, bool) and 0.0 <= p <= 1.0 and math.isfinite(p)


def _whole_number_keys(d: dict) -> bool:
    return all(isinstance(k, str) and k.isdigit() for k in d)


def assert_sound_answer(slug: str, answer: dict) -> None:
    """The shape of each ruleset's answer (CONTRACT.md "Odds"), exact to 1e-9."""
    json.dumps(answer, allow_nan=False)
    if slug == "pando":
        assert set(answer) == {"ep"} and _whole_number_keys(answer["ep"])
        ps = list(answer["ep"].values())
    elif slug == "paragon":
        assert set(answer) >= {"pass"}
        ps = [answer["pass"], 1 - answer["pass"]]
    elif slug == "ascendant":
        assert set(answer) == {"critical_success", "success", "failure", "critical_failure"}
        ps = list(answer.values())
    elif slug == "ourdnd":
        assert set(answer) >= {"success", "critical", "blunder"}
        ps = [answer["success"], 1 - answer["success"]]
        assert answer["critical"] <= answer["success"] + 1e-12  # a natural 20 always succeeds
        assert answer["blunder"] <= 1 - answer["success"] + 1e-12  # a natural 1 always fails
        assert _is_p(answer["critical"]) and _is_p(answer["blunder"])
    elif slug == "maelstrom":
        assert set(answer) >= {"botch", "failure", "successes"} and _whole_number_keys(answer["successes"])
        assert "0" not in answer["successes"]
        ps = [answer["botch"], answer["failure"], *answer["successes"].values()]
    else:  # a ruleset this test does not know yet: at least every number is a probability
        ps = [v for v in answer.values() if isinstance(v, float)]
        assert abs(sum(ps) - 1) < 1e-9 or len(ps) <= 1
    assert all(_is_p(p) for p in ps), answer
    assert abs(sum(ps) - 1) < 1e-9, (answer, sum(ps))


@pytest.mark.parametrize("slug", registry.SYSTEMS)
def test_odds_has_a_request_strategy_for_every_ruleset(slug):
    assert slug in ODDS_REQUESTS


@pytest.mark.parametrize("slug", registry.SYSTEMS)
@PROPERTY
@given(data=st.data())
def test_odds_in_range_are_exact_distributions(slug, data):
    request = data.draw(ODDS_REQUESTS[slug])
    assert_sound_answer(slug, engine_odds(slug, request))


ODDS_KEYS = [
    "dice",
    "skill",
    "force",
    "tn",
    "modifier",
    "threshold",
    "stat",
    "td",
    "mode",
    "pool",
    "difficulty",
]
WRONG_TYPES = ["3", None, 2.5, True, [3], {"n": 3}]


@pytest.mark.parametrize("slug", registry.SYSTEMS)
@PROPERTY
@given(data=st.data())
def test_odds_of_a_broken_request_is_an_odds_error(slug, data):
    request = dict(data.draw(ODDS_REQUESTS[slug]))
    key = data.draw(st.sampled_from(sorted(request)))
    how = data.draw(st.sampled_from(["wrong_type", "missing", "count"]))
    if how == "missing":
        del request[REQUIRED_KEY[slug]]
    elif how == "count" and COUNT_KEY[slug]:
        request[COUNT_KEY[slug]] = data.draw(st.sampled_from([-1, -1000, 1000, 10**9]))
    else:
        request[key] = data.draw(st.sampled_from(WRONG_TYPES + (["sideways"] if key == "mode" else [])))
    with pytest.raises(OddsError):
        engine_odds(slug, request)


@pytest.mark.parametrize("slug", registry.SYSTEMS)
@settings(PROPERTY, max_examples=fuzz.examples(full=100, smoke=20))
@given(request=json_values | st.dictionaries(st.sampled_from(ODDS_KEYS), scalars, max_size=4))
def test_odds_of_any_json_is_an_answer_or_an_odds_error(slug, request):
    try:
        answer = engine_odds(slug, request)
    except OddsError as exc:
        assert str(exc).strip()
        return
    assert isinstance(request, dict)
    assert_sound_answer(slug, answer)


# ------------------------------------------------------------------ huge numbers


class _TooSlow(BaseException):  # not an Exception: the ruleset's safety net must not swallow it
    pass


def _int_leaves(node, prefix=()):
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _int_leaves(value, (*prefix, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _int_leaves(value, (*prefix, index))
    elif isinstance(node, int) and not isinstance(node, bool):
        yield prefix


@pytest.mark.parametrize("slug", registry.SYSTEMS)
@pytest.mark.parametrize("huge", [10**9, -(10**9), 10**300], ids=["1e9", "-1e9", "1e300"])
def test_a_huge_number_anywhere_in_a_build_costs_no_more_than_a_small_one(slug, huge):
    """A 100-byte body must not buy seconds of CPU: a rank of a billion is refused, not looped over."""
    import signal

    def _alarm(signum, frame):
        raise _TooSlow

    slow = []
    previous = signal.signal(signal.SIGPROF, _alarm)  # CPU time: a busy machine does not count
    try:
        for base in seed_builds(slug):
            for path in _int_leaves(base):
                doc = copy.deepcopy(base)
                _parent(doc, path)[path[-1]] = huge
                signal.setitimer(signal.ITIMER_PROF, 1.0)
                try:
                    assert_sound_report(doc, slug)
                except _TooSlow:
                    slow.append("/" + "/".join(map(str, path)))
                    break  # one slow path per build says enough, and keeps this test fast
                finally:
                    signal.setitimer(signal.ITIMER_PROF, 0)
    finally:
        signal.signal(signal.SIGPROF, previous)
    assert not slow, f"{slug}: validating took over 1 CPU s with {str(huge)[:12]}… at {slow}"
