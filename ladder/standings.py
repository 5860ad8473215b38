"""An event's standings: every entrant's points, games, byes and forfeits, ranked by points
then the club's tie-breaks (the tournament file's own ranks where ladder.rules.file_ranks
trusts them), and their rating lines and performances.

The final standings of a published event are also kept (ladder/store/standings.py, after
each replay) under the hash of what they are computed from, `inputs`: an open of 284
players took ~20 ms a request to rank, and the page reads them back in one row instead.
The rows are written and read here (`encoded`, `decoded`), so a kept ranking is the one
this module computes."""

from __future__ import annotations

import hashlib
import marshal
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

from clubs.results import Result
from ladder import performance, tiebreaks
from ladder.event_ratings import RatingLine
from ladder.event_rules import GameRow, Tiebreaks
from ladder.page_texts import points_text
from ladder.rules.file_ranks import file_ranking

# Moves whenever what a kept row holds, or how it is ranked, changes: every kept row is then
# out of date at once (neither its inputs' hash nor its ranking's matches) and each page
# ranks live until a replay, or the page's first read, has it kept again.
FORMAT = 2

# Only events of at least this many entrants are kept: a club night of 8 or 20 is ranked
# in a millisecond or two, less than keeping it would cost every replay that reaches it;
# an open of 284 took ~30 ms. Read at call time (tests set it lower).
KEPT_FROM_ENTRANTS = 30

# An entry's name on the page: (player id or None, shown name, start rank), by entry id.
People = Mapping[int, tuple[int | None, str, int]]


@dataclass
class Standing:
    entry_id: int
    player_id: int | None
    name: str
    start_rank: int
    points: float = 0.0
    played: int = 0
    byes: int = 0
    forfeits: int = 0
    rank: int = 0
    rating: RatingLine | None = None
    # FIDE tie-breaks (ladder.tiebreaks) in the club's order; the page shows them beside
    # the points.
    tiebreak_values: tuple[float, ...] = ()  # in the club's order (EventPage.order)
    # From the games played over the board against the opponents' ratings before the event.
    performance: int | None = None

    @property
    def points_text(self) -> str:
        return points_text(self.points)


@dataclass(frozen=True)
class Ranked:
    """The final standings, and whether they follow the file's ranks and leave out the
    club's tie-breaks (the file broke some tie otherwise than they would)."""

    standings: list[Standing]
    ranks_from_file: bool = False
    hides_tiebreaks: bool = False


def standings(
    people: People,
    games: Sequence[GameRow],
    ratings: Mapping[int, RatingLine],
    rules: Tiebreaks,
) -> list[Standing]:
    """Points, counts, rating lines and performances from `games`, ranked by points then the
    club's tie-breaks (the standings after a round: the file's ranks are final ones)."""
    entries, parsed = _counted(people, games)
    ranked = _ranked(entries, parsed, rules)
    rate(ranked, games, ratings)
    return ranked


def final_standings(
    people: People,
    games: Sequence[GameRow],
    rules: Tiebreaks,
    file_ranks: Mapping[int, int | None],
) -> Ranked:
    """The final standings without their rating lines (`rate` adds them): in the file's
    order with its ranks when ladder.rules.file_ranks trusts them, else the club's."""
    entries, parsed = _counted(people, games)
    final = _ranked(entries, parsed, rules)
    in_file_order = _in_file_order(final, games, file_ranks)
    if in_file_order is None:
        return Ranked(final)
    if _ties_agree(in_file_order):
        return Ranked(in_file_order, ranks_from_file=True)
    # The file broke some tie otherwise than the club's tie-breaks would: columns of those
    # would contradict the ranks beside them, so the page leaves them out.
    for standing in in_file_order:
        standing.tiebreak_values = ()
    return Ranked(in_file_order, ranks_from_file=True, hides_tiebreaks=True)


def rate(
    standings: Sequence[Standing], games: Sequence[GameRow], ratings: Mapping[int, RatingLine]
) -> None:
    """Each standing's rating line and performance: against the opponents' ratings before
    the event, in standard chess only (a variant says nothing of strength at chess)."""
    lines = {s.entry_id: ratings.get(s.player_id) if s.player_id else None for s in standings}
    before = {entry: line.pre_rating if line else None for entry, line in lines.items()}
    standard = [
        tiebreaks.Game(round_no, white, black, _RESULT_FACTS[code][0])
        for round_no, white, black, code, variant in games
        if not variant
    ]
    performances = performance.event_performances(standard, before)
    for standing in standings:
        standing.rating = lines[standing.entry_id]
        standing.performance = performances.get(standing.entry_id)


