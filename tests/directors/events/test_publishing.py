"""directors.events.publishing: drafts, results, name decisions, preview, publish and
corrections."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from django.db import transaction

from clubs.models import AuditEntry, Entry, Event, Game, Player
from clubs.results import Result
from directors.edits import PublishingError, StaleEditError
from directors.events import drafts as event_drafts
from directors.events import flow, publishing, results
from directors.events import names as name_decisions
from directors.events.drafts import EventDetails
from directors.events.flow import preview_event
from directors.events.names import Action, NameDecision
from directors.events.results import GridRow
from directors.importers import ImportFileError, parse_file
from ladder.changes import LadderInput, club_changed
from ladder.models import PlayerEventResult
from ladder.replay import replay_ladder, verify_ladder
from tests.factories import first_ladder, make_event, make_players, rated_players

pytestmark = pytest.mark.django_db

FILES = Path(__file__).parents[1] / "importers" / "files"
W, D, B = Result.WHITE_WIN, Result.DRAW, Result.BLACK_WIN
DETAILS = EventDetails(name="Club night", date=dt.date(2026, 3, 1))


def grid(*rows):
    return results.grid_to_imported([GridRow(n, *row) for n, row in enumerate(rows, start=1)])


def settle(club, callbacks):
    """Replay the ladder the way a committed change does."""
    with callbacks(execute=True), transaction.atomic():
        club_changed(club.pk, LadderInput())
    club.refresh_from_db()


def confirm_all_new(event, user=None):
    event = Event.objects.get(pk=event.pk)
    decisions = [NameDecision(e.pk, Action.NEW) for e in event.entries.filter(player__isnull=True)]
    name_decisions.apply_name_decisions(event.pk, event.edit_version, decisions, user)
    return Event.objects.get(pk=event.pk)


@pytest.fixture
def draft(club, director):
    imported = grid(
        ("1", "Ann", "Bob", "1-0"),
        ("", "Cid", "Dee", "1/2"),
        ("2", "Ann", "Cid", "0-1"),
        ("", "Bob", "", "bye1"),
    )
    return results.create_draft_from_import(club, imported, DETAILS, director)


# The grid ------------------------------------------------------------------------------------


def test_the_grid_carries_the_round_and_skips_blank_rows():
    imported = grid(
        ("3", "Ann", "Bob", "1-0"),
        ("", "Cid", "Dee", "0-1"),
        ("5", "", "", ""),
        ("4", "Ann", "", "bye½"),
        ("", "Bob", "", "bye0"),
    )
    assert [(g.round, g.white, g.black, g.result, g.line) for g in imported.games] == [
        (3, 1, 2, W, 1),
        (3, 3, 4, B, 2),
        (4, 1, None, Result.BYE_HALF, 4),
        (4, 2, None, Result.BYE_ZERO, 5),
    ]
    assert [p.name for p in imported.players] == ["Ann", "Bob", "Cid", "Dee"]


@pytest.mark.parametrize(
    ("rows", "message"),
    [
        ([("1", "Ann", "Bob", "9-9")], "Row 1: choose a result from the list."),
        ([("0", "Ann", "Bob", "1-0")], "Row 1: the round '0' is not a number from 1 to 999."),
        ([("1", "Ann", "ann", "1-0")], "Row 1: Ann is paired with themselves."),
        ([("1", "Ann", "Bob", "bye1")], "Row 1: a bye has no opponent"),
        ([("1", "Ann", "", "1-0")], "Row 1: black is empty"),
        ([("1", "Ann", "Bob", "1-0"), ("1", "Bob", "", "bye1")], "Row 2: Bob already plays"),
        ([("1", "A" * 121, "Bob", "1-0")], "Row 1: a name is longer than 120 characters."),
    ],
)
def test_a_bad_grid_row_is_refused_naming_the_row(rows, message):
    with pytest.raises(ImportFileError) as caught:
        grid(*rows)
    assert caught.value.message.startswith(message)


# Drafts and results --------------------------------------------------------------------------


def test_a_draft_from_an_import_holds_unlinked_entries_and_its_games(club, draft):
    assert draft.status == Event.Status.DRAFT
    assert list(draft.entries.values_list("typed_name", "player")) == [
        ("Ann", None),
        ("Bob", None),
        ("Cid", None),
        ("Dee", None),
    ]
    assert draft.games.count() == 4
    assert AuditEntry.objects.filter(club=club, action="event.created").exists()
    assert AuditEntry.objects.get(club=club, action="results.saved").details["games"] == 4
    club.refresh_from_db()
    assert first_ladder(club).data_version == 0  # a draft is no ladder input


def test_a_trf_import_keeps_ranks_ratings_and_the_junior_flag(club, director):
    imported = parse_file((FILES / "swisssys_style.trf").read_bytes(), "trf")
    event = results.create_draft_from_import(club, imported, DETAILS, director)
    mei = event.entries.get(typed_name="Chen, Mei")
    assert (mei.start_rank, mei.rating_in_file, mei.junior_in_file) == (2, 1720, True)


def test_a_corrected_file_keeps_confirmed_links_by_typed_name(club, director, draft):
    event = confirm_all_new(draft)
    ann = event.entries.get(typed_name="Ann").player
    corrected = grid(("1", "ANN", "Eve", "0-1"), ("1", "Bob", "Cid", "1-0"))
    event = results.set_results(
        event.pk, event.edit_version, corrected, director, source="file", replace_entries=True
    )
    assert event.entries.get(typed_name="Ann").player == ann
    assert not event.entries.filter(typed_name="Dee").exists()  # not in the file any more
    assert event.entries.get(typed_name="Eve").player is None


def test_the_grid_keeps_entrants_without_games(club, director, draft):
    event = results.set_results(
        draft.pk,
        draft.edit_version,
        grid(("1", "Ann", "Bob", "1-0")),
        director,
        source="grid",
        replace_entries=False,
    )
    assert event.entries.count() == 4
    assert event.games.count() == 1


def test_a_published_event_takes_no_unconfirmed_name(
    club, director, draft, django_capture_on_commit_callbacks
):
    event = confirm_all_new(draft)
    event = flow.publish_event(event.pk, event.edit_version, director)
    games = list(event.games.values_list("round", "white__typed_name", "result"))
    with pytest.raises(PublishingError) as caught:
        results.set_results(
            event.pk,
            event.edit_version,
            grid(("1", "Ann", "Stranger", "1-0")),
            director,
            source="grid",
            replace_entries=False,
        )
    assert "Stranger" in caught.value.message
    assert list(event.games.values_list("round", "white__typed_name", "result")) == games
    assert Event.objects.get(pk=event.pk).edit_version == event.edit_version


def test_results_of_a_published_event_change_the_ladder_in_the_same_transaction(
    club, director, draft
):
    event = confirm_all_new(draft)
    event = flow.publish_event(event.pk, event.edit_version, director)
    club.refresh_from_db()
    version = first_ladder(club).data_version
    results.set_results(
        event.pk,
        event.edit_version,
        grid(("1", "Ann", "Bob", "0-1")),
        director,
        source="grid",
        replace_entries=False,
    )
    club.refresh_from_db()
    assert first_ladder(club).data_version == version + 1


def test_a_name_too_long_for_the_database_is_refused_naming_the_line(club, director):
    long_name = "X" * 130
    data = f"round,white,black,result\n1,{long_name},Bob,1-0\n".encode()
    with pytest.raises(ImportFileError) as caught:
        results.create_draft_from_import(club, parse_file(data, "csv"), DETAILS, director)
    assert caught.value.message.startswith("Line 2: the name")
    assert not Event.objects.exists()


# Names ---------------------------------------------------------------------------------------


def test_review_shows_ranked_suggestions_with_reasons(club, director):
    emma, eva, john = make_players(club, ["Emma de Vries", "Eva de Vries", "John Smith"])
    event = results.create_draft_from_import(
        club, grid(("1", "E. de Vries", "Smith, John", "1-0")), DETAILS, director
    )
    reviews = {r.typed_name: r for r in name_decisions.review_names(event)}
    vries = reviews["E. de Vries"]
    assert {c.player_id for c in vries.candidates} == {emma.pk, eva.pk}
    assert vries.preselected is None  # ambiguous: nobody preselected
    assert str(vries.candidates[0].reason_label) == "Initial for a first name"
    smith = reviews["Smith, John"]
    assert smith.preselected.player_id == john.pk
    assert smith.candidates[0].reason.value == "swapped_order"
    # Suggestions are only suggestions.
    assert not Entry.objects.filter(event=event, player__isnull=False).exists()


def test_a_player_already_in_the_event_is_not_suggested_again(club, director):
    (john,) = make_players(club, ["John Smith"])
    event = results.create_draft_from_import(
        club, grid(("1", "John Smith", "Smith, John", "1-0")), DETAILS, director
    )
    first = event.entries.get(typed_name="John Smith")
    name_decisions.apply_name_decisions(
        event.pk, event.edit_version, [NameDecision(first.pk, Action.LINK, john.pk)], director
    )
    (other,) = name_decisions.review_names(Event.objects.get(pk=event.pk))
    assert other.typed_name == "Smith, John"
    assert other.candidates == ()


def test_decisions_link_create_and_leave_out(club, director):
    (ann,) = make_players(club, ["Ann Apple"])
    event = results.create_draft_from_import(
        club,
        grid(("1", "Ann Apple", "Bob New", "1-0"), ("1", "Ghost", "Cid", "+-")),
        DETAILS,
        director,
    )
    entry = {e.typed_name: e for e in event.entries.all()}
    applied = name_decisions.apply_name_decisions(
        event.pk,
        event.edit_version,
        [
            NameDecision(entry["Ann Apple"].pk, Action.LINK, ann.pk),
            NameDecision(entry["Bob New"].pk, Action.NEW, start_rating=1500),
            NameDecision(entry["Cid"].pk, Action.NONE),  # lost by forfeit: a no-show
        ],
        director,
    )
    # Cid is left without a player; nothing of hers changed, so nothing was dropped.
    assert (applied.linked, applied.created, applied.dropped, applied.left_out) == (1, 1, 0, 1)
    bob = rated_players().get(name="Bob New")
    assert (bob.start_rating, bob.name_key) == (1500, "2:bob|new|")
    # The forfeit stays what the grid said: Ghost won by forfeit against Cid.
    ghost_game = Game.objects.get(event=event, white=entry["Ghost"])
    assert (ghost_game.black, ghost_game.result) == (entry["Cid"], Result.WHITE_FORFEIT_WIN.value)
    assert AuditEntry.objects.get(action="names.decided").details == {
        "event_id": event.pk,
        "linked": 1,
        "created": 1,
        "dropped": 0,
    }


@pytest.mark.parametrize(
    ("make_decisions", "message"),
    [
        (lambda e, p: [NameDecision(e["Ann"].pk, Action.NONE)], "Ann played a game"),
        (
            lambda e, p: [
                NameDecision(e["Ann"].pk, Action.LINK, p.pk),
                NameDecision(e["Bob"].pk, Action.LINK, p.pk),
            ],
            "Ann and Bob cannot both be Zoe Zed",
        ),
        (lambda e, p: [NameDecision(e["Ann"].pk, Action.LINK, 999_999)], "Ann: choose a player"),
        (lambda e, p: [NameDecision(-1, Action.NEW)], "no longer part of this event"),
        (
            lambda e, p: [NameDecision(e["Ann"].pk, Action.NEW, start_rating=5000)],
            "between 0 and 4000",
        ),
    ],
)
def test_a_bad_decision_is_refused_and_nothing_changes(
    club, director, draft, make_decisions, message
):
    (zoe,) = make_players(club, ["Zoe Zed"])
    entries = {e.typed_name: e for e in draft.entries.all()}
    before = (Player.objects.count(), list(Entry.objects.values_list("player", flat=True)))
    with pytest.raises(PublishingError) as caught:
        name_decisions.apply_name_decisions(
            draft.pk, draft.edit_version, make_decisions(entries, zoe), director
        )
    assert message in caught.value.message
    assert (Player.objects.count(), list(Entry.objects.values_list("player", flat=True))) == before
    assert Event.objects.get(pk=draft.pk).edit_version == draft.edit_version


def test_a_player_of_another_club_cannot_be_linked(club, director, draft, outsider):
    from clubs.models import Club

    (foreign,) = make_players(Club.objects.get(slug="elsewhere"), ["Ann"])
    ann = draft.entries.get(typed_name="Ann")
    with pytest.raises(PublishingError):
        name_decisions.apply_name_decisions(
            draft.pk, draft.edit_version, [NameDecision(ann.pk, Action.LINK, foreign.pk)], director
        )


@pytest.mark.parametrize(
    ("review", "expected"),
    [
        pytest.param(dict(played=0, candidates=()), Action.NONE, id="no game: no player"),
        pytest.param(dict(played=2, candidates=()), Action.NEW, id="no candidate: new"),
        pytest.param(dict(played=2, candidates="exact"), None, id="exact, without the flag"),
        pytest.param(dict(played=2, candidates="exact", link=True), Action.LINK, id="exact"),
        pytest.param(dict(played=2, candidates="similar", link=True), None, id="similar waits"),
    ],
)
def test_automatic_decisions(review, expected):
    from directors.events.names import Candidate, NameReview
    from matching import Reason

    kinds = {
        "exact": (Candidate(7, "Ann", "Ann", 100, Reason.SAME_NAME, True),),
        "similar": (Candidate(7, "Anne", "Anne", 80, Reason.TYPO, False),),
    }
    link = review.pop("link", False)
    candidates = review.pop("candidates")
    reviewed = NameReview(
        entry_id=1,
        typed_name="Ann",
        start_rank=1,
        rating_in_file=None,
        junior_in_file=None,
        games=review["played"],
        played=review["played"],
        player_id=None,
        player_name=None,
        candidates=kinds.get(candidates, candidates) if candidates else (),
    )
    auto = name_decisions.automatic_decisions([reviewed], link_exact=link)
    if expected is None:
        assert (auto.decisions, auto.pending) == ([], ["Ann"])
    else:
        assert [d.action for d in auto.decisions] == [expected]
        assert auto.pending == []


# Edit versions -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "change",
    [
        lambda e, v, u: event_drafts.update_event(e.pk, v, DETAILS, u),
        lambda e, v, u: results.set_results(
            e.pk, v, grid(("1", "X", "Y", "1-0")), u, source="grid", replace_entries=False
        ),
        lambda e, v, u: name_decisions.apply_name_decisions(e.pk, v, [], u),
        lambda e, v, u: name_decisions.add_entry(e.pk, v, "Zed", u),
        lambda e, v, u: flow.publish_event(e.pk, v, u),
        lambda e, v, u: publishing.delete_event(e.pk, v, u),
    ],
)
def test_a_stale_version_is_refused_and_changes_nothing(club, director, draft, change):
    name_decisions.add_entry(draft.pk, draft.edit_version, "Someone Else", director)
    before = (
        list(Event.objects.values_list("name", "status", "deleted_at", "edit_version")),
        list(Entry.objects.values_list("typed_name", "player")),
        list(Game.objects.values_list("round", "result")),
        AuditEntry.objects.count(),
    )
    with pytest.raises(StaleEditError):
        change(draft, draft.edit_version, director)
    after = (
        list(Event.objects.values_list("name", "status", "deleted_at", "edit_version")),
        list(Entry.objects.values_list("typed_name", "player")),
        list(Game.objects.values_list("round", "result")),
        AuditEntry.objects.count(),
    )
    assert after == before


def test_every_save_increments_the_version(club, director, draft):
    version = draft.edit_version
    event = event_drafts.update_event(draft.pk, version, DETAILS, director)
    assert event.edit_version == version + 1


# Preview and publish -------------------------------------------------------------------------


@pytest.fixture
def history(club):
    """Ann and Bob played before the new event's date, and again after it."""
    ann, bob, cid = make_players(club, ["Ann", "Bob", "Cid"])
    make_event(club, [(1, ann, bob, W), (2, ann, cid, W)], date=dt.date(2026, 1, 1), name="Jan")
    make_event(club, [(1, bob, ann, W)], date=dt.date(2026, 6, 1), name="June")
    return ann, bob, cid


