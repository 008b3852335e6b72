"""Maelstrom's builder widget: the creation dots (the starting dot, the free dots, the dots bought with XP).

Each function takes the traits section, the build, the report (as a dict) and the builder's
``ui`` (see ``Ruleset.builder_widget``) and returns what the widget's template
``templates/maelstrom/builder/<widget>.html`` shows besides the section.
"""

from __future__ import annotations

from typing import Any

from rulesets.engine.fields import get_as


def creation(raw: dict, build: dict, report: dict, ui: Any) -> dict:
    """Dots as circles: the starting dot, the free creation dots, and the dots bought with XP."""
    derived = report.get("derived") or {}
    allocation = derived.get("creation") or {}
    by_id = {s.get("id"): s for s in ui.sections}
    start = raw.get("attribute_start", 1)
    rows = []

    def dots(final, free, base):
        final = final if isinstance(final, int) and not isinstance(final, bool) else 0
        out = []
        for i in range(1, max(final, 0) + 1):
            if i <= base:
                out.append("base")
            elif i <= base + free:
                out.append("free")
            else:
                out.append("xp")
        return out

    attributes = get_as(build, "attributes", dict, {})
    created = allocation.get("attributes") or {}
    groups = raw.get("groups") or {}
    primary = allocation.get("primary") or derived.get("primary")
    for group, ids in groups.items():
        items = []
        for aid in ids:
            final = attributes.get(aid)
            free = max(0, (created.get(aid, start) or start) - start)
            items.append(
                {"id": aid, "label": ui.label(aid), "dots": dots(final, free, start), "final": final}
            )
        rows.append(
            {
                "label": f"{ui.label(group)} attributes" + (" (primary)" if group == primary else ""),
                "items": items,
            }
        )
    abilities = get_as(build, "abilities", dict, {})
    ab_created = allocation.get("abilities") or {}
    labels = {
        o["id"]: o.get("label", ui.label(o["id"])) for o in (by_id.get("abilities") or {}).get("options", [])
    }
    items = [
        {
            "id": aid,
            "label": labels.get(aid, ui.label(aid)),
            "dots": dots(v, ab_created.get(aid, 0) or 0, 0),
            "final": v,
        }
        for aid, v in abilities.items()
        if isinstance(v, int) and v > 0
    ]
    rows.append({"label": "Abilities", "items": items})
    wp = build.get("willpower")
    wp_start = raw.get("willpower_start", 3)
    rows.append(
        {
            "label": "Willpower",
            "items": [
                {
                    "id": "willpower",
                    "label": "Willpower",
                    "final": wp,
                    "dots": dots(wp, 0, wp_start if isinstance(wp, int) else 0),
                }
            ],
        }
    )
    return {
        "creation": {
            "rows": rows,
            "source": allocation.get("source"),
            "recorded": isinstance(build.get("creation"), dict),
            "priced": bool(allocation),
        }
    }


WIDGETS = {"maelstrom_creation": creation}
