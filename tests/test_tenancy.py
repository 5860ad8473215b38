"""An outsider gets 404, never 403, from every club-scoped view."""

import datetime as dt

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from clubs.models import Board, Entry, Evening, Event, Series
from clubs.models import Club as ClubModel
from clubs.tokens import create_token, find_token, revoke_token
from tests.factories import first_ladder, make_club
from tests.security.routes import SCHEDULE_DAY, scheduled

pytestmark = pytest.mark.django_db


def club_scoped_requests(club):
    role = club.roles.get(role="director")
    player = club.players.create(name="Tenancy Canary")
    return [
        ("get", reverse("club_manage", args=[club.slug])),
        ("post", reverse("director_add", args=[club.slug])),
        ("post", reverse("director_remove", args=[club.slug, role.pk])),
        ("post", reverse("ladder_rebuild", args=[club.slug])),
        ("get", reverse("club_page", args=[club.slug])),
        ("get", reverse("club_rating_rules", args=[club.slug])),
        ("get", reverse("club_ladder", args=[club.slug, "main"])),
        ("get", reverse("club_ladder_json_of", args=[club.slug, "main"])),
        ("get", reverse("club_season", args=[club.slug, "2025-26"])),
        ("get", reverse("club_season_ladder", args=[club.slug, "2025-26", "main"])),
        *series_requests(club),
        *schedule_requests(club),
        *embed_requests(club),
        # A player's page of one year (members.web.views.player_page) of a club that is not public.
        ("get", reverse("club_player", args=[club.slug, player.pk]) + "?year=2026"),
        # A later page of the list of events (members.web.views.events_page), by kind too.
        ("get", reverse("club_events", args=[club.slug]) + "?page=2"),
        ("get", reverse("club_events", args=[club.slug]) + "?kind=blitz&page=2"),
        ("get", reverse("audit_log", args=[club.slug])),
        ("get", reverse("player_erase", args=[club.slug, player.pk])),
        ("get", reverse("roster_import", args=[club.slug])),
        ("post", reverse("roster_import", args=[club.slug])),
        ("post", reverse("roster_import_choose", args=[club.slug])),
        ("post", reverse("roster_import_save", args=[club.slug])),
        ("post", reverse("player_erase", args=[club.slug, player.pk])),
        ("get", reverse("billing:page", args=[club.slug])),
        ("post", reverse("billing:subscribe", args=[club.slug])),
        ("post", reverse("billing:portal", args=[club.slug])),
        *ladder_requests(club),
        *night_requests(club, player),
        *api_requests(club, player),
        *token_requests(club),
    ]


def token_requests(club):
    """The API token screens, with a token of the club's."""
    token = create_token(club, "Tenancy script", "publish", None).token
    return [
        ("get", reverse("token_list", args=[club.slug])),
        ("post", reverse("token_list", args=[club.slug])),
        ("post", reverse("token_revoke", args=[club.slug, token.pk])),
    ]


def api_requests(club, player):
    """Every operation of the read API (members/api/), at the club's plain address and under
    a wrong secret, with the queries each takes."""
    event = Event.objects.create(
        club=club, name="Published", date=dt.date(2026, 3, 1), status=Event.Status.PUBLISHED
    )
    requests = []
    for secret in ({}, {"secret": "x" * 32}):
        suffix = "_secret" if secret else ""
        ids = {"slug": club.slug, **secret}
        requests += [
            ("get", reverse(f"api:club{suffix}", kwargs=ids)),
            ("get", reverse(f"api:ladder{suffix}", kwargs={**ids, "ladder": "main"})),
            (
                "get",
                reverse(f"api:ladder{suffix}", kwargs={**ids, "ladder": "main"}) + "?on=2026-01-01",
            ),
            ("get", reverse(f"api:players{suffix}", kwargs=ids) + "?limit=1&offset=1"),
            ("get", reverse(f"api:player{suffix}", kwargs={**ids, "player_id": player.pk})),
            ("get", reverse(f"api:events{suffix}", kwargs=ids) + "?kind=standard"),
            ("get", reverse(f"api:event{suffix}", kwargs={**ids, "event_id": event.pk})),
            ("get", reverse(f"api:schedule{suffix}", kwargs=ids) + "?limit=5"),
        ]
    return requests


def ladder_requests(club):
    """The ladders screen and each ladder's rating settings (the first ladder's old address)."""
    return [
        ("get", reverse("club_ladders", args=[club.slug])),
        ("post", reverse("ladder_add", args=[club.slug])),
        ("post", reverse("ladder_move", args=[club.slug])),
        ("post", reverse("ladder_rename", args=[club.slug, "main"])),
        ("get", reverse("rating_settings", args=[club.slug])),
        ("post", reverse("rating_settings", args=[club.slug])),
        ("get", reverse("ladder_rating_settings", args=[club.slug, "main"])),
        ("post", reverse("ladder_rating_settings", args=[club.slug, "main"])),
    ]


