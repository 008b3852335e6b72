"""The campaign's homebrew editor, drawn from each ruleset's description of its kinds
(``rulesets.engine`` ``EntryForm``): for every kind of every ruleset, add an entry through the form,
meet a field's error, edit it, copy it and be refused its removal while a character uses it (named);
a player reads, a stranger gets a 404."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from characters.models import Character
from rulesets.engine import registry
from tests.characters.conftest import form_fields, make_table, parse_html

pytestmark = pytest.mark.django_db

#: Every (ruleset, kind) a campaign may extend, with a catalogue entry to start from.
KINDS = [
    (r.slug, kind)
    for r in registry.all_rulesets()
    for kind in r.homebrew_kinds
    if r.entry_form(kind) is not None and r.catalogue.get(kind)
]
#: What a player must never read: a JSON brace, a snake_case id, a code.
RAW = re.compile(r"[{}]|\b[a-z]+_[a-z_]+\b|homebrew\.[a-z_]+")


def _text(content: bytes) -> str:
    main = parse_html(content).find_all("main")
    return main[0].text if main else ""


def _editor_fields(client, url) -> dict[str, list[str]]:
    page = client.get(url)
    assert page.status_code == 200, page.status_code
    form = next(f for f in parse_html(page.content).find_all("form") if f.attrs.get("hx-post"))
    data: dict[str, list[str]] = {}
    for name, value in form_fields(form):
        data.setdefault(name, []).append(value)
    # A needed choice the copied entry leaves empty (a rulebook weapon's die is kept elsewhere): its first.
    for field in form.find_all("div"):
        if field.has_class("required") and (select := next(iter(field.find_all("select")), None)) is not None:
            if data.get(select.attrs["name"], [""]) == [""]:
                data[select.attrs["name"]] = [
                    next(o.attrs["value"] for o in select.find_all("option") if o.attrs.get("value"))
                ]
    return data


def _sample(slug, kind) -> dict:
    """A valid entry to type in: the catalogue's first, without its id."""
    ruleset = registry.get(slug)
    entry = next(iter(ruleset.catalogue[kind].values()))
    return {k: v for k, v in entry.items() if k != "id"}


def test_every_ruleset_describes_every_kind_it_lets_a_campaign_extend():
    missing = [
        (r.slug, k) for r in registry.all_rulesets() for k in r.homebrew_kinds if r.entry_form(k) is None
    ]
    assert missing == []
    assert len(KINDS) >= 12


