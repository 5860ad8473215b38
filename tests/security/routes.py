"""Every URL pattern of the project, with the objects of a real club to fill it in."""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Iterator
from dataclasses import dataclass

from django.apps import apps
from django.urls import URLPattern, URLResolver, get_resolver

# Who may use a route:
#   public    everyone
#   login     any signed-in user (anonymous visitors are sent to the login page)
#   director  the club's directors and owner
#   owner     the club's owner only
#   visitor   whoever may see the club's pages: for an unlisted club the secret
#             URL is open to all, the plain URL only to directors
#   webhook   Stripe's calls (billing is off in these tests: 404)
#   admin     staff only (the Django admin)
#   redirect  everyone, answered with a redirect (the language switcher's links)
#   link      everyone holding an event's own results link (a wrong one is a 404 to all)
#   invitation  the signed-in account a director invitation was mailed to; anonymous
#             visitors are sent to the login page, everyone else (and any wrong link) 404
#   absent    a library's placeholder address that answers 404 to everyone
#   token     a program holding a club's API token (Authorization: Bearer): without one a
#             JSON 401 to every persona, a browser session opens nothing
#   board     everyone holding a live board code of a club night's result slip (issue 36):
#             that one board's page and its report form; a wrong or expired code is a 404 to all
ROUTES: dict[str, tuple[str, frozenset[str]]] = {}


def route(name: str, access: str, *methods: str) -> None:
    ROUTES[name] = (access, frozenset(methods))


for name in ("home", "healthz", "livez", "readyz", "signup", "login", "password_reset",
             "password_reset_done", "password_reset_confirm", "password_reset_complete",
             "club_directory", "robots_txt", "sitemap"):  # fmt: skip
    route(name, "public", "GET")
route("signup", "public", "GET", "POST")
route("signup_sent", "public", "GET")
route("signup_confirm", "public", "GET", "POST")
route("signin_link", "public", "GET", "POST")
route("login", "public", "GET", "POST")
route("password_reset", "public", "GET", "POST")
route("logout", "public", "POST")
route("choose_language", "redirect", "GET")
route("club_create", "login", "GET", "POST")
route("billing:webhook", "webhook", "POST")

for name in ("club_manage", "audit_log", "roster_players", "roster_player", "roster_duplicates",
             "roster_merge_confirm", "roster_merges", "event_list", "event_detail",
             "event_results", "event_preview", "event_export_trf",
             "event_export_csv", "event_upload_progress"):  # fmt: skip
    route(name, "director", "GET")
for name in ("ladder_rebuild", "roster_player_details", "roster_dismiss", "roster_merge",
             "roster_merge_undo", "roster_player_rename", "roster_player_delete",
             "roster_first_last", "roster_player_release",
             "event_upload", "event_paste", "event_entry_add", "event_entry_remove",
             "event_names_bulk",
             "event_publish", "event_unpublish", "event_delete", "event_restore",
             "event_share_rotate", "club_rotate_secret", "club_embed_origins"):  # fmt: skip
    route(name, "director", "POST")
for name in ("player_erase", "roster_repoint", "roster_player_add", "event_create",
             "event_edit", "event_grid", "event_names", "club_settings"):  # fmt: skip
    route(name, "director", "GET", "POST")

route("rating_settings", "director", "GET", "POST")
# The roster import: the form and its preview (a POST), the answers about close names, and
# the save of a preview.
route("roster_import", "director", "GET", "POST")
route("roster_import_choose", "director", "POST")
route("roster_import_save", "director", "POST")
# The ladders screen: the list, and each change to it (previewed by a POST, made by another).
route("club_ladders", "director", "GET")
for name in ("ladder_add", "ladder_move", "ladder_rename"):
    route(name, "director", "POST")
route("ladder_rating_settings", "director", "GET", "POST")
# The Grand Prix series screens: the list, a new one, an edit (each form posts to itself).
route("series_list", "director", "GET")
route("series_new", "director", "GET", "POST")
route("series_edit", "director", "GET", "POST")
route("series_delete", "director", "POST")
# The schedule screens: the list, a new entry, an edit, and each change to one date.
route("schedule_list", "director", "GET")
route("schedule_new", "director", "GET", "POST")
route("schedule_edit", "director", "GET", "POST")
for name in ("schedule_delete", "schedule_cancel", "schedule_reinstate", "schedule_start_draft"):
    route(name, "director", "POST")
# The API token screens.
route("token_list", "director", "GET", "POST")
route("token_revoke", "director", "POST")
for name in ("night_evening", "night_sheet", "night_results", "night_standings", "night_print",
             "night_sections_sheet", "night_reports"):  # fmt: skip
    route(name, "director", "GET")
for name in ("night_seed", "night_withdraw", "night_bye", "night_byes", "night_bye_settings",
             "night_add", "night_pair",
             "night_unpair", "night_publish", "night_result", "tiebreak_order",
             "night_never_pair", "night_hand_change", "roster_never_pair", "night_rules",
             "night_move", "night_board_switch"):  # fmt: skip
    route(name, "director", "POST")
