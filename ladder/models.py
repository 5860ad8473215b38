"""What the replay stores beside each event. Written only by the replay, through ladder.store."""

from __future__ import annotations

from typing import ClassVar

from django.db import models

from clubs.models import Club, Event, Player


class RatedEvent(models.Model):
    """An event's place in its club's rated history and the fingerprint of its inputs."""

    event = models.OneToOneField(
        Event, primary_key=True, on_delete=models.CASCADE, related_name="rating"
    )
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="rated_events")
    position = models.PositiveIntegerField()
    chain_hash = models.CharField(max_length=64)
    # {game_id: [rated_for_white, rated_for_black, reason]} for the games NOT
    # rated for both sides (a game missing here was rated for both): one row
    # per event keeps a full replay of 100,000 games to a thousand writes.
    game_outcomes = models.JSONField(default=dict)

    class Meta:
        ordering: ClassVar[list[str]] = ["club", "position"]
        constraints: ClassVar[list[models.BaseConstraint]] = [
            models.UniqueConstraint(fields=["club", "position"], name="one_event_per_position"),
        ]

    def __str__(self) -> str:
        return f"{self.event} at {self.position}"


class PlayerEventResult(models.Model):
    """One player's rating arithmetic in one event.

    Derived rows, written only by the replay and checked by verify_ladder. Their
    foreign keys carry no database constraint: checking 120,000 of them at the
    commit of a full replay cost most of a second, and the ORM still cascades
    deletes of clubs, events and players to these rows.
    """

    # No index of their own: (club, player, position) and the unique (event,
    # player) start with these columns, and every index costs a full replay
    # ~35 ms of maintenance while it writes 40,000 rows.
    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, related_name="+", db_constraint=False, db_index=False
    )
    event = models.ForeignKey(
        Event,
        on_delete=models.CASCADE,
        related_name="player_results",
        db_constraint=False,
        db_index=False,
    )
    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="event_results", db_constraint=False
    )
    position = models.PositiveIntegerField()
    event_date = models.DateField()
    pre_rating = models.FloatField()
    k = models.FloatField(null=True)
    provisional = models.BooleanField()
    games_counted = models.PositiveIntegerField()
    expected = models.FloatField()
    actual = models.FloatField()
    change = models.FloatField()
    post_rating = models.FloatField()
    rated_games_after = models.PositiveIntegerField()

    class Meta:
        ordering: ClassVar[list[str]] = ["position", "player_id"]
        constraints: ClassVar[list[models.BaseConstraint]] = [
            models.UniqueConstraint(fields=["event", "player"], name="one_result_per_event_player"),
        ]
        indexes: ClassVar[list[models.Index]] = [
            models.Index(fields=["club", "player", "position"]),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} in {self.event_id}: {self.change:+.1f}"


class LadderReplay(models.Model):
    """A log of replays that did work: for operators, and for tests that count them."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="replays")
    version = models.PositiveBigIntegerField()
    from_position = models.PositiveIntegerField()
    events_rated = models.PositiveIntegerField()
    started_at = models.DateTimeField()
    finished_at = models.DateTimeField()

    class Meta:
        ordering: ClassVar[list[str]] = ["-finished_at"]

    def __str__(self) -> str:
        return f"{self.club} v{self.version} from {self.from_position}"


class PlayerRecord(models.Model):
    """A player's lifetime in the club as the player page shows it (ladder/lifetime.py):
    summed by the replay from every game of the player, so the page reads one row instead
    of every game of a long history. Derived, written only by the replay and checked by
    verify_ladder."""

    player = models.OneToOneField(
        Player, primary_key=True, on_delete=models.CASCADE, related_name="+"
    )
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    summary = models.JSONField()

    def __str__(self) -> str:
        return f"{self.player_id}'s record"
