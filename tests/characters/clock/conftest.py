"""The clock tests use the sheet tests' table (a GM, a player, another player, a stranger)."""

from tests.characters.sheet.test_sheet_fixtures import table  # noqa: F401
