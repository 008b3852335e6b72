"""The encounter page's "Add NPCs" form: the GM picks one of the ruleset's ready NPCs (its
content/npc_archetypes.json) or a library NPC, how many and maybe a name, without JSON; the
combatants are numbered on from those already there. Every ruleset of the registry."""

from __future__ import annotations

import copy
import re

import pytest
from django.test import Client
from django.urls import reverse

from combat import services
from combat.library import services as library
from combat.models import Encounter
from combat.selectors import EncounterNotFound, fighter_report, npc_archetypes
from rulesets.engine import registry
from tests.factories import make_campaign, make_user

pytestmark = pytest.mark.django_db

SLUGS = [rs.slug for rs in registry.all_rulesets()]
#: The registry's first ruleset with two ready NPCs of its own (a goblin and an ogre, say).
TWO = next(slug for slug in SLUGS if len(registry.get(slug).npc_archetypes()) >= 2)


def _table(slug: str) -> dict:
    gm, player, stranger = make_user("gm"), make_user("player"), make_user("stranger")
    campaign = make_campaign(gm=gm, ruleset=slug, players=[player])
    encounter = services.encounter_create(campaign=campaign, user=gm, name="Ambush")
    archetypes = npc_archetypes(registry.get(slug), campaign)
    return {
        "gm": gm,
        "player": player,
        "stranger": stranger,
        "campaign": campaign,
        "encounter": encounter,
        "archetypes": archetypes,
        "ruleset": registry.get(slug),
    }


def _signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _without_name(build: dict) -> dict:
    build = copy.deepcopy(build)
    build.pop("name", None)
    return build


def _npcs(encounter: Encounter) -> list[tuple[str, str]]:
    return list(encounter.combatants.filter(is_npc=True).order_by("id").values_list("name", "group"))


# ------------------------------------------------------------------ the service


@pytest.mark.parametrize("slug", SLUGS)
def test_three_of_an_archetype_join_with_its_build_and_numbered_names(slug):
    t = _table(slug)
    for archetype in t["archetypes"]:
        created = library.encounter_add_npcs(
            encounter=t["encounter"], user=t["gm"], archetype=archetype["id"], count=3
        )
        name = archetype["name"]
        assert [c.name for c in created] == [f"{name} 1", f"{name} 2", f"{name} 3"]
        for c in created:
            c.refresh_from_db()
            assert (c.is_npc, c.group, c.build["name"]) == (True, name, c.name)
            assert _without_name(c.build) == _without_name(archetype["build"])  # the archetype's stats
            report = fighter_report(t["ruleset"], t["campaign"], c.build)
            assert report.valid
            assert c.state == t["ruleset"].initial_state(c.build, report, ctx=report.context)
    assert t["encounter"].combatants.count() == 3 * len(t["archetypes"])


@pytest.mark.parametrize("slug", SLUGS)
def test_a_library_npc_twice(slug):
    t = _table(slug)
    build = {**copy.deepcopy(t["archetypes"][-1]["build"]), "name": "Captain Vane"}
    npc = library.npc_save(campaign=t["campaign"], user=t["gm"], build=build)
    created = library.encounter_add_npcs(encounter=t["encounter"], user=t["gm"], npc_id=npc.pk, count=2)
    assert [c.name for c in created] == ["Captain Vane 1", "Captain Vane 2"]
    assert _npcs(t["encounter"]) == [("Captain Vane 1", "Captain Vane"), ("Captain Vane 2", "Captain Vane")]
    assert all(_without_name(c.build) == _without_name(npc.build) for c in t["encounter"].combatants.all())


