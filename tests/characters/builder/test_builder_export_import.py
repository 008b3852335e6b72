"""Export a build document and import it again; a document of another ruleset is refused clearly."""

from __future__ import annotations

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from characters.builder.services import character_create, character_save_draft
from characters.models import Character
from rulesets.engine import registry
from tests import vehicles
from tests.characters.conftest import make_table, parse_html
from tests.characters.sheet.test_sheet_fixtures import BUILDS
from tests.vehicles import SLUGS

pytestmark = pytest.mark.django_db

#: What a build holds besides its name, ruleset, format and budget (which the campaign sets).
_OWN = ("name", "ruleset", "format", "budget")


def _core(build: dict) -> dict:
    return {k: v for k, v in build.items() if k not in _OWN}


@pytest.mark.parametrize("slug", SLUGS)
def test_export_then_import_round_trip(client, slug):
    alex = _core(BUILDS[slug])
    table = make_table(slug, settings={"starting_budget": BUILDS[slug]["budget"]})
    c = character_create(campaign=table.campaign, owner=table.player, name="Alex")
    c = character_save_draft(character_id=c.id, user=table.player, version=1, build={**c.build, **alex})
    client.force_login(table.player)
    response = client.get(reverse("character_export", args=[c.id]))
    assert response.status_code == 200
    assert response["Content-Disposition"] == f'attachment; filename="alex.{slug}.json"'
    document = json.loads(response.content)
    assert document["format"] == "sheetforge.build/1" and document["ruleset"] == slug
    assert {k: document[k] for k in alex} == alex

    upload = SimpleUploadedFile("alex.json", response.content, content_type="application/json")
    imported = client.post(reverse("character_import", args=[table.campaign.id]), {"file": upload})
    assert imported.status_code == 302
    copy = Character.objects.exclude(id=c.id).get(campaign=table.campaign)
    assert imported["Location"] == reverse("character_builder", args=[copy.id])
    assert (copy.status, copy.owner, copy.name) == ("draft", table.player, "Alex")
    assert {k: copy.build[k] for k in alex} == alex
    assert copy.report["valid"] is True


@pytest.mark.parametrize("slug", SLUGS)
def test_pasted_json_of_an_invalid_build_is_imported_as_a_draft_with_its_problems(client, slug):
    table = make_table(slug)
    client.force_login(table.player)
    broken = vehicles.broken(registry.get(slug))
    doc = {"format": "sheetforge.build/1", **_core(broken), "ruleset": slug, "name": "Broken"}
    response = client.post(
        reverse("character_import", args=[table.campaign.id]), {"document": json.dumps(doc)}
    )
    assert response.status_code == 302
    c = Character.objects.get(name="Broken")
    assert c.status == "draft" and c.report["valid"] is False
    refused = registry.get(slug).validate({**doc, "budget": c.build["budget"]}).errors
    assert refused and [(e["code"], e["path"]) for e in c.report["errors"]] == [
        (i.code, i.path) for i in refused
    ]


@pytest.mark.parametrize("slug", SLUGS)
def test_a_document_for_another_ruleset_is_refused_with_the_reason(client, slug):
    table = make_table(slug)
    client.force_login(table.player)
    theirs = registry.get(vehicles.other_than(slug))
    doc = {**BUILDS[theirs.slug], "format": "sheetforge.build/1", "name": "Kestrel"}
    response = client.post(
        reverse("character_import", args=[table.campaign.id]), {"document": json.dumps(doc)}
    )
    assert response.status_code == 422
    errors = parse_html(response.content).by_id("import-errors")
    assert [li.attrs["data-code"] for li in errors.find_all("li")] == ["ruleset.unknown"]
    assert f"{theirs.name} build" in errors.text and registry.get(slug).name in errors.text
    assert not Character.objects.exists()


@pytest.mark.parametrize(
    "text, reason", [("{not json", b"not valid JSON"), ("[1, 2]", b"must be a JSON object")]
)
def test_junk_is_refused_not_raised(client, text, reason):
    table = make_table(SLUGS[0])
    client.force_login(table.player)
    response = client.post(reverse("character_import", args=[table.campaign.id]), {"document": text})
    assert response.status_code == 422
    assert reason in response.content


def test_import_into_a_campaign_i_do_not_belong_to_is_404(client):
    table = make_table(SLUGS[0])
    client.force_login(table.outsider)
    assert client.get(reverse("character_import", args=[table.campaign.id])).status_code == 404
