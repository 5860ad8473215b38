"""The director's pages and the public event page for one very large event.

    DEBUG=true .venv/bin/python bench/large_event.py                    # 1,000 x 11, SQLite
    DEBUG=true .venv/bin/python bench/large_event.py --entrants 2000 --rounds 30
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/clubpages_f DEBUG=true \\
        .venv/bin/python bench/large_event.py                           # that PostgreSQL database

With DATABASE_URL the named database is migrated and a club `bench-large` is made in it and
deleted at the end (the script refuses to run if that club exists). Without it a temporary
SQLite file is used and removed.

The club: a roster of ROSTER (10,000) synthetic names (bench/matching.py's generator). The
file: a generated FIDE TRF (bench/import_event.py's generator) of `--entrants` players and
`--rounds` rounds of random pairings; 70 % of its names are roster players as a file might
spell them (case, order, initials, a typo, a nickname, a title), the rest newcomers.

Each request goes through the test client as a signed-in director, once (the first request
after a change is the one a director waits for), with its number of queries:
  parse / draft         parse_file and create_draft_from_import
  names GET             the names screen: every entrant unconfirmed, suggestions included
  review_names          the suggestions alone, the roster already prepared (matching/)
  names POST            the whole names form: preselected names linked, the rest new players
  detail, results, grid GET (the last round), grid POST (that round saved unchanged),
  preview GET           the rating preview
  publish, replay       publish_event, then replay_ladder
  event page            the public event page, as the director (built for them, not kept)

Query logging is off (settings.DEBUG = False after start-up) except while counting.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import random
import re
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def bench_module(name: str) -> ModuleType:
    """Another bench script, for its data generators (bench/ is not a package, and its
    matching.py would shadow the project's matching package)."""
    spec = importlib.util.spec_from_file_location(f"bench_{name}", ROOT / "bench" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


ROSTER = 10_000
KNOWN_SHARE = 0.7
SLUG = "bench-large"
TRF_NAME_WIDTH = 33


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--entrants", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=11)
    parser.add_argument("--roster", type=int, default=ROSTER)
    args = parser.parse_args()
    temp_dir = None
    if not os.environ.get("DATABASE_URL"):
        temp_dir = tempfile.TemporaryDirectory(prefix="bench-large-")
        os.environ["DATABASE_URL"] = f"sqlite:///{temp_dir.name}/bench.sqlite3"
    os.environ.pop("REDIS_URL", None)  # the on-commit replay runs in-process
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command
    from django.db import connection

    print_machine = bench_module("import_event").print_machine

    settings.DEBUG = False
    try:
        call_command("migrate", verbosity=0, interactive=False)
        print_machine(connection)
        run(args.entrants, args.rounds, args.roster)
    finally:
        connection.close()
        if temp_dir is not None:
            temp_dir.cleanup()
    return 0


def run(entrants: int, rounds: int, roster_size: int) -> None:
    import datetime as dt

    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext
    from django.urls import reverse
    from django.utils.http import urlencode

    from clubs.events import drafts as event_drafts
    from clubs.events import publishing, results
    from clubs.importers import parse_file
    from clubs.models import Club, ClubRole, Entry, Player, User
    from clubs.names import decisions as name_decisions
    from matching import name_key

    trf_file = bench_module("import_event").trf_file
    generators = bench_module("matching")
    respelt, synthetic_roster = generators.respelt, generators.synthetic_roster

    if Club.objects.filter(slug=SLUG).exists():
        raise SystemExit(f"a club {SLUG!r} exists already in this database; not touching it")
    rng = random.Random(2026)
    # One name a person: "Bos, Anna" and "Anna Bos" would both preselect one player.
    by_key = {name_key(n): n for n in synthetic_roster(roster_size + entrants, rng) if len(n) <= 28}
    names = sorted(by_key.values())
    rng.shuffle(names)
    roster, fresh = names[:roster_size], names[roster_size:]
    known = int(entrants * KNOWN_SHARE)
    field = [respelt(name, rng)[:TRF_NAME_WIDTH] for name in rng.sample(roster, known)]
    field += fresh[: entrants - known]
    field = list({name_key(name): name for name in field}.values())  # one line a person
    field = field[: len(field) // 2 * 2]  # the generator pairs everyone in every round
    rng.shuffle(field)
    data = trf_file(field, rng, rounds)

    user = User.objects.create_user("bench-large@example.org", "a-long-bench-password")
    club = Club.objects.create(slug=SLUG, name="Bench large event club")
    ClubRole.objects.create(club=club, user=user, role=ClubRole.Role.OWNER)
    client = Client()
    client.force_login(user)
    rows: list[tuple[str, float, int | str, str]] = []

    def measure(step: str, work: Callable, note: Callable = lambda value: ""):
        with CaptureQueriesContext(connection) as queries:
            start = time.perf_counter()
            value = work()
            seconds = time.perf_counter() - start
        rows.append((step, seconds, len(queries.captured_queries), note(value)))
        return value

    def post(url: str, data: dict[str, str]):
        # As a browser sends a form without a file: the test client's default, multipart,
        # takes Django over a second to parse for the 6,000 fields of 2,000 names.
        return client.post(url, urlencode(data), content_type="application/x-www-form-urlencoded")

    def page(response) -> str:
        assert response.status_code in {200, 302}, (response.status_code, response.content[:300])
        return f"{response.status_code}, {len(response.content) // 1024} KiB"

    try:
        Player.objects.bulk_create(
            (Player(club=club, name=name, name_key=name_key(name)) for name in roster),
            batch_size=2000,
        )
        client.get(reverse("event_list", args=[club.slug]))  # loads the URLs, not measured
        imported = measure("parse", lambda: parse_file(data, "trf"))
        details = event_drafts.EventDetails("Bench Open", dt.date(2030, 6, 1))
        event = measure(
            "draft", lambda: results.create_draft_from_import(club, imported, details, user)
        )
        args = [club.slug, event.pk]
        names_page = measure(
            "names GET", lambda: client.get(reverse("event_names", args=args)), page
        )
        # The suggestions alone (roster prepared by the GET): the rest of the GET is the form.
        measure("review_names", lambda: name_decisions.review_names(event))
        form = names_form(names_page.content.decode(), reverse("event_names", args=args))
        saved = measure("names POST", lambda: post(reverse("event_names", args=args), form), page)
        left = publishing.unconfirmed_names(event)
        if left:
            errors = re.findall(r'<li class="message error">(.*?)</li>', saved.content.decode())
            raise SystemExit(f"{len(left)} names left undecided: {errors[:5]}")
        for step, name in [("detail", "event_detail"), ("results", "event_results")]:
            measure(f"{step} GET", lambda name=name: client.get(reverse(name, args=args)), page)
        grid = measure("grid GET", lambda: client.get(reverse("event_grid", args=args)), page)
        grid_form = form_fields(grid.content.decode(), reverse("event_grid", args=args))
        measure("grid POST", lambda: post(reverse("event_grid", args=args), grid_form), page)
        measure("preview GET", lambda: client.get(reverse("event_preview", args=args)), page)
        event.refresh_from_db()
        measure("publish", lambda: publishing.publish_event(event.pk, event.edit_version, user))
        public = reverse("club_event", args=[club.slug, event.pk])
        measure("event page", lambda: client.get(public), page)
        games = event.games.count()
        print(
            f"event:    {len(field)} entrants, {rounds} rounds, {games} games and byes; "
            f"TRF {len(data) // 1024} KiB; roster {roster_size} players"
        )
        print()
        print("| step | ms | queries | response |")
        print("|---|---:|---:|---|")
        for step, seconds, queries, note in rows:
            print(f"| {step} | {seconds * 1000:,.0f} | {queries} | {note} |")
    finally:
        Entry.objects.filter(event__club=club).delete()
        club.delete()
        user.delete()


_INPUT = re.compile(r"<input [^>]*>")
_SELECT = re.compile(r'<select name="([^"]+)"[^>]*>(.*?)</select>', re.S)


def _attr(tag: str, name: str) -> str | None:
    found = re.search(rf'{name}="([^"]*)"', tag)
    return found.group(1) if found else None


def form_fields(html: str, action: str) -> dict[str, str]:
    """What a browser would send for the form posting to `action`, unchanged (radios as
    checked)."""
    import html as html_lib

    form = html[html.index(f'<form method="post" action="{action}"') :]
    form = form[: form.index("</form>")]
    data: dict[str, str] = {}
    for tag in _INPUT.findall(form):
        name, kind = _attr(tag, "name"), _attr(tag, "type")
        if name is None or (kind == "radio" and " checked" not in tag):
            continue
        data[name] = html_lib.unescape(_attr(tag, "value") or "")
    for name, options in _SELECT.findall(form):
        chosen = re.search(r'<option value="([^"]*)" selected', options)
        data[name] = chosen.group(1) if chosen else ""
    return data


def names_form(html: str, action: str) -> dict[str, str]:
    """The names form with every name decided: the checked choice, else a new player."""
    data = form_fields(html, action)
    for name in [name for name, value in data.items() if not value]:
        if name.startswith("decision_"):  # a select per name (earlier pages: radios)
            data[name] = "new"
    for tag in _INPUT.findall(html):
        name = _attr(tag, "name") or ""
        if name.startswith("decision_") and not data.get(name):
            data[name] = "new"
    return data


if __name__ == "__main__":
    sys.exit(main())
