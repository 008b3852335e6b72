"""System checks of the rules service: a ruleset folder that fails to import (engine/registry.py), and
a ruleset whose dice or play-state hooks the engine cannot call (engine/interfaces.py
``wiring_problems``: a missing hook, one that does not take its arguments by name, a dice.py or
state.py left unwired).

``manage.py check`` reports each as an error naming the folder or the ruleset (``rulesets.E001``,
``rulesets.E002``; exit status 1). Every other command that runs the checks (runserver, migrate: so
``make run`` and ``make serve`` too) shows it as a warning (``rulesets.W001``, ``rulesets.W002``)
and goes on: the other rulesets are served, as the servers that run no checks (gunicorn, daphne)
serve them.
"""

from __future__ import annotations

from contextvars import ContextVar

from django.core import checks

from rulesets.engine import registry
from rulesets.engine.interfaces import wiring_problems

#: Set by ``manage.py check`` (rulesets/management/commands/check.py): report a broken folder as an error.
as_errors: ContextVar[bool] = ContextVar("rulesets_checks_as_errors", default=False)


@checks.register("rulesets")
def ruleset_folders_load(app_configs=None, **kwargs) -> list[checks.CheckMessage]:
    error = as_errors.get()
    return [
        (checks.Error if error else checks.Warning)(
            f"The ruleset folder rulesets/systems/{name}/ failed to load: {why}",
            hint="Its game is left out; the other rulesets are served. The log has the traceback; "
            "a ruleset imports the engine's names from rulesets.engine (its __all__).",
            obj=f"rulesets.systems.{name}",
            id="rulesets.E001" if error else "rulesets.W001",
        )
        for name, why in registry.broken().items()
    ]


@checks.register("rulesets")
def ruleset_hooks_wired(app_configs=None, **kwargs) -> list[checks.CheckMessage]:
    error = as_errors.get()
    return [
        (checks.Error if error else checks.Warning)(
            f"The ruleset {ruleset.slug!r}: {problem}",
            hint="The engine calls each dice and play-state hook by name (rulesets/engine/interfaces.py).",
            obj=type(ruleset).__module__,
            id="rulesets.E002" if error else "rulesets.W002",
        )
        for ruleset in registry.all_rulesets()
        for problem in wiring_problems(ruleset)
    ]
