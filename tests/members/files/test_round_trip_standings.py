"""Export as TRF, import again: the same games and the same standings (issue 33, part 2).

A property over generated evenings (uploads, Swiss and round-robin club nights, before and
after a correction) and over every file of the shared corpus: the re-imported event has the
same games and, player by player, the same final rank, points and tie-break values, because
the TRF's place column is the page's ranking and its 092 record the event's type."""

from __future__ import annotations

import datetime as dt
import io
import itertools
from collections import Counter
from pathlib import Path

import pytest
from django.core.management import call_command
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from clubs.models import Event, PairingSystem
from clubs.results import Result
from directors.events.results import grid_rows, grid_to_imported, set_results
from directors.night import rounds as night_rounds
from directors.night.evening import start_event
from directors.roster.players import add_player
from members.files.event_export import event_trf
from members.pages.events.event_pages import final_ranking
from tests.factories import make_club, make_event, make_players
from tests.ladder.rules.test_corpus_standings import FILES, import_file, needs_corpus

pytestmark = pytest.mark.django_db

R = Result
NAMES = [
    "Ann Alder", "Bob Birch", "Cid Cedar", "Dee Dogwood", "Eve Elm",
    "Fay Fir", "Gus Gum", "Hal Hazel", "Ida Ivy", "Jon Juniper",
]  # fmt: skip
GAMES = [
    R.WHITE_WIN, R.DRAW, R.BLACK_WIN, R.WHITE_FORFEIT_WIN, R.BLACK_FORFEIT_WIN,
    R.DOUBLE_FORFEIT, R.UNRATED_WHITE_WIN, R.UNRATED_DRAW, R.UNRATED_BLACK_WIN,
]  # fmt: skip
# TRF16 has one code for a pairing's bye whatever it scores ("U"): one that scores ½ or 0
# is read back as a full point (the trfin worktree reads its points column): left out here
# and pinned as a known failure below.
AT_BOARD = {R.WHITE_WIN, R.DRAW, R.BLACK_WIN, R.UNRATED_WHITE_WIN, R.UNRATED_DRAW}
AT_BOARD |= {R.UNRATED_BLACK_WIN}
BYES = [R.BYE_FULL, R.BYE_HALF, R.BYE_ZERO, R.BYE_PAIRING]
_clubs = itertools.count()


def names_of(event: Event) -> dict[int, str]:
    return {e.pk: e.player.name if e.player else e.typed_name for e in event.entries.all()}


def games_of(event: Event) -> Counter:
    names = names_of(event)
    return Counter(
        (g.round, names[g.white_id], names.get(g.black_id), g.result) for g in event.games.all()
    )


def standings_of(event: Event) -> tuple[dict[str, tuple[int, float]], dict[str, tuple], bool]:
    """Each name's final (rank, points), its tie-break values, and whether the page hides
    them, as the event page ranks it."""
    names = names_of(event)
    ranked = final_ranking(event)
    places = {names[s.entry_id]: (s.rank, s.points) for s in ranked.standings}
    values = {names[s.entry_id]: s.tiebreak_values for s in ranked.standings}
    return places, values, ranked.hides_tiebreaks


def read_back(tmp_path: Path, event: Event) -> Event:
    """The event's TRF (a director's) imported into another club that breaks ties in the same
    order (the order is the club's, not the event's: a re-import into the same club has it)."""
    path = tmp_path / f"event-{event.pk}.trf"
    path.write_text(event_trf(event, viewer_is_director=True), encoding="utf-8")
    club = make_club(slug=f"again-{next(_clubs)}", tiebreak_order=event.club.tiebreak_order)
    out = io.StringIO()
    call_command(
        "import_event", club.slug, str(path), "--publish", stdout=out, stderr=io.StringIO()
    )
    return Event.objects.get(pk=int(out.getvalue()))


def assert_same(original: Event, again: Event) -> None:
    assert games_of(again) == games_of(original)
    assert again.round_robin == (original.round_robin or original.pairing_system in RR_SYSTEMS)
    places, values, hidden = standings_of(original)
    places_again, values_again, hidden_again = standings_of(again)
    assert places_again == places
    if not hidden and not hidden_again:
        assert values_again == values


RR_SYSTEMS = {PairingSystem.ROUND_ROBIN, PairingSystem.DOUBLE_ROUND_ROBIN}


@st.composite
def evenings(draw: st.DrawFn) -> dict:
    """An evening's shape: its players, rounds (each a list of games and byes; a player may
    sit a round out), its system and date."""
    players = draw(st.integers(3, 8))
    rounds = []
    for _ in range(draw(st.integers(1, 5))):
        order = draw(st.permutations(range(players)))
        absent = min(draw(st.sampled_from([0, 0, 0, 1, 2])), players - 2)
        present = list(order[: players - absent])
        games = [
            (present[i], present[i + 1], draw(st.sampled_from(GAMES)))
            for i in range(0, len(present) - 1, 2)
        ]
        if len(present) % 2:
            games.append((present[-1], None, draw(st.sampled_from(BYES))))
        rounds.append(games)
    # Someone with only byes and forfeits is no player to the names step, which leaves them
    # out of a re-import (pinned below as a known loss): every player here meets someone.
    met = {side for games in rounds for w, b, r in games if r in AT_BOARD for side in (w, b)}
    assume(len(met) == players)
    return {
        "players": players,
        "rounds": rounds,
        "system": draw(st.sampled_from(["", "", PairingSystem.SWISS, PairingSystem.ROUND_ROBIN])),
        "round_robin": draw(st.booleans()),
        "date": draw(st.sampled_from([dt.date(2025, 6, 3), dt.date(2026, 6, 2)])),
        "order": draw(st.sampled_from([[], ["de", "won", "sb", "bh"], ["sb", "bh-c2", "win"]])),
        # A result at the board, for the same reason (a forfeit could leave someone none).
        "correction": draw(st.tuples(st.integers(0, 100), st.sampled_from(sorted(AT_BOARD)))),
    }


