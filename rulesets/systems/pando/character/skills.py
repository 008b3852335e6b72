"""Pando's build: the skill tree grown from Capability (levels, prerequisites, costs)."""

from __future__ import annotations

from rulesets.engine.context import Context
from rulesets.engine.fields import lookup, name_key
from rulesets.engine.pointer import ptr
from rulesets.engine.report import Report

from .common import CAPABILITY, skill_cost
from .learned import _Build


def _suggest(value: str, entries: dict[str, dict]) -> str | None:
    key = name_key(value)
    for entry in entries.values():
        if name_key(entry["id"]) == key or name_key(str(entry.get("name", ""))) == key:
            return entry["id"]
    return None


def _check_skills(build: dict, report: Report, ctx: Context, b: _Build) -> None:
    skills = build.get("skills", [])
    catalogue = ctx.catalogue.get("skills", {})
    if skills is None:
        skills = []
    if not isinstance(skills, list):
        report.error(
            "build.malformed", "/skills", 'Skills must be a list of skill ids such as ["melee", "blades"].'
        )
        return
    positions: list[tuple[int, dict]] = []
    for i, sid in enumerate(skills):
        path = f"/skills/{i}"
        if not isinstance(sid, str):
            report.error("build.malformed", path, 'Each skill must be a skill id such as "melee".')
            continue
        if sid == CAPABILITY:
            report.warn(
                "skill.capability_listed", path, "Capability is always known and free; it need not be listed."
            )
            continue
        entry = catalogue.get(sid)
        if entry is None:
            guess = _suggest(sid, catalogue)
            hint = (
                f" Did you mean {guess!r}?"
                if guess
                else (" Pick one from the skill tree, or ask your GM to add it as homebrew.")
            )
            report.error("skill.unknown", path, f"{sid!r} is not a Pando skill here.{hint}")
            continue
        if sid in b.learned:
            report.error(
                "skill.duplicate",
                path,
                f"{entry['name']} is listed twice: remove this one (a skill is learned once).",
            )
            continue
        b.learned[sid] = entry
        positions.append((i, entry))
        report.charge("cp", skill_cost(entry["level"]), path=path, label=entry["name"])
    for i, entry in positions:
        parent = entry.get("parent")
        if parent == CAPABILITY or parent in b.learned:
            continue
        report.error(
            "skill.prerequisite_missing", ptr("skills", i), _prerequisite_message(entry, catalogue, b.learned)
        )


def _prerequisite_message(entry: dict, catalogue: dict[str, dict], learned: dict[str, dict]) -> str:
    parent = lookup(catalogue, entry.get("parent"))
    if parent is None:
        return (
            f"{entry['name']} needs {entry.get('parent')!r}, which is not in this campaign's skill tree: "
            f"remove {entry['name']} or ask your GM to fix the homebrew."
        )
    chain: list[str] = []
    node: dict | None = parent
    while node is not None and node["id"] not in learned and node["id"] != CAPABILITY and len(chain) < 5:
        chain.append(f"{node['name']} ({skill_cost(node['level'])} CP)")
        node = lookup(catalogue, node.get("parent"))
    learn = " then ".join(reversed(chain))
    return (
        f"{entry['name']} needs {parent['name']}, which this character has not learned: "
        f"learn {learn} first or remove {entry['name']}."
    )
