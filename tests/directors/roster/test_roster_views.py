"""The directors' roster screens: duplicates, merge and undo, re-point; tenancy and forgery."""

import datetime as dt

import pytest
from django.test import Client
from django.urls import reverse

from clubs.models import AuditEntry, Club, DuplicateDismissal, Entry, Merge, Player, PlayerAlias
from clubs.results import Result
from directors.roster.merging import merge_players
from ladder.replay import verify_ladder
from tests.factories import (
    first_ladder,
    make_club,
    make_event,
    make_players,
    rated_players,
    standing,
)

pytestmark = pytest.mark.django_db

W, D = Result.WHITE_WIN, Result.DRAW


@pytest.fixture
def on_commit(django_capture_on_commit_callbacks):
    return lambda: django_capture_on_commit_callbacks(execute=True)


@pytest.fixture
def roster(club):
    """Emma de Vries, entered once more as "E. de Vries", and two other members."""
    emma, initial, bob, cid = make_players(
        club, ["Emma de Vries", "E. de Vries", "Bob Visser", "Cid Mulder"]
    )
    make_event(club, [(1, emma, bob, W)], date=dt.date(2026, 1, 1), name="January")
    make_event(club, [(1, initial, cid, D)], date=dt.date(2026, 2, 1), name="February")
    return {"emma": emma, "initial": initial, "bob": bob, "cid": cid}


@pytest.fixture
def signed_in(client, director):
    client.force_login(director)
    return client


def state(club):
    """What any of these screens could change."""
    return (
        list(rated_players().filter(club=club).order_by("pk").values_list("pk", "merged_into_id")),
        list(Entry.objects.filter(event__club=club).order_by("pk").values_list("pk", "player_id")),
        list(PlayerAlias.objects.order_by("pk").values_list("pk", "player_id", "name")),
        Merge.objects.count(),
        list(Merge.objects.order_by("pk").values_list("pk", "undone_at")),
        DuplicateDismissal.objects.count(),
        AuditEntry.objects.count(),
        first_ladder(club.pk).data_version,
    )


def url(name, club, *args):
    return reverse(name, args=[club.slug, *args])


# Screens


def test_the_roster_lists_active_players_with_links(signed_in, club, roster, on_commit):
    emma, initial = roster["emma"], roster["initial"]
    with on_commit():
        merge_players(club, emma, initial, None)
    page = signed_in.get(url("roster_players", club)).content.decode()
    assert url("roster_player", club, emma.pk) in page
    assert url("roster_player", club, initial.pk) not in page
    assert url("roster_duplicates", club) in page and url("roster_merges", club) in page


def test_a_player_page_links_each_entry_to_its_repoint_screen(signed_in, club, roster):
    emma = roster["emma"]
    response = signed_in.get(url("roster_player", club, emma.pk))
    entry = emma.entries.get()
    assert response.status_code == 200
    assert url("roster_repoint", club, entry.pk) in response.content.decode()


def test_the_duplicates_screen_shows_the_pair_with_its_reason(signed_in, club, roster):
    emma, initial = roster["emma"], roster["initial"]
    page = signed_in.get(url("roster_duplicates", club)).content.decode()
    assert "Initial for a first name" in page
    assert f"?kept={emma.pk}&amp;merged={initial.pk}" in page


def test_dismissing_a_pair_hides_it_from_the_duplicates_screen(signed_in, club, roster):
    emma, initial = roster["emma"], roster["initial"]
    response = signed_in.post(
        url("roster_dismiss", club), {"first": initial.pk, "second": emma.pk}, follow=True
    )
    assert "will not be suggested as duplicates again" in response.content.decode()
    dismissal = DuplicateDismissal.objects.get(club=club)
    assert (dismissal.first, dismissal.second) == (emma, initial)
    page = signed_in.get(url("roster_duplicates", club)).content.decode()
    assert "No possible duplicates" in page


def test_the_merge_confirmation_shows_both_records_side_by_side(signed_in, club, roster):
    emma, initial = roster["emma"], roster["initial"]
    response = signed_in.get(
        url("roster_merge_confirm", club), {"kept": emma.pk, "merged": initial.pk}
    )
    page = response.content.decode()
    assert response.status_code == 200
    assert "January" in page and "February" in page
    assert "Games played" in page and "Rated games" in page
    assert f'action="{url("roster_merge", club)}"' in page
    assert not Merge.objects.exists()


