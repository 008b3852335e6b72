"""The builder form's view-model: every section shaped for its template, each issue placed
beside the control it concerns, and the creation steps."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from rulesets.engine import registry
from rulesets.engine.pointer import resolve

from .equipment import _shape_items
from .fields import (
    _label,
    _shape_choice,
    _shape_mapping,
    _shape_multi,
    _shape_number,
    _shape_numbers,
    _shape_object,
    _shape_ranks,
    _shape_records,
    _shape_tree,
    html_id,
)


def _parent(pointer: str) -> str:
    return pointer.rpartition("/")[0]


class _Anchors:
    """Where each issue is shown: the deepest rendered control whose pointer is a prefix of its path."""

    def __init__(self) -> None:
        self.slots: dict[str, dict] = {}

    def add(self, pointer: str, dom_id: str) -> list:
        slot = self.slots.get(pointer)
        if slot is None:
            slot = self.slots[pointer] = {"dom_id": dom_id, "issues": []}
        return slot["issues"]

    def place(self, issue: dict) -> str | None:
        path = issue.get("path") or ""
        while True:
            slot = self.slots.get(path)
            if slot is not None:
                slot["issues"].append(issue)
                return slot["dom_id"]
            if not path:
                return None
            path = _parent(path)


@dataclass(frozen=True, slots=True)
class WidgetUI:
    """What a ruleset's custom builder widget may use (``Ruleset.builder_widget``)."""

    control: Callable[..., dict]
    html_id: Callable[..., str]
    label: Callable[[Any], str]
    sections: list


def _label_n(label_of, currency: str, amount: int) -> str:
    """The currency's word for ``amount`` ("1 point", "2 points") when ``label_of`` takes an amount."""
    try:
        return label_of(currency, amount)
    except TypeError:
        return label_of(currency)


def _cost_text(cost: dict | None, label_of) -> str:
    if not cost:
        return ""
    return ", ".join(f"{'+' if v >= 0 else ''}{v} {_label_n(label_of, c, abs(v))}" for c, v in cost.items())


def builder_form(
    traits: dict,
    build: Any,
    report: dict,
    *,
    next_costs: dict[str, dict] | None = None,
    currency_label=None,
    ruleset=None,
    meta: dict | None = None,
) -> dict:
    """Everything the builder template shows, computed once in Python (templates stay simple and fast).

    Returns {"sections": [...], "summary": [...issues with the id of the control they are shown
    beside], "general": [...issues with no control], "name": {...}, "notes": {...}}.
    """
    label_of = currency_label or (ruleset.currency_label if ruleset is not None else registry.label)
    build = build if isinstance(build, dict) else {}
    form = _Form(
        build=build,
        report=report,
        ruleset=ruleset,
        meta=meta or {},
        label_of=label_of,
        next_costs=next_costs or {},
        spent_at=_spent_at(report),
        anchors=_Anchors(),
    )
    form.ui = WidgetUI(
        control=form.control, html_id=html_id, label=_label, sections=(traits or {}).get("sections", [])
    )
    name = form.control("/name", build.get("name", ""), label="Name")
    notes = form.control("/notes", build.get("notes", ""), label="Notes")
    form.anchors.add("/budget", "builder-costs")
    sections = []
    for raw in (traits or {}).get("sections", []):
        if isinstance(raw, dict) and "path" in raw:
            sections.append(form.section(raw))
    summary, general = _placed_issues(report, form.anchors, sections)
    return {
        "sections": sections,
        "summary": summary,
        "general": general,
        "name": name,
        "notes": notes,
        "budget_issues": form.anchors.slots["/budget"]["issues"],
        "steps": _steps(form.meta.get("steps"), sections, report),
        "warnings": [i for i in summary if i["severity"] == "warning"],
        "errors": [i for i in summary if i["severity"] == "error"],
    }


def _spent_at(report: dict) -> dict[str, dict[str, int]]:
    """What the build spends at each path, per currency (the report's cost lines)."""
    spent_at: dict[str, dict[str, int]] = {}
    for line in report.get("costs") or []:
        per = spent_at.setdefault(line.get("path", ""), {})
        per[line.get("currency")] = per.get(line.get("currency"), 0) + (line.get("cost") or 0)
    return spent_at


