"""manage.py import_event with PGN files as broadcasts and sites export them (issue 33): one
game a header block, moves or not, or a refusal that names the line and stores nothing."""

from __future__ import annotations

import datetime as dt
import io
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from clubs.models import Entry, Event, Game, Player
from ladder.models import PlayerEventResult
from ladder.replay import verify_ladder

pytestmark = pytest.mark.django_db

# The last one is paired only in a round not played (the test of pairings not played).
PLAYERS = ["Carlsen, Magnus", "Firouzja, Alireza", "Caruana, Fabiano", "Nakamura, Hikaru",
           "Ding, Liren"]  # fmt: skip
# A double round robin of the first four over three days: (round, day, white, black, result).
SCHEDULE = [
    (1, 26, 0, 1, "1-0"),
    (1, 26, 2, 3, "1/2-1/2"),
    (2, 26, 0, 2, "0-1"),
    (2, 26, 1, 3, "1/2-1/2"),
    (3, 27, 0, 3, "1-0"),
    (3, 27, 1, 2, "0-1"),
    (4, 27, 1, 0, "1/2-1/2"),
    (4, 27, 3, 2, "1-0"),
    (5, 28, 2, 0, "0-1"),
    (5, 28, 3, 1, "1-0"),
    (6, 28, 3, 0, "1/2-1/2"),
    (6, 28, 2, 1, "1-0"),
]


def block(round_: int, day: int, white: int, black: int, result: str, board: int = 1) -> str:
    """One game's tags as a lichess broadcast export writes them."""
    tags = {
        "Event": "Champions Showdown 2024",
        "Site": f"https://lichess.org/broadcast/champions-showdown/round-{round_}/x{board}",
        "Date": f"2024.12.{day}",
        "Round": f"{round_}.{board}",
        "White": PLAYERS[white],
        "Black": PLAYERS[black],
        "Result": result,
    }
    return "".join(f'[{tag} "{value}"]\n' for tag, value in tags.items())


def broadcast(tmp_path: Path, *extra: str) -> Path:
    """The schedule without moves, one empty line between header blocks, as the testers' file."""
    games = [block(r, d, w, b, result, board=n % 2 + 1) for n, (r, d, w, b, result) in
             enumerate(SCHEDULE)]  # fmt: skip
    path = tmp_path / "broadcast.pgn"
    path.write_text("\n".join([*games, *extra]))
    return path


