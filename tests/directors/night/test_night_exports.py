"""A club night's exports stay true after every write: each game once, with its current
result, and either file read back gives the same games.

The fault this guards: a grid correction replaces the event's games, the boards lost the
games they pointed at, and the exports listed every board as still waiting beside them.
"""

from __future__ import annotations

import contextlib
import datetime as dt
from collections import Counter
from io import StringIO

import pytest
from django.core.management import call_command
from django.db import transaction
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clubs.models import Club, Event, Game, PairingSystem, Player
from clubs.results import Result
from directors.edits import PublishingError
from directors.events import corrections, results
from directors.importers.csvfile import parse_csv
from directors.importers.trf import parse_trf
from directors.night import evening as club_night
from directors.night import rounds as night_rounds
from tests.directors.events.test_event_views import grid_post
from tests.factories import make_players

pytestmark = pytest.mark.django_db

NAMES = [
    "Anna Berg", "Bram Claes", "Cora Dekker", "Daan Eerden", "Eva Fontein", "Femke Graaf",
    "Gijs Hout", "Hanna Ijzer",
]  # fmt: skip
PLAYING = 6  # the rest arrive late


def night(club: Club, players: list[Player], rounds: int) -> Event:
    return club_night.start_event(
        club, name="Tuesday", date=dt.date(2026, 3, 3), system=PairingSystem.SWISS,
        rounds=rounds, players=players, user=None,
    )  # fmt: skip


def exported(event: Event, fmt: str) -> str:
    out = StringIO()
    call_command("export_event", event.club.slug, str(event.pk), "--format", fmt, stdout=out)
    return out.getvalue()


def stored_games(event: Event) -> Counter:
    """(round, white's name, black's name or None, result) of every game, as the director's
    export names them."""
    names = {entry.pk: entry.player.name for entry in event.entries.select_related("player")}
    return Counter(
        (rnd, names[white], names[black] if black else None, Result(result))
        for rnd, white, black, result in event.games.values_list(
            "round", "white_id", "black_id", "result"
        )
    )


def read_back(text: str, fmt: str) -> Counter:
    imported = parse_trf(text.encode()) if fmt == "trf" else parse_csv(text.encode())
    names = {player.key: player.name for player in imported.players}
    return Counter(
        (g.round, names[g.white], names[g.black] if g.black is not None else None, g.result)
        for g in imported.games
    )


def assert_exports_true(event: Event) -> None:
    games = stored_games(event)
    assert Result.NO_RESULT not in {result for *_rest, result in games}
    for fmt in ("trf", "csv"):
        assert read_back(exported(event, fmt), fmt) == games, fmt
    for number in range(1, event.paired_rounds() + 1):
        assert night_rounds.missing_results(event, number) == []


def complete_round(event: Event, number: int, codes: list[Result]) -> None:
    for at, board in enumerate(event.round_boards(number)):
        if not board.is_bye and board.game is None:
            night_rounds.enter_result(event.pk, number, board.number, codes[at % len(codes)], None)


def grid_correction(event: Event, row_at: int, result: Result, *, one_round: bool) -> None:
    """What confirming a grid correction writes: the grid's rows with one result changed."""
    event = Event.objects.get(pk=event.pk)
    games = [row for row in results.grid_rows(event) if row.black]
    row = games[row_at % len(games)]
    round_no = int(row.round) if one_round else None
    rows = [
        r
        if r.number != row.number
        else results.GridRow(r.number, r.round, r.white, r.black, result)
        for r in results.grid_rows(event)
        if round_no is None or int(r.round) == round_no
    ]
    pending = corrections.PendingCorrection(
        event_id=event.pk, version=event.edit_version, source="grid", replace_entries=False,
        round_no=round_no, imported=results.grid_to_imported(rows), next_url="/",
    )  # fmt: skip
    pending.apply(None)


# --- The exact case of the issue ---------------------------------------------------------------


def test_a_grid_correction_of_a_published_night_keeps_its_exports_and_evening_true(
    client, director, club, django_capture_on_commit_callbacks
):
    client.force_login(director)
    players = make_players(club, NAMES[:5])
    event = night(club, players, rounds=2)
    for number in (1, 2):
        night_rounds.pair_next_round(event.pk, None)
        complete_round(event, number, [Result.WHITE_WIN, Result.DRAW])
    night_rounds.publish_night(event.pk, None)
    event = Event.objects.get(pk=event.pk)
    rows = [(row.round, row.white, row.black, row.result) for row in results.grid_rows(event)]
    at = next(i for i, row in enumerate(rows) if row[3] == Result.WHITE_WIN)
    rows[at] = (*rows[at][:3], Result.BLACK_WIN.value)
    grid = reverse("event_grid", args=[club.slug, event.pk])
    shown = client.post(grid, grid_post(rows, event.edit_version))
    with django_capture_on_commit_callbacks(execute=True):
        client.post(
            reverse("event_correction", args=[club.slug, event.pk]),
            {"token": shown.context["pending"].token},
        )
    event = Event.objects.get(pk=event.pk)
    assert sum(stored_games(event).values()) == len(rows)
    trf, csv = exported(event, "trf"), exported(event, "csv")
    assert "*" not in csv
    assert read_back(trf, "trf") == read_back(csv, "csv") == stored_games(event)
    corrected = (int(rows[at][0]), rows[at][1], rows[at][2], Result.BLACK_WIN)
    assert read_back(trf, "trf")[corrected] == 1
    evening = client.get(reverse("night_evening", args=[club.slug, event.pk])).content.decode()
    assert "without a result" not in evening
    assert night_rounds.missing_results(event, 2) == []


