"""Account and campaign forms. They only check shapes; the services check the rules."""

from __future__ import annotations

import json

from django import forms
from django.contrib.auth.forms import UserCreationForm

from characters.forms_house import HouseRulesMixin
from characters.services.campaigns import ruleset_choices
from config.forms import StorableTextForm, WholeNumberField


class SignUpForm(StorableTextForm, UserCreationForm):
    """Django's sign-up form (username rules, the password validators, the repeat)."""

    class Meta(UserCreationForm.Meta):
        fields = ("username",)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["username"].widget.attrs.update({"autocomplete": "username", "autocapitalize": "none"})


class JSONObjectField(forms.CharField):
    """A textarea holding a JSON object; blank means {}."""

    widget = forms.Textarea(attrs={"rows": 4, "spellcheck": "false", "class": "mono"})

    def to_python(self, value):
        value = super().to_python(value)
        if not value or not value.strip():
            return {}
        try:
            data = json.loads(value)
        except ValueError as exc:
            raise forms.ValidationError(f"This is not valid JSON: {exc}.") from None
        if not isinstance(data, dict):
            raise forms.ValidationError('Write a JSON object, such as {"max_attribute": 6}.')
        return data

    def prepare_value(self, value):
        if isinstance(value, dict):
            return json.dumps(value, indent=2, sort_keys=True) if value else ""
        return value


class CampaignCreateForm(StorableTextForm, forms.Form):
    name = forms.CharField(max_length=120, widget=forms.TextInput(attrs={"autocomplete": "off"}))
    ruleset = forms.ChoiceField(choices=())
    starting_budget = JSONObjectField(
        required=False,
        label="Starting budget",
        help_text='Optional, e.g. {"cp": 40}. Blank: the ruleset\'s house default.',
    )
    house_rules = JSONObjectField(
        required=False, label="House rules", help_text="Optional overrides of the ruleset's house defaults."
    )
    approve_new_characters = forms.BooleanField(
        required=False,
        initial=True,
        label="I approve new characters",
        help_text="A submitted character waits in your review queue until you approve it or return it to its player.",
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["ruleset"].choices = ruleset_choices()

    def settings(self) -> dict:
        return {
            "starting_budget": self.cleaned_data.get("starting_budget") or {},
            "house_rules": self.cleaned_data.get("house_rules") or {},
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
        self.currencies = list(ruleset.currencies)
        label_of = currency_label or (lambda c: c.replace("_", " "))
        for currency in self.currencies:
            self.fields[f"budget_{currency}"] = WholeNumberField(
                min_value=0, max_value=1_000_000, label=f"Starting {label_of(currency)}"
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
