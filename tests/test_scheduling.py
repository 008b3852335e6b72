"""make test's scheduler (tests/scheduling.py): which unit a test goes out in, which tests wait to
run alone, and the order of the units."""

from __future__ import annotations

import json

from tests import scheduling


def test_every_browser_test_is_one_unit_and_any_other_goes_with_its_file():
    assert (
        scheduling.unit_of("tests/e2e/test_sheet_play_browser.py::test_axe[slug-phone]") == scheduling.BROWSER
    )
    assert scheduling.unit_of("tests/rulesets/x/e2e/test_x_browser.py::test_y") == scheduling.BROWSER
    assert scheduling.unit_of("tests/test_two_processes.py::test_a[1]") == "tests/test_two_processes.py"


def test_the_tests_marked_alone_are_found_in_their_source():
    # A module's pytestmark and a single test's decorator.
    assert scheduling.is_alone("tests/deploy/test_health_deadline.py::test_anything[param]")
    assert scheduling.is_alone(
        "tests/characters/party/test_party_page.py::"
        "test_the_page_the_party_and_its_odds_take_as_many_queries_for_eight_characters_as_for_two[coin]"
    )
    assert not scheduling.is_alone(
        "tests/characters/party/test_party_page.py::test_only_the_gm_opens_the_party_page_and_its_blocks[coin]"
    )
    assert not scheduling.is_alone("tests/test_settings.py::test_whatever")
    assert not scheduling.is_alone("tests/no_such_file.py::test_x")


def test_durations_are_read_per_unit_and_written_longest_first(tmp_path, monkeypatch):
    xml = tmp_path / "run.xml"
    xml.write_text(
        '<testsuites><testsuite name="pytest">'
        '<testcase classname="tests.e2e.test_a_browser" name="test_walk[one]" time="4.0"/>'
        '<testcase classname="tests.e2e.test_a_browser" name="test_walk[coin]" time="3.5"/>'
        '<testcase classname="tests.test_b" name="test_one" time="1.0"/>'
        '<testcase classname="tests.test_b" name="test_two" time="9.0"/>'
        "</testsuite></testsuites>",
        encoding="utf-8",
    )
    monkeypatch.setattr(scheduling, "DURATIONS", tmp_path / "durations.json")
    scheduling.write_durations(str(xml))
    written = json.loads((tmp_path / "durations.json").read_text(encoding="utf-8"))
    assert list(written.items()) == [("tests/test_b.py", 10.0), (scheduling.BROWSER, 7.5)]
    assert scheduling._known() == written
