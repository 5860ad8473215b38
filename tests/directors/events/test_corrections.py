"""A correction to a published event is shown with its effect and applies only on confirmation."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import transaction
from django.db.models import F
from django.test import Client
from django.urls import reverse

from clubs.models import AuditEntry, Club, Event, Game
from clubs.results import Result
from directors.events import corrections, pending_changes
from ladder.changes import LadderInput, club_changed
from ladder.replay import replay_ladder, verify_ladder
from tests.directors.events.test_event_views import grid_post
from tests.factories import first_ladder, make_event, make_players, rated_players

pytestmark = pytest.mark.django_db

W, D, B = Result.WHITE_WIN, Result.DRAW, Result.BLACK_WIN


@pytest.fixture
def signed_in(director):
    client = Client()
    client.force_login(director)
    return client


@pytest.fixture
def players(club):
    return make_players(club, ["Ann Apple", "Bob Baker", "Cid Cole", "Dee Dunn"])


@pytest.fixture
def published(club, players):
    """Two published events, the second the one corrected; the ladder is up to date."""
    ann, bob, cid, dee = players
    make_event(club, [(1, ann, bob, D), (1, cid, dee, D)], date=dt.date(2026, 1, 3))
    event = make_event(
        club, [(1, ann, bob, W), (1, cid, dee, W), (2, ann, cid, D)], date=dt.date(2026, 2, 7)
    )
    with transaction.atomic():
        club_changed(club.pk, LadderInput())
    replay_ladder(club.pk)
    return event


def url(name, event):
    return reverse(name, args=[event.club.slug, event.pk])


def v(event):
    return Event.objects.get(pk=event.pk).edit_version


def ratings(club):
    return dict(rated_players().filter(club=club).values_list("id", "rating"))


def games_of(event):
    return sorted(event.games.values_list("round", "white__typed_name", "result"))


def state(club, event):
    club = Club.objects.get(pk=club.pk)
    event = Event.objects.get(pk=event.pk)
    return (
        games_of(event),
        event.edit_version,
        first_ladder(club).data_version,
        AuditEntry.objects.filter(club=club).count(),
        ratings(club),
    )


# Round 1's Ann-Bob 1-0 becomes 0-1.
CORRECTED = [
    ("1", "Ann Apple", "Bob Baker", "0-1"),
    ("1", "Cid Cole", "Dee Dunn", "1-0"),
    ("2", "Ann Apple", "Cid Cole", "1/2"),
]


def test_a_grid_correction_to_a_published_event_changes_nothing_before_it_is_confirmed(
    signed_in, club, published
):
    before = state(club, published)
    response = signed_in.post(url("event_grid", published), grid_post(CORRECTED, v(published)))
    assert response.status_code == 200
    page = response.content.decode()
    assert "Confirm the correction" in page
    assert "ratings move; the largest by" in page
    assert state(club, published) == before
    assert not first_ladder(club.pk).out_of_date_since


def test_confirming_applies_the_correction_and_the_preview_matches_the_replay(
    signed_in, club, published, django_capture_on_commit_callbacks
):
    old = ratings(club)
    shown = signed_in.post(url("event_grid", published), grid_post(CORRECTED, v(published)))
    impact = shown.context["impact"]
    with django_capture_on_commit_callbacks(execute=True):
        response = signed_in.post(
            url("event_correction", published), {"token": shown.context["pending"].token}
        )
    assert response.status_code == 302
    assert response["Location"] == reverse("event_names", args=[club.slug, published.pk])
    assert ("1", "Ann Apple", "0-1") in [
        (str(r), w, res) for r, w, res in games_of(Event.objects.get(pk=published.pk))
    ]
    club.refresh_from_db()
    assert club.ladder_is_current and verify_ladder(club) == []
    new = ratings(club)
    moved = {pid: new[pid] - old[pid] for pid in old if abs(new[pid] - old[pid]) >= 0.05}
    assert impact.moved == len(moved) > 0
    assert impact.largest == pytest.approx(max(abs(c) for c in moved.values()))
    assert {m.player_id: m.change for m in impact.moves} == pytest.approx(moved)
    assert AuditEntry.objects.filter(club=club, action="results.saved").count() == 1


def test_a_confirmed_grid_correction_is_logged_with_each_changed_result_old_and_new(
    signed_in, director, club, published
):
    rows = [*CORRECTED[:2], ("2", "Ann Apple", "Cid Cole", "1/2"), ("2", "Bob Baker", "", "bye1")]
    shown = signed_in.post(url("event_grid", published), grid_post(rows, v(published)))
    signed_in.post(url("event_correction", published), {"token": shown.context["pending"].token})
    entry = AuditEntry.objects.get(club=club, action="results.saved")
    assert entry.user == director
    assert entry.details["changed"] == [[1, 1, "Ann Apple – Bob Baker", "1-0", "0-1"]]
    assert (entry.details["added"], entry.details["removed"]) == (1, 0)
    log = signed_in.get(reverse("audit_log", args=[club.slug])).content.decode()
    assert "Round 1, board 1: 1–0 → 0–1 (Ann Apple – Bob Baker)" in log
    assert "Boards added: 1, taken away: 0." in log


def test_a_drafts_first_grid_save_lists_no_changes(signed_in, club, players):
    draft = make_event(club, [], published=False)
    signed_in.post(
        url("event_grid", draft), grid_post([("1", "Ann Apple", "Bob Baker", "0-1")], v(draft))
    )
    entry = AuditEntry.objects.get(club=club, action="results.saved")
    assert "changed" not in entry.details


def test_a_confirmation_after_another_change_to_the_event_is_refused(signed_in, club, published):
    shown = signed_in.post(url("event_grid", published), grid_post(CORRECTED, v(published)))
    # Someone else saves the event meanwhile.
    Event.objects.filter(pk=published.pk).update(edit_version=F("edit_version") + 1)
    before = state(club, published)
    response = signed_in.post(
        url("event_correction", published), {"token": shown.context["pending"].token}, follow=True
    )
    assert "changed by someone else" in response.content.decode()
    assert state(club, published) == before


def test_a_confirm_page_replaced_by_a_newer_correction_applies_nothing(signed_in, club, published):
    first = signed_in.post(url("event_grid", published), grid_post(CORRECTED, v(published)))
    signed_in.post(url("event_grid", published), grid_post(CORRECTED[:2], v(published)))
    before = state(club, published)
    response = signed_in.post(
        url("event_correction", published), {"token": first.context["pending"].token}, follow=True
    )
    assert "no longer waiting" in response.content.decode()
    assert state(club, published) == before


def test_cancelling_a_correction_keeps_the_results_and_forgets_it(signed_in, club, published):
    shown = signed_in.post(url("event_grid", published), grid_post(CORRECTED, v(published)))
    token = shown.context["pending"].token
    before = state(club, published)
    signed_in.post(url("event_correction", published), {"token": token, "cancel": "1"})
    assert state(club, published) == before
    signed_in.post(url("event_correction", published), {"token": token})
    assert state(club, published) == before


def test_a_pasted_correction_waits_for_confirmation_too(signed_in, club, published):
    text = "round,white,black,result\n1,Ann Apple,Bob Baker,1/2\n1,Cid Cole,Dee Dunn,1-0\n"
    before = state(club, published)
    shown = signed_in.post(url("event_paste", published), {"text": text, "version": v(published)})
    assert shown.status_code == 200 and shown.context["games"] == 2
    assert state(club, published) == before
    signed_in.post(url("event_correction", published), {"token": shown.context["pending"].token})
    assert len(games_of(Event.objects.get(pk=published.pk))) == 2


def test_a_correction_the_event_would_refuse_is_refused_before_any_confirmation(
    signed_in, club, published
):
    rows = [*CORRECTED, ("3", "Ann Apple", "Nobody Known", "1-0")]
    before = state(club, published)
    response = signed_in.post(url("event_grid", published), grid_post(rows, v(published)))
    assert response.status_code == 200
    assert "not confirmed players" in response.content.decode()
    assert "impact" not in response.context
    assert state(club, published) == before
    assert not signed_in.session.get(pending_changes.SESSION_KEY)


def test_a_drafts_grid_is_still_saved_at_once(signed_in, club, players):
    draft = make_event(club, [(1, players[0], players[1], W)], published=False)
    response = signed_in.post(
        url("event_grid", draft), grid_post([("1", "Ann Apple", "Bob Baker", "0-1")], v(draft))
    )
    assert response.status_code == 302
    assert Game.objects.get(event=draft).result == B


def test_a_held_correction_survives_the_session_round_trip_whole(club, published):
    imported = corrections.results.grid_to_imported(
        [
            corrections.results.GridRow(1, "1", "Ann Apple", "Bob Baker", "1-0", "Chess960"),
            corrections.results.GridRow(2, "2", "Cid Cole", "", "byeU"),
        ]
    )
    pending = corrections.PendingCorrection(
        event_id=published.pk,
        version=3,
        source="grid",
        replace_entries=False,
        round_no=2,
        imported=imported,
        next_url="/x/",
    )
    session: dict = {}
    pending_changes.hold(session, pending)
    assert pending_changes.take(session, published.pk, "wrong") is None
    assert pending_changes.take(session, published.pk, pending.token) == pending
    pending_changes.drop(session, published.pk)
    assert pending_changes.take(session, published.pk, pending.token) is None
