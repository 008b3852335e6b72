from django.apps import AppConfig


class RulesetsConfig(AppConfig):
    name = "rulesets"
    verbose_name = "Rules service"

    def ready(self) -> None:
        from . import checks  # noqa: F401  (registers the system checks)
