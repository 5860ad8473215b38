"""A club night through its service functions and its commands: start, pair, results,
standings, publish; every refusal leaves nothing half-done."""

from __future__ import annotations

import datetime as dt
import itertools
import json
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from clubs.models import (
    AuditEntry,
    Board,
    Club,
    Event,
    Game,
    PairingBye,
    PairingSystem,
    Player,
    Round,
)
from clubs.results import Result
from directors.edits import PublishingError
from directors.importers.trf import parse_trf
from directors.night import evening
from directors.night import rounds as night_rounds
from directors.roster.players import add_player
from ladder.replay import replay_ladder
from tests.factories import (
    first_ladder,
    make_club,
    make_event,
    rated_players,
    set_standing,
    update_standings,
)

pytestmark = pytest.mark.django_db

DATE = dt.date(2026, 11, 24)
NAMES = [
    "Anna Berg", "Bram Claes", "Cora Dekker", "Daan Eerden", "Eva Fontein",
    "Femke Graaf", "Gijs Hout", "Hanna Ijzer", "Ivo Jansen",
]  # fmt: skip


@pytest.fixture
def club() -> Club:
    return make_club(slug="knights")


def roster(club: Club, names: list[str], ratings: list[float | None] | None = None) -> list[Player]:
    players = [add_player(club, name, junior=False, start_rating=None, user=None) for name in names]
    for player, rating in zip(players, ratings or [], strict=False):
        set_standing(player.pk, rating=rating, provisional=rating is None)
        player.refresh_from_db()
    return players


def start(club: Club, players: list[Player], system: str = PairingSystem.SWISS, rounds=None):
    return evening.start_event(
        club, name="Tuesday", date=DATE, system=system, rounds=rounds, players=players, user=None
    )


def play_round(event: Event, number: int) -> None:
    """Every open board gets a result, the same ones for the same pairing."""
    results = itertools.cycle(["1-0", "1/2", "0-1"])
    for board in event.round_boards(number):
        if not board.is_bye and board.game is None:
            night_rounds.enter_result(event.pk, number, board.number, Result(next(results)), None)


# --- Start and seeds ---------------------------------------------------------------------------


def test_seeds_come_from_the_ladder_established_first(club):
    players = roster(club, ["Zoe Low", "Amy Top", "Bob Mid", "Cas New", "Dee Prov"])
    update_standings(Player.objects.filter(name="Zoe Low"), rating=1300, provisional=False)
    update_standings(Player.objects.filter(name="Amy Top"), rating=1900, provisional=False)
    update_standings(Player.objects.filter(name="Bob Mid"), rating=1500, provisional=False)
    update_standings(Player.objects.filter(name="Dee Prov"), rating=2000, provisional=True)
    players = list(Player.objects.filter(pk__in=[p.pk for p in players]))
    event = start(club, players, rounds=3)
    seeded = list(event.entries.order_by("start_rank").values_list("typed_name", flat=True))
    assert seeded == ["Amy Top", "Bob Mid", "Zoe Low", "Dee Prov", "Cas New"]
    assert event.status == Event.Status.DRAFT and event.planned_rounds == 3
    assert AuditEntry.objects.filter(action="club_night.started").count() == 1


def test_round_robin_rounds_follow_from_its_size(club):
    assert evening.round_robin_rounds(6, PairingSystem.ROUND_ROBIN) == 5
    assert evening.round_robin_rounds(5, PairingSystem.ROUND_ROBIN) == 5
    assert evening.round_robin_rounds(6, PairingSystem.DOUBLE_ROUND_ROBIN) == 10
    players = roster(club, NAMES[:6])
    with pytest.raises(PublishingError, match="6 players has 5 rounds"):
        start(club, players, PairingSystem.ROUND_ROBIN, rounds=4)
    assert not Event.objects.exists()
    assert start(club, players, PairingSystem.ROUND_ROBIN).planned_rounds == 5


@pytest.mark.parametrize(
    ("count", "rounds", "message"),
    [(1, 1, "at least two"), (4, 4, "at most 3 Swiss rounds"), (4, 0, "number of rounds")],
)
def test_start_refuses_and_stores_nothing(club, count, rounds, message):
    players = roster(club, NAMES[:count])
    with pytest.raises(PublishingError, match=message):
        start(club, players, rounds=rounds)
    assert (
        not Event.objects.exists()
        and not AuditEntry.objects.filter(action="club_night.started").exists()
    )