def test_the_confirmation_says_why_two_players_of_one_event_cannot_merge(signed_in, club, roster):
    emma, bob = roster["emma"], roster["bob"]
    response = signed_in.get(url("roster_merge_confirm", club), {"kept": emma.pk, "merged": bob.pk})
    page = response.content.decode()
    assert "Both players played in January" in page
    assert f'action="{url("roster_merge", club)}"' not in page


def test_merging_and_undoing_from_the_screens(signed_in, club, roster, director, on_commit):
    emma, initial = roster["emma"], roster["initial"]
    with on_commit():
        response = signed_in.post(
            url("roster_merge", club), {"kept": emma.pk, "merged": initial.pk}
        )
    assert response.status_code == 302
    assert response["Location"] == url("roster_player", club, emma.pk)
    merge = Merge.objects.get()
    assert (merge.kept, merge.merged, merge.created_by) == (emma, initial, director)
    assert emma.entries.count() == 2
    assert verify_ladder(club) == []
    page = signed_in.get(url("roster_merges", club)).content.decode()
    assert url("roster_merge_undo", club, merge.pk) in page
    with on_commit():
        response = signed_in.post(url("roster_merge_undo", club, merge.pk), follow=True)
    assert "are two players again" in response.content.decode()
    assert (emma.entries.count(), initial.entries.count()) == (1, 1)
    assert verify_ladder(club) == []
    again = signed_in.post(url("roster_merge_undo", club, merge.pk), follow=True)
    assert "already been undone" in again.content.decode()


def test_the_merges_screen_says_which_merge_to_undo_first(signed_in, club, roster, on_commit):
    emma, initial, cid = roster["emma"], roster["initial"], roster["cid"]
    dee = make_players(club, ["Dee Jansen"])[0]
    with on_commit():
        first = merge_players(club, emma, initial, None)
        merge_players(club, dee, emma, None)
    page = signed_in.get(url("roster_merges", club)).content.decode()
    assert url("roster_merge_undo", club, first.pk) not in page
    assert "Undo the later merge of Emma de Vries into Dee Jansen first." in page
    before = state(club)
    response = signed_in.post(url("roster_merge_undo", club, first.pk), follow=True)
    assert "Undo the later merge" in response.content.decode()
    assert state(club) == before
    assert cid.entries.count() == 1


def test_repointing_from_the_screens(signed_in, club, roster, on_commit):
    initial, cid, emma = roster["initial"], roster["cid"], roster["emma"]
    entry = initial.entries.get()
    page = signed_in.get(url("roster_repoint", club, entry.pk)).content.decode()
    assert f'name="player" value="{emma.pk}"' in page  # a suggestion for "E. de Vries"
    # The event is published: each re-point waits on its confirm page (tests/clubs/
    # test_confirm_changes.py), then applies.
    with on_commit():
        shown = signed_in.post(url("roster_repoint", club, entry.pk), {"player": emma.pk})
        response = signed_in.post(
            reverse("event_confirm", args=[club.slug, entry.event_id]),
            {"token": shown.context["pending"].token},
        )
    assert response.status_code == 302
    entry.refresh_from_db()
    assert entry.player == emma
    with on_commit():
        shown = signed_in.post(url("roster_repoint", club, entry.pk), {"new_name": "Eva de Vries"})
        signed_in.post(
            reverse("event_confirm", args=[club.slug, entry.event_id]),
            {"token": shown.context["pending"].token},
        )
    entry.refresh_from_db()
    assert entry.player.name == "Eva de Vries"
    assert AuditEntry.objects.filter(club=club, action="entry.repointed").count() == 2
    assert cid.entries.count() == 1
    assert verify_ladder(club) == []


# Forged forms


