"""How a change of build reads and what each of its rows costs: the labels a diff speaks in and
the rows priced at the margin. Used by the spend requests (services.py) and the creation review
(approval.py), which import this and not each other's internals."""

from __future__ import annotations

import copy

from characters.advancement.selectors import cost_changes
from characters.models import Campaign
from characters.rules import character_validate
from characters.selectors import builder_traits
from rulesets.engine import Report
from rulesets.engine.pointer import delete_at, set_at


def build_labels(campaign: Campaign) -> dict[str, str]:
    """JSON pointer → the builder's label, so a diff says "Abilities › Firearms"."""
    _, _, traits = builder_traits(campaign=campaign)
    labels: dict[str, str] = {}
    for section in (traits or {}).get("sections", []):
        if not isinstance(section, dict) or "path" not in section:
            continue
        labels[section["path"]] = section.get("label") or section["path"]
        for entry in (section.get("fields") or []) + (section.get("options") or []):
            if isinstance(entry, dict) and "id" in entry:
                labels[f"{section['path']}/{entry['id']}"] = entry.get("label") or entry["id"]
    return labels


def priced_rows(campaign: Campaign, old: dict, new: dict, diff: list[dict], new_report: Report) -> list[dict]:
    """The diff rows, each with what it costs: {"cost": {currency: delta}, "items": [the rules' lines]}.

    Each change is priced at the margin: applied in document order to the approved build
    (budget aside), the spent before and after it. The rows then add up to the request's
    cost even where a ruleset re-prices other traits (re-allocating free creation points, say), and each change carries the cost lines the rules wrote for it.
    """
    current = copy.deepcopy(old)
    current["budget"] = copy.deepcopy(new.get("budget", {}))
    before = character_validate(campaign=campaign, build=current)
    changes = cost_changes(before.costs, new_report.costs)
    spent = dict(before.spent)
    rows = []
    for i, change in enumerate(diff):
        if i == len(diff) - 1:
            after = dict(new_report.spent)
        else:
            if change["new"] is None:
                delete_at(current, change["path"])
            else:
                set_at(current, change["path"], copy.deepcopy(change["new"]))
            after = dict(character_validate(campaign=campaign, build=current).spent)
        cost = {c: after.get(c, 0) - spent.get(c, 0) for c in set(after) | set(spent)}
        spent = after
        items = [label for ch in changes if related(ch["path"], change["path"]) for label in ch["labels"]]
        rows.append({**change, "cost": {c: v for c, v in sorted(cost.items()) if v}, "items": items})
    return rows


def related(a: str, b: str) -> bool:
    return a == b or a.startswith(b + "/") or b.startswith(a + "/")