def test_another_clubs_player_cannot_be_ticked(club):
    other = make_club(slug="other")
    outsider = roster(other, ["Olga Out"])[0]
    with pytest.raises(PublishingError, match="roster"):
        start(club, [*roster(club, NAMES[:3]), outsider], rounds=2)


def test_a_seed_moves_before_round_one_only(club):
    event = start(club, roster(club, NAMES[:4], [1800, 1700, 1600, 1500]), rounds=3)
    last = event.entries.get(start_rank=4)
    evening.move_seed(event.pk, last.pk, 1, None)
    assert list(event.entries.order_by("start_rank").values_list("typed_name", flat=True)) == [
        NAMES[3], NAMES[0], NAMES[1], NAMES[2],
    ]  # fmt: skip
    night_rounds.pair_next_round(event.pk, None)
    with pytest.raises(PublishingError, match="fixed"):
        evening.move_seed(event.pk, last.pk, 2, None)


# --- Pairing and results -----------------------------------------------------------------------


def test_a_swiss_evening_pairs_scores_and_publishes(club):
    players = roster(club, NAMES, [2000 - 50 * i for i in range(9)])
    club.refresh_from_db()
    inputs_before = (first_ladder(club).data_version, club.replay_from)
    event = start(club, players, rounds=4)
    met: set[frozenset[int]] = set()
    byes: list[int] = []
    for number in range(1, 5):
        assert night_rounds.pair_next_round(event.pk, None, expected=number) == number
        boards = event.round_boards(number)
        assert len(boards) == 5  # four games and the bye
        bye_boards = [b for b in boards if b.is_bye]
        assert len(bye_boards) == 1 and bye_boards[0].game.result == Result.BYE_PAIRING
        byes.append(bye_boards[0].white_id)
        for board in boards:
            if not board.is_bye:
                pair = frozenset({board.white_id, board.black_id})
                assert pair not in met
                met.add(pair)
        play_round(event, number)
    assert len(set(byes)) == 4  # nobody gets the pairing bye twice
    table = night_rounds.standings(event)
    assert sum(v.points for v in table) == 4 * 4 + 4  # a point per game, one per bye
    assert [v.rank for v in table] == sorted(v.rank for v in table)
    with pytest.raises(PublishingError, match="already paired"):
        night_rounds.pair_next_round(event.pk, None)
    # Until published the night is no ladder input: no version moved, no replay hinted.
    club.refresh_from_db()
    assert (first_ladder(club).data_version, club.replay_from) == inputs_before
    published = night_rounds.publish_night(event.pk, None)
    assert published.is_published
    replay_ladder(club.pk)
    rated = rated_players().filter(club=club, rated_games__gt=0).count()
    assert rated == 9


def test_a_half_point_pairing_bye_still_comes_once_per_player(club):
    players = roster(club, NAMES[:5], [1900, 1800, 1700, 1600, 1500])
    event = evening.start_event(
        club, name="T", date=DATE, system=PairingSystem.SWISS, rounds=3, players=players,
        user=None, pairing_bye=PairingBye.HALF,
    )  # fmt: skip
    byes = []
    for number in range(1, 4):
        night_rounds.pair_next_round(event.pk, None)
        bye = next(b for b in event.round_boards(number) if b.is_bye)
        assert bye.game.result == Result.BYE_PAIRING_HALF
        byes.append(bye.white_id)
        play_round(event, number)
    assert len(set(byes)) == 3
    table = night_rounds.standings(event)
    assert sum(v.points for v in table) == 3 * 2 + 3 * 0.5
    # The file says each was the pairing's bye (U), not a requested one (H).
    trf = StringIO()
    call_command("export_event", "knights", str(event.pk), "--format", "trf", stdout=trf)
    assert trf.getvalue().count(" U") == 3 and " H" not in trf.getvalue()
    # Read back, the points column says what a U was worth here: the same ½-point byes.
    back = parse_trf(trf.getvalue().encode())
    assert sorted(g.result for g in back.games if g.black is None) == [Result.BYE_PAIRING_HALF] * 3
    assert not back.warnings


