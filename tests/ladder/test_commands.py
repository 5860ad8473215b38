"""The administrators' commands (docs/commands.md): their output and exit codes.

These are contracts that support staff and scripts depend on. Each command is
run through call_command; a CommandError is what the command line turns into
a message on stderr and exit status 1.
"""

import csv
import datetime as dt
import io
import json
import os

import pytest
from django.core.management import ManagementUtility, call_command
from django.core.management.base import CommandError
from django.db import connections, transaction
from django.utils import timezone

from clubs.models import Club, Event, Ladder, Player
from clubs.results import Result
from ladder.changes import LadderInput, club_changed
from ladder.models import LadderRating, LadderReplay, PlayerEventResult, RatedEvent
from ladder.policies.ladder import expected_score
from ladder.replay import replay_ladder
from tests.factories import (
    first_ladder,
    make_club,
    make_event,
    make_players,
    new_player,
    rated_players,
    set_standing,
    standing,
)

pytestmark = pytest.mark.django_db

W, D, B = Result.WHITE_WIN, Result.DRAW, Result.BLACK_WIN


@pytest.fixture(autouse=True)
def _jobs_in_process(settings):
    """Queued replays run in-process on commit, whatever REDIS_URL the shell has."""
    settings.REDIS_URL = None


@pytest.fixture
def club(db):
    """The commands need no signed-in users: a club without them (no password hashing)."""
    return make_club(slug="rooks")


