"""Newcomers' starting ratings: the club's start rating, or the rating the file gives."""

from __future__ import annotations

import datetime as dt
import io
import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.urls import reverse

from clubs.models import AuditEntry, Club, Event, NewcomerStart
from directors.events.names import start_from_file
from directors.importers import parse_file
from directors.management.commands.import_event import Command as ImportEventCommand
from ladder.models import PlayerEventResult
from ladder.replay import verify_ladder
from tests.directors.importers.trf_lines import player as trf_player
from tests.factories import rated_players

# A 2558 newcomer beats a 1900 one; the third name has no rating in the file.
TRF = "\n".join(
    [
        "012 Start ratings open",
        "042 2024/09/14",
        trf_player(1, "Kandic, Milan", (2, "w", "1"), rating="2558"),
        trf_player(2, "Hendriks, Mila", (1, "b", "0"), rating="1900"),
        trf_player(3, "Unrated, Una", (0, "-", "U")),
    ]
).encode()


@pytest.fixture
def trf_file(tmp_path):
    path = tmp_path / "open.trf"
    path.write_bytes(TRF)
    return path


def run(*args):
    err = io.StringIO()
    call_command("import_event", *map(str, args), stdout=io.StringIO(), stderr=err)
    return err.getvalue()


def starts():
    return dict(rated_players().values_list("name", "start_rating"))


# --- what the files say ----------------------------------------------------------------------


def test_a_trf_player_line_gives_its_rating_and_a_blank_one_none():
    event = parse_file(TRF, "trf")
    assert [(p.name, p.rating) for p in event.players] == [
        ("Kandic, Milan", 2558),
        ("Hendriks, Mila", 1900),
        ("Unrated, Una", None),
    ]


def test_pgn_white_elo_and_black_elo_give_the_players_ratings():
    pgn = (
        b'[Event "Open"]\n[Date "2024.09.14"]\n[Round "1"]\n[White "Ann"]\n[Black "Bob"]\n'
        b'[WhiteElo "2558"]\n[BlackElo "-"]\n[Result "1-0"]\n\n1. e4 e5 1-0\n'
    )
    event = parse_file(pgn, "pgn")
    assert [(p.name, p.rating) for p in event.players] == [("Ann", 2558), ("Bob", None)]


def test_csv_white_rating_and_black_rating_columns_give_the_players_ratings():
    csv = (
        b"round;white;black;result;White_Rating;BlackElo\n"
        b"1;Ann;Bob;1-0;2558;0\n"  # 0: no rating, so Bob's next one counts
        b"2;Bob;Ann;0-1;1500;2400\n"  # Ann keeps her first rating
        b"2;BYE;Cy;0-1;;1700\n"  # the BYE's column is empty; Cy is black
    )
    event = parse_file(csv, "csv")
    assert [(p.name, p.rating) for p in event.players] == [
        ("Ann", 2558),
        ("Bob", 1500),
        ("Cy", 1700),
    ]
    assert event.warnings == ()


def test_a_csv_rating_that_is_not_a_number_is_left_out_with_a_warning_naming_the_line():
    event = parse_file(b"round,white,black,result,white elo\n1,Ann,Bob,1-0,about 2000\n", "csv")
    assert {p.name: p.rating for p in event.players} == {"Ann": None, "Bob": None}
    assert event.warnings == (
        "Line 2: the white rating 'about 2000' is not a number; it was left out.",
    )


def test_a_csv_without_rating_columns_gives_no_ratings():
    event = parse_file(b"round,white,black,result\n1,Ann,Bob,1-0\n", "csv")
    assert {p.rating for p in event.players} == {None}


def test_only_the_file_choice_takes_a_rating_from_the_file_and_only_one_a_player_may_start_at():
    assert start_from_file("file", 2558) == 2558
    assert start_from_file("club", 2558) is None
    assert start_from_file("file", None) is None
    assert start_from_file("file", 4001) is None  # outside Player.start_rating's range


# --- the club setting and import_event -------------------------------------------------------


@pytest.mark.django_db
def test_a_new_club_starts_newcomers_at_its_start_rating_and_its_events_follow_its_setting(
    signed_in_club,
):
    club, client = signed_in_club
    assert Club.objects.get(pk=club.pk).newcomer_start == NewcomerStart.CLUB
    Club.objects.filter(pk=club.pk).update(newcomer_start=NewcomerStart.FILE)
    client.post(
        reverse("event_create", args=[club.slug]),
        {"name": "Open", "date": "2024-09-14", "order_in_day": 0, "kind": "standard"},
    )
    assert Event.objects.get(name="Open").newcomer_start == NewcomerStart.FILE


@pytest.mark.django_db
def test_import_event_start_ratings_file_starts_a_newcomer_at_the_file_rating_on_the_ladder(
    club, trf_file
):
    run(club.slug, trf_file, "--start-ratings", "file", "--publish")
    # Una's pairing-allocated bye is a point of hers: a player too, with no rating to start at.
    assert starts() == {"Kandic, Milan": 2558.0, "Hendriks, Mila": 1900.0, "Unrated, Una": None}
    assert set(rated_players().values_list("start_games", flat=True)) == {0}
    milan = PlayerEventResult.objects.get(player__name="Kandic, Milan")
    # Still a newcomer: provisional, with the newcomers' K, only the rating is the file's.
    assert (milan.pre_rating, milan.provisional, milan.k) == (2558.0, True, 40.0)
    club.refresh_from_db()
    assert club.ladder_is_current
    assert verify_ladder(club) == []


