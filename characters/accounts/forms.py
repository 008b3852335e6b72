"""The sign-up form. It only checks shapes; ``account_register`` checks the rules."""

from __future__ import annotations

from django.contrib.auth.forms import UserCreationForm

from config.forms import StorableTextForm


class SignUpForm(StorableTextForm, UserCreationForm):
    """Django's sign-up form (username rules, the password validators, the repeat), with each refusal
    said next to the field it is about and the focus on the first field in error.

    Django checks the password validators on the repeat (password2), and not at all when the repeat
    differs: a short password then read only "didn't match", under the confirmation. Here they judge
    the password being chosen (password1), whatever the repeat says; the repeat only says whether it
    is the same. A control in error has aria-invalid and aria-describedby (Django's, naming the
    ``<id>_error`` block of templates/_field.html) and the first one gets ``autofocus``.
    """

    error_messages = {
        **UserCreationForm.error_messages,
        "password_mismatch": "The two passwords are not the same: type the password again in both fields.",
    }

    class Meta(UserCreationForm.Meta):
        fields = ("username",)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["username"].widget.attrs.update({"autocomplete": "username", "autocapitalize": "none"})

    def validate_password_for_user(self, user, password_field_name="password1"):
        super().validate_password_for_user(user, password_field_name="password1")

    def full_clean(self):
        super().full_clean()
        self._focus_first_error()

    def add_error(self, field, error):  # also the view's, for what the sign-up service refuses
        super().add_error(field, error)
        self._focus_first_error()

    def _focus_first_error(self) -> None:
        errors = getattr(self, "_errors", None) or {}
        first = next((name for name in self.fields if name in errors), None)
        if first is not None:
            for field in self.fields.values():
                field.widget.attrs.pop("autofocus", None)
            self.fields[first].widget.attrs["autofocus"] = True
