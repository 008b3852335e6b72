"""Effects on the pages, without JSON (characters/effects/views.py, forms.py), in every registered
ruleset: the sheet's Effects block, the "Apply an effect" form (named, kept and custom effects, the
durations that make sense now), refusals shown in the form with the reason and nothing changed,
removing one, the campaign's kept effects, and who may do what. The sheet's cached blocks and its
live blocks show a new effect and an ended one."""

from __future__ import annotations

import html as htmlmod
import re

import pytest
from django.urls import reverse

from characters.effects import services as fx_services
from characters.models import CampaignEffect, Character
from combat import services as combat
from combat.quick_builds import quick_build
from rulesets.engine import effects as fx
from rulesets.engine import registry
from rulesets.engine.dice import FixedRoller
from tests.characters.sheet.test_sheet_fixtures import character_at_table, make_character

pytestmark = pytest.mark.django_db
RULESETS = registry.SYSTEMS
HX = {"HTTP_HX_REQUEST": "true"}


def _text(markup: str) -> str:
    return htmlmod.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", markup))).strip()


def _key(ruleset) -> str:
    keys = [k for k in ruleset.effect_keys if k not in ruleset.table_keys] or list(ruleset.effect_keys)
    return keys[0]


def _option(page: str, value: str, label: str) -> bool:
    """Whether ``page`` offers ``<option value=…>label</option>`` (chosen or not)."""
    pattern = rf'<option value="{re.escape(htmlmod.escape(value))}"( selected)?>{re.escape(htmlmod.escape(label))}</option>'
    return re.search(pattern, page) is not None


def _apply_url(character) -> str:
    return reverse("character_effect_apply", args=[character.pk])


def _form(client, character, **params) -> str:
    got = client.get(_apply_url(character), params, **HX)
    assert got.status_code == 200
    return got.content.decode()


def _custom(ruleset, *, name="Blessed", amount="1", target="all", **more) -> dict:
    return {
        "effect": "custom",
        "custom_name": name,
        "what-0": f"key:{_key(ruleset)}",
        "amount-0": amount,
        "target-0": target,
        "duration": "none",
        **more,
    }


def _entries(character) -> list[dict]:
    return fx.active_entries(Character.objects.get(pk=character.pk).state)


def _rollables(client, character) -> dict:
    from characters.effects.selectors import character_rollables

    return {
        r["id"]: r["request"] for r in character_rollables(character=Character.objects.get(pk=character.pk))
    }


@pytest.mark.parametrize("slug", RULESETS)
def test_the_form_offers_the_rulesets_effects_and_roll_keys_and_only_durations_that_make_sense(
    slug, client, table
):
    ruleset = registry.get(slug)
    character = character_at_table(table, slug)
    client.force_login(table["player"])
    page = _form(client, character)
    text = _text(page)
    for kind in ruleset.effect_catalogue(None).values():
        assert kind.name in text
        assert f'value="named:{kind.id}"' in page
    for key in ruleset.effect_keys:
        assert _option(page, f"key:{key}", ruleset.label(key))
    for mode in ruleset.effect_modes:
        assert f'value="mode:{mode}"' in page
    for kind in ruleset.modifier_types:
        assert f'value="type:{kind}"' in page
    assert _option(page, "all", "every roll")
    for rid, label in ((r["id"], r.get("label")) for r in _labels(character)):
        assert _option(page, rid, label)
    assert 'value="none"' in page and "Until removed" in text
    # No encounter runs: no rounds, no turns.
    assert 'value="rounds"' not in page and 'value="turn"' not in page
    assert "{" not in text and '"target"' not in text  # no JSON for people
    # An encounter runs: rounds of it, and its combatants' turns.
    gm = table["gm"]
    e = combat.encounter_create(campaign=character.campaign, user=gm, name="Bridge")
    combat.encounter_add_combatant(encounter=e, user=gm, character=character)
    try:
        combat.encounter_start(encounter=e, user=gm, roller=FixedRoller([]))
    except Exception:
        from rulesets.engine.dice import Roller

        combat.encounter_start(encounter=e, user=gm, roller=Roller())
    page = _form(client, character)
    assert 'value="rounds"' in page and 'value="turn"' in page
    assert _option(page, str(character.combatants.get().pk), character.name)
    assert "of Bridge, now in round 1" in _text(page)


