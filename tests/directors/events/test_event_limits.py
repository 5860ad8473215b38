"""The limits of one event (settings.EVENT_MAX_*): refused on every way in, and the screens
of an event at the largest allowed size still load and save with bounded work."""

from __future__ import annotations

import datetime as dt
import io
import re

import pytest
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from clubs.models import Entry, Event, Game, Player
from clubs.results import Result
from directors import edits
from directors.events import drafts as event_drafts
from directors.events import flow, results
from directors.events import names as name_decisions
from directors.events.results_forms import MAX_GRID_ROWS, MAX_PASTE_CHARS
from directors.importers import ImportedEvent, ImportedGame, ImportedPlayer, ImportFileError
from ladder.replay import replay_ladder

pytestmark = pytest.mark.django_db

W, D, B = Result.WHITE_WIN, Result.DRAW, Result.BLACK_WIN
TRF_NAME_WIDTH = 33


def trf_of(players: int, rounds: int, name_width: int = 12) -> bytes:
    """A FIDE TRF: `players` entrants, `rounds` rounds, rank 2k-1 against 2k shifted a board a
    round (an odd field gives the last rank a bye). Names are `name_width` characters."""
    cells: dict[int, list[str]] = {rank: [] for rank in range(1, players + 1)}
    for round_no in range(rounds):
        order = list(range(1, players + 1))
        order = order[round_no % players :] + order[: round_no % players]
        for white, black in zip(order[::2], order[1::2], strict=False):
            cells[white].append(f"{black:>4} w 1")
            cells[black].append(f"{white:>4} b 0")
        if players % 2:
            cells[order[-1]].append("     - U")
    lines = ["012 Big Open", "042 2026/01/10", f"062 {players}"]
    for rank in range(1, players + 1):
        name = f"Player{rank:05d}, Test".ljust(name_width, "x")[:TRF_NAME_WIDTH]
        line = f"001 {rank:>4}      {name:<33} {1500:>4}".ljust(80) + f"{0:>4.1f} {rank:>4}"
        lines.append(line.ljust(91) + "  ".join(cells[rank]))
    return ("\n".join(lines) + "\n").encode()


def csv_of(rows: list[tuple[int, str, str, str]]) -> bytes:
    body = "\n".join(f"{r},{white},{black},{result}" for r, white, black, result in rows)
    return ("round,white,black,result\n" + body + "\n").encode()


def imported_event(entrants: int, rounds: int) -> ImportedEvent:
    """An imported event without a parser: every entrant plays every round."""
    players = tuple(
        ImportedPlayer(k, f"Entrant {k:05d}", None, None, None, k) for k in range(1, entrants + 1)
    )
    games = tuple(
        ImportedGame(r, k, k + 1, (W, D, B)[(k + r) % 3], 0)
        for r in range(1, rounds + 1)
        for k in range(1, entrants, 2)
    )
    return ImportedEvent("Big", None, None, rounds, players, games, ())


def url(name, event, *more):
    return reverse(name, args=[event.club.slug, event.pk, *more])


@pytest.fixture
def signed_in(client, director):
    client.force_login(director)
    return client


@pytest.fixture
def draft(club):
    return Event.objects.create(club=club, name="Big open", date=dt.date(2026, 1, 10))


def upload(client, event, name, data):
    return client.post(
        url("event_upload", event),
        {
            "file": SimpleUploadedFile(name, data),
            "format": "auto",
            "version": Event.objects.get(pk=event.pk).edit_version,
        },
        follow=True,
    )


def stored(event):
    return Entry.objects.filter(event=event).count(), Game.objects.filter(event=event).count()


# --- the limits and the request limits that must fit them -------------------------------------


