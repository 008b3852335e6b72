"""``CompiledQuery`` (characters/compiled.py): a queryset compiled once answers each call
with what the same queryset, evaluated by Django, answers for that call's values."""

from __future__ import annotations

import pytest
from django.db.models import Count

from characters.compiled import CompiledQuery
from characters.models import Character
from tests.characters.sheet.test_sheet_fixtures import character_at_table
from tests.vehicles import SLUGS

pytestmark = pytest.mark.django_db


def _characters_of(owner):
    return (
        Character.objects.filter(owner=owner)
        .select_related("campaign", "owner")
        .annotate(versions_seen=Count("versions"))
        .order_by("id")
    )


def test_each_call_gets_the_models_django_makes_for_its_own_values(table):
    mine = [character_at_table(table, SLUGS[0]), character_at_table(table, SLUGS[1])]
    query = CompiledQuery(_characters_of, "owner")
    for user, expected in ((table["player"], mine), (table["stranger"], [])):
        got = query.fetch(owner=user.pk)
        django = list(_characters_of(user.pk))
        assert [c.pk for c in got] == [c.pk for c in django] == [c.pk for c in expected]
        for a, b in zip(got, django, strict=True):
            assert [getattr(a, f.attname) for f in Character._meta.concrete_fields] == [
                getattr(b, f.attname) for f in Character._meta.concrete_fields
            ]
            assert (a.campaign.house_rules, a.owner.username, a.versions_seen) == (
                b.campaign.house_rules,
                b.owner.username,
                b.versions_seen,
            )
            assert a.versions_seen >= 1


def test_values_list_rows_come_back_as_tuples(table):
    character = character_at_table(table, SLUGS[0])
    query = CompiledQuery(
        lambda pk: Character.objects.filter(pk=pk).values_list("id", "build", "campaign__gm_id"), "pk"
    )
    assert query.fetch(pk=character.pk) == [(character.pk, character.build, table["gm"].pk)]
    assert query.fetch(pk=character.pk + 1000) == []


def test_a_value_the_statement_does_not_take_fails_loudly(table):
    query = CompiledQuery(lambda pk, unused: Character.objects.filter(pk=pk), "pk", "unused")
    with pytest.raises(ValueError, match="unused"):
        query.fetch(pk=1, unused=2)