def _labels(character):
    from characters.sheet.selectors import sheet_rules

    return [r for r in sheet_rules(character=Character.objects.get(pk=character.pk)).rollables if r.get("id")]


@pytest.mark.parametrize("slug", RULESETS)
def test_a_custom_effect_applied_from_the_sheet_shows_in_words_and_changes_the_rolls(slug, client, table):
    ruleset = registry.get(slug)
    character = character_at_table(table, slug)
    client.force_login(table["player"])
    sheet_url = reverse("character_sheet", args=[character.pk])
    before_page = client.get(sheet_url).content.decode()  # fills the sheet's cached blocks
    assert f"No effects on {character.name}." in _text(before_page)
    before = _rollables(client, character)
    got = client.post(_apply_url(character), _custom(ruleset, next=sheet_url))
    assert got.status_code == 302 and got["Location"] == sheet_url
    [entry] = _entries(character)
    key = _key(ruleset)
    assert entry["name"] == "Blessed" and entry["changes"] == [{"target": "all", key: 1}]
    assert entry["duration"] is None
    after = _rollables(client, character)
    low = ruleset.effect_keys[key]
    changed = 0
    for rid, request in before.items():
        if isinstance(request.get(key), int):
            assert after[rid][key] == (request[key] + 1 if low is None else max(low, request[key] + 1))
            changed += 1
    page = client.get(sheet_url).content.decode()
    block = re.search(r'id="character-effects-\d+".*?</div>\s*</li>\s*</ul>', page, re.S).group(0)
    words = _text(block)
    assert "Blessed" in words and "until removed" in words
    assert f"+1 {ruleset.label(key)} to every roll" in words
    # The roll buttons (a cached block, keyed by the version) show the changed requests.
    _changed_on_the_page(before_page, page, before, after)


def _requests(page: str) -> dict[str, str]:
    """Each roll button's request as the Dice block prints it."""
    return dict(re.findall(r'data-testid="request-([^"]+)">([^<]*)<', page))


def _changed_on_the_page(page_before: str, page_after: str, before: dict, after: dict) -> int:
    """Every roll the page prints whose request changed is printed changed; the others as they were.
    Returns how many printed rolls changed."""
    shown_before, shown_after = _requests(page_before), _requests(page_after)
    assert set(shown_before) == set(shown_after)
    for rid in shown_before:
        if before.get(rid) == after.get(rid):
            assert shown_after[rid] == shown_before[rid], rid
        elif rid in before:
            assert shown_after[rid] != shown_before[rid], rid
    return sum(before.get(rid) != after.get(rid) for rid in shown_before)


@pytest.mark.parametrize("slug", RULESETS)
def test_htmx_answers_with_the_form_the_list_and_the_sheets_blocks(slug, client, table):
    ruleset = registry.get(slug)
    character = character_at_table(table, slug)
    version = character.version
    client.force_login(table["gm"])
    got = client.post(_apply_url(character), _custom(ruleset, place="sheet"), **HX)
    assert got.status_code == 200
    page = got.content.decode()
    assert f'id="effect-apply-{character.pk}"' in page
    assert f"Blessed is on {character.name}." in _text(page)
    assert f'id="character-effects-{character.pk}" hx-swap-oob="true"' in page
    assert 'id="sheet-rollables"' in page and f'data-version="{version + 1}"' in page
    assert got["HX-Trigger-After-Settle"] == "sheet-state-changed"
    # Removing it: the list comes back without it, and the sheet's blocks with it.
    [entry] = _entries(character)
    removed = client.post(
        reverse("character_effect_remove", args=[character.pk, entry["id"]]), {"place": "sheet"}, **HX
    )
    assert removed.status_code == 200
    assert _entries(character) == []
    assert f"No effects on {character.name}." in _text(removed.content.decode())
    assert f'data-version="{version + 2}"' in removed.content.decode()
    # Removing it again: it has ended already, said in the list; nothing changes.
    again = client.post(reverse("character_effect_remove", args=[character.pk, entry["id"]]), **HX)
    assert again.status_code == 400 and "That effect has ended already." in _text(again.content.decode())
    assert Character.objects.get(pk=character.pk).version == version + 2


