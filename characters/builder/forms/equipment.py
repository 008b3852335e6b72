"""The items (gear) section shaped for its template: each entry with its fields, the add
select, and a short summary line per catalogue item (the ruleset's ``item_summary``)."""

from __future__ import annotations

from .fields import _entry_fields, _label
from .parsing import ptr_join


def _shape_items(raw, value, control, build, summarize=None):
    entries_raw = value if isinstance(value, list) else []
    catalogue = {o["id"]: o for o in raw.get("options", [])}
    entries = []
    for i, entry in enumerate(entries_raw):
        prefix = ptr_join(raw["path"], i)
        e = entry if isinstance(entry, dict) else {}
        item_id = e.get("item")
        option = catalogue.get(item_id)
        if option is not None:
            label = option.get("label", _label(item_id))
        elif isinstance(e.get("custom"), dict):
            label = str(e["custom"].get("name") or "Custom item")
        else:
            label = f"{item_id} (unknown)" if item_id else "Item"
        head = control(prefix, item_id, label=label)
        fields = _entry_fields(raw.get("entry_fields"), e, prefix, control)
        forbidden = (raw.get("forbidden_states") or {}).get(item_id)
        if forbidden:
            for f in fields:
                if f["name"] == prefix + "/" + raw["state_field"]:
                    f["options"] = [o for o in f["options"] if o["id"] not in forbidden or o["selected"]]
        entries.append(
            {
                **head,
                "index": i,
                "item": item_id,
                "summary": _item_summary(option, summarize),
                "fields": fields,
            }
        )
    add = control(
        raw["path"] + "/-",
        "",
        label=f"Add to {raw.get('label', 'the list').lower()}",
        options=[
            {"id": o["id"], "label": o.get("label", _label(o["id"])), "summary": _item_summary(o, summarize)}
            for o in raw.get("options", [])
        ],
    )
    return {"entries": entries, "add": add, "count": len(entries_raw)}


_SUMMARIES: dict[int, tuple[dict, str]] = {}


def _item_summary(option: dict | None, summarize) -> str:
    """A short line about a catalogue entry, the ruleset's words (cached: catalogue entries come from
    cached traits, and each ruleset's are its own objects)."""
    if not option or summarize is None:
        return ""
    hit = _SUMMARIES.get(id(option))
    if hit is not None and hit[0] is option:
        return hit[1]
    if len(_SUMMARIES) > 4096:
        _SUMMARIES.clear()
    text = summarize(option)
    _SUMMARIES[id(option)] = (option, text)
    return text
