"""Possible duplicates, merges and their undo, re-pointed entries and the cached roster."""

import datetime as dt

import pytest
from django.db import transaction

from clubs.models import AuditEntry, DuplicateDismissal, Entry, Game, Merge, Player, PlayerAlias
from clubs.results import Result
from directors.roster.erasure import erase_player
from directors.roster.merging import (
    RosterChangeError,
    dismiss_duplicate,
    duplicate_candidates,
    merge_players,
    prepared_roster,
    repoint_entry,
    undo_blocker,
    undo_blockers,
    undo_merge,
)
from ladder.changes import LadderInput, OnPages, club_changed
from ladder.models import PlayerEventResult
from ladder.replay import verify_ladder
from matching import Reason, name_key, suggest_prepared
from tests.factories import make_club, make_event, make_players, rated_players, standing

pytestmark = pytest.mark.django_db

W, D, B = Result.WHITE_WIN, Result.DRAW, Result.BLACK_WIN


def day(n):
    return dt.date(2026, 1, n)


def dump(club):
    """Everything a merge and its undo may touch, as plain rows."""
    return {
        "players": list(
            rated_players()
            .filter(club=club)
            .order_by("pk")
            .values_list(
                "pk",
                "name",
                "name_key",
                "junior",
                "merged_into_id",
                "rating",
                "rated_games",
                "provisional",
                "last_played",
                "last_change",
            )
        ),
        "entries": list(
            Entry.objects.filter(event__club=club)
            .order_by("pk")
            .values_list("pk", "event_id", "typed_name", "player_id")
        ),
        "games": list(
            Game.objects.filter(event__club=club)
            .order_by("pk")
            .values_list("pk", "white_id", "black_id", "result")
        ),
        "aliases": list(
            PlayerAlias.objects.filter(player__club=club)
            .order_by("pk")
            .values_list("pk", "player_id", "name", "name_key")
        ),
        "results": sorted(
            PlayerEventResult.objects.filter(club=club).values_list(
                "event_id",
                "player_id",
                "position",
                "event_date",
                "pre_rating",
                "k",
                "provisional",
                "games_counted",
                "expected",
                "actual",
                "change",
                "post_rating",
                "rated_games_after",
            )
        ),
    }


@pytest.fixture
def settle(django_capture_on_commit_callbacks):
    """Commit a ladder change the way views do and let the in-process replay run."""

    def run(club):
        with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
            club_changed(club.pk, LadderInput())
        club.refresh_from_db()

    return run


@pytest.fixture
def on_commit(django_capture_on_commit_callbacks):
    return lambda: django_capture_on_commit_callbacks(execute=True)


@pytest.fixture
def history(club, settle):
    """Alice Smith and "A. Smith" are one person, entered twice; four other members."""
    ann, bob, cid, alice, smith = make_players(
        club, ["Ann Bakker", "Bob Visser", "Cid Mulder", "Alice Smith", "A. Smith"]
    )
    make_event(club, [(1, alice, ann, W), (1, bob, cid, D)], date=day(1))
    second = make_event(club, [(1, smith, bob, W), (1, ann, cid, B)], date=day(2))
    make_event(club, [(1, alice, bob, D), (1, cid, ann, W)], date=day(3))
    fourth = make_event(club, [(1, smith, cid, W), (2, ann, None, Result.BYE_FULL)], date=day(4))
    second.entries.filter(player=smith).update(typed_name="Smith, A.")
    fourth.entries.filter(player=smith).update(typed_name="A Smith")
    PlayerAlias.objects.create(player=smith, name="Ally Smith", name_key=name_key("Ally Smith"))
    PlayerAlias.objects.create(player=smith, name="A.  smith", name_key=name_key("A. Smith"))
    PlayerAlias.objects.create(player=alice, name="A. Smith", name_key=name_key("A. Smith"))
    settle(club)
    assert verify_ladder(club) == []
    return {"ann": ann, "bob": bob, "cid": cid, "alice": alice, "smith": smith}


