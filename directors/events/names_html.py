"""The names table's rows, written once in Python (directors/events/forms.py NamesForm.rows_html
decides each row's values; this writes them).

One row per entrant: the typed name, what the file says, the best likely candidate with its
reason and ladder details, and the decision, a native <select> (keyboard: Tab to it, arrows or
the first letters to choose), with "another player" and a new player's starting rating under
a <details> of the row. Weak candidates (only alike as text) sit in their own option group
and are never chosen for the director. At 2,000 names the template took over a second; this
takes a few hundredths.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from django.forms.utils import ErrorList
from django.utils.formats import date_format
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext, ngettext

from directors.events.names import Candidate, NameReview
from directors.events.names_table import PlayerDetails, likely, weak


@dataclass(frozen=True)
class RowState:
    """A row's values as a browser shows the form: submitted ones, else the initial ones."""

    decision: str
    other: str
    start: str
    errors: Mapping[str, ErrorList | None]


class Words(dict[str, str]):
    """A page's fixed texts, and the candidates' standing texts written so far."""

    def __init__(self, texts: dict[str, str]) -> None:
        super().__init__(texts)
        self.standing: dict[PlayerDetails, str] = {}
        self.dates: dict[dt.date, str] = {}

    def date(self, day: dt.date) -> str:
        text = self.dates.get(day)
        if text is None:
            text = self.dates[day] = date_format(day, "DATE_FORMAT")
        return text


def row_words() -> Words:
    """The table's fixed texts, translated once a page rather than once a row; each escaped
    where it is used."""
    return Words(
        {
            "byes_only": gettext("Played no game: only byes or forfeits."),
            "no_game": gettext("Played no game at all."),
            "rating": gettext("Rating in the file: %(rating)s."),
            "fide_id": gettext("ID %(id)s"),
            "junior": gettext("Junior, by the file's birth date."),
            "start_file": gettext("As a new player: starts at %(rating)s, the rating in the file."),
            "start_club": gettext(
                "As a new player: starts at %(rating)s, the club's start rating."
            ),
            "linked": gettext("Now linked to %(name)s."),
            "no_likely": gettext("No likely player on the roster."),
            "weak_note": gettext("Weak, only alike as text: %(names)s"),
            "weak_group": gettext("Weak: only alike as text"),
            "likely_group": gettext("Likely"),
            "byes_removed": gettext(
                "With no player, this entrant's own byes are removed; its forfeits stay as the "
                "file says, with the same points, and are never rated."
            ),
            "decision_label": gettext("Who is “%(name)s”?"),
            "other_choice": gettext("Another player (type it below)"),
            "new_choice": gettext("A new player"),
            "none_choice": gettext("No player: a placeholder or a no-show"),
            "later_choice": gettext("Decide later"),
            "more": gettext("Another player, or a new player's starting rating"),
            "other_label": gettext("Another player"),
            "start_label": gettext("Starting rating, for a new player (blank: as above)"),
            "no_rated_games": gettext("no rated games yet"),
            "provisional": gettext("provisional"),
            "last_event": gettext("last: %(event)s, %(date)s"),
            "held": gettext("held: appears when an event of theirs is published"),
            "as_matched": gettext("as “%(matched)s”"),
            # The table's column headings (directors/events/names.html), for the stacked rows.
            "col_file": gettext("The file says"),
            "col_best": gettext("Best candidate"),
            "col_who": gettext("Who it is"),
        }
    )


def row_html(
    review: NameReview,
    state: RowState,
    details: Mapping[int, PlayerDetails],
    words: Words,
) -> str:
    pk = review.entry_id
    decision_id, other_id, start_id = (f"id_{kind}_{pk}" for kind in ("decision", "other", "start"))
    best = next(iter(likely(review)), None)
    cells = [
        f'<tr id="name-{pk}">',
        # data-label: the column's heading, shown above the cell when a phone stacks them.
        f'<td class="num" data-label="#">{review.start_rank or ""}</td>',
        f'<th scope="row">{escape(review.typed_name)}</th>',
        f'<td data-label="{escape(words["col_file"])}">{_file_cell(review, words)}</td>',
        f'<td data-label="{escape(words["col_best"])}">'
        f"{_best_cell(review, best, details, words)}</td>",
        f'<td data-label="{escape(words["col_who"])}">'
        f'<label class="visually-hidden" for="{decision_id}">'
        f"{escape(words['decision_label'] % {'name': review.typed_name})}</label>"
        f'<select name="decision_{pk}" id="{decision_id}">'
        f"{_options(review, state.decision, details, words)}</select>"
        f"{_errors(state.errors.get('decision'))}",
    ]
    more_open = (
        " open" if state.other or state.start or _any(state.errors, "other", "start") else ""
    )
    cells.append(
        f"<details{more_open}><summary>{escape(words['more'])}</summary>"
        f'<p><label for="{other_id}">{escape(words["other_label"])}</label> '
        f'<input type="text" name="other_{pk}" id="{other_id}" value="{escape(state.other)}" '
        f'list="roster" autocomplete="off">{_errors(state.errors.get("other"))}</p>'
        f'<p><label for="{start_id}">{escape(words["start_label"])}</label> '
        f'<input type="number" min="0" max="4000" name="start_{pk}" id="{start_id}" '
        f'value="{escape(state.start)}">{_errors(state.errors.get("start"))}</p></details>'
    )
    if review.player_id is None and review.new_start is not None:
        start_note = words["start_file" if review.new_start_from_file else "start_club"]
        cells.append(
            f'<p class="muted">{escape(start_note % {"rating": round(review.new_start)})}</p>'
        )
    cells.append("</td></tr>\n")
    return "".join(cells)