@pytest.mark.parametrize(("slug", "kind"), KINDS)
def test_add_a_field_error_edit_copy_and_remove_refused_while_used(client, slug, kind):
    table = make_table(slug)
    ruleset = registry.get(slug)
    form = ruleset.entry_form(kind)
    client.force_login(table.gm)
    campaign = table.campaign
    # Copying a catalogue entry opens the editor filled in with it, named "(copy)".
    source_id = next(iter(ruleset.catalogue[kind]))
    new_url = reverse("homebrew_new", args=[campaign.id, kind])
    data = _editor_fields(client, f"{new_url}?from={source_id}")
    assert data["name"] == [f"{_sample(slug, kind)['name']} (copy)"]
    data["name"] = ["Moonlit Brew"]

    # A field's error, at the field, in words, as it is typed (htmx) and on saving: nothing saved.
    check_url = reverse("homebrew_check", args=[campaign.id, kind])
    answer = client.post(check_url, {**data, "name": [""]}, HTTP_HX_REQUEST="true")
    assert answer.status_code == 200
    error = parse_html(answer.content).by_id("hb-f-name-err")
    assert error is not None and error.attrs.get("hx-swap-oob") == "true"
    said = error.text.strip()
    assert re.fullmatch(r"[A-Z][^{}_/]* name[^{}_/]*\.", said), said  # "Give the skill a name."
    # A new entry may start from a copy of the rulebook's, offered by name.
    sources = parse_html(client.get(new_url).content).by_id("hb-from")
    assert (source_id, _sample(slug, kind)["name"]) in [
        (o.attrs["value"], o.text) for o in sources.find_all("option")
    ]
    # The editor itself reads in words: labels, choices by name, no id or brace.
    editor = client.get(f"{new_url}?from={source_id}")
    assert not RAW.search(_text(editor.content).replace(form.one, "")), RAW.findall(_text(editor.content))
    # A number past its bounds: the engine's words at that field.
    bounded = next((f for f in form.fields if f.type == "number" and f.max is not None), None)
    if bounded is not None:
        answer = client.post(
            check_url, {**data, bounded.name: [str(bounded.max + 1)]}, HTTP_HX_REQUEST="true"
        )
        dom = "hb-f-" + bounded.name.replace("/", "-").replace("_", "-") + "-err"
        assert parse_html(answer.content).by_id(dom).text.strip() == (
            f"{bounded.label} is a whole number from {bounded.min} to {bounded.max}."
        )
    refused = client.post(new_url, {**data, "name": [""]})
    assert refused.status_code == 422
    assert parse_html(refused.content).by_id("hb-f-name-err").text.strip() == error.text.strip()
    campaign.refresh_from_db()
    assert campaign.homebrew == {}

    # The live check shows the entry as the sheet will: its name and its fields in words.
    preview = client.post(check_url, data, HTTP_HX_REQUEST="true")
    shown = parse_html(preview.content).by_id("hb-preview").text
    assert "Moonlit Brew" in shown and not RAW.search(shown.replace(form.one, ""))
    assert all(
        not parse_html(preview.content)
        .by_id(f"hb-f-{f.name.replace('/', '-').replace('_', '-')}-err")
        .text.strip()
        for f in form.fields
    )

    # Add.
    added = client.post(new_url, data)
    assert added.status_code == 302, _text(added.content)
    campaign.refresh_from_db()
    [entry] = campaign.homebrew[kind]
    assert entry["name"] == "Moonlit Brew" and entry["id"] == "moonlit_brew"
    assert ruleset.context(campaign.house_rules, campaign.homebrew).catalogue[kind]["moonlit_brew"][
        "homebrew"
    ]

    # Edit: same id (characters using it keep using it), new name.
    edit_url = reverse("homebrew_edit", args=[campaign.id, kind, "moonlit_brew"])
    data = _editor_fields(client, edit_url)
    assert data["name"] == ["Moonlit Brew"]
    data["name"] = ["Moonlit Ale"]
    assert client.post(edit_url, data).status_code == 302
    campaign.refresh_from_db()
    assert [(e["id"], e["name"]) for e in campaign.homebrew[kind]] == [("moonlit_brew", "Moonlit Ale")]

    # Copy: a second entry with its own id.
    data = _editor_fields(client, f"{new_url}?from=moonlit_brew")
    assert data["name"] == ["Moonlit Ale (copy)"]
    assert client.post(new_url, data).status_code == 302
    campaign.refresh_from_db()
    assert [e["id"] for e in campaign.homebrew[kind]] == ["moonlit_brew", "moonlit_ale_copy"]

    # Remove: refused while an active character's build holds it, naming the character.
    Character.objects.create(
        campaign=campaign,
        owner=table.player,
        name="Alex Brewer",
        ruleset=slug,
        status=Character.Status.ACTIVE,
        build={"ruleset": slug, "name": "Alex Brewer", "picked": ["moonlit_brew"]},
    )
    remove = reverse("homebrew_remove", args=[campaign.id, kind, "moonlit_brew"])
    page = client.post(remove, follow=True)
    assert "Moonlit Ale is used by Alex Brewer" in _text(page.content)
    campaign.refresh_from_db()
    assert [e["id"] for e in campaign.homebrew[kind]] == ["moonlit_brew", "moonlit_ale_copy"]
    # The unused copy goes.
    client.post(reverse("homebrew_remove", args=[campaign.id, kind, "moonlit_ale_copy"]))
    campaign.refresh_from_db()
    assert [e["id"] for e in campaign.homebrew[kind]] == ["moonlit_brew"]

    # The player reads it in words, with no door to change it; their posts are refused.
    client.force_login(table.player)
    page = client.get(reverse("campaign_homebrew", args=[campaign.id]))
    text = _text(page.content)
    assert "Moonlit Ale" in text and "Only the GM can change it" in text
    assert "Edit Moonlit Ale" not in text and "Import" not in text and not RAW.search(text)
    assert client.get(edit_url).status_code == 403
    assert client.post(edit_url, data).status_code == 403
    assert client.post(remove).status_code == 403
    assert client.post(check_url, data).status_code == 403
    # A stranger: not found.
    client.force_login(table.outsider)
    for url in (reverse("campaign_homebrew", args=[campaign.id]), edit_url, new_url):
        assert client.get(url).status_code == 404
    assert client.post(remove).status_code == 404
    campaign.refresh_from_db()
    assert [(e["id"], e["name"]) for e in campaign.homebrew[kind]] == [("moonlit_brew", "Moonlit Ale")]


