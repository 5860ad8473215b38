"""Reading a results file with bounded work for every account, whatever the file.

- The file is read within the event limits (settings.EVENT_MAX_*) and refused at the first
  entrant, round or game past one, not after it was read whole.
- One account, and one club, reads one file at a time: an `Upload` row in progress is the
  lock, taken in the database so that every web process and the worker see it; a row left
  by a crashed request or job stops counting after settings.UPLOAD_STALE_SECONDS.
- A large file (more than `LARGE_FILE_LINES` lines or `LARGE_FILE_BYTES`) is read by the
  background worker: `read_upload` is the job's unit of work; the director's progress page
  shows its outcome. Without Redis it runs in-process at once, as every job does.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import date
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import translation
from django.utils.formats import number_format
from django.utils.translation import gettext as _

from clubs.models import Event, Upload, User
from directors.edits import PublishingError
from directors.events import corrections, pending_changes
from directors.events.results import MAX_UPLOAD_BYTES
from directors.importers import (
    ImportedEvent,
    ImportFileError,
    Limits,
    SeveralEventsError,
    TooLargeError,
    detect_format,
    parse_file,
)

logger = logging.getLogger(__name__)

LARGE_FILE_LINES = 2000
LARGE_FILE_BYTES = 512 * 1024


@dataclass(frozen=True)
class Received:
    """A results file (or pasted CSV) as the director's form sent it."""

    data: bytes
    filename: str
    fmt: str  # "auto", "trf", "pgn" or "csv"
    event_name: str | None  # the event to read from a PGN file holding several
    version: int  # the event's edit_version at submit
    newcomer_start: str | None
    source: str  # "file" or "paste"

    def to_json(self) -> dict[str, Any]:
        return {
            "filename": self.filename,
            "fmt": self.fmt,
            "event_name": self.event_name,
            "version": self.version,
            "newcomer_start": self.newcomer_start,
            "source": self.source,
        }

    @classmethod
    def from_row(cls, upload: Upload) -> Received:
        options = upload.options
        return cls(
            data=bytes(upload.data),
            filename=str(options["filename"]),
            fmt=str(options["fmt"]),
            event_name=options["event_name"],
            version=int(options["version"]),
            newcomer_start=options["newcomer_start"],
            source=str(options["source"]),
        )


class UploadBusy(Exception):
    """The account or the club is reading another file; `message` is for the director."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def is_large(data: bytes) -> bool:
    return len(data) > LARGE_FILE_BYTES or data.count(b"\n") > LARGE_FILE_LINES


def event_limits(file_bytes: int = MAX_UPLOAD_BYTES) -> Limits:
    return Limits(
        entrants=settings.EVENT_MAX_ENTRANTS,
        rounds=settings.EVENT_MAX_ROUNDS,
        games=settings.EVENT_MAX_GAMES,
        file_bytes=file_bytes,
    )


def read_file(
    data: bytes, fmt: str, *, event_date: date | None, event: str | None, limits: Limits
) -> ImportedEvent:
    """`parse_file` within `limits`; a file past one is refused in the director's language."""
    try:
        return parse_file(data, fmt, event_date=event_date, event=event, limits=limits)
    except TooLargeError as error:
        raise ImportFileError(too_large_text(error)) from None


def too_large_text(error: TooLargeError) -> str:
    limit = number_format(error.limit, force_grouping=True)
    if error.what == "entrants":
        text = _(
            "These results have more than %(max)s entrants; an event can have at most %(max)s."
        )
    elif error.what == "rounds":
        text = _("These results have more than %(max)s rounds; an event can have at most %(max)s.")
    elif error.what == "games":
        text = _(
            "These results have more than %(max)s games and byes; an event can have at most "
            "%(max)s."
        )
    else:
        text = _("The file is larger than %(max)s bytes, the most a results file may be.")
    return text % {"max": limit}


def begin(event: Event, user: User, received: Received) -> Upload:
    """Take the account's and the club's one upload in progress, or raise `UploadBusy`.

    A large file is stored for the worker and queued; a small one is read by the caller,
    which calls `finish` when it is done.
    """
    forget_stale()
    large = is_large(received.data)
    try:
        with transaction.atomic():
            upload = Upload.objects.create(
                club=event.club,
                event=event,
                user=user,
                status=Upload.Status.WAITING if large else Upload.Status.READING,
                data=received.data if large else b"",
                options={**received.to_json(), "language": translation.get_language()},
            )
    except IntegrityError:
        raise UploadBusy(_busy_message(user)) from None
    if large:
        # The row is committed already (its atomic block above is the outermost: views run
        # in autocommit), so the worker finds it.
        enqueue(upload.pk)
    return upload


