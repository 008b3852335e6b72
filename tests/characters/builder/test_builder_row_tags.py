"""The builder's pieces (builder_tags' tags and their partials in characters/builder/_builder_rows.html) print
the markup the builder printed when they were built in Python: byte for byte, escaping, missing keys
and odd values included; labels in the ruleset's own words."""

from __future__ import annotations

import pytest
from django.template import Context, Template

from characters.templatetags import builder_tags


def render(text: str, **context) -> str:
    return Template("{% load builder_tags %}" + text).render(Context(context))


CASES = [
    (
        "{% derived_list d %}",
        {
            "d": {
                "max_hp": 12,
                "speed_bonus": None,
                "tags": ["canny_acumen", "x<y"],
                "saves": {"fort": 2, "deep": {"a": {"b": {"c": 1}}}},
                "list": [{"a": 1}, [1]],
                "flag": True,
                "empty": {},
            }
        },
        '<dl class="derived-list derived-depth-0"><div class="derived-row"><dt>Max HP</dt><dd>12</dd></div><div class="derived-row"><dt>Speed bonus</dt><dd><span class="muted">—</span></dd></div><div class="derived-row"><dt>Tags</dt><dd>Canny acumen, x&lt;y</dd></div><div class="derived-row"><dt>Saves</dt><dd><dl class="derived-list derived-depth-1"><div class="derived-row"><dt>Fort</dt><dd>2</dd></div><div class="derived-row"><dt>Deep</dt><dd><dl class="derived-list derived-depth-2"><div class="derived-row"><dt>A</dt><dd>B: C: 1</dd></div></dl></dd></div></dl></dd></div><div class="derived-row"><dt>List</dt><dd><div><dl class="derived-list derived-depth-2"><div class="derived-row"><dt>A</dt><dd>1</dd></div></dl></div><div>1</div></dd></div><div class="derived-row"><dt>Flag</dt><dd>yes</dd></div><div class="derived-row"><dt>Empty</dt><dd><span class="muted">—</span></dd></div></dl>',
    ),
    ("{% derived_list d %}", {"d": {}}, '<p class="muted">Nothing derived yet: fix the problems above.</p>'),
    (
        "{% issues f %}",
        {
            "f": {
                "err_id": "e1",
                "issues": [
                    {"severity": "warning", "code": "c<", "message": "Too <many>"},
                    {"message": "Bad"},
                ],
            }
        },
        '<ul class="field-issues" id="e1"><li class="issue issue-warning" data-code="c&lt;">Too &lt;many&gt;</li><li class="issue issue-error" data-code="">Bad</li></ul>',
    ),
    ("{% issues f %}", {"f": {"err_id": "e1", "issues": []}}, ""),
    (
        "{% options o blank='Pick <one>' titles=True %}",
        {"o": [{"id": "a&b", "label": "A & B", "selected": True, "help": 'Say "hi"'}, {"id": "c"}]},
        '<option value="">Pick <one></option><option value="a&amp;b" selected title="Say &quot;hi&quot;">A &amp; B</option><option value="c">c</option>',
    ),
    ("{% options o %}", {"o": [{"id": "a", "label": "A", "help": "h"}]}, '<option value="a">A</option>'),
    (
        "{% choice_cards f %}",
        {
            "f": {
                "name": "class",
                "id": "f-class",
                "value": None,
                "nullable": False,
                "options": [
                    {"id": "w<", "label": "Warrior", "selected": False, "help": "Hits <hard>"},
                    {"id": "m", "selected": True},
                ],
            }
        },
        '<label class="choice-card choice-none"><input type="radio" name="class" value="" checked> <span class="choice-label">None yet</span></label><label class="choice-card" for="f-class-w&lt;"><input type="radio" id="f-class-w&lt;" name="class" value="w&lt;"><span class="choice-label">Warrior</span><span class="choice-text">Hits &lt;hard&gt;</span></label><label class="choice-card selected" for="f-class-m"><input type="radio" id="f-class-m" name="class" value="m" checked><span class="choice-label">m</span></label>',
    ),
    (
        "{% choice_cards f %}",
        {
            "f": {
                "name": "class",
                "id": "f-class",
                "value": "m",
                "options": [{"id": "m", "label": "M", "selected": True}],
            }
        },
        '<label class="choice-card selected" for="f-class-m"><input type="radio" id="f-class-m" name="class" value="m" checked><span class="choice-label">M</span></label>',
    ),
    (
        "{% step_nav s %}{% step_head s.0 %}{% step_head s.1 %}{% step_head s.2 %}",
        {
            "s": [
                {
                    "state": "complete",
                    "id": "a",
                    "dom_id": "step-a",
                    "number": 1,
                    "label": "Ancestry & <b>",
                    "text": "Pick <one>",
                },
                {"state": "error", "id": "b", "dom_id": "step-b", "number": 2, "label": "B", "errors": 1},
                {"state": "todo", "id": "c", "dom_id": "step-c", "number": 3, "label": "C", "errors": 3},
            ]
        },
        '<ol class="step-nav"><li class="step-link step-complete" data-step="a"><a href="#step-a">1. Ancestry &amp; &lt;b&gt;</a> <span class="step-status"><span class="ok">✓ complete</span></span></li><li class="step-link step-error" data-step="b"><a href="#step-b">2. B</a> <span class="step-status">1 problem</span></li><li class="step-link step-todo" data-step="c"><a href="#step-c">3. C</a> <span class="step-status">to do</span></li></ol><h2 class="step-title"><span class="step-number">Step 1</span> Ancestry &amp; &lt;b&gt; <span class="step-status"><span class="ok">✓ complete</span></span></h2><p class="step-text">Pick &lt;one&gt;</p><h2 class="step-title"><span class="step-number">Step 2</span> B <span class="step-status">1 problem</span></h2><h2 class="step-title"><span class="step-number">Step 3</span> C <span class="step-status">to do</span></h2>',
    ),
    (
        "{% tree_rows rows 'tree/0' %}",
        {
            "rows": [
                {
                    "id": "n1",
                    "node_id": "fire<",
                    "label": "Fire",
                    "cost": 2,
                    "level": 3,
                    "depth": 1,
                    "state": "learned",
                    "checked": True,
                    "issues": [{"severity": "error", "message": "No"}],
                    "err_id": "n1-err",
                },
                {"id": "n2", "node_id": "ice", "label": "Ice", "reason": "needs <fire>", "state": "locked"},
                {
                    "id": "n3",
                    "node_id": "x",
                    "label": "X",
                    "issues": [{"severity": "warning", "message": "hm"}],
                    "err_id": "n3-err",
                },
            ]
        },
        '<li class="tree-node node-learned depth-1 has-error" style="--depth: 1"><input type="checkbox" id="n1" name="tree/0" value="fire&lt;" checked aria-describedby="n1-err" aria-invalid="true"><label for="n1">Fire <span class="node-cost">2 · L3</span></label><ul class="field-issues" id="n1-err"><li class="issue issue-error" data-code="">No</li></ul></li><li class="tree-node node-locked depth-0" style="--depth: 0"><input type="checkbox" id="n2" name="tree/0" value="ice" aria-describedby="n2-why"><label for="n2">Ice <span class="node-cost">free</span></label><span class="node-why" id="n2-why">needs &lt;fire&gt;</span></li><li class="tree-node node- depth-0" style="--depth: 0"><input type="checkbox" id="n3" name="tree/0" value="x" aria-describedby="n3-err"><label for="n3">X <span class="node-cost">free</span></label><ul class="field-issues" id="n3-err"><li class="issue issue-warning" data-code="">hm</li></ul></li>',
    ),
    (
        "{% stepper f '/b/?x=1&y=2' %}",
        {
            "f": {
                "id": "s1",
                "label": "Strength <str>",
                "name": "attributes.str",
                "value": 3,
                "min": 0,
                "max": 5,
                "next_text": "2 XP",
                "at_min": True,
                "issues": [{"severity": "error", "message": "Too high"}],
                "err_id": "s1-err",
            }
        },
        '<div class="stepper-row has-error"><label for="s1">Strength &lt;str&gt;</label><div class="stepper"><button type="submit" class="btn btn-small step" id="s1-lower" name="_step" value="attributes.str|-1" hx-post="/b/?x=1&y=2" disabled aria-label="Lower Strength &lt;str&gt;" aria-controls="s1">−</button><input type="number" inputmode="numeric" id="s1" name="attributes.str" value="3" min="0" max="5" aria-describedby="s1-err" aria-invalid="true"><button type="submit" class="btn btn-small step" id="s1-raise" name="_step" value="attributes.str|1" hx-post="/b/?x=1&y=2" aria-label="Raise Strength &lt;str&gt; (2 XP)" aria-controls="s1">+</button></div><span class="next-cost" id="s1-next">next: 2 XP</span><ul class="field-issues" id="s1-err"><li class="issue issue-error" data-code="">Too high</li></ul></div>',
    ),
    (
        "{% stepper f '/b/' %}",
        {"f": {"id": "s2", "label": "Wits", "name": "w", "value": None, "at_max": True}},
        '<div class="stepper-row"><label for="s2">Wits</label><div class="stepper"><button type="submit" class="btn btn-small step" id="s2-lower" name="_step" value="w|-1" hx-post="/b/" aria-label="Lower Wits" aria-controls="s2">−</button><input type="number" inputmode="numeric" id="s2" name="w" value=""><button type="submit" class="btn btn-small step" id="s2-raise" name="_step" value="w|1" hx-post="/b/" disabled aria-label="Raise Wits" aria-controls="s2">+</button></div><span class="next-cost" id="s2-next">maximum</span></div>',
    ),
    (
        "{% stepper f '/b/' %}",
        {"f": {"id": "s3", "label": "Wits", "name": "w", "value": 1.5, "next": 1}},
        '<div class="stepper-row"><label for="s3">Wits</label><div class="stepper"><button type="submit" class="btn btn-small step" id="s3-lower" name="_step" value="w|-1" hx-post="/b/" aria-label="Lower Wits" aria-controls="s3">−</button><input type="number" inputmode="numeric" id="s3" name="w" value="1.5"><button type="submit" class="btn btn-small step" id="s3-raise" name="_step" value="w|1" hx-post="/b/" aria-label="Raise Wits" aria-controls="s3">+</button></div><span class="next-cost" id="s3-next">next: free</span></div>',
    ),
    (
        "{% creation_dots i %}",
        {"i": {"label": "Strength & <s>", "final": 3, "dots": ["base", "free", "x<p"]}},
        '<span class="dots" role="img" aria-label="Strength &amp; &lt;s&gt; 3: base, free, x&lt;p"><span class="dot base"></span><span class="dot free"></span><span class="dot x&lt;p"></span></span>',
    ),
    ("{% creation_dots i %}", {"i": {}}, '<span class="dots" role="img" aria-label=" 0: "></span>'),
]


