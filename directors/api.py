"""The publish API (issue 37, part 4): POST /api/v1/clubs/<slug>/events, a results file sent
by a program (a pairing program's export, a script) with a publish-scoped API token.

What a director does in the browser, so it lives here; config/urls.py adds this router to
the read API's NinjaAPI (members/api/routes.py), which keeps one schema at
/api/v1/openapi.json and one set of error answers. The file goes through the upload page's
importers and limits (flow.read_file, flow.event_limits, MAX_UPLOAD_BYTES) and is stored as
a browser upload stores it, every name waiting for the director on the names screen; or, with
link_exact or publish, as the import_event command stores it (flow.import_event with its
ImportOptions), published with publish when no name is left for a decision. An
Idempotency-Key makes a retried request answer as the first did, with no second event. Bad
input is a JSON 4xx and stores nothing.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from typing import Any

from django.db import IntegrityError, transaction
from django.http import Http404, HttpRequest
from django.urls import reverse
from django.utils import timezone
from ninja import File, Form, Router, Schema
from ninja.errors import HttpError
from ninja.files import UploadedFile
from ninja.responses import Status
from ninja.security import HttpBearer
from pydantic import Field

from clubs.access import NOT_FOUND
from clubs.models import ApiToken, Club, Event, IdempotencyKey
from clubs.tokens import find_token, use_token
from directors.edits import PublishingError
from directors.events.drafts import EventDetails
from directors.events.flow import ImportOptions, event_limits, import_event, read_file
from directors.events.results import MAX_UPLOAD_BYTES
from directors.importers import ImportFileError, detect_format
from members.api.schemas import Error, Invalid

# A retried request within this time answers as the first; after it the key may be used again.
IDEMPOTENCY_HOURS = 24
IDEMPOTENCY_KEY_LENGTH = IdempotencyKey._meta.get_field("key").max_length or 200
# The form's own fields besides the file: the most a request may add to the file's size.
FORM_ALLOWANCE_BYTES = 64 * 1024
CREATED = 201


class PublishToken(HttpBearer):
    """A live API token (any club, any scope: the operation says which it needs, so that
    another club's token is a 404 as an unknown club is, and a read token a 403). A missing,
    forged or revoked token is ninja's 401. The request's size is checked first, before
    Django reads the body."""

    def __call__(self, request: HttpRequest) -> Any:
        length = request.META.get("CONTENT_LENGTH") or "0"
        if length.isdigit() and int(length) > MAX_UPLOAD_BYTES + FORM_ALLOWANCE_BYTES:
            raise HttpError(413, _too_large())
        return super().__call__(request)

    def authenticate(self, request: HttpRequest, token: str) -> ApiToken | None:
        found = find_token(token)
        if found is not None:
            use_token(found)
        return found


class PublishForm(Schema):
    name: str | None = Field(
        None, max_length=100, description="The event's name; default: the file's."
    )
    date: dt.date | None = Field(None, description="YYYY-MM-DD; default: the file's.")
    kind: Event.Kind = Field(Event.Kind.STANDARD, description="The event's kind.")
    format: str = Field(
        "auto", pattern="^(auto|trf|pgn|csv)$", description="trf, pgn or csv; default: detected."
    )
    event: str | None = Field(
        None, max_length=200, description="For a PGN file of several events: the one to import."
    )
    unrated: bool = Field(False, description="The event changes no rating.")
    link_exact: bool = Field(
        False, description="Link a name that is, once normalised, exactly one player's."
    )
    publish: bool = Field(
        False, description="Publish when no name is left for the director's decision."
    )


class Published(Schema):
    event_id: int
    status: str = Field(description="draft (names wait for the director) or published.")
    names_waiting: list[str] = Field(description="The names that need the director's decision.")
    created: int = Field(description="New players made from names nobody on the roster has.")
    linked: int = Field(description="Names linked to players on the roster.")
    finish_url: str = Field(description="The page to finish in the browser (the names screen).")
    warnings: list[str]


router = Router(tags=["publish"])


@router.post(
    "/clubs/{slug}/events",
    auth=PublishToken(),
    response={
        200: Published,
        201: Published,
        400: Error,
        401: Error,
        403: Error,
        404: Error,
        409: Error,
        413: Error,
        422: Invalid,
        429: Error,
    },
    url_name="publish_event",
    summary="Publish a results file (TRF, PGN or CSV) as an event",
)
def publish_event(
    request: HttpRequest,
    slug: str,
    file: File[UploadedFile],
    form: Form[PublishForm],
) -> Any:
    token: ApiToken = request.auth  # type: ignore[attr-defined]
    club = Club.objects.filter(slug=slug).first()
    if club is None or token.club_id != club.pk:
        raise Http404(NOT_FOUND)
    if not token.may_publish():
        raise HttpError(403, "This token may only read: publishing needs a publish token.")
    data = file.read(MAX_UPLOAD_BYTES + 1)
    if len(data) > MAX_UPLOAD_BYTES:
        raise HttpError(413, _too_large())
    key = request.headers.get("Idempotency-Key")
    if key is None:
        return Status(CREATED, _import(request, club, token, data, file.name or "", form))
    key = key.strip()
    if not key or len(key) > IDEMPOTENCY_KEY_LENGTH:
        raise HttpError(400, f"An Idempotency-Key has 1 to {IDEMPOTENCY_KEY_LENGTH} characters.")
    return _once(request, club, token, key, data, file.name or "", form)


def _once(
    request: HttpRequest,
    club: Club,
    token: ApiToken,
    key: str,
    data: bytes,
    filename: str,
    form: PublishForm,
) -> Any:
    """The request's answer, made once per key: a retry with the same body gets the stored
    answer; another body under the same key is refused (409)."""
    body = _body_hash(data, filename, form)
    expired = timezone.now() - dt.timedelta(hours=IDEMPOTENCY_HOURS)
    IdempotencyKey.objects.filter(club=club, created_at__lt=expired).delete()
    earlier = IdempotencyKey.objects.filter(club=club, key=key).first()
    if earlier is None:
        try:
            # The key is stored with the event, in one transaction: a parallel retry waits on
            # the key's unique row and then reads the first answer.
            with transaction.atomic():
                answer = _import(request, club, token, data, filename, form)
                IdempotencyKey.objects.create(
                    club=club,
                    key=key,
                    body_hash=body,
                    event_id=answer.event_id,
                    answer=answer.dict(),
                    status=CREATED,
                )
            return Status(CREATED, answer)
        except IntegrityError:
            earlier = IdempotencyKey.objects.filter(club=club, key=key).first()
            if earlier is None:
                raise
    if earlier.body_hash != body:
        raise HttpError(
            409, "This Idempotency-Key was used for another request: use a new key for a new file."
        )
    return Status(earlier.status, Published(**earlier.answer))


def _body_hash(data: bytes, filename: str, form: PublishForm) -> str:
    digest = hashlib.sha256(data)
    fields = json.dumps({"filename": filename, **form.dict()}, default=str, sort_keys=True)
    digest.update(b"\x00" + fields.encode())
    return digest.hexdigest()


def _import(
    request: HttpRequest,
    club: Club,
    token: ApiToken,
    data: bytes,
    filename: str,
    form: PublishForm,
) -> Published:
    try:
        fmt = detect_format(filename, data) if form.format == "auto" else form.format
        imported = read_file(
            data,
            fmt,
            event_date=form.date,
            event=form.event,
            limits=event_limits(file_bytes=MAX_UPLOAD_BYTES),
        )
    except ImportFileError as error:
        raise HttpError(400, error.message) from None
    name = form.name or imported.name
    date = form.date or imported.date
    missing = [what for what, value in (("name", name), ("date", date)) if not value]
    if missing or name is None or date is None:
        raise HttpError(
            400, f"The file does not give the event's {' and '.join(missing)}: send it."
        )
    details = EventDetails(name=name, date=date, kind=form.kind, rated=not form.unrated)
    # Without options the draft waits for every name, exactly as after a browser upload; with
    # them, the import_event command's decisions are taken.
    options = ImportOptions(
        link_exact=form.link_exact,
        publish=form.publish,
        automatic=form.link_exact or form.publish,
    )
    try:
        outcome = import_event(club, imported, details, options, token.created_by)
    except (ImportFileError, PublishingError) as error:
        raise HttpError(400, error.message) from None
    finish = reverse("event_names", kwargs={"slug": club.slug, "event_id": outcome.event.pk})
    return Published(
        event_id=outcome.event.pk,
        status="published" if outcome.published else "draft",
        names_waiting=list(outcome.pending),
        created=outcome.created,
        linked=outcome.linked,
        finish_url=request.build_absolute_uri(finish),
        warnings=list(imported.warnings),
    )


def _too_large() -> str:
    return f"The request is larger than {MAX_UPLOAD_BYTES} bytes, the most a results file may be."
