"""One event out as TRF16 and CSV: the command, the director's downloads and the public ones."""

from __future__ import annotations

import datetime as dt
import io

import pytest
from django.core.management import ManagementUtility, call_command
from django.core.management.base import CommandError
from django.db import connections

from clubs.models import Club, Entry, Event, Game, Player
from clubs.results import Result
from directors.importers import parse_file
from ladder.replay import replay_ladder
from tests.factories import make_club, make_event, make_players, rated_players

pytestmark = pytest.mark.django_db

R = Result


def build(club: Club) -> Event:
    """A rated first event that moves ratings, then one with every kind of result in it."""
    anna, bram, cees, dirk, eva = make_players(
        club, ["Anna de Vries", "Bram Jansen", "Cees Bakker", "Dirk Smit", "Eva de Vries"]
    )
    make_event(
        club, [(1, anna, bram, R.WHITE_WIN), (1, cees, dirk, R.DRAW)], date=dt.date(2026, 1, 5)
    )
    event = make_event(
        club,
        [
            (1, anna, cees, R.DRAW),
            (1, bram, dirk, R.WHITE_WIN),
            (1, eva, None, R.BYE_PAIRING),
            (2, dirk, anna, R.DOUBLE_FORFEIT),
            (2, cees, eva, R.UNRATED_BLACK_WIN),
            (2, bram, None, R.BYE_HALF),
            (3, eva, anna, R.BLACK_FORFEIT_WIN),
            (3, bram, cees, R.BLACK_WIN),
            (3, dirk, None, R.BYE_ZERO),
            # Everyone plays a game over the board: import_event gives an entrant who
            # played none no player, and so keeps none of their byes.
            (4, eva, dirk, R.DRAW),
            (4, cees, bram, R.WHITE_FORFEIT_WIN),
            (4, anna, None, R.BYE_FULL),
        ],
        date=dt.date(2026, 2, 10),
        name="February open",
    )
    replay_ladder(club.pk, full=True)
    return event


def run(*args: object) -> str:
    out = io.StringIO()
    call_command("export_event", *map(str, args), stdout=out, stderr=io.StringIO())
    return out.getvalue()


def stored_games(event: Event) -> set[tuple[int, str, str | None, Result]]:
    return {
        (g.round, g.white.typed_name, g.black.typed_name if g.black else None, Result(g.result))
        for g in Game.objects.filter(event=event).select_related("white", "black")
    }


def read_games(imported) -> set[tuple[int, str, str | None, Result]]:
    names = {p.key: p.name for p in imported.players}
    return {
        (g.round, names[g.white], names[g.black] if g.black else None, g.result)
        for g in imported.games
    }


@pytest.mark.parametrize("fmt", ["trf", "csv"])
def test_export_event_prints_a_file_the_importer_reads_as_the_same_players_and_games(club, fmt):
    event = build(club)
    imported = parse_file(run(club.slug, event.pk, "--format", fmt).encode(), fmt)
    assert {p.name for p in imported.players} == set(
        event.entries.values_list("player__name", flat=True)
    )
    assert read_games(imported) == stored_games(event)


def test_the_trf_gives_each_player_the_ladder_rating_at_the_events_start(club):
    event = build(club)
    text = run(club.slug, event.pk)
    ratings = {p.name: p.rating for p in parse_file(text.encode(), "trf").players}
    anna = rated_players().get(name="Anna de Vries")
    first = anna.event_results.get(event__date=dt.date(2026, 1, 5))
    assert (
        ratings["Anna de Vries"] == round(first.post_rating) != 1200
    )  # after January, before February
    assert ratings["Eva de Vries"] == 1200  # her first event


@pytest.mark.parametrize("fmt", ["trf", "csv"])
def test_an_exported_event_imported_into_another_club_stores_the_same_games(
    owner, club, fmt, tmp_path
):
    event = build(club)
    path = tmp_path / f"out.{fmt}"
    path.write_text(run(club.slug, event.pk, "--format", fmt), encoding="utf-8")
    other = make_club(slug="bishops", owner=owner)
    out = io.StringIO()
    call_command(
        "import_event",
        other.slug,
        str(path),
        "--date",
        "2026-02-10",
        "--name",
        "February open",
        stdout=out,
        stderr=io.StringIO(),
    )
    again = Event.objects.get(pk=int(out.getvalue()))
    assert stored_games(again) == stored_games(event)


def test_a_draft_exports_too_and_an_unlinked_entrant_keeps_the_name_typed(club):
    anna, bram = make_players(club, ["Anna de Vries", "Bram Jansen"])
    event = make_event(club, [(1, anna, bram, R.WHITE_WIN)], published=False)
    Entry.objects.filter(event=event, player=bram).update(player=None, typed_name="B. Jansen")
    assert "B. Jansen" in run(club.slug, event.pk, "--format", "csv")


