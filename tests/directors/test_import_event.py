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
from tests.corpus import TRF_CORPUS
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
    assert not event.entries.filter(typed_name="spielfrei").exists()  # a bye's dummy
    assert "5 new players" in err
    assert AuditEntry.objects.filter(action="event.created", user=None).exists()


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
    # Emma Wilson had a requested bye and two forfeits, no game at the board: her bye's point
    # is hers in the standings, so she is a player like anyone else and the bye stays.
    assert event.games.count() == 9
    assert Player.objects.filter(name="Emma Wilson").exists()


@pytest.mark.parametrize(
    ("given", "says"),
    [
        ((), "does not give the event's name and date: use --name and --date"),
        (("--name", "Ladder night"), "does not give the event's date: use --date"),
        (("--date", "2024-05-02"), "does not give the event's name: use --name"),
    ],
)
def test_without_a_name_or_date_from_the_file_or_the_options_it_stops_saying_which(
    club, given, says
):
    # A CSV gives neither: the message names exactly what the options must still give.
    error, _ = run_failing(club.slug, FILES / "ladder_night_comma.csv", *given)
    assert str(error).endswith(says)
    assert error.returncode == 1
    assert not Event.objects.exists()


def test_a_file_that_gives_its_name_but_no_date_is_refused_for_the_date_alone(club, tmp_path):
    path = tmp_path / "no_date.trf"
    lines = SWISS_MANAGER.read_bytes().split(b"\r\n")
    path.write_bytes(
        b"\r\n".join(line for line in lines if not line.startswith((b"042", b"052", b"132")))
    )
    error, _ = run_failing(club.slug, path)
    assert str(error).endswith("does not give the event's date: use --date")
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


def pgn_file(tmp_path, *games: dict[str, str]) -> Path:
    path = tmp_path / "games.pgn"
    path.write_text(
        "\n".join(
            "".join(f'[{tag} "{value}"]\n' for tag, value in game.items()) + "\n*\n"
            for game in games
        )
    )
    return path


def lichess_game(event: str, white: str, black: str, result: str) -> dict[str, str]:
    return {
        "Event": event,
        "Site": f"https://lichess.org/{white}{black}",  # differs per game: not an event
        "Date": "2024.05.04",
        "Round": "-",
        "White": white,
        "Black": black,
        "Result": result,
    }


def test_a_file_holding_several_events_is_refused_naming_each_and_stores_nothing(club, tmp_path):
    path = pgn_file(
        tmp_path,
        lichess_game("Titled Arena", "Ann", "Bob", "1-0"),
        lichess_game("Casual game", "Cid", "Ann", "0-1"),
        lichess_game("Titled Arena", "Bob", "Cid", "1-0"),
    )
    before = rows()
    error, _ = run_failing(club.slug, path)
    assert error.returncode == 1
    assert (
        "This file holds games of 2 events: “Titled Arena” (2 games), “Casual game” (1 game). "
        "Import one event at a time. Choose one with --event NAME, for example "
        "--event 'Titled Arena'"
    ) in str(error)
    assert rows() == before


def test_event_imports_one_event_of_a_file_holding_several(club, tmp_path):
    path = pgn_file(
        tmp_path,
        lichess_game("Titled Arena", "Ann", "Bob", "1-0"),
        lichess_game("Casual game", "Cid", "Ann", "0-1"),
        lichess_game("Titled Arena", "Bob", "Cid", "1-0"),
    )
    out, err = run(club.slug, path, "--event", "titled arena")
    event = Event.objects.get(pk=int(out))
    assert event.name == "Titled Arena"
    games = event.games.order_by("round").values_list("round", "white__typed_name")
    assert list(games) == [(1, "Ann"), (2, "Bob")]  # numbered in file order: no rounds given
    assert event.rounds_from_order
    assert "the file gives no round numbers" in err


def test_an_event_the_file_does_not_hold_is_an_error(club, tmp_path):
    path = pgn_file(tmp_path, lichess_game("Titled Arena", "Ann", "Bob", "1-0"))
    error, _ = run_failing(club.slug, path, "--event", "Blitz")
    assert error.returncode == 1
    assert "holds no event called “Blitz”; it holds “Titled Arena” (1 game)" in str(error)
    assert not Event.objects.exists()


def test_a_variant_game_is_stored_and_the_summary_says_it_is_never_rated(club, tmp_path):
    path = pgn_file(
        tmp_path,
        {"Event": "Club", "Date": "2024.05.04", "Round": "1", "White": "Ann", "Black": "Bob",
         "Result": "1-0"},
        {"Event": "Club", "Date": "2024.05.04", "Round": "2", "White": "Bob", "Black": "Ann",
         "Result": "1-0", "Variant": "Crazyhouse"},
    )  # fmt: skip
    out, err = run(club.slug, path, "--publish")
    assert "not standard chess (Crazyhouse: 1); stored as played and never rated" in err
    event = Event.objects.get(pk=int(out))
    assert list(event.games.order_by("round").values_list("variant", flat=True)) == [
        "",
        "Crazyhouse",
    ]
    assert PlayerEventResult.objects.get(event=event, player__name="Ann").games_counted == 1
    assert verify_ladder(club) == []


CORPUS = TRF_CORPUS
KARL_MALA = CORPUS / "karl_mala_gedenkturnier_2005.trf"


@pytest.mark.skipif(not KARL_MALA.is_file(), reason="the shared TRF corpus is not there")
def test_every_entrant_left_without_a_player_is_counted_and_their_forfeits_stay(club, caplog):
    # Player 13 lost his only pairing by forfeit (to 153): left without a player. "spielfrei"
    # (284), the bye's dummy, is no entrant at all.
    out, err = run(club.slug, KARL_MALA, "--publish")
    event = Event.objects.get(pk=int(out))
    assert "282 new players, 0 linked, 1 entrants without a game left without a player" in err
    assert set(event.entries.filter(player=None).values_list("start_rank", flat=True)) == {13}
    assert event.entries.count() == 283
    forfeit = event.games.get(round=1, white__start_rank=13)  # no colours: the earlier line
    assert (forfeit.black.start_rank, forfeit.result) == (153, "-+")
    results = list(event.games.values_list("result", flat=True))
    assert results.count("+-") + results.count("-+") == 10  # the file's forfeits, all kept
    assert "byeU" not in results  # the file allocates no bye
    assert event.status == Event.Status.PUBLISHED
    assert verify_ladder(club) == []
    assert "unlinked entry" not in caplog.text


def test_the_summary_says_which_date_was_read_and_from_which_record(club, tmp_path):
    # An Irish league export: 13 September 2010 written YY.MM.DD, as its end date and its
    # round dates show; read day first it would be 10 September 2013.
    text = (FILES / "swiss_manager_cp1252_crlf.trf").read_bytes().decode("cp1252")
    lines = [
        "042 10.09.13" if line.startswith("042")
        else "052 11.03.13" if line.startswith("052")
        else "132" + " " * 88 + "10/09/13  10/10/11  11/03/13" if line.startswith("132")
        else line
        for line in text.splitlines()
    ]  # fmt: skip
    path = tmp_path / "leinster.trf"
    path.write_text("\n".join(lines), encoding="cp1252")
    out, err = run(club.slug, path)
    assert Event.objects.get(pk=int(out)).date == dt.date(2010, 9, 13)
    assert (
        "Date 2010-09-13 read from record 042 (as YY.MM.DD, agreeing with the end date in "
        "record 052 and the 132 round dates)." in err
    )
