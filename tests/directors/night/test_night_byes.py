"""Byes as arbiters give them, and the night's small things (issue 36, items 4 and 5).

Requested byes of 0, ½ or 1 point as the club and the evening allow; a late entrant's missed
rounds as absences or half-point byes; each bye unrated and exported with its own TRF code;
publishing with rounds left and pairing a hand-changed round again asked first; never-pair
couples checked on hand swaps; the hand-change mark cleared when a swap is undone.
"""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse

from clubs.models import AuditEntry, Board, Club, Event, Game, NeverPair, PairingSystem, Round
from clubs.results import Result
from directors.audit.sentences import sentences
from directors.edits import PublishingError
from directors.night import changes, evening
from directors.night import rounds as night_rounds
from ladder.replay import replay_ladder
from tests.directors.night.test_night_exports import assert_exports_true
from tests.factories import make_players, rated_players, set_standing

pytestmark = pytest.mark.django_db

NAMES = ["Ana Alves", "Ben Brook", "Cleo Cruz", "Dev Dutta", "Eva Engel", "Finn Falk"]


@pytest.fixture
def roster(club):
    players = make_players(club, NAMES)
    for rating, player in zip([1900, 1800, 1700, 1600, 1500, 1400], players, strict=True):
        set_standing(player.pk, rating=rating, rated_games=20, provisional=False)
    return players


@pytest.fixture
def signed_in(client, director):
    client.force_login(director)
    return client


def night(club: Club, players, rounds: int = 3) -> Event:
    return evening.start_event(
        club, name="Tuesday night", date=dt.date(2026, 3, 3), system=PairingSystem.SWISS,
        rounds=rounds, players=players, user=None, first_colour="white",
    )  # fmt: skip


def url(name, event, *more):
    return reverse(name, args=[event.club.slug, event.pk, *more])


def said(response):
    return [str(m) for m in get_messages(response.wsgi_request)]


def entry_of(event: Event, name: str):
    return event.entries.get(typed_name=name)


def play(event: Event, number: int) -> None:
    for board in event.round_boards(number):
        if not board.is_bye and board.game is None:
            night_rounds.enter_result(event.pk, number, board.number, Result.WHITE_WIN, None)


def points(event: Event, name: str, after: int | None = None) -> float:
    entry = entry_of(event, name)
    return next(v.points for v in night_rounds.standings(event, after) if v.player == entry.pk)


def said_in_log(entries) -> list[str]:
    return [text for _entry, text in sentences(list(entries))]


def allow(club: Club, letters: str) -> None:
    Club.objects.filter(pk=club.pk).update(requestable_byes=letters)
    club.refresh_from_db()


# --- Requested byes ------------------------------------------------------------------------------


def test_an_evening_starts_with_the_clubs_byes_and_allows_only_those(club, roster):
    allow(club, "ZF")
    event = night(club, roster[:4])
    assert event.requestable_byes == "ZF"
    ana = entry_of(event, "Ana Alves")
    with pytest.raises(PublishingError, match="0 points, 1 point"):
        evening.request_bye(event.pk, ana.pk, 1, None, bye="H")
    assert not Game.objects.filter(event=event).exists()


@pytest.mark.parametrize(("bye", "result", "worth"), [
    ("Z", Result.BYE_ZERO, 0.0), ("H", Result.BYE_HALF, 0.5), ("F", Result.BYE_FULL, 1.0),
])  # fmt: skip
def test_a_requested_bye_scores_its_worth_and_its_player_is_not_paired(
    club, roster, bye, result, worth
):
    allow(club, "ZHF")
    event = night(club, roster[:5])
    eva = entry_of(event, "Eva Engel")
    evening.request_bye(event.pk, eva.pk, 1, None, bye=bye)
    night_rounds.pair_next_round(event.pk, None)
    boards = event.round_boards(1)
    # Four paired, no pairing-allocated bye: Eva's own bye took her out of the round.
    assert len(boards) == 2 and all(not b.is_bye for b in boards)
    assert eva.pk not in {b.white_id for b in boards} | {b.black_id for b in boards}
    assert Game.objects.get(event=event, white=eva, round=1).result == result
    play(event, 1)
    assert points(event, "Eva Engel") == worth


