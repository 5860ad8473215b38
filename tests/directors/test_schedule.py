"""A club's schedule (issue 37): the writes (an entry, a date cancelled or reinstated, a date's
draft or club night), the schedule_event command and the directors' screens. Every refusal says
why and stores nothing; another club's director gets the same 404 as for nothing at all."""

from __future__ import annotations

import datetime as dt
from io import StringIO

import pytest
from django.contrib.messages import get_messages
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from clubs.models import AuditEntry, Club, Event, ScheduleDate, ScheduleEntry, occurrences
from clubs.models.schedule import weekly_dates
from clubs.results import Result
from directors.night import rounds as night_rounds
from directors.schedule import (
    ScheduleRefused,
    cancel_date,
    delete_entry,
    reinstate_date,
    save_entry,
    start_draft,
)
from tests.factories import make_players
from tests.security.routes import database_checksum

pytestmark = pytest.mark.django_db

TUESDAY = dt.date(2026, 9, 1)
HALF_PAST_SEVEN = dt.time(19, 30)


@pytest.fixture(autouse=True)
def _jobs_in_process(settings):
    settings.REDIS_URL = None


def club_night(club, **changes):
    fields = {
        "entry": None,
        "name": "Club night",
        "date": TUESDAY,
        "start_time": HALF_PAST_SEVEN,
        "place": "Church hall",
        "kind": "rapid",
        "weekly_until": TUESDAY + dt.timedelta(weeks=3),
        "user": None,
    }
    fields.update(changes)
    return save_entry(club, **fields)


# --- the model's dates ---------------------------------------------------------------------


def test_weekly_dates_run_every_seventh_day_up_to_the_last_inclusive():
    assert list(weekly_dates(TUESDAY, None)) == [TUESDAY]
    assert list(weekly_dates(TUESDAY, TUESDAY + dt.timedelta(days=20))) == [
        TUESDAY,
        dt.date(2026, 9, 8),
        dt.date(2026, 9, 15),
    ]
    assert list(weekly_dates(TUESDAY, TUESDAY + dt.timedelta(days=21)))[-1] == dt.date(2026, 9, 22)


def test_occurrences_say_which_dates_are_cancelled_in_time_order(club):
    night = club_night(club)
    one_off = club_night(club, name="Blitz cup", date=dt.date(2026, 9, 9), weekly_until=None)
    cancel_date(night, dt.date(2026, 9, 8), "Hall booked", None)
    dates = occurrences([night, one_off], first=dt.date(2026, 9, 2))
    assert [(o.date, o.entry.name, o.cancelled, o.reason) for o in dates] == [
        (dt.date(2026, 9, 8), "Club night", True, "Hall booked"),
        (dt.date(2026, 9, 9), "Blitz cup", False, ""),
        (dt.date(2026, 9, 15), "Club night", False, ""),
        (dt.date(2026, 9, 22), "Club night", False, ""),
    ]
    assert dates[0].uid_stem == f"{night.pk}-20260908"


def test_a_start_is_a_wall_clock_time_in_the_clubs_zone(club):
    Club.objects.filter(pk=club.pk).update(time_zone="Europe/Amsterdam")
    club.refresh_from_db()
    night = club_night(club, weekly_until=dt.date(2026, 11, 3))
    night.club = club
    summer, winter = night.starts_at(TUESDAY), night.starts_at(dt.date(2026, 11, 3))
    assert (summer.hour, summer.minute) == (winter.hour, winter.minute) == (19, 30)
    assert summer.utcoffset() == dt.timedelta(hours=2)
    assert winter.utcoffset() == dt.timedelta(hours=1)


def test_a_new_club_takes_the_servers_time_zone(settings):
    club = Club.objects.create(slug="knights", name="Knights")
    assert club.time_zone == settings.TIME_ZONE
    Club.objects.filter(pk=club.pk).update(time_zone="Not/AZone")
    club.refresh_from_db()
    assert club.zone.key == settings.TIME_ZONE  # a page keeps working


# --- the writes ----------------------------------------------------------------------------


