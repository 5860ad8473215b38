"""The director's pairing tools of a club night through the services and commands:
never-pair couples, the first colour, acceleration, hand changes of the current round,
and the smaller evening faults (issue 22, parts 5 and 6)."""

from __future__ import annotations

import datetime as dt
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from clubs.models import AuditEntry, Board, Club, Event, Game, NeverPair, PairingSystem, Player
from clubs.models.night import Round
from clubs.results import Result
from directors.edits import PublishingError
from directors.night import changes, evening
from directors.night import rounds as night_rounds
from directors.roster.players import add_player
from ladder.roster.rosters import load_roster
from members.files.event_export import event_trf
from members.pages.events.event_pages import event_page
from tests.factories import make_club, rated_players, set_standing

pytestmark = pytest.mark.django_db

DATE = dt.date(2026, 11, 24)
NAMES = ["Anna Berg", "Bram Claes", "Cora Dekker", "Daan Eerden", "Eva Fontein", "Femke Graaf"]


@pytest.fixture
def club() -> Club:
    return make_club(slug="knights")


def roster(club: Club, names: list[str]) -> list[Player]:
    """Players rated in the order given, so seed n is names[n - 1]."""
    players = [add_player(club, name, junior=False, start_rating=None, user=None) for name in names]
    for rank, player in enumerate(players):
        set_standing(player.pk, rating=2000 - 50 * rank, provisional=False)
    return list(rated_players().filter(pk__in=[p.pk for p in players]).order_by("-rating"))


def start(club, players, system=PairingSystem.SWISS, rounds=3, **options) -> Event:
    return evening.start_event(
        club, name="Tuesday", date=DATE, system=system,
        rounds=rounds if system == PairingSystem.SWISS else None, players=players, user=None,
        **options,
    )  # fmt: skip


def pairs(event: Event, number: int) -> list[tuple[str, str | None]]:
    return [
        (b.white.typed_name, b.black.typed_name if b.black else None)
        for b in event.round_boards(number)
    ]


def run(*args: str) -> str:
    out = StringIO()
    call_command(*args, stdout=out)
    return out.getvalue().strip()


# --- Never pair ---------------------------------------------------------------------------------


def test_a_club_never_pair_couple_is_kept_apart_at_every_evening(club):
    players = roster(club, NAMES[:4])
    event = start(club, players, first_colour="white")
    night_rounds.pair_next_round(event.pk, None)
    assert ("Anna Berg", "Cora Dekker") in pairs(event, 1)  # the engine's choice without
    night_rounds.unpair_round(event.pk, 1, None)
    assert run("never_pair", "knights", "Cora Dekker", "Anna Berg") == (
        "Cora Dekker and Anna Berg are never paired"
    )
    night_rounds.pair_next_round(event.pk, None)
    assert all({w, b} != {"Anna Berg", "Cora Dekker"} for w, b in pairs(event, 1))
    assert AuditEntry.objects.filter(action="never_pair.added").count() == 1


def test_never_pair_twice_and_remove(club):
    roster(club, NAMES[:2])
    run("never_pair", "knights", "Anna Berg", "Bram Claes")
    assert run("never_pair", "knights", "Bram Claes", "Anna Berg") == (
        "Bram Claes and Anna Berg were already on the list"
    )
    assert NeverPair.objects.count() == 1
    assert run("never_pair", "knights", "Anna Berg", "Bram Claes", "--remove") == (
        "Anna Berg and Bram Claes may be paired again"
    )
    assert not NeverPair.objects.exists()
    assert AuditEntry.objects.filter(action="never_pair.removed").count() == 1


def test_never_pair_refuses_unknown_names_and_one_player_twice(club):
    roster(club, NAMES[:2])
    with pytest.raises(CommandError) as refused:
        run("never_pair", "knights", "Anna Berg", "Nobody Here")
    assert refused.value.returncode == 3 and "Nobody Here" in str(refused.value)
    with pytest.raises(CommandError, match="two different players"):
        run("never_pair", "knights", "Anna Berg", "anna berg")
    assert not NeverPair.objects.exists()


