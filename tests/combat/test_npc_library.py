"""The GM's NPC library: build an NPC with the builder (not held to the player budget), keep it,
add three to an encounter from the library; every ruleset ships ready archetypes."""

from __future__ import annotations

import pytest
from django.urls import reverse

from combat import services
from combat.models import Encounter, LibraryNpc
from combat.selectors import npc_archetypes
from rulesets.engine import registry
from tests.factories import make_campaign, make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(db):
    gm, player, outsider = make_user("gm"), make_user("player"), make_user("outsider")
    campaign = make_campaign(gm=gm, ruleset="pando", players=[player])
    encounter = services.encounter_create(campaign=campaign, user=gm, name="Bridge")
    return {"gm": gm, "player": player, "outsider": outsider, "campaign": campaign, "encounter": encounter}


def test_the_library_offers_the_rulesets_archetypes(table, client, django_assert_max_num_queries):
    client.force_login(table["gm"])
    with django_assert_max_num_queries(8):
        page = client.get(reverse("npc_library", args=[table["campaign"].id]))
    text = page.content.decode()
    for name in ("Goblin", "Bandit", "Guard", "Ogre"):
        assert f">{name}</a>" in text


def test_build_an_ogre_over_the_player_budget_keep_it_and_add_three(
    table, client, django_assert_max_num_queries
):
    campaign, encounter = table["campaign"], table["encounter"]
    client.force_login(table["gm"])
    new = reverse("npc_new", args=[campaign.id])
    with django_assert_max_num_queries(8):
        page = client.get(new + "?archetype=ogre")
    text = page.content.decode()
    assert page.status_code == 200
    assert 'name="/attributes/strength"' in text
    assert "would spend 118 CP of a budget of 40 (78 over); an NPC is not held to it." in text
    # The GM makes it stronger still in the builder (htmx live check), then keeps it.
    live = client.post(
        new,
        {"_archetype": "ogre", "/name": "Ogre", "_section": "attributes", "/attributes/strength": "10"},
        HTTP_HX_REQUEST="true",
    )
    assert live.status_code == 200
    assert 'data-testid="npc-spent-cp">138<' in live.content.decode()
    saved = client.post(
        new,
        {
            "_archetype": "ogre",
            "/name": "Ogre",
            "_section": "attributes",
            "/attributes/strength": "10",
            "_save": "1",
        },
    )
    assert saved.status_code == 302 and saved.url == reverse("npc_library", args=[campaign.id])
    npc = LibraryNpc.objects.get(campaign=campaign)
    assert (npc.name, npc.build["attributes"]["strength"], npc.report["valid"]) == ("Ogre", 10, True)
    assert [w["code"] for w in npc.report["warnings"]] == ["budget.exceeded"]
    assert (
        "138 CP (over the player budget of 40)"
        in client.get(reverse("npc_library", args=[campaign.id])).content.decode()
    )
    # On the encounter page: pick the ogre, the count, then Add.
    panel = client.get(reverse("encounter_detail", args=[encounter.id])).content.decode()
    assert f'name="pick" value="npc:{npc.id}"' in panel
    added = client.post(
        reverse("encounter_add_npcs", args=[encounter.id]), {"pick": f"npc:{npc.id}", "count": "3"}
    )
    assert added.status_code == 302
    names = list(encounter.combatants.order_by("id").values_list("name", "is_npc", "group"))
    assert names == [("Ogre 1", True, "Ogre"), ("Ogre 2", True, "Ogre"), ("Ogre 3", True, "Ogre")]
    assert all(c.build["attributes"]["strength"] == 10 for c in encounter.combatants.all())


def test_nonsense_in_the_npc_builder_is_refused_and_nothing_is_kept(table, client):
    client.force_login(table["gm"])
    new = reverse("npc_new", args=[table["campaign"].id])
    response = client.post(
        new,
        {
            "_archetype": "goblin",
            "/name": "Goblin",
            "_section": "attributes",
            "/attributes/strength": "0",
            "_save": "1",
        },
    )
    assert response.status_code == 422
    assert "The NPC&#x27;s build is not valid" in response.content.decode()
    response = client.post(new, {"_archetype": "goblin", "/name": "  ", "_save": "1"})
    assert response.status_code == 400
    assert "Give the NPC a name." in response.content.decode()
    assert not LibraryNpc.objects.exists()


