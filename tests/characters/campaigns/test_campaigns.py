"""Campaigns: the services and the pages (create, join, leave, remove, code, settings, access)."""

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404
from django.urls import reverse

from characters.campaigns import services
from characters.campaigns.selectors import campaign_for_user, campaigns_for_user
from characters.models import Campaign, Character, Membership
from rulesets.engine import registry
from tests.factories import make_campaign, make_user

pytestmark = pytest.mark.django_db
SLUG = registry.SYSTEMS[0]


def _default_budget(slug=SLUG):
    rs = registry.get(slug)
    return {c: v for c, v in rs.house_defaults["starting_budget"].items() if c in rs.currencies}


def _currency(slug=SLUG):
    return registry.get(slug).currencies[0]


# ----------------------------------------------------------------- services


def test_create_makes_the_creator_its_gm_with_the_rulesets_default_budget():
    gm = make_user("gina")
    campaign = services.campaign_create(gm=gm, name="  Iron Coast ", ruleset=SLUG, settings=None)
    assert campaign.name == "Iron Coast"
    assert campaign.gm == gm
    assert list(campaign.memberships.values_list("user__username", "role")) == [("gina", "gm")]
    assert campaign.settings == {"starting_budget": _default_budget(), "house_rules": {}}
    assert len(campaign.join_code) == 8


def test_create_keeps_a_starting_budget_the_gm_chose():
    currency = _currency()
    campaign = make_campaign(settings={"starting_budget": {currency: 77}})
    assert campaign.settings["starting_budget"][currency] == 77


@pytest.mark.parametrize(
    "bad_settings, reason",
    [
        ({"house_rules": {"no_such_rule": 3}}, "no house rule 'no_such_rule'"),
        ({"starting_budget": {"gold": 5}}, "no currency 'gold'"),
        ({"starting_budget": "lots"}, "starting_budget must be an object"),
        ({"colour": "red"}, "Unknown setting 'colour'"),
        ("not an object", "Settings must be an object"),
    ],
)
def test_create_refuses_settings_the_ruleset_does_not_accept(bad_settings, reason):
    with pytest.raises(ValidationError) as caught:
        make_campaign(settings=bad_settings)
    assert any(reason in m for m in caught.value.messages), caught.value.messages
    assert not Campaign.objects.exists()


def test_create_refuses_an_unknown_ruleset():
    with pytest.raises(ValidationError) as caught:
        services.campaign_create(gm=make_user(), name="X", ruleset="gurps", settings=None)
    assert "Unknown ruleset 'gurps'" in caught.value.message_dict["ruleset"][0]


def test_join_by_code_ignores_case_and_spaces_and_is_idempotent():
    campaign = make_campaign()
    player = make_user("pip")
    code = campaign.join_code.lower()
    membership = services.campaign_join(user=player, join_code=f" {code[:4]} {code[4:]} ")
    assert (membership.campaign, membership.role) == (campaign, "player")
    again = services.campaign_join(user=player, join_code=campaign.join_code)
    assert again.pk == membership.pk
    assert campaign.memberships.count() == 2


def test_join_with_a_wrong_code_says_so():
    make_campaign()
    with pytest.raises(ValidationError) as caught:
        services.campaign_join(user=make_user(), join_code="ZZZZZZZZ")
    assert "No campaign has this join code" in caught.value.messages[0]


def test_one_user_can_run_one_campaign_and_play_in_another():
    alex = make_user("alex")
    mine = make_campaign(gm=alex, name="Mine")
    theirs = make_campaign(name="Theirs", players=[alex])
    assert set(campaigns_for_user(alex)) == {mine, theirs}
    assert Membership.objects.get(campaign=mine, user=alex).role == "gm"
    assert Membership.objects.get(campaign=theirs, user=alex).role == "player"


def test_leave_removes_the_membership_but_the_gm_cannot_leave():
    player = make_user()
    campaign = make_campaign(players=[player])
    services.campaign_leave(user=player, campaign=campaign)
    assert not campaign.memberships.filter(user=player).exists()
    with pytest.raises(ValidationError):
        services.campaign_leave(user=campaign.gm, campaign=campaign)
    assert campaign.memberships.filter(user=campaign.gm, role="gm").exists()


