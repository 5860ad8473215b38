"""A PGN file read game by game as its maker wrote it: a header block and its movetext are one
game, with or without moves; text that is neither is refused naming its line (issue 33)."""

from datetime import date

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clubs.results import Result
from directors.importers import (
    ImportedEvent,
    ImportFileError,
    Limits,
    SeveralEventsError,
    TooLargeError,
    parse_file,
)


def tags(**values: str) -> str:
    return "".join(f'[{tag} "{value}"]\n' for tag, value in values.items())


def games_of(event: ImportedEvent) -> list[tuple[int, str, str | None, Result]]:
    names = {player.key: player.name for player in event.players}
    return [
        (game.round, names[game.white], None if game.black is None else names[game.black],
         game.result)
        for game in event.games
    ]  # fmt: skip


# A broadcast of three rounds on three days, four boards a round, exported without its moves:
# (round, board, day, white, black, result).
BROADCAST = [
    (1, 1, 26, "Carlsen, Magnus", "Firouzja, Alireza", "1-0"),
    (1, 2, 26, "Caruana, Fabiano", "Nakamura, Hikaru", "1/2-1/2"),
    (1, 3, 26, "Gukesh, D", "Praggnanandhaa, R", "0-1"),
    (1, 4, 26, "Ding, Liren", "So, Wesley", "1/2-1/2"),
    (2, 1, 27, "Firouzja, Alireza", "Caruana, Fabiano", "0-1"),
    (2, 2, 27, "Nakamura, Hikaru", "Carlsen, Magnus", "1/2-1/2"),
    (2, 3, 27, "Praggnanandhaa, R", "Ding, Liren", "1-0"),
    (2, 4, 27, "So, Wesley", "Gukesh, D", "0-1"),
    (3, 1, 28, "Caruana, Fabiano", "Carlsen, Magnus", "0-1"),
    (3, 2, 28, "Ding, Liren", "Firouzja, Alireza", "1/2-1/2"),
    (3, 3, 28, "Gukesh, D", "Nakamura, Hikaru", "1-0"),
    (3, 4, 28, "So, Wesley", "Praggnanandhaa, R", "1/2-1/2"),
]
RESULTS = {"1-0": Result.WHITE_WIN, "0-1": Result.BLACK_WIN, "1/2-1/2": Result.DRAW}


def broadcast_block(round_: int, board: int, day: int, white: str, black: str, result: str):
    return tags(
        Event="Champions Showdown 2024",
        Site="https://lichess.org/broadcast/champions-showdown-2024/round-1/abcd",
        Date=f"2024.12.{day}",
        Round=f"{round_}.{board}",
        White=white,
        Black=black,
        Result=result,
        WhiteElo="2800",
        BlackElo="2750",
    )


def expected_broadcast(games=BROADCAST):
    return [(r, white, black, RESULTS[result]) for r, _b, _d, white, black, result in games]


@pytest.mark.parametrize(
    "between",
    [
        pytest.param("\n", id="header blocks, one empty line between"),
        pytest.param("", id="header blocks back to back"),
        pytest.param("\n\n\n", id="several empty lines between"),
        pytest.param("\n{result}\n\n", id="each with its result as movetext"),
    ],
)
def test_a_broadcast_export_without_moves_is_one_game_a_header_block(between):
    text = "".join(broadcast_block(*game) + between.format(result=game[-1]) for game in BROADCAST)
    event = parse_file(text.encode(), "pgn")
    assert games_of(event) == expected_broadcast()
    assert event.name == "Champions Showdown 2024"
    assert event.date == date(2024, 12, 26)  # the first day, not the last block's
    assert event.rounds == 3
    assert len(event.players) == 8
    assert [p.rating for p in event.players] == [2800, 2750] * 4
    assert event.warnings == ()
    # Every game was played, moves or not: a moveless decisive game is rated like any other.
    assert all(game.result.is_played for game in event.games)


def test_games_with_and_without_moves_mixed_are_each_a_game():
    blocks = [broadcast_block(*game) for game in BROADCAST[:4]]
    text = (
        blocks[0]
        + "\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 {Ruy Lopez} 4. Ba4 1-0\n\n"
        + blocks[1]
        + blocks[2]
        + "\n0-1\n"
        + blocks[3]
        + "\n1. d4 d5 (1... Nf6 2. c4) 2. c4 1/2-1/2\n"
    )
    event = parse_file(text.encode(), "pgn")
    assert games_of(event) == expected_broadcast(BROADCAST[:4])
    assert [game.line for game in event.games] == [1, 13, 22, 33]


