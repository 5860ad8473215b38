"""add_ladder, and --ladder on export_ladder and import_roster (docs/commands.md): a
CommandError is what the command line turns into stderr and exit status 1."""

from __future__ import annotations

import datetime as dt
import io
import json

import pytest
from django.core.management import ManagementUtility, call_command
from django.core.management.base import CommandError
from django.db import connections, transaction

from clubs.models import AuditEntry, Event, Ladder, Player
from clubs.results import Result
from directors.ladders.changes import assignment
from ladder.changes import LadderInput, club_changed
from ladder.models import LadderRating, PlayerEventResult, RatedEvent
from ladder.replay import replay_ladder, verify_ladder
from tests.factories import make_club, make_event, make_players

pytestmark = pytest.mark.django_db

W, D, B = Result.WHITE_WIN, Result.DRAW, Result.BLACK_WIN
NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"]
# (month, kind, games as (round, white, black, result) by index into NAMES)
HISTORY = [
    (1, "standard", [(1, 0, 1, W), (1, 2, 3, D), (2, 0, 2, B), (2, 1, 4, W)]),
    (2, "blitz", [(1, 0, 3, W), (1, 1, 2, W), (2, 3, 5, B), (2, 4, 0, D)]),
    (3, "standard", [(1, 5, 0, D), (1, 3, 1, W), (2, 2, 4, W)]),
    (4, "blitz", [(1, 2, 0, W), (1, 5, 1, B), (2, 4, 3, W)]),
    (5, "standard", [(1, 0, 4, W), (1, 1, 3, D), (2, 5, 2, B)]),
]


@pytest.fixture(autouse=True)
def _jobs_in_process(settings):
    settings.REDIS_URL = None


def run(*args):
    out, err = io.StringIO(), io.StringIO()
    call_command(*args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def build(slug, kinds=("standard", "blitz")):
    """A club with HISTORY's events of `kinds` only, replayed."""
    club = make_club(slug=slug)
    players = make_players(club, NAMES)
    for month, kind, games in HISTORY:
        if kind in kinds:
            make_event(
                club,
                [(r, players[w], players[b], res) for r, w, b, res in games],
                date=dt.date(2026, month, 3),
                kind=kind,
            )
    with transaction.atomic():
        club_changed(club.pk, LadderInput())
    replay_ladder(club.pk)
    return club


def by_name(ladder):
    return {
        name: (round(rating, 6), games)
        for name, rating, games in LadderRating.objects.filter(
            ladder=ladder, rated_games__gt=0
        ).values_list("player__name", "rating", "rated_games")
    }


def test_add_ladder_takes_the_kind_and_both_ladders_are_rerated(
    django_capture_on_commit_callbacks,
):
    club = build("rooks")
    main = Ladder.objects.get(club=club)
    before = by_name(main)
    with django_capture_on_commit_callbacks(execute=True):
        out, _ = run("add_ladder", "rooks", "blitz", "--name", "Blitz", "--kinds", "blitz")
    assert json.loads(out) == {"ladder": "blitz", "kinds": ["blitz"], "from": {"main": ["blitz"]}}
    main.refresh_from_db()
    blitz = Ladder.objects.get(club=club, slug="blitz")
    assert (blitz.name, blitz.rating_policy, blitz.kinds) == ("Blitz", "ladder", ["blitz"])
    assert main.kinds == ["standard", "rapid", "other"]
    assert main.is_current and blitz.is_current

    # The blitz events rate only on the new ladder, the standard ones only on main.
    for event in Event.objects.filter(club=club):
        expected = blitz.pk if event.kind == "blitz" else main.pk
        assert RatedEvent.objects.get(event=event).ladder_id == expected
        assert set(
            PlayerEventResult.objects.filter(event=event).values_list("ladder_id", flat=True)
        ) == {expected}
    # Each ladder is what a club with only its kind's events has.
    standard_only = Ladder.objects.get(club=build("standard-only", kinds=("standard",)))
    blitz_only = Ladder.objects.get(club=build("blitz-only", kinds=("blitz",)))
    assert by_name(main) == by_name(standard_only) != before
    assert by_name(blitz) == by_name(blitz_only)
    assert verify_ladder(club) == []
    assert run("verify_ladder", "rooks")[0].strip() == "rooks: ok"
    entry = AuditEntry.objects.get(club=club, action="ladder.added")
    assert entry.user is None and entry.details["taken"] == {"main": ["blitz"]}


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["nowhere", "blitz", "--name", "Blitz", "--kinds", "blitz"], "No club"),
        (["rooks", "main", "--name", "Blitz", "--kinds", "blitz"], "short name already"),
        (["rooks", "blitz", "--name", "Blitz", "--kinds", "blitz,bughouse"], "event kind"),
        (["rooks", "blitz", "--name", "Blitz", "--kinds", "chess960"], "event kind"),
        (["rooks", "blitz", "--name", "Blitz", "--kinds", "blitz,blitz"], "only once"),
        (["rooks", "blitz", "--name", "Blitz", "--kinds", "blitz", "--policy", "glicko"], "policy"),
        (["rooks", "Bad Slug", "--name", "Blitz", "--kinds", "blitz"], "short name"),
        (["rooks", "blitz", "--name", " ", "--kinds", "blitz"], "name"),
    ],
)
def test_add_ladder_refuses_bad_input_and_stores_nothing(args, words):
    club = build("rooks")
    before = assignment(club), AuditEntry.objects.count(), Ladder.objects.count()
    with pytest.raises(CommandError, match=words):
        run("add_ladder", *args)
    assert (assignment(club), AuditEntry.objects.count(), Ladder.objects.count()) == before