def test_adding_from_the_library_refuses_bad_counts_and_other_campaigns_npcs(table, client):
    npc = services.npc_save(
        campaign=table["campaign"],
        user=table["gm"],
        build=npc_archetypes(registry.get("pando"), table["campaign"])[0]["build"],
    )
    other = make_campaign(gm=table["gm"], ruleset="pando")
    foreign = services.npc_save(
        campaign=other, user=table["gm"], build=npc_archetypes(registry.get("pando"), other)[0]["build"]
    )
    client.force_login(table["gm"])
    url = reverse("encounter_add_from_library", args=[table["encounter"].id])
    for data in (
        {"npc": npc.id, "count": "lots"},
        {"npc": npc.id, "count": "0"},
        {"npc": npc.id, "count": "31"},
        {"npc": foreign.id, "count": "1"},
        {"npc": "x", "count": "1"},
    ):
        response = client.post(url, data)
        assert response.status_code == 400, data
    lots = client.post(url, {"npc": npc.id, "count": "lots"}).content.decode()
    assert "How many: enter a whole number from 1 to 30, such as 3." in lots
    assert (
        "No such NPC in this campaign" in client.post(url, {"npc": foreign.id, "count": "1"}).content.decode()
    )
    assert table["encounter"].combatants.count() == 0


def test_only_the_gm_keeps_and_uses_the_library(table, client):
    npc = services.npc_save(
        campaign=table["campaign"],
        user=table["gm"],
        build=npc_archetypes(registry.get("pando"), table["campaign"])[0]["build"],
    )
    campaign = table["campaign"]
    client.force_login(table["player"])
    assert client.get(reverse("npc_library", args=[campaign.id])).status_code == 403
    assert (
        client.post(reverse("npc_new", args=[campaign.id]), {"/name": "X", "_save": "1"}).status_code == 403
    )
    assert client.post(reverse("npc_delete", args=[campaign.id, npc.id])).status_code == 403
    assert (
        client.post(
            reverse("encounter_add_from_library", args=[table["encounter"].id]), {"npc": npc.id, "count": "2"}
        ).status_code
        == 403
    )
    client.force_login(table["outsider"])
    assert client.get(reverse("npc_library", args=[campaign.id])).status_code == 404
    assert client.get(reverse("npc_edit", args=[campaign.id, npc.id])).status_code == 404
    assert (
        client.post(
            reverse("encounter_add_from_library", args=[table["encounter"].id]), {"npc": npc.id, "count": "2"}
        ).status_code
        == 404
    )
    assert LibraryNpc.objects.count() == 1 and table["encounter"].combatants.count() == 0


def test_editing_a_kept_npc_replaces_it(table, client):
    npc = services.npc_save(
        campaign=table["campaign"],
        user=table["gm"],
        build=npc_archetypes(registry.get("pando"), table["campaign"])[0]["build"],
    )
    client.force_login(table["gm"])
    url = reverse("npc_edit", args=[table["campaign"].id, npc.id])
    assert client.get(url).status_code == 200
    client.post(
        url, {"/name": "Goblin chief", "_section": "attributes", "/attributes/strength": "3", "_save": "1"}
    )
    npc.refresh_from_db()
    assert (npc.name, npc.build["attributes"]["strength"]) == ("Goblin chief", 3)
    assert LibraryNpc.objects.count() == 1


@pytest.mark.parametrize("slug", [rs.slug for rs in registry.all_rulesets()])
def test_every_rulesets_archetypes_are_valid_npcs_that_join_an_encounter(slug):
    gm = make_user()
    campaign = make_campaign(gm=gm, ruleset=slug)
    ruleset = registry.get(slug)
    archetypes = npc_archetypes(ruleset, campaign)
    # A ruleset's own ready NPCs (content/npc_archetypes.json, optional), else the quick NPC alone.
    assert len(archetypes) >= (3 if ruleset.tables.get("npc_archetypes") else 1)
    encounter = Encounter.objects.create(campaign=campaign, name="Test", created_by=gm, last_seq=1)
    for archetype in archetypes:
        npc = services.npc_save(campaign=campaign, user=gm, build=archetype["build"])
        assert npc.report["valid"], (archetype["id"], npc.report["errors"])
        services.encounter_add_from_library(encounter=encounter, user=gm, npc_id=npc.id, count=2)
    assert encounter.combatants.filter(is_npc=True).count() == 2 * len(archetypes)


@pytest.mark.parametrize("slug", [rs.slug for rs in registry.all_rulesets()])
def test_the_npc_builder_has_the_rulesets_widgets_and_filters(slug, client):
    """The NPC builder gets the ruleset's builder metadata and widgets too: every archetype opens
    and re-checks with no part of the build left as a data box (ascendant and maelstrom had some)."""
    gm = make_user()
    campaign = make_campaign(gm=gm, ruleset=slug)
    client.force_login(gm)
    new = reverse("npc_new", args=[campaign.id])
    for archetype in npc_archetypes(registry.get(slug), campaign):
        page = client.get(new, {"archetype": archetype["id"]})
        assert page.status_code == 200, archetype["id"]
        assert "This part of the build is shown as data" not in page.content.decode()
        live = client.post(
            new, {"_archetype": archetype["id"], "/name": archetype["name"]}, HTTP_HX_REQUEST="true"
        )
        assert live.status_code == 200
