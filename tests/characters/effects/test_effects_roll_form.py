"""The sheet's roll form puts the table's numbers in before the effects change them: an effect on a
target number or a difficulty is not lost when the player types the scene's number."""

from __future__ import annotations

import pytest

from characters.effects.services import character_effect_apply
from characters.models import Character
from characters.sheet.selectors import roll_inputs, roll_request, sheet_rules
from rulesets.engine import registry
from rulesets.engine.fields import is_int
from tests.characters.sheet.test_sheet_fixtures import character_at_table

pytestmark = pytest.mark.django_db


def _table_number(rules):
    """(rollable, input spec) of a roll whose table number an effect may shift."""
    ruleset = rules.ruleset
    for rollable in rules.rollables:
        for spec in roll_inputs(rules, rollable):
            if (
                spec["name"] in ruleset.effect_keys
                and spec["name"] in ruleset.table_keys
                and is_int(spec.get("value"))
            ):
                return rollable, spec
    return None, None


@pytest.mark.parametrize("slug", registry.SYSTEMS)
def test_an_effect_on_a_table_number_survives_the_number_the_player_types(slug, table):
    character = character_at_table(table, slug)
    rules = sheet_rules(character=character)
    rollable, spec = _table_number(rules)
    if rollable is None:
        pytest.skip(f"{rules.ruleset.name}: no table number an effect shifts")
    key = spec["name"]
    typed = spec["value"] + 1
    before, problem = roll_request(rules, rollable, {key: typed})
    assert not problem and before[key] == typed
    character_effect_apply(
        character_id=character.pk,
        user=table["gm"],
        spec={"name": "Hard going", "changes": [{"target": rollable["id"], key: 1}]},
    )
    rules = sheet_rules(character=Character.objects.get(pk=character.pk))
    changed = next(r for r in rules.rollables if r["id"] == rollable["id"])
    after, problem = roll_request(rules, changed, {key: typed})
    assert not problem
    expected = rules.ruleset.with_effects(dict(before), rules.state, rollable["id"])
    assert after == expected
    assert after[key] != typed or expected[key] == typed  # shifted unless at the odds' limit
    # Without a typed number the effect still reaches the request the sheet shows.
    plain, _ = roll_request(rules, changed, {})
    assert plain == changed["request"]
