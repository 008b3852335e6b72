"""The sheet page: derived numbers per ruleset, build summary, costs, drafts, print, query budget."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from characters.models import Character, CharacterVersion, RollLog
from characters.sheet import services as play
from rulesets.engine.dice import FixedRoller
from tests.characters.sheet.test_sheet_fixtures import character_at_table

pytestmark = pytest.mark.django_db


def sheet(client, character, **params):
    response = client.get(reverse("character_sheet", args=[character.pk]), params)
    assert response.status_code == 200, response.content[:500]
    return response.content.decode()


def cell(html: str, testid: str) -> str:
    match = re.search(rf'data-testid="{re.escape(testid)}"[^>]*>(.*?)</', html, re.S)
    assert match, f"no element {testid}"
    return match.group(1).strip()


def pool(html: str, pool_id: str) -> tuple[int, int | None]:
    """(current, max) of a pool in the play-state block."""
    match = re.search(rf'data-testid="pool-{re.escape(pool_id)}"><strong>(-?\d+)</strong>(?: / (\d+))?', html)
    assert match, f"no pool {pool_id}"
    return int(match.group(1)), int(match.group(2)) if match.group(2) else None


def stat(html: str, key: str) -> str:
    match = re.search(rf'<div data-key="{re.escape(key)}"><dt>[^<]*</dt><dd[^>]*>(.*?)</dd>', html, re.S)
    assert match, f"no stat {key}"
    return match.group(1).strip()


def test_pando_sheet_shows_speed_stamina_momentum_and_protection(client, table):
    character = character_at_table(table, "pando")
    client.force_login(table["player"])
    html = sheet(client, character)
    assert stat(html, "max_speed") == "5"  # 3 + acrobatics 2
    assert stat(html, "max_stamina") == "11"  # 10 + endurance 1
    assert stat(html, "momentum") == "3"  # acrobatics 2 + presence 1
    # Protection per body part: the leather cap on the head, the shield on the left arm.
    row = re.search(r'<tr data-part="head">.*?</tr>', html, re.S).group(0)
    assert "Harm: 1" in row
    assert 'id="state-body"' in html and "body-diagram" in html
    # Build summary and costs.
    assert "Longsword" in html and "wielded" in html
    costs = re.search(r'<tr data-currency="cp">(.*?)</tr>', html, re.S).group(1)
    spent, budget, remaining = re.findall(r"<td[^>]*>(-?\d+)</td>", costs)
    assert (
        int(budget) == 40
        and int(spent) + int(remaining) == 40
        and int(spent) == character.report["spent"]["cp"]
    )


def test_maelstrom_sheet_shows_the_health_chart(client, table):
    character = character_at_table(table, "maelstrom")
    client.force_login(table["player"])
    html = sheet(client, character)
    chart = re.search(r'<table class="table sheet-health-chart">(.*?)</table>', html, re.S).group(1)
    labels = re.findall(r'<th scope="row">([^<]+)</th>', chart)
    assert labels == [
        "Bruised",
        "Scratched",
        "Hurt",
        "Injured",
        "Wounded",
        "Mauled",
        "Crippled",
        "Incapacitated",
    ]
    assert re.search(r'data-level="crippled"><th scope="row">Crippled</th><td>−5</td>', chart)
    assert stat(html, "willpower") == "4"
    assert cell(html, "wound-penalty") == "0"
    # The track section of the play state has the eight boxes too.
    assert html.count('class="track-box') == 8


def test_paragon_sheet_shows_defenses_and_checks(client, table):
    character = character_at_table(table, "paragon")
    client.force_login(table["player"])
    html = sheet(client, character)
    assert stat(html, "defense_melee") == "15"  # 10 + 3×fire 1 + 2×melee 1
    assert stat(html, "defense_triarmatura") == "28"  # 10 + 3×wind 4 + 2×triarmatura 3
    assert stat(html, "defense") == "28"
    assert re.search(
        r'data-key="triarmatura"><th scope="row">Triarmatura</th><td class="mono">d12!\+4d6\+6</td>', html
    )
    assert html.count('class="state-pool') >= 7  # the seven resource pools


def test_ourdnd_sheet_shows_hp_defense_and_effort(client, table):
    character = character_at_table(table, "ourdnd")
    client.force_login(table["player"])
    html = sheet(client, character)
    assert stat(html, "max_hp") == "10"
    assert stat(html, "defense") == "3"  # con 2 + shield 1
    assert re.search(r'data-key="sword"><th scope="row">Sword</th><td class="mono">d6</td>', html)
    assert pool(html, "hp") == (10, 10)


def test_ascendant_sheet_shows_defenses_thresholds_and_stamina(client, table):
    character = character_at_table(table, "ascendant")
    client.force_login(table["player"])
    html = sheet(client, character)
    assert stat(html, "max_stamina") == "17"  # human 8 + 1 × (wizard 6 + con 2) + Toughness 1 per level (#15)
    assert re.search(r'<tr data-key="int"><th scope="row">Int</th><td>\+4</td>', html)
    derived = character.report["derived"]
    for key in derived["defenses"]:
        assert f'<tr data-key="{key}">' in html
        assert f"<td>{derived['thresholds'][key]}</td>" in html


def test_a_draft_shows_draft_and_the_builder_link(client, table):
    character = character_at_table(table, "pando", status=Character.Status.DRAFT)
    client.force_login(table["player"])
    html = sheet(client, character)
    assert cell(html, "status") == "draft"
    builder = reverse("character_builder", args=[character.pk])
    assert f'href="{builder}"' in html


def test_print_view_has_the_print_class_and_no_state_forms_are_shown_by_css(client, table):
    character = character_at_table(table, "pando")
    client.force_login(table["player"])
    html = sheet(client, character, print="1")
    assert 'class="sheet sheet-printing"' in html
    assert "css/sheet.css" in html
    # The Print button calls window.print() from static/js/app.js (the CSP allows no inline handler).
    assert '<button type="button" class="btn btn-ghost" data-print>Print</button>' in html
    assert '<script src="/static/js/app.js" defer></script>' in html
    css = open("static/css/sheet.css", encoding="utf-8").read()
    assert "@media print" in css and ".state-actions" in css.split("@media print", 1)[1]


def test_sheet_page_stays_within_twelve_queries_with_many_versions_and_rolls(
    client, table, django_assert_max_num_queries
):
    character = character_at_table(table, "pando")
    # Many versions and many rolls.
    first = character.version + 1
    for n in range(first, first + 40):
        CharacterVersion.objects.create(
            character=character,
            number=n,
            build=character.build,
            state=character.state,
            report=character.report,
            reason=f"v{n}",
            author=table["player"],
        )
    character.version = first + 39
    character.save(update_fields=["version"])
    for _ in range(60):
        play.character_roll(
            character_id=character.pk,
            user=table["player"],
            rollable_id="skill:capability",
            roller=FixedRoller([1, 2, 3]),
        )
    assert RollLog.objects.filter(character=character).count() == 60
    client.force_login(table["player"])
    with django_assert_max_num_queries(12):
        html = sheet(client, character)
    assert html.count('id="roll-') >= 20  # the log shows the latest rolls
    with django_assert_max_num_queries(12):
        sheet(client, character, roll=str(RollLog.objects.filter(character=character).last().pk))
    client.force_login(table["gm"])  # the GM's page carries the review badge too
    with django_assert_max_num_queries(12):
        assert "Alex" in sheet(client, character)


def test_sheet_query_count_does_not_grow_with_skills_and_items(client, table, django_assert_max_num_queries):
    build = {
        "ruleset": "pando",
        "name": "Many",
        "budget": {"cp": 400},
        "species": "humanoid",
        "attributes": {
            "strength": 3,
            "endurance": 2,
            "acrobatics": 2,
            "coordination": 3,
            "rationality": 2,
            "perspective": 1,
            "presence": 1,
        },
        "resistances": {"awareness": "presence", "insight": "rationality", "willpower": "perspective"},
        "skills": [
            "melee",
            "blades",
            "shields",
            "athletics",
            "dodge",
            "climbing",
            "stealth",
            "lockpicking",
            "healing",
            "medicine",
            "lore",
            "history",
            "ranged",
            "bows",
            "fencing",
            "longswords",
        ],
        "equipment": [
            {"item": "longsword", "state": "wielded", "arms": ["right_arm"]},
            {"item": "round_shield", "state": "wielded", "arms": ["left_arm"]},
            {"item": "leather_cap", "state": "worn"},
        ]
        + [{"item": "bandage", "state": "carried"}] * 20,
    }
    character = character_at_table(table, "pando", build=build)
    assert character.report["valid"], character.report["errors"]
    client.force_login(table["player"])
    with django_assert_max_num_queries(12):
        html = sheet(client, character)
    assert len(re.findall(r'id="equipment-\d+"', html)) == 23


def test_a_pools_buttons_step_one_down_and_one_up_and_the_one_past_its_maximum_is_disabled(client, table):
    character = character_at_table(table, "ourdnd")  # HP 10 / 10
    client.force_login(table["player"])
    html = sheet(client, character)
    hp = re.search(r'<li class="state-pool[^"]*" id="pool-health-hp".*?</li>', html, re.S).group(0)
    # Steps, not values worked out from this page: a step applies to the value when it arrives.
    assert re.findall(r'<input type="hidden" name="delta" value="(-?\d+)">', hp) == ["-1", "1"]
    assert 'name="value" value="9"' not in hp and 'name="value" value="11"' not in hp
    buttons = re.findall(r'aria-label="(Lower|Raise) HP by 1"\s*( disabled)?>([−+])</button>', hp)
    assert buttons == [("Lower", "", "−"), ("Raise", " disabled", "+")]


def test_the_roll_log_links_each_roll_to_its_result(client, table):
    character = character_at_table(table, "ourdnd")
    roll = play.character_roll(
        character_id=character.pk,
        user=table["player"],
        rollable_id="check:str:normal",
        roller=FixedRoller([20]),
    )
    client.force_login(table["player"])
    html = sheet(client, character)
    row = re.search(rf'<tr id="roll-{roll.pk}">.*?</tr>', html, re.S).group(0)
    sheet_url = reverse("character_sheet", args=[character.pk])
    assert f'href="{sheet_url}?roll={roll.pk}#roll-result"' in row
    assert f'hx-get="{reverse("character_roll_detail", args=[character.pk, roll.pk])}"' in row
    assert "<td>player</td>" in row and roll.result["text"] in row
    assert re.search(r'<time datetime="\d{4}-\d\d-\d\dT[^"]+">\d{1,2} [A-Z][a-z]{2} \d\d:\d\d</time>', row)