# Possible duplicates


@pytest.mark.parametrize(
    ("roster", "expected"),
    [
        pytest.param(
            ["Emma de Vries", "E. de Vries"], [("Emma de Vries", "E. de Vries", Reason.INITIAL)]
        ),
        pytest.param(
            ["Jan Müller", "Jan Mueller"], [("Jan Müller", "Jan Mueller", Reason.ACCENTS)]
        ),
        pytest.param(
            ["John Smith", "Smith, John"], [("John Smith", "Smith, John", Reason.SWAPPED_ORDER)]
        ),
        pytest.param(
            ["Vries, Emma de", "Emma de Vries"],
            [("Vries, Emma de", "Emma de Vries", Reason.PARTICLES)],
        ),
        pytest.param(
            ["Anna Maria Jansen", "Anna Jansen"],
            [("Anna Maria Jansen", "Anna Jansen", Reason.MIDDLE_NAME)],
        ),
        pytest.param(
            ["Peter Bakker", "Peter Bakkker"], [("Peter Bakker", "Peter Bakkker", Reason.TYPO)]
        ),
        pytest.param(
            ["Magnus Carlsen", "magnus  CARLSEN"],
            [("Magnus Carlsen", "magnus  CARLSEN", Reason.SAME_NAME)],
        ),
        pytest.param(["Emma de Vries", "Eva de Vries"], [], id="sisters"),
        pytest.param(["John Smith Jr.", "John Smith"], [], id="father-and-son"),
        pytest.param(["Ann Bakker", "Bob Visser"], [], id="strangers"),
    ],
)
def test_duplicate_candidates_name_the_pair_and_the_reason(club, roster, expected):
    make_players(club, roster)
    found = [(c.first.name, c.second.name, c.reason) for c in duplicate_candidates(club)]
    assert found == expected


def test_a_candidate_pair_is_ordered_by_id_and_has_a_translated_label(club):
    later_first = make_players(club, ["E. de Vries", "Emma de Vries"])
    [candidate] = duplicate_candidates(club)
    assert (candidate.first, candidate.second) == tuple(later_first)
    assert str(candidate.reason_label) == "Initial for a first name"


def test_a_dismissed_pair_is_never_shown_again(club, director):
    emma, initial, jan, mueller = make_players(
        club, ["Emma de Vries", "E. de Vries", "Jan Müller", "Jan Mueller"]
    )
    dismiss_duplicate(club, initial, emma, director)
    dismiss_duplicate(club, emma, initial, director)  # the same pair either way round
    assert DuplicateDismissal.objects.filter(club=club).count() == 1
    dismissal = DuplicateDismissal.objects.get()
    assert (dismissal.first, dismissal.second) == (emma, initial)
    assert [(c.first, c.second) for c in duplicate_candidates(club)] == [(jan, mueller)]
    assert AuditEntry.objects.filter(club=club, action="duplicate.dismissed").count() == 1


def test_a_dismissal_of_one_club_hides_nothing_in_another(club, director):
    other = make_club(slug="other")
    make_players(other, ["Emma de Vries", "E. de Vries"])
    emma, initial = make_players(club, ["Emma de Vries", "E. de Vries"])
    dismiss_duplicate(club, emma, initial, director)
    assert duplicate_candidates(club) == []
    assert len(duplicate_candidates(other)) == 1


def test_merged_players_are_not_duplicate_candidates(club, director, on_commit):
    emma, initial, _eva = make_players(club, ["Emma de Vries", "E. de Vries", "E. de Vries"])
    assert len(duplicate_candidates(club)) == 3
    with on_commit():
        merge_players(club, emma, initial, director)
    [candidate] = duplicate_candidates(club)
    assert initial not in (candidate.first, candidate.second)


# Merge


