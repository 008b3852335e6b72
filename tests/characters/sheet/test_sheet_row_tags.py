"""The sheet's rows (sheet_rows' tags and their partials in characters/sheet/_sheet_rows.html; the odds
chart's bars and the body section in their own templates) print the same HTML as the template loops
they stand for: the same elements, attributes and text (whitespace between tags aside), escaping and
odd values included."""

from __future__ import annotations

import pytest
from django.template import Context, Template
from django.template.loader import get_template
from django.test.html import parse_html

from characters.templatetags.sheet_tags import chart_data


def render(text: str, **context) -> str:
    return Template("{% load sheet_tags sheet_rows %}" + text).render(Context(context))


def same_html(new: str, old: str) -> bool:
    """Equal as HTML (as assertHTMLEqual judges): elements, attributes, text; not the whitespace
    between tags. An empty answer equals only an empty one."""
    return parse_html(new) == parse_html(old) and (new.strip() == "") is (old.strip() == "")


DERIVED = {
    "max_hp": 12,
    "speed": 30.5,
    "notes": "<b>x</b>",
    "tags": ["a", "b"],
    "saves": {"fort": 2},
    "flag": True,
}


@pytest.mark.parametrize("skip", ["", "speed,notes", "max_hp,speed,notes,tags,saves,flag"])
@pytest.mark.parametrize("derived", [DERIVED, {}, None])
def test_derived_rows_print_what_the_loop_printed(derived, skip):
    loop = (
        "{% for key, value in derived|without:skip %}\n"
        '  <div data-key="{{ key }}"><dt>{{ key|label }}</dt><dd>{% sheet_value value %}</dd></div>\n'
        '  {% empty %}{% if not skip %}<div><dt>—</dt><dd class="muted">The rules derive nothing from this'
        " build yet.</dd></div>{% endif %}{% endfor %}"
    )
    new = render("{% derived_rows derived skip %}", derived=derived, skip=skip)
    assert same_html(new, render(loop, derived=derived, skip=skip))
    if derived and not skip:
        assert 'data-key="notes"' in new and "&lt;b&gt;x&lt;/b&gt;" in new


def test_kv_rows_print_what_the_loops_printed():
    attrs = {"str": 2, "dex": -1, "con": 0, "odd<": "n/a", "none": None}
    thresholds = {"str": 14, "dex": None}
    signed = render("{% kv_rows m sign=True %}", m=attrs)
    assert same_html(
        signed,
        render(
            '{% for key, value in m.items %}<tr data-key="{{ key }}"><th scope="row">{{ key|label }}</th>'
            "<td>{{ value|signed }}</td></tr>{% endfor %}",
            m=attrs,
        ),
    )
    assert "<td>−1</td>" in signed and "<td>+2</td>" in signed
    third = render("{% kv_rows m sign=True third=t %}", m=attrs, t=thresholds)
    assert same_html(
        third,
        render(
            '{% for key, value in m.items %}<tr data-key="{{ key }}"><th scope="row">{{ key|label }}</th>'
            '<td>{{ value|signed }}</td><td>{{ t|get:key|default_if_none:"—" }}</td></tr>{% endfor %}',
            m=attrs,
            t=thresholds,
        ),
    )
    plain = render('{% kv_rows m prefix="resistance-" %}', m={"fire": 5, "cold": 2.5})
    assert same_html(
        plain,
        render(
            '{% for key, value in m.items %}<tr data-key="resistance-{{ key }}"><th scope="row">{{ key|label }}'
            "</th><td>{{ value }}</td></tr>{% endfor %}",
            m={"fire": 5, "cold": 2.5},
        ),
    )
    assert render("{% kv_rows m %}", m=["not", "a", "dict"]).strip() == ""


def test_breakdown_rows_print_what_the_loop_printed():
    breakdown = {
        "ac": {
            "label": "Armor <class>",
            "base": 10,
            "total": 13,
            "applied": [{"text": "+2 shield"}, {"text": "+1 ring"}],
            "ignored": [{"text": "+1 cloak", "reason": "same kind"}],
        },
        "fort": {"label": "Fortitude", "base": 2, "total": 2},
        "bare": {},
    }
    loop = (
        '{% for key, part in b.items %}<div data-key="breakdown-{{ key }}"><dt>{{ part.label }}</dt>'
        "<dd>{{ part.base }} → <strong>{{ part.total }}</strong>{% for mod in part.applied %}"
        '<span class="sheet-modifier">{{ mod.text }}</span>{% endfor %}{% for mod in part.ignored %}'
        '<span class="sheet-modifier muted">{{ mod.text }}: not added, {{ mod.reason }}</span>{% endfor %}'
        "</dd></div>\n  {% endfor %}"
    )
    new = render("{% breakdown_rows b %}", b=breakdown)
    assert same_html(new, render(loop, b=breakdown))
    assert "Armor &lt;class&gt;" in new and "+1 cloak: not added, same kind" in new