def test_only_the_gm_removes_players_and_regenerates_the_code():
    p1, p2 = make_user(), make_user()
    campaign = make_campaign(players=[p1, p2])
    old_code = campaign.join_code
    with pytest.raises(PermissionDenied):
        services.campaign_remove_player(gm=p1, campaign=campaign, user=p2)
    with pytest.raises(PermissionDenied):
        services.campaign_regenerate_join_code(gm=p1, campaign=campaign)
    with pytest.raises(PermissionDenied):
        services.campaign_update_settings(gm=p1, campaign=campaign, settings={})
    assert campaign.memberships.count() == 3

    services.campaign_remove_player(gm=campaign.gm, campaign=campaign, user=p2)
    assert not campaign.memberships.filter(user=p2).exists()
    new_code = services.campaign_regenerate_join_code(gm=campaign.gm, campaign=campaign)
    assert new_code != old_code
    assert Campaign.objects.get(pk=campaign.pk).join_code == new_code
    with pytest.raises(ValidationError):
        services.campaign_join(user=make_user(), join_code=old_code)


def test_the_gm_cannot_be_removed():
    campaign = make_campaign()
    with pytest.raises(ValidationError):
        services.campaign_remove_player(gm=campaign.gm, campaign=campaign, user=campaign.gm)


def test_campaign_for_user_is_a_404_for_strangers():
    campaign = make_campaign()
    stranger = make_user()
    with pytest.raises(Http404):
        campaign_for_user(stranger, campaign.pk)
    with pytest.raises(Campaign.DoesNotExist):
        campaign_for_user(stranger, campaign.pk)
    assert campaign_for_user(campaign.gm, campaign.pk) == campaign
    with pytest.raises(Http404):
        campaign_for_user(campaign.gm, 2**70)


# -------------------------------------------------------------------- pages


def test_create_page_creates_the_campaign_and_shows_the_join_code(client):
    gm = make_user("gina")
    client.force_login(gm)
    response = client.post(reverse("campaign_create"), {"name": "Iron Coast", "ruleset": SLUG})
    campaign = Campaign.objects.get(name="Iron Coast")
    assert response.status_code == 302 and response.url == reverse("campaign_detail", args=[campaign.pk])
    html = client.get(response.url).content.decode()
    assert campaign.join_code in html
    assert "You are the GM" in html


def test_create_page_shows_the_rulesets_reason_for_a_bad_house_rule(client):
    from characters.campaigns.house_rules import house_fields

    client.force_login(make_user())
    spec = next(f for f in house_fields(registry.get(SLUG)) if f.kind == "int")
    response = client.post(
        reverse("campaign_create"),
        {"name": "Iron Coast", "ruleset": SLUG, "_fields_for": SLUG, spec.name: "seven"},
    )
    assert response.status_code == 400
    assert response.context["form"].errors[spec.name] == ["Enter a whole number, such as 3."]
    assert not Campaign.objects.exists()


def test_create_page_refuses_a_budget_that_is_not_a_whole_number(client):
    client.force_login(make_user())
    field = f"budget_{_currency()}"
    response = client.post(
        reverse("campaign_create"), {"name": "X", "ruleset": SLUG, "_fields_for": SLUG, field: "lots"}
    )
    assert response.status_code == 400
    assert response.context["form"].errors[field] == ["Enter a whole number, such as 3."]
    assert not Campaign.objects.exists()


def test_join_page_joins_and_the_member_list_shows_me(client):
    campaign = make_campaign()
    client.force_login(make_user("pip"))
    response = client.post(reverse("campaign_join"), {"join_code": campaign.join_code.lower()})
    assert response.status_code == 302 and response.url == reverse("campaign_detail", args=[campaign.pk])
    html = client.get(response.url).content.decode()
    assert '<span class="member-name">pip</span>' in html
    assert campaign.join_code not in html  # only the GM sees the code
    assert "Leave campaign" in html


def test_join_page_with_a_wrong_code_shows_the_reason(client):
    client.force_login(make_user())
    response = client.post(reverse("campaign_join"), {"join_code": "nope"})
    assert response.status_code == 200
    assert "No campaign has this join code" in response.content.decode()


def test_home_lists_campaigns_i_run_and_play_in_and_my_characters(client):
    me = make_user("me")
    mine = make_campaign(gm=me, name="Run By Me")
    theirs = make_campaign(name="Played By Me", players=[me])
    make_campaign(name="Not Mine")
    Character.objects.create(campaign=theirs, owner=me, name="Sable", ruleset=theirs.ruleset)
    client.force_login(me)
    html = client.get(reverse("home")).content.decode()
    assert mine.name in html and theirs.name in html and "Sable" in html
    assert "Not Mine" not in html


