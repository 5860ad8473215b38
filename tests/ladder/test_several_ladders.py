"""Several ladders per club (issue 26): kinds feed ladders, a correction replays only its
ladder, verify_ladder checks each, and a kind belongs to at most one ladder."""

from __future__ import annotations

import datetime as dt
import io

import pytest
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.db import transaction

from clubs.models import Club, Event, Game, Ladder, Player
from clubs.models.club import RATABLE_KINDS
from clubs.results import Result
from directors.events.drafts import EventDetails, update_event
from ladder.changes import LadderInput, club_changed
from ladder.models import LadderRating, LadderReplay, PlayerEventResult
from ladder.replay import replay_ladder, verify_ladder
from ladder.roster.ladders import set_kinds
from tests.factories import make_club, make_event, make_players

pytestmark = pytest.mark.django_db

W, D, B = Result.WHITE_WIN, Result.DRAW, Result.BLACK_WIN


def blitz_ladder(club: Club) -> Ladder:
    """A second ladder that takes blitz from main, replayed."""
    ladder = Ladder.objects.create(club=club, slug="blitz", name="Blitz", position=1)
    with transaction.atomic():
        assert set_kinds(ladder, ["blitz"], take=True) == {"main": ["blitz"]}
    replay_ladder(club.pk)
    return ladder


def standing_on(ladder: Ladder) -> dict[str, tuple[float | None, int]]:
    rows = Player.objects.filter(club_id=ladder.club_id).rated_on(ladder)
    return {p.name: (p.rating, p.rated_games) for p in rows}


@pytest.fixture
def two(club):
    """A club with main (standard, rapid, other) and blitz, and events of each kind."""
    ann, bob, cid, dee = make_players(club, ["Ann", "Bob", "Cid", "Dee"])
    blitz = blitz_ladder(club)
    make_event(club, [(1, ann, bob, W)], date=dt.date(2026, 1, 1), kind="standard")
    make_event(club, [(1, cid, dee, W), (2, ann, cid, W)], date=dt.date(2026, 1, 2), kind="blitz")
    make_event(club, [(1, bob, cid, D)], date=dt.date(2026, 1, 3), kind="rapid")
    with transaction.atomic():
        club_changed(club.pk, LadderInput())
    replay_ladder(club.pk)
    return club.first_ladder(), blitz, (ann, bob, cid, dee)


def test_each_event_is_rated_only_on_the_ladder_its_kind_feeds(club, two):
    main, blitz, _players = two
    on_main, on_blitz = standing_on(main), standing_on(blitz)
    # Main: the standard game (Ann, Bob) and the rapid draw (Bob, Cid); Dee played only blitz.
    assert {name: games for name, (_r, games) in on_main.items()} == {
        "Ann": 1,
        "Bob": 2,
        "Cid": 1,
        "Dee": 0,
    }
    # Blitz: Cid beat Dee, Ann beat Cid; Bob never played blitz.
    assert {name: games for name, (_r, games) in on_blitz.items()} == {
        "Ann": 1,
        "Bob": 0,
        "Cid": 2,
        "Dee": 1,
    }
    blitz_events = set(Event.objects.filter(kind="blitz").values_list("pk", flat=True))
    stored = PlayerEventResult.objects.values_list("ladder_id", "event_id")
    assert {event for ladder, event in stored if ladder == blitz.pk} == blitz_events
    assert not {event for ladder, event in stored if ladder == main.pk} & blitz_events
    assert verify_ladder(club) == []


def test_an_event_whose_kind_no_ladder_claims_is_never_rated(club, two):
    main, blitz, (ann, bob, *_rest) = two
    with transaction.atomic():
        set_kinds(main, ["standard", "rapid"])  # "other" now belongs to no ladder
    replay_ladder(club.pk)
    before = {ladder.pk: standing_on(ladder) for ladder in (main, blitz)}
    other = make_event(club, [(1, bob, ann, W)], date=dt.date(2026, 2, 1), kind="other")
    with transaction.atomic():
        club_changed(club.pk, LadderInput(kinds=frozenset({other.kind})))
    replay_ladder(club.pk)
    assert Ladder.objects.showing(club.pk, "other") is None
    assert Ladder.objects.for_event(other) is None
    assert not PlayerEventResult.objects.filter(event=other).exists()
    assert {ladder.pk: standing_on(ladder) for ladder in (main, blitz)} == before
    assert verify_ladder(club) == []