def test_a_game_with_no_moves_and_no_result_was_not_played_and_is_left_out_saying_so():
    played = [broadcast_block(*game) for game in BROADCAST[:8]]
    # Round 3's pairings, published before it was played; one of them under way, with moves.
    round_3 = [broadcast_block(*game[:5], "*") for game in BROADCAST[8:]]
    text = "\n".join(played + round_3[:2]) + "\n" + round_3[2] + "\n1. e4 c5 *\n\n" + round_3[3]
    event = parse_file(text.encode(), "pgn")
    assert games_of(event) == [
        *expected_broadcast(BROADCAST[:8]),
        (3, "Gukesh, D", "Nakamura, Hikaru", Result.NO_RESULT),  # moves: it was being played
    ]
    # Nine tag lines a block and an empty line; two more lines for the moves of round 3's third.
    assert [game.line for game in event.games] == [1, 11, 21, 31, 41, 51, 61, 71, 101]
    assert event.warnings == (
        "Line 81: 3 games have no moves and the result * (not played), so they were left out "
        "(lines 81, 91 and 113).",
    )
    assert event.date == date(2024, 12, 26)


def test_a_player_whose_only_game_was_not_played_is_no_entrant_and_the_note_names_them():
    text = "\n".join(
        [
            tags(Event="Club", Round="1", White="Ann", Black="Bob", Result="1-0"),
            tags(Event="Club", Round="1", White="Cid", Black="Dan", Result="*"),
            tags(Event="Club", Round="2", White="Ann", Black="Cid", Result="0-1"),
        ]
    )
    event = parse_file(text.encode(), "pgn")
    assert [player.name for player in event.players] == ["Ann", "Bob", "Cid"]
    assert games_of(event) == [
        (1, "Ann", "Bob", Result.WHITE_WIN),
        (2, "Ann", "Cid", Result.BLACK_WIN),
    ]
    assert event.warnings == (
        "Line 7: 1 game has no moves and the result * (not played), so it was left out. "
        "Dan has no other game, so is not an entrant.",
    )


def test_a_file_none_of_whose_games_was_played_is_refused():
    text = "\n".join(broadcast_block(*game[:5], "*") for game in BROADCAST[:4])
    with pytest.raises(ImportFileError) as raised:
        parse_file(text.encode(), "pgn")
    assert raised.value.message == (
        "Line 1: none of the 4 games was played: each has no moves and the result *, so there "
        "is nothing to import."
    )
    assert raised.value.line == 1


def test_header_blocks_of_several_events_are_each_counted_not_merged():
    text = "".join(
        broadcast_block(*game).replace("Champions Showdown 2024", f"Day {game[2] - 25}")
        for game in BROADCAST
    )
    with pytest.raises(SeveralEventsError) as raised:
        parse_file(text.encode(), "pgn")
    assert raised.value.events == (("Day 1", 4), ("Day 2", 4), ("Day 3", 4))
    event = parse_file(text.encode(), "pgn", event="day 2")
    assert (event.name, event.date) == ("Day 2", date(2024, 12, 27))
    assert games_of(event) == expected_broadcast(BROADCAST[4:8])


def test_the_event_is_named_by_its_event_tag_never_by_a_round_or_another_tag():
    text = "\n".join(
        tags(Round=f"Round {n}: {w} - {b}", Site="Round 1", White=w, Black=b, Result="1-0")
        for n, (w, b) in enumerate([("Ann", "Bob"), ("Cid", "Dan")], start=1)
    )
    assert parse_file(text.encode(), "pgn").name is None  # import_event then asks for --name
    named = text.replace('[Site "Round 1"]', '[Event "Spring Rapid"]\n[Site "Round 1"]')
    assert parse_file(named.encode(), "pgn").name == "Spring Rapid"
    as_round = text.replace('[Site "Round 1"]', '[Event "Round 1"]')  # a round, not an event
    assert parse_file(as_round.encode(), "pgn").name is None


def study(event: str, pairs: list[tuple[str, str, str]], round_tags: bool = True) -> str:
    """A lichess study's export: each game's Event is "<study>: <White> - <Black>"."""
    return "\n".join(
        tags(
            Event=f"{event}: {white} - {black}",
            Date="2024.06.01",
            **({"Round": f"1.{board}"} if round_tags else {}),
            White=white,
            Black=black,
            Result=result,
        )
        for board, (white, black, result) in enumerate(pairs, start=1)
    )


ROUND_1 = [("Ann", "Bob", "1-0"), ("Cid", "Dan", "0-1"), ("Eve", "Fay", "1/2-1/2")]


def test_a_study_of_a_round_is_one_event_without_a_name_never_one_event_a_game():
    # Each game's Event names the round's study and the game's own players (its chapter):
    # neither is the event, so the games are one event and the file gives it no name.
    event = parse_file(study("Round 1", ROUND_1).encode(), "pgn")
    assert games_of(event) == [
        (1, "Ann", "Bob", Result.WHITE_WIN),
        (1, "Cid", "Dan", Result.BLACK_WIN),
        (1, "Eve", "Fay", Result.DRAW),
    ]
    assert event.name is None
    assert event.warnings == (
        "Line 1: Event tags such as “Round 1: Ann - Bob” name a round or a game, not the "
        "event, so the file gives the event no name.",
    )


