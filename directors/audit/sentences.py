"""The audit log read as sentences: "Anna changed Jan Jansen's family consent from yes to no".

One sentence per action of clubs.audit.ACTIONS (SENTENCES; a test holds the two lists
equal). Names follow the director view: a director sees every player's full name, as
it stands now (a player renamed since shows the new name; one deleted or erased the
name the entry quoted). `sentences` resolves the names of a page of entries with one
query per kind (players, events, accounts), never one per entry.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from django.db.models import Q, QuerySet
from django.utils.functional import Promise
from django.utils.text import get_text_list
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from clubs.labels.results import RESULT_LABELS
from clubs.models import AuditEntry, Event, Player, User
from clubs.results import Result
from directors.audit.values import RATING_FIELDS as _RATING_FIELDS
from directors.audit.values import changes_text as _changes
from directors.audit.values import kinds_text as _kinds
from directors.audit.values import page_value as _page_value
from directors.audit.values import plain_value as _plain
from directors.audit.values import rating_value as _rating_value
from directors.audit.values import taken_text as _taken
from ladder.labels.tiebreaks import TIEBREAK_LABELS

# Every details key that holds a player's id, for the names and the log's player filter.
PLAYER_KEYS = (
    "player_id",
    "kept_id",
    "merged_id",
    "from_player_id",
    "to_player_id",
    "first_id",
    "second_id",
)

_PLAYER_FIELDS: dict[str, Promise] = {
    "name": gettext_lazy("name"),
    "junior": gettext_lazy("junior flag"),
    "full_name_consent": gettext_lazy("family consent"),
    "start_rating": gettext_lazy("starting estimate"),
    "start_games": gettext_lazy("starting games"),
}
_EVENT_FIELDS: dict[str, Promise] = {
    "name": gettext_lazy("name"),
    "date": gettext_lazy("date"),
    "order_in_day": gettext_lazy("order in the day"),
    "kind": gettext_lazy("kind"),
    "rated": gettext_lazy("rated flag"),
    "round_robin": gettext_lazy("pairing system"),
    "board_reports": gettext_lazy("results reported at the board"),
}
_PAGE_FIELDS: dict[str, Promise] = {
    "visibility": gettext_lazy("who can see it"),
    "name_display": gettext_lazy("how names are shown"),
    "language": gettext_lazy("language"),
    "season_start_month": gettext_lazy("month the season starts"),
    "time_zone": gettext_lazy("time zone"),
    "board_reports": gettext_lazy("results reported at the board"),
}
_SOURCES: dict[str, Promise] = {
    "grid": gettext_lazy("the results grid"),
    "paste": gettext_lazy("pasted results"),
    "command": gettext_lazy("a command"),
    "file:trf": gettext_lazy("a TRF file"),
    "file:pgn": gettext_lazy("a PGN file"),
    "file:csv": gettext_lazy("a CSV file"),
}


@dataclass(frozen=True)
class Names:
    """The current names behind the ids a page of entries mentions."""

    players: dict[int, str]
    events: dict[int, str]
    accounts: dict[int, str]


def names_for(entries: Sequence[AuditEntry]) -> Names:
    """One query each for the players, events and accounts the entries mention (none for
    a kind no entry mentions); players and events only of the entries' own clubs."""
    clubs = {entry.club_id for entry in entries}
    player_ids: set[int] = set()
    event_ids: set[int] = set()
    account_ids: set[int] = set()
    for entry in entries:
        details = entry.details if isinstance(entry.details, dict) else {}
        player_ids |= _ids(details, PLAYER_KEYS)
        event_ids |= _ids(details, ("event_id",))
        account_ids |= _ids(details, ("user_id",))
    players = Player.objects.filter(club_id__in=clubs, pk__in=player_ids)
    events = Event.objects.filter(club_id__in=clubs, pk__in=event_ids)
    accounts = User.objects.filter(pk__in=account_ids)
    return Names(
        players=dict(players.values_list("pk", "name")) if player_ids else {},
        events=dict(events.values_list("pk", "name")) if event_ids else {},
        accounts=dict(accounts.values_list("pk", "email")) if account_ids else {},
    )