def test_a_merge_moves_entries_and_aliases_and_hides_the_merged_player(
    club, director, history, on_commit
):
    alice, smith = history["alice"], history["smith"]
    smith_entries = list(smith.entries.values_list("pk", flat=True))
    with on_commit():
        merge = merge_players(club, alice, smith, director)
    smith = standing(smith)
    assert smith.merged_into == alice
    assert smith not in Player.objects.active()
    assert set(alice.entries.values_list("pk", flat=True)) >= set(smith_entries)
    assert sorted(merge.moved_entry_ids) == sorted(smith_entries)
    # "Ally Smith" moves; "A.  smith" stays behind: Alice already has "A. Smith".
    moved = PlayerAlias.objects.filter(pk__in=merge.moved_alias_ids)
    assert list(moved.values_list("name", flat=True)) == ["Ally Smith"]
    assert sorted(alice.aliases.values_list("name", flat=True)) == [
        "A Smith",
        "A. Smith",
        "Ally Smith",
        "Smith, A.",
    ]
    created = PlayerAlias.objects.filter(pk__in=merge.created_alias_ids)
    assert sorted(created.values_list("name", "name_key")) == [
        ("A Smith", name_key("A Smith")),
        ("Smith, A.", name_key("Smith, A.")),
    ]
    assert smith.aliases.get().name == "A.  smith"
    assert merge.created_by == director
    log = AuditEntry.objects.get(club=club, action="players.merged")
    assert log.details["merge_id"] == merge.pk and log.user == director
    alice = standing(alice)
    assert alice.rated_games == 4
    assert smith.rated_games == 0
    assert verify_ladder(club) == []


def test_merge_then_undo_leaves_everything_exactly_as_before(club, director, history, on_commit):
    before = dump(club)
    with on_commit():
        merge = merge_players(club, history["alice"], history["smith"], director)
    assert dump(club) != before
    assert verify_ladder(club) == []
    with on_commit():
        undo_merge(merge, director)
    assert dump(club) == before
    assert verify_ladder(club) == []
    merge.refresh_from_db()
    assert merge.undone_at is not None and merge.undone_by == director
    assert AuditEntry.objects.filter(club=club, action="merge.undone").count() == 1


def test_entries_added_to_the_kept_player_after_a_merge_stay_with_it_on_undo(
    club, director, history, settle, on_commit
):
    alice, smith, ann = history["alice"], history["smith"], history["ann"]
    smith_entries = set(smith.entries.values_list("pk", flat=True))
    with on_commit():
        merge = merge_players(club, alice, smith, director)
    assert verify_ladder(club) == []
    later = make_event(club, [(1, alice, ann, W)], date=day(5))
    settle(club)
    assert verify_ladder(club) == []
    with on_commit():
        undo_merge(merge, director)
    assert verify_ladder(club) == []
    assert later.entries.get(typed_name="Alice Smith").player == alice
    assert set(smith.entries.values_list("pk", flat=True)) == smith_entries
    smith = standing(smith)
    assert smith.merged_into is None and smith.rated_games == 2


def test_a_merge_can_be_undone_once(club, director, history, on_commit):
    with on_commit():
        merge = merge_players(club, history["alice"], history["smith"], director)
        undo_merge(merge, director)
    with pytest.raises(RosterChangeError, match="already been undone"):
        undo_merge(merge, director)


@pytest.mark.parametrize(
    "case", ["same-player", "already-merged", "kept-merged", "other-club", "same-event"]
)
def test_a_merge_that_makes_no_sense_is_refused_and_changes_nothing(
    club, director, history, on_commit, case
):
    alice, ann, bob = history["alice"], history["ann"], history["bob"]
    dee = make_players(club, ["Dee Smith"])[0]
    with on_commit():
        merge_players(club, bob, dee, director)
    stranger = make_players(make_club(slug="other"), ["Alice Smith"])[0]
    pairs = {
        "same-player": (alice, alice),
        "already-merged": (alice, dee),
        "kept-merged": (dee, alice),
        "other-club": (alice, stranger),
        "same-event": (alice, ann),  # both played in the first event
    }
    before = dump(club)
    with pytest.raises(RosterChangeError):
        merge_players(club, *pairs[case], director)
    assert dump(club) == before
    assert Merge.objects.count() == 1