def test_a_correction_replays_only_the_ladder_its_event_feeds(club, two):
    main, blitz, _players = two
    blitz_rows = sorted(PlayerEventResult.objects.filter(ladder=blitz).values_list())
    blitz_log = list(LadderReplay.objects.filter(ladder=blitz).values_list("pk", flat=True))
    blitz_version = Ladder.objects.get(pk=blitz.pk).data_version
    standard = Event.objects.get(kind="standard")
    with transaction.atomic():
        Game.objects.filter(event=standard).update(result=B)
        club_changed(club.pk, LadderInput.of_event(standard))
        # Only main is behind: blitz's page has nothing to recalculate.
        assert not Ladder.objects.get(pk=main.pk).is_current
        assert Ladder.objects.get(pk=blitz.pk).is_current
    replay_ladder(club.pk)
    assert sorted(PlayerEventResult.objects.filter(ladder=blitz).values_list()) == blitz_rows
    assert list(LadderReplay.objects.filter(ladder=blitz).values_list("pk", flat=True)) == blitz_log
    assert Ladder.objects.get(pk=blitz.pk).data_version == blitz_version
    assert standing_on(Ladder.objects.get(pk=main.pk))["Bob"][0] > 1200  # Bob won it now
    assert Club.objects.get(pk=club.pk).ladder_is_current
    assert verify_ladder(club) == []


def test_changing_an_events_kind_replays_the_ladder_it_left_and_the_one_it_joins(club, two):
    main, blitz, (_ann, bob, *_rest) = two
    rapid = Event.objects.get(kind="rapid")
    details = EventDetails(rapid.name, rapid.date, rapid.order_in_day, "blitz", rapid.rated)
    update_event(rapid.pk, rapid.edit_version, details, None)
    replay_ladder(club.pk)
    assert PlayerEventResult.objects.get(event=rapid, player=bob).ladder_id == blitz.pk
    assert standing_on(Ladder.objects.get(pk=main.pk))["Bob"][1] == 1
    assert standing_on(Ladder.objects.get(pk=blitz.pk))["Bob"][1] == 1
    assert verify_ladder(club) == []


def test_verify_ladder_names_the_ladder_of_a_tampered_row(club, two):
    _main, blitz, (ann, *_rest) = two
    assert verify_ladder(club) == []
    PlayerEventResult.objects.filter(ladder=blitz, player=ann).update(post_rating=1999)
    differences = verify_ladder(club)
    assert differences and all(line.startswith("blitz: ") for line in differences)
    out = io.StringIO()
    with pytest.raises(SystemExit) as exit_:
        call_command("verify_ladder", club.slug, stdout=out, stderr=io.StringIO())
    assert exit_.value.code == 1
    lines = out.getvalue().splitlines()
    assert lines and all(line.startswith(f"{club.slug}: blitz: ") for line in lines)
    # rebuild_ladder replays every ladder: the tampered row is repaired, main untouched.
    call_command("rebuild_ladder", club.slug, stdout=io.StringIO())
    assert verify_ladder(club) == []


def test_a_one_ladder_club_prints_its_differences_without_a_ladder_name(club):
    ann, bob = make_players(club, ["Ann", "Bob"])
    make_event(club, [(1, ann, bob, W)])
    with transaction.atomic():
        club_changed(club.pk, LadderInput())
    replay_ladder(club.pk)
    PlayerEventResult.objects.filter(player=ann).update(post_rating=1999)
    assert verify_ladder(club) and not any(d.startswith("main: ") for d in verify_ladder(club))


def test_a_kind_belongs_to_at_most_one_ladder(club):
    main = club.first_ladder()
    assert main.slug == "main" and main.kinds == list(RATABLE_KINDS)
    blitz = Ladder.objects.create(club=club, slug="blitz", name="Blitz", position=1)
    # main rates it; its name, "Ladder", is not called a ladder twice.
    with pytest.raises(ValidationError, match=r"^\['The Ladder already rates blitz\.'\]$"):
        set_kinds(blitz, ["blitz"])
    main.name = "Standard"
    main.save(update_fields=["name"])
    with pytest.raises(ValidationError, match="The Standard ladder already rates blitz"):
        set_kinds(blitz, ["blitz"])
    with pytest.raises(ValidationError):
        set_kinds(blitz, ["bughouse"])  # never rated
    assert Ladder.objects.get(pk=blitz.pk).kinds == []
    assert set_kinds(blitz, ["blitz", "rapid"], take=True) == {"main": ["rapid", "blitz"]}
    for kind in RATABLE_KINDS:
        claimed = [lad.slug for lad in Ladder.objects.for_club(club.pk) if kind in lad.kinds]
        assert len(claimed) == 1, kind
    # Both ladders changed inputs: both are out of date until the replay.
    assert all(not ladder.is_current for ladder in Ladder.objects.for_club(club.pk))


def test_every_new_club_gets_a_first_ladder_that_rates_every_kind():
    club = make_club(slug="fresh")
    assert list(Ladder.objects.for_club(club.pk).values_list("slug", "position", "kinds")) == [
        ("main", 0, list(RATABLE_KINDS))
    ]
    assert not LadderRating.objects.exists()
