"""Server time of the builder's live-validation update (an htmx POST of the whole form).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/sf_bench .venv/bin/python bench/bench_htmx.py [N] [edit|same]

Runs in-process with Django's test client against a throw-away test database (created
and destroyed here), for each ruleset of the registry a realistic, valid build (its sheet character,
``content/examples.json``), and prints the median
and p95 of N updates and the queries one update makes. Budget: median < 10 ms.

Two ways to post (both by default):

- ``edit``: what a person does. Each update changes one number of the form from the one
  before (the next stepper in turn goes up by one; on the second pass they come back down),
  so the section holding it, the costs and the report really change every time.
- ``same``: the same form posted again and again (the benchmark's first version).
- ``autosave``: ``edit`` as the browser posts it (``_autosave=1``, builder.html's ``hx-vals``):
  every update also saves the draft as a new version. The ``queries`` column is then the
  autosave's.

Wall times on a busy machine include waiting for a CPU: the ``cpu ms`` column (this
process's own CPU time) is the one to compare.
"""

from __future__ import annotations

import os
import re
import statistics
import sys
import time
from urllib.parse import urlencode
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
# DEBUG is off in a benchmark: settings then need a real-length key (a throwaway one is fine).
os.environ.setdefault("SECRET_KEY", "bench-only-" + os.urandom(32).hex())

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.urls import reverse  # noqa: E402

_NUMBER = re.compile(r"^-?\d+$")


def _edits(fields: list[tuple[str, str]], n: int):
    """``n`` form states, each one number away from the one before (see the module docstring)."""
    numbers = [i for i, (k, v) in enumerate(fields) if k.startswith("/") and _NUMBER.match(v)]
    current = list(fields)
    for step in range(n):
        if numbers:
            i = numbers[step % len(numbers)]
            delta = 1 if (step // len(numbers)) % 2 == 0 else -1
            key, value = current[i]
            current[i] = (key, str(int(value) + delta))
        yield urlencode(current)


def _version_of(response) -> str:
    found = re.search(rb'name="_version" value="(\d+)"', response.content)
    assert found, "no _version in the answer"
    return found.group(1).decode()


def _versioned(body: str, version: str) -> str:
    return re.sub(r"(^|&)_version=\d*", lambda m: f"{m.group(1)}_version={version}", body)


def main(n: int, modes: tuple[str, ...] = ("edit", "same")) -> int:
    from characters.builder.services import character_create, character_save_draft
    from tests.characters.conftest import form_fields, parse_html
    from rulesets.engine import registry
    from tests.factories import make_campaign, make_user

    # No setup_test_environment(): its template instrumentation would be measured too.
    settings.ALLOWED_HOSTS = ["testserver"]
    settings.SECURE_SSL_REDIRECT = False
    settings.STORAGES = {**settings.STORAGES,
                         "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}}
    old_name = connection.settings_dict["NAME"]
    connection.creation.create_test_db(verbosity=0, autoclobber=True, keepdb=False)
    all_times: list[float] = []
    all_cpu: list[float] = []
    try:
        print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs (wall times include waiting for a CPU)")
        print(f"{'ruleset':<10} {'mode':<8} {'median ms':>10} {'p95 ms':>8} {'queries':>8} {'cpu ms':>8} "
              f"{'p95 cpu':>8}")
        for ruleset in registry.all_rulesets():
            slug = ruleset.slug
            # The sheet character's choices on the new draft (its name and budget the campaign's).
            extra = {k: v for k, v in ruleset.contract_data()["sheet"].items()
                     if k not in ("format", "ruleset", "name", "budget")}
            gm, player = make_user(), make_user()
            campaign = make_campaign(gm=gm, ruleset=slug, players=[player])
            c = character_create(campaign=campaign, owner=player, name="Bench")
            c = character_save_draft(character_id=c.id, user=player, version=1, build={**c.build, **extra})
            client = Client()
            client.force_login(player)
            url = reverse("character_builder", args=[c.id])
            page = client.get(url)
            fields = list(form_fields(parse_html(page.content).by_id("builder-form")))
            # htmx posts a form urlencoded, as a browser does
            data = urlencode(fields)
            form = "application/x-www-form-urlencoded"
            for _ in range(5):  # warm the caches (templates, rules contexts, traits)
                client.post(url, data, content_type=form, HTTP_HX_REQUEST="true")
            executed: list[str] = []

            def count(execute, sql, params, many, context):
                executed.append(sql)
                return execute(sql, params, many, context)

            with connection.execute_wrapper(count):
                response = client.post(url, data, content_type=form, HTTP_HX_REQUEST="true")
            assert response.status_code == 200 and b"builder-sections" in response.content
            for mode in modes:
                bodies = list(_edits(fields, n)) if mode != "same" else [data] * n
                version = ""
                if mode == "autosave":  # each post carries the version the one before saved
                    bodies = [body + "&_autosave=1" for body in bodies]
                    executed.clear()
                    with connection.execute_wrapper(count):
                        response = client.post(url, _versioned(bodies[-1], _version_of(response)),
                                               content_type=form, HTTP_HX_REQUEST="true")
                    assert b"Saved as version" in response.content, "the autosave did not save"
                    version = _version_of(response)
                times, cpu = [], []
                for body in bodies:
                    if version:
                        body = _versioned(body, version)
                    t0, c0 = time.perf_counter(), time.process_time()
                    response = client.post(url, body, content_type=form, HTTP_HX_REQUEST="true")
                    times.append((time.perf_counter() - t0) * 1000)
                    cpu.append((time.process_time() - c0) * 1000)
                    assert response.status_code == 200
                    if version:
                        assert b"Saved as version" in response.content, "the autosave did not save"
                        version = _version_of(response)
                all_times += times
                all_cpu += cpu
                times.sort()
                cpu.sort()
                print(f"{slug:<10} {mode:<8} {statistics.median(times):>10.2f} "
                      f"{times[int(len(times) * 0.95) - 1]:>8.2f} {len(executed):>8} {statistics.median(cpu):>8.2f} "
                      f"{cpu[int(len(cpu) * 0.95) - 1]:>8.2f}")
        all_times.sort()
        all_cpu.sort()
        median = statistics.median(all_times)
        print(f"{'all':<10} {'':<8} {median:>10.2f} {all_times[int(len(all_times) * 0.95) - 1]:>8.2f} {'':>8} "
              f"{statistics.median(all_cpu):>8.2f} {all_cpu[int(len(all_cpu) * 0.95) - 1]:>8.2f}")
        return 0 if median < 10 else 1
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


if __name__ == "__main__":
    sys.exit(main(int(sys.argv[1]) if len(sys.argv) > 1 else 200,
                  tuple(sys.argv[2:]) or ("edit", "same")))
