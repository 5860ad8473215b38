"""PGN tag values, the file cut into games, and a first count of its games from its tag lines.

A game is its header block (its tag lines) and its movetext, whether or not the movetext holds
a move: a broadcast export whose moves were not relayed is a file of header blocks, one a game.
The file is cut here rather than by python-chess, whose reader reads on past one empty line
between tag lines (a file of N moveless games became one game with the last block's tags), and
past a tag line that follows the movetext without one, and drops any text it does not
recognise as a move without a word. ``read_games`` cuts it line by line (``_Cut``):

- a tag line starts a new game after movetext, when its tag is already in the game (``[Event``
  right after the last block), or when the game already has its White, Black and Result tags and
  the line is an Event tag or follows an empty line; other tag lines (one game's tags with an
  empty line among them, as python-chess allows) stay in the game;
- the movetext is read token by token: moves (SAN in any language's piece letters, figurines,
  long algebraic, castling, null moves), move numbers, NAGs and glyphs, comments in braces or
  after ``;``, variations and the result. Anything else (a note left between games, text after
  the game's result, text with no tags above it) is refused naming its line, as is a tag line
  that cannot be read and a brace comment that is never closed or runs into the next game's tags:
  a file is never read otherwise than its maker wrote it.

The moves are recognised, not replayed: an illegal move is no reason to refuse a result, whose
Result tag is authoritative (``pgn``). Each distinct token is matched once (``_token_kind``):
reading bench/pgn_read.py's 4.6 MB file of 2,000 games with moves costs 0.26 CPU s, where
python-chess skipping the moves cost 0.22; its 30,000 header-only games 1.3 CPU s, as before.

A regular expression finds every Event and White tag line of a 4 MiB file in milliseconds.
Each game has one of each, so a file whose tags alone take one event past the games limit is
refused before its games are read. The exact count, game by game, follows in ``pgn._count``.
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date

from .base import ImportFileError, Limits, TooLargeError, clean_text, name_key

_UNKNOWN = frozenset({"", "?", "-", "??"})
PGN_DATE = re.compile(r"^(\d{4})[.\-/](\d{2}|\?\?)[.\-/](\d{2}|\?\?)$")
_EVENT_TAG = re.compile(r'^\[Event\s+"((?:[^"\\]|\\.)*)"', re.M)
_WHITE_TAG = re.compile(r'^\[White\s+"', re.M)


def known(value: str | None) -> str | None:
    """A tag value with PGN escapes undone, or None for the placeholders ?, - and empty."""
    cleaned = clean_text(re.sub(r"\\(.)", r"\1", value or ""))
    return None if cleaned in _UNKNOWN else cleaned


def read_date(value: str | None) -> tuple[date, bool] | None:
    """A PGN date and whether its day was unknown (``2024.03.??`` is read as 1 March)."""
    match = PGN_DATE.match((value or "").strip())
    if match is None or "?" in match.group(2):
        return None
    year, month, day = match.groups()
    try:
        return date(int(year), int(month), 1 if "?" in day else int(day)), "?" in day
    except ValueError:
        return None


def read_fide_id(value: str | None) -> str | None:
    """A WhiteFideId or BlackFideId: digits only, not 0; None otherwise."""
    text = (value or "").strip()
    ok = text.isdigit() and text.isascii() and len(text) <= 11 and int(text) > 0
    return text if ok else None


def read_elo(value: str | None) -> int | None:
    """A WhiteElo or BlackElo: up to five digits, not 0; None otherwise."""
    text = (value or "").strip()
    return int(text) or None if text.isdigit() and text.isascii() and len(text) <= 5 else None


# A round's name where an event's is expected: lichess names a broadcast round's study
# "Round 1" and writes each game's Event as "<study>: <White> - <Black>" (its chapter).
_ROUND_LABEL = re.compile(
    r"(?:round|rd|r|runde|ronde|ronda|tour|turno|rodada)\.?\s*\d+(?:[.:]\d+)*", re.I
)


def event_of(headers: Mapping[str, str]) -> str | None:
    """The name of the event a game belongs to, from its Event tag; None when it names none.

    A lichess study writes each game's Event as "<study>: <White> - <Black>": the game's own
    players name its chapter, not its event, so the game's event is the study. An Event (or a
    study) named as a round ("Round 1", "R3") names no event: such a game is one without an
    Event tag, so the games of a study per round are one event, not one event a game.
    """
    name = known(headers.get("Event"))
    if name is None:
        return None
    study, colon, chapter = name.rpartition(": ")
    white, black = known(headers.get("White")), known(headers.get("Black"))
    if colon and white and black and name_key(chapter) == name_key(f"{white} - {black}"):
        name = study.strip()
    return None if not name or _ROUND_LABEL.fullmatch(name) else name


@functools.lru_cache(maxsize=256)
def event_key(value: str) -> str | None:
    """How two spellings of one event's name are one event (None: no name)."""
    name = known(value)
    return None if name is None else name_key(name)


