"""What directors decided about players, and who changed what: merges, dismissed duplicate
pairs and the audit log.

Part of the clubs app's models, re-exported from clubs/models/__init__.py; kept apart
from the clubs, players and events they are about.
"""

from __future__ import annotations

from typing import ClassVar

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone


class Merge(models.Model):
    """Two player records found to be one person. Undoing it restores both exactly."""

    club = models.ForeignKey("clubs.Club", on_delete=models.CASCADE, related_name="merges")
    kept = models.ForeignKey("clubs.Player", on_delete=models.PROTECT, related_name="merges_kept")
    merged = models.ForeignKey(
        "clubs.Player", on_delete=models.PROTECT, related_name="merges_absorbed"
    )
    # Exactly what moved, so an undo moves back these rows and nothing added later.
    moved_entry_ids = models.JSONField(default=list)
    moved_alias_ids = models.JSONField(default=list)
    created_alias_ids = models.JSONField(default=list)
    # The kept player was held (clubs.models.Player.held) and the merge released them, as
    # the merged one was not: the undo holds them again.
    released_kept = models.BooleanField(default=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    undone_at = models.DateTimeField(null=True, blank=True)
    undone_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering: ClassVar[list[str]] = ["-created_at"]
        constraints: ClassVar[list[models.BaseConstraint]] = [
            models.CheckConstraint(condition=~Q(kept=models.F("merged")), name="merge_two_players"),
        ]

    def __str__(self) -> str:
        return f"{self.merged} into {self.kept}"


class DuplicateDismissal(models.Model):
    """A director said these two players are different people; stop suggesting the pair."""

    club = models.ForeignKey(
        "clubs.Club", on_delete=models.CASCADE, related_name="dismissed_duplicates"
    )
    # Stored with first.pk < second.pk so a pair is one row whichever way it was shown.
    first = models.ForeignKey("clubs.Player", on_delete=models.CASCADE, related_name="+")
    second = models.ForeignKey("clubs.Player", on_delete=models.CASCADE, related_name="+")
    dismissed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints: ClassVar[list[models.BaseConstraint]] = [
            models.UniqueConstraint(fields=["first", "second"], name="one_dismissal_per_pair"),
            models.CheckConstraint(
                condition=Q(first__lt=models.F("second")), name="dismissal_pair_ordered"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.first} ≠ {self.second}"


class AuditEntry(models.Model):
    """Who changed what in a club, written in the same transaction as the change."""

    club = models.ForeignKey("clubs.Club", on_delete=models.CASCADE, related_name="audit_entries")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    action = models.CharField(max_length=60)
    details = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(default=timezone.now, db_index=True)

    class Meta:
        ordering: ClassVar[list[str]] = ["-created_at", "-id"]
        verbose_name_plural = "audit entries"

    def __str__(self) -> str:
        return f"{self.created_at:%Y-%m-%d %H:%M} {self.action}"
