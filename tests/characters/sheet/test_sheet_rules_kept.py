"""The sheet's rules answers are worked out once per character version (``sheet_rules_kept``):
views of the same version reuse them, a new version (any change of build or play state) or a change
of the campaign's house rules works them out again, and the page shows the character as it is now."""

from __future__ import annotations

from unittest import mock

import pytest
from django.db import transaction
from django.urls import reverse

from characters.models import Character
from characters.sheet import selectors
from characters.versions import character_version_write
from tests.characters.sheet.test_sheet_fixtures import character_at_table
from tests.vehicles import SLUGS

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("slug", SLUGS)
def test_views_of_one_version_work_the_rules_out_once_and_a_new_version_again(client, table, slug):
    character = character_at_table(table, slug)
    client.force_login(table["player"])
    url = reverse("character_sheet", args=[character.pk])
    with mock.patch.object(selectors, "sheet_rules", wraps=selectors.sheet_rules) as worked_out:
        first = client.get(url)
        second = client.get(url)
        assert first.status_code == second.status_code == 200
        assert worked_out.call_count == 1
        assert f'data-version="{character.version}"' in second.content.decode()

        with transaction.atomic():
            changed = Character.objects.select_for_update().get(pk=character.pk)
            changed.state = {**(changed.state or {}), "notes": "Owes the ferryman two coins"}
            character_version_write(
                character=changed, author=table["player"], reason="notes", fields=["state"]
            )
        third = client.get(url)
        assert worked_out.call_count == 2
        page = third.content.decode()
        assert f'data-version="{character.version + 1}"' in page
        assert "Owes the ferryman two coins" in page
        client.get(url)
        assert worked_out.call_count == 2


@pytest.mark.parametrize("slug", SLUGS[:1])
def test_a_change_of_house_rules_works_the_rules_out_again(client, table, slug):
    character = character_at_table(table, slug)
    client.force_login(table["player"])
    url = reverse("character_sheet", args=[character.pk])
    kept = selectors.sheet_rules_kept(character=Character.objects.get(pk=character.pk))
    assert selectors.sheet_rules_kept(character=Character.objects.get(pk=character.pk)) is kept
    campaign = character.campaign
    campaign.settings = {**campaign.settings, "house_rules": {"a-setting-no-ruleset-reads": 1}}
    campaign.save(update_fields=["settings"])
    assert selectors.sheet_rules_kept(character=Character.objects.get(pk=character.pk)) is not kept
    assert client.get(url).status_code == 200
