"""replay_ladder on the database: stored results, incremental replays, the change helper."""

import datetime as dt
import gc

import pytest
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clubs.models import Club, Game, Ladder
from clubs.results import Result
from directors.events.publishing import delete_event, restore_event
from ladder.changes import (
    Both,
    LadderInput,
    OnPages,
    club_changed,
    combined,
    request_full_rebuild,
)
from ladder.jobs import sweep_ladders
from ladder.models import LadderReplay, PlayerEventResult, RatedEvent
from ladder.replay import replay_ladder, verify_ladder
from tests.factories import first_ladder, make_club, make_event, make_players, standing

pytestmark = pytest.mark.django_db

W, D, B = Result.WHITE_WIN, Result.DRAW, Result.BLACK_WIN


def changed(club, run=True):
    """Commit a ladder change the way views do."""
    with transaction.atomic():
        club_changed(club.pk, LadderInput())
    club.refresh_from_db()
    if run:
        replay_ladder(club.pk)
        club.refresh_from_db()


@pytest.fixture
def four(club):
    return make_players(club, ["Ann", "Bob", "Cid", "Dee"])


def test_a_replay_stores_each_events_results_beside_it(club, four):
    ann, bob, cid, dee = four
    event = make_event(club, [(1, ann, bob, W), (1, cid, dee, D), (2, ann, None, Result.BYE_FULL)])
    changed(club)
    rows = {r.player.name: r for r in PlayerEventResult.objects.filter(event=event)}
    assert set(rows) == {"Ann", "Bob", "Cid", "Dee"}
    assert rows["Ann"].pre_rating == 1200
    assert rows["Ann"].change == pytest.approx(20.0)  # K 40 x (1 - 0.5)
    assert rows["Ann"].games_counted == 1
    outcomes = RatedEvent.objects.get(event=event).game_outcomes
    bye = Game.objects.get(event=event, black__isnull=True)
    assert outcomes[str(bye.pk)] == [False, False, "bye"]
    played = Game.objects.get(event=event, white__player=ann, black__isnull=False)
    assert str(played.pk) not in outcomes  # rated for both sides: not stored
    ann = standing(ann)
    assert ann.rating == pytest.approx(1220.0)
    assert ann.rated_games == 1
    assert ann.provisional
    assert club.ladder_is_current


def test_events_replay_in_date_then_order_in_day(club, four):
    ann, bob, *_ = four
    later = make_event(club, [(1, ann, bob, W)], date=dt.date(2026, 2, 1), name="later")
    same_day_second = make_event(club, [(1, bob, ann, W)], date=dt.date(2026, 1, 1), order_in_day=2)
    same_day_first = make_event(club, [(1, ann, bob, D)], date=dt.date(2026, 1, 1), order_in_day=1)
    changed(club)
    positions = dict(RatedEvent.objects.values_list("event_id", "position"))
    assert positions == {same_day_first.pk: 0, same_day_second.pk: 1, later.pk: 2}


def test_a_correction_replays_from_the_changed_event_only(club, four):
    ann, bob, cid, dee = four
    events = [
        make_event(club, [(1, ann, bob, W), (1, cid, dee, B)], date=dt.date(2026, 1, d))
        for d in range(1, 6)
    ]
    changed(club)
    game = events[3].games.first()
    game.result = D
    with transaction.atomic():
        game.save()
        club_changed(club.pk, LadderInput())
    replay_ladder(club.pk)
    last = LadderReplay.objects.order_by("-pk").first()
    assert (last.from_position, last.events_rated) == (3, 2)
    assert verify_ladder(club) == []