def refuse_by_tag_counts(text: str, wanted: str | None, limits: Limits) -> None:
    """Refuse a file whose Event tags (or, for games without one, White tags) already count
    more games of one event than the limit: of ``wanted`` only, when it is given."""
    events = Counter(event_key(value) for value in _EVENT_TAG.findall(text))
    untagged = len(_WHITE_TAG.findall(text)) - sum(events.values()) + events.pop(None, 0)
    counts = {**events, None: untagged}
    if wanted is not None:
        counts = {key: count for key, count in counts.items() if key in (name_key(wanted), None)}
    if max(counts.values(), default=0) > limits.games:
        raise TooLargeError("games", limits.games)


# python-chess's own pattern for a tag line (chess.pgn.TAG_REGEX): one tag a line, the value
# with its escapes still in it (``known`` undoes them).
TAG_LINE = re.compile(r'^\[([A-Za-z0-9][A-Za-z0-9_+#=:-]*)\s+"([^\r]*)"\]\s*$')
# A comment (to its end, or to the line's end when it goes on), the rest of a line after ";",
# a parenthesis, or a run of other characters; a "}" alone is a token, so never skipped.
_TOKEN = re.compile(r"\{[^}]*\}?|;.*|[()]|[^\s(){};]+|\}")
_RESULTS = frozenset({"1-0", "0-1", "1/2-1/2", "½-½", "1/2", "*"})
_FIGURINES = "\u2654-\u265f"
_MOVE = re.compile(
    r"(?:\d+(?:\.+|\u2026))?"  # a move number written against its move: 1.e4, 12...Nf6, 12…Nf6
    rf"(?:[A-Zkqrnpsltd{_FIGURINES}]?[a-h]?[1-8]?[x:-]?[a-h][1-8](?:=?[A-Z{_FIGURINES}])?"
    r"(?:e\.?p\.?)?|[O0o](?:-[O0o]){1,2}|--|Z0|0000|@@@@|[A-Z]?@[a-h][1-8])"
    r"[+#\u2020\u2021]*[!?]{0,2}(?:\$\d+)?"
)
# Move numbers, NAGs and the glyphs some programs print instead of them (!?, +-, =, ±, ∞).
_NO_MOVE = re.compile(
    r"\d+(?:\.*|\u2026)|\.{2,3}|\u2026|\$\d+|e\.?p\.?|[!?+\-=/\u221e\u00b1\u2213\u2a72\u2a71\u25a1]{1,4}"
)
_MOVE_TOKEN, _OTHER_TOKEN, _RESULT_TOKEN, _UNKNOWN_TOKEN = range(4)


# Tokens recur (1., e4, Nf3, 1-0): each is matched against the patterns once, then looked up.
@functools.lru_cache(maxsize=65536)
def _token_kind(token: str) -> int:
    if token in _RESULTS:
        return _RESULT_TOKEN
    if _MOVE.fullmatch(token):
        return _MOVE_TOKEN
    return _OTHER_TOKEN if _NO_MOVE.fullmatch(token) else _UNKNOWN_TOKEN


_PLAYED_TAGS = ("White", "Black", "Result")


@dataclass
class PgnGame:
    """One game as the file wrote it: its tags (escapes still in) and what its movetext holds."""

    line: int  # its first tag line
    headers: dict[str, str] = field(default_factory=dict)
    tag_lines: dict[str, int] = field(default_factory=dict)
    moves: bool = False  # the movetext holds at least one move


