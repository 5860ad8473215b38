"""One account, and one club, reads one results file at a time (directors/events/flow.py): a
second
upload is refused with a sentence, not queued, and a crashed one stops counting."""

from __future__ import annotations

import datetime as dt
import threading

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import IntegrityError, connection, transaction
from django.urls import reverse
from django.utils import timezone

from clubs.models import Club, Entry, Event, Game, Upload
from directors.events import flow
from tests.factories import make_club, make_user

pytestmark = pytest.mark.django_db

SMALL_CSV = b"round,white,black,result\n1,Ann Alder,Bob Birch,1-0\n"
ACCOUNT_BUSY = "Another results file you sent is still being read."
CLUB_BUSY = "Another results file of this club is still being read."


def draft_of(club, name="Draft"):
    return Event.objects.create(club=club, name=name, date=dt.date(2026, 1, 10))


def post_file(client, event, data=SMALL_CSV, name="night.csv", **follow):
    return client.post(
        reverse("event_upload", args=[event.club.slug, event.pk]),
        {
            "file": SimpleUploadedFile(name, data),
            "format": "auto",
            "version": Event.objects.get(pk=event.pk).edit_version,
        },
        **follow,
    )


def refused_file(client, event):
    """The page a refused upload leads to: the results page, with the refusal."""
    response = post_file(client, event, follow=True)
    assert response.redirect_chain == [
        (reverse("event_results", args=[event.club.slug, event.pk]), 302)
    ]
    return response.content.decode()


def post_paste(client, event, text=SMALL_CSV.decode("utf-8")):  # noqa: B008 (a constant)
    return client.post(
        reverse("event_paste", args=[event.club.slug, event.pk]),
        {"text": text, "version": Event.objects.get(pk=event.pk).edit_version},
    )


def in_progress(club, user, event=None, *, age_seconds=0):
    """An upload of `user` still being read, as another request or the worker holds it."""
    return Upload.objects.create(
        club=club,
        event=event or draft_of(club, "Other draft"),
        user=user,
        status=Upload.Status.READING,
        created_at=timezone.now() - dt.timedelta(seconds=age_seconds),
    )


def stored(event):
    return Entry.objects.filter(event=event).count(), Game.objects.filter(event=event).count()


def test_an_account_reading_one_file_is_refused_a_second_even_for_another_club(
    client, club, director
):
    other = make_club(slug="bishops", owner=director)
    in_progress(other, director)
    draft = draft_of(club)
    client.force_login(director)
    assert ACCOUNT_BUSY in refused_file(client, draft)
    assert stored(draft) == (0, 0)
    assert Upload.objects.filter(event=draft).count() == 0  # refused, not queued


def test_pasted_results_count_as_an_upload_of_the_account(client, club, director):
    in_progress(club, director)
    draft = draft_of(club)
    client.force_login(director)
    response = post_paste(client, draft)
    assert response.status_code == 409
    assert ACCOUNT_BUSY in response.content.decode()
    assert stored(draft) == (0, 0)


def test_a_club_reading_one_file_refuses_a_second_from_another_director(
    client, club, owner, director
):
    in_progress(club, owner)
    draft = draft_of(club)
    client.force_login(director)
    assert CLUB_BUSY in refused_file(client, draft)
    assert stored(draft) == (0, 0)


def test_the_refusal_is_in_the_directors_language(client, club, director, settings):
    in_progress(club, director)
    draft = draft_of(club)
    client.force_login(director)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "nl"
    assert "Een ander uitslagenbestand dat je hebt gestuurd" in refused_file(client, draft)


def test_another_account_of_another_club_is_not_held_up(client, club, director):
    stranger = make_user("stranger@example.org")
    in_progress(make_club(slug="bishops", owner=stranger), stranger)
    draft = draft_of(club)
    client.force_login(director)
    response = post_file(client, draft)
    assert response.status_code == 302
    assert stored(draft) == (2, 1)


def test_an_upload_left_in_progress_by_a_crash_stops_counting_and_is_cleaned_up(
    client, club, director, settings
):
    crashed = in_progress(club, director, age_seconds=settings.UPLOAD_STALE_SECONDS + 1)
    draft = draft_of(club)
    client.force_login(director)
    assert post_file(client, draft).status_code == 302
    assert stored(draft) == (2, 1)
    assert not Upload.objects.filter(pk=crashed.pk).exists()


def test_each_upload_frees_its_place_when_done_so_the_next_one_is_read(client, club, director):
    draft = draft_of(club)
    client.force_login(director)
    assert post_file(client, draft).status_code == 302
    refused = post_file(client, draft, b"round,white,black,result\n1,Ann Alder,bob\n")
    assert refused.status_code == 200  # read, and refused for what the file says
    assert post_file(client, draft).status_code == 302
    assert Upload.objects.count() == 0


def test_the_database_refuses_a_second_upload_in_progress_of_one_account_or_club(
    club, owner, director
):
    in_progress(club, director)
    with pytest.raises(IntegrityError), transaction.atomic():
        in_progress(make_club(slug="bishops", owner=director), director)
    with pytest.raises(IntegrityError), transaction.atomic():
        in_progress(club, owner)
    finished = Upload.objects.get()
    finished.status = Upload.Status.DONE
    finished.save()
    in_progress(club, owner)  # a finished one holds nothing


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_of_simultaneous_uploads_of_one_account_exactly_one_is_taken():
    """As three web processes would: each begins in its own connection at the same moment."""
    user = make_user("racer@example.org")
    events = [draft_of(make_club(slug=f"club-{n}", owner=user)) for n in range(3)]
    received = flow.Received(SMALL_CSV, "night.csv", "csv", None, 0, None, "file")
    barrier = threading.Barrier(len(events))
    outcomes: list[str] = []

    def begin(event: Event) -> None:
        try:
            barrier.wait()
            flow.begin(event, user, received)
            outcomes.append("taken")
        except flow.UploadBusy:
            outcomes.append("refused")
        finally:
            connection.close()

    threads = [threading.Thread(target=begin, args=(event,)) for event in events]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["refused", "refused", "taken"]


def test_an_outsider_cannot_see_another_clubs_upload_progress(client, club, director, outsider):
    upload = in_progress(club, director)
    client.force_login(outsider)
    path = reverse("event_upload_progress", args=[club.slug, upload.event_id, upload.pk])
    assert client.get(path).status_code == 404
    # Through the outsider's own club and event, the upload is not theirs: nothing shown.
    own = draft_of(Club.objects.get(slug="elsewhere"))
    path = reverse("event_upload_progress", args=["elsewhere", own.pk, upload.pk])
    assert client.get(path).status_code == 404
    assert Upload.objects.filter(pk=upload.pk).exists()


def test_uploads_nobody_will_finish_or_look_at_are_forgotten_with_their_names(
    club, owner, director, settings
):
    stale = in_progress(club, director, age_seconds=settings.UPLOAD_STALE_SECONDS + 1)
    unread = Upload.objects.create(
        club=club,
        event=stale.event,
        user=director,
        status=Upload.Status.DONE,
        outcome={"pending": {"players": [["Ann Alder"]]}},
        created_at=stale.created_at,
    )
    fresh = in_progress(make_club(slug="bishops", owner=owner), owner)
    assert flow.forget_stale() == 2
    assert list(Upload.objects.all()) == [fresh]
    assert not Upload.objects.filter(pk__in=[stale.pk, unread.pk]).exists()
