"""What is next at a club (issue 37), as members read it: the front page's next dates, the
upcoming events page, the calendar feed (parsed with icalendar, as a calendar client would)
and the Atom feed of results (parsed as XML). Who may read them is every club page's rule:
director-only clubs answer 404 to others, unlisted ones only through the secret link, and an
inactive subscription shows its notice; nothing unpublished shows."""

from __future__ import annotations

import datetime as dt
import xml.etree.ElementTree as ET

import pytest
from django.test import Client
from django.utils import timezone
from icalendar import Calendar

from clubs.models import Club, Event
from clubs.results import Result
from directors.schedule import cancel_date, save_entry, start_draft
from tests.factories import make_club, make_event, make_players

pytestmark = pytest.mark.django_db

ATOM = "{http://www.w3.org/2005/Atom}"


@pytest.fixture(autouse=True)
def _jobs_in_process(settings):
    settings.REDIS_URL = None
    settings.SITE_URL = "https://clubs.example.org"


@pytest.fixture
def today():
    return timezone.localdate()


@pytest.fixture
def public(owner, director):
    return make_club(
        slug="rooks",
        owner=owner,
        directors=[director],
        visibility="public",
        time_zone="Europe/Amsterdam",
    )


def schedule(club, today, **changes):
    fields = {
        "entry": None,
        "name": "Club night",
        "date": today,
        "start_time": dt.time(19, 30),
        "place": "Church hall",
        "kind": "rapid",
        "weekly_until": today + dt.timedelta(weeks=4),
        "user": None,
    }
    fields.update(changes)
    return save_entry(club, **fields)


def url(club, suffix=""):
    return f"/c/{club.slug}/{suffix}"


def calendar(response):
    assert response.status_code == 200
    assert response["Content-Type"] == "text/calendar; charset=utf-8"
    return Calendar.from_ical(response.content)


def vevents(cal):
    return {str(e["UID"]): e for e in cal.walk("VEVENT")}


# --- the front page and the schedule page --------------------------------------------------


def test_the_front_page_names_the_next_dates_that_take_place(public, today):
    night = schedule(public, today)
    cancel_date(night, today + dt.timedelta(weeks=1), "Holiday", None)
    schedule(public, today - dt.timedelta(days=1), name="Past blitz", weekly_until=None)
    page = Client().get(url(public)).content.decode()
    section = page.split('id="next-events"')[1].split("</section>")[0]
    assert section.count("<li>") == 3  # the first three that take place
    assert "Club night" in section and "19:30" in section and "Church hall" in section
    assert f'datetime="{today + dt.timedelta(weeks=1):%Y-%m-%d}' not in section  # cancelled
    assert "Past blitz" not in section
    weekday = (today).strftime("%A")
    assert weekday in section
    assert '<link rel="alternate" type="text/calendar" href="/c/rooks/calendar.ics"' in page
    assert 'type="application/atom+xml" href="/c/rooks/results.atom"' in page


def test_a_club_with_nothing_scheduled_shows_no_next_section(public):
    assert 'id="next-events"' not in Client().get(url(public)).content.decode()


def test_the_schedule_page_marks_cancelled_dates_and_links_published_results(public, today):
    night = schedule(public, today)
    cancel_date(night, today + dt.timedelta(weeks=2), "Hall <booked>", None)
    event = start_draft(night, today, None)
    page = Client().get(url(public, "schedule/")).content.decode()
    assert "Cancelled</strong>: Hall &lt;booked&gt;" in page
    assert f"/c/rooks/events/{event.pk}/" not in page  # a draft is not linked
    Event.objects.filter(pk=event.pk).update(status=Event.Status.PUBLISHED)
    Club.objects.filter(pk=public.pk).update(pages_version=public.pages_version + 100)
    page = Client().get(url(public, "schedule/")).content.decode()
    assert f"/c/rooks/events/{event.pk}/" in page
    assert "Europe/Amsterdam" in page


