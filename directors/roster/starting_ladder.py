"""Importing a club's existing ladder (name, rating, games, junior) as starting states.

One reading of the CSV (`read_starting_ladder`: every row, and every bad line with its
reason), one plan of what it would do to the roster (`plan_roster_import`: who is new, who is
on the roster already by exact name and what changes for them, which names are close to
roster players and what the director said of each, which names clash), and one save
(`save_roster_import`, all or nothing, refused when the roster moved since the plan). The
`import_roster` command (new players only, as it always was: it asks about no close name)
and the roster screen's import are thin callers.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from django.db import transaction
from django.utils.translation import gettext as _

from clubs import audit
from clubs.models import Club, Ladder, Player, User
from directors.roster.close_names import (
    NEW_PERSON,
    Choice,
    CloseCandidate,
    close_candidates,
    folded_owners,
)
from directors.roster.merging import REASON_LABELS, prepared_roster
from ladder.changes import LadderInput, OnPages, club_changed, combined
from ladder.models import LadderRating
from ladder.roster.ladders import set_start, starts_of
from matching import clean_name, name_key

_YES = {"yes", "y", "true", "1", "ja", "j"}
_NO = {"no", "n", "false", "0", "nee", "nein", ""}


class StartingLadderError(ValueError):
    """A starting ladder file that cannot be imported; the message names the line."""


class StaleRosterImport(StartingLadderError):
    """The roster changed between the preview and the save: nothing is stored."""


class UndecidedNames(StartingLadderError):
    """A save before the director said, for every close name, who it is: nothing is stored."""


@dataclass(frozen=True)
class StartingLadderRow:
    name: str
    rating: float
    games: int
    junior: bool
    line: int = 0  # the line of the file the row ends on


@dataclass(frozen=True)
class LineProblem:
    """A bad line (or, with line None, a file that is not a roster at all) and why."""

    line: int | None
    reason: str

    def __str__(self) -> str:
        if self.line is None:
            return self.reason
        return _("Line %(line)d: %(reason)s") % {"line": self.line, "reason": self.reason}


@dataclass(frozen=True)
class ReadRoster:
    rows: tuple[StartingLadderRow, ...]
    problems: tuple[LineProblem, ...]


def read_starting_ladder(data: bytes) -> ReadRoster:
    """Every row of the file, and every line that cannot be one, with its reason."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = data.decode("cp1252", errors="strict") if _is_cp1252(data) else ""
        if not text:
            return _refused(_("The file is not text in UTF-8 or Windows-1252."))
    if "\x00" in text:
        return _refused(_("The file is not a CSV text file."))
    reader = csv.DictReader(io.StringIO(text, newline=""))
    try:
        fields = [f.strip().lower() for f in reader.fieldnames or []]
    except csv.Error:
        return _refused(_("The file is not a CSV text file."))
    missing = {"name", "rating", "games"} - set(fields)
    if missing:
        return ReadRoster(
            (),
            (
                LineProblem(
                    1, _("missing column(s) %(names)s") % {"names": ", ".join(sorted(missing))}
                ),
            ),
        )
    reader.fieldnames = fields
    rows: list[StartingLadderRow] = []
    problems: list[LineProblem] = []
    seen: set[str] = set()
    try:
        for record in reader:
            line = reader.line_num  # the line the record ends on, blank lines included
            row, reason = _row(record, line, seen)
            if row is not None:
                rows.append(row)
            else:
                problems.append(LineProblem(line, reason))
    except csv.Error:
        problems.append(LineProblem(reader.line_num, _("the line is not CSV")))
    if not rows and not problems:
        return _refused(_("The file has no players."))
    return ReadRoster(tuple(rows), tuple(problems))


def _row(
    record: dict[str, str | None], line: int, seen: set[str]
) -> tuple[StartingLadderRow | None, str]:
    name = clean_name(record.get("name") or "")
    if not name:
        return None, _("the name is empty")
    if len(name) > 120:
        return None, _("the name is longer than 120 characters")
    if name.casefold() in seen:
        return None, _("%(name)s appears twice") % {"name": name}
    seen.add(name.casefold())
    try:
        rating = float((record.get("rating") or "").strip())
        games = int((record.get("games") or "").strip())
    except ValueError:
        return None, _("rating and games must be numbers")
    if not 0 <= rating <= 4000 or games < 0:
        return None, _("rating must be 0–4000 and games at least 0")
    junior_text = (record.get("junior") or "").strip().lower()
    if junior_text not in _YES | _NO:
        return None, _("junior must be yes or no, not %(value)r") % {"value": junior_text}
    return StartingLadderRow(name, rating, games, junior_text in _YES, line), ""


