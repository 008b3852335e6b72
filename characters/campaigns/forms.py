"""Campaign forms. They only check shapes; the services check the rules."""

from __future__ import annotations

from django import forms

from characters.campaigns.house_rules import HouseRulesMixin
from characters.campaigns.services import MAX_STARTING_BUDGET, ruleset_choices
from config.forms import StorableTextForm, WholeNumberField
from rulesets.engine import registry


def _budget_field(label: str, default, *, required: bool) -> WholeNumberField:
    """A currency's starting amount: a whole number from 0 to the services' bound. On a new
    campaign it is optional (blank: the ruleset's house default, shown as its value and help)."""
    attrs = {"inputmode": "numeric"}
    help_text = ""
    if not required:
        rulebook = str(default) if isinstance(default, int) else "none (the rules work it out)"
        attrs["placeholder"] = rulebook
        help_text = f"Rulebook: {rulebook}. Blank: as the rulebook."
    return WholeNumberField(
        min_value=0,
        max_value=MAX_STARTING_BUDGET,
        required=required,
        label=label,
        help_text=help_text,
        widget=forms.NumberInput(attrs=attrs),
    )


class CampaignCreateForm(StorableTextForm, HouseRulesMixin, forms.Form):
    """A new campaign: name, ruleset, GM approval, and the chosen ruleset's settings as typed
    fields (a starting amount per currency, the house rules of ``forms_house``), generated from
    the ruleset's house defaults. ``ruleset_slug`` says whose fields to show: the page swaps
    them when the ruleset changes (htmx), or on "Show its settings" without JavaScript."""

    name = forms.CharField(max_length=120, widget=forms.TextInput(attrs={"autocomplete": "off"}))
    ruleset = forms.ChoiceField(choices=())
    approve_new_characters = forms.BooleanField(
        required=False,
        initial=True,
        label="I approve new characters",
        help_text="A submitted character waits in your review queue until you approve it or return it to its player.",
    )

    def __init__(self, *args, ruleset_slug: str | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        choices = ruleset_choices()
        field = self.fields["ruleset"]
        assert isinstance(field, forms.ChoiceField)
        field.choices = choices
        if ruleset_slug is None:
            ruleset_slug = choices[0][0] if choices else ""
        known = {slug for slug, _ in choices}
        self.chosen_ruleset = registry.get(ruleset_slug) if ruleset_slug in known else None
        self.currencies: list[str] = []
        self.house_specs = []
        if self.chosen_ruleset is None:
            return
        self.initial.setdefault("ruleset", self.chosen_ruleset.slug)
        defaults = self.chosen_ruleset.house_defaults.get("starting_budget") or {}
        # The currencies the GM gives; one the rules budget (a power level's force points) is not asked.
        self.currencies = list(self.chosen_ruleset.awardable_currencies)
        for currency in self.currencies:
            default = defaults.get(currency)
            self.fields[f"budget_{currency}"] = _budget_field(
                f"Starting {self.chosen_ruleset.currency_label(currency)}", default, required=False
            )
            if isinstance(default, int):
                self.initial.setdefault(f"budget_{currency}", default)
        self.add_house_fields(self.chosen_ruleset, None)

    @property
    def fields_for(self) -> str:
        """The ruleset whose settings fields this form shows ("" when none)."""
        return self.chosen_ruleset.slug if self.chosen_ruleset is not None else ""

    def clean(self):
        cleaned = super().clean()
        if self.chosen_ruleset is not None and not any(name.startswith("hr:") for name in self.errors):
            for issue in self.chosen_ruleset.check_settings(self.house_rules()):
                self.add_house_error(issue.path, issue.message)
        return cleaned

    @property
    def budget_fields(self):
        return [self[f"budget_{c}"] for c in self.currencies]

    def settings(self) -> dict:
        budget = {
            c: self.cleaned_data[f"budget_{c}"]
            for c in self.currencies
            if self.cleaned_data.get(f"budget_{c}") is not None
        }
        return {
            "starting_budget": budget,
            "house_rules": self.house_rules() if self.chosen_ruleset is not None else {},
            "approve_new_characters": bool(self.cleaned_data.get("approve_new_characters")),
        }


class CampaignSettingsForm(StorableTextForm, HouseRulesMixin, forms.Form):
    """Name, one whole-number field per currency of the ruleset, GM approval, and the house rules
    as typed fields (``forms_house``: blank means as the rulebook)."""

    name = forms.CharField(max_length=120)
    approve_new_characters = forms.BooleanField(
        required=False,
        label="I approve new characters",
        help_text="A submitted character waits in your review queue until you approve it or return it to its player.",
    )

    def __init__(self, *args, ruleset, house_rules=None, currency_label=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.ruleset = ruleset
        self.currencies = list(ruleset.awardable_currencies)
        label_of = currency_label or (lambda c: c.replace("_", " "))
        for currency in self.currencies:
            self.fields[f"budget_{currency}"] = _budget_field(
                f"Starting {label_of(currency)}", None, required=True
            )
        self.add_house_fields(ruleset, house_rules)

    def clean(self):
        cleaned = super().clean()
        if not any(name.startswith("hr:") for name in self.errors):
            for issue in self.ruleset.check_settings(self.house_rules()):
                self.add_house_error(issue.path, issue.message)
        return cleaned

    @property
    def budget_fields(self):
        return [self[f"budget_{c}"] for c in self.currencies]

    def settings(self) -> dict:
        return {
            "starting_budget": {c: self.cleaned_data[f"budget_{c}"] for c in self.currencies},
            "house_rules": self.house_rules(),
            "approve_new_characters": bool(self.cleaned_data.get("approve_new_characters")),
        }


class JoinForm(StorableTextForm, forms.Form):
    join_code = forms.CharField(
        max_length=32,
        label="Join code",
        widget=forms.TextInput(
            attrs={"autocomplete": "off", "autocapitalize": "characters", "spellcheck": "false"}
        ),
    )
