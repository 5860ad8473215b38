"""One event out as TRF16 or CSV: the database side of members.files.event_files.

Names follow ladder.roster.display like every page: a director (and the export_event command) gets
full names; the public download gets the names the event's public page shows, and an entrant
with no player behind it (the public page says "unconfirmed player") gets initials, because
nobody knows whether that person is a junior. Ratings are the ladder's at the event's start,
as the stored results leave them (ladder.store.states_before), whole. The TRF's place column
is the event's final ranking as its page shows it (members.pages.events.event_pages.final_ranking:
the club's tie-breaks, or the file's own ranks where the page follows them), and record 092
says whether its tie-breaks are a round robin's, so a re-import ranks it the same (issue 33).
"""

from __future__ import annotations

import dataclasses

from django.db.models import F

from clubs.models import Event, Ladder
from clubs.results import Result
from ladder import store
from ladder.policies import get_policy
from ladder.roster.display import initials
from ladder.roster.rosters import load_roster
from members.files.event_files import EventFile, FileGame, FilePlayer, csv_text, trf_text
from members.pages.events.event_pages import event_tiebreaks, final_ranking


def event_file(event: Event, *, viewer_is_director: bool, places: bool = True) -> EventFile:
    """The event as its files hold it; with `places`, each player's final rank as the event
    page shows it (a TRF's place column; a CSV has none, and ranking an open costs ~60 ms)."""
    entries = list(
        event.entries.order_by(F("start_rank").asc(nulls_last=True), "id").values_list(
            "id",
            "typed_name",
            "player_id",
            "player__name",
            "start_rank",
            "rating_in_file",
            "federation",
        )
    )
    ranks = _ranks([(entry[0], entry[4]) for entry in entries])
    ranked = final_ranking(event).standings if places else []
    place = {standing.entry_id: standing.rank for standing in ranked}
    shown = {} if viewer_is_director else load_roster(event.club, viewer_is_director=False).names
    ratings = _ratings_at_start(event, {entry[2] for entry in entries if entry[2]})
    players = []
    for entry_id, typed, player_id, player_name, _rank, file_rating, fed in entries:
        if player_id is None:
            name = typed if viewer_is_director else initials(typed)
        else:
            name = player_name if viewer_is_director else shown.get(player_id, initials(typed))
        # An entrant left without a player has no ladder rating: the one its file gave, so
        # that a re-import reads the same rating back.
        rating = ratings.get(player_id) if player_id else file_rating
        federation = fed if viewer_is_director else ""
        players.append(FilePlayer(ranks[entry_id], name, rating, place.get(entry_id), federation))
    players = _distinct(players)
    games = [
        FileGame(round_no, ranks[white], ranks[black] if black else None, Result(code), variant)
        for round_no, white, black, code, variant in event.games.order_by(
            "round", "id"
        ).values_list("round", "white_id", "black_id", "result", "variant")
    ]
    if event.pairing_system:
        # A club night's boards still being played: paired, no result yet (a blank result in
        # the TRF, "*" in the CSV), so the file holds every round's pairings.
        playing = event.boards.filter(game__isnull=True, black__isnull=False)
        games += [
            FileGame(round_no, ranks[white], ranks[black], Result.NO_RESULT)
            for round_no, white, black in playing.order_by("round", "number").values_list(
                "round", "white_id", "black_id"
            )
        ]
        games.sort(key=lambda game: game.round)  # stable: each round's games in their order
    robin = event_tiebreaks(event).round_robin
    return EventFile(event.name, event.date, tuple(players), tuple(games), robin)


def event_trf(event: Event, *, viewer_is_director: bool) -> str:
    text = trf_text(event_file(event, viewer_is_director=viewer_is_director))
    if event.pairing_system:
        # A club night's board the director changed by hand after the engine paired it
        # (directors/night/changes.py): a TRF comment, which every reader skips.
        changed = event.boards.filter(changed_by_director=True).order_by("round", "number")
        text += "".join(
            f"### round {round_no} board {number}: changed by the director\r\n"
            for round_no, number in changed.values_list("round", "number")
        )
    return text


def event_csv(event: Event, *, viewer_is_director: bool) -> str:
    return csv_text(event_file(event, viewer_is_director=viewer_is_director, places=False))


def file_name(event: Event, extension: str) -> str:
    return f"{event.club.slug}-event-{event.pk}.{extension}"


def _ranks(entries: list[tuple[int, int | None]]) -> dict[int, int]:
    """Each entry's starting rank: the file's own when every entry has a distinct one (so a
    TRF file goes out with the numbers it came in with), else 1..n in the stored order."""
    given = [rank for _entry, rank in entries]
    if all(rank and rank <= 9999 for rank in given) and len(set(given)) == len(given):
        return {entry: rank for entry, rank in entries if rank}
    return {entry: number for number, (entry, _rank) in enumerate(entries, start=1)}


def _ratings_at_start(event: Event, player_ids: set[int]) -> dict[int, int]:
    if not player_ids:
        return {}
    # The ladder the event's kind feeds; for a kind no ladder rates, the club's first.
    ladder = Ladder.objects.showing(event.club_id, event.kind) or event.club.first_ladder()
    policy = get_policy(ladder.rating_policy)
    start = policy.start_rating(policy.parse_settings(ladder.rating_settings))
    before = store.states_before(
        event.club_id, ladder.pk, Event.objects.count_before(event, ladder), start, player_ids
    )
    return {pid: round(state.rating) for pid, state in before.items()}


def _distinct(players: list[FilePlayer]) -> list[FilePlayer]:
    """Two entrants shown alike ("J. B." twice) get " (2)": a CSV names players, it has no
    starting ranks, so a re-import would take them for one person."""
    seen: dict[str, int] = {}
    out = []
    for player in players:
        key = player.name.casefold()
        seen[key] = seen.get(key, 0) + 1
        if seen[key] > 1:
            player = dataclasses.replace(player, name=f"{player.name} ({seen[key]})")
        out.append(player)
    return out