def test_numbers_go_on_from_those_already_there_and_a_name_replaces_the_archetypes():
    t = _table(TWO)
    e, gm = t["encounter"], t["gm"]
    goblin, ogre = t["archetypes"][0], t["archetypes"][-1]
    g, o = goblin["name"], ogre["name"]
    library.encounter_add_npcs(encounter=e, user=gm, archetype=goblin["id"], count=2)
    library.encounter_add_npcs(encounter=e, user=gm, archetype=goblin["id"], count=2)
    library.encounter_add_npcs(encounter=e, user=gm, archetype=goblin["id"], count=1)
    library.encounter_add_npcs(encounter=e, user=gm, archetype=ogre["id"], count=1)
    library.encounter_add_npcs(encounter=e, user=gm, archetype=ogre["id"], count=1)
    library.encounter_add_npcs(encounter=e, user=gm, archetype=goblin["id"], count=2, name="  Cave goblin ")
    assert _npcs(e) == [
        (f"{g} 1", g),
        (f"{g} 2", g),
        (f"{g} 3", g),
        (f"{g} 4", g),
        (f"{g} 5", g),  # one more goblin joins the goblins' group
        (o, ""),  # alone: no number
        (f"{o} 2", ""),  # the first ogre counts as 1
        ("Cave goblin 1", "Cave goblin"),
        ("Cave goblin 2", "Cave goblin"),
    ]
    # The API's own adds are unchanged: a second goblin quick build starts again at 1.
    again = services.encounter_add_combatant(encounter=e, user=gm, name=g, build=goblin["build"], count=2)
    assert [c.name for c in again] == [f"{g} 1", f"{g} 2"]


def test_the_service_refuses_what_the_form_cannot_send_and_changes_nothing():
    t = _table(TWO)
    e, gm = t["encounter"], t["gm"]
    goblin = t["archetypes"][0]["id"]
    other = make_campaign(gm=gm, ruleset=TWO)
    foreign = library.npc_save(campaign=other, user=gm, build=t["archetypes"][0]["build"])
    version = e.version
    for kwargs, message in (
        ({"archetype": goblin, "count": 0}, "How many: a whole number from 1 to 30, please."),
        ({"archetype": goblin, "count": 999}, "How many: a whole number from 1 to 30, please."),
        ({"archetype": goblin, "count": True}, "How many: a whole number from 1 to 30, please."),
        ({"archetype": "dragon"}, "That is not one of this game's ready NPCs."),
        ({"npc_id": foreign.pk}, "No such NPC in this campaign's library."),
        ({"npc_id": "x"}, "No such NPC in this campaign's library."),
        ({}, "Pick one ready NPC or one NPC of the library."),
        ({"archetype": goblin, "npc_id": foreign.pk}, "Pick one ready NPC or one NPC of the library."),
    ):
        with pytest.raises(services.InvalidInput) as refused:
            library.encounter_add_npcs(encounter=e, user=gm, **kwargs)
        assert refused.value.message == message, kwargs
    with pytest.raises(services.NotPermitted):
        library.encounter_add_npcs(encounter=e, user=t["player"], archetype=goblin, count=1)
    with pytest.raises(EncounterNotFound):
        library.encounter_add_npcs(encounter=e.pk, user=t["stranger"], archetype=goblin, count=1)
    e.refresh_from_db()
    assert (e.combatants.count(), e.version) == (0, version)


# ------------------------------------------------------------------ the page


