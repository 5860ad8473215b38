"""A club night goes wrong: a result corrected rounds later, a stale tab, the commands that
correct and check the pairing version, publishing part of an evening and taking it back."""

from __future__ import annotations

import datetime as dt
import json
from io import StringIO

import pytest
from django.contrib.messages import get_messages
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse

from clubs.models import AuditEntry, Board, Club, Event, Game, PairingSystem, Player, Round
from clubs.results import Result
from directors.audit.sentences import sentences
from directors.edits import PublishingError
from directors.night import evening as club_night
from directors.night import rounds as night_rounds
from directors.night.pairs import Shown
from ladder.replay import replay_ladder
from tests.directors.events.test_event_views import grid_post
from tests.factories import make_players, rated_players, set_standing

pytestmark = pytest.mark.django_db

NAMES = ["Anna Berg", "Bram Claes", "Cora Dekker", "Daan Eerden", "Eva Fontein", "Jan Hout"]


@pytest.fixture
def players(club):
    made = make_players(club, NAMES)
    for rating, player in zip([1900, 1800, 1700, 1600, 1500, 1400], made, strict=True):
        set_standing(player.pk, rating=rating, rated_games=20)
    return list(rated_players().filter(pk__in=[p.pk for p in made]).order_by("-rating"))


@pytest.fixture
def signed_in(client, director):
    client.force_login(director)
    return client


def night(club: Club, players: list[Player], rounds: int = 3) -> Event:
    return club_night.start_event(
        club, name="Tuesday", date=dt.date(2026, 3, 3), system=PairingSystem.SWISS,
        rounds=rounds, players=players, user=None,
    )  # fmt: skip


def play(event: Event, number: int, results: list[Result]) -> None:
    night_rounds.enter_round_results(event.pk, number, results, None)


def run(*args: str) -> str:
    out = StringIO()
    call_command(*args, stdout=out)
    return out.getvalue().strip()


def url(name, event, *more):
    return reverse(name, args=[event.club.slug, event.pk, *more])


def said(response):
    return [str(m) for m in get_messages(response.wsgi_request)]


def tap(result, board: Board, pairing: int) -> dict[str, object]:
    return {"result": result, "white": board.white_id, "black": board.black_id, "pairing": pairing}


def stored(event: Event):
    return (
        sorted(Game.objects.filter(event=event).values_list("round", "white", "black", "result")),
        sorted(Board.objects.filter(event=event).values_list("round", "number", "white", "black")),
        list(Round.objects.filter(event=event).values_list("number", "pairing")),
    )


# --- 1. Correct any round during the evening ---------------------------------------------------


def test_a_result_noticed_two_rounds_late_is_corrected_and_counts_from_then_on(club, players):
    event = night(club, players[:4], rounds=3)
    night_rounds.pair_next_round(event.pk, None)
    play(event, 1, [Result.WHITE_WIN, Result.WHITE_WIN])
    night_rounds.pair_next_round(event.pk, None)
    play(event, 2, [Result.DRAW, Result.DRAW])
    night_rounds.pair_next_round(event.pk, None)
    round_2 = [(b.white_id, b.black_id) for b in event.round_boards(2)]
    first = event.round_boards(1)[0]
    before = {v.player: v.points for v in night_rounds.standings(event, 2)}
    change = night_rounds.enter_result(event.pk, 1, 1, Result.BLACK_WIN, None)
    assert change.paired_on_old == (2, 3)
    after = {v.player: v.points for v in night_rounds.standings(event, 2)}
    assert after[first.white_id] == before[first.white_id] - 1
    assert after[first.black_id] == before[first.black_id] + 1
    # Rounds already paired stay as paired, and say they were paired on the old result.
    assert [(b.white_id, b.black_id) for b in event.round_boards(2)] == round_2
    marked = Round.objects.filter(event=event, paired_before_correction=True)
    assert sorted(marked.values_list("number", flat=True)) == [2, 3]


def test_the_next_pairing_uses_the_corrected_scores(club, players):
    event = night(club, players[:4], rounds=3)
    night_rounds.pair_next_round(event.pk, None)
    play(event, 1, [Result.WHITE_WIN, Result.WHITE_WIN])
    night_rounds.pair_next_round(event.pk, None)
    play(event, 2, [Result.WHITE_WIN, Result.WHITE_WIN])
    leaders = {v.player for v in night_rounds.standings(event, 2) if v.points == 2}
    # Correct round 1 so that a leader lost: the top board of round 3 follows the new scores.
    board = next(b for b in event.round_boards(1) if b.white_id in leaders)
    night_rounds.enter_result(event.pk, 1, board.number, Result.BLACK_WIN, None)
    night_rounds.pair_next_round(event.pk, None)
    points = {v.player: v.points for v in night_rounds.standings(event, 2)}
    top = event.round_boards(3)[0]
    assert points[top.white_id] + points[top.black_id] == max(
        points[b.white_id] + points[b.black_id] for b in event.round_boards(3)
    )
    assert points[board.white_id] == 1


