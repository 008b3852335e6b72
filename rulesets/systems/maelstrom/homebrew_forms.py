"""Maelstrom's homebrew kinds as fields (engine entries.py): the editor is drawn from them and the
engine checks every campaign's specialties and abilities against them (character/homebrew.py checks
that a specialty's ability exists; an ability's ``uses`` is what a crippled limb refuses, limbs.py)."""

from __future__ import annotations

from rulesets.engine.entries import EntryForm, Field

from .character.common import CATEGORIES, KINDS
from .limbs import USES

FORMS = {
    "specialties": EntryForm(
        "Specialties",
        "specialty",
        (
            Field("name", "Name", "text", required=True),
            Field("ability", "Ability", "choice", catalogue="abilities", required=True),
            Field(
                "kind",
                "Kind",
                "choice",
                choices=tuple((k, k.capitalize()) for k in KINDS),
                required=True,
                default="general",
                help="The storyteller decides which specialties are advanced.",
            ),
            Field("examples", "Examples", "text"),
        ),
    ),
    "abilities": EntryForm(
        "Abilities",
        "ability",
        (
            Field("name", "Name", "text", required=True),
            Field(
                "category",
                "Category",
                "choice",
                choices=tuple((c, c.capitalize()) for c in CATEGORIES),
                required=True,
                default="skill",
            ),
            Field("common_attributes", "Usually rolled with", "choices", catalogue="attributes"),
            Field(
                "uses",
                "Needs",
                "choice",
                choices=((None, "No limb in particular"), *USES.items()),
                help="A crippled limb refuses it: both hands with either arm crippled, a hand with both, "
                "both legs with either leg crippled.",
            ),
            Field("description", "Description", "longtext"),
        ),
    ),
}