def build(shape: dict) -> Event:
    club = make_club(slug=f"night-{next(_clubs)}", tiebreak_order=shape["order"])
    players = make_players(club, NAMES[: shape["players"]])
    games = [
        (number, players[white], players[black] if black is not None else None, result)
        for number, games in enumerate(shape["rounds"], start=1)
        for white, black, result in games
    ]
    return make_event(
        club,
        games,
        date=shape["date"],
        pairing_system=shape["system"],
        round_robin=shape["round_robin"] and not shape["system"],
    )


@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(shape=evenings())
def test_an_evening_reads_back_with_the_same_games_and_standings(tmp_path, shape):
    original = build(shape)
    assert_same(original, read_back(tmp_path, original))
    # A correction (the grid: one game's result changed) and the round trip again.
    rows = grid_rows(original)
    games = [row for row in rows if row.black]
    if games:
        at, result = shape["correction"]
        row = games[at % len(games)]
        rows[rows.index(row)] = type(row)(**{**vars(row), "result": str(result)})
        imported = grid_to_imported(rows)
        original.refresh_from_db()
        set_results(original.pk, original.edit_version, imported, None, source="grid",
                    replace_entries=False)  # fmt: skip
        original.refresh_from_db()
        assert games_of(original)[(int(row.round), row.white, row.black, result.value)]
        assert_same(original, read_back(tmp_path, original))


@needs_corpus
@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_a_corpus_file_reads_back_with_the_same_games_and_standings(tmp_path, path):
    club = make_club(slug="corpus", tiebreak_order=["de", "bh-c1", "sb", "won"])
    original = import_file(club, path)
    again = read_back(tmp_path, original)
    assert_same(original, again)
    # And once more: our own file read back is a fixed point.
    assert_same(again, read_back(tmp_path, again))


def three_with(result: Result, *, black: int | None = None) -> Event:
    club = make_club(slug=f"known-{next(_clubs)}")
    ann, bob, cid = make_players(club, NAMES[:3])
    rounds = [
        (1, ann, bob, R.WHITE_WIN),
        (1, cid, None, result),
        (2, bob, cid, R.DRAW),
        (2, ann, None, R.BYE_PAIRING),
    ]
    if black is not None:  # Cid's only other round a forfeit: no game at the board at all
        rounds[2] = (2, bob, cid, R.WHITE_FORFEIT_WIN)
    return make_event(club, rounds, date=dt.date(2025, 6, 3))


def test_a_half_point_pairing_bye_reads_back_as_half_a_point(tmp_path):
    original = three_with(R.BYE_PAIRING_HALF)
    assert_same(original, read_back(tmp_path, original))


def test_an_entrant_with_only_a_bye_and_a_forfeit_reads_back(tmp_path):
    original = three_with(R.BYE_FULL, black=1)
    assert_same(original, read_back(tmp_path, original))


@settings(
    max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    players=st.integers(4, 7),
    system=st.sampled_from([PairingSystem.SWISS, PairingSystem.ROUND_ROBIN]),
    results=st.lists(st.sampled_from([R.WHITE_WIN, R.DRAW, R.BLACK_WIN]), min_size=40),
    corrected=st.sampled_from([R.WHITE_WIN, R.DRAW, R.BLACK_WIN, R.WHITE_FORFEIT_WIN]),
)
def test_a_club_night_run_here_reads_back_the_same(tmp_path, players, system, results, corrected):
    """A real evening: paired by the engine (Swiss) or the Berger tables, every board given
    a result, round 1's first board corrected after round 2 was paired, then published."""
    if system == PairingSystem.ROUND_ROBIN and players % 2:
        players += 1  # a round robin's dummy scores 0: a U read back as 1 (pinned above)
    club = make_club(slug=f"run-{next(_clubs)}")
    roster = [
        add_player(club, name, junior=False, start_rating=None, user=None)
        for name in NAMES[:players]
    ]
    rounds = 3 if system == PairingSystem.SWISS else None
    event = start_event(
        club, name="Tuesday", date=dt.date(2026, 4, 7), system=system, rounds=rounds,
        players=roster, user=None,
    )  # fmt: skip
    event.refresh_from_db()
    given_results = iter(results)
    for number in range(1, (event.planned_rounds or 0) + 1):
        night_rounds.pair_next_round(event.pk, None)
        for board in event.round_boards(number):
            if not board.is_bye:
                night_rounds.enter_result(event.pk, number, board.number, next(given_results), None)
        if number == 2:
            night_rounds.enter_result(event.pk, 1, 1, corrected, None)
    published = night_rounds.publish_night(event.pk, None)
    played = published.games.exclude(black=None)
    assert played.count() == (players // 2) * (published.planned_rounds or 0)
    assert played.filter(round=1).first() is not None
    assert_same(published, read_back(tmp_path, published))