def test_leave_page(client):
    player = make_user()
    campaign = make_campaign(players=[player])
    client.force_login(player)
    assert client.get(reverse("campaign_leave", args=[campaign.pk])).status_code == 405
    response = client.post(reverse("campaign_leave", args=[campaign.pk]))
    assert response.status_code == 302
    assert not campaign.memberships.filter(user=player).exists()
    assert client.get(reverse("campaign_detail", args=[campaign.pk])).status_code == 404


def test_gm_removes_a_player_on_the_page_and_with_htmx(client):
    p1, p2 = make_user("p1"), make_user("p2")
    campaign = make_campaign(players=[p1, p2])
    client.force_login(campaign.gm)
    response = client.post(reverse("campaign_remove_member", args=[campaign.pk, p1.pk]))
    assert response.status_code == 302
    assert not campaign.memberships.filter(user=p1).exists()
    response = client.post(
        reverse("campaign_remove_member", args=[campaign.pk, p2.pk]), HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert html.lstrip().startswith('<section class="card" id="members"')
    assert "p2" not in html


def test_gm_regenerates_the_code_with_htmx(client):
    campaign = make_campaign()
    old = campaign.join_code
    client.force_login(campaign.gm)
    response = client.post(reverse("campaign_regenerate_code", args=[campaign.pk]), HTTP_HX_REQUEST="true")
    campaign.refresh_from_db()
    assert campaign.join_code != old
    assert campaign.join_code in response.content.decode()
    assert 'id="join-code"' in response.content.decode()


def test_gm_edits_settings_and_a_bad_house_rule_is_a_form_error(client):
    campaign = make_campaign()
    currency = _currency()
    client.force_login(campaign.gm)
    url = reverse("campaign_settings", args=[campaign.pk])
    assert client.get(url).status_code == 200
    # House rules are typed fields now (tests/characters/campaigns/test_house_rules_form.py): nonsense in one
    # is a field error, a 400, and nothing is saved.
    response = client.post(url, {"name": "Renamed", f"budget_{currency}": 55, "hr:/rest_minutes": "bogus"})
    assert response.status_code == 400
    assert "Enter a whole number, such as 3." in response.content.decode()
    campaign.refresh_from_db()
    assert campaign.name != "Renamed"
    response = client.post(url, {"name": "Renamed", f"budget_{currency}": 55, "hr:/rest_minutes": ""})
    assert response.status_code == 302
    campaign.refresh_from_db()
    assert campaign.name == "Renamed"
    assert campaign.settings["starting_budget"][currency] == 55


@pytest.mark.parametrize(
    "name, method",
    [
        ("campaign_detail", "get"),
        ("campaign_settings", "get"),
        ("campaign_leave", "post"),
        ("campaign_regenerate_code", "post"),
    ],
)
def test_a_stranger_gets_404_on_every_campaign_page(client, name, method):
    campaign = make_campaign()
    client.force_login(make_user("stranger"))
    response = getattr(client, method)(reverse(name, args=[campaign.pk]))
    assert response.status_code == 404


def test_a_stranger_gets_404_removing_a_member(client):
    player = make_user()
    campaign = make_campaign(players=[player])
    client.force_login(make_user("stranger"))
    response = client.post(reverse("campaign_remove_member", args=[campaign.pk, player.pk]))
    assert response.status_code == 404
    assert campaign.memberships.filter(user=player).exists()


def test_a_player_gets_403_for_gm_pages(client):
    p1, p2 = make_user(), make_user()
    campaign = make_campaign(players=[p1, p2])
    client.force_login(p1)
    assert client.get(reverse("campaign_settings", args=[campaign.pk])).status_code == 403
    assert client.post(reverse("campaign_regenerate_code", args=[campaign.pk])).status_code == 403
    assert client.post(reverse("campaign_remove_member", args=[campaign.pk, p2.pk])).status_code == 403
    assert campaign.memberships.filter(user=p2).exists()
    assert Campaign.objects.get(pk=campaign.pk).join_code == campaign.join_code


def test_detail_page_links_to_new_character_only_when_that_page_exists(client):
    campaign = make_campaign()
    client.force_login(campaign.gm)
    response = client.get(reverse("campaign_detail", args=[campaign.pk]))
    from django.urls import NoReverseMatch

    try:
        expected = reverse("character_create", args=[campaign.pk])
    except NoReverseMatch:
        expected = None
    assert response.context["new_character_url"] == expected