def about(
    entries: QuerySet[AuditEntry], *, player_id: int | None, event_id: int | None
) -> QuerySet[AuditEntry]:
    """The entries that concern one player (under any of its roles in a change: the
    player edited, kept or merged in a merge, either side of a re-point or a dismissal)
    and one event."""
    if player_id is not None:
        concern = Q()
        for key in PLAYER_KEYS:
            concern |= Q(**{f"details__{key}": player_id})
        entries = entries.filter(concern)
    if event_id is not None:
        entries = entries.filter(details__event_id=event_id)
    return entries


def sentences(entries: Sequence[AuditEntry]) -> list[tuple[AuditEntry, str]]:
    """Each entry with its sentence. The entries' users must be select_related."""
    names = names_for(entries)
    return [(entry, sentence(entry, names)) for entry in entries]


def sentence(entry: AuditEntry, names: Names) -> str:
    facts = _Facts(entry, names)
    write = SENTENCES.get(entry.action)
    if write is None:  # an action a newer version of the code wrote
        return _("%(who)s: %(action)s") % {"who": facts.who, "action": entry.action}
    return write(facts)


class _Facts:
    """One entry's details with the names and words its sentence needs."""

    def __init__(self, entry: AuditEntry, names: Names) -> None:
        self.details: dict[str, Any] = entry.details if isinstance(entry.details, dict) else {}
        self.names = names
        user = entry.user
        staff = self.details.get("by") == "staff"
        code = self.details.get("code")
        if user is None and code:
            # Reported at the board (directors/night/board_reports.py): the code, not a device.
            self.who = _("The players with code %(code)s") % {"code": code}
        elif user is None:
            self.who = _("Staff") if staff else _("A command")
        elif staff:
            self.who = _("%(name)s (in the staff admin)") % {"name": user.name or user.email}
        else:
            self.who = user.name or user.email

    def get(self, key: str, default: Any = None) -> Any:
        return self.details.get(key, default)

    def player(self, id_key: str = "player_id", name_key: str = "name") -> str:
        pid = self.details.get(id_key)
        found = self.names.players.get(pid) if isinstance(pid, int) else None
        if found is not None:
            return found
        quoted = self.details.get(name_key)
        return str(quoted) if quoted else _("a player no longer on the roster")

    def event(self) -> str:
        eid = self.details.get("event_id")
        found = self.names.events.get(eid) if isinstance(eid, int) else None
        if found is not None:
            return found
        quoted = self.details.get("name")
        return str(quoted) if quoted else _("an event")

    def account(self) -> str:
        uid = self.details.get("user_id")
        found = self.names.accounts.get(uid) if isinstance(uid, int) else None
        return found if found is not None else _("a removed account")

    def fmt(self, **params: object) -> dict[str, object]:
        return {"who": self.who, **params}


def _results_saved(f: _Facts) -> str:
    return " ".join(part for part in (_results_saved_what(f), _corrected(f)) if part)


def _corrected(f: _Facts) -> str:
    """A correction's boards, old → new (entries before issue 36 have none)."""
    parts: list[str] = []
    changed = f.get("changed") or []
    lines = []
    for round_no, board, pair, old, new in changed:
        line = _("Round %(round)s, board %(board)s: %(old)s → %(new)s") % {
            "round": round_no,
            "board": board,
            "old": _result_short(old),
            "new": _result_short(new),
        }
        lines.append(f"{line} ({pair})" if pair else line)
    if lines:
        parts.append(_("Changed: %(changes)s.") % {"changes": "; ".join(lines)})
    more = int(f.get("changed_count") or 0) - len(lines)
    if more > 0:
        parts.append(
            ngettext("%(count)d more result changed.", "%(count)d more results changed.", more)
            % {"count": more}
        )
    added, removed = int(f.get("added") or 0), int(f.get("removed") or 0)
    if added or removed:
        parts.append(
            _("Boards added: %(added)d, taken away: %(removed)d.")
            % {"added": added, "removed": removed}
        )
    return " ".join(parts)


