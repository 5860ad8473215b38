"""The director's pages and the public event page for one very large event.

    DEBUG=true .venv/bin/python bench/large_event.py                    # 1,000 x 11, SQLite
    DEBUG=true .venv/bin/python bench/large_event.py --entrants 2000 --rounds 30
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/clubpages_f DEBUG=true \\
        .venv/bin/python bench/large_event.py                           # that PostgreSQL database

With DATABASE_URL the named database is migrated and a club `bench-large` is made in it and
deleted at the end (the script refuses to run if that club exists). Without it a temporary
SQLite file is used and removed.

The club: a roster of ROSTER (10,000) synthetic names (bench/kit/names.py's generator). The
file: a generated FIDE TRF (bench/kit/names.py's generator) of `--entrants` players and
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
import datetime as dt
import random
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.kit.clubs import add_roster, directed_club  # noqa: E402
from bench.kit.director import Steps, form_fields, names_form, page, post_form, signed_in  # noqa: E402
from bench.kit.django_env import in_process  # noqa: E402
from bench.kit.machine import print_software  # noqa: E402
from bench.kit.names import file_field, synthetic_roster, trf_file  # noqa: E402

ROSTER = 10_000
KNOWN_SHARE = 0.7
SLUG = "bench-large"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--entrants", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=11)
    parser.add_argument("--roster", type=int, default=ROSTER)
    args = parser.parse_args()
    with in_process("bench-large-") as connection:
        print_software(connection)
        run(args.entrants, args.rounds, args.roster)
    return 0


def run(entrants: int, rounds: int, roster_size: int) -> None:
    from django.urls import reverse

    from directors.events import drafts as event_drafts
    from directors.events import flow, results
    from directors.events import names as name_decisions
    from directors.importers import parse_file
    from matching import name_key

    with directed_club(SLUG, "Bench large event club", "bench-large@example.org") as (club, user):
        rng = random.Random(2026)
        # One name a person: "Bos, Anna" and "Anna Bos" would both preselect one player.
        names = synthetic_roster(roster_size + entrants, rng)
        names = sorted({name_key(n): n for n in names if len(n) <= 28}.values())
        rng.shuffle(names)
        roster, fresh = names[:roster_size], names[roster_size:]
        known = int(entrants * KNOWN_SHARE)
        field = file_field(rng.sample(roster, known), fresh[: entrants - known], rng)
        rng.shuffle(field)
        data = trf_file(field, rng, rounds)

        client = signed_in(user)
        steps = Steps()
        measure = steps.measure
        add_roster(club, roster)
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
        saved = measure(
            "names POST",
            lambda: post_form(client, reverse("event_names", args=args), form),
            page,
        )
        left = flow.unconfirmed_names(event)
        if left:
            errors = re.findall(r'<li class="message error">(.*?)</li>', saved.content.decode())
            raise SystemExit(f"{len(left)} names left undecided: {errors[:5]}")
        for step, name in [("detail", "event_detail"), ("results", "event_results")]:
            measure(f"{step} GET", lambda name=name: client.get(reverse(name, args=args)), page)
        grid = measure("grid GET", lambda: client.get(reverse("event_grid", args=args)), page)
        grid_form = form_fields(grid.content.decode(), reverse("event_grid", args=args))
        measure(
            "grid POST",
            lambda: post_form(client, reverse("event_grid", args=args), grid_form),
            page,
        )
        measure("preview GET", lambda: client.get(reverse("event_preview", args=args)), page)
        event.refresh_from_db()
        measure("publish", lambda: flow.publish_event(event.pk, event.edit_version, user))
        public = reverse("club_event", args=[club.slug, event.pk])
        measure("event page", lambda: client.get(public), page)
        games = event.games.count()
        print(
            f"event:    {len(field)} entrants, {rounds} rounds, {games} games and byes; "
            f"TRF {len(data) // 1024} KiB; roster {roster_size} players"
        )
        print()
        steps.print_table()


if __name__ == "__main__":
    sys.exit(main())
