"""Bye dummies are not people: the pseudo-players tournament programs write for a bye.

Swiss-Manager writes a "spielfrei" entrant so that the bye has an opponent; other programs
and clubs write "Freilos", "bye", "vrij" or "exempt". Such an entrant must never become a
player, a row or a count: it is left out, and a pairing against it is the real player's
bye, worth what the file scored it.

The rule, on every import path: an entrant is a dummy when its whole name is one of
`PSEUDO_NAMES` (letter case, spaces and a leading or trailing full stop aside); whatever
its pairings say (a program may write the bye's win over the dummy as 1-0 or as a forfeit)
they are its opponents' byes. Nothing else makes one: not a short name, not a name that
holds such a word ("Bye, Tom", "Frei, Lars", "Fox, Anthony" are people), and not a TRF line
with only not-paired cells and no rating, federation or points. That is a no-show, and it
is what our own TRF export writes for an entrant who played no game: reading such lines as
dummies lost every unrated no-show of an event on each re-import (issue 33).

Pure Python: no Django.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import replace

from clubs.results import Result

from .base import ImportedEvent, ImportedGame, count_rounds, name_key

# Names that tournament programs give the dummy opponent of a bye.
PSEUDO_NAMES = frozenset(
    {"spielfrei", "freilos", "bye", "bye player", "exempt", "descanso", "vrij", "vrijgeloot"}
)

# A pairing against a dummy is the pairing's bye, as TRF's U: worth what the file scored it.
_BYE_FOR_SCORE = {
    1.0: Result.BYE_PAIRING,
    0.5: Result.BYE_PAIRING_HALF,
    0.0: Result.BYE_PAIRING_ZERO,
}


def is_pseudo_name(name: str) -> bool:
    return name_key(name).strip(" .") in PSEUDO_NAMES


def people_among(name_keys: Collection[str]) -> int:
    """How many of these name keys are people: what the entrants limit counts while a file is
    read, so that 2,000 players and Swiss-Manager's "spielfrei" fit an event of 2,000."""
    return len(name_keys) - sum(1 for name in PSEUDO_NAMES if name in name_keys)


def without_pseudo_players(event: ImportedEvent) -> ImportedEvent:
    """`event` without its bye dummies; their pairings become byes of their opponents."""
    dummies = {p.key: p for p in event.players if is_pseudo_name(p.name)}
    if not dummies:
        return event
    games: list[ImportedGame] = []
    for game in event.games:
        white_dummy, black_dummy = game.white in dummies, game.black in dummies
        if white_dummy and (game.black is None or black_dummy):
            continue  # the dummy's own "not paired" cell, or two dummies
        if white_dummy or black_dummy:
            player = game.black if white_dummy else game.white
            assert player is not None
            score = game.result.scores[1 if white_dummy else 0]
            games.append(ImportedGame(game.round, player, None, _BYE_FOR_SCORE[score], game.line))
            continue
        games.append(game)
    warnings = [
        f"Line {p.line}: '{p.name}' is the placeholder a tournament program writes for a bye, "
        "not a person: it is no entrant, and a pairing against it is its opponent's bye."
        for p in dummies.values()
    ]
    return replace(
        event,
        players=tuple(p for p in event.players if p.key not in dummies),
        games=tuple(games),
        rounds=count_rounds(games),
        warnings=(*event.warnings, *warnings),
    )
