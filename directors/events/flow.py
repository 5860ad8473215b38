"""The upload-and-publish flow, in the order a director takes it: upload a file, name its
players, preview the ratings, publish. Each step is a function a screen, the upload job or a
command calls; the steps' own parts live beside this module.

1. **Upload** (`begin`, `read_upload`, `read_received`): the file is read within the event
   limits (settings.EVENT_MAX_*) and refused at the first entrant, round or game past one, not
   after it was read whole. One account, and one club, reads one file at a time: an `Upload`
   row in progress is the lock, taken in the database so that every web process and the worker
   see it; a row left by a crashed request or job stops counting after
   settings.UPLOAD_STALE_SECONDS. A large file (more than `LARGE_FILE_LINES` lines or
   `LARGE_FILE_BYTES`) is read by the background worker (`upload_job`); the director's progress
   page shows its outcome. Without Redis it runs in-process at once, as every job does. The
   results are stored as a draft (directors/events/results.py), or, on a published event, held
   as a correction to confirm (directors/events/corrections.py).
2. **Names**: who each typed name is, suggested from the roster and decided by the director
   (`names.review_names`, `names.apply_name_decisions` in directors/events/names.py, which the
   club night shares).
3. **Preview** (`preview_event`): the rating change each player would get, written nowhere. It
   rates the draft the way the replay (ladder/replay.py) will once it is published: the event's
   input from store.event_input, the states before it from store.states_before (or, when the
   ladder is not up to date, from the replay's own inputs folded in memory).
4. **Publish** (`publish_event`): the draft becomes a ladder input, once every typed name with
   a game has its player; it claims the event's edit version and calls `club_changed` in the
   same transaction. Taking it back (unpublish, delete, restore) is directors/events/publishing.py.

`import_event` takes all four at once for the import_event command: a whole file stored, every
decision `automatic_decisions` allows taken, and published when asked and no name is left.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from functools import cached_property
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Exists, OuterRef, Q
from django.urls import reverse
from django.utils import translation
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from clubs import audit
from clubs.models import (
    Club,
    Entry,
    Event,
    Game,
    Ladder,
    NewcomerStart,
    Upload,
    User,
)
from directors.date_notes import event_date_note, from_stored
from directors.edits import PublishingError, claim
from directors.events import corrections, pending_changes
from directors.events.drafts import EventDetails, listed, refuse_deleted, reload_event
from directors.events.names import (
    AutomaticDecisions,
    DecisionsApplied,
    apply_name_decisions,
    automatic_decisions,
    review_names,
)
from directors.events.results import (
    KEPT_WITHOUT_PLAYER,
    MAX_UPLOAD_BYTES,
    create_draft_from_import,
    kept_without_player,
)
from directors.importers import (
    ImportedEvent,
    ImportFileError,
    Limits,
    SeveralEventsError,
    TooLargeError,
    detect_format,
    parse_file,
)
from ladder import store
from ladder.changes import LadderInput, club_changed
from ladder.explain import ChangeSum, change_sum
from ladder.history import rate_history
from ladder.policies import get_policy
from ladder.policies.base import EventInput, EventRating
from ladder.replay import load_inputs

logger = logging.getLogger(__name__)


# --- 1. Upload ------------------------------------------------------------------------------------

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


# --- 2. Names -------------------------------------------------------------------------------------

# Who each typed name is: directors/events/names.py, shared with the club night. The names
# screen shows names.review_names; what the director decides is names.apply_name_decisions.


# --- 3. Preview -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class PreviewRow:
    player_id: int
    name: str
    typed_name: str
    pre_rating: float
    k: float | None
    provisional: bool
    games_counted: int
    expected: float
    actual: float
    change: float
    post_rating: float
    rated_games_after: int

    @cached_property
    def printed(self) -> ChangeSum:
        """Before, change and after as the public pages will print them: they add up."""
        return change_sum(
            pre=self.pre_rating,
            post=self.post_rating,
            change=self.change,
            k=self.k,
            actual=self.actual,
            expected=self.expected,
        )


@dataclass(frozen=True)
class EventPreview:
    rows: list[PreviewRow]
    unconfirmed: list[str]  # entrants with games but no confirmed player: no preview yet
    ladder_current: bool  # False: computed by replaying the earlier events in memory
    events_before: int
    # (variant, games) of the games that were not standard chess: never rated.
    variants: tuple[tuple[str, int], ...] = ()
    # Which date the imported file gave, from which record, and what to check; "" if none.
    date_note: str = ""


def preview_event(event: Event) -> EventPreview:
    """The rating change each player gets from this event, against the ladder as it stands
    at the event's place in the order (date, order in the day, creation). Writes nothing.

    The states before the event come from the stored results of the events before it when
    the ladder is up to date, else from an in-memory replay of those events. The ladder
    is the one the event's kind feeds; a kind no ladder rates previews no change.
    """
    ladder = Ladder.objects.showing(event.club_id, event.kind)
    current = ladder is None or ladder.is_current
    entries = {e.pk: e for e in event.entries.select_related("player")}
    game_rows = list(event.games.values_list("white_id", "black_id", "result", "variant"))
    variants = tuple(Counter(row[3] for row in game_rows if row[3]).items())
    unconfirmed = _unconfirmed_names(entries, game_rows)
    before_count = Event.objects.count_before(event, ladder)
    read = from_stored(event.file_date)
    note = event_date_note(*read, event.date) if read is not None else ""
    if unconfirmed:
        return EventPreview(
            [],
            unconfirmed,
            current,
            before_count,
            variants=variants,
            date_note=note,
        )
    # The kept forfeits drop out here, as they do from the replay's input.
    event_input = store.event_input(event)
    if ladder is None:
        return EventPreview([], [], current, before_count, variants=variants, date_note=note)
    rating = _rate(event, event_input, ladder, current=current, before_count=before_count)
    rows = _preview_rows(rating, entries)
    return EventPreview(rows, [], current, before_count, variants=variants, date_note=note)


def _unconfirmed_names(
    entries: dict[int, Entry], game_rows: Sequence[tuple[int, int | None, str, str]]
) -> list[str]:
    """The typed names of the entrants with a game to rate but no confirmed player, by entry
    id. An entrant left without a player keeps its forfeits as the file wrote
    them (never rated); every other game needs a player on both sides."""
    needed = [row for row in game_rows if not kept_without_player(row[1], row[2])]
    with_games = {row[0] for row in needed} | {row[1] for row in needed if row[1] is not None}
    return [entries[pk].typed_name for pk in sorted(with_games) if not entries[pk].player_id]


def _rate(
    event: Event, event_input: EventInput, ladder: Ladder, *, current: bool, before_count: int
) -> EventRating:
    """The event rated by the ladder's policy from its players' states before it: read from
    the stored results when the ladder is `current`, else replayed in memory."""
    participants = {
        pid for game in event_input.games for pid in (game.white, game.black) if pid is not None
    }
    policy = get_policy(ladder.rating_policy)
    settings = policy.parse_settings(ladder.rating_settings)
    if current:
        before = store.states_before(
            event.club_id, ladder.pk, before_count, policy.start_rating(settings), participants
        )
    else:
        inputs = load_inputs(ladder)
        earlier = [e for e in inputs.events if e.id != event.pk][:before_count]
        _steps, final = rate_history(policy, settings, earlier, inputs.initial)
        before = {pid: final[pid] for pid in participants}
    return policy.rate_event(event_input, before, settings)


def _preview_rows(rating: EventRating, entries: dict[int, Entry]) -> list[PreviewRow]:
    """One row a rated player, the biggest gain first."""
    by_player = {e.player_id: e for e in entries.values() if e.player_id is not None}
    rows = []
    for pid, o in rating.players.items():
        entry = by_player[pid]
        assert entry.player is not None  # by_player holds linked entries only
        rows.append(
            PreviewRow(
                player_id=pid, name=entry.player.name, typed_name=entry.typed_name, **o._asdict()
            )
        )
    rows.sort(key=lambda row: (-row.change, row.name))
    return rows


# --- 4. Publish -----------------------------------------------------------------------------------


def unconfirmed_names(event: Event) -> list[str]:
    """Typed names with a game in the event and no confirmed player: publishing waits for them.
    A forfeit against another entrant needs no player (a no-show keeps it, never rated)."""
    has_game = Game.objects.filter(Q(white=OuterRef("pk")) | Q(black=OuterRef("pk"))).exclude(
        black__isnull=False, result__in=KEPT_WITHOUT_PLAYER
    )
    return list(
        event.entries.filter(Exists(has_game), player__isnull=True)
        .order_by("start_rank", "id")
        .values_list("typed_name", flat=True)
    )


def publish_event(event_id: int, version: int, user: User | None) -> Event:
    """Make a draft a ladder input. Every entrant with a game must have a confirmed player."""
    with transaction.atomic():
        event = claim(event_id, version)
        refuse_deleted(event)
        if event.status == Event.Status.PUBLISHED:
            raise PublishingError(_("This event is already published."))
        if not event.games.exists():
            raise PublishingError(_("Enter the results before publishing."))
        unconfirmed = unconfirmed_names(event)
        if unconfirmed:
            raise PublishingError(
                ngettext(
                    "Confirm this name before publishing: %(names)s.",
                    "Confirm these %(count)d names before publishing: %(names)s.",
                    len(unconfirmed),
                )
                % {"names": listed(unconfirmed), "count": len(unconfirmed)}
            )
        Event.objects.filter(pk=event.pk).update(status=Event.Status.PUBLISHED)
        audit.record(event.club_id, user, "event.published", event_id=event.pk, name=event.name)
        club_changed(event.club_id, LadderInput.of_event(event))
    return reload_event(event_id)


# --- All four at once: the import_event command ---------------------------------------------------


@dataclass(frozen=True)
class ImportOptions:
    link_exact: bool = False
    publish: bool = False
    # Where new players start: the club's start rating, or the file's rating (NewcomerStart).
    newcomer_start: str = NewcomerStart.CLUB
    # Take the decisions automatic_decisions allows (the command always does); without, every
    # name waits for the director, as after a browser upload (the publish API without options).
    automatic: bool = True


@dataclass(frozen=True)
class ImportOutcome:
    event: Event
    created: int
    linked: int
    dropped: int  # entrants without a played game left without a player
    pending: list[str]  # names that need a director's decision; the event stays a draft
    published: bool


def import_event(
    club: Club,
    imported: ImportedEvent,
    details: EventDetails,
    options: ImportOptions,
    user: User | None = None,
) -> ImportOutcome:
    """Store a file as an event and take every decision `automatic_decisions` allows, in one
    transaction; publish too when asked and no name is left for a director."""
    with transaction.atomic():
        event = create_draft_from_import(
            club,
            imported,
            details,
            user,
            source="command",
            newcomer_start=options.newcomer_start,
        )
        reviews = review_names(event)
        auto = (
            automatic_decisions(reviews, link_exact=options.link_exact)
            if options.automatic
            else AutomaticDecisions([], [r.typed_name for r in reviews if r.player_id is None])
        )
        applied = DecisionsApplied(0, 0, 0)
        if auto.decisions:
            applied = apply_name_decisions(event.pk, event.edit_version, auto.decisions, user)
            event = reload_event(event.pk)
        published = False
        if options.publish and not auto.pending:
            event = publish_event(event.pk, event.edit_version, user)
            published = True
    return ImportOutcome(
        event, applied.created, applied.linked, applied.left_out, auto.pending, published
    )