def test_the_default_limits_fit_a_thousand_entrant_eleven_round_open_with_room_to_spare():
    assert settings.EVENT_MAX_ENTRANTS >= 2 * 1000
    assert settings.EVENT_MAX_ROUNDS >= 2 * 11
    assert settings.EVENT_MAX_GAMES >= 5 * (1000 // 2 * 11)


def test_the_request_limits_fit_the_largest_forms_and_stay_bounded():
    names_form = 3 * settings.EVENT_MAX_ENTRANTS + 10
    grid_round = 4 * MAX_GRID_ROWS + 10
    assert max(names_form, grid_round) <= settings.DATA_UPLOAD_MAX_NUMBER_FIELDS
    assert 5 * grid_round >= settings.DATA_UPLOAD_MAX_NUMBER_FIELDS
    assert MAX_GRID_ROWS >= settings.EVENT_MAX_ENTRANTS


def test_a_file_of_the_largest_allowed_event_fits_the_upload_limit():
    largest = trf_of(settings.EVENT_MAX_ENTRANTS, settings.EVENT_MAX_ROUNDS, TRF_NAME_WIDTH)
    assert len(largest) < results.MAX_UPLOAD_BYTES
    # Its CSV with the longest TRF names on both sides: one row a board.
    row = f"{settings.EVENT_MAX_ROUNDS},{'x' * TRF_NAME_WIDTH},{'y' * TRF_NAME_WIDTH},1-0\r\n"
    assert settings.EVENT_MAX_GAMES * len(row) < results.MAX_UPLOAD_BYTES
    # The in-memory upload handler keeps such a file, so the form (not the handler) decides.
    assert settings.FILE_UPLOAD_MAX_MEMORY_SIZE > results.MAX_UPLOAD_BYTES
    # Pasted text, URL-encoded, fits the form-field memory limit.
    assert MAX_PASTE_CHARS * 1.25 < settings.DATA_UPLOAD_MAX_MEMORY_SIZE


# --- refused on every way in, naming the limit ------------------------------------------------


def test_an_uploaded_file_with_too_many_entrants_is_refused_naming_the_limit(signed_in, draft):
    data = trf_of(settings.EVENT_MAX_ENTRANTS + 2, 1)
    page = upload(signed_in, draft, "big.trf", data).content.decode()
    assert "These results have more than 2,000 entrants; an event can have at most 2,000." in page
    assert stored(draft) == (0, 0)


def test_an_uploaded_file_with_too_many_rounds_is_refused_naming_the_limit(signed_in, draft):
    rows = [(r, "Ann", "Bob", "1-0") for r in range(1, settings.EVENT_MAX_ROUNDS + 2)]
    page = upload(signed_in, draft, "long.csv", csv_of(rows)).content.decode()
    assert "These results have more than 30 rounds; an event can have at most 30." in page
    assert stored(draft) == (0, 0)


def test_an_uploaded_file_with_too_many_games_is_refused_naming_the_limit(signed_in, draft):
    # 2,000 entrants a round: 933 boards and 134 byes (1,067 rows), over 30 rounds.
    rows = []
    for r in range(1, settings.EVENT_MAX_ROUNDS + 1):
        rows += [(r, f"P{2 * b}", f"P{2 * b + 1}", "1-0") for b in range(933)]
        rows += [(r, f"P{n}", "", "bye½") for n in range(1866, 2000)]
    assert len(rows) > settings.EVENT_MAX_GAMES
    page = upload(signed_in, draft, "many.csv", csv_of(rows)).content.decode()
    assert (
        "These results have more than 32,000 games and byes; an event can have at most 32,000."
        in page
    )
    assert stored(draft) == (0, 0)


def test_pasted_csv_with_too_many_rounds_is_refused_naming_the_limit(signed_in, draft):
    rows = [(r, "Ann", "Bob", "1-0") for r in range(1, settings.EVENT_MAX_ROUNDS + 2)]
    response = signed_in.post(
        url("event_paste", draft),
        {"text": csv_of(rows).decode(), "version": draft.edit_version},
        follow=True,
    )
    page = response.content.decode()
    assert "These results have more than 30 rounds; an event can have at most 30." in page
    assert stored(draft) == (0, 0)


def test_the_grid_refuses_rows_that_take_the_event_over_a_limit(signed_in, draft):
    rows = [(str(r), "Ann", "Bob", "1-0") for r in range(1, settings.EVENT_MAX_ROUNDS + 2)]
    data = {"version": draft.edit_version, "row-TOTAL_FORMS": len(rows), "row-INITIAL_FORMS": 0}
    for n, (round_no, white, black, result) in enumerate(rows):
        data |= {f"row-{n}-round": round_no, f"row-{n}-white": white}
        data |= {f"row-{n}-black": black, f"row-{n}-result": result}
    page = signed_in.post(url("event_grid", draft), data).content.decode()
    assert "These results have 31 rounds; an event can have at most 30." in page
    assert stored(draft) == (0, 0)


def test_one_round_of_the_grid_counts_the_other_rounds_against_the_limits(club, director):
    event = results.create_draft_from_import(
        club, imported_event(4, settings.EVENT_MAX_ROUNDS), _details(), director
    )
    new_round = results.grid_to_imported(
        [results.GridRow(1, str(settings.EVENT_MAX_ROUNDS + 1), "Entrant 00001", "X", "1-0")]
    )
    with pytest.raises(ImportFileError, match="31 rounds; an event can have at most 30"):
        results.set_round_results(
            event.pk, event.edit_version, settings.EVENT_MAX_ROUNDS + 1, new_round, director
        )
    assert Game.objects.filter(event=event).count() == 2 * settings.EVENT_MAX_ROUNDS


def test_import_event_refuses_a_file_over_a_limit_and_stores_nothing(club, tmp_path):
    path = tmp_path / "big.trf"
    path.write_bytes(trf_of(settings.EVENT_MAX_ENTRANTS + 2, 1))
    before = Event.objects.count(), Entry.objects.count(), Player.objects.count()
    with pytest.raises(CommandError) as caught:
        call_command("import_event", club.slug, str(path), stdout=io.StringIO())
    assert caught.value.returncode == 1
    assert "more than 2,000 entrants; an event can have at most 2,000" in str(caught.value)
    assert (Event.objects.count(), Entry.objects.count(), Player.objects.count()) == before


def test_no_name_can_be_added_to_an_event_that_has_the_most_entrants(club, director):
    event = results.create_draft_from_import(
        club, imported_event(settings.EVENT_MAX_ENTRANTS, 1), _details(), director
    )
    with pytest.raises(edits.PublishingError, match="2,000 entrants, the most"):
        name_decisions.add_entry(event.pk, event.edit_version, "One more", director)
    assert event.entries.count() == settings.EVENT_MAX_ENTRANTS


def test_one_round_holds_at_most_one_row_an_entrant_allowed():
    with pytest.raises(ImportFileError, match="a round can have at most 2,000"):
        results.check_size(10, [1] * (settings.EVENT_MAX_ENTRANTS + 1))
    results.check_size(settings.EVENT_MAX_ENTRANTS, [1] * settings.EVENT_MAX_ENTRANTS)


# --- the screens of an event at the largest allowed size ---------------------------------------


def _details() -> event_drafts.EventDetails:
    return event_drafts.EventDetails("Big open", dt.date(2026, 1, 10))


def test_the_names_screen_of_the_largest_allowed_event_loads_and_saves(signed_in, club, director):
    event = results.create_draft_from_import(
        club, imported_event(settings.EVENT_MAX_ENTRANTS, 1), _details(), director
    )
    page = signed_in.get(url("event_names", event))
    assert page.status_code == 200
    data = {"version": Event.objects.get(pk=event.pk).edit_version}
    for name in re.findall(r'name="(decision_\d+)"', page.content.decode()):
        data[name] = "new"
        data[name.replace("decision_", "other_")] = ""
        data[name.replace("decision_", "start_")] = ""
    assert len(data) == 3 * settings.EVENT_MAX_ENTRANTS + 1
    response = signed_in.post(url("event_names", event), data)
    assert response.status_code == 302
    assert not event.entries.filter(player__isnull=True).exists()
    assert Player.objects.filter(club=club).count() == settings.EVENT_MAX_ENTRANTS


def test_the_grid_of_the_largest_allowed_event_shows_and_saves_one_round(signed_in, club, director):
    entrants, rounds = settings.EVENT_MAX_ENTRANTS, settings.EVENT_MAX_ROUNDS
    event = results.create_draft_from_import(
        club, imported_event(entrants, rounds), _details(), director
    )
    page = signed_in.get(url("event_grid", event)).content.decode()
    # The last round only, each board of it once.
    boards = entrants // 2
    # Three fields a row (no round column on the page of one round), four of the formset.
    assert page.count('name="row-') == 3 * (boards + 10) + 4
    assert f'name="round" value="{rounds}"' in page
    data = {"version": Event.objects.get(pk=event.pk).edit_version, "round": rounds}
    data |= {"row-TOTAL_FORMS": boards, "row-INITIAL_FORMS": 0}
    for n in range(boards):
        white, black = f"Entrant {2 * n + 1:05d}", f"Entrant {2 * n + 2:05d}"
        result = "0-1" if n == 0 else (W, D, B)[(2 * n + 1 + rounds) % 3].value
        data |= {f"row-{n}-white": white, f"row-{n}-black": black, f"row-{n}-result": result}
    response = signed_in.post(url("event_grid", event), data)
    assert response.status_code == 302
    games = Game.objects.filter(event=event)
    assert games.count() == boards * rounds
    first = games.get(round=rounds, white__typed_name="Entrant 00001")
    assert first.result == B.value
    assert games.filter(round=1, white__typed_name="Entrant 00001").get().result != ""


# --- bounded work: queries do not grow with the event ---------------------------------------


def _published_event(club, director, entrants: int, rounds: int) -> Event:
    event = results.create_draft_from_import(
        club, imported_event(entrants, rounds), _details(), director
    )
    reviews = name_decisions.review_names(event)
    decisions = [
        name_decisions.NameDecision(r.entry_id, name_decisions.Action.NEW) for r in reviews
    ]
    name_decisions.apply_name_decisions(event.pk, event.edit_version, decisions, director)
    event.refresh_from_db()
    flow.publish_event(event.pk, event.edit_version, director)
    replay_ladder(club.pk)
    return Event.objects.get(pk=event.pk)


PAGES = ["event_detail", "event_names", "event_grid", "event_results", "event_preview"]


def _queries(client, path: str) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(path).status_code == 200
    return len(queries.captured_queries)


@pytest.mark.parametrize("page", [*PAGES, "club_event"])
def test_no_event_page_makes_more_queries_for_a_larger_event(
    signed_in, club, director, page, monkeypatch
):
    # Both measured events have an event before them, so only their size differs: a
    # club's first event needs no stored states and asks one query fewer.
    # The large event's standings are not kept here (replay_ladder alone), so its club page
    # queues their keeping: with Redis a push, not a query; in-process, without Redis, the
    # keeping would run inside the request, and its queries are the job's, not the page's.
    queued: list[int] = []
    monkeypatch.setattr(
        "ladder.jobs.enqueue_event_standings", lambda _club, event_id: queued.append(event_id)
    )
    _published_event(club, director, 4, 1)
    small = _published_event(club, director, 6, 2)
    large = _published_event(club, director, 40, 5)

    def path(event):
        if page == "club_event":
            return reverse("club_event", args=[club.slug, event.pk])
        return url(page, event) + ("?all=1" if page == "event_names" else "")

    _queries(signed_in, path(small))  # the first request of a process warms caches
    assert _queries(signed_in, path(large)) == _queries(signed_in, path(small))
    assert queued == ([large.pk] if page == "club_event" else [])
