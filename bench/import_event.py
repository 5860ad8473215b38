"""Publishing a 280-player, 7-round TRF: parse, review names, preview, publish, replay.

    DEBUG=true .venv/bin/python bench/import_event.py                 # a throwaway SQLite file
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/clubpages_f DEBUG=true \\
        .venv/bin/python bench/import_event.py                        # that PostgreSQL database

With DATABASE_URL the named database is migrated and a club `bench-import` is made in it
and deleted at the end (the script refuses to run if that club exists). Without it a
temporary SQLite file is used and removed.

The club: a roster of 400 players with a history of 200 published events (40 players,
5 rounds each, bulk inserts, replayed once before timing). The file: a generated FIDE TRF
of 280 players and 7 rounds of 140 boards (random pairings and results); 200 of its names
are roster players written "Surname, Given" (same after normalisation: preselected), 20 are
one letter off a roster name (a suggestion, not preselected), 60 are new (they share given
names and surnames with the roster, so most of them get suggestions too).

Timed, each step once on fresh data (--repeat times, 3 by default, median reported; --history
sets the number of earlier events, 200 by default):
  parse      directors.importers.parse_file on the TRF bytes
  draft      create_draft_from_import (one transaction: event, 280 entries, 980 games)
  review     review_names: suggestions for 280 names (cold: roster cache cleared first)
  review2    review_names again (the prepared roster cached)
  names GET  the names page through the test client (form of 280 rows, rendered)
  decide     apply_name_decisions: 200 links, 80 new players
  preview    preview_event (stored states of the events before, the policy in memory)
  publish    publish_event: the checks, the status, the audit entry, the ladder marked
  replay     replay_ladder after it: only the new (last) event is rated, but every input is read
  full       replay_ladder(full=True) of the whole history afterwards

Query logging is off (settings.DEBUG = False after start-up); DEBUG=true only lets the
settings load without SECRET_KEY.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.kit.clubs import add_roster, directed_club  # noqa: E402
from bench.kit.director import signed_in  # noqa: E402
from bench.kit.django_env import in_process  # noqa: E402
from bench.kit.machine import print_software  # noqa: E402
from bench.kit.names import trf_file  # noqa: E402

PLAYERS, ROUNDS = 280, 7
ROSTER, KNOWN, TYPOS = 400, 200, 20
HISTORY_EVENTS, HISTORY_FIELD, HISTORY_ROUNDS = 200, 40, 5
REPEAT = 3
SLUG = "bench-import"

GIVEN = [
    "Anna", "Bram", "Carla", "Daan", "Emma", "Finn", "Greta", "Hugo", "Iris", "Jonas", "Kira",
    "Lars", "Mila", "Noah", "Olga", "Piet", "Quinn", "Rosa", "Sven", "Tess", "Umar", "Vera",
    "Wout", "Xena", "Yara", "Zeno", "Ada", "Bert", "Cor", "Dirk"
]  # fmt: skip
SURNAMES = [
    "Jansen", "Bakker", "Visser", "Smit", "Meijer", "Mulder", "Bos", "Vos", "Peters",
    "Hendriks", "Dekker", "Brouwer", "Dijkstra", "Kok", "Jacobs", "Vermeulen", "Schouten",
    "Willems", "Hoekstra", "Koster", "Prins", "Huisman", "Kuipers", "Veenstra", "Kramer",
    "Postma", "Scholten", "Molenaar", "Evers", "Blom"
]  # fmt: skip


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=REPEAT, help=f"runs ({REPEAT})")
    parser.add_argument(
        "--history", type=int, default=HISTORY_EVENTS, help=f"earlier events ({HISTORY_EVENTS})"
    )
    args = parser.parse_args()
    with in_process("bench-import-") as connection:
        from django.conf import settings

        settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]
        print_software(connection)
        timings: dict[str, list[float]] = {}
        for run in range(args.repeat):
            for step, seconds in one_run(seed=run, history=args.history).items():
                timings.setdefault(step, []).append(seconds)
        print(f"{'step':<11} {'median':>9} {'runs':>26}")
        for step, values in timings.items():
            runs = ", ".join(f"{v * 1000:.0f}" for v in values)
            print(f"{step:<11} {statistics.median(values) * 1000:>7.0f} ms   ({runs} ms)")
    return 0


def names() -> list[tuple[str, str]]:
    """(given, surname) pairs, all different."""
    return [(g, s) for s in SURNAMES for g in GIVEN][: ROSTER + PLAYERS]


def one_typo(word: str) -> str:
    return word[:-2] + word[-1] + word[-2]  # the last two letters swapped


def one_run(seed: int, history: int = HISTORY_EVENTS) -> dict[str, float]:
    import datetime as dt

    from django.core.cache import cache
    from django.db import transaction
    from django.urls import reverse

    from clubs.models import Event, Game, Player
    from directors.events import drafts as event_drafts
    from directors.events import flow, results
    from directors.events import names as name_decisions
    from directors.events.names import apply_name_decisions
    from directors.importers import parse_file
    from directors.roster import merging
    from ladder import jobs
    from ladder.changes import LadderInput, club_changed
    from ladder.replay import replay_ladder, verify_ladder
    from tests.factories import make_history

    rng = random.Random(seed)
    pairs = names()
    roster_pairs, fresh_pairs = pairs[:ROSTER], pairs[ROSTER:]
    known = rng.sample(roster_pairs, KNOWN + TYPOS)
    field = [f"{s}, {g}" for g, s in known[:KNOWN]]
    field += [f"{one_typo(s)}, {g}" for g, s in known[KNOWN:]]
    field += [f"{s}, {g}" for g, s in fresh_pairs[: PLAYERS - KNOWN - TYPOS]]
    rng.shuffle(field)
    data = trf_file(field, rng, ROUNDS)

    with directed_club(SLUG, "Bench import club", "bench@example.org") as (club, user):
        add_roster(club, (f"{g} {s}" for g, s in roster_pairs), batch_size=None)
        players = list(Player.objects.filter(club=club).order_by("id"))
        make_history(
            club,
            events=history,
            players=0,
            per_event=HISTORY_FIELD,
            rounds=HISTORY_ROUNDS,
            seed=seed,
            roster=players,
        )
        with transaction.atomic():
            club_changed(club.pk, LadderInput())
        replay_ladder(club.pk)

        times: dict[str, float] = {}
        imported = timed(times, "parse", lambda: parse_file(data, "trf"))
        assert len(imported.players) == PLAYERS and len(imported.games) == PLAYERS // 2 * ROUNDS
        details = event_drafts.EventDetails("Bench Open", dt.date(2030, 6, 1))
        event = timed(
            times,
            "draft",
            lambda: results.create_draft_from_import(club, imported, details, user),
        )
        cache.clear()
        merging._local.clear()
        reviews = timed(times, "review", lambda: name_decisions.review_names(event))
        timed(times, "review2", lambda: name_decisions.review_names(event))
        client = signed_in(user)
        page = reverse("event_names", args=[club.slug, event.pk])
        response = timed(times, "names GET", lambda: client.get(page))
        assert response.status_code == 200
        preselected = sum(1 for r in reviews if r.preselected)
        suggested = sum(1 for r in reviews if r.candidates and not r.preselected)
        auto = name_decisions.automatic_decisions(reviews, link_exact=True)
        decisions = auto.decisions + [
            name_decisions.NameDecision(r.entry_id, name_decisions.Action.NEW)
            for r in reviews
            if r.typed_name in set(auto.pending)
        ]
        timed(
            times,
            "decide",
            lambda: apply_name_decisions(event.pk, event.edit_version, decisions, user),
        )
        event = Event.objects.get(pk=event.pk)
        shown = timed(times, "preview", lambda: flow.preview_event(event))
        assert len(shown.rows) == PLAYERS and shown.ladder_current
        queue = jobs.enqueue_replay
        jobs.enqueue_replay = lambda club_id: None  # the replay is timed on its own below
        try:
            timed(
                times,
                "publish",
                lambda: flow.publish_event(event.pk, event.edit_version, user),
            )
        finally:
            jobs.enqueue_replay = queue
        timed(times, "replay", lambda: replay_ladder(club.pk))
        club.refresh_from_db()
        assert club.ladder_is_current
        timed(times, "full", lambda: replay_ladder(club.pk, full=True))
        assert verify_ladder(club) == []
        if seed == 0:
            games = Game.objects.filter(event__club=club).count()
            print(
                f"club:     {len(players)} roster players, {history} earlier events, "
                f"{games} games in all after publishing"
            )
            print(
                f"file:     {len(data) // 1024} KiB, {PLAYERS} players, "
                f"{len(imported.games)} games; {preselected} names preselected, "
                f"{suggested} with suggestions only, {len(auto.pending)} waiting for a decision"
            )
        return times


def timed(times: dict[str, float], step: str, work: Callable):
    start = time.perf_counter()
    value = work()
    times[step] = time.perf_counter() - start
    return value


if __name__ == "__main__":
    sys.exit(main())
