"""Bye dummies are not people: the pseudo-players tournament programs write for a bye.

Swiss-Manager writes a "spielfrei" entrant so that the bye has an opponent; other programs
and clubs write "Freilos", "bye", "vrij" or "exempt". Such an entrant must never become a
player, a row or a count: it is left out, and a pairing against it is the real player's
bye, worth what the file scored it.

A TRF entrant with no rating, ID, federation or points whose every written round cell is
"0000 - -" (not paired) is a dummy too, whatever it is called: an entrant with byes is a
person who took byes, an entrant whose cells are blank is a no-show, and a team's reserve
has a federation; they all stay.

Pure Python: no Django.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import replace

from ladder.results import Result

from .base import ImportedEvent, ImportedGame, ImportedPlayer, count_rounds, name_key

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
    with_opponent = {
        side for game in event.games if game.black is not None for side in (game.white, game.black)
    }
    dummies = {p.key: p for p in event.players if _is_dummy(p, with_opponent)}
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


def _is_dummy(player: ImportedPlayer, with_opponent: set[int]) -> bool:
    return is_pseudo_name(player.name) or (player.bye_dummy and player.key not in with_opponent)
