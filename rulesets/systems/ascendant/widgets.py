"""Ascendant's builder widgets: the attribute boosts and the level-by-level choices.

Each function takes the traits section, the build, the report (as a dict) and the builder's
``ui`` (see ``Ruleset.builder_widget``) and returns what the widget's template
``templates/ascendant/builder/<widget>.html`` shows besides the section.
"""

from __future__ import annotations

from typing import Any

from rulesets.engine.fields import get_as
from rulesets.engine.pointer import join


def boosts(raw: dict, build: dict, report: dict, ui: Any) -> dict:
    """Ancestry, background and free boosts as rows of attribute checkboxes; the class boost a select."""
    data = raw.get("data") or {}
    attributes = data.get("attributes") or []
    boosts = get_as(build, "boosts", dict, {})
    by_id = {s.get("id"): s for s in ui.sections}
    ancestry = next(
        (o for o in (by_id.get("ancestry") or {}).get("options", []) if o["id"] == build.get("ancestry")),
        None,
    )
    klass = next(
        (o for o in (by_id.get("class") or {}).get("options", []) if o["id"] == build.get("class")), None
    )
    background = next(
        (o for o in (by_id.get("background") or {}).get("options", []) if o["id"] == build.get("background")),
        None,
    )
    groups = []
    named = {a["id"]: a.get("label", a["id"]) for a in attributes}  # "con" → "Constitution"
    hints = {
        "ancestry": (
            (
                f"{ancestry['label']}: always {', '.join(named.get(b, b) for b in ancestry.get('boosts') or []) or 'nothing fixed'}"
                + (
                    f", plus {ancestry.get('free_boosts')} free"
                    if ancestry.get("free_boosts")
                    else " (automatic if you tick none)"
                )
            )
            if ancestry
            else "Choose an ancestry first."
        ),
        "background": (
            f"{data.get('background_boosts', 3)} different attributes"
            + (
                f"; one of them {' or '.join(named.get(b, b) for b in background.get('boosts') or [])}"
                if background and background.get("boosts")
                else ""
            )
        ),
        "free": f"{data.get('free_boosts', 4)} different attributes.",
    }
    for group in ("ancestry", "background", "free"):
        chosen = get_as(boosts, group, list, [])
        pointer = join(raw["path"], group)
        head = ui.control(pointer, chosen, label=ui.label(group))
        head["options"] = [
            {
                "id": a["id"],
                "label": a.get("label", a["id"]),
                "selected": a["id"] in chosen,
                "dom_id": ui.html_id(pointer + "/" + a["id"], "b"),
            }
            for a in attributes
        ]
        head["hint"] = hints[group]
        groups.append(head)
    keys = (klass or {}).get("key_attributes") or [a["id"] for a in attributes]
    class_field = ui.control(
        join(raw["path"], "class"),
        boosts.get("class"),
        label="Class key attribute",
        options=[
            {"id": a["id"], "label": a.get("label", a["id"]), "selected": a["id"] == boosts.get("class")}
            for a in attributes
            if a["id"] in keys or a["id"] == boosts.get("class")
        ],
    )
    final = (report.get("derived") or {}).get("attributes") or {}
    totals = [
        {"id": a["id"], "label": a.get("label", a["id"]), "value": final.get(a["id"])} for a in attributes
    ]
    return {"boost_groups": groups, "class_field": class_field, "totals": totals}


