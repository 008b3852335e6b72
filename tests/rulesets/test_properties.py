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

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulesets.engine import OddsError, registry, validate
from rulesets.engine import odds as engine_odds
from tests import fuzz

from .test_contract import assert_contract_report

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
    | st.sampled_from(["", *registry.SYSTEMS, "strength", "left_arm", "melee", "d6", "x" * 200])
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
    """Real builds of ``slug`` to mutate: the blank build, the typical build, the examples."""
    ruleset = registry.get(slug)
    builds = [ruleset.blank_build("Mutant"), ruleset.contract_data()["typical"]]
    return builds + [copy.deepcopy(e.build) for e in ruleset.example_builds()]


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


def _range(spec: dict):
    if "choices" in spec:
        return st.sampled_from(spec["choices"])
    return st.integers(min_value=spec["min"], max_value=spec["max"])


def odds_requests(slug: str):
    """Requests inside the contract's ranges (the ruleset's ``odds_ranges``, CONTRACT.md "Odds")."""
    ranges = registry.get(slug).contract_data()["odds_ranges"]
    return st.fixed_dictionaries({key: _range(spec) for key, spec in ranges.items()})


def _is_p(p) -> bool:
    return isinstance(p, float | int) and not isinstance(p, bool) and 0.0 <= p <= 1.0 and math.isfinite(p)


def _whole_number_keys(d: dict) -> bool:
    return all(isinstance(k, str) and k.isdigit() for k in d)


def assert_sound_answer(slug: str, answer: dict) -> None:
    """The answer has the shape the ruleset declares (``odds_shape``), and its distribution is exact
    to 1e-9 (one listed probability: it and its complement)."""
    json.dumps(answer, allow_nan=False)
    shape = registry.get(slug).contract_data()["odds_shape"]
    keys = set(shape.get("keys", []))
    assert set(answer) == keys if shape.get("exact_keys") else set(answer) >= keys, answer
    if "distribution" in shape:
        ps = []
        for part in shape["distribution"]:
            if part.endswith(".*"):
                inner = answer[part[:-2]]
                assert isinstance(inner, dict) and _whole_number_keys(inner), answer
                ps += list(inner.values())
            else:
                ps.append(answer[part])
    else:  # the answer's top-level numbers are the distribution
        ps = [v for v in answer.values() if isinstance(v, float | int) and not isinstance(v, bool)]
    if len(ps) == 1:
        ps.append(1 - ps[0])
    assert all(_is_p(p) for p in ps), answer
    assert abs(sum(ps) - 1) < 1e-9, (answer, sum(ps))


@pytest.mark.parametrize("slug", registry.SYSTEMS)
@PROPERTY
@given(data=st.data())
def test_odds_in_range_are_exact_distributions(slug, data):
    request = data.draw(odds_requests(slug))
    assert_sound_answer(slug, engine_odds(slug, request))


#: Every key any ruleset's odds request has.
ODDS_KEYS = sorted({key for rs in registry.all_rulesets() for key in rs.contract_data()["odds_ranges"]})
WRONG_TYPES = ["3", None, 2.5, True, [3], {"n": 3}]


@pytest.mark.parametrize("slug", registry.SYSTEMS)
@PROPERTY
@given(data=st.data())
def test_odds_of_a_broken_request_is_an_odds_error(slug, data):
    contract = registry.get(slug).contract_data()
    request = dict(data.draw(odds_requests(slug)))
    key = data.draw(st.sampled_from(sorted(request)))
    how = data.draw(st.sampled_from(["wrong_type", "missing", "count"]))
    if how == "missing" and contract["odds_required_key"]:
        del request[contract["odds_required_key"]]
    elif how == "count" and contract["odds_count_key"]:
        request[contract["odds_count_key"]] = data.draw(st.sampled_from([-1, -1000, 1000, 10**9]))
    else:
        request[key] = data.draw(
            st.sampled_from(WRONG_TYPES + (["sideways"] if "choices" in contract["odds_ranges"][key] else []))
        )
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