def run(*args, **options):
    """Run a command; return (stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    call_command(*args, stdout=out, stderr=err, **options)
    return out.getvalue(), err.getvalue()


def changed(club, run_replay=True):
    """Commit a ladder change the way views do, then (by default) replay it."""
    with transaction.atomic():
        club_changed(club.pk, LadderInput())
    if run_replay:
        replay_ladder(club.pk)
    club.refresh_from_db()


def player(club, name, rating=None, games=0):
    return new_player(club=club, name=name, start_rating=rating, start_games=games)


def ratings(club):
    return dict(rated_players().filter(club=club).values_list("name", "rating"))


@pytest.fixture
def season(club):
    """Three replayed events between four players: (players, events)."""
    players = make_players(club, ["Ann Archer", "Bob Brown", "Cid Clark", "Dee Dunn"])
    ann, bob, cid, dee = players
    events = [
        make_event(club, [(1, ann, bob, W), (1, cid, dee, D)], date=dt.date(2026, 1, 5)),
        make_event(club, [(1, ann, cid, D), (1, bob, dee, B)], date=dt.date(2026, 1, 12)),
        make_event(club, [(1, dee, ann, W), (1, bob, cid, W)], date=dt.date(2026, 1, 19)),
    ]
    changed(club)
    return players, events


# createclub ------------------------------------------------------------------------------


def test_createclub_makes_an_unlisted_club_by_default_and_prints_its_secret_path(db):
    out, _ = run("createclub", "chess-kids", "--name", "Chess Kids")
    club = Club.objects.get(slug="chess-kids")
    assert out == f"/c/chess-kids/s/{club.secret}/\n"
    assert len(club.secret) >= 32
    assert club.name == "Chess Kids"
    assert club.visibility == Club.Visibility.UNLISTED
    assert first_ladder(club).rating_policy == "ladder"
    assert club.name_display == Club.NameDisplay.FULL


def test_createclub_prints_the_plain_path_of_a_public_club(db):
    out, _ = run("createclub", "open-club", "--name", "Open Club", "--visibility", "public")
    assert out == "/c/open-club/\n"
    club = Club.objects.get(slug="open-club")
    assert club.visibility == Club.Visibility.PUBLIC
    assert club.secret not in out


def test_createclub_stores_the_policy_and_the_name_display(db):
    run("createclub", "juniors", "--name", "Juniors", "--policy", "hsb", "--names", "initials")
    club = Club.objects.get(slug="juniors")
    assert first_ladder(club).rating_policy == "hsb"
    assert club.name_display == Club.NameDisplay.INITIALS


def test_createclub_refuses_a_slug_that_is_taken_and_leaves_the_existing_club_alone(db):
    make_club(slug="rooks", name="The Rooks")
    with pytest.raises(CommandError, match="slug"):
        run("createclub", "rooks", "--name", "Impostors", "--visibility", "public")
    assert Club.objects.count() == 1
    assert Club.objects.get(slug="rooks").name == "The Rooks"


@pytest.mark.parametrize("slug", ["not a slug", "rooks/queens", "", "x" * 61])
def test_createclub_refuses_an_invalid_slug_and_creates_nothing(db, slug):
    with pytest.raises(CommandError, match="slug"):
        run("createclub", slug, "--name", "Bad")
    assert not Club.objects.exists()


def test_createclub_rejects_an_unknown_policy_before_doing_anything(db):
    with pytest.raises(CommandError, match=r"--policy: invalid choice: 'elo'"):
        run("createclub", "rooks", "--name", "Rooks", "--policy", "elo")
    assert not Club.objects.exists()


def test_createclub_requires_a_name(db):
    with pytest.raises(CommandError, match="--name"):
        run("createclub", "rooks")
    assert not Club.objects.exists()


# import_roster ---------------------------------------------------------------------------

IN_CI = os.environ.get("CI", "").lower() == "true"
NAME_KEY_MISSING = (
    "matching.name_key is not importable yet (the matching package is being written); "
    "directors/roster/starting_ladder.py imports it to store each player's name key"
)


def _name_key_importable():
    try:
        from matching import name_key  # noqa: F401
    except ImportError:
        return False
    return True


@pytest.fixture
def name_key_available():
    """Tests that reach import_starting_ladder need matching.name_key (skip locally, fail in CI)."""
    if not _name_key_importable():
        if IN_CI:
            pytest.fail(f"CI=true but {NAME_KEY_MISSING}")
        pytest.skip(NAME_KEY_MISSING)


needs_name_key = pytest.mark.usefixtures("name_key_available")


@pytest.fixture
def roster(tmp_path):
    """Write a roster file (text or bytes) and return its path as a string."""

    def write(content, name="roster.csv"):
        path = tmp_path / name
        if isinstance(content, str):
            path.write_text(content, encoding="utf-8")
        else:
            path.write_bytes(content)
        return str(path)

    return write


@needs_name_key
def test_import_roster_makes_one_player_per_row_with_its_starting_state(club, roster):
    from matching import name_key

    path = roster("name,rating,games,junior\nAnn Archer,1500,30,no\nBob Brown,1234.5,0,yes\n")
    out, _ = run("import_roster", club.slug, path)
    assert "2" in out
    players = {p.name: p for p in rated_players().filter(club=club)}
    assert set(players) == {"Ann Archer", "Bob Brown"}
    ann, bob = players["Ann Archer"], players["Bob Brown"]
    assert (ann.start_rating, ann.start_games, ann.junior) == (1500.0, 30, False)
    assert (bob.start_rating, bob.start_games, bob.junior) == (1234.5, 0, True)
    assert ann.name_key == name_key("Ann Archer")
    club.refresh_from_db()
    assert first_ladder(club).data_version == 1


@needs_name_key
def test_import_roster_without_a_junior_column_imports_nobody_as_a_junior(club, roster):
    run("import_roster", club.slug, roster("Name, Rating ,GAMES\nAnn Archer,1500,30\n"))
    ann = rated_players().get(club=club)
    assert (ann.start_rating, ann.start_games, ann.junior) == (1500.0, 30, False)


@needs_name_key
def test_an_imported_established_player_is_rated_with_k20_and_is_not_provisional(
    club, roster, django_capture_on_commit_callbacks
):
    path = roster("name,rating,games\nAnn Archer,1500,30\nBob Brown,1500,30\n")
    with django_capture_on_commit_callbacks(execute=True):
        run("import_roster", club.slug, path)
    club.refresh_from_db()
    assert club.ladder_is_current
    ann = rated_players().get(club=club, name="Ann Archer")
    bob = rated_players().get(club=club, name="Bob Brown")
    # Before any event the imported state is the ladder.
    assert (ann.rating, ann.rated_games, ann.provisional) == (1500.0, 30, False)

    make_event(club, [(1, ann, bob, W)])
    changed(club)
    result = PlayerEventResult.objects.get(player=ann)
    assert result.pre_rating == 1500.0
    assert result.k == 20  # 30 games before the event: past the 20-game threshold for K 40
    assert not result.provisional
    assert result.games_counted == 1
    ann = standing(ann)
    assert ann.rating == pytest.approx(1510.0)  # K 20 x (1 - 0.5)
    assert ann.rated_games == 31
    assert not ann.provisional


HEADER = "name,rating,games,junior\nAnn Archer,1500,30,no\n"


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (HEADER + "Bob Brown,,12,no\n", r"^Line 3: rating and games must be numbers"),
        (HEADER + "Bob Brown,strong,12,no\n", r"^Line 3: rating and games must be numbers"),
        (HEADER + "Bob Brown,1400,-1,no\n", r"^Line 3: .*games at least 0"),
        (HEADER + "Bob Brown,4001,3,no\n", r"^Line 3: rating must be 0–4000"),
        (HEADER + "Bob Brown,1400,3,maybe\n", r"^Line 3: junior must be yes or no, not 'maybe'"),
        (HEADER + "Bob Brown,1400,3,no\nann archer,1400,2,no\n", r"^Line 4: .*appears twice"),
        (HEADER + ",1400,3,no\n", r"^Line 3: the name is empty"),
        ("name,rating\nAnn Archer,1500\n", r"^Line 1: missing column\(s\) games$"),
        ("name,rating,games\n", r"no players"),
        ("", r"^Line 1: missing column\(s\) games, name, rating$"),
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x10", r"not a CSV text file"),
        (b"name,rating,games\r\nAnn,1500,30\r\n\x81\x8d\x8f\x90", r"not text in UTF-8"),
    ],
    ids=[
        "missing rating",
        "text rating",
        "negative games",
        "rating out of range",
        "junior maybe",
        "duplicate name",
        "empty name",
        "missing column",
        "no rows",
        "empty file",
        "binary file",
        "neither utf-8 nor windows-1252",
    ],
)
def test_import_roster_refuses_a_bad_file_naming_the_line_and_imports_nobody(
    club, roster, content, message
):
    with pytest.raises(CommandError, match=message):
        run("import_roster", club.slug, roster(content))
    assert not Player.objects.exists()
    club.refresh_from_db()
    assert first_ladder(club).data_version == 0


@needs_name_key
def test_import_roster_refuses_a_name_already_on_the_roster_and_imports_nobody(club, roster):
    player(club, "Ann Archer")
    path = roster("name,rating,games\nBob Brown,1400,3\nANN ARCHER,1500,30\n")
    with pytest.raises(CommandError, match="Already on the roster: ANN ARCHER"):
        run("import_roster", club.slug, path)
    assert list(Player.objects.values_list("name", flat=True)) == ["Ann Archer"]
    club.refresh_from_db()
    assert first_ladder(club).data_version == 0


def test_import_roster_names_the_line_of_the_file_even_after_a_blank_line(club, roster):
    with pytest.raises(CommandError, match=r"^Line 4: "):
        run("import_roster", club.slug, roster(HEADER + "\nBob Brown,strong,12,no\n"))


def test_import_roster_refuses_an_unknown_club(db, roster):
    with pytest.raises(CommandError, match="No club with slug 'nowhere'"):
        run("import_roster", "nowhere", roster(HEADER))


def test_import_roster_refuses_a_file_it_cannot_read(club, tmp_path):
    with pytest.raises(CommandError, match="Cannot read"):
        run("import_roster", club.slug, str(tmp_path / "missing.csv"))
    with pytest.raises(CommandError, match="Cannot read"):
        run("import_roster", club.slug, str(tmp_path))  # a directory
    assert not Player.objects.exists()


# export_ladder ---------------------------------------------------------------------------


@pytest.fixture
def mixed_ladder(club):
    """Two established players below a provisional one by rating, and one who never played."""
    Club.objects.filter(pk=club.pk).update(name_display=Club.NameDisplay.INITIALS)
    ann = player(club, "Ann Archer", 1500, 30)
    bob = player(club, "Bob Brown", 1100, 30)
    cid, dee = player(club, "Cid Clark"), player(club, "Dee Dunn")
    player(club, "Eve Ellis")  # no rated game: not on the ladder
    make_event(club, [(1, ann, bob, W), (1, cid, dee, W)])
    changed(club)
    return club


def expected_ladder():
    gain = 20 * (1 - expected_score(1500, 1100))
    return [
        ("Ann Archer", 1500 + gain, 31, False),
        ("Bob Brown", 1100 - gain, 31, False),
        ("Cid Clark", 1220.0, 1, True),
        ("Dee Dunn", 1180.0, 1, True),
    ]


def test_export_ladder_prints_the_ladder_as_json_established_players_first(mixed_ladder):
    out, err = run("export_ladder", mixed_ladder.slug)
    rows = json.loads(out)
    assert err == ""
    assert [set(row) for row in rows] == [{"rank", "name", "rating", "games", "provisional"}] * 4
    assert [r["rank"] for r in rows] == [1, 2, 3, 4]
    assert [(r["name"], r["games"], r["provisional"]) for r in rows] == [
        (name, games, provisional) for name, _, games, provisional in expected_ladder()
    ]
    stored = ratings(mixed_ladder)
    for row, (name, rating, *_) in zip(rows, expected_ladder(), strict=True):
        assert row["rating"] == stored[name]  # every digit, not a display rounding
        assert row["rating"] == pytest.approx(rating, abs=1e-9)
    assert rows[0]["rating"] != round(rows[0]["rating"], 4)


def test_export_ladder_prints_csv_with_the_same_columns(mixed_ladder):
    out, err = run("export_ladder", mixed_ladder.slug, "--format", "csv")
    lines = list(csv.reader(io.StringIO(out)))
    assert err == ""
    assert lines[0] == ["rank", "name", "rating", "games", "provisional"]
    assert [line[1] for line in lines[1:]] == [row[0] for row in expected_ladder()]
    stored = ratings(mixed_ladder)
    assert lines[1][0] == "1"
    assert float(lines[1][2]) == stored["Ann Archer"]
    assert lines[1][3:] == ["31", "False"]
    assert lines[4][3:] == ["1", "True"]


def test_export_ladder_refuses_an_unknown_club(db):
    with pytest.raises(CommandError, match="No club with slug 'nowhere'"):
        run("export_ladder", "nowhere")


@pytest.mark.parametrize("format_", ["json", "csv"])
def test_export_ladder_notes_on_stderr_when_the_ladder_is_out_of_date(mixed_ladder, format_):
    changed(mixed_ladder, run_replay=False)
    out, err = run("export_ladder", mixed_ladder.slug, "--format", format_)
    assert "being recalculated" in err
    assert "being recalculated" not in out
    assert "Ann Archer" in out


# rebuild_ladder --------------------------------------------------------------------------


def test_rebuild_ladder_replays_from_the_first_event_and_repairs_tampering(club, season):
    before = ratings(club)
    LadderRating.objects.filter(
        player__in=rated_players().filter(club=club), ladder__position=0
    ).update(rating=1999)
    PlayerEventResult.objects.filter(club=club).update(post_rating=1999)
    out, _ = run("rebuild_ladder", club.slug)
    assert out == f"{club.slug}: rebuilt\n"
    last = LadderReplay.objects.filter(club=club).order_by("-pk").first()
    assert (last.from_position, last.events_rated) == (0, 3)
    assert ratings(club) == before
    assert not PlayerEventResult.objects.filter(post_rating=1999).exists()


def test_rebuild_ladder_all_rebuilds_every_club(club, season):
    other = make_club(slug="bishops")
    x, y = make_players(other, ["Xia", "Yan"])
    make_event(other, [(1, x, y, D)])
    changed(other)
    out, _ = run("rebuild_ladder", "--all")
    assert out == "bishops: rebuilt\nrooks: rebuilt\n"
    for each in (club, other):
        last = LadderReplay.objects.filter(club=each).order_by("-pk").first()
        assert last.from_position == 0


@pytest.mark.parametrize(
    "args", [(), ("rooks", "--all")], ids=["neither slugs nor --all", "slugs and --all"]
)
def test_rebuild_ladder_needs_slugs_or_all_but_not_both(club, season, args):
    replays = LadderReplay.objects.count()
    with pytest.raises(CommandError, match="or --all"):
        run("rebuild_ladder", *args)
    assert LadderReplay.objects.count() == replays


def test_rebuild_ladder_refuses_an_unknown_slug_before_rebuilding_anything(club, season):
    replays = LadderReplay.objects.count()
    with pytest.raises(CommandError, match="No club with slug nowhere"):
        run("rebuild_ladder", club.slug, "nowhere")
    assert LadderReplay.objects.count() == replays


# verify_ladder ---------------------------------------------------------------------------


def test_verify_ladder_prints_ok_and_exits_0_for_a_good_ladder(club, season):
    out, err = run("verify_ladder", club.slug)
    assert out == "rooks: ok\n"
    assert err == ""


def test_verify_ladder_exits_1_and_prints_a_tampered_event_result(club, season):
    (ann, *_), (first, *_) = season
    PlayerEventResult.objects.filter(event=first, player=ann).update(post_rating=1999)
    out = io.StringIO()
    with pytest.raises(SystemExit) as exit_:
        call_command("verify_ladder", club.slug, stdout=out, stderr=io.StringIO())
    assert exit_.value.code == 1
    assert f"rooks: event {first.pk}, player {ann.pk}: stored 1999.0000" in out.getvalue()
    assert "rooks: ok" not in out.getvalue()


def test_verify_ladder_exits_1_and_prints_a_tampered_player_rating(club, season):
    (_, bob, *_), _events = season
    set_standing(bob.pk, rating=1777)
    out = io.StringIO()
    with pytest.raises(SystemExit) as exit_:
        call_command("verify_ladder", club.slug, stdout=out, stderr=io.StringIO())
    assert exit_.value.code == 1
    assert out.getvalue().startswith(f"rooks: player {bob.pk} (Bob Brown): stored 1777")


def test_verify_ladder_prints_every_difference(club, season):
    (ann, bob, *_), (first, *_) = season
    PlayerEventResult.objects.filter(event=first, player=ann).update(post_rating=1999)
    set_standing(bob.pk, rating=1777)
    out = io.StringIO()
    with pytest.raises(SystemExit) as exit_:
        call_command("verify_ladder", club.slug, stdout=out, stderr=io.StringIO())
    assert exit_.value.code == 1
    lines = out.getvalue().splitlines()
    assert f"rooks: event {first.pk}, player {ann.pk}: stored 1999.0000" in "\n".join(lines)
    assert any(f"player {bob.pk} (Bob Brown): stored 1777" in line for line in lines)
    assert all(line.startswith("rooks: ") for line in lines)
    assert "rooks: ok" not in lines


def test_verify_ladder_reports_a_ladder_marked_out_of_date(club, season):
    changed(club, run_replay=False)
    out = io.StringIO()
    with pytest.raises(SystemExit) as exit_:
        call_command("verify_ladder", club.slug, stdout=out, stderr=io.StringIO())
    assert exit_.value.code == 1
    assert "rooks: the ladder is marked out of date" in out.getvalue()


def test_verify_ladder_all_checks_every_club_and_fails_if_one_is_wrong(club, season):
    other = make_club(slug="bishops")
    x, y = make_players(other, ["Xia", "Yan"])
    make_event(other, [(1, x, y, D)])
    changed(other)
    LadderRating.objects.filter(
        player__in=rated_players().filter(club=club, name="Ann Archer"), ladder__position=0
    ).update(rating=1999)
    out = io.StringIO()
    with pytest.raises(SystemExit) as exit_:
        call_command("verify_ladder", "--all", stdout=out, stderr=io.StringIO())
    assert exit_.value.code == 1
    lines = out.getvalue().splitlines()
    assert lines[0] == "bishops: ok"
    assert any(line.startswith("rooks: player") and "1999" in line for line in lines)


def _draft_with_new_players(club, start_rating=None):
    """A draft whose two names a director decided are new players; it is never published."""
    from directors.events import names as name_decisions
    from directors.events import results
    from directors.events.drafts import EventDetails
    from directors.events.names import Action, NameDecision
    from directors.events.results import GridRow

    imported = results.grid_to_imported([GridRow(1, "1", "Eve Evans", "Fay Fox", "1-0")])
    details = EventDetails(name="Next club night", date=dt.date(2026, 2, 2))
    draft = results.create_draft_from_import(club, imported, details, None)
    decisions = [
        NameDecision(entry.pk, Action.NEW, start_rating=start_rating)
        for entry in draft.entries.all()
    ]
    name_decisions.apply_name_decisions(draft.pk, draft.edit_version, decisions, None)
    return draft


@pytest.mark.parametrize("start_rating", [None, 1650.0], ids=["no estimate", "an estimate"])
def test_verify_ladder_is_ok_after_new_player_decisions_on_a_draft(club, season, start_rating):
    _draft_with_new_players(club, start_rating)
    assert rated_players().filter(club=club, name="Eve Evans", rating=None).exists()
    club.refresh_from_db()
    out, err = run("verify_ladder", club.slug)
    assert out == "rooks: ok\n"
    assert err == ""


def test_verify_ladder_still_reports_a_rating_missing_for_a_player_who_played(club, season):
    (ann, *_), _events = season
    set_standing(ann.pk, rating=None)
    out = io.StringIO()
    with pytest.raises(SystemExit) as exit_:
        call_command("verify_ladder", club.slug, stdout=out, stderr=io.StringIO())
    assert exit_.value.code == 1
    assert f"rooks: player {ann.pk} (Ann Archer): stored None" in out.getvalue()


def test_verify_ladder_still_reports_an_unrated_player_whose_ladder_state_was_never_stored(
    club, season
):
    """A player brought with games from an old ladder belongs on the ladder at once."""
    veteran = player(club, "Val Veteran", rating=1800, games=30)
    out = io.StringIO()
    with pytest.raises(SystemExit) as exit_:
        call_command("verify_ladder", club.slug, stdout=out, stderr=io.StringIO())
    assert exit_.value.code == 1
    assert f"rooks: player {veteran.pk} (Val Veteran): stored None after 0 games" in out.getvalue()


def test_verify_ladder_refuses_an_unknown_slug(club, season):
    with pytest.raises(CommandError, match="No club with slug nowhere"):
        run("verify_ladder", "nowhere")


# delete_event and restore_event ----------------------------------------------------------


def results(club):
    return sorted(
        PlayerEventResult.objects.filter(club=club).values_list(
            "event_id", "player_id", "position", "pre_rating", "post_rating", "rated_games_after"
        )
    )


def test_delete_event_takes_it_out_of_the_ladder_and_restore_brings_it_back_exactly(
    club, season, django_capture_on_commit_callbacks
):
    (ann, *_), (_, second, _) = season
    with_it, stored_with_it = ratings(club), results(club)
    with django_capture_on_commit_callbacks(execute=True):
        out, _ = run("delete_event", club.slug, str(second.pk))
    assert out == f"Deleted event {second.pk} ({second.name})\n"
    second.refresh_from_db()
    assert second.deleted_at is not None
    club.refresh_from_db()
    assert club.ladder_is_current
    assert not RatedEvent.objects.filter(event=second).exists()
    assert not PlayerEventResult.objects.filter(event=second).exists()
    without_it = ratings(club)
    assert without_it != with_it
    assert rated_players().get(pk=ann.pk).rated_games == 2
    assert run("verify_ladder", club.slug)[0] == "rooks: ok\n"

    with django_capture_on_commit_callbacks(execute=True):
        out, _ = run("restore_event", club.slug, str(second.pk))
    assert out == f"Restored event {second.pk} ({second.name})\n"
    second.refresh_from_db()
    assert second.deleted_at is None
    assert ratings(club) == with_it
    assert results(club) == stored_with_it
    assert run("verify_ladder", club.slug)[0] == "rooks: ok\n"
    logged = list(club.audit_entries.order_by("pk").values_list("action", "details__event_id"))
    assert logged[-2:] == [("event.deleted", second.pk), ("event.restored", second.pk)]


def test_delete_event_refuses_an_event_of_another_club(club, season):
    other = make_club(slug="bishops")
    x, y = make_players(other, ["Xia", "Yan"])
    theirs = make_event(other, [(1, x, y, D)])
    with pytest.raises(CommandError, match=f"No event {theirs.pk} in club 'rooks'"):
        run("delete_event", club.slug, str(theirs.pk))
    theirs.refresh_from_db()
    assert theirs.deleted_at is None
    Event.objects.filter(pk=theirs.pk).update(deleted_at=timezone.now())
    with pytest.raises(CommandError, match=f"No event {theirs.pk} in club 'rooks'"):
        run("restore_event", club.slug, str(theirs.pk))
    theirs.refresh_from_db()
    assert theirs.deleted_at is not None


@pytest.mark.parametrize("command", ["delete_event", "restore_event"])
def test_event_commands_refuse_an_event_that_does_not_exist(club, season, command):
    with pytest.raises(CommandError, match="No event 999999"):
        run(command, club.slug, "999999")
    with pytest.raises(CommandError, match="No event"):
        run(command, "nowhere", str(season[1][0].pk))


def test_delete_event_refuses_an_event_already_deleted(
    club, season, django_capture_on_commit_callbacks
):
    event = season[1][0]
    with django_capture_on_commit_callbacks(execute=True):
        run("delete_event", club.slug, str(event.pk))
    club.refresh_from_db()
    version = first_ladder(club).data_version
    with pytest.raises(CommandError, match="already deleted"):
        run("delete_event", club.slug, str(event.pk))
    club.refresh_from_db()
    assert first_ladder(club).data_version == version


def test_restore_event_refuses_an_event_that_is_not_deleted(club, season):
    event = season[1][0]
    with pytest.raises(CommandError, match="is not deleted"):
        run("restore_event", club.slug, str(event.pk))
    club.refresh_from_db()
    assert club.ladder_is_current
    assert first_ladder(club).data_version == 1


# sweep_ladders ---------------------------------------------------------------------------


def out_of_date_for(club, seconds):
    changed(club, run_replay=False)
    Ladder.objects.filter(club_id=club.pk).update(
        out_of_date_since=timezone.now() - dt.timedelta(seconds=seconds)
    )


@pytest.fixture
def queued(monkeypatch):
    """The club ids the sweep queues, instead of replaying them."""
    ids = []
    monkeypatch.setattr("ladder.jobs.enqueue_replay", ids.append)
    return ids


def test_sweep_ladders_queues_only_ladders_out_of_date_for_longer_than_the_limit(db, queued):
    stale, fresh, current = (make_club(slug=s) for s in ("stale", "fresh", "current"))
    assert current.ladder_is_current
    out_of_date_for(stale, 2 * 3600)
    out_of_date_for(fresh, 60)
    out, _ = run("sweep_ladders", "--older-than", "3600")
    assert queued == [stale.pk]
    assert out == "Queued 1 replay(s)\n"


def test_sweep_ladders_uses_the_configured_age_by_default(db, queued, settings):
    settings.LADDER_SWEEP_AFTER_SECONDS = 600
    older, newer = make_club(slug="older"), make_club(slug="newer")
    out_of_date_for(older, 1200)
    out_of_date_for(newer, 300)
    run("sweep_ladders")
    assert queued == [older.pk]


def test_sweep_ladders_without_redis_replays_the_stale_ladder_in_process(club, season):
    (ann, *_), (first, *_) = season
    first.games.filter(white__player=ann).update(result=B)
    out_of_date_for(club, 3600)
    before = ratings(club)
    out, _ = run("sweep_ladders", "--older-than", "60")
    assert out == "Queued 1 replay(s)\n"
    club.refresh_from_db()
    assert club.ladder_is_current
    assert first_ladder(club).out_of_date_since is None
    assert ratings(club) != before
    assert run("verify_ladder", club.slug)[0] == "rooks: ok\n"


# On the command line ---------------------------------------------------------------------


@pytest.fixture
def command_line(monkeypatch, capsys):
    """Run argv as manage.py would; return (exit status, stdout, stderr)."""
    # run_from_argv closes every connection when it ends; the test's transaction needs its own.
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


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (("createclub", "rooks", "--name", "Again"), "slug"),
        (("export_ladder", "nowhere"), "No club with slug 'nowhere'"),
        (("rebuild_ladder",), "Give one or more club slugs, or --all"),
        (("verify_ladder", "nowhere"), "No club with slug nowhere"),
        (("delete_event", "rooks", "999999"), "No event 999999 in club 'rooks'"),
        (("restore_event", "rooks", "999999"), "No event 999999 in club 'rooks'"),
        (("import_roster", "rooks", "/nonexistent/roster.csv"), "Cannot read"),
    ],
)
def test_bad_input_on_the_command_line_is_a_message_on_stderr_and_exit_status_1(
    club, command_line, argv, message
):
    status, out, err = command_line(*argv)
    assert status == 1
    assert err.startswith("CommandError: ")
    assert message in err
    assert "Traceback" not in err
    assert out == ""


@needs_name_key
def test_a_roster_name_clash_on_the_command_line_is_a_message_not_a_traceback(
    club, roster, command_line
):
    player(club, "Ann Archer")
    status, _, err = command_line("import_roster", club.slug, roster(HEADER))
    assert status == 1
    assert err == "CommandError: Already on the roster: Ann Archer\n"


def test_verify_ladder_on_the_command_line_exits_1_with_the_differences_on_stdout(
    club, season, command_line
):
    LadderRating.objects.filter(
        player__in=rated_players().filter(club=club, name="Ann Archer"), ladder__position=0
    ).update(rating=1999)
    status, out, _ = command_line("verify_ladder", club.slug)
    assert status == 1
    assert "rooks: player" in out
    assert command_line("rebuild_ladder", club.slug)[:2] == (0, "rooks: rebuilt\n")
    assert command_line("verify_ladder", club.slug)[:2] == (0, "rooks: ok\n")
