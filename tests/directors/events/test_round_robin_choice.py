"""The director says whether uploaded results are a round robin (issue 33, part 3): a choice on
the event's details, held for confirmation on a published event, audited old -> new, ranking
the standings anew on the page, in the `standings` command and in the TRF export; a club night
keeps its own pairing system."""

from __future__ import annotations

import datetime as dt
import io
import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import translation

from clubs.models import AuditEntry, Club, Event, PairingSystem
from clubs.results import Result
from directors.audit.sentences import sentences
from directors.edits import PublishingError
from directors.events import changes as event_changes
from directors.events import pending_changes
from directors.events.drafts import EventDetails, update_event
from ladder import standings
from ladder.changes import LadderInput, OnPages
from ladder.models import EventStandings
from ladder.replay import keep_standings, replay_ladder
from ladder.store.standings import Which
from members.files.event_files import FilePlayer, player_line
from tests.factories import make_club, make_event, make_players
from tests.members.pages.test_pages import tables

pytestmark = pytest.mark.django_db

W, D, BYE = Result.WHITE_WIN, Result.DRAW, Result.BYE_PAIRING
# Buchholz of the all-play-all below: as a Swiss each bye counts a dummy opponent with the
# player's own score (C.07 16.4); as a round robin the byes count nothing.
AS_SWISS = {"Ann Alder": 6.0, "Bob Birch": 6.0, "Cid Cedar": 6.0}
AS_ROUND_ROBIN = {"Ann Alder": 3.5, "Bob Birch": 4.5, "Cid Cedar": 4.0}


@pytest.fixture
def public(owner, director):
    return make_club(
        slug="knights", owner=owner, directors=[director], visibility=Club.Visibility.PUBLIC
    )


@pytest.fixture
def signed_in(director):
    client = Client()
    client.force_login(director)
    return client


def all_play_all(club: Club, **fields: object) -> Event:
    """Three players, three rounds, each sitting one out with a pairing-allocated bye: every
    pair meets once, as in a round robin of three and as in a Swiss of three rounds."""
    ann, bob, cid = make_players(club, ["Ann Alder", "Bob Birch", "Cid Cedar"])
    games = [
        (1, ann, bob, W),
        (1, cid, None, BYE),
        (2, bob, cid, D),
        (2, ann, None, BYE),
        (3, cid, ann, D),
        (3, bob, None, BYE),
    ]
    fields.setdefault("name", "May open")
    return make_event(club, games, date=dt.date(2025, 5, 1), **fields)


def edit(client: Client, event: Event, **changes: object):
    event = Event.objects.get(pk=event.pk)
    data = {
        "name": event.name,
        "date": event.date.isoformat(),
        "order_in_day": event.order_in_day,
        "kind": event.kind,
        "rated": "on" if event.rated else "",
        "version": event.edit_version,
        **changes,
    }
    return client.post(reverse("event_edit", args=[event.club.slug, event.pk]), data)


def stored(event: Event) -> tuple[object, ...]:
    """Everything a details form could store about the event, and the log."""
    event = Event.objects.get(pk=event.pk)
    club = Club.objects.get(pk=event.club_id)
    return (
        event.round_robin,
        event.name,
        event.edit_version,
        club.pages_version,
        AuditEntry.objects.filter(club=club).count(),
    )


def command_buchholz(event: Event) -> dict[str, float]:
    out = io.StringIO()
    call_command("standings", event.club.slug, str(event.pk), "--format", "json", stdout=out)
    return {row["name"]: row["tiebreaks"]["bh"] for row in json.loads(out.getvalue())}


def page_buchholz(event: Event) -> dict[str, float]:
    """The Buchholz column of the public event page, read from its HTML (a kept page too)."""
    page = Client().get(reverse("club_event", args=[event.club.slug, event.pk]))
    assert page.status_code == 200
    head, *rows = tables(page, "standings")[0]
    at, name = head.index("BH"), head.index("Name")
    return {row[name]: float(row[at].replace("½", ".5")) for row in rows}


