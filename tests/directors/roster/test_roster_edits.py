"""The roster's own writes: add, rename (the old spelling an alias), First Last, delete, search."""

import datetime as dt

import pytest
from django.test import Client
from django.urls import reverse

from clubs.models import AuditEntry, Club, Merge, PlayerAlias
from clubs.results import Result
from directors.roster.merging import merge_players, prepared_roster, repoint_entry
from directors.roster.players import add_player, delete_player, rename_player
from ladder.replay import verify_ladder
from matching import Reason, suggest_prepared
from tests.factories import first_ladder, make_event, make_players, rated_players

pytestmark = pytest.mark.django_db

W = Result.WHITE_WIN


@pytest.fixture
def on_commit(django_capture_on_commit_callbacks):
    return lambda: django_capture_on_commit_callbacks(execute=True)


@pytest.fixture
def signed_in(client, director):
    client.force_login(director)
    return client


def url(name, club, *args):
    return reverse(name, args=[club.slug, *args])


def versions(club):
    return first_ladder(club).data_version, Club.objects.get(pk=club.pk).pages_version


# Adding


def test_a_director_adds_a_player_who_has_not_played_yet(signed_in, club, director):
    assert signed_in.get(url("roster_player_add", club)).status_code == 200
    before = versions(club)
    response = signed_in.post(url("roster_player_add", club), {"name": "Anna\u00a0 de Vries"})
    player = rated_players().get(club=club)
    assert response["Location"] == url("roster_player", club, player.pk)
    assert (player.name, player.junior, player.start_rating) == ("Anna de Vries", False, None)
    assert player.name_key  # found by the name matching like any other player
    entry = AuditEntry.objects.get(club=club, action="player.added")
    assert (entry.user, entry.details["player_id"]) == (director, player.pk)
    data, pages = versions(club)
    assert (data, pages) == (before[0], before[1] + 1)  # nothing to rate: shown only


def test_a_new_player_with_a_starting_estimate_is_a_ladder_input(signed_in, club, on_commit):
    before = versions(club)
    with on_commit():
        signed_in.post(
            url("roster_player_add", club),
            {"name": "Bob Visser", "junior": "on", "start_rating": "1650"},
        )
    player = rated_players().get(club=club)
    assert (player.junior, player.start_rating) == (True, 1650)
    assert versions(club)[0] == before[0] + 1
    assert player.rating == 1650  # the replay ran on commit and wrote the starting state
    assert verify_ladder(club) == []


def test_adding_a_player_without_a_name_is_refused(signed_in, club):
    response = signed_in.post(url("roster_player_add", club), {"name": " \u200b "})
    assert response.status_code == 400
    assert not rated_players().filter(club=club).exists()


def test_adding_a_name_already_on_the_roster_warns_of_a_possible_duplicate(signed_in, club):
    make_players(club, ["Bob Visser"])
    response = signed_in.post(url("roster_player_add", club), {"name": "bob visser"}, follow=True)
    assert "Another player on the roster is also called bob visser" in response.content.decode()
    assert rated_players().filter(club=club).count() == 2


# Renaming


def test_a_rename_keeps_the_old_spelling_as_an_alias(signed_in, club, director):
    (jan,) = make_players(club, ["Jan Jansen"])
    before = versions(club)
    response = signed_in.post(
        url("roster_player_rename", club, jan.pk), {"name": "Johannes Jansen"}, follow=True
    )
    jan.refresh_from_db()
    assert jan.name == "Johannes Jansen"
    assert list(jan.aliases.values_list("name", flat=True)) == ["Jan Jansen"]
    assert "Jan Jansen is now Johannes Jansen" in response.content.decode()
    entry = AuditEntry.objects.get(club=club, action="player.renamed")
    assert entry.details == {"player_id": jan.pk, "old": "Jan Jansen", "new": "Johannes Jansen"}
    assert versions(club) == (before[0], before[1] + 1)


def test_after_a_rename_both_spellings_find_the_player_as_the_same_name(club):
    jan, _other = make_players(club, ["Jan Jansen", "Piet Bakker"])
    prepared_roster(club)  # cached under the versions the rename moves
    rename_player(jan, "Johannes Jansen", None)
    roster, owners = prepared_roster(club)
    for typed in ("Jan Jansen", "Johannes Jansen"):
        best = suggest_prepared(typed, roster)[0]
        assert (owners[best.index], best.reason) == (jan.pk, Reason.SAME_NAME)


