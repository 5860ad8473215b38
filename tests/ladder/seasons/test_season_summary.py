"""season_summary and the season it reads, against numbers this test computes by other routes:
raw games for the games played, the sum of stored changes for the most improved, each player's
last stored result for the ladder and champion, and the event page for performances."""

import datetime as dt
import io
import json
from collections import defaultdict

import pytest
from django.core.management import ManagementUtility, call_command
from django.db import connections
from django.utils import timezone

from clubs.models import Event, Game, Ladder, Player
from clubs.results import Result
from directors.ladders.changes import add_ladder
from ladder.models import PlayerEventResult
from ladder.replay import replay_ladder
from ladder.roster.rosters import load_roster
from ladder.seasons.dates import Season
from members.pages.events.event_pages import event_page
from tests.factories import make_club, make_history

pytestmark = pytest.mark.django_db

SEASON = Season(2021, 3)  # 1 March 2021 to 28 February 2022
KEYS = ["season", "from", "to", "ladder", "most_improved", "most_games"]
KEYS += ["best_performances", "champion"]
PROVISIONAL_BELOW = 5  # the ladder policy's default


@pytest.fixture(autouse=True)
def _jobs_in_process(settings):
    settings.REDIS_URL = None


@pytest.fixture
def club(db):
    return make_club(slug="rooks", season_start_month=3)


@pytest.fixture
def history(club):
    """40 round robins of 6 from 30 players, a fortnight apart from November 2020 to May 2022:
    seasons 2020-21, 2021-22 and 2022-23 of a club whose seasons start in March. In 2021-22 one
    event is a draft, one deleted and one unrated: none of them counts."""
    events = make_history(
        club, events=40, players=30, per_event=6, rounds=3, seed=11,
        start=dt.date(2020, 11, 2), days_apart=14,
    )  # fmt: skip
    inside = [e for e in events if SEASON.holds(e.date)]
    Event.objects.filter(pk=inside[3].pk).update(status=Event.Status.DRAFT, name="The draft")
    Event.objects.filter(pk=inside[5].pk).update(deleted_at=timezone.now(), name="The deleted")
    Event.objects.filter(pk=inside[7].pk).update(rated=False, name="The unrated")
    replay_ladder(club.pk, full=True)
    club.refresh_from_db()
    return events


def summary(club, season="2021-22", *extra):
    out = io.StringIO()
    call_command("season_summary", club.slug, season, *extra, "--format", "json", stdout=out)
    return json.loads(out.getvalue())


def counted_events(club):
    return Event.objects.filter(
        club=club, status=Event.Status.PUBLISHED, deleted_at__isnull=True,
        date__gte=SEASON.first_day, date__lte=SEASON.last_day,
    )  # fmt: skip


def games_played(club):
    """Games over the board per player in the rated events, counted from the raw games."""
    played: dict[int, int] = defaultdict(int)
    games = Game.objects.filter(event__in=counted_events(club).filter(rated=True))
    for white, black, code in games.values_list("white__player_id", "black__player_id", "result"):
        if black is not None and Result(code).is_played:
            played[white] += 1
            played[black] += 1
    return played


def names(club):
    return dict(Player.objects.filter(club=club).values_list("id", "name"))


def test_the_summary_has_exactly_the_documented_shape(club, history):
    data = summary(club)
    assert list(data) == KEYS
    assert (data["season"], data["from"], data["to"]) == ("2021-22", "2021-03-01", "2022-02-28")
    assert all(list(row) == ["rank", "name", "rating", "games"] for row in data["ladder"])
    assert all(list(row) == ["name", "change", "games"] for row in data["most_improved"])
    assert all(list(row) == ["name", "games"] for row in data["most_games"])
    assert all(list(row) == ["name", "event", "performance"] for row in data["best_performances"])
    assert data["ladder"] and data["most_improved"] and data["best_performances"]


def test_most_games_are_the_rated_games_played_over_the_board(club, history):
    played = games_played(club)
    by_name = {names(club)[pid]: count for pid, count in played.items()}
    listed = summary(club)["most_games"]
    assert [row["games"] for row in listed] == sorted(played.values(), reverse=True)[:10]
    assert all(by_name[row["name"]] == row["games"] for row in listed)


