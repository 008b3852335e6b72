"""What a ruleset's folder implements for dice and play state: two typed interfaces.

A folder writes each hook once, as a plain function of its ``dice.py`` (``odds``, ``roll``,
``rollables``) and its ``state.py`` (``initial_state``, ``check_state``, ``state_effects``,
``state_sections``, ``state_action``), and its ``__init__.py`` wires the modules as they are::

    from . import dice as dice_rules
    from . import state as play_rules

    class OurDnD(Ruleset):
        dice = dice_rules
        play_state = play_rules

The ``Ruleset`` hooks of the same names resolve the campaign's context once
(``Ruleset.context_of``) and call these functions with *keyword arguments only*, named as below
(``request``, ``roller``, ``build``, ``report``, ``state``, ``action``, ``ctx``), so a function
takes them in whatever order reads best (``def state_effects(build, report, ctx, state)``) and no
class is needed to reorder them. ``ctx`` is always the campaign's ``Context``, never None. An
object whose methods have these names (a class instance) is wired the same way.

Both are ``runtime_checkable`` protocols: mypy checks a folder's modules where they are wired, and
the contract test (tests/rulesets/test_interfaces.py) checks every registered ruleset's with
``isinstance`` and that each function takes the interface's arguments by name.
"""

from __future__ import annotations

import inspect
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

if TYPE_CHECKING:
    from .context import Context
    from .dice import Roller
    from .report import Issue, Report


@runtime_checkable
class Dice(Protocol):
    """A ruleset's core roll: its exact odds, a real roll, and the sheet's roll buttons."""

    def odds(self, *, request: Any, ctx: Context) -> dict[str, Any]:
        """The exact distribution of the core roll (CONTRACT.md "Odds"), the house rules of ``ctx``
        applied to what the request leaves out. Raises ``OddsError`` for a request it cannot answer."""
        ...

    def roll(self, *, request: Any, roller: Roller, ctx: Context) -> dict[str, Any]:
        """Roll the core roll for real with ``roller`` (the same request as ``odds``).
        Returns {"faces": [...], "total": n, "outcome": "success"|…, "text": "…"}; raises
        ``OddsError`` for a request it cannot answer."""
        ...

    def rollables(
        self, *, build: dict, report: Report, state: dict | None, ctx: Context
    ) -> list[dict[str, Any]]:
        """The sheet's roll buttons: [{"id", "label", "request"}] where ``request`` goes to ``odds``
        and ``roll`` unchanged: ``state`` (the play state, None when there is none yet) applied, such
        as wound penalties; house defaults from ``ctx``, such as the default difficulty; homebrew
        entries of ``ctx.catalogue``. A rollable marked ``"picker": True`` is one the ruleset's roll
        picker composes (``Ruleset.roll_picker``): the sheet shows the picker instead of its button."""
        ...


@runtime_checkable
class PlayState(Protocol):
    """A character's play state: pools, harm, conditions; how the sheet shows and changes it."""

    def initial_state(self, *, build: dict, report: Report, ctx: Context) -> dict[str, Any]:
        """A fresh play state for a valid build (full pools, no harm)."""
        ...

    def check_state(self, *, state: Any, build: dict, report: Report, ctx: Context) -> list[Issue]:
        """Problems with a play state (a pool above its maximum, an unknown body part); ``state`` may
        be anything a client sent. Paths point into the state object."""
        ...

    def state_effects(self, *, state: dict, build: dict, report: Report, ctx: Context) -> dict[str, Any]:
        """What the state does to the numbers, for the sheet
        (e.g. {"speed_cost": {"right_arm": 1}, "wound_penalty": -2, "labels": [...]})."""
        ...

    def state_sections(
        self, *, state: dict, build: dict, report: Report, ctx: Context
    ) -> list[dict[str, Any]]:
        """How the sheet shows and edits the play state, one section per block (the shapes are
        documented on ``Ruleset.state_sections``)."""
        ...

    def state_action(
        self,
        *,
        state: dict,
        action: dict,
        build: dict,
        report: Report,
        ctx: Context,
        roller: Roller | None,
    ) -> tuple[dict, str]:
        """Apply one play-state action (take harm, heal, spend willpower, rest, set a pool) and return
        (new_state, a sentence for the log). Never mutates ``state``. A refused action raises
        ``StateError(code, message, path)``. ``roller`` rolls what the action rolls (None: the
        action rolls nothing, or the ruleset's default roller)."""
        ...


#: The methods of each interface, for the contract test and anyone checking a plugin's wiring.
DICE_METHODS = ("odds", "roll", "rollables")
PLAY_STATE_METHODS = ("initial_state", "check_state", "state_effects", "state_sections", "state_action")

#: Each interface: the ``Ruleset`` attribute it is wired on, its methods, and the folder's module.
WIRING = (("dice", Dice, DICE_METHODS, "dice.py"), ("play_state", PlayState, PLAY_STATE_METHODS, "state.py"))


def takes_by_name(fn: Any, names: list[str]) -> bool:
    """Whether ``fn`` can be called with exactly these keyword arguments (how the engine calls a hook)."""
    try:
        inspect.signature(fn).bind(**dict.fromkeys(names))
    except (TypeError, ValueError):
        return False
    return True


def wiring_problems(ruleset: Any) -> list[str]:
    """What keeps the engine from a ruleset's dice and play-state hooks, one sentence each (none:
    ``[]``): a wired module or object without one of the hooks, a hook that does not take the
    interface's arguments by name, or a ``dice.py`` / ``state.py`` of its folder that it does not
    wire (its functions would be ignored). ``manage.py check`` reports them (rulesets/checks.py)."""
    problems = []
    module = sys.modules.get(type(ruleset).__module__)
    in_folder = Path(getattr(module, "__file__", None) or "").name == "__init__.py"
    for attribute, interface, methods, filename in WIRING:
        wired = getattr(ruleset, attribute, None)
        if wired is None:
            if in_folder and (ruleset.package_dir / filename).is_file():
                problems.append(
                    f"its {filename} is not wired: the engine ignores it until the Ruleset says "
                    f"{attribute} = <that module>."
                )
            continue
        for name in methods:
            hook = getattr(wired, name, None)
            wanted = [p for p in inspect.signature(getattr(interface, name)).parameters if p != "self"]
            if not callable(hook):
                problems.append(f"{attribute} has no {name}.")
            elif not takes_by_name(hook, wanted):
                named = ", ".join(f"{n}=" for n in wanted)
                problems.append(f"{attribute}.{name} does not take its arguments by name ({named}).")
    return problems
