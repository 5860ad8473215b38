"""NUL, the other control characters, zero-width and bidi marks: cleaned from every text a
visitor or a director sends before any query, so never a 500 and never stored.

The walk requests every route the url confs list, as the club's owner, a director of
another club and an anonymous visitor: every query parameter a view reads, on every
route, and every field of every form a page renders, posted to that form's address.
SQLite stores a NUL without complaint; PostgreSQL refuses one in a query, so the walk runs
there too (DATABASE_URL=postgres://…)."""

from __future__ import annotations

import importlib
import io
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.apps import apps
from django.core.management import call_command
from django.db import connection, models, transaction
from django.test import Client, override_settings
from django.urls import reverse

from clubs.models import Board, Club, ClubInvitation, ClubRole, Entry, Event, Merge, Series, Upload
from clubs.models.club import MAIN_SLUG
from clubs.results import Result
from clubs.tokens import create_token
from ladder.seasons.dates import season_of
from matching import clean_sent_text
from tests.factories import make_club, make_event, make_players, make_user
from tests.security.routes import ROUTES, SCHEDULE_DAY, all_routes, live_board_code, scheduled

pytestmark = pytest.mark.django_db

NUL, RLO = "\x00", "\u202e"  # RLO: right-to-left override, turns "gpj.exe" into "exe.jpg"
HOSTILE = (NUL, RLO)
ROOT = Path(__file__).resolve().parents[2]

# Every query parameter a view reads (test_every_query_parameter_a_view_reads_is_walked
# keeps the list whole), sent on every route.
QUERY_NAMES = (
    "active", "after", "all", "apart", "blank", "checkout", "confirm", "dir", "event", "find",
    "follow", "invitation", "kind", "kept", "merged", "newcomer", "newcomer_junior",
    "newcomer_name", "next", "page", "player", "policy", "q", "round", "show", "sort", "top",
    "year",
)  # fmt: skip


@pytest.fixture
def world():
    owner = make_user("owner@a.example")
    club = make_club(slug="club-a", owner=owner, visibility=Club.Visibility.PUBLIC)
    outsider = make_user("director@b.example")
    make_club(slug="club-b", owner=outsider)
    ann, bob, cid, dan = make_players(club, ["Ann Archer", "Bob Baker", "Cid Carter", "Dan Dale"])
    event = make_event(club, [(1, ann, bob, Result.WHITE_WIN)], name="Spring Open")
    make_event(club, [(1, cid, dan, Result.DRAW)], name="Draft Cup", published=False)
    merge = Merge.objects.create(club=club, kept=ann, merged=cid)
    # The event doubles as a club night with one paired board, so the night screens answer.
    Event.objects.filter(pk=event.pk).update(pairing_system="swiss", planned_rounds=1)
    white, black = Entry.objects.filter(event=event).order_by("start_rank")
    Board.objects.create(event=event, round=1, number=1, white=white, black=black)
    ids = {
        "slug": club.slug,
        "secret": club.secret,
        "ladder": MAIN_SLUG,
        "role_id": ClubRole.objects.get(club=club, user=owner).pk,
        "player_id": ann.pk,
        "event_id": event.pk,
        "entry_id": white.pk,
        "merge_id": merge.pk,
        "other_player_id": bob.pk,
        "uidb64": "MQ",
        "token": "not-a-token",
        "share_token": event.share_token,
        "code": "nl",
        "round_number": 1,
        "board_number": 1,
        "upload_id": Upload.objects.create(club=club, event=event, user=owner).pk,
        "season": season_of(event.date, club.season_start_month).label,
        "series": Series.objects.create(
            club=club, slug="grand-prix", name="Grand Prix", kinds=["standard"],
            date_from=event.date, date_to=event.date,
        ).slug,
        "schedule_id": scheduled(club).pk, "day": SCHEDULE_DAY,
        "token_id": create_token(club, "edges", "read", None).token.pk,
        # A board code of a night of a club of its own: the world's events stay as they are.
        "board_code": live_board_code(make_club(slug="club-c")),
        "invitation_id": ClubInvitation.objects.create(club=club, email_hash="x").pk,
    }  # fmt: skip
    return ids, {"owner": owner, "outsider": outsider, "anonymous": None}


# Form fields a person types into: the walk writes its characters into these.
TYPED = {"text", "search", "textarea"}
# A value a form accepts in a field of each type that has none of its own.
PLAIN = {"text": "Zed Zulu", "search": "Ann", "textarea": "Zed Zulu", "date": "2026-10-01",
         "number": "1", "email": "someone@example.org", "checkbox": "on"}  # fmt: skip

Field = tuple[str, str]  # (type, value)