def series_requests(club):
    """A series' page, its file and every directors' series screen (the series made without
    the service, so the club's versions stay untouched)."""
    series = Series.objects.create(club=club, slug="grand-prix", name="Grand Prix")
    ids = [club.slug, series.slug]
    return [
        ("get", reverse("club_series_list", args=[club.slug])),
        ("get", reverse("club_series", args=ids)),
        ("get", reverse("club_series_csv", args=ids)),
        ("get", reverse("series_list", args=[club.slug])),
        ("get", reverse("series_new", args=[club.slug])),
        ("post", reverse("series_new", args=[club.slug])),
        ("get", reverse("series_edit", args=ids)),
        ("post", reverse("series_edit", args=ids)),
        ("post", reverse("series_delete", args=ids)),
    ]


def schedule_requests(club):
    """The schedule's pages and feeds and every directors' schedule screen (the entry made
    without the writes, so the club's versions stay untouched)."""
    entry = scheduled(club, "Tenancy night")
    ids = [club.slug, entry.pk]
    day = [*ids, SCHEDULE_DAY]
    return [
        ("get", reverse("club_schedule", args=[club.slug])),
        ("get", reverse("club_calendar", args=[club.slug])),
        ("get", reverse("club_results_feed", args=[club.slug])),
        ("get", reverse("schedule_list", args=[club.slug])),
        ("get", reverse("schedule_new", args=[club.slug])),
        ("post", reverse("schedule_new", args=[club.slug])),
        ("get", reverse("schedule_edit", args=ids)),
        ("post", reverse("schedule_edit", args=ids)),
        ("post", reverse("schedule_delete", args=ids)),
        ("post", reverse("schedule_cancel", args=day)),
        ("post", reverse("schedule_reinstate", args=day)),
        ("post", reverse("schedule_start_draft", args=day)),
    ]


def embed_requests(club):
    """The embeds made to be framed by the club's own website, and the directors' list of
    the websites allowed to frame them."""
    event = Event.objects.create(
        club=club, name="Embedded", date=dt.date(2026, 3, 1), status=Event.Status.PUBLISHED
    )
    return [
        ("get", reverse("club_embed_ladder", args=[club.slug]) + "?top=5"),
        ("get", reverse("club_embed_ladder_of", args=[club.slug, "main"])),
        ("get", reverse("club_embed_schedule", args=[club.slug])),
        ("get", reverse("club_embed_event", args=[club.slug, event.pk])),
        ("post", reverse("club_embed_origins", args=[club.slug])),
    ]


def night_requests(club, player):
    """Every club-night screen, on a night with a paired round (made without the service,
    so the club's versions stay untouched)."""
    group = Evening.objects.create(club=club, name="Night", date=dt.date(2026, 3, 3))
    night = Event.objects.create(
        club=club, name="Night – Open", date=dt.date(2026, 3, 3), pairing_system="swiss",
        planned_rounds=3, evening=group, section="Open",
    )  # fmt: skip
    first = Entry.objects.create(event=night, typed_name="A", player=player, start_rank=1)
    second = Entry.objects.create(event=night, typed_name="B", start_rank=2)
    Board.objects.create(event=night, round=1, number=1, white=first, black=second)
    ids = [club.slug, night.pk]
    return [
        ("get", reverse("night_start", args=[club.slug])),
        ("post", reverse("night_start", args=[club.slug])),
        ("post", reverse("tiebreak_order", args=[club.slug])),
        ("get", reverse("night_evening", args=ids)),
        ("post", reverse("night_seed", args=ids)),
        ("post", reverse("night_withdraw", args=ids)),
        ("post", reverse("night_bye", args=ids)),
        ("post", reverse("night_byes", args=ids)),
        ("post", reverse("night_bye_settings", args=[club.slug])),
        ("post", reverse("night_add", args=ids)),
        ("post", reverse("night_pair", args=ids)),
        ("post", reverse("night_unpair", args=ids)),
        ("post", reverse("night_publish", args=ids)),
        ("get", reverse("night_standings", args=ids)),
        ("get", reverse("night_results", args=[*ids, 1])),
        ("get", reverse("night_sheet", args=[*ids, 1])),
        ("post", reverse("night_result", args=[*ids, 1, 1])),
        ("post", reverse("night_never_pair", args=ids)),
        ("post", reverse("night_hand_change", args=ids)),
        ("get", reverse("night_print", args=[*ids, 1])),
        ("get", reverse("night_sections_sheet", args=[*ids, 1])),
        ("post", reverse("night_rules", args=ids)),
        ("post", reverse("night_move", args=ids)),
        ("post", reverse("roster_never_pair", args=[club.slug])),
        ("get", reverse("night_manifest", args=[club.slug])),
        ("get", reverse("night_reports", args=[*ids, 1])),
        ("post", reverse("night_board_switch", args=ids)),
    ]