def test_the_next_round_waits_for_every_result(club):
    event = start(club, roster(club, NAMES[:4]), rounds=3)
    night_rounds.pair_next_round(event.pk, None)
    night_rounds.enter_result(event.pk, 1, 1, Result.DRAW, None)
    with pytest.raises(PublishingError, match="board without a result: 2"):
        night_rounds.pair_next_round(event.pk, None)
    assert not Board.objects.filter(round=2).exists()


def test_a_double_tap_pairs_one_round(club):
    event = start(club, roster(club, NAMES[:4]), rounds=3)
    night_rounds.pair_next_round(event.pk, None, expected=1)
    with pytest.raises(PublishingError, match="Round 1 is already paired"):
        night_rounds.pair_next_round(event.pk, None, expected=1)
    assert Board.objects.filter(event=event).count() == 2


def test_a_round_is_paired_again_until_its_first_result(club):
    players = roster(club, NAMES[:5])
    event = start(club, players[:4], rounds=3)
    night_rounds.pair_next_round(event.pk, None)
    evening.withdraw(event.pk, event.entries.get(start_rank=4).pk, None)
    # The withdrawal counts from round 2: round 1 must be paired again to drop them now.
    night_rounds.unpair_round(event.pk, 1, None)
    assert not Board.objects.filter(event=event).exists()
    assert not Game.objects.filter(event=event).exists()
    entry = event.entries.get(start_rank=4)
    entry.withdrawn_from_round = 1
    entry.save()
    night_rounds.pair_next_round(event.pk, None)
    boards = event.round_boards(1)
    assert entry.pk not in {b.white_id for b in boards} | {b.black_id for b in boards}
    night_rounds.enter_result(event.pk, 1, 1, Result.WHITE_WIN, None)
    with pytest.raises(PublishingError, match="has results"):
        night_rounds.unpair_round(event.pk, 1, None)


def test_pairing_is_the_same_for_the_same_state(club):
    event = start(club, roster(club, NAMES[:7], [1500 + 10 * i for i in range(7)]), rounds=3)
    night_rounds.pair_next_round(event.pk, None)
    first = [(b.white_id, b.black_id) for b in event.round_boards(1)]
    night_rounds.unpair_round(event.pk, 1, None)
    night_rounds.pair_next_round(event.pk, None)
    assert [(b.white_id, b.black_id) for b in event.round_boards(1)] == first


def test_the_export_holds_the_boards_still_being_played(club):
    event = start(club, roster(club, NAMES[:5]), rounds=3)
    night_rounds.pair_next_round(event.pk, None)
    night_rounds.enter_result(event.pk, 1, 1, Result.WHITE_WIN, None)
    out = StringIO()
    call_command("export_event", "knights", str(event.pk), "--format", "trf", stdout=out)
    back = parse_trf(out.getvalue().encode())
    by_result = sorted(g.result.value for g in back.games)
    # Board 1's result, board 2 paired with no result yet, the bye.
    assert by_result == sorted([Result.WHITE_WIN, Result.NO_RESULT, Result.BYE_PAIRING])
    board_two = event.round_boards(1)[1]
    names = dict(event.entries.values_list("pk", "typed_name"))
    pending = next(g for g in back.games if g.result == Result.NO_RESULT)
    players = {p.key: p.name for p in back.players}
    assert (players[pending.white], players[pending.black]) == (
        names[board_two.white_id],
        names[board_two.black_id],
    )


def test_a_board_of_an_earlier_round_is_corrected_and_later_rounds_stay_as_paired(club):
    event = start(club, roster(club, NAMES[:4]), rounds=3)
    night_rounds.pair_next_round(event.pk, None)
    night_rounds.enter_result(event.pk, 1, 1, Result.WHITE_WIN, None)
    night_rounds.enter_result(event.pk, 1, 1, Result.BLACK_WIN, None)
    board = event.round_boards(1)[0]
    assert board.game.result == Result.BLACK_WIN
    assert Game.objects.filter(event=event).count() == 1
    night_rounds.enter_result(event.pk, 1, 2, Result.DRAW, None)
    night_rounds.pair_next_round(event.pk, None)
    round_2 = [(b.white_id, b.black_id) for b in event.round_boards(2)]
    change = night_rounds.enter_result(event.pk, 1, 1, Result.DRAW, None)
    assert (change.old, change.new, change.paired_on_old) == (Result.BLACK_WIN, Result.DRAW, (2,))
    assert event.round_boards(1)[0].game.result == Result.DRAW
    assert [(b.white_id, b.black_id) for b in event.round_boards(2)] == round_2
    assert Round.objects.get(event=event, number=2).paired_before_correction