def test_dot_options_print_what_the_loop_printed():
    options = [
        {"id": "brawl", "name": "Brawl", "dots": 3, "note": "", "disabled": False, "selected": True},
        {"id": "occult", "name": "Occult & lore", "dots": 0, "note": "cannot be attempted", "disabled": True},
        {"id": "odd", "name": "Odd", "dots": None},
        {"id": "bare", "name": "Bare"},
    ]
    loop = (
        '{% for o in os %}<option value="{{ o.id }}"{% if o.selected %} selected{% endif %}{% if o.disabled %}'
        " disabled{% endif %}>{{ o.name }} {{ o.dots|dot_text:5 }}{% if o.note %} — {{ o.note }}{% endif %}"
        "</option>{% endfor %}"
    )
    new = render("{% dot_options os %}", os=options)
    assert same_html(new, render(loop, os=options))
    assert '<option value="occult" disabled>Occult &amp; lore ○○○○○ 0 — cannot be attempted</option>' in new


@pytest.mark.parametrize("rolled", [None, 1])
def test_chart_bars_print_what_the_loop_printed(rolled):
    odds = {"distribution": {"1": 0.25, "2": 0.5, "3": 0.25}}
    context = chart_data("", odds, None)
    context["bars"] = [
        {"label": "Fail <", "p": 0.123456, "y": 6, "text_y": 23, "width": 19.75, "percent_text": "12.3%"},
        {"label": "Pass", "p": 0.5, "y": 34, "text_y": 51, "width": 80.0, "percent_text": "50.0%"},
        {"label": "Crit", "p": 1 / 3, "y": 62, "text_y": 79, "width": 53.33, "percent_text": "33.3%"},
    ]
    for i, bar in enumerate(context["bars"]):
        bar["rolled"] = i == rolled
    loop = (
        "{% load l10n %}{% localize off %}{% for bar in bars %}\n"
        '    <g class="roll-bar{% if bar.rolled %} is-rolled{% endif %}" data-label="{{ bar.label }}"'
        '{% if bar.rolled %} data-rolled="true"{% endif %}>\n'
        '      <text class="roll-bar-label" x="{{ label_width|add:\'-6\' }}" y="{{ bar.text_y }}" '
        'text-anchor="end">{% if bar.rolled %}▶ {% endif %}{{ bar.label }}</text>\n'
        '      <rect class="roll-bar-track" x="{{ bar_x }}" y="{{ bar.y }}" width="160" height="{{ bar_height }}">'
        "</rect>\n"
        '      <rect class="roll-bar-fill" x="{{ bar_x }}" y="{{ bar.y }}" width="{{ bar.width }}" '
        'height="{{ bar_height }}"><title>{{ bar.label }}: {{ bar.percent_text }}</title></rect>\n'
        '      <text class="roll-bar-value" x="{{ percent_x }}" y="{{ bar.text_y }}">{{ bar.percent_text }}</text>\n'
        "    </g>\n    {% endfor %}{% endlocalize %}"
    )
    new = get_template("characters/sheet/_roll_chart.html").render({**context, "chart_id": "c"})
    svg = new.split('xmlns="http://www.w3.org/2000/svg">', 1)[1].split("</svg>", 1)[0]
    assert same_html(svg, render(loop, **context))
    assert ('data-rolled="true"' in new) is (rolled is not None)
    assert 'width="19.75"' in new and "Fail &lt;" in new


OLD_BODY = '<div class="state-body">\n  <svg class="body-diagram" viewBox="0 0 120 200" role="img" aria-label="Body: {% for p in section.items %}{{ p.label }} {{ p.harm }} harm{% if p.status %} {{ p.status }}{% endif %}{% if not forloop.last %}; {% endif %}{% endfor %}">\n    {% for p in section.items %}{% with s=p.status|default:"healthy" %}\n    {% with d=p.shape %}{% if d.shape == "circle" %}<circle class="body-part body-{{ s }}" data-part="{{ p.id }}" cx="{{ d.cx }}" cy="{{ d.cy }}" r="{{ d.r }}"><title>{{ p.label }}: {{ p.harm }} harm, {{ s }}</title></circle>\n    {% elif d.shape == "rect" %}<rect class="body-part body-{{ s }}" data-part="{{ p.id }}" x="{{ d.x }}" y="{{ d.y }}" width="{{ d.width }}" height="{{ d.height }}" rx="{{ d.rx }}"><title>{{ p.label }}: {{ p.harm }} harm, {{ s }}</title></rect>{% endif %}{% endwith %}\n    {% endwith %}{% endfor %}\n  </svg>\n  <table class="table state-body-table">\n    <thead><tr><th scope="col">Part</th><th scope="col">Harm</th><th scope="col">Status</th><th scope="col">Protection</th></tr></thead>\n    <tbody>\n    {% for p in section.items %}\n      <tr id="body-{{ p.id }}" data-part="{{ p.id }}" class="body-row body-{{ p.status|default:\'healthy\' }}">\n        <th scope="row">{{ p.label }}{% if p.vital %} <span class="muted" title="vital">✚</span>{% endif %}</th>\n        <td>{{ p.harm }}{% if p.max %} / {{ p.max }}{% endif %}</td>\n        <td class="body-status">{{ p.status|default:"healthy" }}</td>\n        <td>{{ p.protection|pretty }}{% if p.equipment %} <span class="muted">({{ p.equipment|join:", " }})</span>{% endif %}</td>\n      </tr>\n    {% endfor %}\n    </tbody>\n  </table>\n  {% if section.dead %}<p class="message message-error">Dead: a vital part is maimed.</p>{% endif %}\n</div>\n'