def test_the_most_improved_are_the_summed_changes_of_players_with_ten_rated_games(club, history):
    """Rated games: the stored count after the season's last event less the count before its
    first (a game against a provisional player may not count for an established one)."""
    change: dict[int, float] = defaultdict(float)
    first: dict[int, PlayerEventResult] = {}
    last: dict[int, PlayerEventResult] = {}
    for row in PlayerEventResult.objects.filter(event__in=counted_events(club)).order_by(
        "position"
    ):
        change[row.player_id] += row.change
        first.setdefault(row.player_id, row)
        last[row.player_id] = row
    rated = {
        pid: last[pid].rated_games_after - (first[pid].rated_games_after - first[pid].games_counted)
        for pid in last
    }
    name = names(club)
    eligible = {name[pid]: (change[pid], rated[pid]) for pid in last if rated[pid] >= 10}
    assert 0 < len(eligible) < len(last)  # the threshold leaves some out
    listed = summary(club)["most_improved"]
    expected = sorted((c for c, _g in eligible.values()), reverse=True)[:10]
    assert [row["change"] for row in listed] == pytest.approx(expected)
    for row in listed:
        assert (row["change"], row["games"]) == pytest.approx(eligible[row["name"]])


def test_the_ladder_and_champion_are_each_players_state_after_their_last_season_event(
    club, history
):
    last: dict[int, PlayerEventResult] = {}
    for row in PlayerEventResult.objects.filter(club=club, event_date__lte=SEASON.last_day):
        if row.player_id not in last or row.position > last[row.player_id].position:
            last[row.player_id] = row
    standing = sorted(
        last.values(), key=lambda r: (r.rated_games_after < PROVISIONAL_BELOW, -r.post_rating)
    )
    data = summary(club)
    shown = [(row["name"], row["rating"], row["games"]) for row in data["ladder"]]
    expected = [(names(club)[r.player_id], r.post_rating, r.rated_games_after) for r in standing]
    assert shown == expected
    assert [row["rank"] for row in data["ladder"]] == list(range(1, len(expected) + 1))
    established = [r for r in standing if r.rated_games_after >= PROVISIONAL_BELOW]
    assert data["champion"] == names(club)[established[0].player_id]
    # ... not today's leader: the seasons after it moved the ladder on.
    assert data["ladder"] != summary(club, "2022-23")["ladder"]


def test_best_performances_are_the_event_pages_numbers(club, history):
    roster = load_roster(club, viewer_is_director=True)
    found = []
    for event in counted_events(club).filter(rated=True):
        for s in event_page(event, roster, "?").standings:
            if s.performance is not None and s.rating and s.rating.games_counted >= 3:
                found.append((s.name, event.name, s.performance))
    found.sort(key=lambda f: -f[2])
    listed = summary(club)["best_performances"]
    assert [row["performance"] for row in listed] == [f[2] for f in found[:10]]
    assert {(r["name"], r["event"], r["performance"]) for r in listed} <= set(found)


def test_drafts_deleted_and_unrated_events_give_nothing(club, history):
    data = json.dumps(summary(club))
    assert "The draft" not in data and "The deleted" not in data and "The unrated" not in data


def test_a_season_without_events_is_an_empty_summary(club, history):
    data = summary(club, "2030-31")
    assert data == {
        "season": "2030-31", "from": "2030-03-01", "to": "2031-02-28", "ladder": [],
        "most_improved": [], "most_games": [], "best_performances": [], "champion": None,
    }  # fmt: skip


def test_a_new_club_has_an_empty_current_season(db):
    club = make_club(slug="new")
    label = str(Season(timezone.localdate().year - (timezone.localdate().month < 9), 9))
    data = summary(club, label)
    assert data["ladder"] == [] and data["champion"] is None


# --- on the command line ----------------------------------------------------------------------


@pytest.fixture
def command_line(monkeypatch, capsys):
    """Run argv as manage.py would; return (exit status, stdout, stderr)."""
    monkeypatch.setattr(connections, "close_all", lambda: None)

    def execute(*argv):
        try:
            ManagementUtility(["manage.py", *argv]).execute()
        except SystemExit as exit_:
            status = exit_.code
        else:
            status = 0
        captured = capsys.readouterr()
        return status, captured.out, captured.err

    return execute


def test_the_main_ladder_is_accepted_by_name(club, history, command_line):
    status, out, _err = command_line("season_summary", "rooks", "2021-22", "--ladder", "main")
    assert status == 0
    assert json.loads(out) == summary(club)