@pytest.mark.parametrize(("text", "context", "expected"), CASES)
def test_builder_pieces_print_the_markup_they_printed(text, context, expected):
    assert render(text, **context) == expected


def test_the_builder_says_the_rulesets_words_max_HP_not_max_hp():
    html = render("{% derived_list d %}", d={"max_hp": 12, "hp": 3, "odd_key": 1})
    assert "<dt>Max HP</dt>" in html and "<dt>HP</dt>" in html and "<dt>Odd key</dt>" in html
    assert "Max hp" not in html


def test_builder_and_sheet_label_with_one_function():
    from characters.templatetags import sheet_tags

    assert builder_tags._label is sheet_tags._label


def test_a_section_is_rendered_once_then_reused_while_its_model_is_the_same():
    section = {
        "template": "characters/builder/_builder_section_unknown.html",
        "dom_id": "sec-x",
        "label": "X <y>",
    }
    text = "{% builder_section section %}"
    builder_tags._SECTION_HTML.clear()
    first = render(text, section=section, builder_url="/b/1/")
    assert builder_tags._SECTION_HTML[("/b/1/", "sec-x")][2] == first
    assert render(text, section=section, builder_url="/b/1/") == first
    assert "X <y>" not in first  # escaped by the template engine, cached as it rendered