def test_saving_an_entry_records_it_and_moves_the_pages(club):
    before = Club.objects.get(pk=club.pk).pages_version
    night = club_night(club, name="  Club\u200b night ", notes="Bring a clock.\nDoors 19:00")
    assert (night.name, night.notes) == ("Club night", "Bring a clock.\nDoors 19:00")
    assert Club.objects.get(pk=club.pk).pages_version > before
    entry = AuditEntry.objects.get(club=club, action="schedule_entry.added")
    assert entry.details == {"entry_id": night.pk, "name": "Club night", "date": "2026-09-01"}


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"name": "   "}, "Give the scheduled event a name."),
        ({"name": "x" * 101}, "longer than 100 characters"),
        ({"place": "x" * 121}, "longer than 120 characters"),
        ({"notes": "x" * 1001}, "notes are longer than 1000"),
        ({"kind": "chess960"}, "Choose the kind of event from the list."),
        ({"weekly_until": TUESDAY - dt.timedelta(days=1)}, "until its first date or later"),
        ({"weekly_until": TUESDAY + dt.timedelta(weeks=105)}, "two years at most"),
    ],
)
def test_a_bad_entry_is_refused_with_the_reason_and_nothing_stored(club, changes, message):
    before = database_checksum()
    with pytest.raises(ScheduleRefused, match=message):
        club_night(club, **changes)
    assert database_checksum() == before


def test_another_clubs_entry_cannot_be_changed_through_this_club(club):
    other = Club.objects.create(slug="knights", name="Knights")
    theirs = club_night(other)
    with pytest.raises(ScheduleRefused, match="no such scheduled event"):
        club_night(club, entry=theirs, name="Taken over")
    assert ScheduleEntry.objects.get(pk=theirs.pk).name == "Club night"


def test_an_edit_keeps_the_id_and_forgets_dates_the_entry_no_longer_has(club):
    night = club_night(club)
    cancel_date(night, dt.date(2026, 9, 8), "", None)
    cancel_date(night, dt.date(2026, 9, 22), "", None)
    changed = club_night(club, entry=night, weekly_until=dt.date(2026, 9, 15), name="Club evening")
    assert changed.pk == night.pk
    assert list(ScheduleDate.objects.filter(entry=night).values_list("date", flat=True)) == [
        dt.date(2026, 9, 8)
    ]
    assert AuditEntry.objects.filter(club=club, action="schedule_entry.changed").count() == 1


def test_a_date_is_cancelled_once_and_reinstated(club):
    night = club_night(club)
    stamp = ScheduleEntry.objects.get(pk=night.pk).changed_at
    cancel_date(night, dt.date(2026, 9, 8), "Holiday", None)
    assert ScheduleEntry.objects.get(pk=night.pk).changed_at > stamp
    with pytest.raises(ScheduleRefused, match="cancelled already"):
        cancel_date(night, dt.date(2026, 9, 8), "Again", None)
    with pytest.raises(ScheduleRefused, match="no date"):
        cancel_date(night, dt.date(2026, 9, 9), "", None)  # a Wednesday
    reinstate_date(night, dt.date(2026, 9, 8), None)
    with pytest.raises(ScheduleRefused, match="not cancelled"):
        reinstate_date(night, dt.date(2026, 9, 8), None)
    actions = list(AuditEntry.objects.filter(club=club).values_list("action", flat=True))
    assert "schedule_date.cancelled" in actions and "schedule_date.reinstated" in actions


def test_starting_a_dates_draft_makes_the_event_and_links_it(club):
    night = club_night(club)
    event = start_draft(night, dt.date(2026, 9, 15), None)
    assert (event.name, event.date, event.kind, event.status) == (
        "Club night",
        dt.date(2026, 9, 15),
        "rapid",
        Event.Status.DRAFT,
    )
    assert ScheduleDate.objects.get(entry=night, date=dt.date(2026, 9, 15)).event == event
    assert AuditEntry.objects.filter(club=club, action="event.created").exists()
    with pytest.raises(ScheduleRefused, match="started from this date already"):
        start_draft(night, dt.date(2026, 9, 15), None)
    cancel_date(night, dt.date(2026, 9, 22), "", None)
    with pytest.raises(ScheduleRefused, match="reinstate it first"):
        start_draft(night, dt.date(2026, 9, 22), None)


def test_deleting_an_entry_keeps_the_event_started_from_it(club):
    night = club_night(club)
    event = start_draft(night, TUESDAY, None)
    delete_entry(night, None)
    assert not ScheduleEntry.objects.filter(pk=night.pk).exists()
    assert Event.objects.filter(pk=event.pk).exists()
    assert AuditEntry.objects.filter(club=club, action="schedule_entry.deleted").exists()


# --- schedule_event ------------------------------------------------------------------------


def run(*args):
    out = StringIO()
    call_command("schedule_event", *args, stdout=out)
    return out.getvalue()