def _file_cell(review: NameReview, words: Words) -> str:
    said = []
    if review.rating_in_file:
        said.append(words["rating"] % {"rating": review.rating_in_file})
    if review.fide_id:
        said.append(words["fide_id"] % {"id": review.fide_id})
    if review.federation:
        said.append(review.federation)
    if review.junior_in_file:
        said.append(words["junior"])
    if review.played:
        played = ngettext("Played one game.", "Played %(counter)s games.", review.played) % {
            "counter": review.played
        }
    elif review.games:
        played = words["byes_only"]
    else:
        played = words["no_game"]
    text: str = escape(" · ".join(said))
    text += f'<br><span class="muted">{escape(played)}</span>' if said else escape(played)
    if review.played_no_game and review.games:
        text += f'<br><span class="muted">{escape(words["byes_removed"])}</span>'
    return text


def _best_cell(
    review: NameReview,
    best: Candidate | None,
    details: Mapping[int, PlayerDetails],
    words: Words,
) -> str:
    parts: list[str] = []
    if review.player_id is not None:
        parts.append(escape(words["linked"] % {"name": review.player_name or ""}))
        if review.player_id in details:
            found = details[review.player_id]
            parts.append(f'<br><span class="muted">{escape(_standing(found, words))}</span>')
    elif best is not None:
        matched = f" ({words['as_matched'] % {'matched': best.matched}})"
        parts.append(
            f"<strong>{escape(best.name)}</strong>"
            f"{escape(matched) if best.matched != best.name else ''}"
            f'<br><span class="muted">{escape(_about(best, details, words))}</span>'
        )
    else:
        parts.append(escape(words["no_likely"]))
    weak_ones = weak(review)
    if weak_ones and review.player_id is None:
        names = ", ".join(c.name for c in weak_ones)
        parts.append(
            f'<br><span class="muted tag-weak">{escape(words["weak_note"] % {"names": names})}'
            "</span>"
        )
    return "".join(parts)


def _about(c: Candidate, details: Mapping[int, PlayerDetails], words: Words) -> str:
    found = details.get(c.player_id)
    standing = _standing(found, words) if found is not None else ""
    return f"{c.reason_label} · {standing}" if standing else str(c.reason_label)


def roster_datalist(labels: Iterable[str]) -> SafeString:
    """The "another player" list: thousands of options, joined here rather than looped in
    the template (a tenth of a second for 3,000 players)."""
    options = "".join(f'<option value="{escape(label)}"></option>' for label in labels)
    # Safe: every label is escaped.
    return mark_safe(f'<datalist id="roster">{options}</datalist>')


def _standing(found: PlayerDetails, words: Words) -> str:
    """Rating, rated games and last event: "1834 (provisional), 12 rated games, last: …".
    Kept per page: one player is the candidate of several names, and date_format is slow
    enough to count at 2,000 names."""
    text = words.standing.get(found)
    if text is None:
        text = words.standing[found] = _standing_text(found, words)
    return text


def _standing_text(found: PlayerDetails, words: Words) -> str:
    if found.rating is None or not found.rated_games:
        text = words["no_rated_games"]
    else:
        rating = f"{round(found.rating)}"
        if found.provisional:
            rating += f" ({words['provisional']})"
        games = ngettext("%(counter)s rated game", "%(counter)s rated games", found.rated_games)
        text = f"{rating}, {games % {'counter': found.rated_games}}"
    if found.last_event and found.last_event_date:
        date = words.date(found.last_event_date)
        text += ", " + words["last_event"] % {"event": found.last_event, "date": date}
    if found.held:
        text += ", " + words["held"]
    return text


def _options(
    review: NameReview, current: str, details: Mapping[int, PlayerDetails], words: Words
) -> str:
    def option(value: str, label: str) -> str:
        selected = " selected" if value == current else ""
        return f'<option value="{escape(value)}"{selected}>{escape(label)}</option>'

    def candidate(c: Candidate) -> str:
        name = (
            c.name
            if c.matched == c.name
            else f"{c.name} ({words['as_matched'] % {'matched': c.matched}})"
        )
        return option(f"p{c.player_id}", f"{name} — {_about(c, details, words)}")

    parts = []
    for label, group in (
        (words["likely_group"], likely(review)),
        (words["weak_group"], weak(review)),
    ):
        if group:
            parts.append(f'<optgroup label="{escape(label)}">')
            parts.extend(candidate(c) for c in group)
            parts.append("</optgroup>")
    if review.player_id is not None and all(
        c.player_id != review.player_id for c in review.candidates
    ):
        parts.append(option(f"p{review.player_id}", review.player_name or ""))
    parts.append(option("other", words["other_choice"]))
    parts.append(option("new", words["new_choice"]))
    if review.played_no_game:
        parts.append(option("none", words["none_choice"]))
    parts.append(option("", words["later_choice"]))
    return "".join(parts)


def _errors(errors: ErrorList | None) -> str:
    return str(errors) if errors else ""


def _any(errors: Mapping[str, ErrorList | None], *kinds: str) -> bool:
    return any(errors.get(kind) for kind in kinds)
