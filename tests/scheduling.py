"""How ``make test`` shares the tests between its pytest-xdist workers (tests/conftest.py's
``pytest_xdist_make_scheduler``; ``--dist loadfile``).

- **Units.** A test file is one unit (its module fixtures are set up once), and every browser test
  (tests/e2e/, tests/rulesets/<slug>/e2e/) is in one unit, run one after another on one worker:
  spread over two workers, two Chromiums and their servers on two cores made a different browser
  test miss a live update in each full run (three runs, 15-second waits), where one after another
  they pass. Within it the tests keep pytest's order, a package's tests together (one Chromium
  start per package).
- **Longest first.** Units go out in the order of their time in tests/durations.json (seconds per
  unit, from a full run: ``python tests/scheduling.py JUNIT_XML`` writes it); a unit not there yet
  counts a second a test (ten for a browser test). The worker that frees up first takes the next:
  the browser unit first, the other worker the rest.
- **Alone.** A test marked ``@pytest.mark.alone`` holds a wall-clock budget (a page within a
  second, a health check within its deadline): it would measure the other workers, not the code.
  Those tests wait until every other unit has run and every other worker has stopped, then run on
  one worker, one after another. The controller does not collect tests, so the mark is read from
  each file's source (a decorator on the test, or the module's ``pytestmark``).
"""

from __future__ import annotations

import ast
import functools
import json
import sys
from collections import OrderedDict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DURATIONS = Path(__file__).resolve().parent / "durations.json"
ALONE = "alone"


def is_browser(path: str) -> bool:
    return path.startswith("tests/e2e/") or "/e2e/" in path


#: The one unit of every browser test.
BROWSER = "browser tests"


def unit_of(nodeid: str) -> str:
    """The unit a test goes out in: its file, or for a browser test the one unit of them all."""
    path = nodeid.partition("::")[0]
    return BROWSER if is_browser(path) else path


@functools.cache
def _alone_in(path: str) -> tuple[bool, frozenset[str]]:
    """(whole module alone, names of the test functions marked alone) of a test file."""
    try:
        tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
    except (OSError, SyntaxError):
        return False, frozenset()

    def marks_alone(node: ast.AST) -> bool:
        return any(
            isinstance(n, ast.Attribute) and n.attr == ALONE and "mark" in ast.unparse(n.value)
            for n in ast.walk(node)
        )

    module = any(
        isinstance(node, ast.Assign)
        and any(isinstance(t, ast.Name) and t.id == "pytestmark" for t in node.targets)
        and marks_alone(node.value)
        for node in tree.body
    )
    functions = frozenset(
        node.name
        for node in tree.body
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and any(marks_alone(d) for d in node.decorator_list)
    )
    return module, functions


def is_alone(nodeid: str) -> bool:
    path, _, rest = nodeid.partition("::")
    module, functions = _alone_in(path)
    return module or rest.split("[", 1)[0] in functions


def _known() -> dict[str, float]:
    try:
        return json.loads(DURATIONS.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


def make_scheduler(config, log):
    from xdist.scheduler import LoadScopeScheduling

    class LongestFirstAloneLast(LoadScopeScheduling):
        def __init__(self, config, log=None):
            super().__init__(config, log)
            self.alone: dict[str, bool] = {}  # the alone tests, one unit, sent last
            self.alone_node = None
            self.alone_sent = False

        def _split_scope(self, nodeid: str) -> str:
            return ALONE if is_alone(nodeid) else unit_of(nodeid)

        def schedule(self) -> None:
            """LoadScopeScheduling.schedule(), with the queue in our order and the alone tests aside."""
            assert self.collection_is_completed
            if self.collection is not None:  # a worker came late: give it work like the others
                for node in self.nodes:
                    self._reschedule(node)
                return
            if not self._check_nodes_have_same_collection():
                self.log("**Different tests collected, aborting run**")
                return
            self.collection = list(next(iter(self.registered_collections.values())))
            if not self.collection:
                return
            units: dict[str, dict[str, bool]] = {}
            for nodeid in self.collection:
                units.setdefault(self._split_scope(nodeid), {})[nodeid] = False
            self.alone = units.pop(ALONE, {})
            known = _known()

            def seconds(unit: str) -> float:
                return known.get(unit, len(units[unit]) * (10.0 if unit == BROWSER else 1.0))

            for unit in sorted(units, key=seconds, reverse=True):
                self.workqueue[unit] = units[unit]
            for node in self.nodes:
                if self.workqueue:
                    self._assign_work_unit(node)
            for node in self.nodes:
                self._reschedule(node)

        @property
        def tests_finished(self) -> bool:
            return (not self.alone or self.alone_sent) and super().tests_finished

        @property
        def has_pending(self) -> bool:
            return bool(self.alone and not self.alone_sent) or super().has_pending

        def _reschedule(self, node) -> None:
            if node.shutting_down:
                return
            if self.workqueue or not self.alone or self.alone_sent:
                return super()._reschedule(node)
            # Nothing left but the alone tests: the first worker here keeps them; the others stop.
            if self.alone_node is None:
                self.alone_node = node
                for other in self.nodes:
                    if other is not node and not other.shutting_down:
                        other.shutdown()
            elif node is not self.alone_node:
                node.shutdown()
            self._send_alone_when_alone()

        def remove_node(self, node):
            crashed = super().remove_node(node)
            if self.alone_node is node:
                self.alone_node = None  # it died: another worker may take them
            self._send_alone_when_alone()
            return crashed

        def _send_alone_when_alone(self) -> None:
            node = self.alone_node
            if node is None or self.alone_sent or any(n is not node for n in self.nodes):
                return
            self.alone_sent = True
            self.assigned_work.setdefault(node, {})[ALONE] = self.alone
            collection = self.registered_collections[node]
            node.send_runtest_some([collection.index(nodeid) for nodeid in self.alone])

    return LongestFirstAloneLast(config, log)


def write_durations(junit_xml: str) -> None:
    """tests/durations.json from a full run's JUnit XML (``pytest --junitxml=...``)."""
    import xml.etree.ElementTree as ET

    seconds: dict[str, float] = {}
    for case in ET.parse(junit_xml).iter("testcase"):
        path = case.get("file") or case.get("classname", "").replace(".", "/") + ".py"
        nodeid = f"{path}::{case.get('name', '')}"
        unit = unit_of(nodeid)
        seconds[unit] = seconds.get(unit, 0.0) + float(case.get("time") or 0)
    ordered = OrderedDict(sorted(((u, round(t, 1)) for u, t in seconds.items()), key=lambda kv: -kv[1]))
    DURATIONS.write_text(json.dumps(ordered, indent=0) + "\n", encoding="utf-8")


if __name__ == "__main__":
    write_durations(sys.argv[1])