def inputs(
    games: Sequence[GameRow],
    entries: Mapping[int, tuple[int, int | None, int | None]],
    rules: Tiebreaks,
    lines: Mapping[int, RatingLine],
) -> str:
    """The hash of everything a kept row holds is computed from: the games, each entry's
    start rank, rank in the file and the player the page names (by entry id), the
    tie-breaks with their order and rules, and the stored rating lines (the performances
    and printed sums)."""
    facts = (
        FORMAT,
        tuple(games),
        tuple(sorted(entries.items())),
        tuple(t.value for t in rules.order),
        rules.round_robin,
        rules.rules.value,
        tuple(sorted(_line_facts(player, line) for player, line in lines.items())),
    )
    # marshal's version 2 writes each value in full (no references to objects met before,
    # which would depend on where the values were read), floats exactly: equal facts give
    # equal bytes, in a tenth of json.dumps's time for an open's 1,278 games. A Python whose
    # marshal writes otherwise only makes the page rank live until the next replay.
    return hashlib.blake2b(marshal.dumps(facts, 2), digest_size=32).hexdigest()


def ranking_inputs(
    games: Sequence[GameRow],
    entries: Mapping[int, tuple[int, int | None, int | None]],
    rules: Tiebreaks,
) -> str:
    """The hash of what a kept row's ranks, points and tie-breaks are computed from: `inputs`
    without the rating lines (on which they do not depend)."""
    return inputs(games, entries, rules, {})


def rerated(
    rows: Sequence[Sequence[Any]],
    people: People,
    ranks_from_file: bool,
    hides: bool,
    games: Sequence[GameRow],
    lines: Mapping[int, RatingLine],
) -> Ranked | None:
    """A kept ranking whose rating lines moved since (its `ranking_inputs` still match): its
    ranks, points and tie-breaks as kept, the rating lines, performances and sums of
    `lines`, worked out now (what `final_standings` then `rate` give, without the
    tie-breaks). None as for `decoded`."""
    ranked = decoded(rows, people, ranks_from_file, hides, {})
    if ranked is not None:
        rate(ranked.standings, games, lines)
    return ranked


def _line_facts(
    player: int, line: RatingLine
) -> tuple[int, float, float, float, float, int, float | None, float]:
    return (
        player,
        line.pre_rating,
        line.expected,
        line.actual,
        line.change,
        line.games_counted,
        line.k,
        line.post_rating,
    )


def encoded(ranked: Ranked) -> list[list[Any]]:
    """The rows a kept ranking stores (ladder.models.EventStandings.rows), each rated
    line's printed change and printed sum with it (exact decimals; the sum's numbers in one
    text: a page of 284 rows decoded seven strings a row where it prints one)."""
    return [
        [
            s.entry_id,
            s.rank,
            s.points,
            s.played,
            s.byes,
            s.forfeits,
            list(s.tiebreak_values),
            s.performance,
            *_encoded_sums(s.rating),
        ]
        for s in ranked.standings
    ]


def decoded(
    rows: Sequence[Sequence[Any]],
    people: People,
    ranks_from_file: bool,
    hides: bool,
    lines: Mapping[int, RatingLine],
) -> Ranked | None:
    """A kept ranking with the names and rating lines of this request; None if its entries
    are not exactly the event's (the hash would have said so: a kept row never stands in
    for a live one)."""
    if len(rows) != len(people):
        return None
    out = []
    for entry_id, rank, points, played, byes, forfeits, values, perf, change, sums in rows:
        person = people.get(entry_id)
        if person is None:
            return None
        player_id, name, start_rank = person
        line = lines.get(player_id) if player_id else None
        out.append(
            Standing(
                entry_id,
                player_id,
                name,
                start_rank,
                points,
                played,
                byes,
                forfeits,
                rank,
                rating=_with_sums(line, change, sums) if line is not None else None,
                tiebreak_values=tuple(values),
                performance=perf,
            )
        )
    return Ranked(out, ranks_from_file, hides)


