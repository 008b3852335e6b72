"""``manage.py check``, Django's, with a ruleset folder that fails to import reported as an error
(``rulesets.E001``) rather than the warning other commands show (rulesets/checks.py)."""

from __future__ import annotations

from django.core.management.commands.check import Command as DjangoCheck

from rulesets import checks


class Command(DjangoCheck):
    def handle(self, *app_labels, **options):
        token = checks.as_errors.set(True)
        try:
            return super().handle(*app_labels, **options)
        finally:
            checks.as_errors.reset(token)