def _refused(reason: str) -> ReadRoster:
    return ReadRoster((), (LineProblem(None, reason),))


def parse_starting_ladder(data: bytes) -> list[StartingLadderRow]:
    """The rows of a file without a bad line; its first bad line raises StartingLadderError."""
    read = read_starting_ladder(data)
    if read.problems:
        raise StartingLadderError(str(read.problems[0]))
    return list(read.rows)


def _is_cp1252(data: bytes) -> bool:
    try:
        data.decode("cp1252")
    except UnicodeDecodeError:
        return False
    return True


@dataclass(frozen=True)
class OnRoster:
    """A row whose name is exactly an active player's, or that the director said is that
    player (then `roster_name` is the roster's spelling), and that player's state before."""

    row: StartingLadderRow
    player_id: int
    rating: float | None
    games: int
    junior: bool
    roster_name: str = ""

    @property
    def changes(self) -> tuple[tuple[str, object, object], ...]:
        """(field, before, after) of what the import would change; empty for nothing."""
        pairs = (
            ("rating", self.rating, self.row.rating),
            ("games", self.games, self.row.games),
            ("junior", self.junior, self.row.junior),
        )
        return tuple((field, old, new) for field, old, new in pairs if old != new)


@dataclass(frozen=True)
class Clash:
    """A row whose name the roster writes another way (capitals), or a merged player's."""

    row: StartingLadderRow
    roster_name: str


@dataclass(frozen=True)
class CloseRow:
    """A row whose name is close to roster players (not exactly one's), and the director's
    choice: NEW_PERSON, one of the candidates' ids, or None while not chosen."""

    row: StartingLadderRow
    candidates: tuple[CloseCandidate, ...]
    choice: Choice | None
    # Each candidate's rating and rated games on the import's ladder, to tell two players of
    # one name apart on the page (nothing the plan decides by).
    standings: tuple[tuple[float | None, int], ...] = ()

    @property
    def field(self) -> str:
        """The form field of this row's choice."""
        return f"same-{self.row.line}"

    @property
    def chosen(self) -> CloseCandidate | None:
        return next((c for c in self.candidates if c.player_id == self.choice), None)

    @property
    def offers(self) -> list[tuple[CloseCandidate, str, float | None, int]]:
        """Each candidate with why it may be this name, and their rating and rated games."""
        standings = self.standings or ((None, 0),) * len(self.candidates)
        return [
            (c, str(REASON_LABELS[c.reason]), rating, games)
            for c, (rating, games) in zip(self.candidates, standings, strict=True)
        ]


@dataclass(frozen=True)
class RosterImportPlan:
    ladder_id: int
    rows: tuple[StartingLadderRow, ...]
    new: tuple[StartingLadderRow, ...]
    on_roster: tuple[OnRoster, ...]
    clashes: tuple[Clash, ...]
    problems: tuple[LineProblem, ...]
    close: tuple[CloseRow, ...] = ()

    @property
    def changed(self) -> tuple[OnRoster, ...]:
        return tuple(found for found in self.on_roster if found.changes)

    @property
    def undecided(self) -> tuple[CloseRow, ...]:
        return tuple(row for row in self.close if row.choice is None)

    @property
    def choices(self) -> dict[str, Choice]:
        """The director's choices by the file's name, as the next step is handed them."""
        return {row.row.name: row.choice for row in self.close if row.choice is not None}

    @property
    def can_choose(self) -> bool:
        """Whether the preview asks about close names (a file with a bad line asks nothing)."""
        return not self.problems and not self.clashes and bool(self.close)

    @property
    def can_save(self) -> bool:
        return (
            not self.problems
            and not self.clashes
            and not self.undecided
            and bool(self.new or self.changed)
        )

    @property
    def fingerprint(self) -> str:
        """What the plan would do, as read from the roster: a save whose own reading differs
        was planned on a roster that has changed since."""
        facts = {
            "ladder": self.ladder_id,
            "new": [row.name for row in self.new],
            "on_roster": [
                [f.player_id, f.row.name, f.rating, f.games, f.junior] for f in self.on_roster
            ],
            "clashes": [[c.row.name, c.roster_name] for c in self.clashes],
            "close": [
                [c.row.name, [[p.player_id, p.name, p.taken] for p in c.candidates], c.choice]
                for c in self.close
            ],
        }
        return hashlib.sha256(json.dumps(facts, sort_keys=True).encode()).hexdigest()