def test_undo_waits_for_a_later_merge_of_the_same_players(club, director, history, on_commit):
    alice, smith, cid = history["alice"], history["smith"], history["cid"]
    dee = make_players(club, ["Dee Smith"])[0]
    with on_commit():
        first = merge_players(club, alice, smith, director)
        second = merge_players(club, dee, alice, director)
    assert undo_blocker(first) == second
    assert undo_blockers([first, second]) == {first.pk: second}
    with pytest.raises(RosterChangeError, match="Undo the later merge of Alice Smith into Dee"):
        undo_merge(first, director)
    with on_commit():
        undo_merge(second, director)
        undo_merge(first, director)
    assert Player.objects.active().filter(pk__in=[alice.pk, smith.pk, dee.pk]).count() == 3
    assert cid.entries.count() == 4
    assert verify_ladder(club) == []


def test_an_undone_later_merge_blocks_nothing(club, director, history, on_commit):
    alice, smith = history["alice"], history["smith"]
    dee = make_players(club, ["Dee Smith"])[0]
    with on_commit():
        first = merge_players(club, alice, smith, director)
        second = merge_players(club, dee, alice, director)
        undo_merge(second, director)
    second.refresh_from_db()
    assert undo_blocker(first) is None
    assert undo_blockers([first, second]) == {}


