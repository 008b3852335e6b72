"""The site as the tests see it, for a server process of a browser test: ``config.asgi`` with the test
plugin ruleset (tests/plugin_ruleset/, "Coin") registered, as ``pytest_configure`` registers it in the
test process (``SHEETFORGE_TEST_PLUGIN=0`` leaves it out in both)."""

import os

from config.asgi import application

if os.environ.get("SHEETFORGE_TEST_PLUGIN", "1") != "0":
    from rulesets.engine import registry
    from tests.plugin_ruleset import RULESET

    registry.register(RULESET)

__all__ = ["application"]
