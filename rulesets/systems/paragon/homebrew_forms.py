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
    # A kind a campaign may extend once the ruleset lists it in ``homebrew_kinds``.
    "powers": EntryForm(
        "Powers",
        "power",
        (
            Field("name", "Name", "text", required=True),
            Field("force", "Force", "choice", catalogue="forces", required=True),
            Field("rank", "Force rank it needs", "number", min=1, max=5, required=True, default=1),
            Field("cost", "Cost (Dynama)", "number", min=0, required=True, default=2),
            Field(
                "roll/skill", "Rolls the skill", "choice", choices=((None, "No roll"),), catalogue="skills"
            ),
            Field("roll/tn", "Against the target number", "number", min=1),
            Field("text", "What it does", "longtext"),
        ),
    ),
}