@pytest.mark.parametrize("result", [Result.BYE_FULL, Result.UNRATED_DRAW, Result.NO_RESULT])
def test_only_board_results_are_accepted(club, result):
    event = start(club, roster(club, NAMES[:4]), rounds=3)
    night_rounds.pair_next_round(event.pk, None)
    with pytest.raises(PublishingError, match="from the list"):
        night_rounds.enter_result(event.pk, 1, 1, result, None)
    assert not Game.objects.filter(event=event).exists()


def test_a_requested_bye_keeps_the_player_out_of_the_round(club):
    event = start(club, roster(club, NAMES[:5]), rounds=3)
    entry = event.entries.get(start_rank=2)
    evening.request_bye(event.pk, entry.pk, 1, None)
    night_rounds.pair_next_round(event.pk, None)
    boards = event.round_boards(1)
    assert len(boards) == 2 and not any(b.is_bye for b in boards)  # four left: no pairing bye
    assert Game.objects.get(event=event, white=entry, round=1).result == Result.BYE_HALF
    with pytest.raises(PublishingError, match="not paired yet"):
        evening.request_bye(event.pk, entry.pk, 1, None)


def test_a_late_arrival_joins_between_rounds_with_the_next_seed(club):
    players = roster(club, NAMES[:5])
    event = start(club, players[:4], rounds=3)
    night_rounds.pair_next_round(event.pk, None)
    play_round(event, 1)
    entry = evening.add_entrant(event.pk, players[4], None)
    assert entry.start_rank == 5
    night_rounds.pair_next_round(event.pk, None)
    seen = {b.white_id for b in event.round_boards(2)}
    seen |= {b.black_id for b in event.round_boards(2)}
    assert entry.pk in seen
    with pytest.raises(PublishingError, match="already playing"):
        evening.add_entrant(event.pk, players[4], None)


def test_a_round_robin_follows_its_table_and_a_withdrawal_forfeits(club):
    players = roster(club, NAMES[:6])
    event = start(club, players, PairingSystem.ROUND_ROBIN)
    met: set[frozenset[int]] = set()
    gone = event.entries.get(start_rank=6).pk
    for number in range(1, 6):
        if number == 4:
            evening.withdraw(event.pk, gone, None)
        night_rounds.pair_next_round(event.pk, None)
        for board in event.round_boards(number):
            met.add(frozenset({board.white_id, board.black_id}))
            if number >= 4 and gone in {board.white_id, board.black_id}:
                assert board.game.result in {Result.WHITE_FORFEIT_WIN, Result.BLACK_FORFEIT_WIN}
        play_round(event, number)
    assert len(met) == 15  # every pair of six exactly once
    with pytest.raises(PublishingError, match="fixed"):
        evening.add_entrant(event.pk, roster(club, ["Late Comer"])[0], None)


def test_publishing_waits_for_the_last_board_and_never_twice(club):
    event = start(club, roster(club, NAMES[:4]), rounds=2)
    with pytest.raises(PublishingError, match="Pair and play"):
        night_rounds.publish_night(event.pk, None)
    night_rounds.pair_next_round(event.pk, None)
    night_rounds.enter_result(event.pk, 1, 1, Result.WHITE_WIN, None)
    with pytest.raises(PublishingError, match="without a result"):
        night_rounds.publish_night(event.pk, None)
    night_rounds.enter_result(event.pk, 1, 2, Result.DRAW, None)
    night_rounds.publish_night(event.pk, None)
    with pytest.raises(PublishingError, match="published"):
        night_rounds.pair_next_round(event.pk, None)


# --- The commands ------------------------------------------------------------------------------


def run(*args: str) -> str:
    out = StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


