from rulesets.engine import dice, pointer, validate


def test_pointer_escapes_slashes_and_tildes():
    assert pointer.ptr("skills", 2) == "/skills/2"
    assert pointer.ptr("a/b", "c~d") == "/a~1b/c~0d"
    assert pointer.resolve({"a/b": [1, {"c~d": 7}]}, "/a~1b/1/c~0d") == 7


def test_a_document_that_is_not_an_object_is_malformed():
    report = validate([1, 2]).as_dict()
    assert report["valid"] is False
    assert [(e["code"], e["path"]) for e in report["errors"]] == [("build.malformed", "")]


def test_an_unknown_ruleset_is_reported_at_its_path():
    report = validate({"ruleset": "gurps", "name": "X"}).as_dict()
    assert [(e["code"], e["path"]) for e in report["errors"]] == [("ruleset.unknown", "/ruleset")]


def test_sum_of_two_d6_is_exact():
    d = dice.sum_dice(2, 6)
    assert abs(d[7] - 6 / 36) < 1e-12
    assert abs(sum(d.values()) - 1) < 1e-12


def test_keep_highest_of_two_d20():
    d = dice.keep_highest(dice.die(20))
    assert abs(d[20] - 39 / 400) < 1e-12
    assert abs(d[1] - 1 / 400) < 1e-12


def test_exploding_d12_sums_to_one():
    d = dice.exploding(12)
    assert abs(sum(d.values()) - 1) < 1e-12
    assert 12 not in d and abs(d[13] - 1 / 144) < 1e-12