PARTS = [
    {
        "id": "head",
        "label": "Head",
        "harm": 0,
        "max": 3,
        "vital": True,
        "status": "",
        "shape": {"shape": "circle", "cx": 60, "cy": 20, "r": 14.5},
        "protection": {"name": "Helm", "ap": 2},
        "equipment": ["Helm <steel>", 3],
    },
    {
        "id": "legs",
        "label": "Legs & feet",
        "harm": 2,
        "status": "maimed",
        "protection": None,
        "shape": {"shape": "rect", "x": 40, "y": 120, "width": 40, "height": 70, "rx": 4},
    },
    {"id": "tail", "label": "Tail", "harm": 1, "shape": {"shape": "star"}},
    {"id": "bare", "label": "Bare"},
]


@pytest.mark.parametrize("parts", [PARTS, [], None])
def test_body_tags_print_what_the_loops_printed(parts):
    section = {"items": parts, "dead": False}
    full_old = Template("{% load sheet_tags sheet_rows %}" + OLD_BODY).render(Context({"section": section}))
    full_new = get_template("characters/sheet/_state_body.html").render({"section": section})
    assert same_html(full_new, full_old)
    if parts:
        assert (
            'aria-label="Body: Head 0 harm; Legs &amp; feet 2 harm maimed; Tail 1 harm; Bare  harm"'
            in full_new
        )
        assert "(Helm &lt;steel&gt;, 3)" in full_new and 'r="14.5"' in full_new


OLD_NUMBERS = (
    '{% for n in g.numbers %}\n            <span class="roll-number">\n              <label for="roll-in-{{ n.name }}">'
    '{{ n.label }}</label>\n              {% if n.kind == "choice" %}<select name="in_{{ n.name }}" id="roll-in-{{ n.name }}">'
    '{% for c in n.choices %}<option value="{{ c }}"{% if c == n.value %} selected{% endif %}>{{ c|label }}</option>'
    '{% endfor %}</select>\n              {% else %}<input type="number" name="in_{{ n.name }}" id="roll-in-{{ n.name }}" '
    'value="{{ n.value }}" class="state-number"{% if n.min is not None %} min="{{ n.min }}"{% endif %}'
    '{% if n.max is not None %} max="{{ n.max }}"{% endif %} inputmode="numeric">{% endif %}\n            </span>\n'
    "            {% endfor %}"
)


def test_roll_number_fields_print_what_the_loop_printed():
    numbers = [
        {"name": "target", "label": "Target <n>", "kind": "int", "value": 15, "min": 0, "max": 40},
        {"name": "bonus", "label": "Bonus", "kind": "int", "value": -2},
        {
            "name": "mode",
            "label": "Mode",
            "kind": "choice",
            "value": "advantage",
            "choices": ["normal", "advantage", "disadvantage"],
        },
        {"name": "odd", "label": "Odd", "kind": "choice", "value": None},
    ]
    g = {"numbers": numbers}
    new = render("{% roll_number_fields g.numbers %}", g=g)
    assert same_html(new, render(OLD_NUMBERS, g=g))
    assert '<option value="advantage" selected>Advantage</option>' in new
    assert (
        'value="15" class="state-number" min="0" max="40"' in new
        and 'value="-2" class="state-number" inputmode' in new
    )


