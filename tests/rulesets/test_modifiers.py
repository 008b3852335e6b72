import pytest

from rulesets.engine.modifiers import stack


def mod(value, kind=None, source=""):
    return {"value": value, "type": kind, "source": source or f"{kind} {value:+d}"}


@pytest.mark.parametrize(
    ("modifiers", "total", "applied_sources"),
    [
        # the seed's own example: a +1 and a +2 status bonus give +2
        ([mod(1, "status", "song"), mod(2, "status", "spell")], 2, ["spell"]),
        # untyped penalties all apply
        ([mod(-1, None, "a"), mod(-2, None, "b")], -3, ["a", "b"]),
        # only the worst penalty of a type
        ([mod(-1, "status", "sickened 1"), mod(-2, "status", "frightened 2")], -2, ["frightened 2"]),
        # a bonus and a penalty of the same type both apply
        ([mod(2, "status", "heroism"), mod(-1, "status", "frightened 1")], 1, ["heroism", "frightened 1"]),
        # different types add up
        ([mod(1, "status", "s"), mod(1, "circumstance", "c"), mod(2, "item", "i")], 4, ["s", "c", "i"]),
        # untyped bonuses all apply (documented choice)
        ([mod(1, None, "x"), mod(1, None, "y")], 2, ["x", "y"]),
        # ties keep the first one given
        ([mod(-2, "circumstance", "off-guard"), mod(-2, "circumstance", "prone")], -2, ["off-guard"]),
        ([], 0, []),
    ],
)
def test_typed_bonuses_stack_by_type(modifiers, total, applied_sources):
    result = stack(modifiers)
    assert result["total"] == total
    assert [m["source"] for m in result["applied"]] == applied_sources
    assert len(result["applied"]) + len(result["ignored"]) == len(modifiers)


def test_an_ignored_modifier_says_why():
    result = stack([mod(1, "status", "song"), mod(2, "status", "spell")])
    (ignored,) = result["ignored"]
    assert ignored["source"] == "song"
    assert "spell" in ignored["reason"] and "status bonus" in ignored["reason"]


def test_bad_values_are_ignored_not_raised():
    result = stack([{"value": "2", "type": "status", "source": "typo"}, mod(0, "item"), mod(-1)])
    assert result["total"] == -1
    assert [m["reason"] for m in result["ignored"]] == ["not a whole number", "changes nothing"]


def test_stack_does_not_mutate_its_input():
    given = [mod(1, "status", "a"), mod(3, "status", "b")]
    stack(given)
    assert given == [mod(1, "status", "a"), mod(3, "status", "b")]
