"""The live update reuses the HTML of the sections that did not change, and shows exactly what a
fresh render shows; the builder's controls (builder_tags' partials) escape what they show."""

from __future__ import annotations

import copy

import pytest
from django.template import Context, Template
from django.urls import reverse

from characters.builder.services import character_create, character_save_draft
from characters.templatetags import builder_tags
from rulesets.engine import registry
from rulesets.engine.pointer import resolve, set_at
from tests import vehicles
from tests.characters.conftest import BuilderSession, form_fields, make_table, parse_html

pytestmark = pytest.mark.django_db


def _numbers(ruleset) -> list[tuple[str, int]]:
    """The builder's numbers of a blank build with room for two more: (pointer, value)."""
    blank = ruleset.blank_build("Cache")
    out = []
    for pointer, top in vehicles.number_traits(ruleset):
        value = resolve(blank, pointer, None)
        if isinstance(value, int) and (top is None or value + 2 <= top):
            out.append((pointer, value))
    return out


def _edits(ruleset, typed=None) -> list[tuple[str, str]]:
    """What a person types into the builder's number boxes (``typed``: the names of the page's
    inputs; default all): two of them raised, one made text, then numbers again (never the page's
    own value: that would say "unchanged here" to the draft merge)."""
    numbers = [(p, v) for p, v in _numbers(ruleset) if typed is None or p in typed][:2]
    if not numbers:
        return []
    (first, was), *rest = numbers
    return (
        [(first, str(was + 1))]
        + [(p, str(v + 1)) for p, v in rest]
        + [(first, "abc"), (first, str(was + 2)), (first, str(was + 1))]
    )


def _post(client, url, fields):
    data: dict[str, list[str]] = {}
    for k, v in fields:
        data.setdefault(k, []).append(v)
    return client.post(url, data, HTTP_HX_REQUEST="true")


@pytest.mark.parametrize("slug", vehicles.every(_edits))
def test_every_update_is_the_same_as_a_fresh_render(client, slug):
    table = make_table(slug)
    c = character_create(campaign=table.campaign, owner=table.player, name="Cache")
    client.force_login(table.player)
    url = reverse("character_builder", args=[c.id])
    page = BuilderSession(client, url)
    fields = page.fields
    names = {k for k, _ in fields}
    edits = _edits(registry.get(slug), {n.attrs.get("name") for n in page.root.find_all("input")})
    assert {name for name, _ in edits} & names  # the edits are on this page
    for name, value in edits:
        if name not in names:
            continue
        fields = [(k, value if k == name else v) for k, v in fields]
        _post(client, url, fields)  # fills the cache with this state
        cached = _post(client, url, fields)
        builder_tags._SECTION_HTML.clear()
        fresh = _post(client, url, fields)
        assert cached.status_code == fresh.status_code == 200
        assert cached.content.decode() == fresh.content.decode()
        shown = [v for k, v in form_fields(parse_html(cached.content)) if k == name]
        assert shown == [value]  # what the page shows (and would post) is what was typed


def test_a_changed_value_is_never_served_from_the_cache(client):
    slug = vehicles.first(lambda rs: len(_numbers(rs)) >= 2, "a ruleset with two numbers on a blank build")
    (fire, was), (wind, wind_was) = _numbers(registry.get(slug))[:2]
    table = make_table(slug)
    c = character_create(campaign=table.campaign, owner=table.player, name="Cache")
    build = copy.deepcopy(c.build)
    set_at(build, fire, was + 1)
    set_at(build, wind, wind_was + 1)
    c = character_save_draft(character_id=c.id, user=table.player, version=1, build=build)
    client.force_login(table.player)
    s = BuilderSession(client, reverse("character_builder", args=[c.id]))
    for value in (was + 2, was + 1, was + 2, was):
        response = s.set(fire, str(value)).change()
        assert response.status_code == 200
        assert [v for k, v in form_fields(parse_html(response.content)) if k == fire] == [str(value)]


def test_the_fingerprint_tells_true_from_one_and_ignores_the_raw_traits():
    fp = builder_tags.section_fingerprint
    assert fp({"value": True}) != fp({"value": 1})
    assert fp({"value": 1, "raw": {"a": 1}}) == fp({"value": 1, "raw": {"b": 2}})


def _tag(text: str, **context) -> str:
    return Template("{% load builder_tags %}" + text).render(Context(context))


def test_the_builder_controls_escape_what_they_show():
    bad = '<b>"x"&\'</b>'
    row = {
        "id": "f-a",
        "name": "/a",
        "label": bad,
        "value": bad,
        "issues": [{"message": bad, "code": bad}],
        "err_id": "f-a-err",
        "next_text": bad,
        "min": 0,
        "max": 5,
    }
    html = _tag("{% stepper f url %}", f=row, url="/u?a=1&b=2")
    assert "<b>" not in html and "&lt;b&gt;&quot;x&quot;&amp;&#x27;&lt;/b&gt;" in html
    assert 'hx-post="/u?a=1&amp;b=2"' in html and ' min="0" max="5"' in html
    assert 'aria-describedby="f-a-err" aria-invalid="true"' in html
    opts = _tag("{% options o titles=True %}", o=[{"id": "a", "label": bad, "help": bad, "selected": True}])
    assert opts == (
        '<option value="a" selected title="&lt;b&gt;&quot;x&quot;&amp;&#x27;&lt;/b&gt;">'
        "&lt;b&gt;&quot;x&quot;&amp;&#x27;&lt;/b&gt;</option>"
    )
    dots = _tag("{% creation_dots i %}", i={"label": bad, "final": None, "dots": ["base", "xp"]})
    assert dots == (
        '<span class="dots" role="img" aria-label="&lt;b&gt;&quot;x&quot;&amp;&#x27;&lt;/b&gt; 0: '
        'base, xp"><span class="dot base"></span><span class="dot xp"></span></span>'
    )
    derived = _tag("{% derived_list d %}", d={"a_b": [bad], "ok": True, "none": None})
    assert "&lt;b&gt;" in derived and "<dt>A b</dt>" in derived and "<dd>yes</dd>" in derived