def trf_type(event: Event) -> list[str]:
    out = io.StringIO()
    call_command("export_event", event.club.slug, str(event.pk), stdout=out)
    return [line[4:] for line in out.getvalue().splitlines() if line.startswith("092")]


def last_sentence(club: Club) -> str:
    entry = AuditEntry.objects.filter(club=club).select_related("user").latest("id")
    return sentences([entry])[0][1]


def test_the_choice_sets_and_clears_a_drafts_flag_at_once_and_is_audited(signed_in, public):
    draft = all_play_all(public, published=False)
    page = signed_in.get(reverse("event_edit", args=[public.slug, draft.pk])).content.decode()
    assert 'name="round_robin" value="swiss"' in page and "checked" in page.split("swiss")[1]
    response = edit(signed_in, draft, round_robin="roundrobin")
    assert response.status_code == 302
    assert Event.objects.get(pk=draft.pk).round_robin is True
    entry = AuditEntry.objects.filter(club=public, action="event.updated").latest("id")
    assert entry.details["round_robin"] == [False, True]
    assert entry.details["changed"] == ["round_robin"]
    assert last_sentence(public).endswith(
        "changed the pairing system of May open from Swiss to round robin."
    )
    with translation.override("de"):
        assert last_sentence(public).endswith(
            "hat das Auslosungssystem von May open von Schweizer System auf Rundenturnier geändert."
        )
    detail = signed_in.get(reverse("event_detail", args=[public.slug, draft.pk]))
    assert "Round robin (all-play-all)" in detail.content.decode()
    # Changed with the name: one entry saying both.
    assert edit(signed_in, draft, round_robin="swiss", name="May rapid").status_code == 302
    assert Event.objects.get(pk=draft.pk).round_robin is False
    assert last_sentence(public).endswith(
        "changed the name of May rapid, and its pairing system from round robin to Swiss."
    )
    # A form without the choice (a page opened before it was offered) leaves it as it is.
    Event.objects.filter(pk=draft.pk).update(round_robin=True)
    assert edit(signed_in, draft).status_code == 302
    assert Event.objects.get(pk=draft.pk).round_robin is True


def test_a_published_events_choice_waits_for_confirmation_then_ranks_it_anew_everywhere(
    signed_in, public, django_capture_on_commit_callbacks
):
    event = all_play_all(public)
    replay_ladder(public.pk)
    assert page_buchholz(event) == AS_SWISS  # and this page is now kept
    assert command_buchholz(event) == AS_SWISS
    assert trf_type(event) == ["Individual: Swiss-System"]
    before = stored(event)
    shown = edit(signed_in, event, round_robin="roundrobin")
    assert shown.status_code == 200
    page = shown.content.decode()
    assert "Confirm the new details" in page
    assert "Swiss or another paired system" in page and "Round robin (all-play-all)" in page
    assert shown.context["impact"].moved == 0  # no rating depends on it
    assert stored(event) == before  # nothing until confirmed
    assert page_buchholz(event) == AS_SWISS
    with django_capture_on_commit_callbacks(execute=True):
        done = signed_in.post(
            reverse("event_confirm", args=[public.slug, event.pk]),
            {"token": shown.context["pending"].token},
        )
    assert done.status_code == 302
    assert Event.objects.get(pk=event.pk).round_robin is True
    assert Club.objects.get(pk=public.pk).pages_version == before[3] + 1
    # The kept page is retired; the page, the command and the export agree.
    assert page_buchholz(event) == AS_ROUND_ROBIN
    assert command_buchholz(event) == AS_ROUND_ROBIN
    assert trf_type(event) == ["Individual: Round-Robin"]
    # And back: a Swiss again (no need to confirm twice to see it: same two steps).
    shown = edit(signed_in, event, round_robin="swiss")
    signed_in.post(
        reverse("event_confirm", args=[public.slug, event.pk]),
        {"token": shown.context["pending"].token},
    )
    assert page_buchholz(event) == AS_SWISS
    assert command_buchholz(event) == AS_SWISS
    assert trf_type(event) == ["Individual: Swiss-System"]
    logged = AuditEntry.objects.filter(club=public, action="event.updated").order_by("id")
    assert [e.details["round_robin"] for e in logged] == [[False, True], [True, False]]