def plan_roster_import(
    club: Club,
    rows: Sequence[StartingLadderRow],
    ladder: Ladder,
    problems: Sequence[LineProblem] = (),
    *,
    choices: Mapping[str, Choice] | None,
) -> RosterImportPlan:
    """What importing `rows` onto `ladder` would do to the club's roster; writes nothing.

    `choices`: what the director said of the names close to roster players (by the file's
    name: NEW_PERSON or a candidate's id; a choice that is no longer one of the row's
    candidates counts as none). None looks for no close name: the `import_roster` command,
    which only adds players and refuses one already on the roster."""
    players = list(club.players.values_list("id", "name", "junior", "merged_into_id"))
    active = {name: (pk, junior) for pk, name, junior, merged in players if merged is None}
    folded: dict[str, str] = {}
    for _pk, name, _junior, _merged in sorted(players, key=lambda p: p[3] is not None):
        folded.setdefault(name.casefold(), name)
    found = [(row, active[row.name]) for row in rows if row.name in active]
    if choices is not None:
        # A name two roster players share is asked about like a close one: which of them?
        shared = Counter(name for _pk, name, _junior, merged in players if merged is None)
        found = [(row, player) for row, player in found if shared[row.name] == 1]
    close = () if choices is None else _close_rows(club, rows, found, ladder, choices)
    close_names = {c.row.name for c in close}
    juniors = {pk: junior for pk, _name, junior, merged in players if merged is None}
    chosen = [(c.row, p) for c in close if (p := c.chosen) is not None]
    starts = starts_of(
        ladder.pk, [pk for _row, (pk, _junior) in found] + [p.player_id for _row, p in chosen]
    )
    on_roster = tuple(
        OnRoster(row, pk, starts[pk][0], starts[pk][1], junior) for row, (pk, junior) in found
    ) + tuple(
        OnRoster(
            row,
            p.player_id,
            starts[p.player_id][0],
            starts[p.player_id][1],
            juniors[p.player_id],
            p.name,
        )
        for row, p in chosen
    )
    exact_names = {row.name for row, _player in found}
    clashes = tuple(
        Clash(row, folded[row.name.casefold()])
        for row in rows
        if row.name not in exact_names
        and row.name not in close_names
        and row.name.casefold() in folded
    )
    new_by_choice = {c.row.name for c in close if c.choice == NEW_PERSON}
    taken = (
        {r.row.name for r in on_roster}
        | {c.row.name for c in clashes}
        | (close_names - new_by_choice)
    )
    return RosterImportPlan(
        ladder_id=ladder.pk,
        rows=tuple(rows),
        new=tuple(row for row in rows if row.name not in taken),
        on_roster=on_roster,
        clashes=clashes,
        problems=tuple(problems),
        close=close,
    )


def _close_rows(
    club: Club,
    rows: Sequence[StartingLadderRow],
    exact: Sequence[tuple[StartingLadderRow, tuple[int, bool]]],
    ladder: Ladder,
    choices: Mapping[str, Choice],
) -> tuple[CloseRow, ...]:
    """The rows not exactly a roster player's name but close to some, with the director's
    choice where it is still one the row offers (one roster player chosen once)."""
    exact_names = {row.name for row, _found in exact}
    rest = [row for row in rows if row.name not in exact_names]
    if not rest:
        return ()
    roster, owners = prepared_roster(club)
    if not len(roster):
        return ()
    names = dict(club.players.active().values_list("id", "name"))
    same_folded = folded_owners(roster, owners)
    taken = {pk for _row, (pk, _junior) in exact}
    close: list[CloseRow] = []
    used: set[int] = set()
    for row in rest:
        candidates = close_candidates(
            row.name, roster, owners, names, same_folded=same_folded, taken=taken
        )
        if all(c.weak for c in candidates):
            # Only alike as text (a shared first name and some letters): never a likely match,
            # and a file of new members would otherwise ask about most of its names.
            continue
        choice = choices.get(row.name)
        offered = {c.player_id for c in candidates if not c.taken} - used
        if choice != NEW_PERSON and choice not in offered:
            choice = None
        if isinstance(choice, int):
            used.add(choice)
        close.append(CloseRow(row, candidates, choice))
    ids = {c.player_id for found in close for c in found.candidates}
    standing = {
        player.pk: (player.rating, player.rated_games)
        for player in Player.objects.filter(pk__in=ids).rated_on(ladder)
    }
    return tuple(
        replace(found, standings=tuple(standing[c.player_id] for c in found.candidates))
        for found in close
    )


