"""The layout a newcomer can find their way in (issue "One feature, one folder"), held.

import-linter (`make lint`, pyproject.toml ``[tool.importlinter]``) holds the layers. These tests
hold the rest of the shape, each of which once slipped back after it was built: no module imports
itself round a loop, no product module too long to read, no flat per-layer files in the apps, and
no ``mark_safe`` without a reason, no product function too long to read, no selector that builds HTML
or parses a form.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import grimp

from tests.waiting import DELIBERATE

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("config", "characters", "combat", "rulesets")
#: "Nothing in the product over ~900 lines."
MAX_LINES = 900
#: A feature's layer file named by layer and feature (``views_sheet.py``), rather than a
#: feature's folder holding ``views.py``. ``api_urls.py`` is the app's URL root, not a layer file.
FLAT_LAYER_FILE = re.compile(
    r"^(views|api|serializers|forms|services|selectors|presenters)_(?!urls\.py$)\w+\.py$"
)


def _product_modules() -> list[Path]:
    return sorted(
        path
        for package in PACKAGES
        for path in (ROOT / package).rglob("*.py")
        if "migrations" not in path.parts and "__pycache__" not in path.parts
    )


def _loops(graph) -> list[list[str]]:
    """One import chain per loop: a module, then what it imports, round to the module again."""
    loops, seen = [], set()
    for module in sorted(graph.modules):
        for imported in sorted(graph.find_modules_directly_imported_by(module)):
            if not graph.chain_exists(importer=imported, imported=module):
                continue
            chain = [module, *graph.find_shortest_chain(importer=imported, imported=module)]
            if frozenset(chain) not in seen:
                seen.add(frozenset(chain))
                loops.append(chain)
    return loops


def test_no_module_imports_itself_round_a_loop():
    """Imports inside functions count (they are how a loop hides), and so do those under
    TYPE_CHECKING (a loop of annotations is still two modules that need each other)."""
    graph = grimp.build_graph(*PACKAGES, cache_dir=None)
    assert len(graph.modules) > 200  # the whole product was read
    assert [" → ".join(chain) for chain in _loops(graph)] == []


def test_the_loop_finder_finds_loops_hidden_in_a_function_or_in_the_types(tmp_path, monkeypatch):
    package = tmp_path / "looped"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("from looped import b\n")
    (package / "b.py").write_text("def late():\n    from looped import a\n")
    (package / "c.py").write_text("from looped import d\n")
    (package / "d.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from looped import c\n"
    )
    (package / "e.py").write_text("from looped import a\n")  # uses a loop, is not in one
    monkeypatch.syspath_prepend(str(tmp_path))
    graph = grimp.build_graph("looped", cache_dir=None)
    assert _loops(graph) == [["looped.a", "looped.b", "looped.a"], ["looped.c", "looped.d", "looped.c"]]


def test_no_product_module_is_too_long_to_read():
    long = {
        str(path.relative_to(ROOT)): lines
        for path in _product_modules()
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    assert long == {}


#: "No product function over 100 lines" (issue 33).
MAX_FUNCTION_LINES = 100
#: Still over it, each in a file another branch was editing when the limit came: split each when
#: its branch has landed. Both may only shrink. Outside the rulesets' folders, by name (none left):
LONG_FUNCTIONS_LEFT: set[str] = set()
#: In the rulesets' folders (named there only: tests/test_no_ruleset_names.py), how many: two
#: ``_specs`` and three ``perform`` of combat, a widget's ``levels``, a builder's ``traits`` and a play
#: state's ``sections`` (the last two grew past the limit in branches that landed with it).
LONG_RULESET_FUNCTIONS_LEFT = 8
RULESET_FOLDERS = "rulesets/systems/"


def _long_functions(path: Path) -> dict[str, int]:
    """Each function of ``path`` over ``MAX_FUNCTION_LINES`` (its decorators to its last line)."""
    long = {}
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
            if (lines := (node.end_lineno or node.lineno) - first + 1) > MAX_FUNCTION_LINES:
                long[f"{path.relative_to(ROOT)} {node.name}"] = lines
    return long


def test_no_product_function_is_too_long_to_read():
    long = {name: lines for path in _product_modules() for name, lines in _long_functions(path).items()}
    in_rulesets = sorted(name for name in long if name.startswith(RULESET_FOLDERS))
    elsewhere = {name: lines for name, lines in long.items() if not name.startswith(RULESET_FOLDERS)}
    assert {name: lines for name, lines in elsewhere.items() if name not in LONG_FUNCTIONS_LEFT} == {}
    assert sorted(LONG_FUNCTIONS_LEFT - set(elsewhere)) == [], "split: take it off LONG_FUNCTIONS_LEFT"
    assert len(in_rulesets) <= LONG_RULESET_FUNCTIONS_LEFT, in_rulesets
    assert len(in_rulesets) == LONG_RULESET_FUNCTIONS_LEFT, "one was split: lower LONG_RULESET_FUNCTIONS_LEFT"


def test_the_function_measure_counts_a_long_function_and_not_a_short_one(tmp_path, monkeypatch):
    monkeypatch.setattr(f"{__name__}.ROOT", tmp_path)
    body = "\n".join(f"    x{i} = {i}" for i in range(MAX_FUNCTION_LINES))
    (tmp_path / "m.py").write_text(f"@decorated\ndef long():\n{body}\n\n\ndef short():\n    return 1\n")
    assert _long_functions(tmp_path / "m.py") == {"m.py long": MAX_FUNCTION_LINES + 2}


def test_a_feature_is_a_folder_not_a_file_per_layer():
    flat = [
        str(path.relative_to(ROOT))
        for app in ("characters", "combat")
        for path in (ROOT / app).glob("*.py")
        if FLAT_LAYER_FILE.match(path.name)
    ]
    assert flat == []
    # the pattern sees the files this layout replaced
    assert [n for n in ("views_sheet.py", "api_library.py", "api_urls.py") if FLAT_LAYER_FILE.match(n)] == [
        "views_sheet.py",
        "api_library.py",
    ]


def test_every_mark_safe_says_why():
    """At most a handful of ``mark_safe`` calls in the product, each with a comment on its line or the
    line above saying why the text is safe (``format_html`` and templates first)."""
    calls, unexplained = 0, []
    for path in _product_modules():
        lines = path.read_text(encoding="utf-8").splitlines()
        for number, line in enumerate(lines, start=1):
            if "mark_safe(" not in line or line.lstrip().startswith("#"):
                continue
            calls += 1
            if "#" not in line and not lines[number - 2].lstrip().startswith("#"):
                unexplained.append(f"{path.relative_to(ROOT)}:{number}")
    assert calls <= 5
    assert unexplained == []


#: Every ruleset folder's shape (../shared/STYLE.md "The shape of the project"): the build's checks
#: and prices in ``character/`` (a folder named ``build/`` reads as build output to tools), the
#: actions in ``combat/``, both packages; the play state, the dice and the content beside them.
RULESET_SHAPE = (
    "__init__.py",
    "character/__init__.py",
    "combat/__init__.py",
    "state.py",
    "dice.py",
    "content/",
    "templates/{slug}/",
)


def test_every_ruleset_folder_has_the_same_shape():
    systems = ROOT / "rulesets" / "systems"
    folders = sorted(p for p in systems.iterdir() if p.is_dir() and (p / "__init__.py").exists())
    assert len(folders) >= 5
    shapes = {
        folder.name: [
            part
            for part in RULESET_SHAPE
            if not (folder / part.format(slug=folder.name)).exists()
            or (part.endswith("/") and not (folder / part.format(slug=folder.name)).is_dir())
        ]
        + [old for old in ("build/__init__.py", "build.py", "combat.py") if (folder / old).exists()]
        for folder in folders
    }
    assert shapes == {folder.name: [] for folder in folders}


#: "Selectors only read" (issue 33): a selector reads and returns models or plain data; HTML is the
#: templates' and the presenters', a form's input is parsed in forms (any module named ``forms``:
#: Django's, config's helpers, a feature's).
HTML_MODULES = ("django.utils.html", "django.utils.safestring", "django.template")
HTML_NAMES = {"format_html", "format_html_join", "mark_safe", "render_to_string", "SafeString"}
HTML_TAG = re.compile(
    r"</?(a|b|br|dd|div|dl|dt|em|h[1-6]|i|li|ol|p|section|small|span|strong|t[dhr]|ul)\b[^<]*>"
)


def _builds_html_or_parses(module: str) -> bool:
    return module.startswith(HTML_MODULES) or "forms" in module.split(".")


def _not_reads(path: Path) -> list[str]:
    """What of ``path`` builds HTML or parses a form: imports of Django's HTML, template and form
    modules or of their HTML helpers, strings holding a tag (a docstring may name one), and
    functions that check input (``check_…``) or take a form's text (a ``form`` argument)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            names = {alias.name for alias in node.names}
            modules = [node.module, *(f"{node.module}.{name}" for name in names)]
            if any(_builds_html_or_parses(m) for m in modules) or names & HTML_NAMES:
                found.append(f"{node.lineno}: from {node.module} import {', '.join(sorted(names))}")
        elif isinstance(node, ast.Import):
            found += [f"{node.lineno}: import {a.name}" for a in node.names if _builds_html_or_parses(a.name)]
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            arguments = node.args.posonlyargs + node.args.args + node.args.kwonlyargs
            if node.name.startswith("check_") or any(a.arg == "form" for a in arguments):
                found.append(f"{node.lineno}: def {node.name}")
        elif (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and id(node) not in docstrings
            and HTML_TAG.search(node.value)
        ):
            found.append(f"{node.lineno}: {node.value!r}")
    return sorted(found, key=lambda line: int(line.split(":")[0]))


