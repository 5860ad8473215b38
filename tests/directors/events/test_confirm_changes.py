"""Every change to a published event waits for a preview of its effect and a confirmation:
its details, its name decisions (the table and the bulk buttons) and a re-pointed entry."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import transaction
from django.db.models import F
from django.test import Client
from django.urls import reverse

from clubs.models import AuditEntry, Club, Entry, Event
from clubs.results import Result
from directors.events import changes as event_changes
from directors.events import pending_changes
from directors.events.drafts import EventDetails
from directors.events.names import Action, NameDecision
from ladder.changes import LadderInput, club_changed
from ladder.replay import replay_ladder, verify_ladder
from tests.factories import first_ladder, make_event, make_players, rated_players

pytestmark = pytest.mark.django_db

W, D = Result.WHITE_WIN, Result.DRAW


@pytest.fixture
def signed_in(director):
    client = Client()
    client.force_login(director)
    return client


@pytest.fixture
def players(club):
    return make_players(club, ["Ann Apple", "Bob Baker", "Cid Cole", "Dee Dunn", "Eve Evans"])


@pytest.fixture
def published(club, players):
    """Two published events, the second the one changed; the ladder is up to date. Eve
    Evans is on the roster without a game."""
    ann, bob, cid, dee, _eve = players
    make_event(club, [(1, ann, bob, D), (1, cid, dee, D)], date=dt.date(2026, 1, 3))
    event = make_event(
        club,
        [(1, ann, bob, W), (1, cid, dee, W), (2, ann, cid, D)],
        date=dt.date(2026, 2, 7),
        name="February",
    )
    with transaction.atomic():
        club_changed(club.pk, LadderInput())
    replay_ladder(club.pk)
    return event


def v(event):
    return Event.objects.get(pk=event.pk).edit_version


def bobs_entry(event):
    return Entry.objects.get(event=event, typed_name="Bob Baker")


def state(club, event):
    """Everything a change of these screens could store."""
    club = Club.objects.get(pk=club.pk)
    event = Event.objects.get(pk=event.pk)
    return (
        sorted(rated_players().filter(club=club).values_list("id", "name", "rating")),
        sorted(Entry.objects.filter(event__club=club).values_list("id", "player_id")),
        (event.name, event.date, event.order_in_day, event.kind, event.rated, event.edit_version),
        first_ladder(club).data_version,
        first_ladder(club).out_of_date_since,
        AuditEntry.objects.filter(club=club).count(),
    )


def shown_ratings(club):
    """The ladder as the pages show it: no rating before a rated game."""
    return {
        pid: rating if games else None
        for pid, rating, games in rated_players()
        .filter(club=club)
        .values_list("id", "rating", "rated_games")
    }


def confirm_url(event):
    return reverse("event_confirm", args=[event.club.slug, event.pk])


# Each change: how to submit it, and what it stores once confirmed.


def submit_details(client, event):
    data = {
        "name": "February open",
        "date": "2026-02-07",
        "order_in_day": 0,
        "kind": Event.Kind.STANDARD,
        # "rated" left out: the event stops counting for the ladder.
        "version": v(event),
    }
    return client.post(reverse("event_edit", args=[event.club.slug, event.pk]), data)


def details_applied(club, event, players):
    event = Event.objects.get(pk=event.pk)
    return event.name == "February open" and not event.rated


def submit_names(client, event):
    eve = rated_players().get(name="Eve Evans")
    data = {"version": v(event), f"decision_{bobs_entry(event).pk}": f"p{eve.pk}"}
    return client.post(reverse("event_names", args=[event.club.slug, event.pk]), data)


def names_applied(club, event, players):
    return bobs_entry(event).player.name == "Eve Evans"


def submit_new_player(client, event):
    data = {"version": v(event), f"decision_{bobs_entry(event).pk}": "new"}
    return client.post(reverse("event_names", args=[event.club.slug, event.pk]), data)


def new_player_applied(club, event, players):
    player = bobs_entry(event).player
    return player.pk not in {p.pk for p in players} and player.name == "Bob Baker"


def submit_repoint(client, event):
    eve = rated_players().get(name="Eve Evans")
    target = reverse("roster_repoint", args=[event.club.slug, bobs_entry(event).pk])
    return client.post(target, {"player": eve.pk})


CHANGES = {
    "details": (submit_details, details_applied, "event.updated"),
    "names": (submit_names, names_applied, "names.decided"),
    "new player": (submit_new_player, new_player_applied, "names.decided"),
    "repoint": (submit_repoint, names_applied, "entry.repointed"),
}


@pytest.mark.parametrize("kind", CHANGES)
def test_submitting_a_change_to_a_published_event_stores_nothing_and_shows_its_effect(
    signed_in, club, published, kind
):
    submit, _applied, _action = CHANGES[kind]
    before = state(club, published)
    response = submit(signed_in, published)
    assert response.status_code == 200
    page = response.content.decode()
    assert "ratings move; the largest by" in page
    assert f'action="{confirm_url(published)}"' in page
    assert response.context["impact"].moved > 0
    assert state(club, published) == before


@pytest.mark.parametrize("kind", CHANGES)
def test_confirming_applies_the_change_once_and_the_preview_matches_the_replay(
    signed_in, club, published, players, kind, django_capture_on_commit_callbacks
):
    submit, applied, action = CHANGES[kind]
    old = shown_ratings(club)
    shown = submit(signed_in, published)
    impact = shown.context["impact"]
    with django_capture_on_commit_callbacks(execute=True):
        response = signed_in.post(confirm_url(published), {"token": shown.context["pending"].token})
    assert response.status_code == 302
    assert applied(club, published, players)
    assert AuditEntry.objects.filter(club=club, action=action).count() == 1
    club.refresh_from_db()
    assert club.ladder_is_current and verify_ladder(club) == []
    new = shown_ratings(club)
    moved = {
        pid: (new[pid] or 0) - (old.get(pid) or 0)
        for pid in new
        if new[pid] != old.get(pid) and abs((new[pid] or 0) - (old.get(pid) or 0)) >= 0.05
    }
    # A player the change makes has another id in the preview than after the confirmation
    # (the preview's row was rolled back; PostgreSQL does not reuse the id): players that
    # existed before are compared by id, the new ones by how far they moved.
    previewed = {m.player_id: m.change for m in impact.moves if m.player_id in old}
    assert previewed == pytest.approx({pid: c for pid, c in moved.items() if pid in old})
    assert sorted(m.change for m in impact.moves if m.player_id not in old) == pytest.approx(
        sorted(c for pid, c in moved.items() if pid not in old)
    )
    # The same token once more applies nothing.
    before = state(club, published)
    again = signed_in.post(confirm_url(published), {"token": shown.context["pending"].token})
    assert again.status_code == 409
    assert state(club, published) == before


@pytest.mark.parametrize("kind", CHANGES)
def test_a_confirmation_after_another_change_to_the_event_is_refused(
    signed_in, club, published, kind
):
    submit = CHANGES[kind][0]
    shown = submit(signed_in, published)
    # Someone else saves the event meanwhile.
    Event.objects.filter(pk=published.pk).update(edit_version=F("edit_version") + 1)
    before = state(club, published)
    response = signed_in.post(
        confirm_url(published), {"token": shown.context["pending"].token}, follow=True
    )
    assert "changed by someone else" in response.content.decode()
    assert state(club, published) == before


# "forgé": secrets.compare_digest raises TypeError on non-ASCII str, which was a 500.
@pytest.mark.parametrize("token", ["", "forged", "forgé", None])
def test_a_forged_or_missing_token_is_refused_and_changes_nothing(
    signed_in, club, published, token
):
    submit_names(signed_in, published)
    before = state(club, published)
    data = {} if token is None else {"token": token}
    response = signed_in.post(confirm_url(published), data)
    if token is None:  # a form without its token field at all: a forged request
        assert response.status_code == 400
    else:
        assert response.status_code == 409
        assert "no longer waiting" in response.content.decode()
    assert state(club, published) == before


def test_a_token_is_good_only_for_its_own_event(signed_in, club, published, players):
    other = make_event(club, [(1, players[0], players[4], W)], date=dt.date(2026, 3, 1))
    shown = submit_names(signed_in, published)
    before = state(club, published)
    response = signed_in.post(confirm_url(other), {"token": shown.context["pending"].token})
    assert response.status_code == 409
    assert state(club, published) == before


def test_cancelling_forgets_the_change(signed_in, club, published):
    shown = submit_details(signed_in, published)
    token = shown.context["pending"].token
    before = state(club, published)
    signed_in.post(confirm_url(published), {"token": token, "cancel": "1"})
    assert signed_in.post(confirm_url(published), {"token": token}).status_code == 409
    assert state(club, published) == before


@pytest.mark.parametrize("persona", ["anonymous", "outsider"])
def test_outsiders_get_404_from_the_confirm_step_and_change_nothing(
    signed_in, club, published, outsider, persona
):
    shown = submit_names(signed_in, published)
    intruder = Client()
    if persona == "outsider":
        intruder.force_login(outsider)
    before = state(club, published)
    response = intruder.post(confirm_url(published), {"token": shown.context["pending"].token})
    assert response.status_code == 404
    assert state(club, published) == before


def test_the_confirm_step_refuses_get(signed_in, published):
    assert signed_in.get(confirm_url(published)).status_code == 405


def test_an_unchanged_save_of_a_published_event_applies_at_once(signed_in, club, published):
    data = {
        "name": published.name,
        "date": "2026-02-07",
        "order_in_day": 0,
        "kind": Event.Kind.STANDARD,
        "rated": "on",
        "version": v(published),
    }
    target = reverse("event_edit", args=[club.slug, published.pk])
    assert signed_in.post(target, data).status_code == 302
    # The names as they are: nothing to confirm either.
    ann = Entry.objects.get(event=published, typed_name="Ann Apple")
    names = {"version": v(published), f"decision_{ann.pk}": f"p{ann.player_id}"}
    response = signed_in.post(reverse("event_names", args=[club.slug, published.pk]), names)
    assert response.status_code == 302


def test_a_drafts_changes_apply_at_once(signed_in, club, players):
    draft = make_event(club, [(1, players[0], players[1], W)], published=False)
    assert submit_details(signed_in, draft).status_code == 302
    assert not Event.objects.get(pk=draft.pk).rated
    assert submit_names(signed_in, draft).status_code == 302
    assert bobs_entry(draft).player.name == "Eve Evans"


def test_a_bulk_button_on_a_published_event_waits_for_confirmation(signed_in, club, published):
    # A newcomer typed as an existing player's name, unlinked: "accept same-name links".
    entry = bobs_entry(published)
    Entry.objects.filter(pk=entry.pk).update(player=None)
    before = state(club, published)
    response = signed_in.post(
        reverse("event_names_bulk", args=[club.slug, published.pk]),
        {"version": v(published), "action": "same_name", "show": "open"},
    )
    assert response.status_code == 200
    assert "Confirm the name decisions" in response.content.decode()
    assert state(club, published) == before
    signed_in.post(confirm_url(published), {"token": response.context["pending"].token})
    assert bobs_entry(published).player.name == "Bob Baker"


def test_a_repoint_the_event_refuses_is_refused_before_any_confirmation(signed_in, club, published):
    ann = rated_players().get(name="Ann Apple")  # already has a place in the event
    before = state(club, published)
    target = reverse("roster_repoint", args=[club.slug, bobs_entry(published).pk])
    response = signed_in.post(target, {"player": ann.pk})
    assert response.status_code == 400
    assert "already has a place" in response.content.decode()
    assert state(club, published) == before
    assert not signed_in.session.get(pending_changes.SESSION_KEY)


def test_every_kind_survives_the_session_round_trip_whole(published):
    details = EventDetails("X", dt.date(2026, 2, 8), 2, Event.Kind.STANDARD, False)
    for change in (
        event_changes.PendingDetails(published.pk, 3, details),
        event_changes.PendingNames(
            published.pk,
            3,
            (NameDecision(1, Action.LINK, 7), NameDecision(2, Action.NEW, start_rating=1500.0)),
            "/x/",
        ),
        event_changes.PendingRepoint(published.pk, 3, 5, None, "New Name"),
    ):
        session: dict = {}
        pending_changes.hold(session, change)
        assert pending_changes.take(session, published.pk, "wrong") is None
        assert pending_changes.take(session, published.pk, change.token) == change


@pytest.fixture
def previews(monkeypatch):
    """Every preview a submit runs (the in-memory replay), still run as before."""
    calls = []
    real = pending_changes.preview

    def counted(*args, **kwargs):
        calls.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr(pending_changes, "preview", counted)
    return calls


def unchanged_names(event):
    return {"version": v(event)} | {
        f"decision_{e.pk}": f"p{e.player_id}" for e in Entry.objects.filter(event=event)
    }


def test_an_unchanged_names_form_of_a_published_event_is_saved_without_a_preview(
    signed_in, club, published, previews
):
    before = state(club, published)
    target = reverse("event_names", args=[club.slug, published.pk])
    response = signed_in.post(target, unchanged_names(published), follow=True)
    assert previews == []
    assert "Saved: 0 linked to existing players" in response.content.decode()
    links, ratings, versions = before[1], before[0], before[3:5]
    after = state(club, published)
    assert (after[1], after[0], after[3:5]) == (links, ratings, versions)


def test_a_changed_names_form_is_still_previewed_first(signed_in, club, published, previews):
    data = unchanged_names(published)
    data[f"decision_{bobs_entry(published).pk}"] = f"p{rated_players().get(name='Eve Evans').pk}"
    response = signed_in.post(reverse("event_names", args=[club.slug, published.pk]), data)
    assert len(previews) == 1
    assert response.status_code == 200
    assert response.context["pending"].decisions


def test_what_may_change_is_read_from_the_links_as_they_are(club, published, players):
    bob = bobs_entry(published)
    eve = players[4]
    late = make_event(club, [(1, players[0], None, Result.BYE_FULL)], date=dt.date(2026, 3, 7))
    with_bye = Entry.objects.get(event=late)
    Entry.objects.filter(pk=with_bye.pk).update(player=None)
    Entry.objects.filter(pk=bob.pk).update(player=None)
    may_change = event_changes.decisions_may_change

    def decided(*decisions):
        return tuple(NameDecision(*d) for d in decisions)

    assert not may_change(published, decided((bob.pk, Action.NONE)))
    assert may_change(published, decided((bob.pk, Action.LINK, eve.pk)))
    assert may_change(published, decided((bob.pk, Action.NEW)))
    assert may_change(published, decided((with_bye.pk, Action.NONE)))  # not this event's
    # Left without a player already, but their own bye would go.
    assert may_change(late, decided((with_bye.pk, Action.NONE)))
    ann = Entry.objects.get(event=published, typed_name="Ann Apple")
    assert not may_change(published, decided((ann.pk, Action.LINK, ann.player_id)))
