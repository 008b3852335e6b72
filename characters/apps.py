from django.apps import AppConfig


class CharactersConfig(AppConfig):
    name = "characters"
    verbose_name = "Campaigns and characters"

    def ready(self) -> None:
        from characters import signals  # noqa: F401  (receivers: sockets and tokens follow rights)