def test_a_merge_and_an_undo_each_mark_the_ladder_out_of_date(
    club, director, history, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks() as callbacks:
        merge = merge_players(club, history["alice"], history["smith"], director)
    club.refresh_from_db()
    assert len(callbacks) == 1 and not club.ladder_is_current
    with django_capture_on_commit_callbacks() as callbacks:
        undo_merge(merge, director)
    assert len(callbacks) == 1


# Re-point


def test_repointing_an_entry_to_another_player_moves_its_results(
    club, director, history, on_commit
):
    smith, cid = history["smith"], history["cid"]
    dee = make_players(club, ["Dee Smith"])[0]
    entry = Entry.objects.get(event__date=day(4), player=smith)
    with on_commit():
        target = repoint_entry(entry, dee, "", director)
    assert target == dee
    entry.refresh_from_db()
    assert entry.player == dee
    dee = standing(dee)
    smith = standing(smith)
    assert (dee.rated_games, smith.rated_games) == (1, 1)
    assert PlayerEventResult.objects.filter(event=entry.event, player=dee).exists()
    assert not PlayerEventResult.objects.filter(event=entry.event, player=smith).exists()
    log = AuditEntry.objects.get(club=club, action="entry.repointed")
    assert log.details["from_player_id"] == smith.pk and log.details["to_player_id"] == dee.pk
    assert verify_ladder(club) == []
    assert cid.entries.count() == 4


def test_repointing_to_a_new_player_creates_them_with_a_name_key(
    club, director, history, on_commit
):
    smith = history["smith"]
    entry = Entry.objects.get(event__date=day(2), player=smith)
    with on_commit():
        target = repoint_entry(entry, None, "  Adam   Smith ", director)
    target = standing(target)
    assert (target.name, target.name_key) == ("Adam Smith", name_key("Adam Smith"))
    assert target.club == club and target.rated_games == 1
    assert AuditEntry.objects.get(action="entry.repointed").details["new_player"] is True
    assert verify_ladder(club) == []


@pytest.mark.parametrize("case", ["current", "merged", "other-club", "same-event", "no-name"])
def test_a_repoint_that_makes_no_sense_is_refused(club, director, history, on_commit, case):
    smith, bob = history["smith"], history["bob"]
    dee = make_players(club, ["Dee Smith"])[0]
    with on_commit():
        merge_players(club, bob, dee, director)
    entry = Entry.objects.get(event__date=day(2), player=smith)
    targets = {
        "current": smith,
        "merged": dee,
        "other-club": make_players(make_club(slug="other"), ["Adam Smith"])[0],
        "same-event": bob,
        "no-name": None,
    }
    before = dump(club)
    with pytest.raises(RosterChangeError):
        repoint_entry(entry, targets[case], "  ", director)
    assert dump(club) == before
    assert not AuditEntry.objects.filter(action="entry.repointed").exists()


def test_an_entry_repointed_after_a_merge_stays_put_when_the_merge_is_undone(
    club, director, history, on_commit
):
    alice, smith = history["alice"], history["smith"]
    dee = make_players(club, ["Dee Smith"])[0]
    entry = Entry.objects.get(event__date=day(4), player=smith)
    with on_commit():
        merge = merge_players(club, alice, smith, director)
        repoint_entry(entry, dee, "", director)
        undo_merge(merge, director)
    entry.refresh_from_db()
    assert entry.player == dee
    assert list(smith.entries.values_list("event__date", flat=True)) == [day(2)]
    assert verify_ladder(club) == []


# The cached roster


def test_the_prepared_roster_holds_active_players_and_their_aliases(club, director, on_commit):
    emma, eva, jan = make_players(club, ["Emma de Vries", "Eva de Vries", "Jan Jansen"])
    PlayerAlias.objects.create(player=jan, name="Johannes Jansen", name_key="")
    roster, owners = prepared_roster(club)
    assert sorted(zip(owners, roster.names, strict=True)) == [
        (emma.pk, "Emma de Vries"),
        (eva.pk, "Eva de Vries"),
        (jan.pk, "Jan Jansen"),
        (jan.pk, "Johannes Jansen"),
    ]
    [found] = suggest_prepared("Johannes Jansen", roster, limit=1)
    assert owners[found.index] == jan.pk


def test_the_prepared_roster_is_read_from_the_cache_the_second_time(
    club, django_assert_num_queries
):
    make_players(club, ["Emma de Vries", "Eva de Vries"])
    first = prepared_roster(club)
    with django_assert_num_queries(1):  # the club's versions only
        again = prepared_roster(club)
    assert again == first


def test_a_stale_roster_never_suggests_a_merged_player(club, director, on_commit):
    emma, initial = make_players(club, ["Emma de Vries", "E. de Vries"])
    roster, owners = prepared_roster(club)
    assert set(owners) == {emma.pk, initial.pk}
    with on_commit():
        merge = merge_players(club, emma, initial, director)
    roster, owners = prepared_roster(club)
    assert set(owners) == {emma.pk}
    assert "E. de Vries" in roster.names  # an alias of Emma now
    suggestions = suggest_prepared("E. de Vries", roster)
    assert {owners[s.index] for s in suggestions} == {emma.pk}
    with on_commit():
        undo_merge(merge, director)
    roster, owners = prepared_roster(club)
    assert set(owners) == {emma.pk, initial.pk}
    assert list(roster.names).count("E. de Vries") == 1


def test_a_new_player_or_alias_refreshes_the_prepared_roster_through_the_door(club):
    (emma,) = make_players(club, ["Emma de Vries"])
    prepared_roster(club)
    make_players(club, ["Eva de Vries"])
    club_changed(club.pk, OnPages())  # as every write that adds a player does
    assert len(prepared_roster(club)[0]) == 2
    PlayerAlias.objects.create(player=emma, name="Em de Vries")
    with transaction.atomic():
        club_changed(club.pk, LadderInput())  # as a merge, which adds aliases, does
    assert len(prepared_roster(club)[0]) == 3


def test_an_erased_player_leaves_the_prepared_roster(club, director):
    _emma, eva = make_players(club, ["Emma de Vries", "Eva de Vries"])
    assert "Eva de Vries" in prepared_roster(club)[0].names
    erase_player(eva, director)
    assert "Eva de Vries" not in prepared_roster(club)[0].names
