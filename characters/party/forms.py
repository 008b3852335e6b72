"""The party's "who should roll" question as a person or a client asks it, checked: the table's
numbers (``check_table``, only the keys the ruleset's table sets, each value one its odds form
allows), the ``need`` (``check_need``) and the table's help (``check_aid``). A form's text
(``form=True``) or the API's JSON alike; a refusal is a ``PartyRefused`` (400) naming the field.
"""

from __future__ import annotations

from typing import Any

from characters.party.selectors import safe_hook
from config.bounds import require_bounded
from config.errors import BadInput
from rulesets.engine.context import Context
from rulesets.engine.fields import is_int
from rulesets.engine.ruleset import Ruleset

#: The largest ``need`` of a party roll (successes or effect points needed).
MAX_NEED = 100


class PartyRefused(BadInput):
    """A party odds request the rules cannot answer (400): ``errors`` is [{field, message}]."""

    code = "party_odds_refused"


def table_specs(ruleset: Ruleset) -> dict[str, dict[str, Any]]:
    """{table key: its field of the ruleset's odds form (label, min/max or choices, default)}, for
    every key of ``table_keys`` (a key the form does not list gets its label only)."""
    fields = safe_hook("odds_form", None, ruleset.odds_form) or []
    form = {f["name"]: f for f in fields if isinstance(f, dict) and isinstance(f.get("name"), str)}
    return {
        key: dict(form.get(key) or {"name": key, "label": ruleset.label(key)}) for key in ruleset.table_keys
    }


def _whole(raw: Any, *, form: bool) -> int | None:
    if is_int(raw):
        return raw
    if form and isinstance(raw, str):
        text = raw.strip()
        if text.lstrip("-").isdigit() and len(text) <= 6:
            return int(text)
    return None


def refuse(message: str, field: str) -> PartyRefused:
    return PartyRefused(message, field=field)


def check_table(ruleset: Ruleset, table: Any, *, form: bool = False) -> dict[str, Any]:
    """The table's numbers, checked: only keys of ``ruleset.table_keys``, each value one the odds
    form allows. ``form``: values are a form's text (an empty one is left out). Raises
    ``PartyRefused``."""
    if table is None:
        return {}
    require_bounded(table, what="The table's numbers")
    allowed = ", ".join(ruleset.table_keys) or "none"
    if not isinstance(table, dict):
        raise refuse(f"The table's numbers are an object of {allowed}.", "table")
    specs = table_specs(ruleset)
    out: dict[str, Any] = {}
    for key, raw in table.items():
        spec = specs.get(key)
        if spec is None:
            raise refuse(
                f"{key!r} is not one of the numbers the table sets in {ruleset.name}: {allowed}.",
                f"table.{key}",
            )
        if form and raw in ("", None):
            continue
        label = spec.get("label") or ruleset.label(key)
        if "choices" in spec:
            raw = (spec.get("aliases") or {}).get(raw, raw) if isinstance(raw, str) else raw
            if raw not in spec["choices"]:
                words = ", ".join(ruleset.label(c) for c in spec["choices"])
                raise refuse(f"{label} is one of {words}.", f"table.{key}")
            out[key] = raw
            continue
        value = _whole(raw, form=form)
        numeric = any(is_int(spec.get(k)) for k in ("min", "max", "default"))
        if value is None and not numeric and isinstance(raw, str) and raw.strip():
            out[key] = raw  # a key the odds form does not describe: the ruleset's odds judge it
            continue
        if value is None:
            raise refuse(f"{label} is a whole number.", f"table.{key}")
        low, high = spec.get("min"), spec.get("max")
        if (is_int(low) and value < low) or (is_int(high) and value > high):
            raise refuse(f"{label} goes from {low} to {high}.", f"table.{key}")
        out[key] = value
    return out


def need_label(ruleset: Ruleset) -> str:
    """What ``need`` is called in the ruleset (its labels' ``need``), else in plain words."""
    words = ruleset.labels().get("need")
    return words if isinstance(words, str) and words else "Needed to succeed"


def check_need(ruleset: Ruleset, need: Any, *, form: bool = False) -> int | None:
    """``need``: only where the ruleset counts successes (``success_needs``), a whole number from 1."""
    if need is None or (form and need == ""):
        return None
    if not ruleset.success_needs:
        raise refuse(f"In {ruleset.name} a roll succeeds or fails: it takes no need.", "need")
    value = _whole(need, form=form)
    if value is None or not 1 <= value <= MAX_NEED:
        raise refuse(f"{need_label(ruleset)} is a whole number from 1 to {MAX_NEED}.", "need")
    return value


def roll_aids(ruleset: Ruleset, ctx: Context | None) -> list[dict[str, Any]]:
    """The help the table may give a party roll (``Ruleset.roll_aids``), well-formed ones only."""
    aids = safe_hook("roll_aids", [], ruleset.roll_aids, ctx) or []
    return [
        a
        for a in aids
        if isinstance(a, dict) and isinstance(a.get("id"), str) and isinstance(a.get("changes"), list)
    ]


def check_aid(
    ruleset: Ruleset, ctx: Context | None, aid: Any, *, form: bool = False
) -> dict[str, Any] | None:
    """The chosen aid (one of ``roll_aids``), or None."""
    if aid is None or (form and aid == ""):
        return None
    aids = roll_aids(ruleset, ctx)
    found = next((a for a in aids if a["id"] == aid), None) if isinstance(aid, str) else None
    if found is None:
        offered = ", ".join(f"{a['id']} ({a.get('label') or a['id']})" for a in aids) or "none"
        raise refuse(f"The table's help in {ruleset.name} is one of: {offered}.", "aid")
    return found
