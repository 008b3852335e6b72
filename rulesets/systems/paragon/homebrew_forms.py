"""Paragon's homebrew kinds as fields (engine entries.py): the editor is drawn from them and the
engine checks every campaign's skills against them."""

from __future__ import annotations

from rulesets.engine.entries import EntryForm, Field

FORMS = {
    "skills": EntryForm(
        "Skills",
        "skill",
        (
            Field("name", "Name", "text", required=True),
            Field(
                "force",
                "Force",
                "choice",
                catalogue="forces",
                required=True,
                help="The force the skill rolls with.",
            ),
            Field("help", "What it is for", "longtext"),
        ),
    ),
}