def run(*args: object) -> tuple[str, str]:
    out, err = io.StringIO(), io.StringIO()
    call_command("import_event", *map(str, args), stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def run_failing(*args: object) -> CommandError:
    with pytest.raises(CommandError) as caught:
        call_command("import_event", *map(str, args), stdout=io.StringIO(), stderr=io.StringIO())
    return caught.value


def rows() -> tuple[int, int, int, int]:
    return (
        Event.objects.count(),
        Entry.objects.count(),
        Game.objects.count(),
        Player.objects.count(),
    )


def test_a_broadcast_export_without_moves_imports_every_game_named_and_dated_by_its_tags(
    club, tmp_path
):
    out, err = run(club.slug, broadcast(tmp_path), "--publish")
    event = Event.objects.get(pk=int(out))
    assert (event.name, event.date) == ("Champions Showdown 2024", dt.date(2024, 12, 26))
    stored = event.games.order_by("round", "pk").values_list(
        "round", "white__typed_name", "black__typed_name", "result"
    )
    results = {"1-0": "1-0", "0-1": "0-1", "1/2-1/2": "1/2"}
    assert list(stored) == [
        (r, PLAYERS[w], PLAYERS[b], results[result]) for r, _day, w, b, result in SCHEDULE
    ]
    assert sorted(Player.objects.values_list("name", flat=True)) == sorted(PLAYERS[:4])
    assert "4 new players" in err
    # Played, though no move was relayed: every game is rated, six for each player.
    counted = PlayerEventResult.objects.filter(event=event).values_list("games_counted", flat=True)
    assert sorted(counted) == [6, 6, 6, 6]
    assert verify_ladder(club) == []


def test_pairings_not_played_are_left_out_and_the_summary_says_so(club, tmp_path):
    path = broadcast(tmp_path, block(7, 29, 0, 1, "*"), block(7, 29, 4, 2, "*", board=2))
    out, err = run(club.slug, path)
    event = Event.objects.get(pk=int(out))
    assert event.games.count() == 12
    assert set(event.games.values_list("round", flat=True)) == {1, 2, 3, 4, 5, 6}
    assert (
        f"{path}: Line 97: 2 games have no moves and the result * (not played), so they were "
        "left out (lines 97 and 105). Ding, Liren has no other game, so is not an entrant.\n"
    ) in err
    assert not Player.objects.filter(name="Ding, Liren").exists()
    assert not event.entries.filter(typed_name="Ding, Liren").exists()


def test_text_between_games_is_refused_naming_its_line_and_nothing_is_stored(club, tmp_path):
    path = broadcast(tmp_path)
    text = path.read_text().replace('[Result "0-1"]\n', '[Result "0-1"]\n\n0-1 Downloaded\n', 1)
    path.write_text(text)
    before = rows()
    error = run_failing(club.slug, path, "--publish")
    assert error.returncode == 1
    assert str(error) == (
        f"{path}: Line 25: “Downloaded” comes after the result that ended the game on line 17 "
        '(line 25); a game starts with its tags, such as [White "Smith, Anna"].'
    )
    assert rows() == before


def test_header_blocks_of_two_events_are_refused_counting_each_events_games(club, tmp_path):
    path = broadcast(tmp_path)
    text = path.read_text()
    day_3 = text.index('[Event "Champions Showdown 2024"]\n[Site "https://lichess.org/broadcast/'
                       'champions-showdown/round-5')  # fmt: skip
    path.write_text(text[:day_3] + text[day_3:].replace("Champions Showdown 2024", "Day 3"))
    error = run_failing(club.slug, path)
    assert error.returncode == 1
    assert (
        "This file holds games of 2 events: “Champions Showdown 2024” (8 games), “Day 3” "
        "(4 games). Import one event at a time."
    ) in str(error)
    assert not Event.objects.exists()


def test_a_file_without_an_event_tag_asks_only_for_the_name(club, tmp_path):
    path = broadcast(tmp_path)
    path.write_text(path.read_text().replace('[Event "Champions Showdown 2024"]\n', ""))
    error = run_failing(club.slug, path)
    # Only the name: the dates are read (the message's wording is import_event's own).
    assert str(error).startswith(f"{path} does not give the event's name")
    assert str(error).endswith(": use --name")
    out, _ = run(club.slug, path, "--name", "Showdown")
    assert Event.objects.get(pk=int(out)).date == dt.date(2024, 12, 26)


def test_a_study_export_of_a_round_imports_as_one_event_once_named(club, tmp_path):
    # lichess writes each game's Event as "<study>: <White> - <Black>": with a study per
    # round ("Round 1"), no Event tag names the event.
    path = tmp_path / "study.pgn"
    path.write_text(
        "\n".join(
            f'[Event "Round 1: {white} - {black}"]\n[Date "2024.06.01"]\n[White "{white}"]\n'
            f'[Black "{black}"]\n[Result "1-0"]\n'
            for white, black in [("Ann", "Bob"), ("Cid", "Dan"), ("Eve", "Fay")]
        )
    )
    error = run_failing(club.slug, path)
    assert str(error).startswith(f"{path} does not give the event's name")
    out, err = run(club.slug, path, "--name", "Club rapid")
    event = Event.objects.get(pk=int(out))
    assert (event.name, event.date, event.games.count()) == ("Club rapid", dt.date(2024, 6, 1), 3)
    assert "name a round or a game, not the event" in err