@pytest.mark.django_db
@pytest.mark.parametrize("option", [(), ("--start-ratings", "club")], ids=["default", "club"])
def test_import_event_without_start_ratings_file_starts_every_newcomer_at_the_club_rating(
    club, trf_file, option
):
    run(club.slug, trf_file, *option, "--publish")
    assert starts() == {"Kandic, Milan": None, "Hendriks, Mila": None, "Unrated, Una": None}
    milan = PlayerEventResult.objects.get(player__name="Kandic, Milan")
    assert milan.pre_rating == 1200.0
    assert Event.objects.get().newcomer_start == NewcomerStart.CLUB


@pytest.mark.django_db
def test_import_event_refuses_an_unknown_start_ratings_value_with_exit_status_2(
    club, trf_file, capsys
):
    with pytest.raises(SystemExit) as exit_:
        ImportEventCommand().run_from_argv(
            ["manage.py", "import_event", club.slug, str(trf_file), "--start-ratings", "fide"]
        )
    assert exit_.value.code == 2
    assert "invalid choice: 'fide'" in capsys.readouterr().err
    assert not Event.objects.exists()


# --- the upload, the names screen and the settings page --------------------------------------


@pytest.fixture
def signed_in_club(client, club, director):
    client.force_login(director)
    return club, client


def upload(client, event, **extra):
    return client.post(
        reverse("event_upload", args=[event.club.slug, event.pk]),
        {
            "file": SimpleUploadedFile("open.trf", TRF),
            "format": "auto",
            "version": Event.objects.get(pk=event.pk).edit_version,
            **extra,
        },
    )


def checked_start(html: str) -> str:
    tag = next(
        t for t in re.findall(r"<input [^>]*name=\"newcomer_start\"[^>]*>", html) if " checked" in t
    )
    return re.search(r'value="([^"]*)"', tag).group(1)


@pytest.mark.django_db
def test_the_upload_offers_the_club_setting_and_the_names_step_starts_newcomers_as_chosen(
    signed_in_club,
):
    club, client = signed_in_club
    event = Event.objects.create(club=club, name="Open", date=dt.date(2024, 9, 14))
    results_url = reverse("event_results", args=[club.slug, event.pk])
    assert checked_start(client.get(results_url).content.decode()) == "club"
    Club.objects.filter(pk=club.pk).update(newcomer_start=NewcomerStart.FILE)
    assert checked_start(client.get(results_url).content.decode()) == "file"

    assert upload(client, event, newcomer_start="file").status_code == 302
    event.refresh_from_db()
    assert event.newcomer_start == NewcomerStart.FILE
    Club.objects.filter(pk=club.pk).update(newcomer_start=NewcomerStart.CLUB)
    # A corrected file is offered the event's own choice.
    assert checked_start(client.get(results_url).content.decode()) == "file"

    names_url = reverse("event_names", args=[club.slug, event.pk])
    page = client.get(names_url).content.decode()
    assert "As a new player: starts at 2558, the rating in the file." in page
    assert "As a new player: starts at 1200, the club&#x27;s start rating." in page  # Una

    milan, mila = (event.entries.get(typed_name=n) for n in ("Kandic, Milan", "Hendriks, Mila"))
    client.post(
        names_url,
        {
            f"decision_{milan.pk}": "new",
            f"decision_{mila.pk}": "new",
            f"start_{mila.pk}": "1750",  # a director's estimate wins over the file
            "version": Event.objects.get(pk=event.pk).edit_version,
        },
    )
    assert starts() == {"Kandic, Milan": 2558.0, "Hendriks, Mila": 1750.0}


@pytest.mark.django_db
def test_an_upload_choosing_the_club_start_keeps_the_file_rating_out_of_the_start(
    signed_in_club,
):
    club, client = signed_in_club
    Club.objects.filter(pk=club.pk).update(newcomer_start=NewcomerStart.FILE)
    event = Event.objects.create(club=club, name="Open", date=dt.date(2024, 9, 14))
    upload(client, event, newcomer_start="club")
    names_url = reverse("event_names", args=[club.slug, event.pk])
    assert "starts at 1200, the club&#x27;s start rating" in client.get(names_url).content.decode()
    milan = event.entries.get(typed_name="Kandic, Milan")
    client.post(
        names_url,
        {f"decision_{milan.pk}": "new", "version": Event.objects.get(pk=event.pk).edit_version},
    )
    assert starts() == {"Kandic, Milan": None}


@pytest.mark.django_db
def test_an_upload_without_the_choice_keeps_the_events_choice(signed_in_club):
    club, client = signed_in_club
    event = Event.objects.create(
        club=club, name="Open", date=dt.date(2024, 9, 14), newcomer_start=NewcomerStart.FILE
    )
    assert upload(client, event).status_code == 302
    assert Event.objects.get(pk=event.pk).newcomer_start == NewcomerStart.FILE


@pytest.mark.django_db
def test_the_settings_page_saves_the_clubs_newcomer_start_and_logs_it(signed_in_club):
    club, client = signed_in_club
    settings_url = reverse("club_settings", args=[club.slug])
    form = {"visibility": club.visibility, "name_display": "full", "language": "en"}
    client.post(settings_url, {**form, "newcomer_start": "file"})
    assert Club.objects.get(pk=club.pk).newcomer_start == NewcomerStart.FILE
    logged = AuditEntry.objects.get(action="page_settings.changed")
    assert logged.details["changes"] == {"newcomer_start": ["club", "file"]}
    # A form sent without it (an older page) keeps the setting.
    client.post(settings_url, {**form, "language": "nl"})
    assert Club.objects.get(pk=club.pk).newcomer_start == NewcomerStart.FILE
    assert client.post(settings_url, {**form, "newcomer_start": "fide"}).status_code == 200
    assert Club.objects.get(pk=club.pk).newcomer_start == NewcomerStart.FILE