def test_the_results_screen_of_an_earlier_round_corrects_and_names_the_later_rounds(
    signed_in, club, players
):
    event = night(club, players[:4], rounds=3)
    night_rounds.pair_next_round(event.pk, None)
    play(event, 1, [Result.WHITE_WIN, Result.DRAW])
    night_rounds.pair_next_round(event.pk, None)
    board = event.round_boards(1)[0]
    response = signed_in.post(url("night_result", event, 1, 1), tap("0-1", board, 1))
    assert Board.objects.get(pk=board.pk).game.result == Result.BLACK_WIN
    assert any("Round 2 was already paired on the old result" in m for m in said(response))
    html = signed_in.get(url("night_results", event, 2)).content.decode()
    assert "paired on the old result and stays as paired" in html
    evening = signed_in.get(url("night_evening", event)).content.decode()
    assert "paired on an old result" in evening


def test_an_unplayed_round_is_still_paired_again(club, players):
    event = night(club, players[:5], rounds=3)
    night_rounds.pair_next_round(event.pk, None)
    assert Round.pairing_of(event.pk, 1) == 1
    night_rounds.unpair_round(event.pk, 1, None)
    night_rounds.pair_next_round(event.pk, None)
    assert Round.pairing_of(event.pk, 1) == 3  # paired, taken back, paired again


# --- 2. Stale taps -----------------------------------------------------------------------------


def test_a_tap_from_a_stale_tab_is_refused_naming_the_pair_now_on_the_board(
    signed_in, club, players
):
    event = night(club, players[:4], rounds=3)
    night_rounds.pair_next_round(event.pk, None)
    # Tab A shows round 1; tab B takes the pairing back, a latecomer joins, it is paired again.
    shown = event.round_boards(1)
    version = Round.pairing_of(event.pk, 1)
    night_rounds.unpair_round(event.pk, 1, None)
    club_night.add_entrant(event.pk, players[4], None)
    club_night.move_seed(event.pk, event.entries.get(player=players[4]).pk, 1, None)
    night_rounds.pair_next_round(event.pk, None)
    now = event.round_boards(1)[0]
    assert (now.white_id, now.black_id) != (shown[0].white_id, shown[0].black_id)
    before = stored(event)
    response = signed_in.post(url("night_result", event, 1, 1), tap("1-0", shown[0], version))
    assert stored(event) == before
    assert said(response) == [
        f"Round 1 was paired again since your screen showed it: board 1 now holds "
        f"{now.white.player.name} – {now.black.player.name}, so nothing was stored."
    ]
    assert response.url == url("night_results", event, 1)


def test_a_tap_for_the_same_pair_after_a_re_pairing_is_refused_too(club, players):
    event = night(club, players[:4], rounds=3)
    night_rounds.pair_next_round(event.pk, None)
    board = event.round_boards(1)[0]
    night_rounds.unpair_round(event.pk, 1, None)
    night_rounds.pair_next_round(event.pk, None)  # the same boards again
    again = event.round_boards(1)[0]
    assert (again.white_id, again.black_id) == (board.white_id, board.black_id)
    with pytest.raises(PublishingError, match="paired again"):
        night_rounds.enter_result(
            event.pk, 1, 1, Result.DRAW, None, shown=Shown(1, board.white_id, board.black_id)
        )
    assert not Game.objects.filter(event=event).exists()


def test_a_tap_without_the_pair_it_was_shown_for_is_not_read(signed_in, club, players):
    event = night(club, players[:4], rounds=3)
    night_rounds.pair_next_round(event.pk, None)
    response = signed_in.post(url("night_result", event, 1, 1), {"result": "1-0"})
    assert said(response) == ["The form could not be read: reload the page and try again."]
    assert not Game.objects.filter(event=event).exists()


def test_every_result_button_carries_the_pair_and_the_pairing_version(signed_in, club, players):
    event = night(club, players[:4], rounds=3)
    night_rounds.pair_next_round(event.pk, None)
    html = signed_in.get(url("night_results", event, 1)).content.decode()
    board = event.round_boards(1)[0]
    buttons = html.count('name="result"')
    assert buttons == 2 * 6
    assert html.count('name="pairing" value="1"') == buttons
    assert html.count(f'name="white" value="{board.white_id}"') >= 6


