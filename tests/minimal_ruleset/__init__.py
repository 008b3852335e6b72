from pathlib import Path

from rulesets.engine import Context, Report, Ruleset, is_int

from . import dice, state


class Toss(Ruleset):
    slug = "toss"
    name = "Toss"
    currencies = ("coins",)
    known_keys = frozenset({"luck"})
    content_dir = Path(__file__).parent / "content"  # examples.json: a valid build, an odds request
    dice = dice  # the module: odds, roll, rollables
    play_state = state  # the module: initial_state, check_state, state_effects, …

    def check(self, build: dict, report: Report, ctx: Context) -> None:
        luck = build.get("luck", 1)
        if not is_int(luck) or not 1 <= luck <= 5:
            report.error("toss.luck_invalid", "/luck", "Luck is a whole number from 1 to 5.")
            return
        report.charge("coins", 2 * (luck - 1), path="/luck", label=f"Luck {luck}")
        report.derived["luck"] = luck


RULESET = Toss()