def test_schedule_event_prints_the_entrys_id_alone(club):
    out = run(
        "rooks",
        "--name",
        "Club night",
        "--date",
        "2026-09-01",
        "--time",
        "19:30",
        "--place",
        "Church hall",
        "--kind",
        "rapid",
        "--weekly-until",
        "2027-06-29",
    )
    entry = ScheduleEntry.objects.get(club=club)
    assert out == f"{entry.pk}\n"
    assert (entry.start_time, entry.place, entry.kind, entry.weekly_until) == (
        HALF_PAST_SEVEN,
        "Church hall",
        "rapid",
        dt.date(2027, 6, 29),
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["nowhere", "--name", "A", "--date", "2026-09-01", "--time", "19:30"], "No club"),
        (["rooks", "--date", "2026-09-01", "--time", "19:30"], "--name"),
        (["rooks", "--name", "A", "--time", "19:30"], "--date"),
        (["rooks", "--name", "A", "--date", "1/9/2026", "--time", "19:30"], "YYYY-MM-DD"),
        (["rooks", "--name", "A", "--date", "2026-02-30", "--time", "19:30"], "YYYY-MM-DD"),
        (["rooks", "--name", "A", "--date", "2026-09-01", "--time", "25:00"], "HH:MM"),
        (["rooks", "--name", "A", "--date", "2026-09-01", "--time", "7pm"], "HH:MM"),
        (
            ["rooks", "--name", "A", "--date", "2026-09-01", "--time", "19:30", "--kind", "x"],
            "kind",
        ),
        (
            [
                "rooks",
                "--name",
                "A",
                "--date",
                "2026-09-01",
                "--time",
                "19:30",
                "--weekly-until",
                "2026-08-01",
            ],
            "first date",
        ),
    ],
)
def test_schedule_event_refuses_bad_input_with_exit_1_storing_nothing(club, args, message):
    before = database_checksum()
    with pytest.raises(CommandError, match=message) as refused:
        run(*args)
    assert refused.value.returncode == 1
    assert database_checksum() == before


# --- the screens ---------------------------------------------------------------------------


def form(**changes):
    data = {
        "name": "Club night",
        "date": "2026-09-01",
        "start_time": "19:30",
        "place": "Church hall",
        "kind": "standard",
        "notes": "",
        "weekly": "on",
        "weekly_until": "2026-12-15",
    }
    data.update(changes)
    return {key: value for key, value in data.items() if value is not None}


def test_a_director_schedules_edits_cancels_and_deletes(client, director, club):
    client.force_login(director)
    assert (
        reverse("schedule_list", args=[club.slug])
        in client.get(reverse("club_manage", args=[club.slug])).content.decode()
    )
    new = reverse("schedule_new", args=[club.slug])
    assert client.get(new).status_code == 200
    response = client.post(new, form())
    assert response.status_code == 302
    entry = ScheduleEntry.objects.get(club=club)
    assert client.get(reverse("schedule_list", args=[club.slug])).status_code == 200
    edit = reverse("schedule_edit", args=[club.slug, entry.pk])
    assert client.get(edit).status_code == 200
    assert client.post(edit, form(name="Club evening", weekly=None)).status_code == 302
    entry.refresh_from_db()
    assert (entry.name, entry.weekly_until) == ("Club evening", None)
    cancel = reverse("schedule_cancel", args=[club.slug, entry.pk, "2026-09-01"])
    assert client.post(cancel, {"reason": "Hall flooded"}).status_code == 302
    assert ScheduleDate.objects.get(entry=entry).reason == "Hall flooded"
    reinstate = reverse("schedule_reinstate", args=[club.slug, entry.pk, "2026-09-01"])
    assert client.post(reinstate).status_code == 302
    draft = reverse("schedule_start_draft", args=[club.slug, entry.pk, "2026-09-01"])
    response = client.post(draft)
    event = Event.objects.get(club=club)
    assert response["Location"] == reverse("event_detail", args=[club.slug, event.pk])
    delete = reverse("schedule_delete", args=[club.slug, entry.pk])
    assert client.post(delete).status_code == 302
    assert not ScheduleEntry.objects.filter(club=club).exists()


def test_the_form_shows_a_refusal_and_stores_nothing(client, director, club):
    client.force_login(director)
    before = database_checksum()
    response = client.post(
        reverse("schedule_new", args=[club.slug]), form(weekly_until="2030-01-01")
    )
    assert response.status_code == 400
    assert "two years at most" in response.content.decode()
    response = client.post(reverse("schedule_new", args=[club.slug]), form(weekly_until=""))
    assert response.status_code == 400
    assert database_checksum() == before


