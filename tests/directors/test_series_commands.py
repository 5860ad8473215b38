"""add_series and series_standings (docs/commands.md): what they store and print, their exit
codes, and bad input refused with its reason and nothing stored."""

from __future__ import annotations

import datetime as dt
import io
import json

import pytest
from django.core.management import ManagementUtility, call_command
from django.core.management.base import CommandError
from django.db import connections
from django.utils import timezone

from clubs.models import AuditEntry, Club, Series
from clubs.results import Result
from directors.series import SeriesRefused, delete_series, save_series
from tests.factories import make_club, make_event, make_players

pytestmark = pytest.mark.django_db

SEP = dt.date(2025, 9, 5)


def run(*args: str) -> str:
    out = io.StringIO()
    call_command(*args, stdout=out, stderr=io.StringIO())
    return out.getvalue()


def finishing(club, order, *, date, kind="rapid"):
    """Each player beats everyone after them, one game a round: places 1, 2, 3…"""
    pairs = [(i, j) for i in range(len(order)) for j in range(i + 1, len(order))]
    games = [(n, order[i], order[j], Result.WHITE_WIN) for n, (i, j) in enumerate(pairs, 1)]
    return make_event(club, games, date=date, kind=kind, name=f"Rapid {date:%B}")


@pytest.fixture
def season(club):
    """Three monthly rapids: Anna wins two, Ben one; a draw-free season for hand sums."""
    anna, ben, cem = make_players(club, ["Anna Berg", "Ben Cole", "Cem Demir"])
    return [
        finishing(club, [anna, ben, cem], date=SEP),
        finishing(club, [ben, cem, anna], date=dt.date(2025, 10, 3)),
        finishing(club, [anna, cem, ben], date=dt.date(2025, 11, 7)),
    ]


def ids(events) -> str:
    return ",".join(str(event.pk) for event in events)


def test_add_series_creates_one_and_says_what_it_created(club, season):
    pages = Club.objects.get(pk=club.pk).pages_version
    said = run(
        "add_series", "rooks", "rapid-gp", "--name", "Rapid Grand Prix", "--events", ids(season),
        "--points", "10,8,6", "--best", "2", "--ties", "higher", "--members-only",
        "--min-events", "2",
    )  # fmt: skip
    assert said.count("\n") == 1
    assert said.startswith("Created the series rapid-gp (Rapid Grand Prix) of rooks, counting 3")
    series = Series.objects.get(club=club, slug="rapid-gp")
    assert (series.points, series.best, series.ties, series.members_only, series.min_events) == (
        [10, 8, 6], 2, "higher", True, 2
    )  # fmt: skip
    assert sorted(series.events.values_list("pk", flat=True)) == [e.pk for e in season]
    assert Club.objects.get(pk=club.pk).pages_version > pages  # the pages' door
    entry = AuditEntry.objects.get(club=club, action="series.created")
    assert entry.user is None and entry.details["slug"] == "rapid-gp"


def test_add_series_by_kinds_and_dates_scores_game_points_by_default(club, season):
    said = run(
        "add_series", "rooks", "autumn", "--name", "Autumn rapids", "--kinds", "rapid",
        "--from", "2025-09-01", "--to", "2025-10-31",
    )  # fmt: skip
    assert "every published rapid event from 2025-09-01 to 2025-10-31 (2 so far)" in said
    series = Series.objects.get(slug="autumn")
    assert series.points == [] and series.kinds == ["rapid"]
    data = json.loads(run("series_standings", "rooks", "autumn", "--format", "json"))
    # Game points: Anna 2 + 0, Ben 1 + 2, Cem 0 + 1.
    assert [(row["rank"], row["name"], row["total"]) for row in data["standings"]] == [
        (1, "Ben Cole", "3"),
        (2, "Anna Berg", "2"),
        (3, "Cem Demir", "1"),
    ]


def test_series_standings_json_has_exactly_the_documented_shape_with_full_names(club, season):
    club.name_display = "initials"
    club.save()
    run(
        "add_series", "rooks", "rapid-gp", "--name", "Rapid Grand Prix", "--events", ids(season),
        "--points", "10,8,6", "--best", "2",
    )  # fmt: skip
    data = json.loads(run("series_standings", "rooks", "rapid-gp", "--format", "json"))
    assert set(data) == {"series", "rules", "standings"}
    assert data["series"] == "Rapid Grand Prix"
    assert data["rules"] == (
        "Points by final place: 10, 8, 6, then 0; tied places share their points; "
        "the best 2 results count; equal totals share a place."
    )
    # Anna 10, 6, 10: the 6 goes. Ben 8, 10, 6: the 6 goes. Cem 6, 8, 8: the first 8s count.
    assert data["standings"] == [
        {
            "rank": 1,
            "name": "Anna Berg",
            "total": "20",
            "results": [
                {"event": "Rapid September", "place": 1, "points": "10", "counted": True},
                {"event": "Rapid October", "place": 3, "points": "6", "counted": False},
                {"event": "Rapid November", "place": 1, "points": "10", "counted": True},
            ],
        },
        {
            "rank": 2,
            "name": "Ben Cole",
            "total": "18",
            "results": [
                {"event": "Rapid September", "place": 2, "points": "8", "counted": True},
                {"event": "Rapid October", "place": 1, "points": "10", "counted": True},
                {"event": "Rapid November", "place": 3, "points": "6", "counted": False},
            ],
        },
        {
            "rank": 3,
            "name": "Cem Demir",
            "total": "16",
            "results": [
                {"event": "Rapid September", "place": 3, "points": "6", "counted": False},
                {"event": "Rapid October", "place": 2, "points": "8", "counted": True},
                {"event": "Rapid November", "place": 2, "points": "8", "counted": True},
            ],
        },
    ]


