"""The campaign API (CONTRACT.md "Resources"): shapes, rights (404 strangers, 403 players) and reasons."""

import pytest

from characters.models import Campaign
from rulesets.engine import registry
from tests.factories import api_client, make_campaign, make_user

pytestmark = pytest.mark.django_db
SLUG = registry.SYSTEMS[0]


def test_post_campaigns_creates_one_with_me_as_gm():
    gm = make_user("gina")
    response = api_client(gm, token=True).post(
        "/api/v1/campaigns/", {"name": "Iron Coast", "ruleset": SLUG}, format="json"
    )
    assert response.status_code == 201
    body = response.json()
    campaign = Campaign.objects.get(pk=body["id"])
    assert body["join_code"] == campaign.join_code
    assert (body["name"], body["ruleset"], body["role"]) == ("Iron Coast", SLUG, "gm")
    assert body["settings"] == campaign.settings
    assert body["members"] == [
        {"id": gm.pk, "username": "gina", "role": "gm", "joined": body["members"][0]["joined"]}
    ]


def test_post_campaigns_refuses_an_unknown_house_rule_with_the_rulesets_reason():
    response = api_client(make_user()).post(
        "/api/v1/campaigns/",
        {"name": "X", "ruleset": SLUG, "settings": {"house_rules": {"no_such_rule": 1}}},
        format="json",
    )
    assert response.status_code == 400
    body = response.json()
    assert body["errors"][0]["field"] == "settings"
    assert "no house rule 'no_such_rule'" in body["errors"][0]["message"]
    assert "no_such_rule" in body["detail"]
    assert not Campaign.objects.exists()


def test_post_campaigns_refuses_an_unknown_ruleset():
    response = api_client(make_user()).post(
        "/api/v1/campaigns/", {"name": "X", "ruleset": "gurps"}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == "ruleset"


def test_post_campaigns_refuses_nul_characters_in_settings():
    response = api_client(make_user()).post(
        "/api/v1/campaigns/",
        {"name": "X", "ruleset": SLUG, "settings": {"house_rules": {"a\u0000": 1}}},
        format="json",
    )
    assert response.status_code == 400


def test_get_campaigns_lists_only_mine():
    me = make_user()
    mine = make_campaign(gm=me, name="Mine")
    played = make_campaign(name="Played", players=[me])
    make_campaign(name="Other")
    body = api_client(me).get("/api/v1/campaigns/").json()
    assert [(c["id"], c["role"]) for c in body] == [(mine.pk, "gm"), (played.pk, "player")]


def test_join_by_code_answers_id_and_role():
    campaign = make_campaign()
    player = make_user()
    response = api_client(player, token=True).post(
        "/api/v1/campaigns/join/", {"join_code": campaign.join_code.lower()}, format="json"
    )
    assert response.status_code == 200
    assert response.json() == {"id": campaign.pk, "role": "player"}
    assert campaign.memberships.filter(user=player, role="player").exists()


def test_join_with_a_wrong_code_is_400_with_a_reason():
    response = api_client(make_user()).post(
        "/api/v1/campaigns/join/", {"join_code": "WRONG123"}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["errors"] == [
        {"field": "join_code", "message": "No campaign has this join code; check it with your GM."}
    ]


def test_detail_shows_members_to_members_and_the_code_to_the_gm_only():
    player = make_user("pip")
    campaign = make_campaign(players=[player])
    body = api_client(player).get(f"/api/v1/campaigns/{campaign.pk}/").json()
    assert {"id", "name", "ruleset", "settings", "members"} <= set(body)
    assert [m["username"] for m in body["members"]] == [campaign.gm.username, "pip"]
    assert body["join_code"] is None
    assert (
        api_client(campaign.gm).get(f"/api/v1/campaigns/{campaign.pk}/").json()["join_code"]
        == campaign.join_code
    )


def test_a_stranger_gets_404_for_every_campaign_endpoint():
    player = make_user()
    campaign = make_campaign(players=[player])
    client = api_client(make_user("stranger"), token=True)
    base = f"/api/v1/campaigns/{campaign.pk}"
    responses = [
        client.get(f"{base}/"),
        client.patch(f"{base}/", {"name": "Mine now"}, format="json"),
        client.post(f"{base}/leave/"),
        client.post(f"{base}/join-code/"),
        client.delete(f"{base}/members/{player.pk}/"),
    ]
    assert [r.status_code for r in responses] == [404] * 5
    assert responses[0].json() == {"detail": "No such campaign.", "errors": []}
    campaign.refresh_from_db()
    assert campaign.name != "Mine now" and campaign.memberships.count() == 2


def test_a_missing_campaign_is_404_not_500():
    assert api_client(make_user()).get("/api/v1/campaigns/999999999999999999/").status_code == 404


def test_a_player_gets_403_for_gm_actions():
    p1, p2 = make_user(), make_user()
    campaign = make_campaign(players=[p1, p2])
    client = api_client(p1)
    base = f"/api/v1/campaigns/{campaign.pk}"
    assert client.delete(f"{base}/members/{p2.pk}/").status_code == 403
    assert client.post(f"{base}/join-code/").status_code == 403
    response = client.patch(f"{base}/", {"settings": {"house_rules": {}}}, format="json")
    assert response.status_code == 403
    assert response.json()["detail"] == "Only the campaign's GM may do this."
    campaign.refresh_from_db()
    assert campaign.memberships.count() == 3


def test_gm_removes_a_player_and_regenerates_the_code():
    player = make_user()
    campaign = make_campaign(players=[player])
    client = api_client(campaign.gm)
    base = f"/api/v1/campaigns/{campaign.pk}"
    assert client.delete(f"{base}/members/{player.pk}/").status_code == 204
    assert not campaign.memberships.filter(user=player).exists()
    assert client.delete(f"{base}/members/{player.pk}/").status_code == 404
    assert client.delete(f"{base}/members/{campaign.gm.pk}/").status_code == 400
    response = client.post(f"{base}/join-code/")
    assert response.status_code == 200
    campaign.refresh_from_db()
    assert response.json() == {"join_code": campaign.join_code}


def test_gm_patches_settings_validated_against_the_ruleset():
    campaign = make_campaign()
    currency = registry.get(SLUG).currencies[0]
    client = api_client(campaign.gm)
    url = f"/api/v1/campaigns/{campaign.pk}/"
    bad = client.patch(url, {"settings": {"house_rules": {"bogus": 1}}}, format="json")
    assert bad.status_code == 400
    assert "no house rule 'bogus'" in bad.json()["errors"][0]["message"]
    good = client.patch(url, {"settings": {"starting_budget": {currency: 12}}}, format="json")
    assert good.status_code == 200
    assert good.json()["settings"]["starting_budget"][currency] == 12


def test_player_leaves_and_then_cannot_see_the_campaign():
    player = make_user()
    campaign = make_campaign(players=[player])
    client = api_client(player)
    assert client.post(f"/api/v1/campaigns/{campaign.pk}/leave/").status_code == 204
    assert client.get(f"/api/v1/campaigns/{campaign.pk}/").status_code == 404
    gm_leaves = api_client(campaign.gm).post(f"/api/v1/campaigns/{campaign.pk}/leave/")
    assert gm_leaves.status_code == 400
    assert gm_leaves.json()["detail"] == "The GM cannot leave their own campaign."
