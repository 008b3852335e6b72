"""The engine's names where they were before the engine was split by job; kept so that
``from rulesets.engine.base import Ruleset`` (and the rest below) goes on working.

New code imports from where each name lives: ``ruleset.py`` (``Ruleset``, ``FORMAT``),
``context.py`` (``Context``, ``NPC_PHASE``, ``ID_RE``), ``errors.py`` (``OddsError``,
``RollInputError``, ``StateError``), ``fields.py`` (``is_int``, ``name_key``, ``whole_number``,
``parse_whole_number``, ``WHOLE_NUMBER_RE``, ``action_amount``) and ``interfaces.py`` (``Dice``,
``PlayState``).
"""

from __future__ import annotations

from .context import ID_RE, NPC_PHASE, Context
from .errors import OddsError, RollInputError, StateError
from .fields import WHOLE_NUMBER_RE, action_amount, is_int, name_key, parse_whole_number, whole_number
from .interfaces import Dice, PlayState
from .ruleset import COMMON_KEYS, FORMAT, Ruleset

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
