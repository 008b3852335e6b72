"""Coin: a sixth ruleset that exists only in the tests, to prove a ruleset is a plugin.

One attribute, Luck (1 to 5; each point above 1 costs 2 coins). A roll flips Luck coins and
succeeds on as many heads as the table asks (one by default). Gear: trinkets from its catalogue
(``content/items.json``), each in one of the slots the item fits; no loadout rules, so the sheet
shows the engine's generic gear block. Play state: three lives; its named effects (Jinxed 1-3,
Charmed: ``content/effects.json``) change how many coins a roll flips. Combat: on your turn, flip a
coin at an enemy; heads, they lose a life. Everything it shows (labels, awards, its quick NPC, its
odds form, its effects, its sheet block and its builder widget) is in this folder; the product is not told about it
except by ``registry.register(RULESET)``. It is written against ``rulesets.engine`` alone, its dice
and play state as plain functions (dice.py, state.py).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rulesets.engine import FORMAT, Context, Report, Ruleset, is_int

from . import dice, state


class CoinRuleset(Ruleset):
    slug = "coin"
    name = "Coin"
    currencies = ("coins",)
    known_keys = frozenset({"luck", "equipment"})
    content_dir = Path(__file__).parent / "content"
    # Effects (content/effects.json: Jinxed, valued, and Charmed) shift the coins flipped, never below one.
    effect_keys_declared = {"coins": 1, "heads": 1}
    # The heads a roll needs are the table's to say (the sheet's roll form, the party's odds).
    table_keys = ("heads",)

    # ------------------------------------------------------------ build

    def check(self, build: dict, report: Report, ctx: Context) -> None:
        luck = build.get("luck", 1)
        top = ctx.settings["max_luck"]
        if not is_int(luck) or not 1 <= luck <= top:
            report.error("coin.luck_invalid", "/luck", f"Luck is a whole number from 1 to {top}.")
            return
        report.charge("coins", 2 * (luck - 1), path="/luck", label=f"Luck {luck}")
        self._check_gear(build, report, ctx)
        report.derived["luck"] = luck
        report.derived["odds_of_heads"] = f"{round(100 * (1 - 0.5**luck))}%"

    def _check_gear(self, build: dict, report: Report, ctx: Context) -> None:
        gear = build.get("equipment", [])
        if not isinstance(gear, list):
            report.error("build.malformed", "/equipment", "Trinkets are a list.")
            return
        items = ctx.catalogue.get("items", {})
        for i, entry in enumerate(gear):
            item_id = entry.get("item") if isinstance(entry, dict) else None
            item = items.get(item_id) if isinstance(item_id, str) else None
            if item is None:
                report.error("coin.unknown_item", f"/equipment/{i}/item", "No such trinket.")
            elif not isinstance(entry.get("slot"), str) or entry["slot"] not in item.get("slots", []):
                report.error("coin.bad_slot", f"/equipment/{i}/slot", f"{item['name']} does not go there.")

    def traits(self, ctx: Context) -> dict[str, Any]:
        return {
            "sections": [
                {
                    "id": "luck",
                    "label": "Luck",
                    "kind": "number",
                    "path": "/luck",
                    "min": 1,
                    "max": ctx.settings["max_luck"],
                    "help": "Each point above 1 costs 2 coins.",
                },
                {"id": "purse", "label": "Purse", "kind": "custom", "widget": "coin_purse", "path": "/luck"},
            ]
        }

    def blank_build(
        self, name: str, budget: dict[str, int] | None = None, ctx: Context | None = None
    ) -> dict:
        ctx = ctx or self.context()
        return {
            "format": FORMAT,
            "ruleset": self.slug,
            "name": name,
            "budget": dict(budget or ctx.settings["starting_budget"]),
            "luck": 1,
        }

    # ---------------------------------------------- dice (dice.py), play state (state.py)

    dice = dice  # the module: its odds, roll and rollables are the hooks
    play_state = state  # the module: initial_state, check_state, state_effects, …

    # ----------------------------------------------------------- combat

    def make_combat(self):
        from .combat import CoinCombat

        return CoinCombat(self)


RULESET = CoinRuleset()
