"""The preview of an event: the rating change each player would get, written nowhere.

It rates the draft the way the replay (ladder/replay.py) will once it is published: the
event's input from store.event_input, the states before it from store.states_before (or,
when the ladder is not up to date, from the replay's own inputs folded in memory).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

from clubs.models import Entry, Event, Ladder
from directors.date_notes import event_date_note, from_stored
from directors.events.results import kept_without_player
from ladder import store
from ladder.explain import ChangeSum, change_sum
from ladder.history import rate_history
from ladder.policies import get_policy
from ladder.policies.base import EventInput, EventRating
from ladder.replay import load_inputs


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