# --- the calendar --------------------------------------------------------------------------


def test_the_calendar_lists_each_date_with_a_stable_uid_in_the_clubs_zone(public, today):
    night = schedule(public, today, notes="Bring a clock")
    cancel_date(night, today + dt.timedelta(weeks=1), "Holiday", None)
    first = calendar(Client().get(url(public, "calendar.ics")))
    events = vevents(first)
    uids = [
        f"{night.pk}-{today + dt.timedelta(weeks=n):%Y%m%d}@clubs.example.org" for n in range(5)
    ]
    assert sorted(events) == sorted(uids)
    # Stable across requests and across an edit of the entry.
    schedule(public, today, entry=night, name="Club evening", notes="Bring a clock")
    again = vevents(calendar(Client().get(url(public, "calendar.ics"))))
    assert sorted(again) == sorted(uids)
    assert str(again[uids[0]]["SUMMARY"]) == "Club evening"
    one = events[uids[0]]
    start = one.decoded("DTSTART")
    assert start.tzinfo is not None and str(start.tzinfo) == "Europe/Amsterdam"
    assert (start.date(), start.hour, start.minute) == (today, 19, 30)
    assert one["DTSTART"].params["TZID"] == "Europe/Amsterdam"
    assert [str(tz["TZID"]) for tz in first.walk("VTIMEZONE")] == ["Europe/Amsterdam"]
    assert one.decoded("DTSTAMP").tzinfo is not None
    assert str(one["LOCATION"]) == "Church hall"
    assert "Bring a clock" in str(one["DESCRIPTION"])
    assert str(one["STATUS"]) == "CONFIRMED"
    cancelled = events[uids[1]]
    assert str(cancelled["STATUS"]) == "CANCELLED"
    assert "Holiday" in str(cancelled["DESCRIPTION"])
    assert "RRULE" not in one  # weekly dates are expanded, one VEVENT each


def test_the_calendar_is_the_same_text_until_something_changes(public, today):
    schedule(public, today)
    first = Client().get(url(public, "calendar.ics")).content
    assert Client().get(url(public, "calendar.ics")).content == first


def test_a_published_event_started_from_a_date_is_linked_from_the_calendar(public, today):
    night = schedule(public, today)
    event = start_draft(night, today, None)
    uid = f"{night.pk}-{today:%Y%m%d}@clubs.example.org"
    draft = vevents(calendar(Client().get(url(public, "calendar.ics"))))[uid]
    assert f"/events/{event.pk}/" not in draft.to_ical().decode()
    Event.objects.filter(pk=event.pk).update(status=Event.Status.PUBLISHED)
    Club.objects.filter(pk=public.pk).update(pages_version=public.pages_version + 100)
    published = vevents(calendar(Client().get(url(public, "calendar.ics"))))[uid]
    assert str(published["URL"]) == f"http://testserver/c/rooks/events/{event.pk}/"


def test_names_with_calendar_syntax_are_escaped(public, today):
    schedule(public, today, name="Rapid; semi, final\\ <b>", place="Hall: A, B")
    event = next(iter(vevents(calendar(Client().get(url(public, "calendar.ics")))).values()))
    assert str(event["SUMMARY"]) == "Rapid; semi, final\\ <b>"
    assert str(event["LOCATION"]) == "Hall: A, B"


# --- the results feed ----------------------------------------------------------------------


