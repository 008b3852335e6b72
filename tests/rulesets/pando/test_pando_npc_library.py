"""Pando's ready NPCs in the GM's NPC library (moved from tests/combat/test_npc_library.py, now tests/combat/library/): the
library offers them; an ogre is built over the player budget with its costs in CP, kept and added
three times; nonsense is refused; a kept NPC is edited."""

from __future__ import annotations

import pytest
from django.urls import reverse

from combat import services
from combat.library import services as library
from combat.models import LibraryNpc
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
    table,
    client,
    django_assert_max_num_queries,  # noqa: F811
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


def test_editing_a_kept_npc_replaces_it(table, client):
    npc = library.npc_save(
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