def test_an_unknown_kind_or_entry_is_not_found(client):
    slug, kind = KINDS[0]
    table = make_table(slug)
    client.force_login(table.gm)
    assert client.get(reverse("homebrew_new", args=[table.campaign.id, "dragons"])).status_code == 404
    assert client.get(reverse("homebrew_edit", args=[table.campaign.id, kind, "nothing"])).status_code == 404
    assert (
        client.post(reverse("homebrew_remove", args=[table.campaign.id, kind, "nothing"])).status_code == 404
    )


def test_the_json_door_imports_and_exports_a_kind(client):
    slug, kind = KINDS[0]
    table = make_table(slug)
    client.force_login(table.gm)
    entry = {"id": "moon_brew", **_sample(slug, kind), "name": "Moon Brew"}
    import json

    url = reverse("campaign_homebrew", args=[table.campaign.id])
    bad = client.post(url, {f"kind-{kind}": "[{"})
    assert bad.status_code == 422 and "Not valid JSON" in _text(bad.content)
    assert client.post(url, {f"kind-{kind}": json.dumps([entry])}).status_code == 302
    exported = client.get(reverse("homebrew_export", args=[table.campaign.id, kind]))
    assert exported["Content-Disposition"].startswith("attachment;")
    assert json.loads(exported.content) == [entry]


def test_a_new_entry_named_like_another_kinds_entry_gets_its_own_id():
    """A build naming the id then means this entry alone (removal is refused by the ids a build holds)."""
    from characters.homebrew.services import homebrew_check

    slug, kind = next((s, k) for s, k in KINDS if len(registry.get(s).catalogue) > 1)
    ruleset = registry.get(slug)
    other_kind = next(k for k in ruleset.catalogue if k != kind)
    other_id = next(i for i in ruleset.catalogue[other_kind] if i not in ruleset.catalogue[kind])
    table = make_table(slug)
    sample = {**_sample(slug, kind), "name": other_id.replace("_", " ")}
    result = homebrew_check(campaign=table.campaign, kind=kind, entry=sample)
    assert result.entry_id == f"{other_id}_2"


def test_players_find_the_homebrew_from_the_campaign_page_once_there_is_some(client):
    slug, kind = KINDS[0]
    table = make_table(slug)
    link = f'href="{reverse("campaign_homebrew", args=[table.campaign.id])}"'
    client.force_login(table.player)
    assert link not in client.get(reverse("campaign_detail", args=[table.campaign.id])).content.decode()
    table.campaign.homebrew = {kind: [{**_sample(slug, kind), "id": "moon_brew", "name": "Moon Brew"}]}
    table.campaign.save(update_fields=["homebrew"])
    assert link in client.get(reverse("campaign_detail", args=[table.campaign.id])).content.decode()
    client.force_login(table.gm)
    assert link in client.get(reverse("campaign_detail", args=[table.campaign.id])).content.decode()