def test_selectors_only_read():
    """No ``selectors.py`` of the product builds HTML or parses a form (combat's and the party's did:
    the fight's log lines, the odds form's checks)."""
    selectors = [path for path in _product_modules() if path.name == "selectors.py"]
    assert {"combat/selectors.py", "characters/party/selectors.py"} <= {
        str(path.relative_to(ROOT)) for path in selectors
    }
    assert {str(p.relative_to(ROOT)): found for p in selectors if (found := _not_reads(p))} == {}


def test_the_finder_finds_html_helpers_forms_tags_and_input_checks_but_not_a_docstring(tmp_path):
    (tmp_path / "selectors.py").write_text(
        '"""Reads (each event is an ``<li>`` on the page)."""\n'
        "from django import forms\n"
        "from django.forms import Form\n"
        "from django.utils.html import format_html\n"
        "import django.utils.safestring\n"
        "from config.forms import check_post\n"
        "def line(e):\n"
        '    """Not a ``<span>`` here either."""\n'
        "    return f'<li class=\"log\">{e}</li>'\n"
        "def need(value, *, form=False):\n"
        "    return value\n"
        "def check_table(table):\n"
        "    return table\n"
    )
    assert _not_reads(tmp_path / "selectors.py") == [
        "2: from django import forms",
        "3: from django.forms import Form",
        "4: from django.utils.html import format_html",
        "5: import django.utils.safestring",
        "6: from config.forms import check_post",
        "9: '<li class=\"log\">'",
        "9: '</li>'",
        "10: def need",
        "12: def check_table",
    ]