@dataclass(frozen=True)
class RosterImported:
    created: int
    updated: int


def save_roster_import(
    club: Club,
    rows: Sequence[StartingLadderRow],
    ladder: Ladder,
    user: User | None,
    *,
    previewed: str,
    source: str,
    choices: Mapping[str, Choice] | None,
) -> RosterImported:
    """Make the plan of `rows` and `choices` whose fingerprint was `previewed`, all or
    nothing: the new players with their starting state on `ladder`, and the changed starting
    states and junior flags of those on the roster (by exact name or by the director's
    choice). Refused (StaleRosterImport) when the roster no longer reads as it did for the
    preview, and (UndecidedNames) while a close name has no choice."""
    with transaction.atomic():
        # One import of a club at a time: a second one waits, then finds the roster moved.
        list(Club.objects.select_for_update().filter(pk=club.pk).values_list("pk", flat=True))
        ladder = Ladder.objects.get(pk=ladder.pk, club=club)
        fresh = plan_roster_import(club, rows, ladder, choices=choices)
        if fresh.fingerprint != previewed:
            raise StaleRosterImport(
                _("The roster changed since this preview: nothing was imported.")
            )
        if fresh.undecided and not fresh.problems and not fresh.clashes:
            raise UndecidedNames(
                _(
                    "Say for every name close to a roster player whether it is that player or "
                    "a new person: nothing was imported."
                )
            )
        if not fresh.can_save:
            raise StartingLadderError(_("This file has nothing to import."))
        players = Player.objects.bulk_create(
            Player(club=club, name=row.name, name_key=name_key(row.name), junior=row.junior)
            for row in fresh.new
        )
        LadderRating.objects.bulk_create(
            LadderRating(
                ladder=ladder, player=player, start_rating=row.rating, start_games=row.games
            )
            for player, row in zip(players, fresh.new, strict=True)
        )
        juniors_changed = False
        for found in fresh.changed:
            fields = {field for field, _old, _new in found.changes}
            if "junior" in fields:
                Player.objects.filter(pk=found.player_id).update(junior=found.row.junior)
                juniors_changed = True
            if fields & {"rating", "games"}:
                set_start(ladder.pk, found.player_id, found.row.rating, found.row.games)
        audit.record(
            club,
            user,
            "roster.imported",
            source=source,
            ladder_id=ladder.pk,
            ladder_name=ladder.name,
            created=len(players),
            updated=len(fresh.changed),
            **_said_of_close_names(fresh, choices),
        )
        shown = bool(players) or juniors_changed
        change = combined(LadderInput(), OnPages() if shown else None)
        assert change is not None
        club_changed(club.pk, change)
    return RosterImported(len(players), len(fresh.changed))


def _said_of_close_names(
    plan: RosterImportPlan, choices: Mapping[str, Choice] | None
) -> dict[str, object]:
    """The audit line's record of what the director said of the close names (the command,
    which asks about none, records nothing more than it did)."""
    if choices is None:
        return {}
    return {
        "same_as": [[c.row.name, c.chosen.player_id] for c in plan.close if c.chosen],
        "new_beside_close": [c.row.name for c in plan.close if c.choice == NEW_PERSON],
    }


def import_starting_ladder(
    club: Club, rows: list[StartingLadderRow], ladder: Ladder | None = None
) -> int:
    """Create one player per row, starting on `ladder` (the club's first by default) at the
    row's rating and games; refuses the whole file if a name is already on the roster (the
    `import_roster` command, which only adds)."""
    ladder = ladder or club.first_ladder()
    plan = plan_roster_import(club, rows, ladder, choices=None)
    taken = {found.row.name for found in plan.on_roster} | {c.row.name for c in plan.clashes}
    if taken:
        names = [row.name for row in rows if row.name in taken]
        raise StartingLadderError(f"Already on the roster: {', '.join(names[:10])}")
    return save_roster_import(
        club, rows, ladder, None, previewed=plan.fingerprint, source="command", choices=None
    ).created