@pytest.mark.parametrize("ladder_current", [True, False])
def test_the_preview_equals_what_publishing_stores(
    club, director, history, django_capture_on_commit_callbacks, ladder_current
):
    ann, bob, cid = history
    settle(club, django_capture_on_commit_callbacks)
    event = results.create_draft_from_import(
        club,
        grid(("1", "Ann", "Bob", "1/2"), ("1", "Cid", "Dee New", "0-1"), ("2", "Ann", "", "bye1")),
        DETAILS,
        director,
    )
    entries = {e.typed_name: e for e in event.entries.all()}
    name_decisions.apply_name_decisions(
        event.pk,
        event.edit_version,
        [
            NameDecision(entries["Ann"].pk, Action.LINK, ann.pk),
            NameDecision(entries["Bob"].pk, Action.LINK, bob.pk),
            NameDecision(entries["Cid"].pk, Action.LINK, cid.pk),
            NameDecision(entries["Dee New"].pk, Action.NEW, start_rating=1600),
        ],
        director,
    )
    if not ladder_current:
        with transaction.atomic():
            club_changed(club.pk, LadderInput())  # marked out of date, no replay yet
    event = Event.objects.get(pk=event.pk)
    preview = preview_event(event)
    assert preview.ladder_current is ladder_current
    assert preview.events_before == 1
    jan = PlayerEventResult.objects.get(event__name="Jan", player=ann)
    shown = {row.player_id: row for row in preview.rows}
    assert shown[ann.pk].pre_rating == pytest.approx(jan.post_rating)
    dee = rated_players().get(name="Dee New")
    assert shown[dee.pk].pre_rating == 1600
    assert not PlayerEventResult.objects.filter(event=event).exists()  # nothing written

    with django_capture_on_commit_callbacks(execute=True):
        flow.publish_event(event.pk, event.edit_version, director)
    stored = {r.player_id: r for r in PlayerEventResult.objects.filter(event=event)}
    assert stored.keys() == shown.keys()
    for player_id, row in shown.items():
        assert (stored[player_id].pre_rating, stored[player_id].change) == pytest.approx(
            (row.pre_rating, row.change)
        )
        assert stored[player_id].rated_games_after == row.rated_games_after
    club.refresh_from_db()
    assert verify_ladder(club) == []


