"""Held players: first met in a draft, shown once an event of theirs is published or a
director adds them; removed with the draft that alone knew them."""

from __future__ import annotations

import io

import pytest
from django.core.management import CommandError, call_command
from django.db import transaction
from django.urls import reverse

from clubs.models import AuditEntry, Entry, Event, Game, Player
from clubs.results import Result
from directors.audit import sentences as audit_sentences
from directors.events.flow import publish_event, unconfirmed_names
from directors.events.names import Action, NameDecision, apply_name_decisions
from directors.events.publishing import delete_event, restore_event, unpublish_event
from directors.roster.erasure import erase_player, placeholder_name
from directors.roster.merging import merge_players, prepared_roster, undo_merge
from directors.roster.players import add_player, release_player
from matching import suggest_prepared
from tests.directors.test_import_event import SWISS_MANAGER
from tests.factories import make_event, make_players, rated_players

pytestmark = pytest.mark.django_db


def draft_with_newcomer(club, director, opponent, typed="Zoe Quinn", name="Winter"):
    """A draft in which `typed` played `opponent` and was decided a new player."""
    draft = make_event(club, published=False, name=name)
    mine = Entry.objects.create(event=draft, typed_name=opponent.name, player=opponent)
    theirs = Entry.objects.create(event=draft, typed_name=typed)
    Game.objects.create(event=draft, round=1, white=mine, black=theirs, result=Result.WHITE_WIN)
    with transaction.atomic():
        apply_name_decisions(
            draft.pk, draft.edit_version, [NameDecision(theirs.pk, Action.NEW)], director
        )
    return Event.objects.get(pk=draft.pk), rated_players().get(entries=theirs)


def is_public(player) -> bool:
    return Player.objects.public().filter(pk=player.pk).exists()


def version(event) -> int:
    return Event.objects.values_list("edit_version", flat=True).get(pk=event.pk)


def test_a_new_player_of_a_draft_is_held_and_of_a_published_event_is_not(club, director):
    (ann,) = make_players(club, ["Ann Archer"])
    _draft, zoe = draft_with_newcomer(club, director, ann)
    assert zoe.held and not is_public(zoe)
    published = make_event(club, name="Autumn")
    entry = Entry.objects.create(event=published, typed_name="Ugo Yates")
    with transaction.atomic():
        apply_name_decisions(
            published.pk, version(published), [NameDecision(entry.pk, Action.NEW)], director
        )
    ugo = rated_players().get(name="Ugo Yates")
    assert not ugo.held and is_public(ugo)


def test_a_held_player_shows_while_an_event_of_theirs_is_published(club, director):
    (ann,) = make_players(club, ["Ann Archer"])
    draft, zoe = draft_with_newcomer(club, director, ann)
    with transaction.atomic():
        publish_event(draft.pk, version(draft), director)
    assert is_public(zoe)
    with transaction.atomic():
        unpublish_event(draft.pk, version(draft), director)
    assert not is_public(zoe)  # shown only through a published event, or a director's act


def test_a_director_adds_a_held_player_to_the_club_page_on_the_roster_screen(
    client, club, director
):
    (ann,) = make_players(club, ["Ann Archer"])
    _draft, zoe = draft_with_newcomer(club, director, ann)
    client.force_login(director)
    page = client.get(reverse("roster_player", args=[club.slug, zoe.pk])).content.decode()
    assert "Add to the club page now" in page
    client.post(reverse("roster_player_release", args=[club.slug, zoe.pk]))
    assert is_public(zoe)
    entry = AuditEntry.objects.filter(action="player.added").get()
    assert entry.details == {"player_id": zoe.pk, "name": "Zoe Quinn"}
    assert not release_player(zoe, director)  # once is enough: nothing more is logged
    assert AuditEntry.objects.filter(action="player.added").count() == 1


def test_a_roster_player_added_by_a_director_is_not_held(club, director):
    with transaction.atomic():
        ann = add_player(club, "Ann Archer", junior=False, start_rating=None, user=director)
    assert not ann.held and is_public(ann)


def test_deleting_a_draft_removes_the_held_players_it_alone_knew_and_says_so(club, director):
    ann, bob = make_players(club, ["Ann Archer", "Bob Baker"])
    draft, zoe = draft_with_newcomer(club, director, ann)
    # Ugo, held too, also plays in another draft: he stays.
    other, ugo = draft_with_newcomer(club, director, bob, typed="Ugo Yates", name="Spring")
    entry = Entry.objects.create(event=draft, typed_name="Ugo Yates", player=ugo)
    Game.objects.create(event=draft, round=2, white=entry, result=Result.BYE_FULL)
    with transaction.atomic():
        delete_event(draft.pk, version(draft), director)
    assert not rated_players().filter(pk=zoe.pk).exists()
    assert rated_players().filter(pk__in=[ann.pk, bob.pk, ugo.pk]).count() == 3
    logged = AuditEntry.objects.get(action="held_players.removed")
    assert logged.details["players"] == ["Zoe Quinn"]
    (sentence,) = [s for e, s in audit_sentences.sentences([logged]) if e == logged]
    assert "deleted the draft Winter, and with it 1 player met only there: Zoe Quinn" in sentence
    # Restoring brings the typed name back, to be decided again.
    with transaction.atomic():
        restore_event(draft.pk, version(draft), director)
    assert unconfirmed_names(Event.objects.get(pk=draft.pk)) == ["Zoe Quinn"]
    assert other.entries.filter(player=ugo).exists()


def test_deleting_a_published_event_or_a_draft_of_merged_players_removes_nobody(club, director):
    ann, bob = make_players(club, ["Ann Archer", "Bob Baker"])
    draft, zoe = draft_with_newcomer(club, director, ann)
    with transaction.atomic():
        merge_players(club, zoe, bob, director)
        delete_event(draft.pk, version(draft), director)
    assert rated_players().filter(pk=zoe.pk).exists()
    assert not AuditEntry.objects.filter(action="held_players.removed").exists()