@dataclass
class _Form:
    """One builder form being shaped: the build, its report and the ruleset's guidance, and where
    each issue is shown (``anchors``)."""

    build: dict
    report: dict
    ruleset: Any
    meta: dict
    label_of: Any
    next_costs: dict[str, dict]
    spent_at: dict[str, dict[str, int]]
    anchors: _Anchors
    ui: Any = None

    def control(self, pointer: str, value: Any, dom_id: str | None = None, **extra) -> dict:
        dom_id = dom_id or html_id(pointer)
        issues = self.anchors.add(pointer, dom_id)
        nxt = self.next_costs.get(pointer)
        return {
            "name": pointer,
            "id": dom_id,
            "value": value,
            "issues": issues,
            "err_id": dom_id + "-err",
            "spent": _cost_text(self.spent_at.get(pointer), self.label_of).lstrip("+"),
            "next": nxt,
            "next_text": _cost_text(nxt.get("cost"), self.label_of) if nxt else "",
            **extra,
        }

    def section(self, raw: dict) -> dict:
        """One section's view-model: its ruleset widget (``custom``) or a generic kind's shape."""
        filters = self.meta.get("option_filters") or {}
        item_states = self.meta.get("item_states") or {}
        if raw.get("id") in filters:
            raw = _filtered(raw, filters[raw["id"]], self.build)
        if raw.get("id") in item_states:
            raw = _with_item_states(raw, item_states[raw["id"]])
        kind = raw.get("kind", "")
        path = raw["path"]
        value = resolve(self.build, path, None)
        model = {
            "id": raw.get("id", ""),
            "label": raw.get("label", ""),
            "kind": kind,
            "path": path,
            "help": raw.get("help", ""),
            "raw": raw,
            "dom_id": "sec-" + str(raw.get("id", "")),
            "value": value,
            "spent": _cost_text(self.spent_at.get(path), self.label_of).lstrip("+"),
            "purse": self._purse(raw.get("currency")),
        }
        if kind == "custom":
            self._custom(model, raw)
        else:
            self._generic(model, raw, value, in_filters=raw.get("id") in filters)
        return model

    def _purse(self, currency: Any) -> str:
        """What is left of the currency a section spends (its traits' ``currency``), in words beside
        what it buys: "Money: 12 of 20 left"; "" when the build has no budget of it."""
        budget = (self.report.get("budget") or {}).get(currency) if isinstance(currency, str) else None
        if not isinstance(budget, int):
            return ""
        left = (self.report.get("remaining") or {}).get(currency, budget)
        name = _label_n(self.label_of, currency, 2)
        name = name[:1].upper() + name[1:]
        if left < 0:
            return f"{name}: {budget - left} spent of {budget}, {-left} too much"
        return f"{name}: {left} of {budget} left"

    def _custom(self, model: dict, raw: dict) -> None:
        widget = str(raw.get("widget") or "")
        slug = self.ruleset.slug if self.ruleset is not None else ""
        # The ruleset's own widget template, else a generic "this widget is not available" box.
        model["template"] = (
            f"{slug}/builder/{widget}.html",
            "characters/builder/_builder_section_unknown.html",
        )
        # Issues beside the widget's own controls, else at the section (unless another section
        # already shows that path: then the widget lists every issue under it, ``_placed_issues``).
        model["shared_path"] = model["path"] in self.anchors.slots
        model["issues"] = [] if model["shared_path"] else self.anchors.add(model["path"], model["dom_id"])
        if self.ruleset is not None and widget:
            model.update(self.ruleset.builder_widget(widget, raw, self.build, self.report, self.ui))

    def _generic(self, model: dict, raw: dict, value: Any, *, in_filters: bool) -> None:
        kind = model["kind"]
        model["template"] = f"characters/builder/_builder_section_{kind}.html"
        model["issues"] = self.anchors.add(model["path"], model["dom_id"])
        shaper = SHAPERS.get(kind)
        if kind == "items":
            summarize = self.ruleset.item_summary if self.ruleset is not None else None
            model.update(_shape_items(raw, value, self.control, self.build, summarize))
        elif shaper is not None:
            model.update(shaper(raw, value, self.control, self.build))
        else:
            model["template"] = "characters/builder/_builder_section_unknown.html"
        if in_filters and not raw.get("options"):
            model["empty_text"] = (self.meta.get("empty_filter_text") or {}).get(
                raw["id"], "Nothing to choose yet."
            )
        choices = self.meta.get("choices") or {}
        if kind == "number" and raw.get("id") in choices:
            current = "" if value is None else str(value)
            model["choices"] = [
                {"id": o["id"], "label": o.get("label", o["id"]), "selected": o["id"] == current}
                for o in choices[raw["id"]].get("options", [])
            ]