def test_forfeits_against_entrants_left_without_a_player_stay_as_the_file_says(
    club, director, django_capture_on_commit_callbacks, caplog
):
    from ladder.roster.rosters import load_roster
    from members.pages.player_page import player_page

    event = results.create_draft_from_import(
        club,
        grid(
            ("1", "Cid", "Dee", "+-"),  # Dee never came
            ("", "Eve", "Fay", "--"),  # neither did Eve nor Fay
            ("2", "Ann", "Cid", "0-1"),
        ),
        DETAILS,
        director,
    )
    entry = {e.typed_name: e for e in event.entries.all()}
    applied = name_decisions.apply_name_decisions(
        event.pk,
        event.edit_version,
        [NameDecision(entry[name].pk, Action.NEW) for name in ("Ann", "Cid")]
        + [NameDecision(entry[name].pk, Action.NONE) for name in ("Dee", "Eve", "Fay")],
        director,
    )
    assert applied.left_out == 3
    stored = set(
        event.games.values_list("round", "white__typed_name", "black__typed_name", "result")
    )
    assert stored == {
        (1, "Cid", "Dee", Result.WHITE_FORFEIT_WIN.value),
        (1, "Eve", "Fay", Result.DOUBLE_FORFEIT.value),
        (2, "Ann", "Cid", Result.BLACK_WIN.value),
    }
    event = Event.objects.get(pk=event.pk)
    preview = preview_event(event)
    assert preview.unconfirmed == []
    assert {row.name for row in preview.rows} == {"Ann", "Cid"}

    with django_capture_on_commit_callbacks(execute=True):
        flow.publish_event(event.pk, event.edit_version, director)
    club.refresh_from_db()
    assert verify_ladder(club) == []
    assert "unlinked entry" not in caplog.text
    cid = rated_players().get(name="Cid")
    page = player_page(club, load_roster(club, viewer_is_director=True), cid.pk)
    assert page is not None
    (line,) = page.events
    by_round = {game.round: game for game in line.games}
    assert by_round[1].counted is False and by_round[1].reason  # the forfeit never counted
    assert by_round[2].counted is True