def test_a_merge_with_a_shown_player_shows_the_held_one_and_its_undo_holds_it_again(club, director):
    ann, bob = make_players(club, ["Ann Archer", "Bob Baker"])
    _draft, zoe = draft_with_newcomer(club, director, ann)
    with transaction.atomic():
        merge = merge_players(club, zoe, bob, director)
    assert is_public(rated_players().get(pk=zoe.pk))
    with transaction.atomic():
        undo_merge(merge, director)
    assert not is_public(zoe) and is_public(bob)


def test_a_held_player_is_erased_like_any_other(club, director):
    (ann,) = make_players(club, ["Ann Archer"])
    draft, zoe = draft_with_newcomer(club, director, ann)
    erase_player(zoe, director)
    zoe.refresh_from_db()
    assert zoe.name == placeholder_name(zoe.pk) and zoe.held
    assert not draft.entries.filter(typed_name="Zoe Quinn").exists()


def test_the_names_screen_suggests_a_held_player_made_without_any_version_moving(club, director):
    (ann,) = make_players(club, ["Ann Archer"])
    prepared_roster(club)  # kept under the versions, which a held player does not move
    _draft, zoe = draft_with_newcomer(club, director, ann)
    roster, owners = prepared_roster(club)
    assert zoe.pk in {owners[s.index] for s in suggest_prepared("Zoe Quinn", roster)}


def test_import_event_leaving_a_draft_holds_its_new_players_and_publish_shows_them(club):
    def run(*args):
        call_command("import_event", club.slug, str(SWISS_MANAGER), *args,
                     stdout=io.StringIO(), stderr=io.StringIO())  # fmt: skip

    (jurgen,) = make_players(club, ["Jurgen Muller"])  # "Müller, Jürgen" waits for a decision
    with pytest.raises(CommandError):  # exit 3: the event stays a draft
        run()
    new = rated_players().filter(club=club).exclude(pk=jurgen.pk)
    assert new.count() == 4 and all(p.held for p in new) and not new.public().exists()
    # The second import of the same file finds them (the same names) and publishes.
    run("--link-exact", "--publish", "--name", "Again")
    published = Event.objects.get(name="Again")
    shown = Player.objects.public().filter(entries__event=published)
    assert shown.count() == published.entries.exclude(player=None).count() > 0


def test_a_club_night_newcomer_is_held_and_the_live_page_does_not_name_them(client, club, director):
    from directors.night import evening

    ann, bob = make_players(club, ["Ann Archer", "Bob Baker"])
    with transaction.atomic():
        night = evening.start_event(
            club, name="Tuesday", date=ann.created_at.date(), system="swiss", rounds=1,
            players=[ann, bob], user=director,
        )  # fmt: skip
    client.force_login(director)
    client.post(
        reverse("night_add", args=[club.slug, night.pk]),
        {"newcomer_name": "Zoe Quinn", "player": ""},
    )
    zoe = rated_players().get(name="Zoe Quinn")
    assert zoe.held and night.entries.filter(player=zoe).exists()
    client.logout()
    club.visibility = "public"
    club.save()
    live = client.get(reverse("club_event_live", args=[club.slug, night.pk])).content.decode()
    assert "Ann Archer" in live and "Zoe Quinn" not in live and "newcomer" in live


def test_a_draft_entry_re_pointed_to_a_new_player_holds_that_player(club, director):
    from directors.roster.merging import repoint_entry

    (ann,) = make_players(club, ["Ann Archer"])
    draft, zoe = draft_with_newcomer(club, director, ann)
    entry = draft.entries.get(player=zoe)
    with transaction.atomic():
        made = repoint_entry(entry, None, "Zoe Quincy", director)
    assert made.held and not is_public(made)
    published = make_event(club, name="Autumn")
    other = Entry.objects.create(event=published, typed_name="Ugo Yates", player=ann)
    with transaction.atomic():
        shown = repoint_entry(other, None, "Ugo Yates", director)
    assert not shown.held


def test_staff_cannot_release_a_held_player_by_leaving_a_box_unticked(client, club, director):
    from tests.factories import make_user

    (ann,) = make_players(club, ["Ann Archer"])
    _draft, zoe = draft_with_newcomer(club, director, ann)
    client.force_login(make_user("staff@example.org", staff=True))
    url = reverse("admin:clubs_player_change", args=[zoe.pk])
    form = {"name": "Zoe Q.", "name_key": zoe.name_key, "start_games": 0, "start_rating": ""}
    assert client.post(url, form).status_code == 302
    zoe.refresh_from_db()
    assert zoe.name == "Zoe Q." and zoe.held


def test_the_names_screen_of_another_draft_offers_a_held_player_marked_as_held(
    client, club, director
):
    ann, bob = make_players(club, ["Ann Archer", "Bob Baker"])
    _draft, zoe = draft_with_newcomer(club, director, ann)
    later = make_event(club, published=False, name="Spring")
    mine = Entry.objects.create(event=later, typed_name="Bob Baker", player=bob)
    theirs = Entry.objects.create(event=later, typed_name="Zoe Quinn")
    Game.objects.create(event=later, round=1, white=mine, black=theirs, result=Result.DRAW)
    client.force_login(director)
    page = client.get(reverse("event_names", args=[club.slug, later.pk])).content.decode()
    marker = "held: appears when an event of theirs is published"
    assert "Zoe Quinn" in page and marker in page
    release_player(zoe, director)
    assert (
        marker
        not in client.get(reverse("event_names", args=[club.slug, later.pk])).content.decode()
    )
