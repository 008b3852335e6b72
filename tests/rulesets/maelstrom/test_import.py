"""Import of Maelstrom's own character sheets (issue #15): the importer, the CLI, the API's create
and the builder's import page. The sheets are in ./sheets, written as a player would."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command
from django.urls import reverse

from characters.models import Character
from rulesets.engine import registry, validate
from rulesets.engine.ruleset import Ruleset
from rulesets.systems.maelstrom import importer
from tests.characters.conftest import make_table
from tests.factories import api_client
from tests.test_empty_environment import run  # noqa: F401  (the fixture: manage.py with PATH and HOME only)

SHEETS = Path(__file__).resolve().parent / "sheets"
ROOT = Path(__file__).resolve().parents[3]
RULESET = registry.get("maelstrom")
CTX = RULESET.context()


def sheet(name: str) -> dict:
    return json.loads((SHEETS / f"{name}.json").read_text())


def convert(name: str) -> tuple[dict, list[dict]]:
    build, issues = RULESET.import_sheet(sheet(name), ctx=CTX)
    assert build is not None
    return build, [i.as_dict() for i in issues]


# ------------------------------------------------------------------ the importer


def test_a_sheet_becomes_a_build_with_its_dots_names_matched_as_people_write_them():
    build, issues = convert("vex")
    assert issues == []
    assert build["format"] == "sheetforge.build/1" and build["ruleset"] == "maelstrom"
    assert build["name"] == '"Vex" Okonkwo'  # quotes inside a name stay; only surrounding ones go
    assert build["budget"] == {"xp": 36}  # experience earned
    assert build["attributes"] == {
        "strength": 3,
        "precision": 4,
        "reflexes": 2,
        "perception": 3,
        "intelligence": 2,
        "wits": 2,
    }
    assert build["abilities"] == {
        "melee": 3,
        "athletics": 2,
        "alertness": 2,
        "stealth": 1,
        "firearms": 3,
        "piloting": 2,
        "heavy_weapons": 1,
        "driving": 1,
        "engineering": 2,
        "medicine": 1,
        "science": 1,
        "navigation": 1,
    }
    assert build["willpower"] == 4
    assert "creation" not in build  # final dots only: priced by the cheapest legal creation


def test_specialties_are_read_as_a_person_wrote_them():
    build, _ = convert("vex")
    assert build["specialties"] == [
        {"ability": "melee", "name": "Surprise Attack", "kind": "general"},  # the seed lists it general
        {"ability": "melee", "name": "Swords", "kind": "advanced"},  # "(Adv)"
        {
            "ability": "athletics",
            "name": "Zero-G",
            "kind": "advanced",
        },  # unmarked: the seed lists it advanced
        {"ability": "firearms", "name": "Pistols", "kind": "general"},  # quotes stripped
        # one string, two specialties separated by a comma, both marked advanced (not in the seed's list)
        {"ability": "engineering", "name": "Mechanical Design", "kind": "advanced"},
        {"ability": "engineering", "name": "Electronics", "kind": "advanced"},
    ]


def test_the_imported_build_is_priced_by_the_cheapest_legal_creation():
    build, _ = convert("vex")
    report = validate(build)
    assert report.valid, report.errors
    # Creation covers every attribute and ability dot (6 + 4 extra attribute dots, 3, 3, 2×4, 1×6);
    # specialties 2 + 3 + 3 + 2 + 3 + 3 = 16, willpower 4th dot 4.
    assert report.spent == {"xp": 20}
    assert report.derived["creation"]["source"] == "cheapest"
    assert report.derived["creation"]["primary"] == "physical"
    kestrel, _ = convert("kestrel")
    report = validate(kestrel)
    assert report.valid, report.errors
    assert report.budget == {"xp": 30}  # no experience on the sheet: the house default 30
    assert report.spent == {"xp": 16}  # Investigation 4th dot 8; Forensics 3, Research 2, Hacking 3
    assert report.derived["primary"] == "mental"
    assert [s["kind"] for s in kestrel["specialties"]] == ["advanced", "general", "advanced"]


def test_concept_campaign_flaws_free_xp_and_spent_willpower_go_to_the_notes():
    build, _ = convert("vex")
    assert build["notes"].splitlines() == [
        "Concept: Ex-marine turned salvager",
        "Campaign: The Drift",
        "Flaws:",
        "- Loyal to a fault: Never leaves a crewmate behind.",
        "The imported sheet listed 16 XP free of 36 earned.",
        (
            "Willpower: 1 of 4 dots spent on the imported sheet (current willpower 3); mark them spent on the "
            "sheet once the character is in play."
        ),
    ]


def test_unknown_attribute_and_ability_names_are_reported_and_kept():
    build, issues = convert("odd_names")
    assert [(i["code"], i["path"]) for i in issues] == [
        ("import.unknown_attribute", "/attributes/mental/3/name"),
        ("import.unknown_ability", "/abilities/talents/1/name"),
    ]
    assert issues[0]["message"] == (
        "Maelstrom has no attribute 'Charisma'; it is kept under that name for the "
        "storyteller to rename or remove."
    )
    assert build["attributes"]["charisma"] == 3 and build["abilities"]["basket_weaving"] == 2
    report = validate(build)
    assert report.has_error("attribute.unknown", "/attributes/charisma")
    assert report.has_error("skill.unknown", "/abilities/basket_weaving")
    # A comma inside parentheses is part of the name; single quotes are not.
    assert build["specialties"] == [
        {"ability": "alertness", "name": "Terrain (Urban, Forest)", "kind": "general"},
        {"ability": "alertness", "name": "Night Vision", "kind": "advanced"},
    ]


@pytest.mark.parametrize("name", ["vex", "kestrel", "odd_names"])
def test_a_sheet_round_trips_to_a_build_and_back_to_the_same_dots(name):
    build, _ = convert(name)
    again, _ = RULESET.import_sheet(importer.export_sheet(build, ctx=CTX), ctx=CTX)
    known = {k: v for k, v in build["attributes"].items() if k in CTX.catalogue["attributes"]}
    assert {k: v for k, v in again["attributes"].items()} == known
    assert again["abilities"] == {
        k: v for k, v in build["abilities"].items() if k in CTX.catalogue["abilities"]
    }

    def order(specs):
        return sorted(specs, key=lambda s: (s["ability"], s["name"]))

    assert order(again["specialties"]) == order(
        [s for s in build["specialties"] if s["ability"] in CTX.catalogue["abilities"]]
    )
    assert again.get("willpower") == build.get("willpower")
    assert again["budget"] == build["budget"]


@pytest.mark.parametrize(
    "data",
    [
        {"hello": "world"},
        [1, 2],
        "a sheet",
        None,
        {"ruleset": "maelstrom", "attributes": {"physical": []}},
        {"attributes": {"strength": 2}},
    ],
)
def test_what_is_not_such_a_sheet_is_refused_with_the_reason(data):
    build, issues = RULESET.import_sheet(data, ctx=CTX)
    assert build is None
    assert [i.code for i in issues] == ["import.not_a_sheet"]


@pytest.mark.parametrize(
    "data, code, path",
    [
        (
            {"attributes": {"physical": [{"name": "Strength", "dots": "lots"}]}},
            "import.malformed",
            "/attributes/physical/0/dots",
        ),
        ({"attributes": {"physical": [7]}}, "import.malformed", "/attributes/physical/0"),
        (
            {"attributes": {"physical": []}, "abilities": {"talents": "Melee 3"}},
            "import.malformed",
            "/abilities/talents",
        ),
        ({"attributes": {"physical": []}, "willpower": {"spent": 1}}, "import.malformed", "/willpower/max"),
        (
            {"attributes": {"physical": []}, "experience": {"earned": -3}},
            "import.malformed",
            "/experience/earned",
        ),
        ({"attributes": {"physical": []}, "flaws": "grumpy"}, "import.malformed", "/flaws"),
        ({"attributes": {"physical": []}, "backstory": "..."}, "import.unknown_key", "/backstory"),
    ],
)
def test_a_broken_part_of_a_sheet_is_reported_never_raised(data, code, path):
    build, issues = RULESET.import_sheet({"name": "X", **data}, ctx=CTX)
    assert build is not None
    assert (code, path) in [(i.code, i.path) for i in issues]
    validate(build)  # the build is a document the rules service answers


def test_the_base_class_reads_no_other_format():
    build, issues = Ruleset.import_sheet(registry.get("pando"), sheet("vex"))
    assert build is None and [i.code for i in issues] == ["import.unsupported"]


def test_a_campaigns_starting_budget_is_the_default_when_the_sheet_has_no_experience():
    ctx = RULESET.context({"starting_budget": {"xp": 45}})
    build, _ = RULESET.import_sheet(sheet("kestrel"), ctx=ctx)
    assert build["budget"] == {"xp": 45}


# ------------------------------------------------------------------ the CLI


def rules(*args: str, stdin: bytes | None = None) -> tuple[int, list[dict], str]:
    out, err = io.StringIO(), io.StringIO()
    code = 0
    try:
        kwargs = {"stdin": io.BytesIO(stdin)} if stdin is not None else {}
        call_command("rules", *args, stdout=out, stderr=err, **kwargs)
    except SystemExit as exc:
        code = exc.code
    return code, [json.loads(line) for line in out.getvalue().splitlines()], err.getvalue()


def test_the_cli_prints_one_build_per_sheet_in_input_order():
    code, lines, err = rules("import", "maelstrom", str(SHEETS / "vex.json"), str(SHEETS / "kestrel.json"))
    assert code == 0 and err == ""
    assert [line["name"] for line in lines] == ['"Vex" Okonkwo', "Kestrel"]
    assert lines[0] == convert("vex")[0]
    assert all(validate(line).valid for line in lines)


def test_the_cli_reports_conversion_issues_on_stderr_and_keeps_the_names():
    path = str(SHEETS / "odd_names.json")
    code, lines, err = rules("import", "maelstrom", path)
    assert code == 0
    assert lines[0]["attributes"]["charisma"] == 3
    assert err.splitlines() == [
        (
            f"{path}: Maelstrom has no attribute 'Charisma'; it is kept under that name for the storyteller to "
            "rename or remove."
        ),
        (
            f"{path}: Maelstrom has no ability 'Basket Weaving'; it is kept under that name for the storyteller to "
            "rename or remove (or to add as a homebrew ability)."
        ),
    ]


def test_a_file_that_is_not_such_a_sheet_is_exit_2_with_a_path_and_error_line(tmp_path):
    junk = tmp_path / "junk.json"
    junk.write_text("{not json")
    missing = str(tmp_path / "nope.json")
    other = str(SHEETS / "not_a_sheet.json")
    code, lines, _ = rules(
        "import",
        "maelstrom",
        str(SHEETS / "vex.json"),
        other,
        str(junk),
        missing,
        str(SHEETS / "kestrel.json"),
    )
    assert code == 2
    assert lines[0]["name"] == '"Vex" Okonkwo' and lines[4]["name"] == "Kestrel"
    assert set(lines[1]) == {"path", "error"} and lines[1]["path"] == other
    assert lines[1]["error"].startswith("This is not a Maelstrom character sheet")
    assert lines[2]["path"] == str(junk) and lines[2]["error"].startswith("This is not a JSON document")
    assert lines[3] == {"path": missing, "error": "No such file."}


def test_a_dash_reads_the_sheet_from_stdin_and_a_ruleset_without_import_refuses():
    data = (SHEETS / "kestrel.json").read_bytes()
    code, lines, _ = rules("import", "maelstrom", "-", "-", stdin=data)
    assert code == 0 and [line["name"] for line in lines] == ["Kestrel", "Kestrel"]
    code, lines, _ = rules("import", "pando", "-", stdin=data)
    assert code == 2 and lines == [
        {
            "path": "-",
            "error": "Pando reads no other character sheet format; import a sheetforge.build/1 document.",
        }
    ]
    code, lines, _ = rules("import", "gurps", "-", stdin=data)
    assert code == 2 and len(lines) == 1 and lines[0]["error"].startswith("No ruleset 'gurps'")


def test_the_real_command_exit_codes():
    ok = subprocess.run(
        [
            sys.executable,
            str(ROOT / "manage.py"),
            "rules",
            "import",
            "maelstrom",
            str(SHEETS / "vex.json"),
            str(SHEETS / "not_a_sheet.json"),
        ],
        capture_output=True,
        cwd=ROOT,
        timeout=60,
        check=False,
    )
    assert ok.returncode == 2, ok.stderr
    lines = [json.loads(line) for line in ok.stdout.decode().splitlines()]
    assert lines[0]["ruleset"] == "maelstrom" and set(lines[1]) == {"path", "error"}


# ------------------------------------------------------------------ the API and the import page


@pytest.mark.django_db
def test_the_api_create_converts_a_maelstrom_sheet_first():
    table = make_table("maelstrom")
    response = api_client(table.player).post(
        "/api/v1/characters/", {"campaign": table.campaign.id, "build": sheet("vex")}, format="json"
    )
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["build"]["format"] == "sheetforge.build/1" and body["build"]["ruleset"] == "maelstrom"
    assert body["build"]["attributes"]["precision"] == 4
    assert body["build"]["specialties"][1] == {"ability": "melee", "name": "Swords", "kind": "advanced"}
    assert body["report"]["valid"] is True
    assert body["build"]["budget"] == {"xp": 30}  # the campaign's starting budget, as for every create
    assert Character.objects.get(id=body["id"]).status == "draft"


@pytest.mark.django_db
def test_the_api_create_keeps_unknown_names_for_the_report():
    table = make_table("maelstrom")
    response = api_client(table.player).post(
        "/api/v1/characters/", {"campaign": table.campaign.id, "build": sheet("odd_names")}, format="json"
    )
    assert response.status_code == 201
    errors = [(e["code"], e["path"]) for e in response.json()["report"]["errors"]]
    assert ("attribute.unknown", "/attributes/charisma") in errors
    assert ("skill.unknown", "/abilities/basket_weaving") in errors


@pytest.mark.django_db
def test_the_builder_import_page_takes_a_maelstrom_sheet(client):
    table = make_table("maelstrom")
    client.force_login(table.player)
    response = client.post(
        reverse("character_import", args=[table.campaign.id]),
        {"document": json.dumps(sheet("odd_names"))},
        follow=True,
    )
    c = Character.objects.get(campaign=table.campaign)
    assert response.redirect_chain[-1][0] == reverse("character_builder", args=[c.id])
    assert (c.name, c.status, c.build["abilities"]["alertness"]) == ("Mirela", "draft", 3)
    text = response.content.decode()
    assert "From the imported sheet: Maelstrom has no attribute &#x27;Charisma&#x27;" in text
    assert "basket_weaving" not in text.split("From the imported sheet", 1)[1].split("</li>", 1)[0]


@pytest.mark.django_db
def test_the_import_page_still_refuses_what_is_neither_a_build_nor_a_sheet(client):
    table = make_table("maelstrom")
    client.force_login(table.player)
    response = client.post(
        reverse("character_import", args=[table.campaign.id]), {"document": json.dumps({"hello": "world"})}
    )
    assert response.status_code == 422
    assert not Character.objects.filter(campaign=table.campaign).exists()


def test_rules_import_answers_with_an_empty_environment(run):  # noqa: F811 (the imported fixture)
    """The import door of the CLI in a fresh checkout with an empty environment (tests/test_empty_environment.py)."""
    sheet_path, not_a_sheet = SHEETS / "vex.json", SHEETS / "not_a_sheet.json"
    result = run("rules", "import", "maelstrom", str(sheet_path))
    assert result.returncode == 0, result.stderr
    (build,) = [json.loads(line) for line in result.stdout.splitlines()]
    assert (build["format"], build["ruleset"], build["name"]) == (
        "sheetforge.build/1",
        "maelstrom",
        '"Vex" Okonkwo',
    )
    assert build["attributes"]["precision"] == 4

    result = run("rules", "import", "maelstrom", str(sheet_path), str(not_a_sheet))
    assert result.returncode == 2
    build, refused = [json.loads(line) for line in result.stdout.splitlines()]
    assert build["ruleset"] == "maelstrom"
    assert refused["path"] == str(not_a_sheet)
    assert refused["error"].startswith("This is not a Maelstrom character sheet")