def test_a_variant_game_is_stored_as_played_and_never_rated(club, four):
    ann, bob, cid, dee = four
    event = make_event(club, [(1, ann, bob, W), (1, cid, dee, W)])
    Game.objects.filter(event=event, white__player=cid).update(variant="Chess960")
    changed(club)
    variant = Game.objects.get(event=event, white__player=cid)
    outcomes = RatedEvent.objects.get(event=event).game_outcomes
    assert outcomes[str(variant.pk)] == [False, False, "variant"]
    for player in (cid, dee):
        player = standing(player)
        assert player.rated_games == 0
    ann = standing(ann)
    assert ann.rated_games == 1
    assert verify_ladder(club) == []


def test_marking_a_game_as_a_variant_replays_from_its_event(club, four):
    ann, bob, cid, dee = four
    events = [
        make_event(club, [(1, ann, bob, W), (1, cid, dee, B)], date=dt.date(2026, 1, d))
        for d in range(1, 6)
    ]
    changed(club)
    Game.objects.filter(pk=events[2].games.first().pk).update(variant="Atomic")
    changed(club)
    last = LadderReplay.objects.order_by("-pk").first()
    assert (last.from_position, last.events_rated) == (2, 3)
    ann = standing(ann)
    assert ann.rated_games == 4
    assert verify_ladder(club) == []


def test_a_date_hint_gives_the_same_ladder_as_comparing_every_event(club, four):
    ann, bob, cid, dee = four
    events = [
        make_event(club, [(1, ann, bob, W), (1, cid, dee, B)], date=dt.date(2026, 1, d))
        for d in range(1, 6)
    ]
    changed(club)
    with transaction.atomic():
        events[2].games.update(result=D)
        club_changed(club.pk, LadderInput(from_date=events[2].date))
    club.refresh_from_db()
    assert club.replay_from == events[2].date
    replay_ladder(club.pk)
    last = LadderReplay.objects.order_by("-pk").first()
    assert (last.from_position, last.events_rated) == (2, 3)
    club.refresh_from_db()
    assert club.replay_from is None
    assert verify_ladder(club) == []


def test_the_earliest_of_several_hints_wins_and_a_change_without_one_keeps_it(club):
    with transaction.atomic():
        club_changed(club.pk, LadderInput(from_date=dt.date(2026, 3, 1)))
        club_changed(club.pk, LadderInput(from_date=dt.date(2026, 2, 1)))
        club_changed(club.pk, LadderInput(from_date=dt.date(2026, 4, 1)))
    club.refresh_from_db()
    assert club.replay_from == dt.date(2026, 2, 1)
    with transaction.atomic():
        club_changed(club.pk, LadderInput())
    club.refresh_from_db()
    assert club.replay_from == dt.date(2026, 2, 1)


def test_a_hint_that_is_too_late_cannot_leave_a_stale_ladder(club, four):
    ann, bob, cid, dee = four
    events = [
        make_event(club, [(1, ann, bob, W), (1, cid, dee, B)], date=dt.date(2026, 1, d))
        for d in range(1, 6)
    ]
    changed(club)
    with transaction.atomic():
        events[0].games.update(result=D)
        # Wrong: the change is to the first event, the hint names the fourth.
        club_changed(club.pk, LadderInput(from_date=events[3].date))
    replay_ladder(club.pk)
    last = LadderReplay.objects.order_by("-pk").first()
    assert (last.from_position, last.events_rated) == (0, 5)
    club.refresh_from_db()
    assert club.ladder_is_current
    assert verify_ladder(club) == []


def test_a_hint_that_is_too_early_only_starts_the_replay_earlier(club, four):
    ann, bob, cid, dee = four
    events = [
        make_event(club, [(1, ann, bob, W), (1, cid, dee, B)], date=dt.date(2026, 1, d))
        for d in range(1, 6)
    ]
    changed(club)
    with transaction.atomic():
        events[3].games.update(result=D)
        club_changed(club.pk, LadderInput(from_date=events[1].date))
    replay_ladder(club.pk)
    last = LadderReplay.objects.order_by("-pk").first()
    assert (last.from_position, last.events_rated) == (1, 4)
    club.refresh_from_db()
    assert verify_ladder(club) == []


