"""CPU time of the sheet's live odds preview (the htmx GET the roll form sends as the player changes
a pick or a number), per ruleset, through the Django test client against a throwaway database.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/sf_bench .venv/bin/python bench/bench_roll_odds.py [runs]

CPU time of this thread (``time.thread_time``), not wall clock: the machine is shared, and the
target (≤ 5 ms server time per preview, issue #12) is judged on it. Every ruleset of the registry
is measured with the two alternating queries its folder names (``roll_previews`` and ``roll_state``
of ``content/examples.json``, rulesets/engine/examples.py: the richest form its roll takes, a
picker with specialties, situational numbers stacked on a condition…), else its first roll button
that asks for a number, at two values, else its first roll button.
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
os.environ.setdefault("SECRET_KEY", "bench-only-" + os.urandom(32).hex())
os.environ.setdefault("DEBUG", "false")
os.environ.setdefault("SECURE_SSL_REDIRECT", "false")
os.environ.setdefault("STATICFILES_BACKEND", "django.contrib.staticfiles.storage.StaticFilesStorage")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402

def main(runs: int) -> None:
    from django.test import Client
    from django.urls import reverse

    from characters.models import Character
    from characters.sheet import services as play
    from characters.sheet.selectors import roll_inputs
    from rulesets.engine import registry
    from tests.characters.sheet.test_sheet_fixtures import make_character
    from tests.factories import make_campaign, make_user

    gm, player = make_user("bench-gm"), make_user("bench-player")
    client = Client()
    client.force_login(player)
    print(f"{'ruleset':<10} {'median CPU ms':>13} {'p95 CPU ms':>10} {'max':>7}")
    for ruleset in registry.all_rulesets():
        slug, data = ruleset.slug, ruleset.contract_data()
        campaign = make_campaign(gm=gm, ruleset=slug, players=[player])
        character = make_character(ruleset=slug, owner=player, campaign=campaign)
        if data["roll_state"]:
            Character.objects.filter(pk=character.pk).update(state={**character.state, **data["roll_state"]})
        rules = play.sheet_rules(character=character)
        if not rules.rollables:
            print(f"{slug:<10} no roll buttons")
            continue
        first = rules.rollables[0]["id"]
        queries = [{**q, "preview": q.get("preview") or first} for q in data["roll_previews"]]
        if not queries:
            preview = next((r for r in rules.rollables if roll_inputs(rules, r)), None)
            if preview is None:
                queries = [{"preview": first}, {"preview": first}]
            else:
                spec = roll_inputs(rules, preview)[0]
                values = [spec["value"], spec["choices"][-1]] if "choices" in spec else [spec["value"], spec["value"] + 1]
                queries = [{"preview": preview["id"], f"in_{spec['name']}": v} for v in values]
        url = reverse("character_roll_odds", args=[character.pk])
        timings = []
        for i in range(runs + 5):
            start = time.thread_time()
            response = client.get(url, queries[i % 2], HTTP_HX_REQUEST="true")
            elapsed = (time.thread_time() - start) * 1000
            assert response.status_code == 200 and b"field-error" not in response.content, response.content[:300]
            if i >= 5:
                timings.append(elapsed)
        ordered = sorted(timings)
        p95 = ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))]
        print(f"{slug:<10} {statistics.median(timings):>13.2f} {p95:>10.2f} {ordered[-1]:>7.2f}")


if __name__ == "__main__":
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    settings.ALLOWED_HOSTS = ["testserver"]
    settings.SECURE_SSL_REDIRECT = False
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
    from django.test.utils import setup_databases, teardown_databases

    old = setup_databases(verbosity=0, interactive=False)
    try:
        main(runs)
    finally:
        teardown_databases(old, verbosity=0)