def test_another_clubs_director_and_a_bad_date_get_404(client, director, outsider, club):
    night = club_night(club)
    client.force_login(outsider)
    for name, args in [
        ("schedule_list", [club.slug]),
        ("schedule_edit", [club.slug, night.pk]),
    ]:
        assert client.get(reverse(name, args=args)).status_code == 404
    assert (
        client.post(
            reverse("schedule_cancel", args=[club.slug, night.pk, "2026-09-08"])
        ).status_code
        == 404
    )
    client.force_login(director)
    assert (
        client.post(reverse("schedule_cancel", args=[club.slug, night.pk, "not-a-day"])).status_code
        == 404
    )
    elsewhere = Club.objects.get(slug="elsewhere")
    assert client.get(reverse("schedule_edit", args=[elsewhere.slug, night.pk])).status_code == 404


def test_the_club_settings_choose_the_time_zone(client, director, club):
    client.force_login(director)
    url = reverse("club_settings", args=[club.slug])
    page = client.get(url).content.decode()
    assert "Europe/Amsterdam" in page
    data = {
        "visibility": club.visibility,
        "name_display": club.name_display,
        "language": club.language,
        "time_zone": "Europe/Amsterdam",
    }
    assert client.post(url, data).status_code == 302
    assert Club.objects.get(pk=club.pk).time_zone == "Europe/Amsterdam"
    data["time_zone"] = "Mars/Olympus"
    assert client.post(url, data).status_code == 200  # the form again, with the error
    assert Club.objects.get(pk=club.pk).time_zone == "Europe/Amsterdam"


# --- a scheduled date run as a club night here ---------------------------------------------


def night_roster(club):
    return make_players(club, ["Ann Alder", "Bob Birch", "Cat Cedar", "Dan Dogwood"])


def run_here(club, entry, day):
    return f"{reverse('night_start', args=[club.slug])}?scheduled={entry.pk}:{day.isoformat()}"


def night_form(players, scheduled, **changes):
    data = {
        "action": "start", "name": "Club night", "date": "2026-09-15", "kind": "rapid",
        "rated": "on", "system": "swiss", "rounds": "2", "players": [p.pk for p in players],
        "scheduled": scheduled,
    }  # fmt: skip
    data.update(changes)
    return data


def said(response):
    return [str(m) for m in get_messages(response.wsgi_request)]


def test_the_schedule_offers_to_run_a_coming_date_here(client, director, club, monkeypatch):
    night = club_night(club)
    monkeypatch.setattr("django.utils.timezone.localdate", lambda: dt.date(2026, 9, 10))
    start_draft(night, dt.date(2026, 9, 22), None)
    client.force_login(director)
    page = client.get(reverse("schedule_list", args=[club.slug])).content.decode()
    assert "Run the club night here" in page
    assert run_here(club, night, dt.date(2026, 9, 15)) in page
    assert run_here(club, night, dt.date(2026, 9, 22)) not in page  # an event started already
    assert run_here(club, night, dt.date(2026, 9, 8)) not in page  # gone by
    assert run_here(club, night, dt.date(2026, 9, 1)) not in page


def test_the_start_page_opened_from_a_date_is_filled_in(client, director, club):
    night = club_night(club)
    client.force_login(director)
    response = client.get(run_here(club, night, dt.date(2026, 9, 15)))
    form = response.context["form"]
    assert (form["name"].value(), form["date"].value(), form["kind"].value()) == (
        "Club night",
        dt.date(2026, 9, 15),
        "rapid",
    )
    html = response.content.decode()
    assert f'name="scheduled" value="{night.pk}:2026-09-15"' in html
    assert 'id="night-scheduled"' in html
    # A search keeps the date it was opened from, and what was typed over the entry's name.
    search = client.post(
        reverse("night_start", args=[club.slug]),
        {"action": "search", "q": "x", "name": "Cup night", "scheduled": f"{night.pk}:2026-09-15"},
    )
    again = client.get(search.url)
    assert again.context["form"]["name"].value() == "Cup night"
    assert f'value="{night.pk}:2026-09-15"' in again.content.decode()


