"""The engine's small English helpers, and the articles in the messages every ruleset writes."""

from __future__ import annotations

import copy
import re

import pytest

from rulesets.engine import registry, validate
from rulesets.engine.context import ContextMixin
from rulesets.engine.words import a, article, few, where


@pytest.mark.parametrize(
    ("word", "expected"),
    [
        ("ancestry", "an ancestry"),
        ("Our Keep", "an Our Keep"),
        ("archetype feat", "an archetype feat"),
        ("class feat", "a class feat"),
        ("general", "a general"),
        ("advanced", "an advanced"),
        ("unique", "a unique"),
        ("umbrella", "an umbrella"),
        ("one-handed", "a one-handed"),
        ("hour", "an hour"),
        ("NPC", "an NPC"),
        ("GM", "a GM"),
        ("NEAR", "a NEAR"),
        ("OUT OF RANGE", "an OUT OF RANGE"),
        ("8", "an 8"),
        ("18", "an 18"),
        ("12", "a 12"),
        ("", ""),
    ],
)
def test_the_article_comes_from_the_first_sound(word, expected):
    assert a(word) == expected


def test_article_alone():
    assert article("Ancestry") == "an"
    assert article("Marsh") == "a"


def test_where_says_a_pointer_in_words():
    assert where("/skills/0/id") == "Skills, entry 1, id"
    assert where("/starting_budget/skill_points") == "Starting budget, skill points"
    assert where("/ruleset", {"ruleset": "Ruleset"}) == "Ruleset"
    assert where("") == ""
    assert where("not a pointer") == ""


def test_few_names_ids_by_the_catalogue():
    cat = {"rock_dwarf": {"name": "Rock Dwarf"}, "elf": {"name": "Elf"}}
    assert few(["rock_dwarf", "elf", "gnome"], names=cat) == "Rock Dwarf, Elf, gnome"
    assert few(["a", "b", "c"], 2) == "a, b, …"
    assert few([]) == "none"


#: "a" before a vowel sound, "an" before a consonant sound (the games have no "a unique", "an hour").
WRONG_ARTICLE = re.compile(
    r"\b[Aa] (?!one|uni|use|usu|uti|eu)[aeiouAEIOU]\w*|\b[Aa]n (?![aeiouAEIOU]|hour|hon|NPC|XP|HP|8|18|11)\w+"
)


def _broken_variants(build: dict) -> list[dict]:
    """The build, and copies with each value (to two levels down) replaced by something wrong."""
    out = [build]
    wrong = (None, "nonsense", 99, -1, [], {}, "elf", "advanced", "general", {"kind": "advanced"})
    for key, value in build.items():
        if key in ("format", "ruleset"):
            continue
        for bad in wrong:
            doc = copy.deepcopy(build)
            doc[key] = bad
            out.append(doc)
        inner = (
            value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else []
        )
        for k2, _ in list(inner):
            for bad in wrong:
                doc = copy.deepcopy(build)
                doc[key][k2] = bad
                out.append(doc)
    return out


@pytest.mark.parametrize("slug", registry.SYSTEMS)
def test_no_message_of_any_ruleset_puts_a_before_a_vowel(slug):
    ruleset = registry.get(slug)
    builds = [ruleset.blank_build("Nameless")]
    builds += [example.build for example in ruleset.example_builds()]
    messages = set()
    for build in builds:
        for doc in _broken_variants(build):
            report = validate(doc, slug=slug).as_dict()
            messages.update(i["message"] for i in report["errors"] + report.get("warnings", []))
    assert len(messages) >= 5  # broken builds give messages to read, not a vacuous pass
    assert [m for m in messages if WRONG_ARTICLE.search(m)] == []


@pytest.mark.parametrize("slug", registry.slugs())
def test_a_house_rule_of_the_wrong_kind_is_named_in_words_without_its_default_pasted(slug):
    """The engine's check of a house rule's kind (rulesets/engine/context.py), for every house default of
    every ruleset: the warning names the rule by its words (house_labels) and pastes no raw dict or
    list; a number or text rule keeps its default. (A ruleset's own checks of its tables word theirs.)"""
    ruleset = registry.get(slug)
    labels = ruleset.house_labels()
    checked = 0
    for key, default in ruleset.house_defaults.items():
        wrong = 10 if isinstance(default, str) else "ten"
        if default is None:
            continue
        (issue,) = ContextMixin.check_settings(ruleset, {key: wrong})
        assert issue.code == "settings.malformed" and issue.path == f"/{key}"
        label = (labels.get(key) or {}).get("label") or key.replace("_", " ")
        assert f"“{label}”" in issue.message
        if isinstance(default, (dict, list)):
            assert "{" not in issue.message and "[" not in issue.message, issue.message
            checked += 1
        else:
            assert f"like its default {default!r}" in issue.message
    assert checked or not any(isinstance(d, (dict, list)) for d in ruleset.house_defaults.values())
