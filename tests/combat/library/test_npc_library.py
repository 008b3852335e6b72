"""The GM's NPC library: who keeps and uses it, adding from it, and every ruleset's ready NPCs valid
and open in the NPC builder. One game's ready NPCs built, kept and added: tests/rulesets/<slug>/."""

from __future__ import annotations

import pytest
from django.urls import reverse

from combat import services
from combat.library import services as library
from combat.models import Encounter, LibraryNpc
from combat.selectors import npc_archetypes
from rulesets.engine import registry
from tests.factories import make_campaign, make_user
from tests.vehicles import SLUGS

pytestmark = pytest.mark.django_db

#: The registry's first ruleset (its first ready NPC is the one kept).
SLUG = SLUGS[0]


@pytest.fixture
def table(db):
    gm, player, outsider = make_user("gm"), make_user("player"), make_user("outsider")
    campaign = make_campaign(gm=gm, ruleset=SLUG, players=[player])
    encounter = services.encounter_create(campaign=campaign, user=gm, name="Bridge")
    return {"gm": gm, "player": player, "outsider": outsider, "campaign": campaign, "encounter": encounter}


def test_adding_from_the_library_refuses_bad_counts_and_other_campaigns_npcs(table, client):
    npc = library.npc_save(
        campaign=table["campaign"],
        user=table["gm"],
        build=npc_archetypes(registry.get(SLUG), table["campaign"])[0]["build"],
    )
    other = make_campaign(gm=table["gm"], ruleset=SLUG)
    foreign = library.npc_save(
        campaign=other, user=table["gm"], build=npc_archetypes(registry.get(SLUG), other)[0]["build"]
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
    npc = library.npc_save(
        campaign=table["campaign"],
        user=table["gm"],
        build=npc_archetypes(registry.get(SLUG), table["campaign"])[0]["build"],
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
        npc = library.npc_save(campaign=campaign, user=gm, build=archetype["build"])
        assert npc.report["valid"], (archetype["id"], npc.report["errors"])
        library.encounter_add_from_library(encounter=encounter, user=gm, npc_id=npc.id, count=2)
    assert encounter.combatants.filter(is_npc=True).count() == 2 * len(archetypes)


@pytest.mark.parametrize("slug", [rs.slug for rs in registry.all_rulesets()])
def test_the_npc_builder_has_the_rulesets_widgets_and_filters(slug, client):
    """The NPC builder gets the ruleset's builder metadata and widgets too: every archetype opens
    and re-checks with no part of the build left as a data box (two rulesets had some)."""
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