def test_the_events_kept_standings_are_ranked_anew_when_the_change_commits(
    public, monkeypatch, django_capture_on_commit_callbacks
):
    monkeypatch.setattr(standings, "KEPT_FROM_ENTRANTS", 2)
    event = all_play_all(public)
    replay_ladder(public.pk)
    keep_standings(public.pk)
    old = EventStandings.objects.get(event=event).inputs
    with django_capture_on_commit_callbacks(execute=True):
        update_event(event.pk, event.edit_version, details_of(event, round_robin=True), None)
    kept = EventStandings.objects.get(event=event)
    assert kept.inputs != old
    # The row kept is the one of what the page reads now: nothing is left to keep.
    assert keep_standings(public.pk, Which(event_id=event.pk)) == 0
    assert page_buchholz(event) == AS_ROUND_ROBIN


def details_of(event: Event, round_robin: bool | None) -> EventDetails:
    return EventDetails(
        event.name, event.date, event.order_in_day, event.kind, event.rated, round_robin
    )


def test_a_club_night_keeps_its_pairing_system(signed_in, public):
    night = all_play_all(public, pairing_system=PairingSystem.SWISS, published=False)
    page = signed_in.get(reverse("event_edit", args=[public.slug, night.pk])).content.decode()
    assert 'name="round_robin"' not in page
    before = stored(night)
    response = edit(signed_in, night, round_robin="roundrobin")
    assert response.status_code == 200
    assert "ranked by the system it was paired with" in response.content.decode()
    assert stored(night) == before
    with pytest.raises(PublishingError):
        update_event(night.pk, night.edit_version, details_of(night, round_robin=True), None)
    assert stored(night) == before
    # Its other details are edited as before.
    assert edit(signed_in, night, name="Thursday").status_code == 302
    assert Event.objects.get(pk=night.pk).name == "Thursday"


def test_a_forged_choice_is_refused_and_stores_nothing(signed_in, public):
    event = all_play_all(public, published=False)
    before = stored(event)
    response = edit(signed_in, event, round_robin="knockout")
    assert response.status_code == 200
    assert "Select a valid choice" in response.content.decode()
    assert stored(event) == before


def test_another_clubs_event_is_404_and_unchanged(signed_in, public, outsider):
    other = make_club(slug="bishops")
    theirs = all_play_all(other, published=False)
    target = reverse("event_edit", args=[public.slug, theirs.pk])  # our slug, their event
    data = {"name": "X", "date": "2025-05-01", "order_in_day": 0, "kind": "standard"}
    data |= {"version": theirs.edit_version, "round_robin": "roundrobin"}
    assert signed_in.post(target, data).status_code == 404
    assert signed_in.get(reverse("event_edit", args=[other.slug, theirs.pk])).status_code == 404
    ours = all_play_all(public, published=False, name="Ours")
    outside = Client()
    outside.force_login(outsider)
    assert edit(outside, ours, round_robin="roundrobin").status_code == 404
    assert Event.objects.get(pk=theirs.pk).round_robin is False
    assert Event.objects.get(pk=ours.pk).round_robin is False


def test_a_held_choice_survives_the_session_and_an_older_held_change_leaves_it(public):
    event = all_play_all(public)
    details = details_of(event, round_robin=True)
    change = event_changes.PendingDetails(event.pk, 3, details)
    session: dict = {}
    pending_changes.hold(session, change)
    assert pending_changes.take(session, event.pk, change.token) == change
    older = change.to_json()
    del older["round_robin"]
    assert event_changes.PendingDetails.from_json(older).details.round_robin is None