@pytest.mark.parametrize(
    "forged",
    [
        "other-club",
        "merged",
        "same-twice",
        "not-a-number",
        "too-large",
        "missing",
    ],
)
def test_a_forged_merge_form_stores_nothing(signed_in, club, roster, on_commit, forged):
    emma, bob = roster["emma"], roster["bob"]
    dee = make_players(club, ["Dee Jansen"])[0]
    with on_commit():
        merge_players(club, bob, dee, None)
    stranger = make_players(make_club(slug="other"), ["Emma de Vries"])[0]
    data = {
        "other-club": {"kept": emma.pk, "merged": stranger.pk},
        "merged": {"kept": emma.pk, "merged": dee.pk},
        "same-twice": {"kept": emma.pk, "merged": emma.pk},
        "not-a-number": {"kept": emma.pk, "merged": "2; DROP TABLE"},
        "too-large": {"kept": emma.pk, "merged": 2**70},
        "missing": {"kept": emma.pk},
    }[forged]
    before = state(club)
    for name in ("roster_merge", "roster_merge_confirm"):
        send = signed_in.post if name == "roster_merge" else signed_in.get
        response = send(url(name, club), data)
        assert response.status_code == 400, (name, forged)
        assert 'role="alert"' in response.content.decode()
    response = signed_in.post(
        url("roster_dismiss", club),
        {"first": data["kept"], "second": data.get("merged", "")},
        follow=True,
    )
    assert "Choose two different players" in response.content.decode()
    assert state(club) == before


@pytest.mark.parametrize(
    "data",
    [
        pytest.param({}, id="neither"),
        pytest.param({"player": "x"}, id="not-a-number"),
        pytest.param({"player": "OTHER"}, id="other-club"),
        pytest.param({"player": "MERGED"}, id="merged"),
        pytest.param({"player": "CURRENT"}, id="current"),
        pytest.param({"player": "EMMA", "new_name": "Eva de Vries"}, id="both"),
        pytest.param({"new_name": "x" * 121}, id="name-too-long"),
    ],
)
def test_a_forged_repoint_form_stores_nothing(signed_in, club, roster, on_commit, data):
    emma, initial, bob = roster["emma"], roster["initial"], roster["bob"]
    dee = make_players(club, ["Dee Jansen"])[0]
    with on_commit():
        merge_players(club, bob, dee, None)
    ids = {
        "OTHER": make_players(make_club(slug="other"), ["Emma de Vries"])[0].pk,
        "MERGED": dee.pk,
        "CURRENT": initial.pk,
        "EMMA": emma.pk,
    }
    data = {key: ids.get(value, value) for key, value in data.items()}
    before = state(club)
    entry = initial.entries.get()
    response = signed_in.post(url("roster_repoint", club, entry.pk), data)
    assert response.status_code == 400
    assert 'role="alert"' in response.content.decode()
    assert state(club) == before


def test_mutations_refuse_get(signed_in, club, roster, on_commit):
    emma, initial = roster["emma"], roster["initial"]
    with on_commit():
        merge = merge_players(club, emma, initial, None)
    before = state(club)
    for target in (
        url("roster_merge", club),
        url("roster_dismiss", club),
        url("roster_merge_undo", club, merge.pk),
    ):
        query = {"kept": emma.pk, "merged": initial.pk, "first": emma.pk, "second": initial.pk}
        assert signed_in.get(target, query).status_code == 405
    assert state(club) == before


def test_a_post_without_a_csrf_token_is_refused(club, roster, director, on_commit):
    emma, initial, bob = roster["emma"], roster["initial"], roster["bob"]
    with on_commit():
        merge = merge_players(club, bob, make_players(club, ["Dee Jansen"])[0], None)
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(director)
    before = state(club)
    entry = initial.entries.get()
    for target, data in [
        (url("roster_merge", club), {"kept": emma.pk, "merged": initial.pk}),
        (url("roster_dismiss", club), {"first": emma.pk, "second": initial.pk}),
        (url("roster_merge_undo", club, merge.pk), {}),
        (url("roster_repoint", club, entry.pk), {"player": emma.pk}),
    ]:
        assert strict.post(target, data).status_code == 403, target
    assert state(club) == before


# Tenancy


