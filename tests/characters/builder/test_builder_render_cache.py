"""The live update reuses the HTML of the sections that did not change, and shows exactly what a
fresh render shows; the builder's controls (builder_tags' partials) escape what they show."""

from __future__ import annotations

import pytest
from django.template import Context, Template
from django.urls import reverse

from characters.builder.services import character_create, character_save_draft
from characters.templatetags import builder_tags
from tests.characters.conftest import BuilderSession, make_table

pytestmark = pytest.mark.django_db

EDITS = {
    "maelstrom": [
        ("/attributes/strength", "3"),
        ("/abilities/stealth", "2"),
        ("/willpower", "5"),
        ("/attributes/strength", "abc"),
        ("/attributes/strength", "2"),
    ],
    "paragon": [("/forces/fire", "2"), ("/skills/melee", "3"), ("/forces/fire", "1")],
    "pando": [("/attributes/strength", "3"), ("/attributes/strength", "99"), ("/attributes/strength", "2")],
}


def _post(client, url, fields):
    data: dict[str, list[str]] = {}
    for k, v in fields:
        data.setdefault(k, []).append(v)
    return client.post(url, data, HTTP_HX_REQUEST="true")


@pytest.mark.parametrize("slug", sorted(EDITS))
def test_every_update_is_the_same_as_a_fresh_render(client, slug):
    table = make_table(slug)
    c = character_create(campaign=table.campaign, owner=table.player, name="Cache")
    client.force_login(table.player)
    url = reverse("character_builder", args=[c.id])
    fields = BuilderSession(client, url).fields
    names = {k for k, _ in fields}
    assert {name for name, _ in EDITS[slug]} & names  # the edits are on this page
    for name, value in EDITS[slug]:
        if name not in names:
            continue
        fields = [(k, value if k == name else v) for k, v in fields]
        _post(client, url, fields)  # fills the cache with this state
        cached = _post(client, url, fields)
        builder_tags._SECTION_HTML.clear()
        fresh = _post(client, url, fields)
        assert cached.status_code == fresh.status_code == 200
        assert cached.content.decode() == fresh.content.decode()
        assert f'name="{name}" value="{value}"'.encode() in cached.content


def test_a_changed_value_is_never_served_from_the_cache(client):
    table = make_table("paragon")
    c = character_create(campaign=table.campaign, owner=table.player, name="Cache")
    c = character_save_draft(
        character_id=c.id, user=table.player, version=1, build={**c.build, "forces": {"fire": 1, "wind": 1}}
    )
    client.force_login(table.player)
    s = BuilderSession(client, reverse("character_builder", args=[c.id]))
    for value in ("2", "3", "2", "1"):
        response = s.set("/forces/fire", value).change()
        assert response.status_code == 200
        assert f'name="/forces/fire" value="{value}"'.encode() in response.content


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