@pytest.mark.parametrize("slug", SLUGS)
def test_the_gm_page_offers_every_archetype_and_library_npc_in_the_games_words(slug):
    t = _table(slug)
    npc = library.npc_save(
        campaign=t["campaign"], user=t["gm"], build={**t["archetypes"][0]["build"], "name": "Old Mags"}
    )
    page = _signed_in(t["gm"]).get(reverse("encounter_detail", args=[t["encounter"].pk])).content.decode()
    section = page[page.index('id="add-npcs"') : page.index("</section>", page.index('id="add-npcs"'))]
    assert "<textarea" not in page  # no JSON box
    shipped = t["ruleset"].npc_archetypes()  # content/npc_archetypes.json, else the quick NPC alone
    assert shipped
    for archetype in shipped:
        assert f'value="archetype:{archetype["id"]}"' in section
        assert f'<span class="npc-pick-name">{archetype["name"]}</span>' in section
        summary = archetype.get("summary") or ""
        assert summary.replace("'", "&#x27;") in section  # its line, in the game's words
    assert f'value="npc:{npc.pk}"' in section and '<span class="npc-pick-name">Old Mags</span>' in section
    summaries = re.findall(r'<span class="npc-pick-summary">([^<]*)</span>', section)
    numbers = re.findall(r'<span class="npc-stat">([^<]*)</span>', section)
    # The library NPC has no words of the game's, only numbers; an archetype without a line has none.
    assert len(summaries) == len([a for a in shipped if a.get("summary")])
    rows = re.findall(r'<span class="npc-pick-numbers">(.*?)</span></span>', section)
    assert len(rows) == len(shipped) + 1 and numbers  # every pick shows its row's first numbers
    for line in summaries + numbers:
        assert not re.search(r"[a-z]+[_.][a-z]+|[{}\[\]]|None", line), line  # no codes, no raw data
    # The first ready NPC is picked already: the GM may type a number and press Enter.
    assert f'value="archetype:{shipped[0]["id"]}" required checked' in section
    player_page = _signed_in(t["player"]).get(reverse("encounter_detail", args=[t["encounter"].pk]))
    assert player_page.status_code == 200 and 'id="add-npcs"' not in player_page.content.decode()