def _result_short(code: object) -> str:
    try:
        return str(RESULT_LABELS[Result(str(code))].short)
    except (KeyError, ValueError):
        return str(code)


def _results_saved_what(f: _Facts) -> str:
    games = f.get("games", 0)
    params = f.fmt(
        event=f.event(),
        count=games,
        source=str(_SOURCES.get(str(f.get("source")), f.get("source") or "")),
        round=f.get("round"),
    )
    if f.get("round") is not None:
        return (
            ngettext(
                "%(who)s saved %(count)d game of round %(round)s of %(event)s from %(source)s.",
                "%(who)s saved %(count)d games of round %(round)s of %(event)s from %(source)s.",
                games,
            )
            % params
        )
    return (
        ngettext(
            "%(who)s saved %(count)d game of %(event)s from %(source)s.",
            "%(who)s saved %(count)d games of %(event)s from %(source)s.",
            games,
        )
        % params
    )


def _repointed(f: _Facts) -> str:
    params = f.fmt(
        typed=f.get("typed_name", ""),
        event=f.event(),
        old=f.player("from_player_id", "-") if f.get("from_player_id") else _("no player"),
        new=f.player("to_player_id", "-"),
    )
    if f.get("new_player"):
        return (
            _("%(who)s moved %(typed)s in %(event)s from %(old)s to a new player, %(new)s.")
            % params
        )
    return _("%(who)s moved %(typed)s in %(event)s from %(old)s to %(new)s.") % params


def _merged(f: _Facts) -> str:
    entries = f.get("entries", 0)
    return ngettext(
        "%(who)s merged %(merged)s into %(kept)s (%(count)d entry moved).",
        "%(who)s merged %(merged)s into %(kept)s (%(count)d entries moved).",
        entries,
    ) % f.fmt(
        merged=f.player("merged_id", "merged"), kept=f.player("kept_id", "kept"), count=entries
    )


def _player_added(f: _Facts) -> str:
    if f.get("held"):
        message = _(
            "%(who)s added %(player)s to the roster, off the club page until an event of "
            "theirs is published."
        )
    else:
        message = _("%(who)s added %(player)s to the roster.")
    return message % f.fmt(player=f.player())


def _held_removed(f: _Facts) -> str:
    names = [str(name) for name in f.get("players") or []]
    return ngettext(
        "%(who)s deleted the draft %(event)s, and with it %(count)d player met only there: "
        "%(names)s.",
        "%(who)s deleted the draft %(event)s, and with it %(count)d players met only there: "
        "%(names)s.",
        len(names),
    ) % f.fmt(event=f.event(), count=len(names), names=get_text_list(names, _("and")))


def _simple(message: Promise, **params: Callable[[_Facts], object]) -> Callable[[_Facts], str]:
    """A sentence whose placeholders are each one lookup."""

    def write(f: _Facts) -> str:
        return str(message) % f.fmt(**{name: get(f) for name, get in params.items()})

    return write


def _tiebreak_names(codes: list[str]) -> str:
    names = {t.value: label.name for t, label in TIEBREAK_LABELS.items()}
    return ", ".join(str(names.get(code, code)) for code in codes)


def _event(f: _Facts) -> object:
    return f.event()


def _event_updated(f: _Facts) -> str:
    """The fields changed; whether the event is a round robin with its old and new word."""
    changed, said = f.get("changed"), f.get("round_robin")
    if not (isinstance(changed, list) and isinstance(said, list) and len(said) == 2):
        fields = _changes(_EVENT_FIELDS, changed, _plain)
        return _("%(who)s changed the %(fields)s of %(event)s.") % f.fmt(fields=fields, event=_event(f))  # fmt: skip  # noqa: E501
    words = {False: _("Swiss"), True: _("round robin")}
    params = f.fmt(event=f.event(), old=words[bool(said[0])], new=words[bool(said[1])])
    if others := [field for field in changed if field != "round_robin"]:
        said_too = _("%(who)s changed the %(fields)s of %(event)s, and its pairing system from %(old)s to %(new)s.")  # fmt: skip  # noqa: E501
        return said_too % {**params, "fields": _changes(_EVENT_FIELDS, others, _plain)}
    return _("%(who)s changed the pairing system of %(event)s from %(old)s to %(new)s.") % params