def test_a_change_without_a_hint_replays_from_the_first_changed_event(club, four):
    ann, bob, cid, dee = four
    events = [
        make_event(club, [(1, ann, bob, W), (1, cid, dee, B)], date=dt.date(2026, 1, d))
        for d in range(1, 6)
    ]
    changed(club)
    with transaction.atomic():
        events[2].games.update(result=D)
        club_changed(club.pk, LadderInput())
    replay_ladder(club.pk)
    last = LadderReplay.objects.order_by("-pk").first()
    assert (last.from_position, last.events_rated) == (2, 3)
    club.refresh_from_db()
    assert verify_ladder(club) == []


def test_the_door_moves_the_versions_a_change_names(club):
    club.refresh_from_db()
    data, pages = first_ladder(club).data_version, club.pages_version
    club_changed(club.pk, OnPages())  # a shown-only change needs no transaction
    club.refresh_from_db()
    assert (first_ladder(club).data_version, club.pages_version) == (data, pages + 1)
    with transaction.atomic():
        club_changed(club.pk, Both(LadderInput(), OnPages()))
    club.refresh_from_db()
    assert (first_ladder(club).data_version, club.pages_version) == (data + 1, pages + 2)
    # A change that names nothing cannot be written: there is no such value to pass.
    with pytest.raises(TypeError):
        club_changed(club.pk)
    with pytest.raises(TypeError):
        club_changed(club.pk, None)


def test_a_write_that_finds_what_it_changed_passes_one_change_or_none():
    # The callers that decide each part as they go (a player's edit, a draft's details, the
    # names step) call the door only when one part is there.
    assert combined(None, None) is None
    assert combined(LadderInput(), None) == LadderInput()
    assert combined(None, OnPages()) == OnPages()
    assert combined(LadderInput(), OnPages()) == Both(LadderInput(), OnPages())


def test_deleting_and_restoring_an_event_moves_the_ladder_and_back(
    club, four, django_capture_on_commit_callbacks
):
    ann, bob, *_ = four
    make_event(club, [(1, ann, bob, W)], date=dt.date(2026, 1, 1))
    second = make_event(club, [(1, ann, bob, W)], date=dt.date(2026, 1, 2))
    changed(club)
    ann = standing(ann)
    with_both = ann.rating
    with django_capture_on_commit_callbacks(execute=True):
        second = delete_event(second.pk, second.edit_version, None)
    ann = standing(ann)
    assert ann.rated_games == 1
    assert ann.rating < with_both
    with django_capture_on_commit_callbacks(execute=True):
        restore_event(second.pk, second.edit_version, None)
    ann = standing(ann)
    assert ann.rating == pytest.approx(with_both)
    assert verify_ladder(Club.objects.get(pk=club.pk)) == []


def test_the_change_helper_counts_up_and_queues_one_replay_on_commit(
    club, four, django_capture_on_commit_callbacks
):
    ann, bob, *_ = four
    make_event(club, [(1, ann, bob, W)])
    with django_capture_on_commit_callbacks() as callbacks, transaction.atomic():
        club_changed(club.pk, LadderInput())
    club.refresh_from_db()
    assert first_ladder(club).data_version == 1 and first_ladder(club).built_version == 0
    assert first_ladder(club).out_of_date_since is not None
    assert len(callbacks) == 1


