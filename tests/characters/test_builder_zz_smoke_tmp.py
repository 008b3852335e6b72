import pytest
from django.urls import reverse
from characters.services.characters import character_create
from tests.characters.conftest import make_table

@pytest.mark.django_db
@pytest.mark.parametrize("slug", ["pando","paragon","ascendant","ourdnd","maelstrom"])
def test_smoke(client, slug):
    t = make_table(slug)
    c = character_create(campaign=t.campaign, owner=t.player, name="X")
    client.force_login(t.player)
    r = client.get(reverse("character_builder", args=[c.id]))
    assert r.status_code == 200, r.content[:3000]
    r = client.post(reverse("character_builder", args=[c.id]), {"_section": ["attributes"], "/name": "Y"}, HTTP_HX_REQUEST="true")
    assert r.status_code == 200
    open(f"/tmp/builder_{slug}.html","wb").write(client.get(reverse("character_builder", args=[c.id])).content)