def test_asking_again_with_another_worth_changes_the_bye(club, roster):
    allow(club, "ZHF")
    event = night(club, roster[:4])
    ana = entry_of(event, "Ana Alves")
    evening.request_bye(event.pk, ana.pk, 2, None, bye="H")
    evening.request_bye(event.pk, ana.pk, 2, None, bye="F")
    assert list(Game.objects.filter(event=event).values_list("result", flat=True)) == [
        Result.BYE_FULL
    ]
    evening.request_bye(event.pk, ana.pk, 2, None, bye="F")  # asked twice: logged once
    logged = AuditEntry.objects.filter(action="bye.requested").order_by("pk")
    assert [entry.details["bye"] for entry in logged] == ["H", "F"]
    assert "a full-point bye in round 2" in said_in_log(logged)[-1]


def test_an_evenings_byes_are_changed_on_its_own_and_never_to_none(club, roster):
    event = night(club, roster[:4])
    assert evening.set_requestable_byes(event.pk, ["F", "Z", "Z"], None) == "ZF"
    club.refresh_from_db()
    assert club.requestable_byes == "H"  # the club's default is the club's
    for forged in ([], ["X"], "HH?"):
        with pytest.raises(PublishingError):
            evening.set_requestable_byes(event.pk, forged, None)
    assert Event.objects.get(pk=event.pk).requestable_byes == "ZF"


# --- Late entrants ---------------------------------------------------------------------------


@pytest.mark.parametrize(("missed", "result", "worth"), [
    ("Z", Result.BYE_ZERO, 0.0), ("H", Result.BYE_HALF, 1.0),
])  # fmt: skip
def test_a_late_entrants_missed_rounds_are_absences_or_half_point_byes(
    club, roster, missed, result, worth
):
    event = night(club, roster[:5], rounds=4)
    for number in (1, 2):
        night_rounds.pair_next_round(event.pk, None)
        play(event, number)
    entry = evening.add_entrant(event.pk, roster[5], None, missed=missed)
    assert entry.joined_round == 3
    games = Game.objects.filter(event=event, white=entry).order_by("round")
    assert [(g.round, g.black_id, g.result) for g in games] == [
        (1, None, result),
        (2, None, result),
    ]
    assert points(event, "Finn Falk") == worth
    night_rounds.pair_next_round(event.pk, None)
    assert entry.pk in {b.white_id for b in event.round_boards(3)} | {
        b.black_id for b in event.round_boards(3)
    }


def test_a_late_entrants_missed_rounds_follow_the_clubs_setting_unless_chosen(club, roster):
    Club.objects.filter(pk=club.pk).update(missed_rounds="H")
    event = night(club, roster[:4])
    night_rounds.pair_next_round(event.pk, None)
    eva = evening.add_entrant(event.pk, roster[4], None)
    finn = evening.add_entrant(event.pk, roster[5], None, missed="Z")
    assert Game.objects.get(event=event, white=eva).result == Result.BYE_HALF
    assert Game.objects.get(event=event, white=finn).result == Result.BYE_ZERO
    with pytest.raises(PublishingError):
        evening.add_entrant(event.pk, make_players(club, ["Gus Gray"])[0], None, missed="F")
    text = said_in_log(AuditEntry.objects.filter(action="entry.added").order_by("pk"))
    assert "half-point bye for each of the 1 rounds" in text[0]
    assert "absent from the 1 rounds" in text[1]


def test_a_late_entrant_before_round_one_misses_nothing(club, roster):
    event = night(club, roster[:4])
    entry = evening.add_entrant(event.pk, roster[4], None, missed="H")
    assert entry.joined_round is None
    assert not Game.objects.filter(event=event).exists()


def test_pairing_a_round_again_after_a_late_arrival_pairs_them_in_it(club, roster):
    """The usual order at a club: round 2 is paired, a latecomer walks in, the director
    adds them and pairs round 2 again: they play it, and only round 1 stays missed."""
    event = night(club, roster[:4])
    night_rounds.pair_next_round(event.pk, None)
    play(event, 1)
    night_rounds.pair_next_round(event.pk, None)
    eva = evening.add_entrant(event.pk, roster[4], None, missed="H")
    assert sorted(Game.objects.filter(white=eva).values_list("round", flat=True)) == [1, 2]
    night_rounds.unpair_round(event.pk, 2, None)
    eva.refresh_from_db()
    assert eva.joined_round == 2
    assert list(Game.objects.filter(white=eva).values_list("round", "result")) == [
        (1, Result.BYE_HALF)
    ]
    night_rounds.pair_next_round(event.pk, None)
    seated = {b.white_id for b in event.round_boards(2)} | {
        b.black_id for b in event.round_boards(2)
    }
    assert eva.pk in seated


