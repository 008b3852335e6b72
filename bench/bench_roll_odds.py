"""CPU time of the sheet's live odds preview (the htmx GET the roll form sends as the player changes
a pick or a number), per ruleset, through the Django test client against a throwaway database.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/sf_bench .venv/bin/python bench/bench_roll_odds.py [runs]

CPU time of this thread (``time.thread_time``), not wall clock: the machine is shared, and the
target (≤ 5 ms server time per preview, issue #12) is judged on it. Each ruleset's preview is the
richest form its roll takes: Maelstrom's picker with specialties (a required advanced one) and a
changed ability (its specialty boxes redrawn), Ascendant with typed situational numbers stacked on
a condition, Our D&D hard at a set TD, Paragon a TN; Pando has no number to set.
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

#: Two alternating odds queries per ruleset (the player changing one thing back and forth).
QUERIES = {
    "maelstrom": [
        {
            "preview": "picked",
            "in_attribute": "intelligence",
            "in_ability": "investigation",
            "in_specialties_for": "investigation",
            "in_specialties": "Forensics",
            "in_required": ["Forensics", "Missing Persons"],
            "in_difficulty": "7",
            "in_threshold": "1",
        },
        {  # another ability: its specialty boxes come out of band too
            "preview": "picked",
            "in_attribute": "intelligence",
            "in_ability": "technology",
            "in_specialties_for": "investigation",
            "in_difficulty": "6",
            "in_threshold": "0",
        },
    ],
    "ascendant": [
        {"preview": "skill.arcana", "in_threshold": "18", "in_status_penalty": "2", "in_circumstance_bonus": "1"},
        {"preview": "skill.arcana", "in_threshold": "15", "in_item_bonus": "1"},
    ],
    "ourdnd": [
        {"preview": "check:str:normal", "in_td": "14", "in_mode": "hard"},
        {"preview": "check:str:normal", "in_td": "12", "in_mode": "normal"},
    ],
    "paragon": [{"preview": None, "in_tn": "14"}, {"preview": None, "in_tn": "12"}],
}


def main(runs: int) -> None:
    from django.test import Client
    from django.urls import reverse

    from characters.models import Character
    from characters.sheet import services as play
    from tests.characters.sheet.test_sheet_fixtures import make_character
    from tests.factories import make_campaign, make_user

    gm, player = make_user("bench-gm"), make_user("bench-player")
    client = Client()
    client.force_login(player)
    print(f"{'ruleset':<10} {'median CPU ms':>13} {'p95 CPU ms':>10} {'max':>7}")
    for slug, queries in QUERIES.items():
        campaign = make_campaign(gm=gm, ruleset=slug, players=[player])
        character = make_character(ruleset=slug, owner=player, campaign=campaign)
        if slug == "ascendant":
            Character.objects.filter(pk=character.pk).update(
                state={**character.state, "conditions": [{"id": "frightened", "value": 1}]}
            )
        if slug == "paragon":
            first = play.sheet_rules(character=character).rollables[0]["id"]
            queries = [{**q, "preview": first} for q in queries]
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