@pytest.mark.parametrize(
    "argv",
    [
        ["rooks", "2021-22", "--ladder", "blitz"],
        ["rooks", "2021-2022"],
        ["rooks", "2021-23"],
        ["rooks", "2021"],  # a single year is a season only of a club starting in January
        ["nobody", "2021-22"],
    ],
)
def test_an_unknown_ladder_club_or_a_malformed_season_exits_1_with_a_message(
    club, command_line, argv
):
    status, out, err = command_line("season_summary", *argv, "--format", "json")
    assert status == 1
    assert out == ""
    assert err.strip()


def test_a_january_club_takes_a_single_year(command_line, db):
    make_club(slug="janus", season_start_month=1)
    status, out, _err = command_line("season_summary", "janus", "2026")
    assert status == 0
    assert (json.loads(out)["from"], json.loads(out)["to"]) == ("2026-01-01", "2026-12-31")
    assert command_line("season_summary", "janus", "2025-26")[0] == 1


# --- on a ladder of its own -------------------------------------------------------------------


@pytest.fixture
def two_ladders(club, history):
    """Every third event of the history is blitz, rated on a ladder of its own (under HSB)."""
    blitz = [e.pk for e in history[::3]]
    Event.objects.filter(pk__in=blitz).update(kind="blitz")
    add_ladder(club, slug="blitz", name="Blitz", policy="hsb", kinds=["blitz"], user=None)
    replay_ladder(club.pk)
    assert not Ladder.objects.filter(club=club).out_of_date().exists()
    return set(blitz)


def played_in(club, kinds):
    """Games over the board per player name in the season's rated events of `kinds`."""
    played: dict[str, int] = defaultdict(int)
    name = names(club)
    games = Game.objects.filter(event__in=counted_events(club).filter(rated=True, kind__in=kinds))
    for white, black, code in games.values_list("white__player_id", "black__player_id", "result"):
        if black is not None and Result(code).is_played:
            played[name[white]] += 1
            played[name[black]] += 1
    return played


def stored_ladder_on(club, ladder, day):
    """Each player's last stored result on `ladder` dated `day` or before: name ->
    (rating, rated games)."""
    name = names(club)
    last = {}
    rows = PlayerEventResult.objects.filter(ladder_id=ladder.pk, event_date__lte=day)
    for row in rows.order_by("position"):
        last[name[row.player_id]] = (row.post_rating, row.rated_games_after)
    return {n: state for n, state in last.items() if state[1] > 0}


def test_each_ladders_season_is_computed_on_that_ladders_events_alone(club, two_ladders):
    blitz_events = dict(counted_events(club).filter(kind="blitz").values_list("name", "id"))
    other_kinds = set(counted_events(club).exclude(kind="blitz").values_list("kind", flat=True))
    assert blitz_events and other_kinds
    blitz = Ladder.objects.get(club=club, slug="blitz")
    main = Ladder.objects.get(club=club, slug="main")
    end = SEASON.last_day
    for ladder, kinds in ((blitz, ["blitz"]), (main, sorted(other_kinds))):
        data = summary(club, "2021-22", "--ladder", ladder.slug)
        played = played_in(club, kinds)
        assert [row["games"] for row in data["most_games"]] == sorted(
            played.values(), reverse=True
        )[:10]
        assert all(played[row["name"]] == row["games"] for row in data["most_games"])
        # The ladder at the season's end is that ladder's stored states, not the other's.
        shown = {row["name"]: (row["rating"], row["games"]) for row in data["ladder"]}
        assert shown == stored_ladder_on(club, ladder, end)
        assert [row["rank"] for row in data["ladder"]] == list(range(1, len(shown) + 1))
        on_blitz = {row["event"] in blitz_events for row in data["best_performances"]}
        assert on_blitz == {ladder == blitz}
    assert summary(club) == summary(club, "2021-22", "--ladder", "main")


@pytest.mark.parametrize("day", [dt.date(2021, 1, 10), dt.date(2021, 9, 1), dt.date(2022, 6, 1)])
def test_export_ladder_on_a_date_reads_the_ladder_it_is_given(club, two_ladders, day):
    for slug in ("blitz", "main"):
        out = io.StringIO()
        call_command("export_ladder", club.slug, "--ladder", slug, "--on", day.isoformat(),
                     stdout=out)  # fmt: skip
        rows = json.loads(out.getvalue())
        ladder = Ladder.objects.get(club=club, slug=slug)
        assert rows and {r["name"]: (r["rating"], r["games"]) for r in rows} == stored_ladder_on(
            club, ladder, day
        )
        assert [r["rank"] for r in rows] == list(range(1, len(rows) + 1))