def test_a_shared_place_prints_its_fraction_and_groups_are_named_on_each_row(club):
    anna, ben, cem = make_players(club, ["Anna Berg", "Ben Cole", "Cem Demir"])
    draws = [
        (1, anna, ben, Result.DRAW), (2, ben, cem, Result.DRAW), (3, cem, anna, Result.DRAW)
    ]  # fmt: skip
    event = make_event(club, draws, date=SEP, kind="rapid", name="All drawn")
    save_series(
        club, series=None, slug="gp", name="GP", event_ids=[event.pk], kinds=[],
        date_from=None, date_to=None, points=[10, 7, 6], best=None, ties="share",
        members_only=False, min_events=0, rating_bands=[1500], user=None,
    )  # fmt: skip
    data = json.loads(run("series_standings", "rooks", "gp", "--format", "json"))
    # All on 1 point; the club's tie-breaks (as the event page shows) leave Anna and Cem
    # sharing 1st, who share 10 + 7: 8½ each, and Ben 3rd. No one is rated before the
    # series: all in the lower group.
    rows = [(row["rank"], row["name"], row["total"], row["group"]) for row in data["standings"]]
    assert rows == [
        (1, "Anna Berg", "8½", "below 1500"),
        (1, "Cem Demir", "8½", "below 1500"),
        (3, "Ben Cole", "6", "below 1500"),
    ]
    text = run("series_standings", "rooks", "gp")
    assert "Group 1500 and up" in text and "Group below 1500" in text


def test_the_text_table_marks_discarded_results_and_writes_each_sum(club, season):
    run(
        "add_series", "rooks", "rapid-gp", "--name", "Rapid Grand Prix", "--events", ids(season),
        "--points", "10,8,6", "--best", "2",
    )  # fmt: skip
    text = run("series_standings", "rooks", "rapid-gp")
    lines = text.splitlines()
    assert lines[0] == "Rapid Grand Prix"
    anna = next(line for line in lines if "Anna Berg" in line)
    assert anna.split() == [
        "1",
        "Anna",
        "Berg",
        "10",
        "(6)",
        "10",
        "20",
        "10",
        "+",
        "10",
        "=",
        "20",
    ]
    # The season is over: its winner is named.
    assert "Winner: Anna Berg" in lines


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--events", "{ids}", "--best", "4"], "best 4 results cannot count"),
        (["--events", "{ids}", "--points", ""], "at least the first place"),
        (["--events", "{ids}", "--points", "6,8,10"], "more points than the place above"),
        (["--events", "{other}"], "not a published event of this club"),
        (["--events", "{draft}"], "not a published event of this club"),
        (["--events", "{ids}", "--kinds", "rapid"], "not both"),
        (["--events", "{ids}", "--from", "2025-09-01", "--to", "2025-12-31"], "no dates"),
        (["--kinds", "rapid"], "first and the last day"),
        (["--kinds", "rapid", "--from", "2025-12-01", "--to", "2025-09-01"], "after the last"),
        (["--kinds", "chess960", "--from", "2025-09-01", "--to", "2025-12-31"], "event kind"),
        (["--kinds", "rapid", "--from", "2025-9-1", "--to", "2025-12-31"], "YYYY-MM-DD"),
        ([], "one by one, or by their kinds"),
        (["--events", "{ids}", "--ties", "split"], "share their points or take"),
        (["--events", "{ids}", "--points", "10,8", "--game-points"], "not both"),
        (["--events", "{ids}", "--best", "two"], "whole number"),
        (["--events", "{ids}", "--min-events", "4"], "No one can play 4 events"),
        (["--events", "{ids}", "--best", "0"], "1 or more"),
    ],
)
def test_add_series_refuses_bad_rules_and_stores_nothing(club, season, args, words):
    other = make_event(make_club(slug="knights"), date=SEP, name="Elsewhere")
    draft = make_event(club, date=SEP, name="Not yet", published=False)
    given = [a.format(ids=ids(season), other=other.pk, draft=draft.pk) for a in args]
    before = Series.objects.count(), AuditEntry.objects.count()
    with pytest.raises(CommandError, match=words):
        run("add_series", "rooks", "rapid-gp", "--name", "Rapid Grand Prix", *given)
    assert (Series.objects.count(), AuditEntry.objects.count()) == before


