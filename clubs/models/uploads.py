"""A results file being read: the lock that lets one account, and one club, read one file at a
time, and (for a large file) the bytes the background worker reads.

Part of the clubs app's models (clubs/models/__init__.py imports it so Django registers it).
The rules that use it are in directors/events/flow.py.
"""

from __future__ import annotations

import datetime as dt
from typing import ClassVar

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone


class UploadQuerySet(models.QuerySet["Upload"]):
    def stale(self) -> UploadQuerySet:
        """Rows nobody will finish or look at any more: a crashed request or job leaves its
        row in progress, and a director may never come back for a finished one."""
        cutoff = timezone.now() - dt.timedelta(seconds=settings.UPLOAD_STALE_SECONDS)
        return self.filter(created_at__lt=cutoff)


class Upload(models.Model):
    class Status(models.TextChoices):
        WAITING = "waiting"  # stored, for the worker
        READING = "reading"  # read in the request, or by the worker
        DONE = "done"  # read (and a draft's results stored): the director's next page is ready
        FAILED = "failed"  # refused: `outcome` holds the message

    IN_PROGRESS: ClassVar[list[str]] = [Status.WAITING, Status.READING]

    club = models.ForeignKey("clubs.Club", on_delete=models.CASCADE, related_name="uploads")
    event = models.ForeignKey("clubs.Event", on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.READING)
    # The file, only while the worker has still to read it; emptied once it has.
    data = models.BinaryField(default=b"", blank=True)
    # What the form said: format, file name, event in the file, newcomer start, version,
    # source and the director's language (the worker answers in it).
    options = models.JSONField(default=dict)
    # Once done or failed: the results read (directors.events.corrections.PendingCorrection's JSON)
    # and
    # whether they are stored already, or the refusal.
    outcome = models.JSONField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    objects = UploadQuerySet.as_manager()

    class Meta:
        constraints: ClassVar[list[models.BaseConstraint]] = [
            # Across every web process and the worker: the database refuses the second.
            models.UniqueConstraint(
                fields=["user"],
                condition=Q(status__in=["waiting", "reading"]),
                name="one_upload_in_progress_per_user",
            ),
            models.UniqueConstraint(
                fields=["club"],
                condition=Q(status__in=["waiting", "reading"]),
                name="one_upload_in_progress_per_club",
            ),
        ]

    def __str__(self) -> str:
        return f"upload {self.pk} ({self.status})"