def test_when_no_pairing_keeps_a_couple_apart_the_director_may_pair_without(club):
    players = roster(club, NAMES[:2])
    event = start(club, players, rounds=1)
    changes.set_never_pair(club, players[0], players[1], None, event=event)
    with pytest.raises(night_rounds.KeepingApartImpossible, match="never-pair"):
        night_rounds.pair_next_round(event.pk, None)
    assert not Board.objects.filter(event=event).exists()
    night_rounds.pair_next_round(event.pk, None, keep_apart=False)
    assert len(pairs(event, 1)) == 1
    assert AuditEntry.objects.filter(action="round.paired").get().details["never_pair"] == (
        "ignored"
    )


def test_an_evenings_own_couple_stays_with_that_evening(club):
    players = roster(club, NAMES[:4])
    first = start(club, players)
    changes.set_never_pair(club, players[0], players[2], None, event=first)
    second = start(club, players)
    assert changes.never_pairs(club) == []
    assert len(changes.never_pairs(club, first)) == 1
    assert changes.never_pairs(club, second) == []


# --- First colour and acceleration --------------------------------------------------------------


def test_the_first_colour_by_lot_is_drawn_once_and_kept(club, monkeypatch):
    players = roster(club, NAMES[:4])
    monkeypatch.setattr(evening, "draw_first_colour", lambda: "black")
    event = start(club, players)
    event.refresh_from_db()
    assert (event.first_colour, event.first_colour_by_lot) == ("black", True)
    night_rounds.pair_next_round(event.pk, None)
    first = pairs(event, 1)
    assert first[0] == ("Cora Dekker", "Anna Berg")  # seed 1 has black on board 1
    monkeypatch.setattr(evening, "draw_first_colour", lambda: "white")
    night_rounds.unpair_round(event.pk, 1, None)
    night_rounds.pair_next_round(event.pk, None)
    assert pairs(event, 1) == first


def test_start_event_takes_the_first_colour_and_acceleration(club, tmp_path):
    roster(club, NAMES)
    file = tmp_path / "players.txt"
    file.write_text("\n".join(NAMES), encoding="utf-8")
    common = ["start_event", "knights", "--name", "T", "--date", "2026-11-24", "--system"]
    event_id = run(*common, "swiss", "--rounds", "3", "--players", str(file),
                   "--first-colour", "black", "--accelerated")  # fmt: skip
    event = Event.objects.get(pk=int(event_id))
    assert (event.first_colour, event.first_colour_by_lot, event.accelerated) == (
        "black", False, True,
    )  # fmt: skip
    lot = Event.objects.get(pk=int(run(*common, "swiss", "--rounds", "3", "--players", str(file))))
    assert lot.first_colour_by_lot and not lot.accelerated
    with pytest.raises(CommandError):
        run(*common, "swiss", "--rounds", "3", "--players", str(file), "--first-colour", "red")


def test_an_accelerated_evening_pairs_the_top_group_together_in_round_one(club):
    players = roster(club, [*NAMES, "Gijs Hout", "Hanna Ijzer"])
    event = start(club, players, rounds=5, accelerated=True, first_colour="white")
    night_rounds.pair_next_round(event.pk, None)
    top = {"Anna Berg", "Bram Claes", "Cora Dekker", "Daan Eerden"}
    for white, black in pairs(event, 1):
        assert (white in top) == (black in top), (white, black)


def test_a_round_robin_is_not_accelerated(club):
    with pytest.raises(PublishingError, match="Swiss"):
        start(club, roster(club, NAMES[:4]), system=PairingSystem.ROUND_ROBIN, accelerated=True)


def test_a_round_robin_with_black_first_turns_the_table(club):
    players = roster(club, NAMES[:4])
    event = start(club, players, system=PairingSystem.ROUND_ROBIN, first_colour="black")
    night_rounds.pair_next_round(event.pk, None)
    assert pairs(event, 1)[0] == ("Daan Eerden", "Anna Berg")


# --- Hand changes -------------------------------------------------------------------------------


def _entry(event: Event, name: str) -> int:
    return event.entries.get(typed_name=name).pk