def test_renaming_back_to_an_alias_makes_it_the_name_and_keeps_the_other(club):
    (jan,) = make_players(club, ["Jan Jansen"])
    rename_player(jan, "Johannes Jansen", None)
    rename_player(jan, "Jan Jansen", None)
    assert rated_players().get(pk=jan.pk).name == "Jan Jansen"
    assert list(jan.aliases.values_list("name", flat=True)) == ["Johannes Jansen"]


def test_a_change_of_capitals_only_adds_no_alias(club):
    (jan,) = make_players(club, ["jan jansen"])
    assert rename_player(jan, "Jan Jansen", None)
    assert not jan.aliases.exists()
    assert not rename_player(jan, "Jan Jansen", None)
    assert AuditEntry.objects.filter(action="player.renamed").count() == 1


def test_a_merged_record_cannot_be_renamed(signed_in, club, on_commit):
    kept, merged = make_players(club, ["Emma de Vries", "E. de Vries"])
    with on_commit():
        merge_players(club, kept, merged, None)
    response = signed_in.post(
        url("roster_player_rename", club, merged.pk), {"name": "Eva"}, follow=True
    )
    assert "merged into another one" in response.content.decode()
    assert rated_players().get(pk=merged.pk).name == "E. de Vries"


# First Last


def test_a_last_comma_first_name_is_offered_first_name_first_on_its_page(signed_in, club):
    (jan,) = make_players(club, ["Jansen,Jan"])
    page = signed_in.get(url("roster_player", club, jan.pk)).content.decode()
    assert "Rename to Jan Jansen" in page
    response = signed_in.post(url("roster_first_last", club), {"player": jan.pk, "back": "player"})
    assert response["Location"] == url("roster_player", club, jan.pk)
    jan.refresh_from_db()
    assert jan.name == "Jan Jansen"
    assert list(jan.aliases.values_list("name", flat=True)) == ["Jansen,Jan"]
    page = signed_in.get(url("roster_player", club, jan.pk)).content.decode()
    assert "Rename to" not in page


def test_the_roster_filters_last_comma_first_names_and_renames_the_checked_ones(signed_in, club):
    jan, emma, keep, plain = make_players(
        club, ["Jansen,Jan", "Vries, Emma de", "Visser, Bob", "Cid Mulder"]
    )
    page = signed_in.get(url("roster_players", club), {"last_first": "on"}).content.decode()
    assert "Emma de Vries" in page and "Jan Jansen" in page and "Bob Visser" in page
    assert "Cid Mulder" not in page
    before = versions(club)
    response = signed_in.post(
        url("roster_first_last", club), {"player": [jan.pk, emma.pk, plain.pk]}, follow=True
    )
    assert "2 names are now written first name first" in response.content.decode()
    names = dict(rated_players().filter(club=club).values_list("pk", "name"))
    assert names == {
        jan.pk: "Jan Jansen",
        emma.pk: "Emma de Vries",
        keep.pk: "Visser, Bob",
        plain.pk: "Cid Mulder",
    }
    assert versions(club) == (before[0], before[1] + 1)  # one door call for the batch
    assert AuditEntry.objects.filter(club=club, action="player.renamed").count() == 2


def test_first_last_renames_only_this_clubs_players(signed_in, club, outsider):
    other = Club.objects.get(slug="elsewhere")
    (theirs,) = make_players(other, ["Jansen,Jan"])
    signed_in.post(url("roster_first_last", club), {"player": theirs.pk})
    assert rated_players().get(pk=theirs.pk).name == "Jansen,Jan"


# Deleting


def test_an_empty_player_left_by_a_repoint_can_be_deleted_and_leaves_the_public_roster(
    signed_in, club, on_commit
):
    Club.objects.filter(pk=club.pk).update(visibility=Club.Visibility.PUBLIC)
    wrong, right, bob = make_players(club, ["Emma de Vris", "Emma de Vries", "Bob Visser"])
    with on_commit():
        make_event(club, [(1, wrong, bob, W)], date=dt.date(2026, 1, 1))
        repoint_entry(wrong.entries.get(), right, "", None)
    public = Client()
    assert "Emma de Vris" in public.get(reverse("club_roster", args=[club.slug])).content.decode()
    page = signed_in.get(url("roster_player", club, wrong.pk)).content.decode()
    assert url("roster_player_delete", club, wrong.pk) in page
    with on_commit():
        response = signed_in.post(url("roster_player_delete", club, wrong.pk))
    assert response["Location"] == url("roster_players", club)
    assert not rated_players().filter(pk=wrong.pk).exists()
    assert (
        "Emma de Vris" not in public.get(reverse("club_roster", args=[club.slug])).content.decode()
    )
    entry = AuditEntry.objects.get(club=club, action="player.deleted")
    assert entry.details == {"player_id": wrong.pk, "name": "Emma de Vris"}
    assert verify_ladder(club) == []