# --- Unrated, exported, read back, tie-broken ----------------------------------------------------


def test_every_bye_is_exported_with_its_trf_code_read_back_and_never_rated(club, roster):
    """Z, H, F requested or missed, U given by the pairing: the TRF and the CSV read back as
    the same games, and the ladder counts none of them as a rated game."""
    allow(club, "ZHF")
    event = night(club, roster[:5], rounds=3)
    ana, ben, cleo = (entry_of(event, n) for n in ("Ana Alves", "Ben Brook", "Cleo Cruz"))
    evening.request_bye(event.pk, ana.pk, 2, None, bye="Z")
    evening.request_bye(event.pk, ben.pk, 2, None, bye="F")
    evening.request_bye(event.pk, cleo.pk, 3, None, bye="H")
    for number in (1, 2, 3):
        night_rounds.pair_next_round(event.pk, None)
        play(event, number)
        if number == 1:
            evening.add_entrant(event.pk, roster[5], None, missed="Z")
    results = set(Game.objects.filter(event=event, black=None).values_list("result", flat=True))
    assert {Result.BYE_ZERO, Result.BYE_HALF, Result.BYE_FULL, Result.BYE_PAIRING} <= results
    trf = evening_trf(event)
    for code in ("0000 - Z", "0000 - H", "0000 - F", "0000 - U"):
        assert code in trf, code
    assert_exports_true(event)
    played = {
        entry.player_id: sum(
            1 for g in Game.objects.filter(event=event).exclude(black=None)
            if entry.pk in (g.white_id, g.black_id)
        )
        for entry in event.entries.all()
    }  # fmt: skip
    night_rounds.publish_night(event.pk, None)
    replay_ladder(club.pk, full=True)
    # The replay counts the games over the board only (the roster's 20 were no event).
    for player in rated_players().filter(club=club, pk__in=played):
        assert player.rated_games == played[player.pk], player.name


def evening_trf(event: Event) -> str:
    from members.files.event_export import event_trf

    return event_trf(Event.objects.get(pk=event.pk), viewer_is_director=True)


# --- Publishing with rounds left -----------------------------------------------------------------


def test_publishing_with_rounds_left_asks_first_and_says_how_many_are_rated(
    signed_in, club, roster
):
    event = night(club, roster[:5], rounds=5)
    night_rounds.pair_next_round(event.pk, None)
    play(event, 1)
    page = signed_in.post(url("night_publish", event))
    html = page.content.decode()
    assert page.status_code == 200 and 'id="confirm-publish"' in html
    assert "Only 1 of 5 rounds is paired" in html and "Publish and rate 1 round" in html
    assert Event.objects.get(pk=event.pk).status == Event.Status.DRAFT
    # A confirmation from before another round was paired is asked again.
    night_rounds.pair_next_round(event.pk, None)
    play(event, 2)
    again = signed_in.post(url("night_publish", event), {"confirm": "1", "paired": "1"})
    assert 'id="confirm-publish"' in again.content.decode()
    assert "2 rounds are paired now" in " ".join(said(again))
    assert Event.objects.get(pk=event.pk).status == Event.Status.DRAFT
    done = signed_in.post(url("night_publish", event), {"confirm": "1", "paired": "2"})
    assert done.status_code == 302
    assert Event.objects.get(pk=event.pk).status == Event.Status.PUBLISHED


def test_publishing_every_round_played_needs_no_second_step(signed_in, club, roster):
    event = night(club, roster[:4], rounds=1)
    night_rounds.pair_next_round(event.pk, None)
    play(event, 1)
    assert signed_in.post(url("night_publish", event)).status_code == 302
    assert Event.objects.get(pk=event.pk).status == Event.Status.PUBLISHED


def test_the_publish_command_keeps_its_behaviour(club, roster):
    event = night(club, roster[:4], rounds=3)
    night_rounds.pair_next_round(event.pk, None)
    play(event, 1)
    with pytest.raises(PublishingError):
        night_rounds.publish_night(event.pk, None, partial=False)
    assert night_rounds.publish_night(event.pk, None).status == Event.Status.PUBLISHED


# --- Pairing a hand-changed round again ----------------------------------------------------------