class Forms(HTMLParser):
    """The forms of a page: method, action and every named field with its type and value."""

    def __init__(self) -> None:
        super().__init__()
        self.forms: list[tuple[str, str, dict[str, Field]]] = []
        self._select: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "form":
            self.forms.append((a.get("method", "get").lower(), a.get("action", ""), {}))
        elif not self.forms:
            return
        elif tag == "option" and self._select and self._select not in self.forms[-1][2]:
            self.forms[-1][2][self._select] = ("select", a.get("value", ""))
        elif tag in ("input", "button") and "name" in a:
            kind = a.get("type", "text") if tag == "input" else "button"
            value = a.get("value", "") or PLAIN.get(kind, "")
            self.forms[-1][2].setdefault(a["name"], (kind, value))
        elif tag == "textarea" and "name" in a:
            self.forms[-1][2].setdefault(a["name"], ("textarea", PLAIN["textarea"]))
        elif tag == "select" and "name" in a:
            self._select = a["name"]

    def handle_endtag(self, tag: str) -> None:
        if tag == "select":
            self._select = None


def page_forms(html: str) -> list[tuple[str, str, dict[str, Field]]]:
    parser = Forms()
    parser.feed(html)
    return parser.forms


def hostile_versions(fields: dict[str, Field], char: str) -> list[dict[str, str]]:
    """The char alone in every field; and the form as a person fills it in, with the char
    inside every typed text (which the form may then accept and store)."""
    return [
        {name: char for name in fields},
        {name: f"{value[:1]}{char}{value[1:]}" if kind in TYPED else value
         for name, (kind, value) in fields.items()},
    ]  # fmt: skip


def stored_hostile_text() -> list[str]:
    """Every text of the project's own tables holding a NUL or a bidi or zero-width mark."""
    found = []
    for model in apps.get_models():
        if model._meta.app_label not in {"clubs", "ladder", "billing"}:
            continue
        texts = [
            f.name
            for f in model._meta.concrete_fields
            if isinstance(f, (models.CharField, models.TextField, models.JSONField))
        ]
        for row in model.objects.values_list("pk", *texts):
            for name, value in zip(texts, row[1:], strict=True):
                if isinstance(value, (dict, list)):
                    value = repr(value)
                if isinstance(value, str) and clean_sent_text(value) != value:
                    found.append(f"{model._meta.label}.{name} #{row[0]}: {value!r}")
    return found


def walk(ids, users) -> list[str]:
    failures: list[str] = []

    def check(response, what: str) -> None:
        if response.status_code >= 500:
            failures.append(f"{what}: {response.status_code}")

    for route in all_routes():
        methods = ROUTES[route.name][1]
        url = reverse(route.name, kwargs={p: ids[p] for p in route.params})
        for persona, user in users.items():
            client = Client(raise_request_exception=False)
            if user is not None:
                client.force_login(user)
            # Each route's requests run in a savepoint that is rolled back after the check,
            # so a deleting post does not take the next route's objects away.
            with transaction.atomic():
                for char in HOSTILE:
                    query = {name: f"1{char}" for name in QUERY_NAMES}
                    check(client.get(url, query), f"GET {url} {char!r} as {persona}")
                forms: list[tuple[str, str, dict[str, Field]]] = []
                if "GET" in methods:
                    page = client.get(url)
                    if page.status_code == 200 and "html" in page.get("Content-Type", ""):
                        forms = page_forms(page.content.decode())
                if "POST" in methods and not any(m == "post" for m, _a, _f in forms):
                    forms.append(("post", url, {name: ("text", "Ann") for name in QUERY_NAMES}))
                for method, action, fields in forms:
                    target = action or url
                    if not target.startswith("/") or target == reverse("logout"):
                        continue  # signing out would end the persona's walk
                    for char in HOSTILE:
                        for data in hostile_versions(fields, char):
                            response = getattr(client, method)(target, data)
                            check(response, f"{method.upper()} {target} {data} as {persona}")
                failures += [f"after {route.name} as {persona}: {s}" for s in stored_hostile_text()]
                transaction.set_rollback(True)
    return failures


def test_no_nul_or_bidi_mark_anywhere_is_a_500_or_stored(world):
    if connection.vendor == "postgresql":
        pytest.skip("the walk marked postgres below covers this database")
    ids, users = world
    # The per-address limits (tests/clubs/accounts/test_accounts.py) would answer 429, hide forms.
    with override_settings(ADDRESS_RATE_LIMIT=100_000):
        assert walk(ids, users) == []


@pytest.mark.postgres
def test_no_nul_or_bidi_mark_anywhere_is_a_500_or_stored_on_postgresql(world):
    ids, users = world
    with override_settings(ADDRESS_RATE_LIMIT=100_000):
        assert walk(ids, users) == []


def test_every_query_parameter_a_view_reads_is_walked():
    read = set()
    for folder in ("clubs", "ladder", "billing", "members", "directors", "config"):
        for source in (ROOT / folder).rglob("*.py"):
            read |= set(re.findall(r"request\.GET(?:\.get\(|\[)\"(\w+)\"", source.read_text()))
    assert read and read <= set(QUERY_NAMES)


