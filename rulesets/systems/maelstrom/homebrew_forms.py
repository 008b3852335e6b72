"""Maelstrom's homebrew kinds as fields (engine entries.py): the editor is drawn from them and the
engine checks every campaign's specialties and abilities against them (character/homebrew.py checks
that a specialty's ability exists)."""

from __future__ import annotations

from rulesets.engine.entries import EntryForm, Field

from .character.common import CATEGORIES, KINDS

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
            Field("description", "Description", "longtext"),
        ),
    ),
}
