"""The sheet's row tags (sheet_tags: derived_rows, kv_rows, breakdown_rows, dot_options, chart_bars)
print exactly what the template loops they replace printed, escaping and odd values included."""

from __future__ import annotations

import pytest
from django.template import Context, Template

from characters.templatetags.sheet_tags import chart_data


def render(text: str, **context) -> str:
    return Template("{% load sheet_tags %}" + text).render(Context(context))


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
    assert new == render(loop, derived=derived, skip=skip)
    if derived and not skip:
        assert 'data-key="notes"' in new and "&lt;b&gt;x&lt;/b&gt;" in new


def test_kv_rows_print_what_the_loops_printed():
    attrs = {"str": 2, "dex": -1, "con": 0, "odd<": "n/a", "none": None}
    thresholds = {"str": 14, "dex": None}
    signed = render("{% kv_rows m sign=True %}", m=attrs)
    assert signed == render(
        '{% for key, value in m.items %}<tr data-key="{{ key }}"><th scope="row">{{ key|label }}</th>'
        "<td>{{ value|signed }}</td></tr>{% endfor %}",
        m=attrs,
    )
    assert "<td>−1</td>" in signed and "<td>+2</td>" in signed
    third = render("{% kv_rows m sign=True third=t %}", m=attrs, t=thresholds)
    assert third == render(
        '{% for key, value in m.items %}<tr data-key="{{ key }}"><th scope="row">{{ key|label }}</th>'
        '<td>{{ value|signed }}</td><td>{{ t|get:key|default_if_none:"—" }}</td></tr>{% endfor %}',
        m=attrs,
        t=thresholds,
    )
    plain = render('{% kv_rows m prefix="resistance-" %}', m={"fire": 5, "cold": 2.5})
    assert plain == render(
        '{% for key, value in m.items %}<tr data-key="resistance-{{ key }}"><th scope="row">{{ key|label }}'
        "</th><td>{{ value }}</td></tr>{% endfor %}",
        m={"fire": 5, "cold": 2.5},
    )
    assert render("{% kv_rows m %}", m=["not", "a", "dict"]) == ""


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
    assert new == render(loop, b=breakdown)
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
    assert new == render(loop, os=options)
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
    new = render("{% load l10n %}{% localize off %}{% chart_bars %}{% endlocalize %}", **context)
    assert new == render(loop, **context)
    assert ('data-rolled="true"' in new) is (rolled is not None)
    assert 'width="19.75"' in new and "Fail &lt;" in new
