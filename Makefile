# The two commands a newcomer needs: `make run` and `make test`.
# `make test-fast`: the pure, quick tests only (no database, server or browser), under a minute.
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
export DEBUG ?= true


.PHONY: install install-dev run test test-fast test-long lint typecheck format worker cron migrate demo lock ci bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV) || python3 -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

$(VENV)/.installed: requirements.lock | $(BIN)/python
	$(BIN)/pip install --quiet -r requirements.lock
	touch $@

$(VENV)/.installed-dev: requirements-dev.lock $(VENV)/.installed
	$(BIN)/pip install --quiet -r requirements-dev.lock
	touch $@

install: $(VENV)/.installed

install-dev: $(VENV)/.installed-dev

migrate: install
	$(BIN)/python manage.py migrate --noinput

demo: migrate
	$(BIN)/python manage.py load_demo

run: demo
	$(BIN)/python manage.py runserver 127.0.0.1:8000

test: install-dev
	$(BIN)/pytest

# The inner loop: no test that opens the database or a live server (marked `db` by
# tests/conftest.py), drives Chromium (`browser`), needs PostgreSQL or Redis, is `slow`, or is a
# pure test of several seconds (`heavy`). `make test` still runs all but `slow`.
test-fast: install-dev
	$(BIN)/pytest -m "not db and not browser and not postgres and not redis and not slow and not heavy"

# The long versions of the load and fault tests (marked `slow`), bounded by their own timeouts.
test-long: install-dev
	$(BIN)/pytest -m slow -p no:cacheprovider

lint: install-dev
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

# mypy with django-stubs over the apps (pyproject.toml [tool.mypy]); tests and bench are not
# checked. Apart from `lint`, which stays a seconds-long check: mypy takes about 20 s cold.
typecheck: install-dev
	DEBUG=true $(BIN)/mypy

format: install-dev
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

worker: install
	$(BIN)/python manage.py rqworker default uploads

cron: install
	$(BIN)/python manage.py rqcron config.cron

lock: install-dev
	@echo "Edit pyproject.toml, then refresh the pins with pip freeze into the two .lock files."

ci:
	bash .ci/run

clean:
	rm -rf $(VENV) var

# Mixed load (bench/load.py): gunicorn, one rq worker, local PostgreSQL and Redis. Drops and
# recreates the database clubpages_load; uses Redis database 11.
.PHONY: load
load: install
	DATABASE_URL=postgres://postgres@127.0.0.1:5432/clubpages_load \
	REDIS_URL=redis://127.0.0.1:6379/11 $(BIN)/python bench/load.py
