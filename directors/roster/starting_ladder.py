"""Importing a club's existing ladder (name, rating, games, junior) as starting states."""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass

from django.db import transaction

from clubs.models import Club, Ladder, Player
from ladder.changes import LadderInput, club_changed
from ladder.models import LadderRating
from matching import clean_name

_YES = {"yes", "y", "true", "1", "ja", "j"}
_NO = {"no", "n", "false", "0", "nee", "nein", ""}


class StartingLadderError(ValueError):
    """A starting ladder file that cannot be imported; the message names the line."""


@dataclass(frozen=True)
class StartingLadderRow:
    name: str
    rating: float
    games: int
    junior: bool


def parse_starting_ladder(data: bytes) -> list[StartingLadderRow]:
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = data.decode("cp1252", errors="strict") if _is_cp1252(data) else ""
        if not text:
            raise StartingLadderError("The file is not text in UTF-8 or Windows-1252.") from None
    if "\x00" in text:
        raise StartingLadderError("The file is not a CSV text file.")
    reader = csv.DictReader(io.StringIO(text, newline=""))
    fields = [f.strip().lower() for f in reader.fieldnames or []]
    missing = {"name", "rating", "games"} - set(fields)
    if missing:
        raise StartingLadderError(f"Line 1: missing column(s) {', '.join(sorted(missing))}")
    reader.fieldnames = fields
    rows: list[StartingLadderRow] = []
    seen: set[str] = set()
    for record in reader:
        line = reader.line_num  # the line the record ends on, blank lines included
        name = clean_name(record.get("name") or "")
        if not name:
            raise StartingLadderError(f"Line {line}: the name is empty")
        if len(name) > 120:
            raise StartingLadderError(f"Line {line}: the name is longer than 120 characters")
        if name.casefold() in seen:
            raise StartingLadderError(f"Line {line}: {name} appears twice")
        seen.add(name.casefold())
        try:
            rating = float((record.get("rating") or "").strip())
            games = int((record.get("games") or "").strip())
        except ValueError:
            raise StartingLadderError(f"Line {line}: rating and games must be numbers") from None
        if not 0 <= rating <= 4000 or games < 0:
            raise StartingLadderError(f"Line {line}: rating must be 0–4000 and games at least 0")
        junior_text = (record.get("junior") or "").strip().lower()
        if junior_text not in _YES | _NO:
            raise StartingLadderError(f"Line {line}: junior must be yes or no, not {junior_text!r}")
        rows.append(StartingLadderRow(name, rating, games, junior_text in _YES))
    if not rows:
        raise StartingLadderError("The file has no players.")
    return rows


def _is_cp1252(data: bytes) -> bool:
    try:
        data.decode("cp1252")
    except UnicodeDecodeError:
        return False
    return True


@transaction.atomic
def import_starting_ladder(
    club: Club, rows: list[StartingLadderRow], ladder: Ladder | None = None
) -> int:
    """Create one player per row, starting on `ladder` (the club's first by default) at the
    row's rating and games; refuses the whole file if a name is already on the roster."""
    from matching import name_key

    ladder = ladder or club.first_ladder()

    existing = {n.casefold() for n in club.players.values_list("name", flat=True)}
    clashes = [row.name for row in rows if row.name.casefold() in existing]
    if clashes:
        raise StartingLadderError(f"Already on the roster: {', '.join(clashes[:10])}")
    players = Player.objects.bulk_create(
        Player(club=club, name=row.name, name_key=name_key(row.name), junior=row.junior)
        for row in rows
    )
    LadderRating.objects.bulk_create(
        LadderRating(ladder=ladder, player=player, start_rating=row.rating, start_games=row.games)
        for player, row in zip(players, rows, strict=True)
    )
    club_changed(club.pk, LadderInput())
    return len(rows)
