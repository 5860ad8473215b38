"""Each player's standing on each of a club's ladders (clubs.models.Ladder), and what the
replay stores beside each event. Ratings and stored results are written only by the replay, through
ladder.store."""

from __future__ import annotations

from typing import ClassVar

from django.db import models
from django.db.models import Q

from clubs.models import Club, Event, Ladder, Player


class LadderRating(models.Model):
    """A player's standing on one ladder: written only by the replay (through ladder/store.py),
    except the starting estimate, which directors and import_roster set."""

    ladder = models.ForeignKey(Ladder, on_delete=models.CASCADE, related_name="ratings")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="ladder_ratings")
    # Written only by the ladder replay.
    rating = models.FloatField(null=True, blank=True)
    rated_games = models.PositiveIntegerField(default=0)
    provisional = models.BooleanField(default=True)
    last_played = models.DateField(null=True, blank=True)
    last_change = models.FloatField(null=True, blank=True)
    # A director's estimate for a newcomer, or the rating a club brought from its old
    # ladder; with start_games it is the state before the player's first event here.
    start_rating = models.FloatField(null=True, blank=True)
    start_games = models.PositiveIntegerField(default=0)

    class Meta:
        constraints: ClassVar[list[models.BaseConstraint]] = [
            models.UniqueConstraint(fields=["ladder", "player"], name="one_rating_per_ladder"),
            models.CheckConstraint(
                condition=Q(start_rating__isnull=True)
                | Q(start_rating__gte=0, start_rating__lte=4000),
                name="ladder_start_rating_in_range",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} on {self.ladder_id}: {self.rating}"


class RatedEvent(models.Model):
    """An event's place in its club's rated history and the fingerprint of its inputs."""

    event = models.OneToOneField(
        Event, primary_key=True, on_delete=models.CASCADE, related_name="rating"
    )
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="rated_events")
    ladder = models.ForeignKey(Ladder, on_delete=models.CASCADE, related_name="rated_events")
    position = models.PositiveIntegerField()
    chain_hash = models.CharField(max_length=64)
    # {game_id: [rated_for_white, rated_for_black, reason]} for the games NOT
    # rated for both sides (a game missing here was rated for both): one row
    # per event keeps a full replay of 100,000 games to a thousand writes.
    game_outcomes = models.JSONField(default=dict)

    class Meta:
        ordering: ClassVar[list[str]] = ["ladder", "position"]
        constraints: ClassVar[list[models.BaseConstraint]] = [
            models.UniqueConstraint(fields=["ladder", "position"], name="one_event_per_position"),
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

    # No index of their own: (ladder, player, position) and the unique (event,
    # player) start with these columns, and every index costs a full replay
    # ~35 ms of maintenance while it writes 40,000 rows.
    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, related_name="+", db_constraint=False, db_index=False
    )
    ladder = models.ForeignKey(
        Ladder, on_delete=models.CASCADE, related_name="+", db_constraint=False, db_index=False
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
            models.Index(fields=["ladder", "player", "position"]),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} in {self.event_id}: {self.change:+.1f}"


class LadderReplay(models.Model):
    """A log of replays that did work: for operators, and for tests that count them."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="replays")
    ladder = models.ForeignKey(Ladder, on_delete=models.CASCADE, related_name="replays")
    version = models.PositiveBigIntegerField()
    from_position = models.PositiveIntegerField()
    events_rated = models.PositiveIntegerField()
    started_at = models.DateTimeField()
    finished_at = models.DateTimeField()

    class Meta:
        ordering: ClassVar[list[str]] = ["-finished_at"]

    def __str__(self) -> str:
        return f"{self.ladder} v{self.version} from {self.from_position}"


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


class EventStandings(models.Model):
    """A published event's final standings as its page ranks them (points, the club's
    tie-breaks, the file's ranks when trusted): kept after each replay so the page need not
    work out every entrant's tie-breaks on each request (ladder/store/standings.py). Derived:
    the page uses the row only while `inputs` is the hash of what it was computed from
    (the event's games and entries, the club's tie-break order), else works them out."""

    event = models.OneToOneField(
        Event, primary_key=True, on_delete=models.CASCADE, related_name="kept_standings"
    )
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    inputs = models.CharField(max_length=64)
    # The hash of the inputs without the rating lines (the games, entries and tie-breaks):
    # while it matches, the rows' ranks, points and tie-breaks hold though the lines moved
    # (a correction to an earlier event), and only the rating lines, performances and sums
    # are worked out again. "": unknown (a row kept before it was).
    ranking = models.CharField(max_length=64, default="")
    # [[entry id, rank, points, played, byes, forfeits, [tie-break values], performance,
    # printed change, printed sums], ...] in rank order (ladder.standings.encoded).
    rows = models.JSONField()
    ranks_from_file = models.BooleanField(default=False)
    hides_tiebreaks = models.BooleanField(default=False)

    def __str__(self) -> str:
        return f"{self.event_id}'s standings"