def _board_result(f: _Facts) -> str:
    """Names both players and, for a change, the old result (older entries only the board)."""
    if not f.get("board"):
        said = _("%(who)s entered the results of round %(round)s of %(event)s: %(result)s.")
    elif f.get("pair") and f.get("old"):
        said = _("%(who)s changed board %(board)s of round %(round)s of %(event)s, %(pair)s, from %(old)s to %(result)s.")  # fmt: skip  # noqa: E501
    elif f.get("pair"):
        said = _("%(who)s entered %(result)s on board %(board)s of round %(round)s of %(event)s, %(pair)s.")  # fmt: skip  # noqa: E501
    else:
        said = _("%(who)s entered %(result)s on board %(board)s of round %(round)s of %(event)s.")
    keys = ("board", "round", "result", "pair", "old")
    return said % f.fmt(event=_event(f), **{key: f.get(key, "") for key in keys})


def _board_report(f: _Facts) -> str:
    """One side's report at the board, named by its code; a changed report with the old one."""
    sides = {"white": _("White"), "black": _("Black")}
    params = {
        "side": sides.get(f.get("side", ""), f.get("side", "")),
        "code": f.get("code", ""), "event": _event(f),
        **{key: f.get(key, "") for key in ("board", "round", "result", "old")},
    }  # fmt: skip
    if f.get("old"):
        said = _("%(side)s reported %(result)s (instead of %(old)s) at board %(board)s of round %(round)s of %(event)s with code %(code)s.")  # fmt: skip  # noqa: E501
    else:
        said = _("%(side)s reported %(result)s at board %(board)s of round %(round)s of %(event)s with code %(code)s.")  # fmt: skip  # noqa: E501
    return said % params


def _entry_added(f: _Facts) -> str:
    """A late entrant says what the rounds they missed score."""
    params = f.fmt(event=_event(f), typed=_typed(f), rounds=f.get("rounds", 0))
    if f.get("missed") == "H":
        return _("%(who)s added %(typed)s to %(event)s, with a half-point bye for each of the %(rounds)s rounds already paired.") % params  # fmt: skip  # noqa: E501
    if f.get("missed") == "Z":
        return _("%(who)s added %(typed)s to %(event)s, absent from the %(rounds)s rounds already paired.") % params  # fmt: skip  # noqa: E501
    return _("%(who)s added %(typed)s to %(event)s.") % params


def _bye_requested(f: _Facts) -> str:
    """The bye's worth (older entries, from before 0 and 1-point byes, were all ½)."""
    params = f.fmt(event=_event(f), typed=_typed(f), round=_round(f))
    if f.get("bye") == "Z":
        return _("%(who)s gave %(typed)s a zero-point bye in round %(round)s of %(event)s.") % params  # fmt: skip  # noqa: E501
    if f.get("bye") == "F":
        return _("%(who)s gave %(typed)s a full-point bye in round %(round)s of %(event)s.") % params  # fmt: skip  # noqa: E501
    return _("%(who)s gave %(typed)s a half-point bye in round %(round)s of %(event)s.") % params  # fmt: skip  # noqa: E501


def _bye_settings(f: _Facts) -> str:
    """The byes allowed, for the club's nights or one evening."""
    labels = {"Z": _("0 points"), "H": _("½ point"), "F": _("1 point")}
    allowed = ", ".join(str(labels.get(letter, letter)) for letter in str(f.get("new", "")))
    if f.get("event_id"):
        said = _("%(who)s let the players of %(event)s ask for these byes: %(allowed)s.")
        return said % f.fmt(event=_event(f), allowed=allowed)
    said = _("%(who)s let the players of the club nights ask for these byes: %(allowed)s.")
    return said % f.fmt(allowed=allowed)


def _player(f: _Facts) -> object:
    return f.player()


def _typed(f: _Facts) -> object:
    """The name as typed in the event the entry concerns."""
    return f.get("typed_name", "")