def test_a_rolled_back_change_queues_nothing_and_changes_no_counter(
    club, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks() as callbacks:
        try:
            with transaction.atomic():
                club_changed(club.pk, LadderInput())
                raise RuntimeError("the write failed")
        except RuntimeError:
            pass
    club.refresh_from_db()
    assert first_ladder(club).data_version == 0
    assert callbacks == []


@pytest.mark.django_db(transaction=True)
def test_the_change_helper_refuses_to_run_outside_a_transaction(club):
    with pytest.raises(RuntimeError, match=r"inside transaction\.atomic"):
        club_changed(club.pk, LadderInput())


def test_a_ladder_behind_its_data_says_it_is_being_recalculated(client, club, four):
    ann, bob, *_ = four
    make_event(club, [(1, ann, bob, W)])
    changed(club, run=False)
    page = client.get(f"/c/{club.slug}/s/{club.secret}/").content.decode()
    assert "being recalculated" in page
    replay_ladder(club.pk)
    page = client.get(f"/c/{club.slug}/s/{club.secret}/").content.decode()
    assert "being recalculated" not in page


def test_a_replay_with_nothing_to_do_does_nothing(club, four):
    ann, bob, *_ = four
    make_event(club, [(1, ann, bob, W)])
    changed(club)
    assert replay_ladder(club.pk) is False
    assert LadderReplay.objects.count() == 1


@pytest.mark.parametrize("enabled", [True, False])
def test_a_replay_leaves_the_cycle_collector_as_it_found_it(club, four, enabled):
    ann, bob, *_ = four
    make_event(club, [(1, ann, bob, W)])
    was_enabled = gc.isenabled()
    (gc.enable if enabled else gc.disable)()
    try:
        assert replay_ladder(club.pk, full=True)
        assert gc.isenabled() is enabled
    finally:
        (gc.enable if was_enabled else gc.disable)()


def test_rebuild_request_replays_from_the_first_event(club, four):
    ann, bob, *_ = four
    for day in (1, 2, 3):
        make_event(club, [(1, ann, bob, W)], date=dt.date(2026, 1, day))
    changed(club)
    with transaction.atomic():
        request_full_rebuild(club.pk)
    replay_ladder(club.pk)
    last = LadderReplay.objects.order_by("-pk").first()
    assert (last.from_position, last.events_rated) == (0, 3)
    club.refresh_from_db()
    assert not first_ladder(club).full_rebuild_requested


def test_verify_reports_a_tampered_rating(club, four):
    ann, bob, *_ = four
    make_event(club, [(1, ann, bob, W)])
    changed(club)
    PlayerEventResult.objects.filter(player=ann).update(post_rating=1999)
    differences = verify_ladder(club)
    assert any("player" in d and "1999" in d for d in differences)


def test_the_sweep_requeues_only_ladders_out_of_date_for_long_enough(club, four):
    from django.utils import timezone

    ann, bob, *_ = four
    make_event(club, [(1, ann, bob, W)])
    changed(club, run=False)
    assert sweep_ladders(older_than_seconds=3600) == []
    Ladder.objects.filter(club_id=club.pk).update(
        out_of_date_since=timezone.now() - dt.timedelta(hours=2)
    )
    assert sweep_ladders(older_than_seconds=3600) == [club.pk]
    club.refresh_from_db()
    assert club.ladder_is_current  # without Redis the sweep replays in-process


def test_settings_changes_replay_everything_with_the_new_numbers(club, four):
    ann, bob, *_ = four
    make_event(club, [(1, ann, bob, W)])
    changed(club)
    Ladder.objects.filter(club_id=club.pk).update(rating_settings={"k_high": 60})
    changed(club)
    ann = standing(ann)
    assert ann.rating == pytest.approx(1230.0)


# A history: events of (round, white index, black index or None, result).
results = st.sampled_from(
    [W, D, B, W, D, B, Result.WHITE_FORFEIT_WIN, Result.DOUBLE_FORFEIT, Result.UNRATED_DRAW]
)
game_specs = st.tuples(st.integers(0, 5), st.integers(0, 5), results).filter(lambda g: g[0] != g[1])
event_specs = st.tuples(
    st.integers(1, 28), st.booleans(), st.lists(game_specs, min_size=1, max_size=5)
)
corrections = st.lists(
    st.tuples(st.sampled_from(["result", "date", "delete", "rated"]), st.integers(0, 50), results),
    min_size=1,
    max_size=4,
)


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(history=st.lists(event_specs, min_size=1, max_size=6), fixes=corrections)
def test_incremental_replays_equal_a_replay_from_the_beginning(history, fixes):
    club = make_club(slug=f"prop-{Club.objects.count()}")
    players = make_players(club, [f"P{i}" for i in range(6)])
    events = []
    for day, rated, games in history:
        events.append(
            make_event(
                club,
                [(1 + n, players[w], players[b], r) for n, (w, b, r) in enumerate(games)],
                date=dt.date(2026, 1, day),
                rated=rated,
            )
        )
    changed(club)
    for kind, pick, result in fixes:
        event = events[pick % len(events)]
        event.refresh_from_db()
        earliest = event.date
        with transaction.atomic():
            if kind == "result":
                event.games.filter(pk=event.games.first().pk).update(result=result)
            elif kind == "date":
                new_date = dt.date(2026, 2, pick % 28 + 1)
                type(event).objects.filter(pk=event.pk).update(date=new_date)
                earliest = min(earliest, new_date)
            elif kind == "delete":
                type(event).objects.filter(pk=event.pk).update(deleted_at=dt.datetime.now(dt.UTC))
            else:
                type(event).objects.filter(pk=event.pk).update(rated=not event.rated)
            # Half the corrections give the replay a hint, half leave it to compare everything.
            club_changed(club.pk, LadderInput(from_date=earliest if pick % 2 else None))
        replay_ladder(club.pk)
        club.refresh_from_db()
        assert verify_ladder(club) == []
    incremental = sorted(
        PlayerEventResult.objects.filter(club=club).values_list(
            "event_id", "player_id", "post_rating"
        )
    )
    replay_ladder(club.pk, full=True)
    full = sorted(
        PlayerEventResult.objects.filter(club=club).values_list(
            "event_id", "player_id", "post_rating"
        )
    )
    assert incremental == full


def test_the_rebuild_button_replays_from_the_first_event(
    client, club, director, four, django_capture_on_commit_callbacks
):
    ann, bob, *_ = four
    make_event(club, [(1, ann, bob, W)])
    changed(club)
    client.force_login(director)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(f"/manage/{club.slug}/rebuild/")
    assert response.status_code == 302
    last = LadderReplay.objects.order_by("-pk").first()
    assert last.from_position == 0
    assert LadderReplay.objects.count() == 2
    assert club.audit_entries.filter(action="ladder.rebuilt", user=director).exists()


def test_the_rebuild_button_only_answers_post(client, club, director):
    client.force_login(director)
    assert client.get(f"/manage/{club.slug}/rebuild/").status_code == 405


def test_the_admin_action_rebuilds_any_club(client, club, four, django_capture_on_commit_callbacks):
    from tests.factories import make_user

    ann, bob, *_ = four
    make_event(club, [(1, ann, bob, W)])
    changed(club)
    client.force_login(make_user("staff@example.org", staff=True))
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            "/staff-admin/clubs/club/",
            {"action": "rebuild_ladders", "_selected_action": [club.pk]},
        )
    assert response.status_code == 302
    assert LadderReplay.objects.filter(club=club, from_position=0).count() == 2


def test_exports_of_a_ladder_behind_its_data_say_so(client, club, four):
    ann, bob, *_ = four
    make_event(club, [(1, ann, bob, W)])
    changed(club)
    base = f"/c/{club.slug}/s/{club.secret}/"
    assert client.get(base + "ladder.csv")["X-Ladder-Status"] == "current"
    assert client.get(base + "ladder.json").json()["ladder_is_current"] is True
    changed(club, run=False)
    assert client.get(base + "ladder.csv")["X-Ladder-Status"] == "recalculating"
    assert client.get(base + "seeding.trf")["X-Ladder-Status"] == "recalculating"
    assert client.get(base + "ladder.json").json()["ladder_is_current"] is False