def test_deleting_a_player_with_entries_is_refused_with_a_clear_message(signed_in, club):
    emma, bob = make_players(club, ["Emma de Vries", "Bob Visser"])
    make_event(club, [(1, emma, bob, W)], name="January")
    page = signed_in.get(url("roster_player", club, emma.pk)).content.decode()
    assert url("roster_player_delete", club, emma.pk) not in page
    response = signed_in.post(url("roster_player_delete", club, emma.pk), follow=True)
    assert "Emma de Vries is entered in 1 event, so the player stays." in response.content.decode()
    assert rated_players().filter(pk=emma.pk).exists()
    assert not AuditEntry.objects.filter(action="player.deleted").exists()


def test_a_player_in_a_merge_is_not_deleted_even_after_the_undo(club, on_commit):
    from directors.roster.merging import RosterChangeError, undo_merge

    kept, merged = make_players(club, ["Emma de Vries", "E. de Vries"])
    with on_commit():
        merge = merge_players(club, kept, merged, None)
        undo_merge(merge, None)
    with pytest.raises(RosterChangeError, match="part of a merge"):
        delete_player(merged, None)
    assert Merge.objects.filter(pk=merge.pk).exists()


def test_deleting_a_player_with_a_starting_state_replays_the_ladder(club, on_commit):
    with on_commit():
        player = add_player(club, "Old Member", junior=False, start_rating=1800, user=None)
    PlayerAlias.objects.create(player=player, name="O. Member", name_key="")
    before = versions(club)
    with on_commit():
        delete_player(player, None)
    assert versions(club) == (before[0] + 1, before[1] + 1)
    assert not PlayerAlias.objects.exists()


# Search


def test_the_roster_search_finds_names_and_other_spellings_without_javascript(signed_in, club):
    jan, emma, _bob = make_players(club, ["Jan Jansen", "Emma de Vries", "Bob Visser"])
    PlayerAlias.objects.create(player=emma, name="Emmy Vries", name_key="")
    page = signed_in.get(url("roster_players", club), {"q": "jans"}).content.decode()
    assert '<form method="get" role="search"' in page
    assert url("roster_player", club, jan.pk) in page
    assert url("roster_player", club, emma.pk) not in page
    page = signed_in.get(url("roster_players", club), {"q": "emmy"}).content.decode()
    assert url("roster_player", club, emma.pk) in page
    assert url("roster_player", club, jan.pk) not in page
    page = signed_in.get(url("roster_players", club), {"q": "nobody"}).content.decode()
    assert "No player matches." in page


def test_the_search_keeps_its_terms_across_pages(signed_in, club, monkeypatch):
    monkeypatch.setattr("directors.roster_views.PLAYERS_PER_PAGE", 2)
    make_players(club, ["Ann A", "Ann B", "Ann C", "Bob D"])
    page = signed_in.get(url("roster_players", club), {"q": "ann"}).content.decode()
    assert "?q=ann&amp;page=2" in page
    second = signed_in.get(url("roster_players", club), {"q": "ann", "page": 2}).content.decode()
    assert "Ann C" in second and "Bob D" not in second


def test_erasing_a_renamed_player_scrubs_both_spellings_from_aliases_and_log(club):
    from directors.roster.erasure import erase_player, placeholder_name

    (jan,) = make_players(club, ["Jan Jansen"])
    rename_player(jan, "Johannes Jansen", None)
    erase_player(rated_players().get(pk=jan.pk), None)
    assert not PlayerAlias.objects.filter(player=jan).exists()
    renamed = AuditEntry.objects.get(action="player.renamed").details
    assert renamed["old"] == renamed["new"] == placeholder_name(jan.pk)
    # A later rename of the placeholder keeps no alias of it.
    rename_player(rated_players().get(pk=jan.pk), "Anonymous Member", None)
    assert not PlayerAlias.objects.filter(player=jan).exists()