def _round(f: _Facts) -> object:
    return f.get("round", "")


def _rating_settings(f: _Facts) -> str:
    """Names the ladder once the club has more than one (the entry then quotes its name)."""
    changes = _changes(_RATING_FIELDS, f.get("changes"), _rating_value)
    if f.get("ladder_name"):
        said = _("%(who)s changed the rating settings of %(ladder)s: %(changes)s.")
        return said % f.fmt(ladder=f.get("ladder_name"), changes=changes)
    if f.get("changes"):
        return _("%(who)s changed the rating settings: %(changes)s.") % f.fmt(changes=changes)
    return _("%(who)s changed the rating settings.") % f.fmt()


def _ladder_added(f: _Facts) -> str:
    """The new ladder's kinds, and where each came from."""
    params = f.fmt(ladder=f.get("name", ""), kinds=_kinds(f.get("kinds")))
    taken = _taken(f.get("taken"), f.get("names"))
    if not f.get("kinds"):
        return _("%(who)s added the ladder %(ladder)s, rating no event kind yet.") % params
    if taken:
        said = _("%(who)s added the ladder %(ladder)s, rating %(kinds)s (%(taken)s).")
        return said % {**params, "taken": taken}
    return _("%(who)s added the ladder %(ladder)s, rating %(kinds)s.") % params