def every_screen_and_action(club, roster, merge):
    emma, initial = roster["emma"], roster["initial"]
    pair = {"kept": emma.pk, "merged": initial.pk, "first": emma.pk, "second": initial.pk}
    entry = initial.entries.get()
    return [
        ("get", url("roster_players", club), {}),
        ("get", url("roster_player", club, emma.pk), {}),
        ("get", url("roster_duplicates", club), {}),
        ("post", url("roster_dismiss", club), pair),
        ("get", url("roster_merge_confirm", club), pair),
        ("post", url("roster_merge", club), pair),
        ("get", url("roster_merges", club), {}),
        ("post", url("roster_merge_undo", club, merge.pk), {}),
        ("get", url("roster_repoint", club, entry.pk), {}),
        ("post", url("roster_repoint", club, entry.pk), {"new_name": "Someone Else"}),
        ("post", url("roster_repoint", club, entry.pk), {"player": emma.pk}),
    ]


@pytest.mark.parametrize("persona", ["anonymous", "outsider"])
def test_outsiders_get_404_from_every_roster_screen_and_action(
    client, club, roster, outsider, on_commit, persona
):
    with on_commit():
        merge = merge_players(club, roster["bob"], make_players(club, ["Dee Jansen"])[0], None)
    if persona == "outsider":
        client.force_login(outsider)
    before = state(club)
    for method, target, data in every_screen_and_action(club, roster, merge):
        response = getattr(client, method)(target, data)
        assert response.status_code == 404, (persona, method, target, response.status_code)
    assert state(club) == before


def test_a_director_of_another_club_cannot_reach_this_clubs_ids_through_their_own(
    client, club, roster, outsider, on_commit
):
    with on_commit():
        merge = merge_players(club, roster["bob"], make_players(club, ["Dee Jansen"])[0], None)
    elsewhere = Club.objects.get(slug="elsewhere")
    own = make_players(elsewhere, ["Own Player", "Other Own"])
    own_entry = make_event(elsewhere, [(1, own[0], own[1], W)]).entries.first()
    client.force_login(outsider)
    before = state(club)
    emma, initial = roster["emma"], roster["initial"]
    entry = initial.entries.get()
    for method, target in [
        ("get", url("roster_player", elsewhere, emma.pk)),
        ("post", url("roster_merge_undo", elsewhere, merge.pk)),
        ("get", url("roster_repoint", elsewhere, entry.pk)),
        ("post", url("roster_repoint", elsewhere, entry.pk)),
    ]:
        assert getattr(client, method)(target).status_code == 404, target
    pair = {"kept": emma.pk, "merged": initial.pk}
    assert client.get(url("roster_merge_confirm", elsewhere), pair).status_code == 400
    assert client.post(url("roster_merge", elsewhere), pair).status_code == 400
    client.post(url("roster_dismiss", elsewhere), {"first": emma.pk, "second": initial.pk})
    mixed = {"kept": own[1].pk, "merged": emma.pk}
    assert client.post(url("roster_merge", elsewhere), mixed).status_code == 400
    response = client.post(url("roster_repoint", elsewhere, own_entry.pk), {"player": emma.pk})
    assert response.status_code == 400
    assert state(club) == before
    own_entry.refresh_from_db()
    assert own_entry.player == own[0]


def test_a_director_records_junior_consent_and_a_starting_estimate(
    client, django_capture_on_commit_callbacks
):
    from clubs.models import AuditEntry, ClubRole
    from tests.factories import make_club, make_user

    director = make_user("details@example.org")
    club = make_club(slug="details", directors=[director])
    player = Player.objects.create(club=club, name="Pim Junior", junior=True)
    client.force_login(director)
    url = f"/manage/{club.slug}/players/{player.pk}/details/"
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            url, {"junior": "on", "full_name_consent": "on", "start_rating": "950"}
        )
    assert response.status_code == 302
    player = standing(player)
    assert player.full_name_consent and player.junior and player.start_rating == 950
    club.refresh_from_db()
    assert first_ladder(club).data_version == 1  # the starting estimate is a ladder input
    assert AuditEntry.objects.filter(club=club, action="player.edited").exists()
    assert ClubRole.objects.filter(club=club).count() == 1


def test_player_details_refuse_an_impossible_estimate_and_store_nothing(client):
    from tests.factories import make_club, make_user

    director = make_user("details@example.org")
    club = make_club(slug="details", directors=[director])
    player = Player.objects.create(club=club, name="Pim")
    client.force_login(director)
    client.post(f"/manage/{club.slug}/players/{player.pk}/details/", {"start_rating": "-40"})
    player = standing(player)
    assert player.start_rating is None
