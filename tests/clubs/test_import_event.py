"""manage.py import_event: one results file in, for bringing a club's history."""

from __future__ import annotations

import datetime as dt
import io
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from clubs.models import AuditEntry, Entry, Event, Game, Player
from ladder.models import PlayerEventResult
from ladder.replay import verify_ladder
from tests.factories import make_players

pytestmark = pytest.mark.django_db

FILES = Path(__file__).parent / "importers" / "files"
SWISS_MANAGER = FILES / "swiss_manager_cp1252_crlf.trf"  # five people and a 'spielfrei' line
REAL_NAMES = {"Müller, Jürgen", "Groß, Änne", "Weiß, Sören", "Gödel, Zoë", "Schäfer, Björn"}


def run(*args):
    out, err = io.StringIO(), io.StringIO()
    call_command("import_event", *map(str, args), stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def run_failing(*args):
    err = io.StringIO()
    with pytest.raises(CommandError) as caught:
        call_command("import_event", *map(str, args), stdout=io.StringIO(), stderr=err)
    return caught.value, err.getvalue()


def rows():
    return (
        Event.objects.count(),
        Entry.objects.count(),
        Game.objects.count(),
        Player.objects.count(),
    )


def test_a_file_becomes_a_draft_with_new_players_and_its_id_is_printed(club):
    out, err = run(club.slug, SWISS_MANAGER)
    event = Event.objects.get()
    assert out.strip() == str(event.pk)
    assert (event.name, event.date) == ("Vereinsmeisterschaft SC Süd 2024", dt.date(2024, 9, 14))
    assert (event.kind, event.rated, event.status) == ("standard", True, "draft")
    assert set(Player.objects.values_list("name", flat=True)) == REAL_NAMES
    assert event.entries.get(typed_name="spielfrei").player is None  # played no game
    assert "5 new players" in err
    assert AuditEntry.objects.filter(action="event.create", user=None).exists()


def test_name_date_kind_and_unrated_can_be_given(club):
    run(club.slug, SWISS_MANAGER, "--name", "Club championship", "--date", "2024-10-01",
        "--kind", "rapid", "--unrated")  # fmt: skip
    event = Event.objects.get()
    assert (event.name, event.date, event.kind, event.rated) == (
        "Club championship",
        dt.date(2024, 10, 1),
        "rapid",
        False,
    )


def test_the_format_can_be_chosen(club, tmp_path):
    path = tmp_path / "results.dat"
    path.write_bytes((FILES / "ladder_night_comma.csv").read_bytes())
    out, _ = run(
        club.slug, path, "--format", "csv", "--name", "Ladder night", "--date", "2024-05-02"
    )
    event = Event.objects.get(pk=int(out))
    # Emma Wilson had a bye and two forfeits, no game: no player, and her bye is gone.
    assert event.games.count() == 8
    assert not Player.objects.filter(name="Emma Wilson").exists()


def test_without_a_name_or_date_from_the_file_or_the_options_it_stops(club):
    error, _ = run_failing(club.slug, FILES / "ladder_night_comma.csv")
    assert "use --name and --date" in str(error)
    assert error.returncode == 1
    assert not Event.objects.exists()


def test_a_bad_date_option_is_refused(club):
    error, _ = run_failing(club.slug, SWISS_MANAGER, "--date", "14.09.2024")
    assert "YYYY-MM-DD" in str(error)
    assert not Event.objects.exists()


def test_publish_publishes_and_replays_the_ladder(club):
    run(club.slug, SWISS_MANAGER, "--publish")
    event = Event.objects.get()
    assert event.status == Event.Status.PUBLISHED
    club.refresh_from_db()
    assert club.ladder_is_current
    assert PlayerEventResult.objects.filter(event=event).count() == 5
    assert verify_ladder(club) == []


def test_an_exact_name_waits_for_a_decision_without_link_exact(club):
    (jurgen,) = make_players(club, ["Jürgen Müller"])
    error, err = run_failing(club.slug, SWISS_MANAGER, "--publish")
    assert error.returncode == 3
    assert "These names need a decision in the browser:\n  Müller, Jürgen\n" in err
    event = Event.objects.get()
    assert event.status == Event.Status.DRAFT
    assert event.entries.get(typed_name="Müller, Jürgen").player is None
    # The other names had no candidate and became players; the review is only for the rest.
    assert Player.objects.count() == 5
    assert not Entry.objects.filter(player=jurgen).exists()


def test_link_exact_links_a_name_the_same_after_normalisation(club):
    (jurgen,) = make_players(club, ["Jürgen Müller"])
    run(club.slug, SWISS_MANAGER, "--link-exact", "--publish")
    event = Event.objects.get()
    assert event.entries.get(typed_name="Müller, Jürgen").player == jurgen
    assert event.status == Event.Status.PUBLISHED
    assert Player.objects.count() == 5


def test_a_similar_name_waits_even_with_link_exact(club):
    make_players(club, ["Sara Weiß"])
    error, err = run_failing(club.slug, SWISS_MANAGER, "--link-exact", "--publish")
    assert error.returncode == 3
    assert "  Weiß, Sören\n" in err
    assert Event.objects.get().status == Event.Status.DRAFT


def test_a_bad_file_names_the_line_and_stores_nothing(club, tmp_path):
    data = SWISS_MANAGER.read_bytes().replace(b"001    2 w", b"001    1 w")
    path = tmp_path / "broken.trf"
    path.write_bytes(data)
    before = rows()
    error, _ = run_failing(club.slug, path, "--publish")
    assert error.returncode == 1
    assert "Line 20: starting rank 1 is used twice (also on line 19)." in str(error)
    assert rows() == before


def test_an_unknown_club_or_file_is_an_error(club, tmp_path):
    error, _ = run_failing("no-such-club", SWISS_MANAGER)
    assert "No club" in str(error)
    error, _ = run_failing(club.slug, tmp_path / "missing.trf")
    assert "Cannot read" in str(error)