SENTENCES: dict[str, Callable[[_Facts], str]] = {
    "club.created": _simple(gettext_lazy("%(who)s created the club.")),
    "club_secret.rotated": _simple(gettext_lazy("%(who)s gave the club page a new secret link.")),
    "page_settings.changed": _simple(
        gettext_lazy("%(who)s changed the club page settings: %(changes)s."),
        changes=lambda f: _changes(_PAGE_FIELDS, f.get("changes"), _page_value),
    ),
    "tiebreak_order.changed": _simple(
        gettext_lazy("%(who)s changed the order of the tie-breaks to %(order)s."),
        order=lambda f: _tiebreak_names(f.get("new") or []),
    ),
    "embed_origins.changed": _simple(
        gettext_lazy("%(who)s set the websites that may show the club's embeds: %(sites)s."),
        sites=lambda f: ", ".join(f.get("new") or []) or "–",
    ),
    "rating_settings.changed": _rating_settings,
    "invitation.revoked": _simple(
        gettext_lazy("%(who)s withdrew an invitation to direct the club.")
    ),
    "director.invited": _simple(gettext_lazy("%(who)s invited a new director.")),
    "director.added": _simple(
        gettext_lazy("%(who)s added %(account)s as a director."), account=_Facts.account
    ),
    "director.removed": _simple(
        gettext_lazy("%(who)s removed %(account)s as a director."), account=_Facts.account
    ),
    "event.created": _simple(gettext_lazy("%(who)s created the event %(event)s."), event=_event),
    "event.updated": _event_updated,
    "event.published": _simple(gettext_lazy("%(who)s published %(event)s."), event=_event),
    "event.unpublished": _simple(
        gettext_lazy("%(who)s took %(event)s back to draft."), event=_event
    ),
    "event.deleted": _simple(gettext_lazy("%(who)s deleted %(event)s."), event=_event),
    "event.restored": _simple(gettext_lazy("%(who)s restored %(event)s."), event=_event),
    "share_link.rotated": _simple(
        gettext_lazy("%(who)s gave %(event)s a new results link."), event=_event
    ),
    "results.saved": _results_saved,
    "names.decided": _simple(
        gettext_lazy(
            "%(who)s decided the names of %(event)s: %(linked)s linked to players, "
            "%(created)s new players, %(dropped)s without a player."
        ),
        event=_event,
        linked=lambda f: f.get("linked", 0),
        created=lambda f: f.get("created", 0),
        dropped=lambda f: f.get("dropped", 0),
    ),
    "entry.added": lambda f: _entry_added(f),
    "club_night.started": _simple(
        gettext_lazy("%(who)s started the club night %(event)s with %(players)s players."),
        event=_event,
        players=lambda f: f.get("players", 0),
    ),
    "seed.moved": _simple(
        gettext_lazy("%(who)s moved %(typed)s to seed %(seed)s in %(event)s."),
        event=_event,
        typed=_typed,
        seed=lambda f: f.get("seed", ""),
    ),
    "entrant.withdrawn": _simple(
        gettext_lazy("%(who)s withdrew %(typed)s from %(event)s from round %(round)s."),
        event=_event,
        typed=_typed,
        round=_round,
    ),
    "entrant.moved": _simple(
        gettext_lazy("%(who)s moved %(typed)s from %(event)s to the section %(section)s."),
        event=_event,
        typed=_typed,
        section=lambda f: f.get("to_section", ""),
    ),
    "night_rules.changed": _simple(
        gettext_lazy("%(who)s changed the system, rounds and bye of %(event)s."),
        event=_event,
    ),
    "entrant.returned": _simple(
        gettext_lazy("%(who)s brought %(typed)s back into %(event)s from round %(round)s."),
        event=_event,
        typed=_typed,
        round=_round,
    ),
    "bye.requested": lambda f: _bye_requested(f),
    "bye.cancelled": _simple(
        gettext_lazy("%(who)s cancelled the bye of %(typed)s in round %(round)s of %(event)s."),
        event=_event,
        typed=_typed,
        round=_round,
    ),
    "bye_settings.changed": lambda f: _bye_settings(f),
    "round.paired": _simple(
        gettext_lazy("%(who)s paired round %(round)s of %(event)s."),
        event=_event,
        round=_round,
    ),
    "round.unpaired": _simple(
        gettext_lazy("%(who)s took back the pairing of round %(round)s of %(event)s."),
        event=_event,
        round=_round,
    ),
    "board_result.entered": lambda f: _board_result(f),
    "board_report.received": lambda f: _board_report(f),
    "board_report.confirmed": _simple(
        gettext_lazy(
            "Both players confirmed %(result)s at board %(board)s of round %(round)s of "
            "%(event)s (%(pair)s) with code %(code)s: the result is stored."
        ),
        event=_event,
        round=_round,
        board=lambda f: f.get("board", ""),
        result=lambda f: f.get("result", ""),
        pair=lambda f: f.get("pair", ""),
        code=lambda f: f.get("code", ""),
    ),
    "board_report.disputed": _simple(
        gettext_lazy(
            "The players disagree at board %(board)s of round %(round)s of %(event)s "
            "(%(pair)s), code %(code)s: white says %(white)s, black says %(black)s. Nothing "
            "is stored."
        ),
        event=_event,
        round=_round,
        board=lambda f: f.get("board", ""),
        white=lambda f: f.get("white", ""),
        black=lambda f: f.get("black", ""),
        pair=lambda f: f.get("pair", ""),
        code=lambda f: f.get("code", ""),
    ),
    "entry.removed": _simple(
        gettext_lazy("%(who)s removed %(typed)s from %(event)s."),
        event=_event,
        typed=_typed,
    ),
    "entry.repointed": _repointed,
    "player.added": _player_added,
    "roster.imported": _simple(
        gettext_lazy(
            "%(who)s imported a roster onto the ladder %(ladder)s: %(created)s new players, "
            "%(updated)s players on the roster with a new starting rating or junior flag."
        ),
        ladder=lambda f: f.get("ladder_name", ""),
        created=lambda f: f.get("created", 0),
        updated=lambda f: f.get("updated", 0),
    ),
    "held_players.removed": _held_removed,
    "player.renamed": _simple(
        gettext_lazy("%(who)s renamed %(old)s to %(new)s."),
        old=lambda f: f.get("old", ""),
        new=lambda f: f.get("new", ""),
    ),
    "player.edited": _simple(
        gettext_lazy("%(who)s changed %(player)s's %(changes)s."),
        player=_player,
        changes=lambda f: _changes(_PLAYER_FIELDS, f.get("changed"), _plain),
    ),
    "player.deleted": _simple(
        gettext_lazy("%(who)s deleted %(player)s from the roster."), player=_player
    ),
    "player.erased": _simple(
        gettext_lazy("%(who)s erased the personal data of %(player)s."), player=_player
    ),
    "players.merged": _merged,
    "merge.undone": _simple(
        gettext_lazy("%(who)s undid the merge of %(merged)s into %(kept)s."),
        merged=lambda f: f.player("merged_id", "merged"),
        kept=lambda f: f.player("kept_id", "kept"),
    ),
    "duplicate.dismissed": _simple(
        gettext_lazy("%(who)s marked %(first)s and %(second)s as two different people."),
        first=lambda f: f.player("first_id", "first"),
        second=lambda f: f.player("second_id", "second"),
    ),
    "ladder.rebuilt": _simple(gettext_lazy("%(who)s had the ladder rebuilt from the first event.")),
    "never_pair.added": _simple(
        gettext_lazy("%(who)s asked that %(first)s and %(second)s are never paired."),
        first=lambda f: f.player("first_id", "first"),
        second=lambda f: f.player("second_id", "second"),
    ),
    "never_pair.removed": _simple(
        gettext_lazy("%(who)s let %(first)s and %(second)s be paired again."),
        first=lambda f: f.player("first_id", "first"),
        second=lambda f: f.player("second_id", "second"),
    ),
    "ladder.added": _ladder_added,
    "ladder_kind.moved": _simple(
        gettext_lazy("%(who)s moved %(taken)s to the ladder %(ladder)s."),
        taken=lambda f: _taken(f.get("taken"), f.get("names")) or _kinds(f.get("kinds")),
        ladder=lambda f: f.get("name", ""),
    ),
    "ladder.renamed": _simple(
        gettext_lazy("%(who)s renamed the ladder %(old)s to %(new)s."),
        old=lambda f: f.get("old", ""),
        new=lambda f: f.get("new", ""),
    ),
    "series.created": _simple(
        gettext_lazy("%(who)s created the series %(series)s."), series=lambda f: f.get("name", "")
    ),
    "series.changed": _simple(
        gettext_lazy("%(who)s changed the series %(series)s."), series=lambda f: f.get("name", "")
    ),
    "series.deleted": _simple(
        gettext_lazy("%(who)s deleted the series %(series)s."), series=lambda f: f.get("name", "")
    ),
    "schedule_entry.added": _simple(
        gettext_lazy("%(who)s scheduled %(name)s from %(date)s."),
        name=lambda f: f.get("name", ""),
        date=lambda f: f.get("date", ""),
    ),
    "schedule_entry.changed": _simple(
        gettext_lazy("%(who)s changed the scheduled event %(name)s."),
        name=lambda f: f.get("name", ""),
    ),
    "schedule_entry.deleted": _simple(
        gettext_lazy("%(who)s took %(name)s off the schedule."),
        name=lambda f: f.get("name", ""),
    ),
    "schedule_date.cancelled": _simple(
        gettext_lazy("%(who)s cancelled %(name)s on %(date)s."),
        name=lambda f: f.get("name", ""),
        date=lambda f: f.get("date", ""),
    ),
    "schedule_date.reinstated": _simple(
        gettext_lazy("%(who)s reinstated %(name)s on %(date)s."),
        name=lambda f: f.get("name", ""),
        date=lambda f: f.get("date", ""),
    ),
    "api_token.created": _simple(
        gettext_lazy("%(who)s made the API token %(name)s (%(scope)s)."),
        name=lambda f: f.get("name", ""),
        scope=lambda f: f.get("scope", ""),
    ),
    "api_token.revoked": _simple(
        gettext_lazy("%(who)s revoked the API token %(name)s."),
        name=lambda f: f.get("name", ""),
    ),
    "board.changed": _simple(
        gettext_lazy(
            "%(who)s changed the pairing of round %(round)s of %(event)s by hand "
            "(board %(boards)s)."
        ),
        event=_event,
        round=_round,
        boards=lambda f: ", ".join(str(b) for b in f.get("boards") or []),
    ),
}


def _ids(details: dict[str, Any], keys: Iterable[str]) -> set[int]:
    return {v for key in keys if isinstance(v := details.get(key), int)}