def test_a_grid_opened_before_a_re_pairing_saves_nothing(signed_in, club, players):
    event = night(club, players[:5], rounds=3)
    night_rounds.pair_next_round(event.pk, None)
    grid = signed_in.get(reverse("event_grid", args=[club.slug, event.pk]))
    version = grid.context["version_form"].initial["version"]
    night_rounds.unpair_round(event.pk, 1, None)
    night_rounds.pair_next_round(event.pk, None)
    before = stored(event)
    rows = [("1", NAMES[0], NAMES[1], "1-0")]
    response = signed_in.post(
        reverse("event_grid", args=[club.slug, event.pk]), grid_post(rows, version), follow=True
    )
    assert "changed by someone else" in response.content.decode()
    assert stored(event) == before


def test_pair_round_prints_the_pairing_version_and_enter_results_checks_it(club, players):
    event = night(club, players[:4], rounds=3)
    paired = json.loads(run("pair_round", club.slug, str(event.pk)))
    assert paired["pairing"] == 1
    night_rounds.unpair_round(event.pk, 1, None)
    again = json.loads(run("pair_round", club.slug, str(event.pk)))
    assert again["pairing"] == 3
    before = stored(event)
    with pytest.raises(CommandError, match="paired again since pairing 1"):
        run("enter_results", club.slug, str(event.pk), "1", "1-0,0-1", "--pairing", "1")
    assert stored(event) == before
    run("enter_results", club.slug, str(event.pk), "1", "1-0,0-1", "--pairing", "3")
    assert Game.objects.filter(event=event).count() == 2


# --- correct_result ----------------------------------------------------------------------------


def test_correct_result_changes_an_unpublished_night_in_place_and_prints_one_line(club, players):
    event = night(club, players[:4], rounds=3)
    night_rounds.pair_next_round(event.pk, None)
    play(event, 1, [Result.WHITE_WIN, Result.DRAW])
    night_rounds.pair_next_round(event.pk, None)
    board = event.round_boards(1)[1]
    line = run("correct_result", club.slug, str(event.pk), "1", "2", "0-1")
    assert line == (
        f"Round 1 board 2: {board.white.typed_name} – {board.black.typed_name} 1/2 → 0-1"
    )
    assert Board.objects.get(pk=board.pk).game.result == Result.BLACK_WIN
    assert Event.objects.get(pk=event.pk).status == Event.Status.DRAFT


@pytest.mark.parametrize(
    ("round_no", "board", "code", "message"),
    [
        ("1", "9", "1-0", "no such board"),
        ("4", "1", "1-0", "not paired yet"),
        ("1", "1", "2-0", "Unknown result code"),
        ("1", "1", "byeU", "Unknown result code"),
    ],
)
def test_correct_result_refuses_what_does_not_exist_storing_nothing(
    club, players, round_no, board, code, message
):
    event = night(club, players[:4], rounds=3)
    night_rounds.pair_next_round(event.pk, None)
    play(event, 1, [Result.WHITE_WIN, Result.DRAW])
    before = (stored(event), AuditEntry.objects.count())
    with pytest.raises(CommandError, match=message):
        run("correct_result", club.slug, str(event.pk), round_no, board, code)
    assert (stored(event), AuditEntry.objects.count()) == before


def test_correct_result_with_a_stale_pairing_version_stores_nothing(club, players):
    event = night(club, players[:4], rounds=3)
    night_rounds.pair_next_round(event.pk, None)
    play(event, 1, [Result.WHITE_WIN, Result.DRAW])
    before = stored(event)
    with pytest.raises(CommandError, match="paired again"):
        run("correct_result", club.slug, str(event.pk), "1", "1", "0-1", "--pairing", "7")
    assert stored(event) == before
    run("correct_result", club.slug, str(event.pk), "1", "1", "0-1", "--pairing", "1")
    assert event.round_boards(1)[0].game.result == Result.BLACK_WIN


@pytest.mark.parametrize("code", ["-+", "--"])
def test_correct_result_reads_a_code_beginning_with_a_dash_as_a_code(club, players, code):
    event = night(club, players[:4], rounds=3)
    night_rounds.pair_next_round(event.pk, None)
    play(event, 1, [Result.WHITE_WIN, Result.DRAW])
    line = run("correct_result", club.slug, str(event.pk), "1", "1", code, "--pairing", "1")
    assert line.endswith(f"1-0 → {code}")
    assert event.round_boards(1)[0].game.result == code


def test_correct_result_on_a_published_night_replays_the_ladder(club, players):
    event = night(club, players[:4], rounds=1)
    night_rounds.pair_next_round(event.pk, None)
    play(event, 1, [Result.WHITE_WIN, Result.WHITE_WIN])
    night_rounds.publish_night(event.pk, None)
    replay_ladder(club.pk)
    board = event.round_boards(1)[0]
    winner_before = rated_players().get(pk=board.white.player_id).rating
    version = Event.objects.get(pk=event.pk).edit_version
    line = run("correct_result", club.slug, str(event.pk), "1", "1", "0-1")
    assert line.endswith("1-0 → 0-1")
    assert Event.objects.get(pk=event.pk).edit_version == version + 1  # an open page is stale
    club.refresh_from_db()
    assert not club.ladder_is_current  # marked out of date in the same transaction
    replay_ladder(club.pk)
    assert rated_players().get(pk=board.white.player_id).rating < winner_before
    assert Game.objects.get(pk=board.game_id).result == Result.BLACK_WIN