route("night_start", "director", "GET", "POST")
# The club night as an app: the club's manifest, and the service worker (no club data).
route("night_manifest", "director", "GET")
route("night_service_worker", "public", "GET")
route("event_correction", "director", "POST")
route("event_confirm", "director", "POST")

route("director_add", "owner", "POST")
route("invitation_revoke", "owner", "POST")
route("invitation_accept", "invitation", "GET", "POST")
route("director_remove", "owner", "POST")
route("billing:page", "owner", "GET")
route("billing:subscribe", "owner", "POST")
route("billing:portal", "owner", "POST")

route("board_report", "board", "GET", "POST")
route("shared_event", "link", "GET")
route("shared_event_rounds", "link", "GET")
route("shared_event_wallchart", "link", "GET")
route("shared_event_ratings", "link", "GET")

for name in ("club_page", "club_ladder_csv", "club_ladder_json", "club_seeding_trf",
             "club_seeding_csv", "club_roster", "club_player", "club_events",
             "club_event", "club_event_rounds", "club_event_wallchart", "club_event_ratings",
             "club_event_trf",
             "club_event_csv", "club_event_live", "club_rating_rules", "club_seasons",
             "club_season", "club_season_ladder", "club_ladder", "club_ladder_csv_of",
             "club_ladder_json_of",
             "club_seeding_trf_of", "club_seeding_csv_of", "club_series_list", "club_series",
             "club_series_csv", "club_schedule", "club_calendar",
             "club_results_feed", "club_embed_ladder", "club_embed_ladder_of",
             "club_embed_schedule", "club_embed_event"):  # fmt: skip
    route(name, "visitor", "GET")
    route(f"{name}_secret", "visitor", "GET")

# The read API (members/api/): the same walls as the pages, an unlisted club's plain address
# only for its directors; its schema and root for everyone.
for name in ("club", "ladder", "players", "player", "events", "event", "schedule"):
    route(f"api:{name}", "visitor", "GET")
    route(f"api:{name}_secret", "visitor", "GET")
route("api:openapi-json", "public", "GET")
# The publish API (directors/api.py): a publish token of the club only (its tests:
# tests/directors/test_publish_api.py).
route("api:publish_event", "token", "POST")
# ninja's root, named so that it can reverse its operations' addresses: with no docs page it
# is the API's JSON 404 for everyone.
route("api:api-root", "absent", "GET")


@dataclass(frozen=True)
class Route:
    name: str
    pattern: str
    params: tuple[str, ...]


def all_routes() -> Iterator[Route]:
    """Every named URL pattern outside the Django admin (which has its own test)."""

    def walk(patterns: list, prefix: str, namespace: str) -> Iterator[Route]:
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                ns = pattern.namespace or namespace
                if ns == "admin":
                    continue
                yield from walk(pattern.url_patterns, prefix + str(pattern.pattern), ns)
            elif isinstance(pattern, URLPattern) and pattern.name:
                name = f"{namespace}:{pattern.name}" if namespace else pattern.name
                yield Route(name, prefix + str(pattern.pattern), tuple(pattern.pattern.converters))

    seen: set[str] = set()
    for r in walk(get_resolver().url_patterns, "", ""):
        if r.name not in seen:  # the first pattern of a name is the one reverse() uses
            seen.add(r.name)
            yield r


# A date of the weekly club night `scheduled` makes: the schedule routes' <day>.
SCHEDULE_DAY = "2026-01-13"


def scheduled(club, name: str = "Club night"):
    """A weekly club night on the club's schedule from January 2026 for two years (so its
    pages and feeds list dates whatever the day), made without the writes so the club's
    versions stay untouched; its id fills the schedule routes' <schedule_id>."""
    from clubs.models import ScheduleEntry

    first = dt.date(2026, 1, 6)
    return ScheduleEntry.objects.create(
        club=club, name=name, date=first, start_time=dt.time(19, 30), place="Hall",
        weekly_until=first + dt.timedelta(weeks=103),
    )  # fmt: skip


def live_board_code(club) -> str:
    """A live code of board 1 of a club night being played (a draft of its own, made without
    the service): the board_report route's <board_code>, open to everyone who holds it."""
    from clubs.models import Board, Entry, Event, Round
    from directors.night.board_reports import round_codes

    night = Event.objects.create(
        club=club, name="Board night", date=dt.date(2026, 3, 3), pairing_system="swiss",
        planned_rounds=2,
    )  # fmt: skip
    white = Entry.objects.create(event=night, typed_name="A", start_rank=1)
    black = Entry.objects.create(event=night, typed_name="B", start_rank=2)
    Board.objects.create(event=night, round=1, number=1, white=white, black=black)
    Round.objects.create(event=night, number=1, pairing=1)
    return round_codes(Event.objects.select_related("club").get(pk=night.pk), 1)[1].code


def database_checksum() -> dict[str, str]:
    """A digest per table of every row of the project's own tables."""
    checksums = {}
    for model in apps.get_models():
        if model._meta.app_label not in {"clubs", "ladder", "billing"}:
            continue
        if model._meta.label == "clubs.User":
            continue  # signing in writes last_login; users are not club data
        rows = sorted(model.objects.values_list(), key=repr)
        checksums[model._meta.label] = hashlib.sha256(repr(rows).encode()).hexdigest()
    return checksums