def test_the_preview_waits_for_confirmed_names(club, director, draft):
    preview = preview_event(draft)
    assert preview.rows == []
    assert preview.unconfirmed == ["Ann", "Bob", "Cid", "Dee"]


def test_publishing_needs_every_name_with_a_game_confirmed(club, director, draft):
    with pytest.raises(PublishingError) as caught:
        flow.publish_event(draft.pk, draft.edit_version, director)
    assert caught.value.message == ("Confirm these 4 names before publishing: Ann, Bob, Cid, Dee.")
    assert Event.objects.get(pk=draft.pk).status == Event.Status.DRAFT


def test_publishing_an_event_without_results_is_refused(club, director):
    event = event_drafts.create_event(club, DETAILS, director)
    with pytest.raises(PublishingError, match="Enter the results"):
        flow.publish_event(event.pk, event.edit_version, director)


def test_an_entrant_without_a_game_needs_no_player_to_publish(club, director, draft):
    event = confirm_all_new(draft)
    name_decisions.add_entry(event.pk, event.edit_version, "No Show", director)
    event = Event.objects.get(pk=event.pk)
    event = flow.publish_event(event.pk, event.edit_version, director)
    assert event.status == Event.Status.PUBLISHED
    assert not rated_players().filter(name="No Show").exists()