#: "Tests wait on events, not time" (issue 33): a pause in a test (``time.sleep``, asyncio's, a
#: page's ``wait_for_timeout``) is allowed only where the time itself is what is tested, and then
#: its line says so with this comment (tests/waiting.py, which holds the one polling loop).
PAUSES = {"sleep", "wait_for_timeout"}


def _pauses_unexplained(path: Path) -> list[str]:
    """Each call of ``sleep``/``wait_for_timeout`` in ``path`` whose lines carry no ``DELIBERATE``."""
    text = path.read_text(encoding="utf-8")
    if not any(pause in text for pause in PAUSES):  # most files: nothing to parse (~4 s for them all)
        return []
    lines = text.splitlines()
    found = []
    for node in ast.walk(ast.parse(text)):
        if not isinstance(node, ast.Call):
            continue
        name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
        if name in PAUSES and not any(
            DELIBERATE in line for line in lines[node.lineno - 1 : (node.end_lineno or node.lineno)]
        ):
            found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    return found


def test_tests_wait_on_events_not_on_time():
    unexplained = [
        where for path in sorted((ROOT / "tests").rglob("*.py")) for where in _pauses_unexplained(path)
    ]
    assert unexplained == [], "wait on the event (tests/waiting.py), or say why the time is the test"


def test_the_pause_finder_finds_a_bare_pause_and_lets_a_deliberate_one_pass(tmp_path, monkeypatch):
    monkeypatch.setattr(f"{__name__}.ROOT", tmp_path)
    (tmp_path / "t.py").write_text(
        "import time\nfrom time import sleep\n"
        "time.sleep(1)\n"
        "page.wait_for_timeout(\n    300\n)\n"
        "sleep(0.1)\n"
        "asyncio.run(asyncio.sleep(0))\n"
        f"time.sleep(0.3)  {DELIBERATE} a slow endpoint is the test\n"
        f"page.wait_for_timeout(\n    150,  {DELIBERATE} a person's taps\n)\n"
        "run(['python', '-c', 'import time; time.sleep(60)'])\n"  # a child's code, not a pause here
    )
    assert _pauses_unexplained(tmp_path / "t.py") == ["t.py:3", "t.py:4", "t.py:7", "t.py:8"]
