"""Server time of the character sheet: the page render and a state-action htmx update, per ruleset,
through the Django test client against a throwaway database.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/sf_bench .venv/bin/python bench/bench_sheet.py [runs] [--entries N]

``--entries N``: the sheet character of each ruleset whose gear has states carries N gear entries
(its own, then its last one again and again: tests/vehicles.py ``gear_build``); the page's size is
printed beside its time.

Prints, per ruleset, the median and p95 in milliseconds (wall) and the median of this process's
CPU time per request (``cpu ms``: the number to compare on a busy machine, where wall time includes
waiting for a core), and the SQL queries per request.
The character has 40 versions and 60 logged rolls, as a played character would. Every ruleset of the
registry is measured: its sheet character and the state action it names (``sheet`` and
``play_actions`` of its ``content/examples.json``, rulesets/engine/examples.py).
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
# DEBUG is off in a benchmark: settings then need a real-length key (a throwaway one is fine).
os.environ.setdefault("SECRET_KEY", "bench-only-" + os.urandom(32).hex())
os.environ.setdefault("DEBUG", "false")
os.environ.setdefault("SECURE_SSL_REDIRECT", "false")
os.environ.setdefault("STATICFILES_BACKEND", "django.contrib.staticfiles.storage.StaticFilesStorage")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.db import connection  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def main(runs: int, entries: int = 0) -> None:
    from django.test import Client
    from django.test.utils import get_runner  # noqa: F401
    from django.urls import reverse

    from characters.models import CharacterVersion
    from characters.sheet import services as play
    from rulesets.engine.dice import FixedRoller
    from tests.characters.sheet.test_sheet_fixtures import make_character
    from rulesets.engine import registry
    from tests import vehicles
    from tests.factories import make_campaign, make_user

    gm, player = make_user("bench-gm"), make_user("bench-player")
    client = Client()
    client.force_login(player)
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    print(f"{'ruleset':<10} {'request':<13} {'median ms':>9} {'p95 ms':>7} {'cpu ms':>7} {'queries':>7}")
    for ruleset in registry.all_rulesets():
        slug = ruleset.slug
        # An action and the one undoing it, applied in turn; a lone action may be refused at last.
        actions = ruleset.contract_data()["play_actions"]
        campaign = make_campaign(gm=gm, ruleset=slug, players=[player])
        build = vehicles.gear_build(ruleset, entries) if entries and vehicles.stated_gear(ruleset) else None
        character = make_character(ruleset=slug, owner=player, campaign=campaign, build=build)
        first = character.version + 1
        CharacterVersion.objects.bulk_create(
            CharacterVersion(character=character, number=n, build=character.build, state=character.state,
                             report=character.report, reason=f"v{n}", author=player)
            for n in range(first, first + 40)
        )
        character.version = first + 39
        character.save(update_fields=["version"])
        rollable = play.sheet_rules(character=character).rollables[0]["id"] if hasattr(play, "sheet_rules") else None
        for _ in range(60):
            play.character_roll(character_id=character.pk, user=player, rollable_id=rollable,
                                roller=FixedRoller([1] * 40))
        sheet_url = reverse("character_sheet", args=[character.pk])
        action_url = reverse("character_state_action", args=[character.pk])

        timings, cpu, queries = [], [], 0
        for i in range(runs + 3):
            with CaptureQueriesContext(connection) as q:
                start, cpu0 = time.perf_counter(), time.process_time()
                response = client.get(sheet_url)
                elapsed = (time.perf_counter() - start) * 1000
                cpu_ms = (time.process_time() - cpu0) * 1000
            assert response.status_code == 200, response.status_code
            if i >= 3:
                timings.append(elapsed)
                cpu.append(cpu_ms)
                queries = len(q.captured_queries)
        print(f"{slug:<10} {'sheet page':<13} {statistics.median(timings):>9.1f} {pct(timings, .95):>7.1f} {statistics.median(cpu):>7.2f} {queries:>7}"
              f"   {len(response.content) / 1024:.1f} KiB")

        timings, cpu = [], []
        for i in range(runs + 3):
            with CaptureQueriesContext(connection) as q:
                start, cpu0 = time.perf_counter(), time.process_time()
                response = client.post(action_url, actions[i % len(actions)], HTTP_HX_REQUEST="true")
                elapsed = (time.perf_counter() - start) * 1000
                cpu_ms = (time.process_time() - cpu0) * 1000
            assert response.status_code == 200, response.status_code
            assert len(actions) < 2 or b"state-error" not in response.content, response.content[:300]
            if i >= 3:
                timings.append(elapsed)
                cpu.append(cpu_ms)
                queries = len(q.captured_queries)
        print(f"{slug:<10} {'state action':<13} {statistics.median(timings):>9.1f} {pct(timings, .95):>7.1f} {statistics.median(cpu):>7.2f} {queries:>7}")

        # The roll form's live odds (as the player changes a number) and a roll, where the ruleset
        # has numbers the table sets.
        from characters.sheet.selectors import roll_inputs

        rules = play.sheet_rules(character=character)
        preview = next((r for r in rules.rollables if roll_inputs(rules, r)), None)
        if preview is None:
            continue
        odds_url = reverse("character_roll_odds", args=[character.pk])
        roll_url = reverse("character_roll", args=[character.pk])
        spec = roll_inputs(rules, preview)[0]
        values = [spec["value"], spec["choices"][-1]] if "choices" in spec else [spec["value"], spec["value"] + 1]
        for label, url, method in (("odds preview", odds_url, client.get), ("roll", roll_url, client.post)):
            timings, cpu = [], []
            for i in range(runs + 3):
                data = {"preview": preview["id"], "rollable": preview["id"], f"in_{spec['name']}": values[i % 2]}
                with CaptureQueriesContext(connection) as q:
                    start, cpu0 = time.perf_counter(), time.process_time()
                    response = method(url, data, HTTP_HX_REQUEST="true")
                    elapsed = (time.perf_counter() - start) * 1000
                    cpu_ms = (time.process_time() - cpu0) * 1000
                assert response.status_code == 200, response.status_code
                if i >= 3:
                    timings.append(elapsed)
                    cpu.append(cpu_ms)
                    queries = len(q.captured_queries)
            print(f"{slug:<10} {label:<13} {statistics.median(timings):>9.1f} {pct(timings, .95):>7.1f} {statistics.median(cpu):>7.2f} {queries:>7}")


if __name__ == "__main__":
    args = sys.argv[1:]
    entries = int(args[args.index("--entries") + 1]) if "--entries" in args else 0
    numbers = [a for i, a in enumerate(args) if a.isdigit() and (i == 0 or args[i - 1] != "--entries")]
    runs = int(numbers[0]) if numbers else 50
    settings.ALLOWED_HOSTS = ["testserver"]
    settings.SECURE_SSL_REDIRECT = False
    settings.STORAGES = {**settings.STORAGES,
                         "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}}
    # No setup_test_environment(): its template-rendered signal makes the test client copy every
    # context of every template rendered, which would be measured as if the page cost it.
    from django.test.utils import setup_databases, teardown_databases

    old = setup_databases(verbosity=0, interactive=False)
    try:
        main(runs, entries)
    finally:
        teardown_databases(old, verbosity=0)
