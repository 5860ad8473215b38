"""The ladder as plain rows, CSV, JSON and a seeding list for a pairing program.

`ladder_rows` is the support view (full names, full precision) that the
export_ladder command prints; the rest serves the club pages' downloads, which
take rows with names already decided by ladder.roster.display.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from clubs.models import Club
from ladder.store import dated
from members.files.spreadsheet import csv_table

if TYPE_CHECKING:
    from clubs.models import Ladder
    from ladder.roster.rosters import LadderRow

LADDER_FIELDS = [
    "rank",
    "name",
    "rating",
    "rated_games",
    "provisional",
    "last_played",
    "last_change",
]
SEEDING_FIELDS = ["rank", "name", "rating"]
TRF_NAME_WIDTH = 33  # columns 15-47 of a FIDE TRF 001 line


def ladder_rows(
    club: Club, on: dt.date | None = None, ladder: Ladder | None = None
) -> list[dict[str, object]]:
    """The ladder (the club's first by default) in order as plain rows (full names: for
    directors and support staff); with `on`, as it stood at the end of that day
    (ladder.store.dated.ladder_on), the same players."""
    ladder = ladder or club.first_ladder()
    public = club.players.public()
    if on is None:
        players = list(
            public.rated_on(ladder)
            .on_ladder()
            .in_ladder_order()
            .values_list("name", "rating", "rated_games", "provisional")
        )
    else:
        names = dict(public.values_list("id", "name"))
        players = [
            (names[pid], s.rating, s.rated_games, s.provisional)
            for pid, s in dated.ladder_on(club, on, ladder)
            if pid in names and s.rated_games > 0
        ]
    return [
        {"rank": rank, "name": name, "rating": rating, "games": games, "provisional": provisional}
        for rank, (name, rating, games, provisional) in enumerate(players, start=1)
    ]


def public_ladder(rows: Iterable[LadderRow]) -> list[dict[str, object]]:
    """The ladder as the pages show it: shown names, whole ratings, changes to one decimal."""
    return [
        {
            "rank": row.rank,
            "name": row.player.name,
            "rating": row.player.rating_whole,
            "rated_games": row.player.rated_games,
            "provisional": row.player.provisional,
            "last_played": row.player.last_played.isoformat() if row.player.last_played else None,
            "last_change": None
            if row.player.last_change is None
            else round(row.player.last_change, 1),
        }
        for row in rows
    ]


def csv_text(rows: Iterable[dict[str, object]], fields: Sequence[str]) -> str:
    # members.files.spreadsheet defuses formulas for `;` and `,` spreadsheets alike.
    return csv_table(fields, ([row.get(key) for key in fields] for row in rows))


def trf_player_line(rank: int, name: str, rating: int | None) -> str:
    """A FIDE TRF 001 line with the starting rank (5-8), name (15-47) and rating (49-52)."""
    shown_rating = str(rating) if rating and 0 < rating <= 9999 else ""
    line = f"001 {rank:>4}{'':6}{name[:TRF_NAME_WIDTH]:<{TRF_NAME_WIDTH}} {shown_rating:>4}"
    return line.rstrip()


def seeding_trf(rows: Iterable[LadderRow]) -> str:
    """The next Swiss's starting list in ladder order, one 001 line per player."""
    lines = [trf_player_line(row.rank, row.player.name, row.player.rating_whole) for row in rows]
    return "".join(f"{line}\n" for line in lines)


def seeding_rows(rows: Iterable[LadderRow]) -> list[dict[str, object]]:
    return [
        {"rank": row.rank, "name": row.player.name, "rating": row.player.rating_whole}
        for row in rows
    ]
