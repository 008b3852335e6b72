"""Crippled limbs (RULES.md W20; seed "Spending Willpower": "Crippled limbs cannot be used to perform
actions and willpower does not remove this effect").

Damage that reaches the health chart's Crippled level lets the storyteller cripple a limb (the play
state's ``crippled``: {"left_arm": true, …}; state.py ``cripple`` / ``heal_limb``, the native effects
"Crippled left arm" … of ``content/effects.json``). What a limb refuses is house default, read from
the abilities catalogue's ``uses`` (RULINGS.md):

- ``"two_hands"`` (heavy weapons): refused with either arm crippled;
- ``"hand"`` (melee, firearms, artistry, technology): done with the other hand; refused only when
  both arms are crippled;
- ``"legs"`` (athletics, stealth): refused with either leg crippled.

Every refusal says why, until the limb heals.
"""

from __future__ import annotations

from typing import Any

LIMBS = {"left_arm": "left arm", "right_arm": "right arm", "left_leg": "left leg", "right_leg": "right leg"}
ARMS = ("left_arm", "right_arm")
LEGS = ("left_leg", "right_leg")
#: The abilities catalogue's ``uses`` (what a roll of the ability needs), in words for the editor.
USES = {"hand": "A hand", "two_hands": "Both hands", "legs": "Both legs"}


def crippled(state: Any) -> list[str]:
    """The crippled limbs of a play state, in ``LIMBS`` order."""
    held = state.get("crippled") if isinstance(state, dict) else None
    return [k for k in LIMBS if isinstance(held, dict) and held.get(k) is True]


def refusal(entry: dict[str, Any], limbs: list[str]) -> str:
    """Why an ability (its catalogue ``entry``) cannot be rolled with these crippled ``limbs``, or ""."""
    uses = entry.get("uses")
    name = entry.get("name", "This ability")
    arms = [LIMBS[k] for k in limbs if k in ARMS]
    legs = [LIMBS[k] for k in limbs if k in LEGS]
    if uses == "two_hands" and arms:
        return (
            f"{name} needs both hands: the {' and '.join(arms)} {'is' if len(arms) == 1 else 'are'} crippled."
        )
    if uses == "hand" and len(arms) == 2:
        return f"{name} needs a hand: both arms are crippled."
    if uses == "legs" and legs:
        return (
            f"{name} needs both legs: the {' and '.join(legs)} {'is' if len(legs) == 1 else 'are'} crippled."
        )
    return ""


def note(entry: dict[str, Any], limbs: list[str]) -> str:
    """How an ability that needs a hand is rolled with one arm crippled ("with the right hand"), or ""."""
    arms = [k for k in limbs if k in ARMS]
    if entry.get("uses") == "hand" and len(arms) == 1:
        other = "right" if arms[0] == "left_arm" else "left"
        return f"with the {other} hand (the {LIMBS[arms[0]]} is crippled)"
    return ""
