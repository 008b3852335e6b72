"""Ascendant's messages use the article of the word they name (moved from tests/rulesets/test_words.py,
which checks every ruleset's messages for "a" before a vowel)."""

from __future__ import annotations

from rulesets.engine import registry, validate
from tests.rulesets.test_words import WRONG_ARTICLE, _broken_variants


def test_its_messages_say_an_ancestry_and_an_ancestry_feat():
    ruleset = registry.get("ascendant")
    builds = [ruleset.blank_build("Nameless")] + [example.build for example in ruleset.example_builds()]
    messages = set()
    for build in builds:
        for doc in _broken_variants(build):
            report = validate(doc, slug="ascendant").as_dict()
            messages.update(i["message"] for i in report["errors"] + report.get("warnings", []))
    assert [m for m in messages if WRONG_ARTICLE.search(m)] == []
    assert any(m.startswith("Choose an ancestry: one of Human") for m in messages), messages
    assert any("gives an ancestry feat: choose one (e.g. Natural Ambition" in m for m in messages)