@pytest.mark.parametrize("persona", ["anonymous", "outsider"])
def test_outsiders_get_404_from_every_club_scoped_view(client, club, outsider, persona):
    if persona == "outsider":
        client.force_login(outsider)
    for method, url in club_scoped_requests(club):
        response = getattr(client, method)(url, {"email": "outsider@example.org"})
        assert response.status_code == 404, (method, url, response.status_code)
    assert club.roles.count() == 2
    club.refresh_from_db()
    assert first_ladder(club).data_version == 0


def test_a_wrong_secret_looks_exactly_like_a_missing_club(client, club):
    wrong = client.get(reverse("club_page_secret", args=[club.slug, "x" * 32]))
    missing = client.get(reverse("club_page_secret", args=["no-such-club", "x" * 32]))
    assert wrong.status_code == missing.status_code == 404
    assert wrong.content == missing.content


def test_the_right_secret_opens_an_unlisted_club_without_indexing(client, club):
    response = client.get(reverse("club_page_secret", args=[club.slug, club.secret]))
    assert response.status_code == 200
    assert response["X-Robots-Tag"] == "noindex, nofollow"
    assert '<meta name="robots" content="noindex">' in response.content.decode()


def test_another_clubs_revoked_or_forged_token_opens_nothing_of_the_club(client, club):
    """Every read API address (plain and under a wrong secret) with a token that is not a
    live token of this club: the unknown club's 404; the publish API: 404 or 401."""
    other = make_club(slug="elsewhere-club")
    ClubModel.objects.filter(pk=club.pk).update(visibility=ClubModel.Visibility.UNLISTED)
    revoked = create_token(club, "old", "publish", None).text
    revoke_token(club, "old", None)
    tokens = {
        "another club's": create_token(other, "theirs", "publish", None).text,
        "revoked": revoked,
        "forged": "cpt_" + "A" * 43,
    }
    player = club.players.create(name="Tenancy Canary")
    publish = reverse("api:publish_event", kwargs={"slug": club.slug})
    for label, token in tokens.items():
        headers = {"Authorization": f"Bearer {token}"}
        for _method, url in api_requests(club, player):
            response = client.get(url, headers=headers)
            assert response.status_code == 404, (label, url, response.status_code)
            assert response.json() == {"detail": "Not found."}
        upload = SimpleUploadedFile("x.csv", b"round,white,black,result\n1,A,B,1-0\n")
        form = {"file": upload, "name": "x", "date": "2026-03-01"}
        response = client.post(publish, form, headers=headers)
        want = 404 if label == "another club's" else 401
        assert response.status_code == want, (label, response.status_code)
    assert not Event.objects.filter(club=club, name="x").exists()
    assert find_token(tokens["another club's"]).club == other


def test_a_board_code_opens_its_one_board_and_nothing_of_the_club(client, club, outsider):
    """The players' page behind a slip's code (issue 36) has no club in its address: the access
    helper (clubs.access.board_code_for_visitor) finds a live code or answers 404, and the code
    opens no director's screen of its night."""
    from directors.night.board_reports import round_codes

    player = club.players.create(name="Tenancy Canary")
    night_requests(club, player)  # a night with a paired board, made without the service
    night = Event.objects.get(club=club, name="Night – Open")
    ClubModel.objects.filter(pk=club.pk).update(visibility=ClubModel.Visibility.DIRECTOR)
    from clubs.models import Round

    Round.objects.create(event=night, number=1, pairing=1)
    code = round_codes(Event.objects.select_related("club").get(pk=night.pk), 1)[1]
    client.force_login(outsider)
    assert client.get(reverse("board_report", args=[code.code])).status_code == 200
    for forged in ("ABCDEFGHJKLM", code.code[:-1] + ("2" if code.code[-1] != "2" else "3")):
        assert client.get(reverse("board_report", args=[forged])).status_code == 404
    for name in ("night_reports", "night_results"):
        url = reverse(name, args=[club.slug, night.pk, 1])
        assert client.get(url).status_code == 404
    assert client.post(reverse("night_board_switch", args=[club.slug, night.pk])).status_code == 404