# Corrections ---------------------------------------------------------------------------------


@pytest.fixture
def published(club, director, history, django_capture_on_commit_callbacks):
    ann, _bob, cid = history
    event = results.create_draft_from_import(
        club, grid(("1", "Ann", "Cid", "1-0")), DETAILS, director
    )
    entries = {e.typed_name: e for e in event.entries.all()}
    name_decisions.apply_name_decisions(
        event.pk,
        event.edit_version,
        [
            NameDecision(entries["Ann"].pk, Action.LINK, ann.pk),
            NameDecision(entries["Cid"].pk, Action.LINK, cid.pk),
        ],
        director,
    )
    event = Event.objects.get(pk=event.pk)
    with django_capture_on_commit_callbacks(execute=True):
        event = flow.publish_event(event.pk, event.edit_version, director)
    club.refresh_from_db()
    assert club.ladder_is_current
    return event


@pytest.mark.parametrize(
    ("change", "ladder_moves"),
    [
        pytest.param(
            lambda e, u: event_drafts.update_event(
                e.pk, e.edit_version, EventDetails("Renamed", e.date), u
            ),
            False,
            id="rename",
        ),
        pytest.param(
            lambda e, u: event_drafts.update_event(
                e.pk, e.edit_version, EventDetails(e.name, dt.date(2025, 1, 1)), u
            ),
            True,
            id="re-date",
        ),
        pytest.param(
            lambda e, u: event_drafts.update_event(
                e.pk, e.edit_version, EventDetails(e.name, e.date, rated=False), u
            ),
            True,
            id="unrated",
        ),
        pytest.param(
            lambda e, u: event_drafts.update_event(
                e.pk, e.edit_version, EventDetails(e.name, e.date, kind="bughouse"), u
            ),
            True,
            id="bughouse",
        ),
        pytest.param(
            lambda e, u: results.set_results(
                e.pk,
                e.edit_version,
                grid(("1", "Ann", "Cid", "0-1")),
                u,
                source="grid",
                replace_entries=False,
            ),
            True,
            id="result",
        ),
        pytest.param(
            lambda e, u: publishing.delete_event(e.pk, e.edit_version, u), True, id="delete"
        ),
        pytest.param(
            lambda e, u: publishing.unpublish_event(e.pk, e.edit_version, u), True, id="unpublish"
        ),
    ],
)
def test_a_correction_replays_the_ladder_and_verifies(
    club, director, published, django_capture_on_commit_callbacks, change, ladder_moves
):
    version = first_ladder(club).data_version
    audits = AuditEntry.objects.count()
    with django_capture_on_commit_callbacks(execute=True):
        change(published, director)
    club.refresh_from_db()
    assert first_ladder(club).data_version == version + (1 if ladder_moves else 0)
    assert club.ladder_is_current
    assert verify_ladder(club) == []
    assert AuditEntry.objects.count() == audits + 1