@pytest.mark.parametrize("char", ["\x00", "\u202e", "\u200b", "\u2066", "\ufeff", "\x07"])
def test_the_club_night_search_takes_any_character(client, world, char):
    ids, users = world
    client.force_login(users["owner"])
    start = reverse("night_start", args=[ids["slug"]])
    response = client.get(start, {"find": f"Ann{char}"})
    assert response.status_code == 200 and "Ann Archer" in response.content.decode()


@pytest.mark.parametrize("char", ["\u202e", "\u200b", "\u200f", "\u2067", "\ufeff", "\x00"])
def test_an_event_name_is_stored_without_invisible_or_bidi_characters(client, world, char):
    ids, users = world
    client.force_login(users["owner"])
    response = client.post(
        reverse("event_create", args=[ids["slug"]]),
        {"name": f"Autumn{char} Open{char}", "date": "2026-10-01", "order_in_day": "0",
         "kind": "standard", "rated": "on"},
    )  # fmt: skip
    assert response.status_code == 302
    assert Event.objects.filter(name="Autumn Open").count() == 1


@pytest.mark.parametrize("char", ["\u202e", "\u200b", "\u200d", "\u2069", "\ufeff", "\x00"])
def test_a_club_name_is_stored_without_invisible_or_bidi_characters(client, world, char):
    _ids, users = world
    client.force_login(users["outsider"])
    with override_settings(ADDRESS_RATE_LIMIT=100_000):
        response = client.post(
            reverse("club_create"),
            {"name": f"{char}Queens{char} Club", "slug": "queens", "language": "en"},
        )
    assert response.status_code == 302
    assert Club.objects.get(slug="queens").name == "Queens Club"


def test_a_club_name_of_only_invisible_characters_is_refused(client, world):
    _ids, users = world
    client.force_login(users["outsider"])
    response = client.post(
        reverse("club_create"), {"name": "\u200b\u202e", "slug": "blank", "language": "en"}
    )
    assert response.status_code == 200 and not Club.objects.filter(slug="blank").exists()


def test_createclub_stores_the_name_without_invisible_or_bidi_characters():
    call_command("createclub", "bishops", "--name", "Bish\u202eops\u200b", stdout=io.StringIO())
    assert Club.objects.get(slug="bishops").name == "Bishops"


@pytest.mark.parametrize("path", ["results/%00/", "results/%E2%80%AE/", "c/club-a/s/%00/"])
def test_a_path_holding_a_nul_or_a_bidi_mark_is_a_404(path):
    assert Client().get(f"/{path}").status_code == 404


def test_a_password_is_posted_as_typed(client, world):
    """Passwords are compared, never shown or queried: cleaning would change them."""
    _ids, users = world
    owner = users["owner"]
    owner.set_password("zero\u200bwidth-password-1")
    owner.save()
    response = client.post(
        reverse("login"),
        {"username": owner.email, "password": "zero\u200bwidth-password-1"},
    )
    assert response.status_code == 302


SENT = [
    pytest.param("a\x00b", "ab", id="nul"),
    pytest.param("a\x07\x1b[31mb\x7f", "a[31mb", id="bell-escape-delete"),
    pytest.param("a\x85b", "ab", id="c1-control"),
    pytest.param("1\tAnn\r\nBob\n", "1\tAnn\r\nBob\n", id="tabs-and-line-breaks-kept"),
    pytest.param("An\u200bn\u200c\u200d\u2060a", "Anna", id="zero-width"),
    pytest.param("\u200e\u200fA\u202a\u202b\u202c\u202d\u202eB", "AB", id="bidi-marks"),
    pytest.param("\u2066A\u2067\u2068\u2069\u061c", "A", id="bidi-isolates"),
    pytest.param("\ufeffAnn", "Ann", id="byte-order-mark"),
    pytest.param("Mu\u0308ller", "Müller", id="nfc"),
    pytest.param("Anna  de\u00a0Vries ", "Anna  de\u00a0Vries ", id="spaces-as-sent"),
    pytest.param("रैंकिंग", "रैंकिंग", id="devanagari"),
]


@pytest.mark.parametrize(("sent", "clean"), SENT)
def test_sent_text_loses_controls_and_invisible_marks_and_keeps_its_layout(sent, clean):
    assert clean_sent_text(sent) == clean


def test_names_stored_before_are_cleaned_by_the_migration(world):
    migration = importlib.import_module("clubs.migrations.0019_clean_names")
    club = Club.objects.get(slug="club-a")
    Club.objects.filter(pk=club.pk).update(name="Club\u202e A\u200b")
    Event.objects.filter(name="Spring Open").update(name="Spring\u2067 Open\ufeff")
    Event.objects.filter(name="Draft Cup").update(name="\u200b\u202e")
    migration.clean_names(apps, None)
    assert Club.objects.get(pk=club.pk).name == "Club A"
    assert set(Event.objects.filter(club=club).values_list("name", flat=True)) == {
        "Spring Open",
        "2026-01-10",
    }
    assert Club.objects.get(pk=club.pk).pages_version == club.pages_version + 1
    assert Club.objects.get(slug="club-b").pages_version == 0