@pytest.mark.parametrize("slug", SLUGS)
def test_the_gm_adds_three_of_an_archetype_with_htmx_and_without(slug):
    t = _table(slug)
    e, archetype = t["encounter"], t["archetypes"][0]
    gm = _signed_in(t["gm"])
    url = reverse("encounter_add_npcs", args=[e.pk])
    name = archetype["name"]
    response = gm.post(url, {"pick": f"archetype:{archetype['id']}", "count": "3"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    html = response.content.decode()
    # htmx swaps the status line only: the form keeps what the GM picked and typed.
    assert html.lstrip().startswith('<div id="add-npcs-status"') and 'name="pick"' not in html
    assert f'data-testid="add-npcs-done">Added {name} 1, {name} 2, {name} 3.</p>' in html
    assert _npcs(e) == [(f"{name} {i}", name) for i in (1, 2, 3)]
    # Without JavaScript: a redirect to the page, which says what was added.
    response = gm.post(url, {"pick": f"archetype:{archetype['id']}", "count": "2", "name": "Scout"})
    assert response.status_code == 302 and response.url == reverse("encounter_detail", args=[e.pk])
    assert "Added Scout 1, Scout 2." in gm.get(response.url).content.decode()
    assert [n for n, _ in _npcs(e)][3:] == ["Scout 1", "Scout 2"]


@pytest.mark.parametrize("slug", SLUGS)
def test_the_gm_adds_a_library_npc_twice_from_the_page(slug):
    t = _table(slug)
    npc = library.npc_save(
        campaign=t["campaign"], user=t["gm"], build={**t["archetypes"][0]["build"], "name": "Old Mags"}
    )
    response = _signed_in(t["gm"]).post(
        reverse("encounter_add_npcs", args=[t["encounter"].pk]),
        {"pick": f"npc:{npc.pk}", "count": "2"},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200 and "Added Old Mags 1, Old Mags 2." in response.content.decode()
    assert _npcs(t["encounter"]) == [("Old Mags 1", "Old Mags"), ("Old Mags 2", "Old Mags")]


@pytest.mark.parametrize("slug", SLUGS)
def test_bad_input_is_a_400_with_the_reason_in_the_form_and_changes_nothing(slug):
    t = _table(slug)
    e = t["encounter"]
    library.encounter_add_npcs(encounter=e, user=t["gm"], archetype=t["archetypes"][0]["id"], count=1)
    e.refresh_from_db()
    before = (_npcs(e), e.version)
    other = make_campaign(gm=t["gm"], ruleset=slug)
    foreign = library.npc_save(campaign=other, user=t["gm"], build=t["archetypes"][0]["build"])
    pick = f"archetype:{t['archetypes'][0]['id']}"
    gm = _signed_in(t["gm"])
    url = reverse("encounter_add_npcs", args=[e.pk])
    for data, message in (
        ({"pick": pick, "count": "0"}, "How many: at least 1."),
        ({"pick": pick, "count": "999"}, "How many: at most 30 at a time."),
        ({"pick": pick, "count": "lots"}, "How many: enter a whole number from 1 to 30, such as 3."),
        ({"pick": pick}, "How many: enter a whole number from 1 to 30."),
        ({"pick": "archetype:dragon", "count": "2"}, "That is not one of this game&#x27;s ready NPCs."),
        ({"pick": f"npc:{foreign.pk}", "count": "2"}, "No such NPC in this campaign&#x27;s library."),
        ({"pick": "npc:99999999999999999999", "count": "2"}, "No such NPC in this campaign&#x27;s library."),
        ({"pick": "dragon", "count": "2"}, "Pick a ready NPC or one from the library."),
        ({"count": "2"}, "Pick a ready NPC or one from the library."),
        ({"pick": pick, "count": "2", "name": "x" * 101}, "Name: at most 100 characters, please."),
        ({"pick": pick, "count": "2", "name": "Bad\x00name"}, "Name: "),
    ):
        for htmx in (True, False):
            extra = {"HTTP_HX_REQUEST": "true"} if htmx else {}
            response = gm.post(url, data, **extra)
            assert response.status_code == 400, (data, htmx)
            html = response.content.decode()
            error = re.search(r'data-testid="add-npcs-error">([^<]*)<', html)
            assert error is not None and message in error.group(1), (data, htmx, html[:300])
            assert error.group(1).endswith("Nothing was added.")
            if not htmx:  # the whole page again, with the form and what was typed
                assert 'id="encounter-combatants"' in html and 'id="add-npcs-count"' in html
    e.refresh_from_db()
    assert (_npcs(e), e.version) == before


def test_an_ended_encounter_takes_no_npcs():
    t = _table(TWO)
    goblin = f"archetype:{t['archetypes'][0]['id']}"
    e = t["encounter"]
    services.encounter_end(encounter=e, user=t["gm"])
    gm = _signed_in(t["gm"])
    assert 'id="add-npcs"' not in gm.get(reverse("encounter_detail", args=[e.pk])).content.decode()
    response = gm.post(
        reverse("encounter_add_npcs", args=[e.pk]),
        {"pick": goblin, "count": "2"},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 400
    assert "The encounter has ended. Nothing was added." in response.content.decode()
    response = gm.post(reverse("encounter_add_npcs", args=[e.pk]), {"pick": goblin, "count": "2"})
    assert (
        response.status_code == 400
        and "The encounter has ended. Nothing was added." in response.content.decode()
    )
    assert 'name="pick"' not in response.content.decode()  # the page again, without the form
    assert e.combatants.count() == 0


@pytest.mark.parametrize("slug", SLUGS)
def test_a_player_gets_403_and_a_stranger_404_and_nothing_changes(slug):
    t = _table(slug)
    e = t["encounter"]
    url = reverse("encounter_add_npcs", args=[e.pk])
    data = {"pick": f"archetype:{t['archetypes'][0]['id']}", "count": "2"}
    response = _signed_in(t["player"]).post(url, data)
    assert response.status_code == 403
    assert "Only the GM adds NPCs to an encounter." in response.content.decode()
    assert _signed_in(t["player"]).post(url, {"pick": "dragon", "count": "0"}).status_code == 403
    assert _signed_in(t["stranger"]).post(url, data).status_code == 404
    assert Client().post(url, data).status_code == 302  # to the sign-in page
    assert (
        _signed_in(t["gm"]).post(reverse("encounter_add_npcs", args=[e.pk + 1000]), data).status_code == 404
    )
    e.refresh_from_db()
    assert e.combatants.count() == 0