def test_the_results_feed_lists_published_events_newest_first_escaped(public):
    ann, bob = make_players(public, ["Ann Archer", "Bob Baker"])
    older = make_event(public, [(1, ann, bob, Result.DRAW)], date=dt.date(2026, 1, 5), name="A")
    newer = make_event(
        public,
        [(1, bob, ann, Result.DRAW)],
        date=dt.date(2026, 2, 5),
        name="<script>alert(1)</script> & Co",
    )
    make_event(public, [(1, ann, bob, Result.DRAW)], name="Draft night", published=False)
    response = Client().get(url(public, "results.atom"))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/atom+xml")
    assert b"<script>" not in response.content
    feed = ET.fromstring(response.content)
    entries = feed.findall(f"{ATOM}entry")
    titles = [e.findtext(f"{ATOM}title") for e in entries]
    assert titles == ["<script>alert(1)</script> & Co", "A"]
    links = [e.find(f"{ATOM}link").get("href") for e in entries]
    assert links == [
        f"http://testserver/c/rooks/events/{newer.pk}/",
        f"http://testserver/c/rooks/events/{older.pk}/",
    ]
    assert entries[0].findtext(f"{ATOM}updated").startswith("2026-02-05T00:00:00+01:00")
    assert "Ann" not in response.content.decode() and "Bob" not in response.content.decode()


def test_the_results_feed_keeps_the_newest_30(public):
    ann, bob = make_players(public, ["Ann Archer", "Bob Baker"])
    for day in range(1, 33):
        make_event(public, [(1, ann, bob, Result.DRAW)], date=dt.date(2026, 1, day % 28 + 1))
    feed = ET.fromstring(Client().get(url(public, "results.atom")).content)
    assert len(feed.findall(f"{ATOM}entry")) == 30


# --- who may read them ---------------------------------------------------------------------

PAGES = ["schedule/", "calendar.ics", "results.atom"]


@pytest.mark.parametrize("suffix", PAGES)
def test_an_unlisted_club_is_reached_only_through_its_secret_link(owner, director, suffix, today):
    club = make_club(slug="hidden", owner=owner, directors=[director], visibility="unlisted")
    schedule(club, today)
    assert Client().get(url(club, suffix)).status_code == 404
    secret = Client().get(f"/c/hidden/s/{club.secret}/{suffix}")
    assert secret.status_code == 200
    assert secret["X-Robots-Tag"] == "noindex, nofollow"
    if suffix == "calendar.ics":
        event = next(iter(vevents(calendar(secret)).values()))
        assert str(event["URL"]).endswith(f"/c/hidden/s/{club.secret}/schedule/")
    assert Client().get(f"/c/hidden/s/wrong/{suffix}").status_code == 404


@pytest.mark.parametrize("suffix", PAGES)
def test_a_director_only_club_answers_404_to_everyone_else(
    owner, director, outsider, suffix, today
):
    club = make_club(slug="closed", owner=owner, directors=[director], visibility="director")
    schedule(club, today)
    assert Client().get(url(club, suffix)).status_code == 404
    other = Client()
    other.force_login(outsider)
    assert other.get(url(club, suffix)).status_code == 404
    own = Client()
    own.force_login(director)
    assert own.get(url(club, suffix)).status_code == 200


@pytest.mark.parametrize("suffix", ["calendar.ics", "results.atom"])
def test_an_inactive_club_page_answers_its_feeds_with_402(public, monkeypatch, suffix, today):
    schedule(public, today)
    monkeypatch.setattr(Club, "page_is_active", lambda self: False)
    response = Client().get(url(public, suffix))
    assert response.status_code == 402
    assert response["Content-Type"] == "text/plain; charset=utf-8"
    assert b"Club night" not in response.content


def test_an_inactive_club_page_shows_its_notice_instead_of_the_schedule(public, monkeypatch, today):
    schedule(public, today)
    monkeypatch.setattr(Club, "page_is_active", lambda self: False)
    response = Client().get(url(public, "schedule/"))
    assert "Club night" not in response.content.decode()


def test_the_feeds_follow_a_schedule_change_at_once(public, today):
    night = schedule(public, today)
    Client().get(url(public, "calendar.ics"))  # kept
    schedule(public, today, entry=night, name="Renamed night")
    event = next(iter(vevents(calendar(Client().get(url(public, "calendar.ics")))).values()))
    assert str(event["SUMMARY"]) == "Renamed night"