def test_the_events_list_names_the_winner_the_declared_round_robin_gives(
    signed_in, public, django_capture_on_commit_callbacks
):
    """Ann and Cid both score 2 in four players' three rounds with forfeits. As a Swiss a
    forfeit counts against a dummy opponent and Ann leads on the tie-breaks; as a round
    robin it counts against its opponent and Cid does. The list's first places are kept
    per process by the club's versions: the change must move one."""
    ann, bob, cid, dee = make_players(public, ["Ann Alder", "Bob Birch", "Cid Cedar", "Dee Dunn"])
    games = [
        (1, ann, dee, Result.WHITE_FORFEIT_WIN),
        (1, bob, cid, W),
        (2, ann, cid, Result.BLACK_FORFEIT_WIN),
        (2, dee, bob, D),
        (3, ann, bob, Result.WHITE_FORFEIT_WIN),
        (3, cid, dee, Result.WHITE_FORFEIT_WIN),
    ]
    event = make_event(public, games, date=dt.date(2025, 5, 1), name="May open")
    replay_ladder(public.pk)
    events_list = reverse("club_events", args=[public.slug])
    listed = Client().get(events_list).content.decode()
    assert "Ann Alder" in listed and "Cid Cedar" not in listed
    shown = edit(signed_in, event, round_robin="roundrobin")
    with django_capture_on_commit_callbacks(execute=True):
        signed_in.post(
            reverse("event_confirm", args=[public.slug, event.pk]),
            {"token": shown.context["pending"].token},
        )
    listed = Client().get(events_list).content.decode()
    assert "Cid Cedar" in listed and "Ann Alder" not in listed


def test_a_ranked_event_is_something_the_pages_show():
    # Only the pages' part of a change can name one: a ladder input has no such detail.
    assert OnPages(ranked_event=1).ranked_event == 1
    with pytest.raises(TypeError):
        LadderInput(ranked_event=1)


def robin_trf(kind: str, result: str = "1") -> bytes:
    """The all-play-all above as a TRF (Ann-Bob's result given); record 092 says its type."""
    back = {"1": "0", "=": "=", "0": "1"}[result]
    lines = [
        player_line(
            FilePlayer(1, "Ann Alder", None), 2.5, 1, [f"   2 w {result}", "0000 - U", "   3 b ="]
        ),
        player_line(
            FilePlayer(2, "Bob Birch", None), 1.5, 3, [f"   1 b {back}", "   3 w =", "0000 - U"]
        ),
        player_line(FilePlayer(3, "Cid Cedar", None), 2.0, 2, ["0000 - U", "   2 b =", "   1 w ="]),
    ]
    return "\n".join(["012 May open", "042 2025/05/01", f"092 Individual: {kind}", *lines]).encode()


def test_a_corrected_file_that_states_its_type_says_so_before_it_sets_it_again(signed_in, public):
    """The director said round robin; a corrected file that says Swiss would set it back,
    and the correction's confirm page says so before anything is stored."""
    event = all_play_all(public, round_robin=True)
    replay_ladder(public.pk)
    upload = reverse("event_upload", args=[public.slug, event.pk])
    data = {"format": "trf", "version": Event.objects.get(pk=event.pk).edit_version}
    file = SimpleUploadedFile("may.trf", robin_trf("Swiss-System", result="="))
    shown = signed_in.post(upload, {**data, "file": file}, follow=True)
    assert "Confirm the correction" in shown.content.decode()
    assert "The file says this event is a Swiss" in shown.content.decode()
    assert Event.objects.get(pk=event.pk).round_robin is True
    signed_in.post(
        reverse("event_confirm", args=[public.slug, event.pk]),
        {"token": shown.context["pending"].token},
    )
    assert Event.objects.get(pk=event.pk).round_robin is False
    # A file that says what the event already is, or nothing, adds no such note.
    file = SimpleUploadedFile("may.trf", robin_trf("Swiss-System"))
    data["version"] = Event.objects.get(pk=event.pk).edit_version
    shown = signed_in.post(upload, {**data, "file": file}, follow=True)
    assert "Confirm the correction" in shown.content.decode()
    assert "The file says" not in shown.content.decode()