def _busy_message(user: User) -> str:
    mine = Upload.objects.filter(user=user, status__in=Upload.IN_PROGRESS).exists()
    if mine:
        return _(
            "Another results file you sent is still being read. Wait until it is done, "
            "then send this one again."
        )
    return _(
        "Another results file of this club is still being read. Wait until it is done, "
        "then send this one again."
    )


def forget_stale() -> int:
    """Delete the uploads nobody will finish or come back for, with the file and the names
    they hold; the cron runs it, and every new upload does too."""
    deleted, _per_model = Upload.objects.stale().delete()
    return deleted


def finish(upload: Upload) -> None:
    """Free the account's and the club's upload, and forget the file."""
    Upload.objects.filter(pk=upload.pk).delete()


def read_received(received: Received, event: Event) -> tuple[ImportedEvent, str]:
    """The results of the file, and its format (recognised when the form said "auto")."""
    fmt = received.fmt
    if fmt == "auto":
        fmt = detect_format(received.filename, received.data)
    imported = read_file(
        received.data,
        fmt,
        event_date=event.date,
        event=received.event_name,
        limits=event_limits(),
    )
    return imported, fmt


def pending_for(
    event: Event, received: Received, imported: ImportedEvent, fmt: str
) -> corrections.PendingCorrection:
    return corrections.PendingCorrection(
        event_id=event.pk,
        version=received.version,
        source=f"file:{fmt}" if received.source == "file" else received.source,
        replace_entries=True,
        round_no=None,
        imported=imported,
        next_url=reverse("event_names", kwargs={"slug": event.club.slug, "event_id": event.pk}),
        newcomer_start=received.newcomer_start,
    )


def read_upload(upload_id: int) -> None:
    """Read a stored file, as the request would have: a draft's results are stored at once;
    a published event's wait, read, for the director to confirm on the progress page.

    Safe to run twice: only a waiting row is read.
    """
    claimed = Upload.objects.filter(pk=upload_id, status=Upload.Status.WAITING).update(
        status=Upload.Status.READING
    )
    if not claimed:
        return
    upload = Upload.objects.select_related("event__club", "user").get(pk=upload_id)
    received = Received.from_row(upload)
    status, outcome = Upload.Status.FAILED, {}
    with translation.override(upload.options.get("language") or settings.LANGUAGE_CODE):
        try:
            imported, fmt = read_received(received, upload.event)
            pending = pending_for(upload.event, received, imported, fmt)
            applied = not pending_changes.needs_confirmation(upload.event)
            if applied:
                pending.apply(upload.user)
            status, outcome = Upload.Status.DONE, {"pending": pending.to_json(), "applied": applied}
        except SeveralEventsError as error:
            outcome = {"error": error.message, "events": [list(e) for e in error.events]}
        except (ImportFileError, PublishingError) as error:
            outcome = {"error": error.message}
        except Exception:
            # The director's page must not wait for a row that nothing will finish.
            logger.exception("Reading upload %s failed", upload_id)
            outcome = {"error": not_read_message()}
    Upload.objects.filter(pk=upload_id).update(status=status, outcome=outcome, data=b"")


def not_read_message() -> str:
    return _("The file could not be read to the end. Send it again.")


def upload_job(upload_id: int) -> None:
    read_upload(upload_id)


def enqueue(upload_id: int) -> None:
    """Queue the reading of a stored file; without Redis, read it right away in-process."""
    if settings.REDIS_URL is None:
        read_upload(upload_id)
        return
    from redis.exceptions import RedisError

    from ladder.jobs import upload_queue

    try:
        # A queue of its own: the replays of every other club never wait behind this file.
        upload_queue().enqueue(upload_job, upload_id, job_timeout=settings.UPLOAD_STALE_SECONDS)
    except RedisError:
        # Nothing else would ever read it: read it here rather than leave the director waiting.
        logger.warning("Could not queue upload %s; reading it in the request", upload_id)
        read_upload(upload_id)
