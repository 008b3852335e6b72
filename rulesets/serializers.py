"""Shapes of the rules service's HTTP door, for the OpenAPI schema (CONTRACT.md "The report", "Odds").

The views answer with plain dicts from the engine; these serializers only document them, so that
the schema at /api/schema/ says exactly what a client gets back.
"""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample
from rest_framework import serializers

from rulesets.engine import registry
from rulesets.engine.words import a


class IssueSerializer(serializers.Serializer):
    code = serializers.CharField(help_text='A stable dotted code from RULES.md, e.g. "skill.unknown".')
    path = serializers.CharField(
        allow_blank=True, help_text='A JSON Pointer into the build document ("" for the whole document).'
    )
    message = serializers.CharField(help_text="What is wrong and what would fix it.")


class CostSerializer(serializers.Serializer):
    path = serializers.CharField(allow_blank=True)
    label = serializers.CharField(allow_blank=True)  # type: ignore[assignment]  # the API field "label" (CONTRACT.md) shadows Field.label
    currency = serializers.CharField()
    cost = serializers.IntegerField()


class ReportSerializer(serializers.Serializer):
    ruleset = serializers.CharField(
        allow_null=True, help_text="The ruleset that judged the build; null when none could."
    )
    valid = serializers.BooleanField(help_text="True exactly when `errors` is empty.")
    errors = IssueSerializer(many=True)  # type: ignore[assignment]  # the API field "errors" (CONTRACT.md) shadows Serializer.errors
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
    optional_currencies = serializers.ListField(
        child=serializers.CharField(),
        help_text="Currencies a build has only when its budget gives some (Pando's money, from a "
        "campaign's starting money): then in spent/budget/remaining like the others.",
    )
    traits = serializers.DictField(help_text="What a build is made of: attributes, ranges, slots…")
    catalogue = serializers.DictField(
        child=serializers.ListField(child=serializers.DictField()),
        help_text="Content kind (skills, items, …) → its entries.",
    )
    house_defaults = serializers.DictField(help_text="House rules a campaign may override (RULES.md HD).")
    homebrew_kinds = serializers.ListField(child=serializers.CharField())


class ApiErrorSerializer(serializers.Serializer):
    detail = serializers.CharField()
    errors = serializers.ListField(child=serializers.JSONField())  # type: ignore[assignment]  # the API field "errors" (CONTRACT.md) shadows Serializer.errors


#: The build document: any JSON object; the service reports on whatever it gets.
BUILD_SCHEMA = {
    "type": "object",
    "additionalProperties": True,
    "description": 'A build document: {"ruleset", "name", "budget", …} (CONTRACT.md "The build document"). '
    'Any JSON object is answered with a report; a missing "ruleset" means the URL\'s.',
}


def _per_ruleset(describe) -> str:
    return "; ".join(f"{rs.slug} {text}" for rs in registry.all_rulesets() if (text := describe(rs)))


def _request_keys(ruleset) -> str:
    form = ruleset.odds_form()
    return "{" + ",".join(f'"{f["name"]}"' for f in form) + "}" if form else ""


#: An odds request: an object whose keys depend on the ruleset (CONTRACT.md "Odds").
ODDS_REQUEST_SCHEMA = {
    "type": "object",
    "additionalProperties": True,
    "description": _per_ruleset(_request_keys) + ".",
}

ODDS_ANSWER_SCHEMA = {
    "type": "object",
    "additionalProperties": True,
    "description": "Exact probabilities: "
    + _per_ruleset(lambda rs: rs.api_examples().get("odds_answer", ""))
    + ".",
}

#: Request examples from the rulesets that give one (``Ruleset.api_examples``).
BUILD_EXAMPLES = [
    OpenApiExample(f"{a(rs.name).capitalize()} build", value=rs.api_examples()["build"], request_only=True)
    for rs in registry.all_rulesets()
    if "build" in rs.api_examples()
]
ODDS_EXAMPLES = [
    OpenApiExample(
        f"{rs.name}: {rs.api_examples().get('odds_label', 'odds')}",
        value=rs.api_examples()["odds"],
        request_only=True,
    )
    for rs in registry.all_rulesets()
    if "odds" in rs.api_examples()
]
