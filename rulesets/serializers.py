"""Shapes of the rules service's HTTP door, for the OpenAPI schema (CONTRACT.md "The report", "Odds").

The views answer with plain dicts from the engine; these serializers only document them, so that
the schema at /api/schema/ says exactly what a client gets back.
"""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample
from rest_framework import serializers


class IssueSerializer(serializers.Serializer):
    code = serializers.CharField(help_text='A stable dotted code from RULES.md, e.g. "skill.unknown".')
    path = serializers.CharField(
        allow_blank=True, help_text='A JSON Pointer into the build document ("" for the whole document).'
    )
    message = serializers.CharField(help_text="What is wrong and what would fix it.")


class CostSerializer(serializers.Serializer):
    path = serializers.CharField(allow_blank=True)
    label = serializers.CharField(allow_blank=True)
    currency = serializers.CharField()
    cost = serializers.IntegerField()


class ReportSerializer(serializers.Serializer):
    ruleset = serializers.CharField(
        allow_null=True, help_text="The ruleset that judged the build; null when none could."
    )
    valid = serializers.BooleanField(help_text="True exactly when `errors` is empty.")
    errors = IssueSerializer(many=True)
    warnings = IssueSerializer(many=True)
    spent = serializers.DictField(child=serializers.IntegerField(), help_text="Currency → amount spent.")
    budget = serializers.DictField(child=serializers.IntegerField(), help_text="Currency → amount available.")
    remaining = serializers.DictField(
        child=serializers.IntegerField(), help_text="budget − spent per currency; may be negative."
    )
    derived = serializers.DictField(help_text="Numbers the ruleset computes from the build (RULES.md).")
    costs = CostSerializer(many=True, help_text="What each choice cost (not part of the contract's keys).")


class RulesetSummarySerializer(serializers.Serializer):
    slug = serializers.CharField()
    name = serializers.CharField()
    seed = serializers.CharField(allow_blank=True, help_text="The rulebook file in shared/seeds/.")
    currencies = serializers.ListField(child=serializers.CharField())


class RulesetDetailSerializer(RulesetSummarySerializer):
    awardable = serializers.ListField(child=serializers.CharField())
    traits = serializers.DictField(help_text="What a build is made of: attributes, ranges, slots…")
    catalogue = serializers.DictField(
        child=serializers.ListField(child=serializers.DictField()),
        help_text="Content kind (skills, items, …) → its entries.",
    )
    house_defaults = serializers.DictField(help_text="House rules a campaign may override (RULES.md HD).")
    homebrew_kinds = serializers.ListField(child=serializers.CharField())


class ApiErrorSerializer(serializers.Serializer):
    detail = serializers.CharField()
    errors = serializers.ListField(child=serializers.JSONField())


#: The build document: any JSON object; the service reports on whatever it gets.
BUILD_SCHEMA = {
    "type": "object",
    "additionalProperties": True,
    "description": 'A build document: {"ruleset", "name", "budget", …} (CONTRACT.md "The build document"). '
    "Any JSON object is answered with a report; a missing \"ruleset\" means the URL's.",
}

#: An odds request: an object whose keys depend on the ruleset (CONTRACT.md "Odds").
ODDS_REQUEST_SCHEMA = {
    "type": "object",
    "additionalProperties": True,
    "description": 'pando {"dice","skill"}; paragon {"force","skill","tn"}; '
    'ascendant {"modifier","threshold"}; '
    'ourdnd {"stat","td","mode"}; maelstrom {"pool","difficulty","threshold"}.',
}

ODDS_ANSWER_SCHEMA = {
    "type": "object",
    "additionalProperties": True,
    "description": 'Exact probabilities: pando {"ep": {"0": p, …}}; paragon {"pass": p}; ascendant '
    '{"critical_success","success","failure","critical_failure"}; ourdnd {"success","critical","blunder"}; '
    'maelstrom {"botch","failure","successes": {"1": p, …}}.',
}

BUILD_EXAMPLE = OpenApiExample(
    "A Pando build",
    value={
        "ruleset": "pando",
        "name": "Charlotte",
        "budget": {"cp": 40},
        "attributes": {"strength": 1, "endurance": 1, "acrobatics": 3, "coordination": 3,
                       "rationality": 1, "perspective": 1, "presence": 2},
        "skills": ["ranged", "bows"],
    },
    request_only=True,
)
ODDS_EXAMPLE = OpenApiExample("Pando: 3 dice, skill 2", value={"dice": 3, "skill": 2}, request_only=True)