@pytest.mark.parametrize("slug", RULESETS)
def test_a_refusal_shows_in_the_form_with_the_reason_and_changes_nothing(slug, client, table):
    ruleset = registry.get(slug)
    character = character_at_table(table, slug)
    client.force_login(table["player"])
    version = character.version
    cases = [
        (_custom(ruleset, amount="0"), "a change of 0 changes nothing"),
        (_custom(ruleset, amount="x"), "enter a whole number"),
        (_custom(ruleset, name=""), "give the effect a name"),
        ({**_custom(ruleset), "what-0": ""}, "say what it changes"),
        (_custom(ruleset, target="no_such_roll"), "pick which rolls it changes"),
        ({"duration": "none"}, "pick an effect"),
        (_custom(ruleset, duration="rounds", rounds="2"), "runs on an encounter's clock"),
        (_custom(ruleset, duration="rounds", rounds="2", encounter="999999"), "not a running encounter"),
        (_custom(ruleset, duration="turn", combatant="999999"), "needs a combatant of a running encounter"),
    ]
    for body, reason in cases:
        for htmx in (True, False):
            got = client.post(_apply_url(character), body, **(HX if htmx else {}))
            assert got.status_code == 400, (body, got.status_code)
            page = got.content.decode()
            words = _text(page)
            assert reason in words, (reason, words[:600])
            assert "Nothing was changed." in words
            assert 'data-testid="effect-error"' in page
            # What was typed is still there.
            if body.get("custom_name"):
                assert f'value="{body["custom_name"]}"' in page
    assert Character.objects.get(pk=character.pk).version == version and _entries(character) == []


def _refused_on(ruleset, character, kind, value) -> str:
    """The rules' words when ``kind``'s own play-state actions refuse the character as it is, else ""."""
    from rulesets.engine import StateError, validate

    report = validate(character.build)
    state = character.state
    for action in kind.actions("apply", value):
        try:
            state, _ = ruleset.state_action(state, action, character.build, report)
        except StateError as exc:
            return exc.message
    return ""


@pytest.mark.parametrize("slug", RULESETS)
def test_a_named_effect_of_the_ruleset_is_applied_as_the_rules_say(slug, client, table):
    ruleset = registry.get(slug)
    catalogue = ruleset.effect_catalogue(None)
    if not catalogue:
        pytest.skip(f"{ruleset.name} names no effects yet")
    character = character_at_table(table, slug)
    client.force_login(table["gm"])
    ids = [r["id"] for r in _labels(character)]
    for kind in catalogue.values():
        value = min(2, kind.max) if kind.valued else None
        body = {"effect": f"named:{kind.id}", "duration": "none"}
        if value:
            body["value"] = str(value)
        try:
            fx.resolve(ruleset, {"effect": kind.id, "value": value}, ids)
        except fx.EffectError as exc:
            got = client.post(_apply_url(character), body, **HX)
            assert got.status_code == 400 and exc.message in _text(got.content.decode())
            continue
        refusal = _refused_on(ruleset, character, kind, value)
        got = client.post(_apply_url(character), body, **HX)
        if refusal:  # a native effect the rules allow only in some states (a crippled limb)
            assert got.status_code == 400 and refusal in _text(got.content.decode())
            continue
        assert got.status_code == 200, _text(got.content.decode())[:400]
        entry = _entries(character)[-1]
        assert entry["effect"] == kind.id and entry["value"] == value
        assert entry["name"] == (f"{kind.name} {value}" if value else kind.name)
        fx_services.character_effect_remove(
            character_id=character.pk, user=table["gm"], effect_id=entry["id"]
        )