def levels(raw: dict, build: dict, report: dict, ui: Any) -> dict:
    """Level by level: the attribute points, the skill increase and one select per feat slot."""
    data = raw.get("data") or {}
    feats = data.get("feats") or {}
    level = get_as(build, "level", int, 1)
    chosen = get_as(build, "levels", dict, {})
    by_id = {s.get("id"): s for s in ui.sections}
    skills = [
        (o["id"], o.get("label", ui.label(o["id"]))) for o in (by_id.get("skills") or {}).get("options", [])
    ]
    # Lores rise by skill increases too: the ones this character knows (the report's derived lores).
    lore_names = {
        o["id"]: o.get("label", ui.label(o["id"])) for o in (by_id.get("lores") or {}).get("options", [])
    }
    skills += [
        (lid, lore_names.get(lid, ui.label(lid)))
        for lid in (report.get("derived") or {}).get("lores") or []
        if isinstance(lid, str)
    ]
    attributes = ((by_id.get("boosts") or {}).get("data") or {}).get("attributes") or []
    # Only the feats this character may still take: its own ancestry's and class's, none that its
    # heritage or background already grants, none chosen in another slot.
    sections = {s.get("id"): s for s in ui.sections}

    def picked(section_id: str) -> dict:
        return next(
            (
                o
                for o in (sections.get(section_id) or {}).get("options", [])
                if o["id"] == build.get(section_id)
            ),
            {},
        )

    granted = {
        picked("heritage").get("feat"),
        picked("background").get("skill_feat"),
        picked("background").get("general_feat"),
    } - {None}
    taken: dict[str, str] = {}
    for n_key, mine in chosen.items():
        for kind, f in ((mine or {}).get("feats") or {}).items() if isinstance(mine, dict) else ():
            for one in f if isinstance(f, list) else [f]:
                if isinstance(one, str) and one:
                    taken.setdefault(one, f"{n_key}/{kind}")

    def legal(f: str, slot: str) -> bool:
        meta = feats.get(f) or {}
        if meta.get("ancestry") and meta["ancestry"] != build.get("ancestry"):
            return False
        if meta.get("class") and meta["class"] != build.get("class"):
            return False
        if meta.get("teaches") and meta["teaches"] == build.get("class"):
            return False  # W13: a class is not learned a second time by its own members
        return f not in granted and taken.get(f, slot) == slot

    errors = [e.get("path") or "" for e in report.get("errors") or []]
    steps = []
    for plan in data.get("levels") or []:
        n = plan.get("level")
        if not isinstance(n, int) or n > max(level, 1):
            continue
        mine = get_as(chosen, str(n), dict, {})
        base = join(raw["path"], str(n))
        slots = []
        my_feats = get_as(mine, "feats", dict, {})
        for kind, allowed in (plan.get("feats") or {}).items():
            value = my_feats.get(kind)
            if isinstance(value, list):  # several feats of one kind at this level (a list slot)
                values = [v for v in value if isinstance(v, str)]
                offered = [f for f in allowed if legal(f, f"{n}/{kind}")]
                pointer = base + "/feats/" + kind
                picks = []
                for j, v in enumerate(values):
                    opts = [
                        {
                            "id": f,
                            "label": (feats.get(f) or {}).get("label", ui.label(f)),
                            "help": (feats.get(f) or {}).get("help", ""),
                            "selected": f == v,
                        }
                        for f in offered
                    ]
                    if v not in offered:
                        opts.append(
                            {
                                "id": v,
                                "label": (feats.get(v) or {}).get("label", v),
                                "help": "",
                                "selected": True,
                            }
                        )
                    picks.append(
                        {
                            "id": ui.html_id(pointer, "f") + f"-{j}",
                            "options": opts,
                            "chosen_help": (feats.get(v) or {}).get("help", ""),
                        }
                    )
                slots.append(
                    ui.control(pointer, values, label=f"{ui.label(kind)} feats", options=[], picks=picks)
                )
                continue
            offered = [f for f in allowed if legal(f, f"{n}/{kind}")]
            opts = [
                {
                    "id": f,
                    "label": (feats.get(f) or {}).get("label", ui.label(f)),
                    "help": (feats.get(f) or {}).get("help", ""),
                    "selected": f == value,
                }
                for f in offered
            ]
            if isinstance(value, str) and value and value not in offered:
                label = (feats.get(value) or {}).get("label", value)
                opts.append(
                    {"id": value, "label": f"{label} (not allowed here)", "help": "", "selected": True}
                )
            slots.append(
                ui.control(
                    base + "/feats/" + kind,
                    value if isinstance(value, str) else "",
                    label=f"{ui.label(kind)} feat",
                    options=opts,
                    chosen_help=(feats.get(value) or {}).get("help", "") if isinstance(value, str) else "",
                )
            )
        points = []
        if plan.get("attribute_points"):
            my_attrs = get_as(mine, "attributes", dict, {})
            for a in attributes:
                points.append(
                    ui.control(
                        base + "/attributes/" + a["id"],
                        my_attrs.get(a["id"], ""),
                        label=a.get("label", a["id"]),
                        max=plan["attribute_points"],
                    )
                )
        increase = None
        if plan.get("skill_increase"):
            value = mine.get("skill_increase")
            increase = ui.control(
                base + "/skill_increase",
                value or "",
                label="Skill increase",
                options=[{"id": sid, "label": lab, "selected": sid == value} for sid, lab in skills],
            )
        head = ui.control(base, None, label=f"Level {n}")
        has_error = any(p == base or p.startswith(base + "/") for p in errors)
        done = (
            not has_error
            and all(s["value"] for s in slots)
            and (increase is None or increase["value"])
            and (not points or any(p["value"] not in ("", None, 0) for p in points))
        )
        steps.append(
            {
                **head,
                "level": n,
                "proficiency": plan.get("class_proficiency"),
                "attribute_max": plan.get("attribute_max"),
                "attribute_points": plan.get("attribute_points"),
                "slots": slots,
                "points": points,
                "increase": increase,
                "done": done,
            }
        )
    return {"steps": steps, "current_level": level}


WIDGETS = {"ascendant_boosts": boosts, "ascendant_levels": levels}
