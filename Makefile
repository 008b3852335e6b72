# Sheetforge: `make run` serves the app, `make test` runs every test, `make serve` runs the
# production stack (nginx, gunicorn, daphne) on this machine. See README.md.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PIP := $(VENV)/bin/pip
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run serve test lint venv venv-dev migrate seed lock bench clean

$(VENV)/.runtime: requirements.lock
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PIP) install --quiet --disable-pip-version-check -r requirements.lock
	@touch $@

$(VENV)/.dev: requirements-dev.lock $(VENV)/.runtime
	$(PIP) install --quiet --disable-pip-version-check -r requirements-dev.lock
	@touch $@

venv: $(VENV)/.runtime
venv-dev: $(VENV)/.dev

run: venv
	@if [ -n "$$DATABASE_URL" ]; then echo "Database: $$DATABASE_URL"; else echo "Database: SQLite (db.sqlite3). Set DATABASE_URL=postgres://... to use Postgres."; fi
	DEBUG=$${DEBUG:-true} $(PY) manage.py migrate --noinput
	DEBUG=$${DEBUG:-true} $(PY) manage.py seed_demo
	DEBUG=$${DEBUG:-true} $(PY) manage.py runserver $(HOST):$(PORT)

# The production stack in the foreground (deploy/serve.py): nginx on HOST:PORT in front of gunicorn
# (WSGI, PORT+1) and daphne (websockets, PORT+2); DEBUG=false, collectstatic, migrate, seed_demo.
# Ctrl-C stops all three; until then a server that dies is started again (README "When a server dies").
serve: venv
	HOST=$(HOST) PORT=$(PORT) $(PY) deploy/serve.py

# Tests run against Postgres: DATABASE_URL when set, else the local server on 127.0.0.1:5432 when it
# answers (PG_PROBE_URL), else a throwaway cluster from Debian's postgresql binaries (removed after),
# else (loudly) SQLite with the Postgres-only tests skipped by name. deploy/testdb.py says which.
# pytest-xdist: TEST_WORKERS processes (default one per core, at most 4; 0 runs in this process),
# handed their work by tests/scheduling.py (a test file at a time, the longest first, the browser
# tests one after another on one worker, the tests marked alone last with no other worker busy), each worker its own test
# database and Redis database (tests/conftest.py). FUZZ=full runs the fuzzers' full budgets (tests/fuzz.py).
# Bytecode is written even where the environment says not to (PYTHONDONTWRITEBYTECODE, as on CI's
# machines): collecting the tests rewrites ~650 modules' asserts, ~15 s in each worker when nothing
# is cached and ~4 s when it is, and every server a test starts compiles the app again without it.
TEST_WORKERS ?= auto
test: venv-dev
	PYTHONDONTWRITEBYTECODE= $(PY) deploy/testdb.py $(PY) -m pytest -n $(TEST_WORKERS) --maxprocesses 4 --dist loadfile $(PYTEST_ARGS)

# ruff (lint and formatting) and mypy with django-stubs, configured in pyproject.toml. Tests are linted
# but not type-checked. mypy imports the settings: DEBUG=true spares it a production SECRET_KEY.
lint: venv-dev
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports --no-logo
	DEBUG=true SECRET_KEY=$${SECRET_KEY:-lint-only-not-a-secret-lint-only-not-a-secret-lint-only} $(VENV)/bin/mypy config characters combat rulesets

bench: venv-dev
	$(PY) bench/run.py

lock:
	rm -rf /tmp/sheetforge-lock && $(PYTHON) -m venv /tmp/sheetforge-lock
	/tmp/sheetforge-lock/bin/pip install --quiet -r requirements.in && /tmp/sheetforge-lock/bin/pip freeze > requirements.lock
	/tmp/sheetforge-lock/bin/pip install --quiet -r requirements-dev.in && /tmp/sheetforge-lock/bin/pip freeze > requirements-dev.lock

clean:
	rm -rf $(VENV) staticfiles .pytest_cache