def test_correct_result_twice_on_a_published_night_changes_nothing_the_second_time(club, players):
    event = night(club, players[:4], rounds=1)
    night_rounds.pair_next_round(event.pk, None)
    play(event, 1, [Result.WHITE_WIN, Result.WHITE_WIN])
    night_rounds.publish_night(event.pk, None)
    replay_ladder(club.pk)
    run("correct_result", club.slug, str(event.pk), "1", "1", "0-1")
    replay_ladder(club.pk)
    version = Event.objects.get(pk=event.pk).edit_version
    logged = AuditEntry.objects.count()
    line = run("correct_result", club.slug, str(event.pk), "1", "1", "0-1")
    assert line.endswith("0-1 → 0-1")
    assert Event.objects.get(pk=event.pk).edit_version == version  # no open page turns stale
    assert AuditEntry.objects.count() == logged
    club.refresh_from_db()
    assert club.ladder_is_current  # nothing to replay


def test_audit_sentences_name_both_players_and_the_old_and_new_result(club, players):
    event = night(club, players[:4], rounds=3)
    night_rounds.pair_next_round(event.pk, None)
    board = event.round_boards(1)[0]
    night_rounds.enter_result(event.pk, 1, 1, Result.WHITE_WIN, None)
    night_rounds.enter_result(event.pk, 1, 1, Result.DRAW, None)
    entries = AuditEntry.objects.filter(action="board_result.entered").order_by("id")
    pair = f"{board.white.player.name} – {board.black.player.name}"
    first, second = (text for _entry, text in sentences(list(entries)))
    assert pair in first and "1-0" in first
    assert pair in second and "from 1-0 to 1/2" in second


# --- 6. Publishing part of an evening, taking it back, standings after a round -----------------


def test_publish_event_refuses_unplayed_rounds_unless_partial(club, players):
    event = night(club, players[:4], rounds=3)
    night_rounds.pair_next_round(event.pk, None)
    play(event, 1, [Result.WHITE_WIN, Result.DRAW])
    with pytest.raises(CommandError, match="Only 1 of 3 rounds are played"):
        run("publish_event", club.slug, str(event.pk))
    assert Event.objects.get(pk=event.pk).status == Event.Status.DRAFT
    assert run("publish_event", club.slug, str(event.pk), "--partial").startswith("Published")
    assert Event.objects.get(pk=event.pk).status == Event.Status.PUBLISHED


def test_unpublish_event_takes_a_night_back_to_draft_so_its_rounds_change_again(club, players):
    event = night(club, players[:4], rounds=1)
    night_rounds.pair_next_round(event.pk, None)
    play(event, 1, [Result.WHITE_WIN, Result.DRAW])
    run("publish_event", club.slug, str(event.pk))
    assert (
        run("unpublish_event", club.slug, str(event.pk))
        == f"Unpublished event {event.pk} (Tuesday)"
    )
    assert Event.objects.get(pk=event.pk).status == Event.Status.DRAFT
    night_rounds.enter_result(event.pk, 1, 1, Result.DRAW, None)
    with pytest.raises(CommandError, match="not published"):
        run("unpublish_event", club.slug, str(event.pk))
    with pytest.raises(CommandError, match="No event"):
        run("unpublish_event", club.slug, "999999")


def test_standings_after_a_round_beyond_the_paired_ones_exits_1(club, players):
    event = night(club, players[:4], rounds=3)
    night_rounds.pair_next_round(event.pk, None)
    play(event, 1, [Result.WHITE_WIN, Result.DRAW])
    assert len(json.loads(run("standings", club.slug, str(event.pk), "--after-round", "1"))) == 4
    with pytest.raises(CommandError, match="1 paired rounds: no round 2"):
        run("standings", club.slug, str(event.pk), "--after-round", "2")


@pytest.mark.parametrize("before_the_first", ["0", "-1"])
def test_standings_after_no_round_at_all_exits_1(club, players, before_the_first):
    event = night(club, players[:4], rounds=3)
    night_rounds.pair_next_round(event.pk, None)
    play(event, 1, [Result.WHITE_WIN, Result.DRAW])
    with pytest.raises(CommandError, match="counts from 1"):
        run("standings", club.slug, str(event.pk), "--after-round", before_the_first)
