"""The rulebook's order, everywhere: documents read back from a database in another key order
(Postgres ``jsonb`` keeps keys by length, then bytes) are put back in the order the ruleset
declares.

The ruleset declares its order by what it already publishes, in order: its traits (the builder's
sections, their fields, options and keys) and its content catalogues (entries in file order),
then the keys of the derived values it computes for its own example builds (dicts in Python keep
the order the rules wrote them). A ruleset may add ids to the front with ``rulebook_order``
(content ``order.json`` ``{"keys": [...]}``). Plain Python: no ORM, no request.

    index = rulebook_index(ruleset)
    build = in_rulebook_order(build, index)   # {"attributes": {"presence": 1, "strength": 2}} →
                                              # {"attributes": {"strength": 2, "presence": 1}}
"""

from __future__ import annotations

import logging
from typing import Any

logger = logging.getLogger(__name__)

_INDEX: dict[tuple[str, int, bool], dict[str, Any]] = {}


def _walk_ids(value: Any, out: dict[str, int]) -> None:
    """Every "id" of every dict inside ``value``, in document order."""
    if isinstance(value, dict):
        ident = value.get("id")
        if isinstance(ident, str) and ident not in out:
            out[ident] = len(out)
        for item in value.values():
            _walk_ids(item, out)
    elif isinstance(value, (list, tuple)):
        for item in value:
            _walk_ids(item, out)


def _walk_keys(value: Any, out: dict[str, dict[str, int]], parent: str = "") -> None:
    """The keys of every dict inside ``value`` in document order, per the key it sits under."""
    if isinstance(value, dict):
        order = out.setdefault(parent, {})
        for key, item in value.items():
            if isinstance(key, str) and key not in order:
                order[key] = len(order)
            _walk_keys(item, out, str(key))
    elif isinstance(value, (list, tuple)):
        for item in value:
            _walk_keys(item, out, parent)


def rulebook_index(ruleset: Any, *, derived: bool = False) -> dict[str, Any]:
    """id → its place in the ruleset's order (cached per ruleset). ``derived``: the order of a
    report's derived values, where the keys the rules compute come first (as the rules write
    them for the ruleset's example builds, per the key they sit under: ``_under``), then the
    traits' and catalogues' ids."""
    key = (getattr(ruleset, "slug", ""), id(ruleset), derived)
    if key in _INDEX:
        return _INDEX[key]
    index: dict[str, Any] = {}
    try:
        declared = (getattr(ruleset, "tables", None) or {}).get("order") or {}
        for ident in declared.get("keys", []) if isinstance(declared, dict) else []:
            if isinstance(ident, str) and ident not in index:
                index[ident] = len(index)
        _walk_ids(ruleset.describe(), index)
        if derived:
            under: dict[str, dict[str, int]] = {}
            for build in _example_builds(ruleset):
                _walk_keys(ruleset.validate(build).derived, under)
            index = {"_ids": index, "_under": under}
    except Exception:  # a ruleset that cannot describe itself: documents stay as they are
        logger.exception("the rulebook order of %s could not be read", getattr(ruleset, "slug", ruleset))
    _INDEX[key] = index
    return index


def report_in_rulebook_order(report: Any, ruleset: Any) -> Any:
    """A report (``Report.as_dict()``) read back from a database, its derived values in the
    order the rules compute them."""
    if not isinstance(report, dict) or not isinstance(report.get("derived"), dict):
        return report
    derived = in_rulebook_order(report["derived"], rulebook_index(ruleset, derived=True), depth=1)
    if derived is report["derived"]:
        return report
    return {**report, "derived": derived}


def _example_builds(ruleset: Any) -> list[dict[str, Any]]:
    """The ruleset's own builds: its API example, its demo characters, its blank build."""
    builds = []
    examples = getattr(ruleset, "api_examples", None)
    if callable(examples):
        build = (examples() or {}).get("build")
        if isinstance(build, dict):
            builds.append(build)
    demos = getattr(ruleset, "demo_builds", None)
    if callable(demos):
        builds.extend(d["document"] for d in demos() if isinstance(d.get("document"), dict))
    try:
        builds.append(ruleset.blank_build("Example"))
    except Exception:  # noqa: BLE001 - a ruleset without a blank build: the others say enough
        logger.debug("ruleset %s has no blank build", getattr(ruleset, "slug", ruleset))
    return builds


def in_rulebook_order(value: Any, index: dict[str, Any], *, depth: int = 0, parent: str = "") -> Any:
    """``value`` with every nested dict's keys in the rulebook's order (keys the ruleset does not
    know keep their order, after the known ones). The top level (a document's own keys) is left
    as it is. Returns the same object when nothing moves."""
    if isinstance(value, dict):
        items = {k: in_rulebook_order(v, index, depth=depth + 1, parent=str(k)) for k, v in value.items()}
        order = index.get("_under", {}).get(parent) if "_under" in index else None
        ids = index.get("_ids", index) if "_under" in index else index
        if depth > 0 and len(items) > 1:
            last = len(ids) + len(order or ())

            def place(k):
                if order and k in order:
                    return order[k]
                return len(order or ()) + ids[k] if k in ids else last

            keys = sorted(items, key=place)
            if keys != list(items):
                return {k: items[k] for k in keys}
        if all(items[k] is value[k] for k in items):
            return value
        return items
    if isinstance(value, list):
        items_l = [in_rulebook_order(v, index, depth=depth + 1, parent=parent) for v in value]
        return value if all(a is b for a, b in zip(items_l, value, strict=True)) else items_l
    return value