def test_the_commands_run_the_same_evening(club, tmp_path):
    roster(club, NAMES[:5], [1900, 1800, 1700, 1600, 1500])
    names = tmp_path / "players.txt"
    names.write_text("anna berg\n  Bram Claes\nCora Dekker\nDaan Eerden\nEva Fontein\n\n")
    start_args = ["--name", "Tuesday", "--date", "2026-11-24", "--system", "swiss"]
    event_id = int(
        run("start_event", "knights", *start_args, "--rounds", "3", "--players", str(names))
    )
    for number in range(1, 4):
        paired = json.loads(run("pair_round", "knights", str(event_id)))
        assert paired["round"] == number
        assert [b["board"] for b in paired["boards"]] == [1, 2]
        assert paired["bye"] in NAMES[:5]
        assert {"white", "black"} <= set(paired["boards"][0])
        run("enter_results", "knights", str(event_id), str(number), "1-0,1/2")
    with pytest.raises(CommandError, match="already paired"):
        run("pair_round", "knights", str(event_id))
    table = json.loads(run("standings", "knights", str(event_id), "--format", "json"))
    assert [row["rank"] for row in table] == sorted(row["rank"] for row in table)
    assert sum(row["points"] for row in table) == 3 * 2 + 3
    assert set(table[0]["tiebreaks"]) == {"bh-c1", "bh", "sb", "de", "won"}
    trf = run("export_event", "knights", str(event_id), "--format", "trf")
    assert trf.count("\n001 ") + trf.startswith("001 ") == 5
    assert "Published" in run("publish_event", "knights", str(event_id))
    assert Event.objects.get(pk=event_id).is_published


def test_start_event_exits_3_listing_unknown_or_ambiguous_names(club, tmp_path):
    roster(club, ["Anna Berg", "Bram Claes"])
    other = roster(club, ["Cora Dekker"])[0]
    Player.objects.create(club=club, name="Cora Dekker", name_key=other.name_key)
    names = tmp_path / "players.txt"
    names.write_text("Anna Berg\nNobody Here\nCora Dekker\n")
    with pytest.raises(CommandError, match="Nobody Here; Cora Dekker") as raised:
        run("start_event", "knights", "--name", "T", "--date", "2026-11-24",
            "--system", "swiss", "--rounds", "1", "--players", str(names))  # fmt: skip
    assert raised.value.returncode == 3
    assert not Event.objects.exists()


def test_pair_round_exits_1_on_a_missing_result(club, tmp_path):
    event = start(club, roster(club, NAMES[:4]), rounds=2)
    run("pair_round", "knights", str(event.pk))
    with pytest.raises(CommandError, match="without a result") as raised:
        run("pair_round", "knights", str(event.pk))
    assert raised.value.returncode == 1


@pytest.mark.parametrize("codes", ["1-0", "1-0,1/2,0-1", "1-0,2-0"])
def test_enter_results_refuses_a_wrong_list_and_stores_nothing(club, codes):
    event = start(club, roster(club, NAMES[:4]), rounds=2)
    night_rounds.pair_next_round(event.pk, None)
    with pytest.raises(CommandError):
        run("enter_results", "knights", str(event.pk), "1", codes)
    assert not Game.objects.filter(event=event).exists()


def test_standings_of_an_uploaded_event_count_every_game(club):
    """The standings command takes any event: an upload has no boards, so nothing limits
    it to a "last paired round"."""
    a, b, c = roster(club, NAMES[:3])
    event = make_event(
        club,
        [(1, a, b, Result.WHITE_WIN), (2, a, c, Result.DRAW), (3, b, c, Result.BLACK_WIN)],
        published=False,
    )
    table = json.loads(run("standings", "knights", str(event.pk), "--format", "json"))
    assert {row["name"]: row["points"] for row in table} == {
        NAMES[0]: 1.5, NAMES[1]: 0.0, NAMES[2]: 1.5,
    }  # fmt: skip
    after_one = json.loads(run("standings", "knights", str(event.pk), "--after-round", "1"))
    assert {row["name"]: row["points"] for row in after_one} == {
        NAMES[0]: 1.0, NAMES[1]: 0.0, NAMES[2]: 0.0,
    }  # fmt: skip
    assert after_one[0]["rank"] == 1 and after_one[0]["name"] == NAMES[0]


def test_publishing_a_published_night_again_says_so(club):
    event = start(club, roster(club, NAMES[:4]), rounds=1)
    night_rounds.pair_next_round(event.pk, None)
    night_rounds.enter_round_results(event.pk, 1, [Result.DRAW, Result.DRAW], None)
    night_rounds.publish_night(event.pk, None)
    with pytest.raises(PublishingError, match="already published"):
        night_rounds.publish_night(event.pk, None)