def test_starting_the_night_from_a_date_links_its_event(client, director, club):
    night = club_night(club)
    players = night_roster(club)
    client.force_login(director)
    response = client.post(
        reverse("night_start", args=[club.slug]),
        night_form(players, f"{night.pk}:2026-09-15", name="Club night, week 3"),
    )
    event = Event.objects.get(club=club)
    assert response.url == reverse("night_evening", args=[club.slug, event.pk])
    assert (event.name, event.date, event.kind, event.pairing_system) == (
        "Club night, week 3",
        dt.date(2026, 9, 15),
        "rapid",
        "swiss",
    )
    assert ScheduleDate.objects.get(entry=night, date=dt.date(2026, 9, 15)).event == event
    actions = set(AuditEntry.objects.filter(club=club).values_list("action", flat=True))
    assert {"event.created", "club_night.started"} <= actions
    # The date is taken now: a second evening from it is refused and nothing is started.
    before = database_checksum()
    again = client.post(
        reverse("night_start", args=[club.slug]), night_form(players, f"{night.pk}:2026-09-15")
    )
    assert again.status_code == 200
    assert any("started from this date already" in m for m in said(again))
    assert database_checksum() == before
    opened = client.get(run_here(club, night, dt.date(2026, 9, 15)))
    assert any("started from this date already" in m for m in said(opened))
    assert 'name="scheduled"' not in opened.content.decode()


def test_a_night_without_a_scheduled_date_is_linked_to_nothing(client, director, club):
    club_night(club)
    players = night_roster(club)
    client.force_login(director)
    response = client.post(reverse("night_start", args=[club.slug]), night_form(players, ""))
    assert response.status_code == 302
    assert not ScheduleDate.objects.exists()


@pytest.mark.parametrize(
    "reference",
    [
        "{pk}:2026-09-16",
        "{pk}:not-a-day",
        "{other}:2026-09-15",
        "²:2026-09-15",
        "junk",
        "9999:2026-09-15",
    ],
)
def test_a_forged_or_another_clubs_date_is_refused_and_nothing_started(
    client, director, club, outsider, reference
):
    night = club_night(club)
    elsewhere = club_night(Club.objects.get(slug="elsewhere"))
    players = night_roster(club)
    scheduled = reference.format(pk=night.pk, other=elsewhere.pk)
    client.force_login(director)
    before = database_checksum()
    response = client.post(reverse("night_start", args=[club.slug]), night_form(players, scheduled))
    assert response.status_code == 200
    assert "This club has no such scheduled date." in said(response)
    assert database_checksum() == before
    opened = client.get(f"{reverse('night_start', args=[club.slug])}?scheduled={scheduled}")
    assert "This club has no such scheduled date." in said(opened)
    assert 'name="scheduled"' not in opened.content.decode()
    assert opened.context["form"]["name"].value() in (None, "")


def test_a_cancelled_date_or_another_day_is_refused(client, director, club):
    night = club_night(club)
    players = night_roster(club)
    cancel_date(night, dt.date(2026, 9, 22), "", None)
    client.force_login(director)
    before = database_checksum()
    cancelled = client.post(
        reverse("night_start", args=[club.slug]),
        night_form(players, f"{night.pk}:2026-09-22", date="2026-09-22"),
    )
    assert any("reinstate it first" in m for m in said(cancelled))
    moved = client.post(
        reverse("night_start", args=[club.slug]),
        night_form(players, f"{night.pk}:2026-09-15", date="2026-09-16"),
    )
    assert "This evening is scheduled for 2026-09-15: keep that date to link it." in said(moved)
    assert database_checksum() == before


def test_the_published_night_is_linked_from_the_schedule_page(client, director, club):
    Club.objects.filter(pk=club.pk).update(visibility="public")
    today = timezone.localdate()
    night = club_night(club, date=today, weekly_until=None)
    players = night_roster(club)
    client.force_login(director)
    client.post(
        reverse("night_start", args=[club.slug]),
        night_form(players, f"{night.pk}:{today.isoformat()}", date=today.isoformat(), rounds="1"),
    )
    event = Event.objects.get(club=club)
    public = f"/c/{club.slug}/events/{event.pk}/"
    assert public not in Client().get(f"/c/{club.slug}/schedule/").content.decode()
    night_rounds.pair_next_round(event.pk, None)
    night_rounds.enter_round_results(event.pk, 1, [Result.WHITE_WIN, Result.DRAW], None)
    night_rounds.publish_night(event.pk, None)
    assert Event.objects.get(pk=event.pk).status == Event.Status.PUBLISHED
    assert public in Client().get(f"/c/{club.slug}/schedule/").content.decode()