@pytest.fixture
def command_line(monkeypatch, capsys):
    """Run argv as manage.py would; return (exit status, stdout, stderr)."""
    monkeypatch.setattr(connections, "close_all", lambda: None)

    def execute(*argv: str) -> tuple[int, str, str]:
        try:
            ManagementUtility(["manage.py", *argv]).execute()
        except SystemExit as exit_:
            status = int(exit_.code or 0)
        else:
            status = 0
        captured = capsys.readouterr()
        return status, captured.out, captured.err

    return execute


def test_export_event_exits_0_1_and_2_as_the_readme_says(club, command_line):
    event = build(club)
    status, out, _err = command_line("export_event", club.slug, str(event.pk))
    assert status == 0 and out.startswith("012 February open")
    status, out, err = command_line("export_event", "nowhere", str(event.pk))
    assert (status, out) == (1, "") and "No club with slug 'nowhere'" in err
    status, out, err = command_line("export_event", club.slug, "999999")
    assert (status, out) == (1, "") and "No event 999999 in club 'rooks'" in err
    other = make_club(slug="bishops")
    status, _out, err = command_line("export_event", other.slug, str(event.pk))
    assert status == 1 and f"No event {event.pk} in club 'bishops'" in err
    status, _out, err = command_line("export_event", club.slug, str(event.pk), "--format", "pgn")
    assert status == 2 and "invalid choice" in err


def test_an_unknown_club_raises_the_command_error_call_command_sees(club):
    with pytest.raises(CommandError):
        run("nowhere", 1)


# The director's downloads -------------------------------------------------------------------


def test_the_director_downloads_the_event_as_trf_and_csv_from_its_page(client, club, director):
    event = build(club)
    client.force_login(director)
    page = client.get(f"/manage/{club.slug}/events/{event.pk}/").content.decode()
    assert f"/events/{event.pk}/export.trf" in page and f"/events/{event.pk}/export.csv" in page
    trf = client.get(f"/manage/{club.slug}/events/{event.pk}/export.trf")
    assert trf.status_code == 200
    assert trf["Content-Disposition"] == f'attachment; filename="rooks-event-{event.pk}.trf"'
    assert trf.content.decode() == run(club.slug, event.pk)
    csv = client.get(f"/manage/{club.slug}/events/{event.pk}/export.csv")
    assert csv["Content-Type"].startswith("text/csv")
    assert csv.content.decode() == run(club.slug, event.pk, "--format", "csv")


@pytest.mark.parametrize("suffix", ["export.trf", "export.csv"])
def test_an_outsider_gets_404_for_the_directors_download(client, club, outsider, suffix):
    event = build(club)
    client.force_login(outsider)
    assert client.get(f"/manage/{club.slug}/events/{event.pk}/{suffix}").status_code == 404


# The public downloads -----------------------------------------------------------------------


@pytest.fixture
def public(owner):
    return make_club(slug="knights", owner=owner, visibility=Club.Visibility.PUBLIC)


def junior_event(club: Club) -> Event:
    jasper = Player.objects.create(club=club, name="Jasper Bakker", junior=True)
    lotte = Player.objects.create(club=club, name="Lotte Smit", junior=True, full_name_consent=True)
    henk = Player.objects.create(club=club, name="Henk Bos")
    event = make_event(club, [(1, jasper, henk, R.WHITE_WIN), (2, lotte, jasper, R.DRAW)])
    replay_ladder(club.pk, full=True)
    return event


@pytest.mark.parametrize("suffix", ["results.trf", "results.csv"])
def test_the_public_download_shows_a_junior_without_consent_by_initials(client, public, suffix):
    event = junior_event(public)
    page = client.get(f"/c/{public.slug}/events/{event.pk}/").content.decode()
    assert f"events/{event.pk}/{suffix}" in page
    text = client.get(f"/c/{public.slug}/events/{event.pk}/{suffix}").content.decode()
    assert "Jasper" not in text and "J. B." in text
    assert "Lotte Smit" in text and "Henk Bos" in text


def test_a_director_gets_full_names_from_the_public_download(client, public, owner):
    event = junior_event(public)
    client.force_login(owner)
    assert (
        "Jasper Bakker"
        in client.get(f"/c/{public.slug}/events/{event.pk}/results.csv").content.decode()
    )


def test_a_draft_has_no_public_download(client, public):
    henk, ingrid = make_players(public, ["Henk Bos", "Ingrid Dekker"])
    draft = make_event(public, [(1, henk, ingrid, R.DRAW)], published=False)
    assert client.get(f"/c/{public.slug}/events/{draft.pk}/results.trf").status_code == 404


def test_a_directors_only_club_has_no_public_download(client, club):
    event = build(club)
    club.visibility = Club.Visibility.DIRECTOR
    club.save()
    assert client.get(f"/c/{club.slug}/events/{event.pk}/results.csv").status_code == 404
