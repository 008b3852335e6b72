"""How a change of build reads and what each of its rows costs: the labels a diff speaks in and
the rows priced at the margin. Used by the spend requests (services.py) and the creation review
(builder/approval.py), which import this and not each other's internals; below both."""

from __future__ import annotations

import copy
from typing import Any

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


def cost_changes(old_costs: list[dict] | None, new_costs: list[dict] | None) -> list[dict[str, Any]]:
    """What each change costs, item by item: the report's ``costs`` of the old build vs the new one.

    Lines are grouped by (path, currency); a group whose total differs is one change:
    {"path", "currency", "old", "new", "delta", "labels"} where ``labels`` are the new
    build's cost lines at that path that the old build did not have ("Firearms 4 costs
    8 XP because it is the 4th dot"), else the old ones that went away.
    """

    def group(costs):
        out: dict[tuple[str, str], dict] = {}
        for line in costs or []:
            if not isinstance(line, dict):
                continue
            key = (str(line.get("path", "")), str(line.get("currency", "")))
            g = out.setdefault(key, {"total": 0, "labels": []})
            cost = line.get("cost") or 0
            g["total"] += cost if isinstance(cost, int) else 0
            g["labels"].append(line.get("label") or line.get("path") or "")
        return out

    old, new = group(old_costs), group(new_costs)
    keys = list(new) + [k for k in old if k not in new]
    changes = []
    for key in keys:
        o, n = old.get(key, {"total": 0, "labels": []}), new.get(key, {"total": 0, "labels": []})
        if o["total"] == n["total"] and o["labels"] == n["labels"]:
            continue
        added = [label for label in n["labels"] if label not in o["labels"]]
        removed = [label for label in o["labels"] if label not in n["labels"]]
        changes.append(
            {
                "path": key[0],
                "currency": key[1],
                "old": o["total"],
                "new": n["total"],
                "delta": n["total"] - o["total"],
                "labels": added or removed,
            }
        )
    return changes