def swap(event: Event, first: int, second: int, **options) -> None:
    changes.swap_players(event.pk, first, second, None, **options)


def test_pairing_a_round_with_hand_changes_again_asks_first(signed_in, club, roster):
    event = night(club, roster[:4])
    night_rounds.pair_next_round(event.pk, None)
    one, two = event.round_boards(1)
    swap(event, one.white_id, two.white_id)
    page = signed_in.post(url("night_unpair", event), {"round": 1})
    html = page.content.decode()
    assert 'id="confirm-unpair"' in html and "Boards 1, 2 of round 1 were changed by hand" in html
    assert event.boards.filter(round=1).count() == 2
    # Confirmed against a pairing that changed since (another tab): refused, nothing lost.
    stale = Round.pairing_of(event.pk, 1) - 1
    refused = signed_in.post(
        url("night_unpair", event), {"round": 1, "confirm": "1", "pairing": stale}
    )
    assert "changed since your screen showed it" in " ".join(said(refused))
    assert event.boards.filter(round=1, changed_by_director=True).count() == 2
    pairing = Round.pairing_of(event.pk, 1)
    signed_in.post(url("night_unpair", event), {"round": 1, "confirm": "1", "pairing": pairing})
    assert not event.boards.filter(round=1).exists()


def test_pairing_a_round_without_hand_changes_again_is_one_tap(signed_in, club, roster):
    event = night(club, roster[:4])
    night_rounds.pair_next_round(event.pk, None)
    assert signed_in.post(url("night_unpair", event), {"round": 1}).status_code == 302
    assert not event.boards.exists()


# --- Hand swaps: never-pair couples and the mark -------------------------------------------------


def test_a_hand_swap_seating_a_never_pair_couple_asks_with_the_reason(signed_in, club, roster):
    event = night(club, roster[:4])
    night_rounds.pair_next_round(event.pk, None)
    one, two = event.round_boards(1)
    # Keep apart one's white and two's black: swapping one's black with two's black seats them.
    low, high = sorted([one.white.player, two.black.player], key=lambda p: p.pk)
    NeverPair.objects.create(club=club, first=low, second=high)
    before = list(event.boards.values_list("white_id", "black_id"))
    with pytest.raises(changes.NeedsConfirming, match="are on the never-pair list"):
        swap(event, one.black_id, two.black_id)
    assert list(event.boards.values_list("white_id", "black_id")) == before
    pairing = Round.pairing_of(event.pk, 1)
    response = signed_in.post(
        url("night_hand_change", event),
        {"first": one.black_id, "second": two.black_id, "pairing": pairing},
    )
    assert "are on the never-pair list" in " ".join(said(response))
    assert "confirm=1" in response.url
    signed_in.post(
        url("night_hand_change", event),
        {"first": one.black_id, "second": two.black_id, "pairing": pairing, "confirmed": "on"},
    )
    seated = Board.objects.get(event=event, round=1, number=1)
    assert {seated.white_id, seated.black_id} == {one.white_id, two.black_id}


def test_an_evenings_own_never_pair_couple_is_checked_too(club, roster):
    event = night(club, roster[:4])
    night_rounds.pair_next_round(event.pk, None)
    one, two = event.round_boards(1)
    changes.set_never_pair(club, one.white.player, two.white.player, None, event=event)
    with pytest.raises(changes.NeedsConfirming, match="never-pair"):
        swap(event, one.black_id, two.white_id)


def test_a_swap_undone_clears_the_changed_by_the_director_mark(club, roster):
    event = night(club, roster[:4])
    night_rounds.pair_next_round(event.pk, None)
    one, two = event.round_boards(1)
    swap(event, one.white_id, two.white_id)
    assert event.boards.filter(changed_by_director=True).count() == 2
    swap(event, one.white_id, two.white_id)
    assert not event.boards.filter(changed_by_director=True).exists()
    assert "changed by the director" not in evening_trf(event)
    changes.swap_colours(event.pk, 1, None, confirmed=True)
    assert list(event.boards.filter(changed_by_director=True).values_list("number", flat=True)) == [
        1
    ]
    changes.swap_colours(event.pk, 1, None, confirmed=True)
    assert not event.boards.filter(changed_by_director=True).exists()