def test_a_grid_save_on_an_unpublished_night_keeps_the_boards_on_their_games(club):
    players = make_players(club, NAMES[:4])
    event = night(club, players, rounds=3)
    night_rounds.pair_next_round(event.pk, None)
    complete_round(event, 1, [Result.WHITE_WIN])
    grid_correction(event, 0, Result.DRAW, one_round=False)
    boards = event.round_boards(1)
    assert all(board.game is not None for board in boards)
    assert boards[0].game.result == Result.DRAW
    night_rounds.pair_next_round(event.pk, None)  # round 1 is complete: round 2 pairs
    assert_exports_true_so_far(event)
    complete_round(event, 2, [Result.BLACK_WIN])
    assert_exports_true(event)


# --- Any sequence of night operations ----------------------------------------------------------

CODES = [Result.WHITE_WIN, Result.DRAW, Result.BLACK_WIN, *night_rounds.FORFEITS]
night_steps = st.lists(
    st.tuples(
        st.sampled_from(["pair", "enter", "correct", "repair", "withdraw", "late", "bye"]),
        st.integers(0, 50),
        st.sampled_from(CODES),
    ),
    max_size=10,
)
after_steps = st.lists(
    st.tuples(
        st.sampled_from(["grid", "grid-round", "command"]),
        st.integers(0, 50),
        st.sampled_from(CODES),
    ),
    max_size=4,
)


def _night_step(event: Event, spare: list[Player], step: str, n: int, code: Result) -> None:
    paired = event.paired_rounds()
    entries = list(event.entries.order_by("start_rank"))
    if step == "pair":
        night_rounds.pair_next_round(event.pk, None)
    elif step == "enter" and paired:
        complete_round(event, paired, [code, Result.DRAW, Result.WHITE_WIN])
    elif step == "correct" and paired:
        number = 1 + n % paired
        boards = [b for b in event.round_boards(number) if not b.is_bye]
        if boards:
            night_rounds.enter_result(event.pk, number, boards[n % len(boards)].number, code, None)
    elif step == "repair" and paired:
        night_rounds.unpair_round(event.pk, paired, None)
        night_rounds.pair_next_round(event.pk, None)
    elif step == "withdraw":
        club_night.withdraw(event.pk, entries[n % len(entries)].pk, None, back=n % 3 == 0)
    elif step == "late" and spare:
        club_night.add_entrant(event.pk, spare.pop(), None)
    elif step == "bye":
        club_night.request_bye(event.pk, entries[n % len(entries)].pk, paired + 1, None)


@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(steps=night_steps, after=after_steps)
def test_exports_hold_each_game_once_after_any_evening(club, steps, after):
    with transaction.atomic():
        players = list(Player.objects.filter(club=club))
        if not players:
            players = make_players(club, NAMES)
        event = night(club, players[:PLAYING], rounds=4)
        spare = players[PLAYING:]
        night_rounds.pair_next_round(event.pk, None)
        for step, n, code in steps:
            # A refusal is what a director would be told: nothing stored, go on.
            with contextlib.suppress(PublishingError):
                _night_step(event, spare, step, n, code)
        assert_exports_true_so_far(event)
        complete_round(event, event.paired_rounds(), [Result.WHITE_WIN, Result.DRAW])
        night_rounds.publish_night(event.pk, None)
        for step, n, code in after:
            if step == "command":
                games = [g for g in Game.objects.filter(event=event) if g.black_id is not None]
                board = games[n % len(games)].board
                out = StringIO()
                call_command(
                    "correct_result", club.slug, str(event.pk), str(board.round),
                    str(board.number), code.value, stdout=out,
                )  # fmt: skip
            else:
                grid_correction(event, n, code, one_round=step == "grid-round")
        assert_exports_true(Event.objects.get(pk=event.pk))
        transaction.set_rollback(True)


def assert_exports_true_so_far(event: Event) -> None:
    """Before publishing, the boards still waiting are in the files as unfinished games, once
    each, beside the games with a result."""
    games = stored_games(event)
    waiting = event.boards.filter(game__isnull=True, black__isnull=False).count()
    back = read_back(exported(event, "csv"), "csv")
    assert sum(back.values()) == sum(games.values()) + waiting
    assert (
        back - Counter({key: n for key, n in back.items() if key[3] == Result.NO_RESULT}) == games
    )