def test_a_short_name_is_the_clubs_own_once(club, season):
    run("add_series", "rooks", "gp", "--name", "GP", "--events", ids(season))
    with pytest.raises(CommandError, match="short name already"):
        run("add_series", "rooks", "gp", "--name", "GP again", "--events", ids(season))
    with pytest.raises(CommandError, match="short name takes"):
        run("add_series", "rooks", "Bad Slug", "--name", "GP", "--events", ids(season))
    assert Series.objects.count() == 1


def test_a_kinds_series_of_past_days_is_held_to_its_events_one_still_running_is_not(club, season):
    with pytest.raises(CommandError, match="the series has 2 events"):
        run(
            "add_series", "rooks", "autumn", "--name", "Autumn", "--kinds", "rapid",
            "--from", "2025-09-01", "--to", "2025-10-31", "--best", "3",
        )  # fmt: skip
    today = timezone.localdate()
    run(
        "add_series", "rooks", "this-year", "--name", "This year", "--kinds", "rapid",
        "--from", f"{today - dt.timedelta(days=400)}", "--to", f"{today + dt.timedelta(days=300)}",
        "--best", "6",
    )  # fmt: skip
    assert Series.objects.get(slug="this-year").best == 6


def test_changing_and_deleting_a_series_are_recorded_and_move_the_pages(club, season):
    series = save_series(
        club, series=None, slug="gp", name="GP", event_ids=[season[0].pk], kinds=[],
        date_from=None, date_to=None, points=None, best=None, ties="share",
        members_only=False, min_events=0, rating_bands=[], user=None,
    )  # fmt: skip
    changed = save_series(
        club, series=series, slug="gp", name="Grand Prix", event_ids=[e.pk for e in season],
        kinds=[], date_from=None, date_to=None, points=[3, 2, 1], best=2, ties="higher",
        members_only=True, min_events=1, rating_bands=[1200, 1600], user=None,
    )  # fmt: skip
    assert changed.pk == series.pk and changed.name == "Grand Prix"
    assert changed.events.count() == 3 and changed.rating_bands == [1200, 1600]
    with pytest.raises(SeriesRefused, match="go from the lowest up"):
        save_series(
            club, series=series, slug="gp", name="GP", event_ids=[season[0].pk], kinds=[],
            date_from=None, date_to=None, points=None, best=None, ties="share",
            members_only=False, min_events=0, rating_bands=[1600, 1200], user=None,
        )  # fmt: skip
    assert Series.objects.get(pk=series.pk).name == "Grand Prix"
    pages = Club.objects.get(pk=club.pk).pages_version
    delete_series(changed, None)
    assert not Series.objects.exists() and season[0].__class__.objects.count() == 3
    assert Club.objects.get(pk=club.pk).pages_version > pages
    actions = list(AuditEntry.objects.filter(club=club).values_list("action", flat=True))
    assert {"series.created", "series.changed", "series.deleted"} <= set(actions)


def test_another_clubs_series_cannot_be_changed_through_this_club(club, season):
    other = make_club(slug="knights")
    theirs = Series.objects.create(club=other, slug="gp", name="Their GP")
    with pytest.raises(SeriesRefused, match="no such series"):
        save_series(
            club, series=theirs, slug="gp", name="Ours", event_ids=[season[0].pk], kinds=[],
            date_from=None, date_to=None, points=None, best=None, ties="share",
            members_only=False, min_events=0, rating_bands=[], user=None,
        )  # fmt: skip
    assert Series.objects.get(pk=theirs.pk).name == "Their GP"


@pytest.mark.parametrize(
    "argv",
    [
        ("series_standings", "nowhere", "gp"),
        ("series_standings", "rooks", "no-such-series"),
        ("add_series", "nowhere", "gp", "--name", "GP", "--kinds", "rapid"),
        ("add_series", "rooks", "gp", "--name", "GP", "--events", "1", "--ties", "split"),
        ("add_series", "rooks", "gp", "--name", "GP", "--events", "999999"),
    ],
)
def test_bad_input_on_the_command_line_exits_1_with_a_message(monkeypatch, capsys, club, argv):
    # run_from_argv closes every connection when it ends; the test's transaction needs its own.
    monkeypatch.setattr(connections, "close_all", lambda: None)
    before = Series.objects.count(), AuditEntry.objects.count()
    with pytest.raises(SystemExit) as exit_:
        ManagementUtility(["manage.py", *argv]).execute()
    captured = capsys.readouterr()
    assert exit_.value.code == 1
    assert captured.err.startswith("CommandError: ") and "Traceback" not in captured.err
    assert captured.out == ""
    assert (Series.objects.count(), AuditEntry.objects.count()) == before
