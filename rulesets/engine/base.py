"""Deprecated: the engine's names where they were before the engine was split by job (removed in
0.1, back until 0.2 so that a ruleset written against it loads), with a ``DeprecationWarning``.

Import them from ``rulesets.engine`` itself (its ``__all__`` is the stable list).
"""

from __future__ import annotations

import warnings

from .context import ID_RE, NPC_PHASE, Context
from .errors import OddsError, RollInputError, StateError
from .fields import WHOLE_NUMBER_RE, action_amount, is_int, name_key, parse_whole_number, whole_number
from .interfaces import Dice, PlayState
from .ruleset import COMMON_KEYS, FORMAT, Ruleset

warnings.warn(
    "rulesets.engine.base is deprecated and goes in 0.2: import its names from rulesets.engine "
    "(for example: from rulesets.engine import Context, Ruleset).",
    DeprecationWarning,
    stacklevel=2,
)

__all__ = [
    "COMMON_KEYS",
    "FORMAT",
    "ID_RE",
    "NPC_PHASE",
    "WHOLE_NUMBER_RE",
    "Context",
    "Dice",
    "OddsError",
    "PlayState",
    "RollInputError",
    "Ruleset",
    "StateError",
    "action_amount",
    "is_int",
    "name_key",
    "parse_whole_number",
    "whole_number",
]