def _encoded_sums(line: RatingLine | None) -> tuple[str | None, str | None]:
    """The line's printed change, and its printed sum as one text (RatingLine.keep_sums)."""
    if line is None:
        return None, None
    if line.elo is not None:
        e = line.elo
        numbers = (e.k, e.score, e.expected, e.change, e.before, e.after)
        return str(e.change), " ".join(["elo", *map(str, numbers)])
    p = line.printed
    return str(p.change), " ".join(["printed", *map(str, p)])


def _with_sums(line: RatingLine, change: str | None, sums: str | None) -> RatingLine:
    """The line (this request's own) with its printed sums as kept: worked out once, by the
    replay's run (a sum of the other kind than the line's is not taken)."""
    if change is not None and sums is not None:
        line.keep_sums(change, sums)
    return line


def _counted(
    people: People, games: Sequence[GameRow]
) -> tuple[dict[int, Standing], list[tiebreaks.Game]]:
    """Each entry's standing with its points and counts, and the games in the tie-breaks'
    form (each game read once)."""
    entries = {
        entry_id: Standing(entry_id, player_id, name, start_rank)
        for entry_id, (player_id, name, start_rank) in people.items()
    }
    parsed: list[tiebreaks.Game] = []
    for round_no, white_id, black_id, result_code, _variant in games:
        result, white_score, black_score, kind = _RESULT_FACTS[result_code]
        parsed.append(tiebreaks.Game(round_no, white_id, black_id, result))
        white = entries[white_id]
        white.points += white_score
        _tally(white, kind)
        if black_id is not None:
            black = entries[black_id]
            black.points += black_score
            _tally(black, kind)
    return entries, parsed


def _ranked(
    entries: dict[int, Standing], games: Sequence[tiebreaks.Game], rules: Tiebreaks
) -> list[Standing]:
    """Points, then the club's tie-breaks; players still tied share a rank.

    The tie-breaks are computed from the games already loaded (no query); the file's own
    ranks, when the page follows them, replace the ranks afterwards (`_in_file_order`)."""
    in_start_order = sorted(entries.values(), key=lambda s: (s.start_rank, s.entry_id))
    values = tiebreaks.compute(
        [s.entry_id for s in in_start_order],
        games,
        rules.order,
        round_robin=rules.round_robin,
        rules=rules.rules,
    )
    ranked = []
    for value in values:
        standing = entries[value.player]
        standing.rank = value.rank
        standing.tiebreak_values = tuple(value.value(t) for t in rules.order)
        ranked.append(standing)
    return ranked


def _ties_agree(in_file_order: list[Standing]) -> bool:
    """Whether each pair of neighbours on equal points is in the order the club's
    tie-breaks give (their values, compared in the club's order)."""
    return all(
        a.points != b.points or a.tiebreak_values >= b.tiebreak_values
        for a, b in pairwise(in_file_order)
    )


def _in_file_order(
    standings: list[Standing], games: Sequence[GameRow], file_ranks: Mapping[int, int | None]
) -> list[Standing] | None:
    """The final standings in the file's order and with its ranks, when ladder.rules.file_ranks
    trusts them; entrants without a game follow, sharing the next rank."""
    by_entry = {s.entry_id: s for s in standings}
    with_game = {e for _r, white, black, _c, _v in games for e in (white, black) if e is not None}
    points = {s.entry_id: s.points for s in standings}
    ranking = file_ranking([s.entry_id for s in standings], points, with_game, file_ranks)
    if ranking is None:
        return None
    for entry, rank in ranking:
        by_entry[entry].rank = rank
    return [by_entry[entry] for entry, _rank in ranking]


_BYE, _FORFEIT, _PLAYED = "byes", "forfeits", "played"
# Per stored result code: the result, the points of white and black, and what it counts as
# in the standings' columns. Read once per game rather than through the enum's properties.
_RESULT_FACTS: dict[str, tuple[Result, float, float, str]] = {
    result.value: (
        result,
        *result.scores,
        _BYE if result.is_bye else _FORFEIT if result.is_forfeit else _PLAYED,
    )
    for result in Result
}


def _tally(standing: Standing, kind: str) -> None:
    if kind is _BYE:
        standing.byes += 1
    elif kind is _FORFEIT:
        standing.forfeits += 1
    else:
        standing.played += 1