def test_swapping_two_players_marks_the_boards_the_log_and_the_trf(club):
    players = roster(club, NAMES[:4])
    event = start(club, players, first_colour="white")
    night_rounds.pair_next_round(event.pk, None)
    assert pairs(event, 1) == [("Anna Berg", "Cora Dekker"), ("Daan Eerden", "Bram Claes")]
    pairing_before = Round.pairing_of(event.pk, 1)
    changes.swap_players(event.pk, _entry(event, "Cora Dekker"), _entry(event, "Bram Claes"), None)
    assert pairs(event, 1) == [("Anna Berg", "Bram Claes"), ("Daan Eerden", "Cora Dekker")]
    marked = Board.objects.filter(event=event).values_list("changed_by_director", flat=True)
    assert list(marked) == [True, True]
    assert AuditEntry.objects.get(action="board.changed").details["boards"] == [1, 2]
    assert Round.pairing_of(event.pk, 1) == pairing_before + 1
    trf = event_trf(event, viewer_is_director=True)
    assert "### round 1 board 1: changed by the director" in trf
    assert "### round 1 board 2: changed by the director" in trf


def test_exchanging_colours_on_a_board(club):
    event = start(club, roster(club, NAMES[:4]), first_colour="white")
    night_rounds.pair_next_round(event.pk, None)
    changes.swap_colours(event.pk, 2, None)
    assert pairs(event, 1)[1] == ("Bram Claes", "Daan Eerden")
    assert Board.objects.get(event=event, number=2).changed_by_director
    assert not Board.objects.get(event=event, number=1).changed_by_director


def test_a_rematch_by_hand_needs_confirming(club):
    event = start(club, roster(club, NAMES[:4]), first_colour="white")
    night_rounds.pair_next_round(event.pk, None)
    night_rounds.enter_round_results(event.pk, 1, [Result.WHITE_WIN, Result.DRAW], None)
    night_rounds.pair_next_round(event.pk, None)
    before = pairs(event, 2)
    board = next(b for b in event.round_boards(2) if b.white.typed_name == "Anna Berg"
                 or b.black.typed_name == "Anna Berg")  # fmt: skip
    anna = _entry(event, "Anna Berg")
    partner = board.black_id if board.white_id == anna else board.white_id
    other = next(b for b in event.round_boards(2) if b.pk != board.pk)
    cora = _entry(event, "Cora Dekker")  # Anna's round 1 opponent
    assert cora in (other.white_id, other.black_id)
    with pytest.raises(changes.NeedsConfirming, match="already played each other"):
        changes.swap_players(event.pk, partner, cora, None)
    assert pairs(event, 2) == before
    assert not AuditEntry.objects.filter(action="board.changed").exists()
    changes.swap_players(event.pk, partner, cora, None, confirmed=True)
    assert {"Anna Berg", "Cora Dekker"} in [set(p) for p in pairs(event, 2)]


def test_a_second_bye_by_hand_needs_confirming(club):
    event = start(club, roster(club, NAMES[:5]), first_colour="white")
    night_rounds.pair_next_round(event.pk, None)
    bye_holder = Board.objects.get(event=event, round=1, black__isnull=True).white_id
    results = [Result.WHITE_WIN, Result.WHITE_WIN]
    night_rounds.enter_round_results(event.pk, 1, results, None)
    night_rounds.pair_next_round(event.pk, None)
    new_bye = Board.objects.get(event=event, round=2, black__isnull=True)
    with pytest.raises(changes.NeedsConfirming, match="pairing-allocated bye"):
        changes.swap_players(event.pk, new_bye.white_id, bye_holder, None)
    changes.swap_players(event.pk, new_bye.white_id, bye_holder, None, confirmed=True)
    moved = Board.objects.get(event=event, round=2, black__isnull=True)
    assert moved.white_id == bye_holder
    assert Game.objects.get(pk=moved.game_id).white_id == bye_holder