def read_games(lines: Sequence[str]) -> Iterator[PgnGame]:
    """The file's games in file order, each as soon as the line after it is read."""
    cut = _Cut()
    for number, text in enumerate(lines, start=1):
        done = cut.read(number, text)
        if done is not None:
            yield done
    if cut.comment_from is not None:
        raise ImportFileError.at(
            cut.comment_from,
            "this comment opened with { is never closed with }: close it, or every game "
            "after it would be lost in it.",
        )
    if cut.game is not None:
        yield cut.game


class _Cut:
    """Where the reading of the file stands: the game being read and its movetext."""

    def __init__(self) -> None:
        self.game: PgnGame | None = None
        self.in_moves = False  # the game's movetext has started
        self.closed = False  # an empty line ended it
        self.ended: int | None = None  # line of the result that ended it
        self.depth = 0  # variations open
        self.empty_line = False  # an empty line since the last tag or movetext line
        self.comment_from: int | None = None  # line of a { comment still open

    def read(self, number: int, text: str) -> PgnGame | None:
        """Read one line; the game it ended by starting a new one, if it did."""
        if self.comment_from is not None:
            self._in_comment(number, text)
            return None
        stripped = text.strip()
        if not stripped:
            self.empty_line = True
            self.closed = self.in_moves
            return None
        if text.startswith("%") or stripped.startswith(";"):  # escape and comment lines
            return None
        if stripped.startswith("["):
            return self._tag(number, stripped)
        if self.game is None or self.closed:
            raise ImportFileError.at(
                number, 'a game should start here with its tags, such as [White "Smith, Anna"].'
            )
        self.in_moves, self.empty_line = True, False
        self._movetext(number, stripped)
        return None

    def _tag(self, number: int, text: str) -> PgnGame | None:
        match = TAG_LINE.match(text)
        if match is None:
            raise ImportFileError.at(
                number,
                'this PGN tag could not be read; a tag is written as [Name "value"], such as '
                '[White "Smith, Anna"], one a line.',
            )
        name, value = match.groups()
        done = None
        if self.game is None or self.in_moves or self._new_block(self.game, name):
            done, self.game = self.game, PgnGame(number)
            self.in_moves, self.closed, self.ended, self.depth = False, False, None, 0
        self.game.headers[name] = value
        self.game.tag_lines[name] = number
        self.empty_line = False
        return done

    def _new_block(self, game: PgnGame, name: str) -> bool:
        """Whether this tag line, read among tags, starts the next game's header block."""
        if name in game.headers:  # a game has each tag once
            return True
        complete = all(tag in game.headers for tag in _PLAYED_TAGS)
        return complete and (self.empty_line or name == "Event")

    def _movetext(self, number: int, text: str) -> None:
        game = self.game
        assert game is not None
        for token in _TOKEN.findall(text):
            first = token[0]
            if first == "{":
                if token[-1] != "}":
                    self.comment_from = number
                continue
            if first == ";":
                break
            if self.ended is not None:
                raise ImportFileError.at(
                    number,
                    f"“{token}” comes after the result that ended the game on line {game.line} "
                    f"(line {self.ended}); a game starts with its tags, such as "
                    '[White "Smith, Anna"].',
                )
            if first == "(" or first == ")":
                self.depth = self.depth + 1 if first == "(" else max(self.depth - 1, 0)
                continue
            kind = _token_kind(token)
            if kind == _MOVE_TOKEN:
                game.moves = True
            elif kind == _RESULT_TOKEN:
                if self.depth == 0:  # a variation's result ends only the variation
                    self.ended = number
            elif kind == _UNKNOWN_TOKEN:
                raise ImportFileError.at(
                    number,
                    f"“{token}” is not a move, a move number, a {{comment}} or a result of the "
                    f"game on line {game.line}; put a note between braces, or remove it.",
                )

    def _in_comment(self, number: int, text: str) -> None:
        assert self.comment_from is not None
        end = text.find("}")
        if end < 0:
            match = TAG_LINE.match(text.strip())
            if match and match.group(1) in ("Event", *_PLAYED_TAGS):
                raise ImportFileError.at(
                    number,
                    f"this {match.group(1)} tag is inside the comment opened with {{ on line "
                    f"{self.comment_from}, never closed with }}: close the comment.",
                )
            return
        self.comment_from = None
        self._movetext(number, text[end + 1 :])