@pytest.mark.parametrize("slug", RULESETS)
def test_rounds_of_a_running_encounter_from_the_form_and_the_sheet_says_what_remains(slug, client, table):
    ruleset = registry.get(slug)
    character = character_at_table(table, slug)
    gm = table["gm"]
    e = combat.encounter_create(campaign=character.campaign, user=gm, name="Bridge")
    [npc] = combat.encounter_add_combatant(
        encounter=e, user=gm, name="Raider", build=quick_build(ruleset, character.campaign)
    )
    from rulesets.engine.dice import Roller

    combat.encounter_start(encounter=e, user=gm, roller=Roller())
    client.force_login(table["player"])
    got = client.post(_apply_url(character), _custom(ruleset, duration="rounds", rounds="2"))
    assert got.status_code == 302
    [entry] = _entries(character)
    assert entry["duration"] == {"rounds": 2, "encounter": e.pk, "start_round": 1}
    page = _text(client.get(reverse("character_sheet", args=[character.pk])).content.decode())
    assert "Blessed 2 rounds left" in page
    got = client.post(
        _apply_url(character), _custom(ruleset, name="Guarded", duration="turn", combatant=str(npc.pk))
    )
    assert got.status_code == 302
    page = _text(client.get(reverse("character_sheet", args=[character.pk])).content.decode())
    assert "Guarded until the end of Raider's turn" in page


@pytest.mark.parametrize("slug", RULESETS)
def test_a_kept_effect_is_offered_again_and_the_gm_deletes_it(slug, client, table):
    ruleset = registry.get(slug)
    character = character_at_table(table, slug)
    other = make_character(ruleset=slug, owner=table["other"], campaign=character.campaign)
    client.force_login(table["player"])
    got = client.post(_apply_url(character), _custom(ruleset, name="Bolstered", save="on"), **HX)
    assert got.status_code == 200 and "The campaign keeps Bolstered for next time." in _text(
        got.content.decode()
    )
    kept = CampaignEffect.objects.get(campaign=character.campaign)
    assert kept.name == "Bolstered" and kept.changes == [{"target": "all", _key(ruleset): 1}]
    # Another character of the campaign: the form offers it, in words; applying it works.
    client.force_login(table["other"])
    page = _form(client, other)
    assert f'value="saved:{kept.pk}"' in page
    assert f"+1 {ruleset.label(_key(ruleset))} to every roll" in _text(page)
    assert (
        client.post(_apply_url(other), {"effect": f"saved:{kept.pk}", "duration": "none"}).status_code == 302
    )
    assert [e["name"] for e in _entries(other)] == ["Bolstered"]
    # Players do not manage the kept effects; strangers do not see them.
    page_url = reverse("campaign_effects", args=[character.campaign_id])
    delete_url = reverse("campaign_effect_delete", args=[character.campaign_id, kept.pk])
    assert client.get(page_url).status_code == 403
    assert client.post(delete_url).status_code == 403
    client.force_login(table["stranger"])
    assert client.get(page_url).status_code == 404 and client.post(delete_url).status_code == 404
    assert CampaignEffect.objects.filter(pk=kept.pk).exists()
    # The GM does.
    client.force_login(table["gm"])
    listed = _text(client.get(page_url).content.decode())
    assert "Bolstered" in listed and f"+1 {ruleset.label(_key(ruleset))} to every roll" in listed
    deleted = client.post(delete_url, **HX)
    assert deleted.status_code == 200 and "Bolstered is deleted." in _text(deleted.content.decode())
    assert not CampaignEffect.objects.filter(pk=kept.pk).exists()
    assert client.post(delete_url, **HX).status_code == 400
    # Who has it keeps it.
    assert [e["name"] for e in _entries(other)] == ["Bolstered"]