def test_a_round_paired_before_the_engines_boards_were_kept_keeps_its_marks(club, roster):
    event = night(club, roster[:4])
    night_rounds.pair_next_round(event.pk, None)
    Round.objects.filter(event=event).update(engine_boards={})
    one, two = event.round_boards(1)
    swap(event, one.white_id, two.white_id)
    swap(event, one.white_id, two.white_id)
    assert event.boards.filter(changed_by_director=True).count() == 2


# --- The screens ---------------------------------------------------------------------------------


def test_the_evening_page_offers_only_the_byes_allowed_and_records_their_worth(
    signed_in, club, roster
):
    allow(club, "ZHF")
    event = night(club, roster[:4])
    html = signed_in.get(url("night_evening", event)).content.decode()
    assert '<option value="F">1 point</option>' in html and "Bye in round" in html
    cleo = entry_of(event, "Cleo Cruz")
    response = signed_in.post(url("night_bye", event), {"entry": cleo.pk, "round": 2, "bye": "F"})
    assert "The full-point bye is recorded." in said(response)
    assert (
        "Full-point bye in round 2." in signed_in.get(url("night_evening", event)).content.decode()
    )
    # The evening allows ½ only from now on: a forged 0 is refused, nothing stored.
    signed_in.post(url("night_byes", event), {"byes": ["H"]})
    html = signed_in.get(url("night_evening", event)).content.decode()
    assert "Half-point bye in round" in html and '<option value="F">' not in html
    refused = signed_in.post(url("night_bye", event), {"entry": cleo.pk, "round": 3, "bye": "Z"})
    assert any("allows these byes only" in m for m in said(refused))
    assert not Game.objects.filter(event=event, round=3).exists()
    none = signed_in.post(url("night_byes", event), {})
    assert "Allow at least one bye: 0, ½ or 1 point." in said(none)
    assert Event.objects.get(pk=event.pk).requestable_byes == "H"


def test_an_old_bye_form_without_a_worth_still_records_a_half_point_bye(signed_in, club, roster):
    event = night(club, roster[:4])
    cleo = entry_of(event, "Cleo Cruz")
    signed_in.post(url("night_bye", event), {"entry": cleo.pk, "round": 2})
    assert Game.objects.get(event=event, white=cleo).result == Result.BYE_HALF


def test_a_late_arrival_is_added_with_the_directors_choice_for_missed_rounds(
    signed_in, club, roster
):
    event = night(club, roster[:4])
    night_rounds.pair_next_round(event.pk, None)
    html = signed_in.get(url("night_evening", event) + "?find=Eva").content.decode()
    assert '<select name="missed">' in html
    signed_in.post(url("night_add", event), {"player": roster[4].pk, "missed": "H"})
    eva = entry_of(event, "Eva Engel")
    assert Game.objects.get(event=event, white=eva).result == Result.BYE_HALF
    html = signed_in.get(url("night_evening", event)).content.decode()
    assert "Joined in round 2: a half-point bye for the round before." in html
    forged = signed_in.post(url("night_add", event), {"player": roster[5].pk, "missed": "F"})
    assert forged.status_code == 302
    assert not event.entries.filter(player=roster[5]).exists()


def test_the_clubs_night_settings_hold_the_byes_and_the_missed_rounds(signed_in, club):
    page = signed_in.get(reverse("club_settings", args=[club.slug])).content.decode()
    assert 'id="byes"' in page and 'action="/manage/' in page
    target = reverse("night_bye_settings", args=[club.slug])
    signed_in.post(target, {"byes": ["Z", "H", "F"], "missed": "H"})
    club.refresh_from_db()
    assert (club.requestable_byes, club.missed_rounds) == ("ZHF", "H")
    logged = AuditEntry.objects.get(action="bye_settings.changed")
    assert "0 points, ½ point, 1 point" in said_in_log([logged])[0]
    for forged in ({"byes": []}, {"byes": ["X"]}, {"byes": ["H"], "missed": "F"}):
        signed_in.post(target, forged)
    club.refresh_from_db()
    assert (club.requestable_byes, club.missed_rounds) == ("ZHF", "H")
    assert AuditEntry.objects.filter(action="bye_settings.changed").count() == 1


def test_a_published_evening_is_not_asked_about_again_but_refused(signed_in, club, roster):
    event = night(club, roster[:5], rounds=3)
    night_rounds.pair_next_round(event.pk, None)
    play(event, 1)
    night_rounds.publish_night(event.pk, None)
    response = signed_in.post(url("night_publish", event))
    assert response.status_code == 302
    assert "This event is already published." in said(response)