def test_export_ladder_shows_the_chosen_ladder_and_the_first_without_one():
    club = build("rooks")
    run("add_ladder", "rooks", "blitz", "--name", "Blitz", "--kinds", "blitz")
    replay_ladder(club.pk)
    first = json.loads(run("export_ladder", "rooks")[0])
    named_main = json.loads(run("export_ladder", "rooks", "--ladder", "main")[0])
    blitz = json.loads(run("export_ladder", "rooks", "--ladder", "blitz")[0])
    assert first == named_main and first != blitz
    games = {row["name"]: row["games"] for row in blitz}
    blitz_ladder = Ladder.objects.get(club=club, slug="blitz")
    assert games == {name: played for name, (_rating, played) in by_name(blitz_ladder).items()}
    with pytest.raises(CommandError, match="No ladder"):
        run("export_ladder", "rooks", "--ladder", "nowhere")


def test_import_roster_sets_starting_ratings_on_the_chosen_ladder(tmp_path):
    club = build("rooks")
    run("add_ladder", "rooks", "blitz", "--name", "Blitz", "--kinds", "blitz")
    path = tmp_path / "roster.csv"
    path.write_text("name,rating,games\nGus Grey,1640,12\n", encoding="utf-8")
    run("import_roster", "rooks", str(path), "--ladder", "blitz")
    gus = Player.objects.get(club=club, name="Gus Grey")
    starts = dict(
        LadderRating.objects.filter(player=gus, start_rating__isnull=False).values_list(
            "ladder__slug", "start_rating"
        )
    )
    assert starts == {"blitz": 1640.0}
    with pytest.raises(CommandError, match="No ladder"):
        run("import_roster", "rooks", str(path), "--ladder", "nowhere")
    assert Player.objects.filter(club=club).count() == len(NAMES) + 1


def test_import_roster_without_a_ladder_starts_players_on_the_first(tmp_path):
    club = build("rooks")
    run("add_ladder", "rooks", "blitz", "--name", "Blitz", "--kinds", "blitz")
    path = tmp_path / "roster.csv"
    path.write_text("name,rating,games\nGus Grey,1640,12\n", encoding="utf-8")
    run("import_roster", "rooks", str(path))
    rows = LadderRating.objects.filter(player__name="Gus Grey", start_rating__isnull=False)
    assert list(rows.values_list("ladder__slug", "start_rating", "start_games")) == [
        ("main", 1640.0, 12)
    ]
    assert club.players.count() == len(NAMES) + 1


@pytest.mark.parametrize(
    "argv",
    [
        ("add_ladder", "rooks", "blitz", "--name", "Blitz", "--kinds", "blitz", "--policy", "x"),
        ("add_ladder", "rooks", "blitz", "--name", "Blitz", "--kinds", "bughouse"),
        ("add_ladder", "rooks", "main", "--name", "Again", "--kinds", "blitz"),
        ("export_ladder", "rooks", "--ladder", "nowhere"),
        ("import_roster", "rooks", "roster.csv", "--ladder", "nowhere"),
    ],
)
def test_bad_input_on_the_command_line_exits_1_with_a_message(monkeypatch, capsys, tmp_path, argv):
    """Exit 1 (not the argument parser's 2) for an unknown policy or kind, as the issue says."""
    build("rooks")
    monkeypatch.chdir(tmp_path)
    (tmp_path / "roster.csv").write_text("name,rating,games\nGus Grey,1640,12\n")
    # run_from_argv closes every connection when it ends; the test's transaction needs its own.
    monkeypatch.setattr(connections, "close_all", lambda: None)
    before = Ladder.objects.count(), Player.objects.count(), AuditEntry.objects.count()
    with pytest.raises(SystemExit) as exit_:
        ManagementUtility(["manage.py", *argv]).execute()
    captured = capsys.readouterr()
    assert exit_.value.code == 1
    assert captured.err.startswith("CommandError: ") and "Traceback" not in captured.err
    assert captured.out == ""
    assert (Ladder.objects.count(), Player.objects.count(), AuditEntry.objects.count()) == before