@pytest.mark.parametrize("slug", RULESETS[:2])
def test_another_player_gets_404_and_the_forms_are_not_theirs(slug, client, table):
    ruleset = registry.get(slug)
    character = character_at_table(table, slug)
    entry = fx_services.character_effect_apply(
        character_id=character.pk,
        user=table["gm"],
        spec={"name": "Marked", "changes": [{"target": "all", _key(ruleset): 1}]},
    )[1]
    remove = reverse("character_effect_remove", args=[character.pk, entry["id"]])
    for who in ("other", "stranger"):
        client.force_login(table[who])
        assert client.get(_apply_url(character)).status_code == 404
        assert client.post(_apply_url(character), _custom(ruleset)).status_code == 404
        assert client.post(remove).status_code == 404
    assert [e["name"] for e in _entries(character)] == ["Marked"]
    client.logout()
    assert client.get(_apply_url(character)).status_code == 302  # to the sign-in page


@pytest.mark.parametrize("slug", RULESETS)
def test_the_sheets_live_blocks_show_a_new_and_an_ended_effect(slug, client, table):
    """The blocks an open sheet fetches when its socket says the character changed: cached under the
    character's version, they follow each effect written and each ended."""
    ruleset = registry.get(slug)
    character = character_at_table(table, slug)
    client.force_login(table["player"])
    live = reverse("character_sheet_live", args=[character.pk])
    first = client.get(live, **HX).content.decode()
    rows_before = _rollables(client, character)
    fx_services.character_effect_apply(
        character_id=character.pk,
        user=table["gm"],
        spec={"name": "Hexed", "changes": [{"target": "all", _key(ruleset): -1}]},
        duration={"until": "rest"},
    )
    second = client.get(live, **HX).content.decode()
    assert "Hexed" in _text(second) and "until rest" in _text(second)
    assert "Hexed" not in _text(first)
    assert _changed_on_the_page(first, second, rows_before, _rollables(client, character)) >= 1
    fx_services.characters_effects_end(character_ids=[character.pk], ending=lambda s: fx.active_entries(s))
    third = client.get(live, **HX).content.decode()
    assert "Hexed" not in _text(third) and f"No effects on {character.name}." in _text(third)
    assert _rollables(client, character) == rows_before
    assert _requests(third) == _requests(first)
    assert re.search(r'id="sheet-version"[^>]*data-version="(\d+)"', third).group(1) == str(
        Character.objects.get(pk=character.pk).version
    )


@pytest.mark.parametrize("slug", RULESETS)
def test_the_party_page_offers_the_form_on_each_card_and_a_plain_post_comes_back_to_it(slug, client, table):
    ruleset = registry.get(slug)
    character = character_at_table(table, slug)
    client.force_login(table["gm"])
    party_url = reverse("campaign_party", args=[character.campaign_id])
    page = client.get(party_url).content.decode()
    apply_url = _apply_url(character)
    assert f'hx-get="{apply_url}?next={party_url}&amp;place=party"' in page
    assert "Apply an effect" in _text(page)
    got = client.post(apply_url, _custom(ruleset, next=party_url))
    assert got.status_code == 302 and got["Location"] == party_url
    [entry] = _entries(character)
    assert entry["name"] == "Blessed"
    card = client.get(party_url).content.decode()
    assert "Blessed" in _text(card)
    # From the party page's form (htmx): the form says what was done; no effects list comes along
    # out of band (the card has none by that id: its live update draws it again).
    got = client.post(apply_url, _custom(ruleset, name="Shaken", next=party_url, place="party"), **HX)
    assert got.status_code == 200
    answer = got.content.decode()
    assert "Shaken is on" in _text(answer)
    assert f'id="character-effects-{character.pk}"' not in answer
    assert 'name="place" value="party"' in answer
    assert [e["name"] for e in _entries(character)] == ["Blessed", "Shaken"]