def test_preview_options_print_what_the_loop_printed():
    previews = [
        {"id": "_picked", "label": "The roll you pick"},
        {"id": "skill:a&b", "label": "A & B"},
        {"id": 3},
    ]
    loop = (
        '{% for p in roll_previews %}<option value="{{ p.id }}"{% if p.id == preview %} selected{% endif %}>'
        "{{ p.label }}</option>{% endfor %}"
    )
    for chosen in ("skill:a&b", 3, None):
        new = render("{% preview_options roll_previews preview %}", roll_previews=previews, preview=chosen)
        assert same_html(new, render(loop, roll_previews=previews, preview=chosen))
    assert '<option value="skill:a&amp;b">A &amp; B</option>' in new


@pytest.mark.parametrize("editable", [True, False])
def test_equipment_rows_print_the_rulesets_states_and_no_pill_for_an_entry_without_one(editable):
    from types import SimpleNamespace

    context = {
        "character": SimpleNamespace(id=7),
        "can_edit_build": editable,
        "equipment_states": [("held", "in hand"), ("worn", "worn"), ("stowed", "stowed")],
        "csrf_token": "tok",
        "equipment": [
            {
                "index": 0,
                "name": "Sword & board",
                "state": "held",
                "state_label": "in hand",
                "detail": "Left, Right",
                "keep": {"hands": ["left", "right"]},
                "has_state": True,
            },
            {"index": 1, "name": "Rope", "state": None, "detail": "belt", "keep": {}, "has_state": False},
        ],
    }
    new = render("          {% equipment_rows %}", **context)
    # One form for the block (not one per entry): each entry's Change button names the entry, and
    # its fields carry the entry's index before their names.
    assert ('action="/characters/7/equipment/"' in new) is editable
    assert new.count("<form") == (1 if editable else 0)
    assert ('<button type="submit" name="item" value="0"' in new) is editable
    assert ('aria-label="Change the state of Sword &amp; board"' in new) is editable
    assert "Sword &amp; board" in new and '<span class="badge">in hand</span>' in new
    assert "(Left, Right)" in new and "(belt)" in new
    assert new.count('class="badge"') == 1  # the rope has no state: no empty pill
    assert ('<select name="0-state" id="equipment-state-0">' in new) is editable
    assert ('<option value="held" selected>in hand</option>' in new) is editable
    assert ('<input type="hidden" name="0-hands" value="right">' in new) is editable
    assert 'action="/characters/7/equipment/1/' not in new and 'value="1"' not in new


OLD_TRACK = '  {% for box in section.items %}\n  <li class="track-box{% if box.damage %} track-{{ box.damage }}{% endif %}" data-damage="{{ box.damage|default:\'\' }}">\n    <span class="track-label">{{ box.label }}</span>\n    <span class="track-penalty">{% if box.penalty is None %}—{% else %}{{ box.penalty|signed }}{% endif %}</span>\n    <span class="track-mark" aria-label="{{ box.damage|default:\'empty\' }}">{% if box.damage %}{{ box.mark|default:"■" }}{% else %}□{% endif %}</span>\n    <span class="track-damage">{{ box.damage|default:"" }}</span>\n  </li>\n  {% endfor %}'


def test_track_boxes_print_what_the_loop_printed():
    boxes = [
        {"label": "Bruised", "penalty": 0, "damage": "light", "mark": "/"},
        {"label": "Hurt", "penalty": -1, "damage": "heavy", "mark": "X"},
        {"label": "Injured", "penalty": -1, "damage": "grave", "mark": "✱"},
        {"label": "Wounded <2>", "penalty": -2, "damage": "other"},
        {"label": "Maimed", "penalty": -5, "damage": None},
        {"label": "Incapacitated", "penalty": None},
    ]
    section = {"items": boxes}
    new = render("  {% track_boxes section.items %}", section=section)
    assert same_html(new, render(OLD_TRACK, section=section))
    assert (
        'class="track-box track-heavy" data-damage="heavy"' in new
        and ">✱</span>" in new
        and ">■</span>" in new
    )
    assert '<span class="track-penalty">−2</span>' in new and "Wounded &lt;2&gt;" in new
    # A ruleset that says how serious each damage is gets the box shaded by it (and only a held box).
    graded = [{**boxes[1], "severity": 2}, {**boxes[4], "severity": 3}]
    shaded = render("  {% track_boxes section.items %}", section={"items": graded})
    assert 'class="track-box track-heavy track-severity-2" data-damage="heavy"' in shaded
    assert shaded.count("track-severity-") == 1


def test_dot_traits_print_what_the_loop_printed():
    traits = {"strength": 3, "wits": 0, "odd": None, "big": 7}
    loop = (
        '{% for key, value in m.items %}<div data-key="{{ key }}"><dt>{{ key|label }}</dt>'
        "<dd>{{ value|dots:5 }}</dd></div>{% endfor %}"
    )
    new = render("{% dot_traits m %}", m=traits)
    assert same_html(new, render(loop, m=traits))
    assert 'aria-label="3 of 5"' in new and 'aria-label="7 of 7"' in new