def test_a_study_of_a_whole_event_is_named_by_the_study_not_by_its_chapters():
    text = (
        study("Spring Open 2024", ROUND_1)
        + "\n"
        + study("Spring Open 2024", [("Bob", "Cid", "1-0"), ("Dan", "Eve", "0-1")]).replace(
            '[Round "1.', '[Round "2.'
        )
    )
    event = parse_file(text.encode(), "pgn")
    assert event.name == "Spring Open 2024"
    assert len(event.games) == 5
    assert event.rounds == 2
    assert event.warnings == ()


def test_an_event_tag_naming_other_players_than_the_games_is_an_event_of_its_own():
    text = study("Spring Open 2024", ROUND_1[:1]).replace(": Ann - Bob", ": Zed - Yan")
    assert parse_file(text.encode(), "pgn").name == "Spring Open 2024: Zed - Yan"


def test_the_games_of_a_study_count_together_against_the_events_limits():
    limits = Limits(entrants=100, rounds=30, games=2, file_bytes=10**6)
    with pytest.raises(TooLargeError) as raised:
        parse_file(study("Round 1", ROUND_1).encode(), "pgn", limits=limits)
    assert raised.value.what == "games"
    assert len(parse_file(study("Round 1", ROUND_1[:2]).encode(), "pgn", limits=limits).games) == 2


def test_games_further_apart_than_one_event_runs_are_said_so():
    far = [
        tags(Event="Blitz", Date="2023.01.05", Round="1", White="Ann", Black="Bob", Result="1-0"),
        tags(Event="Blitz", Date="2024.03.01", Round="2", White="Bob", Black="Ann", Result="1-0"),
    ]
    event = parse_file("\n".join(far).encode(), "pgn")
    assert event.date == date(2023, 1, 5)
    assert event.warnings == (
        "Line 9: the games' dates run from 2023.01.05 (line 2) to 2024.03.01, 421 days, longer "
        "than one event runs (at most 400 days, a league season): check that the file holds "
        "one event.",
    )
    season = "\n".join(far).replace("2024.03.01", "2024.02.09")  # 400 days: a league season
    assert parse_file(season.encode(), "pgn").warnings == ()


def test_an_empty_line_among_one_games_tags_does_not_split_it():
    text = '[Event "Club"]\n[Round "1"]\n\n[White "Ann"]\n[Black "Bob"]\n[Result "1-0"]\n\n1-0\n'
    event = parse_file(text.encode(), "pgn")
    assert games_of(event) == [(1, "Ann", "Bob", Result.WHITE_WIN)]
    assert event.name == "Club"


def test_an_event_tag_after_a_complete_block_starts_the_next_game_even_if_the_first_had_none():
    text = (
        '[White "Ann"]\n[Black "Bob"]\n[Result "1-0"]\n'
        '[Event "Club"]\n[White "Cid"]\n[Black "Dan"]\n[Result "0-1"]\n'
    )
    event = parse_file(text.encode(), "pgn")
    assert games_of(event) == [
        (1, "Ann", "Bob", Result.WHITE_WIN),
        (1, "Cid", "Dan", Result.BLACK_WIN),
    ]
    assert [game.line for game in event.games] == [1, 4]


GAME = tags(Event="Club", Round="1", White="Ann", Black="Bob", Result="1-0")
NEXT = tags(Event="Club", Round="1", White="Cid", Black="Dan", Result="0-1")

