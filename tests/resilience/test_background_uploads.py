"""A large results file is read by the background worker (in-process without Redis, as here):
the director follows a progress page that reloads itself, then sees what a small file shows."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import timezone

from clubs.models import Entry, Event, Game, Upload
from directors.events import flow
from tests.factories import make_event, make_players

pytestmark = pytest.mark.django_db

ROUNDS = 3


def big_csv(players: int = 1400, rounds: int = ROUNDS) -> bytes:
    """More than `flow.LARGE_FILE_LINES` rows: read by the worker."""
    rows = ["round,white,black,result"]
    for r in range(1, rounds + 1):
        rows += [f"{r},Player {2 * b:04d},Player {2 * b + 1:04d},1-0" for b in range(players // 2)]
    return ("\n".join(rows) + "\n").encode()


@pytest.fixture
def signed_in(client, director):
    client.force_login(director)
    return client


@pytest.fixture
def draft(club):
    return Event.objects.create(club=club, name="Big open", date=dt.date(2026, 1, 10))


def post_file(client, event, data, name="big.csv"):
    return client.post(
        reverse("event_upload", args=[event.club.slug, event.pk]),
        {
            "file": SimpleUploadedFile(name, data),
            "format": "auto",
            "version": Event.objects.get(pk=event.pk).edit_version,
        },
    )


def progress_url(upload: Upload) -> str:
    return reverse("event_upload_progress", args=[upload.club.slug, upload.event_id, upload.pk])


def stored(event):
    return Entry.objects.filter(event=event).count(), Game.objects.filter(event=event).count()


def test_a_file_is_large_past_two_thousand_lines_or_half_a_mebibyte():
    assert not flow.is_large(b"x\n" * 2000)
    assert flow.is_large(b"x\n" * 2001)
    assert not flow.is_large(b"x" * 512 * 1024)
    assert flow.is_large(b"x" * (512 * 1024 + 1))


def test_a_large_file_goes_to_the_progress_page_and_on_to_the_names_step(signed_in, draft):
    response = post_file(signed_in, draft, big_csv())
    upload = Upload.objects.get()
    assert response.status_code == 302
    assert response["Location"] == progress_url(upload)
    assert upload.status == Upload.Status.DONE  # the worker (in-process here) has read it
    assert bytes(upload.data) == b""  # the file is not kept once read
    assert stored(draft) == (1400, 700 * ROUNDS)
    page = signed_in.get(progress_url(upload), follow=True)
    assert page.redirect_chain[-1][0] == reverse("event_names", args=["rooks", draft.pk])
    assert "2100 games and byes are saved." in page.content.decode()
    assert not Upload.objects.exists()  # cleaned up once shown


def test_the_progress_page_reloads_itself_while_the_file_is_read(signed_in, club, director, draft):
    waiting = Upload.objects.create(
        club=club, event=draft, user=director, status=Upload.Status.WAITING, data=big_csv()
    )
    page = signed_in.get(progress_url(waiting))
    assert page.status_code == 200
    assert '<meta http-equiv="refresh" content="2">' in page.content.decode()
    assert stored(draft) == (0, 0)
    # While it waits, the account's next upload is refused rather than queued.
    refused = post_file(signed_in, draft, big_csv())
    assert refused["Location"] == reverse("event_results", args=["rooks", draft.pk])
    assert Upload.objects.count() == 1


def test_a_large_file_past_a_limit_is_refused_on_the_progress_page_storing_nothing(
    signed_in, draft
):
    data = big_csv(players=200, rounds=31)  # 3,100 rows: large, and one round too many
    response = post_file(signed_in, draft, data)
    page = signed_in.get(response["Location"], follow=True)
    text = page.content.decode()
    assert "These results have more than 30 rounds; an event can have at most 30." in text
    assert page.redirect_chain[-1][0] == reverse("event_results", args=["rooks", draft.pk])
    assert stored(draft) == (0, 0)
    assert not Upload.objects.exists()


def test_a_large_correction_of_a_published_event_waits_for_confirmation(signed_in, club):
    ann, bob = make_players(club, ["Player 0000", "Player 0001"])
    event = make_event(club, [(1, ann, bob, "1-0")], name="Published open")
    before = stored(event)
    # Large by its size (an ignored note column), with the event's own two names only.
    note = "x" * 100_000
    rows = [f"{r},Player 0000,Player 0001,0-1,{note}" for r in range(1, 7)]
    data = ("round,white,black,result,note\n" + "\n".join(rows) + "\n").encode()
    assert flow.is_large(data)
    response = post_file(signed_in, event, data)
    assert stored(event) == before  # read, not stored: the director confirms first
    page = signed_in.get(response["Location"])
    assert page.status_code == 200
    assert 'name="token"' in page.content.decode()  # the confirm page of a correction
    assert stored(event) == before


def test_reading_a_stored_file_twice_stores_it_once(club, director, draft):
    upload = Upload.objects.create(
        club=club,
        event=draft,
        user=director,
        status=Upload.Status.WAITING,
        data=big_csv(),
        options={
            "filename": "big.csv",
            "fmt": "auto",
            "event_name": None,
            "version": draft.edit_version,
            "newcomer_start": None,
            "source": "file",
            "language": "en",
        },
    )
    flow.read_upload(upload.pk)
    flow.read_upload(upload.pk)  # a job retried: the row is no longer waiting
    assert stored(draft) == (1400, 700 * ROUNDS)
    assert Upload.objects.get().status == Upload.Status.DONE


def test_a_progress_page_of_a_crashed_worker_says_so_instead_of_reloading_forever(
    signed_in, club, director, draft, settings
):
    crashed = Upload.objects.create(
        club=club,
        event=draft,
        user=director,
        status=Upload.Status.READING,
        created_at=timezone.now() - dt.timedelta(seconds=settings.UPLOAD_STALE_SECONDS + 1),
    )
    page = signed_in.get(progress_url(crashed), follow=True)
    assert "The file could not be read to the end. Send it again." in page.content.decode()
    assert not Upload.objects.exists()


def test_a_job_that_fails_unexpectedly_leaves_a_refusal_not_a_row_in_progress(
    signed_in, draft, monkeypatch
):
    def broken(*args, **kwargs):
        raise RuntimeError("the database went away")

    monkeypatch.setattr(flow.corrections.PendingCorrection, "apply", broken)
    response = post_file(signed_in, draft, big_csv())
    assert Upload.objects.get().status == Upload.Status.FAILED
    page = signed_in.get(response["Location"], follow=True)
    assert "The file could not be read to the end. Send it again." in page.content.decode()
    assert stored(draft) == (0, 0)
    assert post_file(signed_in, draft, big_csv()).status_code == 302  # the account is free


@pytest.mark.postgres
@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
@pytest.mark.timeout(180)
def test_a_real_worker_reads_a_queued_file_while_the_page_waits(client, settings):
    from redis import Redis

    from tests.factories import make_club, make_user
    from tests.live import run_burst_worker

    Redis.from_url(settings.REDIS_URL).flushdb()
    director = make_user("queued@example.org")
    club = make_club(slug="queued", owner=director)
    draft = Event.objects.create(club=club, name="Big open", date=dt.date(2026, 1, 10))
    client.force_login(director)
    response = post_file(client, draft, big_csv())
    upload = Upload.objects.get()
    assert upload.status == Upload.Status.WAITING  # queued: nothing read in the request
    assert "refresh" in client.get(response["Location"]).content.decode()
    run_burst_worker(settings.REDIS_URL)
    page = client.get(response["Location"], follow=True)
    assert page.redirect_chain[-1][0] == reverse("event_names", args=["queued", draft.pk])
    assert stored(draft) == (1400, 700 * ROUNDS)
    assert not Upload.objects.exists()