def test_no_hand_change_once_the_round_has_a_result(club):
    event = start(club, roster(club, NAMES[:4]))
    night_rounds.pair_next_round(event.pk, None)
    night_rounds.enter_result(event.pk, 1, 1, Result.DRAW, None)
    before = pairs(event, 1)
    with pytest.raises(PublishingError, match="has results"):
        changes.swap_colours(event.pk, 2, None)
    with pytest.raises(PublishingError, match="has results"):
        changes.swap_players(
            event.pk, *Board.objects.filter(event=event, number=2).values_list("white", "black")[0],
            None,
        )  # fmt: skip
    assert pairs(event, 1) == before


def test_a_hand_change_needs_two_players_of_the_round(club):
    players = roster(club, NAMES[:4])
    event = start(club, players)
    with pytest.raises(PublishingError, match="No round"):
        changes.swap_colours(event.pk, 1, None)
    night_rounds.pair_next_round(event.pk, None)
    with pytest.raises(PublishingError, match="two players of this round"):
        changes.swap_players(event.pk, _entry(event, "Anna Berg"), 999_999, None)
    with pytest.raises(PublishingError, match="two players of this round"):
        anna = _entry(event, "Anna Berg")
        changes.swap_players(event.pk, anna, anna, None)
    with pytest.raises(PublishingError, match="no such board"):
        changes.swap_colours(event.pk, 9, None)


# --- Smaller evening faults ---------------------------------------------------------------------


def test_a_round_robin_dummy_scores_nothing_by_default(club):
    event = start(club, roster(club, NAMES[:3]), system=PairingSystem.ROUND_ROBIN)
    assert Event.objects.get(pk=event.pk).pairing_bye == Result.BYE_PAIRING_ZERO
    night_rounds.pair_next_round(event.pk, None)
    bye = Game.objects.get(event=event, round=1, black__isnull=True)
    assert bye.result == Result.BYE_PAIRING_ZERO
    points = {v.player: v.points for v in night_rounds.standings(event)}
    assert points[bye.white_id] == 0


def test_a_round_robins_crosstable_rows_add_up_to_the_points_column(club):
    event = start(club, roster(club, NAMES[:5]), system=PairingSystem.ROUND_ROBIN)
    codes = [Result.WHITE_WIN, Result.DRAW]
    for number in range(1, 6):
        night_rounds.pair_next_round(event.pk, None)
        night_rounds.enter_round_results(event.pk, number, [codes[number % 2], codes[0]], None)
    page = event_page(event, load_roster(club, viewer_is_director=True), "?")
    value = {"1": 1.0, "½": 0.5, "0": 0.0, "+": 1.0, "−": 0.0}
    assert page.crosstable is not None and len(page.crosstable) == 5
    for standing, cells in page.crosstable:
        row = sum(value[symbol] for cell in cells if cell for symbol in cell)
        assert row == standing.points, standing.name
    # Each player sat out one round against the dummy, for nothing.
    assert sum(standing.points for standing, _cells in page.crosstable) == 10


def test_a_swiss_bye_still_scores_one_by_default(club):
    event = start(club, roster(club, NAMES[:3]))
    assert Event.objects.get(pk=event.pk).pairing_bye == Result.BYE_PAIRING


@pytest.mark.parametrize(("count", "most"), [(3, 3), (4, 3), (5, 5), (6, 5)])
def test_a_swiss_may_have_as_many_rounds_as_an_odd_field(club, count, most):
    players = roster(club, NAMES[:count])
    assert start(club, players, rounds=most).planned_rounds == most
    with pytest.raises(PublishingError) as refused:
        start(club, players, rounds=most + 1)
    assert refused.value.message == (
        f"{count} players can play at most {most} Swiss rounds without a rematch."
    )


def test_a_swiss_of_three_plays_its_three_rounds(club):
    event = start(club, roster(club, NAMES[:3]), rounds=3)
    for number in (1, 2, 3):
        night_rounds.pair_next_round(event.pk, None)
        night_rounds.enter_round_results(event.pk, number, [Result.DRAW], None)
    byes = Board.objects.filter(event=event, black__isnull=True).values_list("white", flat=True)
    assert len(set(byes)) == 3  # each had the bye once