def _placed_issues(report: dict, anchors: _Anchors, sections: list[dict]) -> tuple[list[dict], list[dict]]:
    """(every issue with the id of the control it is shown beside, those with no control); a
    ruleset widget on a path another section shows lists every issue under it."""
    summary, general = [], []
    for severity, key in (("error", "errors"), ("warning", "warnings")):
        for issue in report.get(key) or []:
            item = {**issue, "severity": severity}
            dom_id = anchors.place(item)
            item["dom_id"] = dom_id
            summary.append(item)
            if dom_id is None:
                general.append(item)
    for model in sections:
        if model["kind"] == "custom" and model["shared_path"]:
            prefix = model["path"]
            model["issues"] = [i for i in summary if i.get("path", "").startswith(prefix) and prefix]
    return summary, general


def _filtered(raw: dict, spec: dict, build: dict) -> dict:
    """Only the options legal for the earlier picks (``builder.json`` ``option_filters``:
    {section id: {option key: pointer}}): an option whose key names another value than the
    build's at the pointer is left out. The current value stays listed (marked unknown) so that
    nothing is silently lost; the rules report it."""
    picks = {key: resolve(build, pointer, None) for key, pointer in spec.items()}
    options = [o for o in raw.get("options", []) if all(o.get(k) in (None, picks[k]) for k in picks)]
    return {**raw, "options": options}


def _with_item_states(raw: dict, spec: dict) -> dict:
    """Items whose state field offers only the states each catalogue item allows (``item_states``
    ``needs``: {state: the catalogue key an item must have to be put in it})."""
    field, needs = spec.get("field", "state"), spec.get("needs") or {}
    allowed = {o["id"]: [s for s, need in needs.items() if not o.get(need)] for o in raw.get("options", [])}
    return {**raw, "state_field": field, "forbidden_states": allowed}


def words_and(items: list[str]) -> str:
    """["1. Ancestry", "3. Background", "4. Class"] → "1. Ancestry, 3. Background and 4. Class"."""
    return ", ".join(items[:-1]) + " and " + items[-1] if len(items) > 1 else "".join(items)


def _steps(spec: Any, sections: list[dict], report: dict) -> list[dict]:
    """The ruleset's creation order (``builder.json`` ``steps``): each step's sections and whether
    it is complete. An error belongs to the step whose section path is the longest prefix of its
    path; a step with an error is never complete. Without steps, one step holds every section."""
    by_id = {m["id"]: m for m in sections}
    steps: list[dict[str, Any]] = []
    placed: set[str] = set()
    for i, st in enumerate(spec or []):
        if not isinstance(st, dict):
            continue
        mine = [by_id[sid] for sid in st.get("sections", []) if sid in by_id and sid not in placed]
        placed.update(m["id"] for m in mine)
        steps.append(
            {
                "id": st.get("id", str(i)),
                "number": len(steps) + 1,
                "label": st.get("label", ""),
                "text": st.get("text", ""),
                "sections": mine,
                "errors": 0,
                "warnings": 0,
                "dom_id": "step-" + str(st.get("id", i)),
                "needs": [n for n in st.get("needs") or [] if isinstance(n, str)],
            }
        )
    rest = [m for m in sections if m["id"] not in placed]
    if rest:
        steps.append(
            {
                "id": "more",
                "number": len(steps) + 1,
                "label": "More" if steps else "The build",
                "text": "",
                "sections": rest,
                "errors": 0,
                "warnings": 0,
                "dom_id": "step-more",
            }
        )
    owners = sorted(((m["path"], st) for st in steps for m in st["sections"]), key=lambda x: -len(x[0]))
    for key, severity in (("errors", "errors"), ("warnings", "warnings")):
        for issue in report.get(key) or []:
            path = issue.get("path") or ""
            owner = next((st for p, st in owners if p and (path == p or path.startswith(p + "/"))), None)
            if owner is not None:
                owner[severity] += 1
    by_step = {st["id"]: st for st in steps}
    for st in steps:
        st["complete"] = st["errors"] == 0 and st["warnings"] == 0
        st["state"] = "error" if st["errors"] else ("todo" if st["warnings"] else "complete")
        # A step that needs an earlier one (``needs``: a heritage needs the ancestry) is never complete
        # before it: it waits, saying for what.
        waiting = [by_step[n] for n in st.get("needs", []) if n in by_step and not by_step[n]["complete"]]
        if waiting and st["state"] != "error":
            st["complete"] = False
            st["state"] = "waiting"
            st["waiting_for"] = words_and([f"{w['number']}. {w['label']}" for w in waiting])
    return steps


SHAPERS = {
    "number": _shape_number,
    "numbers": _shape_numbers,
    "ranks": _shape_ranks,
    "choice": _shape_choice,
    "mapping": _shape_mapping,
    "tree": _shape_tree,
    "multi": _shape_multi,
    "items": _shape_items,
    "records": _shape_records,
    "object": _shape_object,
}