REFUSED = [
    pytest.param(
        GAME + "\n1. e4 e5 Downloaded from the club site 2. Nf3 1-0\n\n" + NEXT,
        "Line 7: “Downloaded” is not a move, a move number, a {comment} or a result of the "
        "game on line 1; put a note between braces, or remove it.",
        id="a note in the movetext",
    ),
    pytest.param(
        GAME + "\n1. e4 e5 1-0\nWhite won on time\n\n" + NEXT,
        "Line 8: “White” comes after the result that ended the game on line 1 (line 7); a game "
        'starts with its tags, such as [White "Smith, Anna"].',
        id="text after the result",
    ),
    pytest.param(
        GAME + "\n1. e4 {a note} on the opening} e5 1-0\n\n" + NEXT,
        "Line 7: “on” is not a move, a move number, a {comment} or a result of the game on "
        "line 1; put a note between braces, or remove it.",
        id="a comment closed twice",
    ),
    pytest.param(
        GAME + "\n1. e4 e5 } 1-0\n\n" + NEXT,
        "Line 7: “}” is not a move, a move number, a {comment} or a result of the game on "
        "line 1; put a note between braces, or remove it.",
        id="a brace that closes no comment",
    ),
    pytest.param(
        GAME + "\n1-0\n\nRound 2 below\n\n" + NEXT,
        'Line 9: a game should start here with its tags, such as [White "Smith, Anna"].',
        id="text between two games",
    ),
    pytest.param(
        "Exported by the club\n\n" + GAME,
        'Line 1: a game should start here with its tags, such as [White "Smith, Anna"].',
        id="text before the first game",
    ),
    pytest.param(
        GAME + "\n1. e4 {a comment never closed\n\n" + NEXT + "\n0-1\n",
        "Line 9: this Event tag is inside the comment opened with { on line 7, never closed "
        "with }: close the comment.",
        id="a comment running into the next game",
    ),
    pytest.param(
        GAME + "\n1. e4 {a comment never closed\n",
        "Line 7: this comment opened with { is never closed with }: close it, or every game "
        "after it would be lost in it.",
        id="a comment never closed",
    ),
    pytest.param(
        GAME + "[Date 2024.05.01]\n",
        'Line 6: this PGN tag could not be read; a tag is written as [Name "value"], such as '
        '[White "Smith, Anna"], one a line.',
        id="a tag without quotes",
    ),
]


@pytest.mark.parametrize(("text", "message"), REFUSED)
def test_text_that_is_no_part_of_a_game_is_refused_naming_its_line(text, message):
    with pytest.raises(ImportFileError) as raised:
        parse_file(text.encode(), "pgn")
    assert raised.value.message == message
    assert raised.value.line == int(message.split(":")[0].removeprefix("Line "))


@pytest.mark.parametrize(
    "movetext",
    [
        pytest.param(
            "1. e4 {[%clk 0:03:00]} 1... e5 {[%eval 0.2]} 2. Qh5?! Nc6 3. Qxf7# 1-0", id="lichess"
        ),
        pytest.param("1.d4 Sf6 2.c4 e6 3.Sc3 Lb4 4.Dc2 O-O 5.a3 Lxc3+ 6.Dxc3 b6 1-0", id="German"),
        pytest.param("1. ♘f3 d5 2. g3 $1 ♗g4 += 3. ♗g2 ± 1-0", id="figurines, NAGs, glyphs"),
        pytest.param("1. e2-e4 e7-e5 2. Ng1-f3 0-0-0 3. exd6 e.p. e8=Q+ 1-0", id="long"),
        pytest.param("1. e4 1… e5 2…Nc6 3. Bb5 ... a6 1-0", id="ellipses"),
        pytest.param("1. e4 ; the rest of this line is a comment: 0-1 Ke2\ne5 1-0", id=";"),
        pytest.param("1. e4 {a comment\n\nover an empty line} e5 1-0 {after the result}", id="{}"),
    ],
)
def test_movetext_as_programs_write_it_is_read(movetext):
    event = parse_file((GAME + "\n" + movetext + "\n\n" + NEXT).encode(), "pgn")
    assert games_of(event) == [
        (1, "Ann", "Bob", Result.WHITE_WIN),
        (1, "Cid", "Dan", Result.BLACK_WIN),
    ]


# --- Property: N header blocks are N games -------------------------------------------------------

MOVETEXTS = [
    "",
    "{result}",
    "1. e4 e5 {result}",
    "{{no moves}} {result}",
    "1.d4 (1.e4) d5 {result}",
]
SEPARATORS = ["", "\n", "\n\n"]


@st.composite
def files(draw: st.DrawFn) -> tuple[str, list[tuple[str, Result]]]:
    count = draw(st.integers(min_value=1, max_value=40))
    parts: list[str] = []
    expected: list[tuple[str, Result]] = []
    for n in range(count):
        result = draw(st.sampled_from(sorted(RESULTS)))
        movetext = draw(st.sampled_from(MOVETEXTS)).format(result=result)
        event = draw(st.sampled_from([{"Event": "Open"}, {}])) if n else {"Event": "Open"}
        block = tags(**event, Round=str(n + 1), White=f"P{n}a", Black=f"P{n}b", Result=result)
        separator = draw(st.sampled_from(SEPARATORS)) if not movetext else "\n"
        parts.append(block + separator + (movetext + "\n" + draw(st.sampled_from(SEPARATORS))
                                          if movetext else ""))  # fmt: skip
        expected.append((f"P{n}a", RESULTS[result]))
    return "".join(parts), expected


@given(files())
@settings(
    max_examples=200, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow]
)
def test_n_header_blocks_with_or_without_moves_are_n_games(file):
    text, expected = file
    event = parse_file(text.encode(), "pgn")
    names = {player.key: player.name for player in event.players}
    assert [(names[game.white], game.result) for game in event.games] == expected
    assert [game.round for game in event.games] == list(range(1, len(expected) + 1))
    assert event.name == "Open"