def test_a_deleted_event_is_restored_into_the_ladder(
    club, director, published, django_capture_on_commit_callbacks
):
    ann = rated_players().get(name="Ann")
    rating = rated_players().get(pk=ann.pk).rating
    with django_capture_on_commit_callbacks(execute=True):
        event = publishing.delete_event(published.pk, published.edit_version, director)
    assert rated_players().get(pk=ann.pk).rating != rating
    with pytest.raises(PublishingError, match="restore it"):
        name_decisions.add_entry(event.pk, event.edit_version, "Late", director)
    with django_capture_on_commit_callbacks(execute=True):
        publishing.restore_event(event.pk, event.edit_version, director)
    assert rated_players().get(pk=ann.pk).rating == pytest.approx(rating)
    club.refresh_from_db()
    assert verify_ladder(club) == []


def test_relinking_a_published_entry_replays_the_ladder(
    club, director, published, django_capture_on_commit_callbacks
):
    bob = rated_players().get(name="Bob")
    cid_entry = published.entries.get(typed_name="Cid")
    with django_capture_on_commit_callbacks(execute=True):
        name_decisions.apply_name_decisions(
            published.pk,
            published.edit_version,
            [NameDecision(cid_entry.pk, Action.LINK, bob.pk)],
            director,
        )
    assert PlayerEventResult.objects.filter(event=published, player=bob).exists()
    club.refresh_from_db()
    assert verify_ladder(club) == []


def test_a_player_added_to_a_published_event_after_confirmation(
    club, director, published, django_capture_on_commit_callbacks
):
    event = name_decisions.add_entry(published.pk, published.edit_version, "Newbie", director).event
    event = Event.objects.get(pk=event.pk)
    entry = event.entries.get(typed_name="Newbie")
    name_decisions.apply_name_decisions(
        event.pk, event.edit_version, [NameDecision(entry.pk, Action.NEW)], director
    )
    event = Event.objects.get(pk=event.pk)
    with django_capture_on_commit_callbacks(execute=True):
        results.set_results(
            event.pk,
            event.edit_version,
            grid(("1", "Ann", "Cid", "1-0"), ("2", "Newbie", "Ann", "1/2")),
            director,
            source="grid",
            replace_entries=False,
        )
    newbie = rated_players().get(name="Newbie")
    assert PlayerEventResult.objects.filter(event=event, player=newbie).exists()
    club.refresh_from_db()
    assert verify_ladder(club) == []
    replay_ladder(club.pk)  # safe to run again
    assert verify_ladder(club) == []
