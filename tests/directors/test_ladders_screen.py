"""The directors' ladders screen: a ladder added, renamed, a kind moved with the preview of how
both ladders move; forged forms refused; every change in the audit log."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import transaction
from django.test import Client
from django.urls import reverse
from django.utils import translation

from clubs.models import AuditEntry, Event, Ladder
from clubs.results import Result
from directors.audit.sentences import names_for, sentence
from directors.ladders.changes import assignment
from ladder.changes import LadderInput, club_changed
from ladder.models import LadderRating, RatedEvent
from ladder.replay import replay_ladder, verify_ladder
from tests.factories import make_event, make_players

pytestmark = pytest.mark.django_db

W, D, B = Result.WHITE_WIN, Result.DRAW, Result.BLACK_WIN


@pytest.fixture
def signed_in(director):
    client = Client()
    client.force_login(director)
    return client


@pytest.fixture
def history(club):
    """Standard and blitz events among five players, the one ladder up to date."""
    ann, bob, cid, dee, eve = make_players(club, ["Ann", "Bob", "Cid", "Dee", "Eve"])
    games = [(W, D, B), (D, W, W), (B, B, D), (W, W, D)]
    for month, (a, b, c) in enumerate(games, start=1):
        make_event(
            club,
            [(1, ann, bob, a), (1, cid, dee, b), (2, ann, cid, c), (2, bob, eve, a)],
            date=dt.date(2026, month, 5),
            kind=Event.Kind.BLITZ if month % 2 == 0 else Event.Kind.STANDARD,
        )
    with transaction.atomic():
        club_changed(club.pk, LadderInput())
    replay_ladder(club.pk)
    return club


def ratings(ladder):
    return dict(
        LadderRating.objects.filter(ladder=ladder, rated_games__gt=0).values_list(
            "player_id", "rating"
        )
    )


def stored(club):
    """Everything a refused or previewed change must leave as it was."""
    return (
        assignment(club),
        sorted(Ladder.objects.filter(club=club).values_list("slug", "name", "rating_policy")),
        sorted(LadderRating.objects.filter(ladder__club=club).values_list("pk", "rating")),
        AuditEntry.objects.filter(club=club).count(),
    )


def add(client, club, **values):
    data = {"based_on": assignment(club), "policy": "ladder", **values}
    return client.post(reverse("ladder_add", args=[club.slug]), data)


def move(client, club, **values):
    data = {"based_on": assignment(club), **values}
    return client.post(reverse("ladder_move", args=[club.slug]), data)


def confirmation(preview):
    """The confirmation form the preview shows, as the browser posts it."""
    data: dict[str, list[str]] = {"based_on": [preview.context["preview"]["based_on"]]}
    for name, value in preview.context["preview"]["values"]:
        data.setdefault(name, []).append(value)
    return {**data, "confirm": ["1"]}


def test_the_screen_lists_each_ladder_with_its_kinds(signed_in, history):
    Ladder.objects.filter(club=history).update(name="Main ladder")
    page = signed_in.get(reverse("club_ladders", args=[history.slug]))
    assert page.status_code == 200
    html = page.content.decode()
    assert "Main ladder" in html and "Standard, Rapid, Blitz, Other" in html
    assert reverse("ladder_rating_settings", args=[history.slug, "main"]) in html


def test_a_ladder_without_kinds_is_added_at_once_and_rates_nothing(signed_in, history):
    main = Ladder.objects.get(club=history)
    before = ratings(main)
    response = add(signed_in, history, name="Juniors", slug="juniors", policy="hsb")
    assert response.status_code == 302
    juniors = Ladder.objects.get(club=history, slug="juniors")
    assert (juniors.name, juniors.rating_policy, juniors.kinds) == ("Juniors", "hsb", [])
    assert juniors.position > main.position
    main.refresh_from_db()
    assert main.kinds == ["standard", "rapid", "blitz", "other"] and main.is_current
    assert ratings(main) == before


def test_moving_a_kind_previews_both_ladders_and_the_confirmed_move_matches(
    signed_in, history, django_capture_on_commit_callbacks
):
    add(signed_in, history, name="Blitz", slug="blitz")
    main, blitz = Ladder.objects.for_club(history.pk)
    old_main = ratings(main)
    before = stored(history)

    preview = move(signed_in, history, kind="blitz", to="blitz")
    assert preview.status_code == 200
    assert stored(history) == before, "a preview stores nothing"
    sides = {side["ladder"].slug: side["impact"] for side in preview.context["preview"]["ladders"]}
    assert set(sides) == {"main", "blitz"}
    assert "How both ladders would move" in preview.content.decode()

    with django_capture_on_commit_callbacks(execute=True):
        done = signed_in.post(reverse("ladder_move", args=[history.slug]), confirmation(preview))
    assert done.status_code == 302
    main.refresh_from_db()
    blitz.refresh_from_db()
    assert main.kinds == ["standard", "rapid", "other"] and blitz.kinds == ["blitz"]
    assert main.is_current and blitz.is_current and verify_ladder(history) == []

    new_main, new_blitz = ratings(main), ratings(blitz)
    changed = {
        pid: (old_main[pid], new_main[pid])
        for pid in old_main
        if abs(new_main[pid] - old_main[pid]) >= 0.05
    }
    assert changed, "the history is such that main moves without its blitz events"
    previewed = {m.player_id: m for m in sides["main"].moves}
    assert set(previewed) == set(changed)
    assert {pid: m.before for pid, m in previewed.items()} == pytest.approx(
        {pid: old for pid, (old, _new) in changed.items()}
    )
    assert {pid: m.after for pid, m in previewed.items()} == pytest.approx(
        {pid: new for pid, (_old, new) in changed.items()}
    )
    # The blitz ladder had nobody on it: every player of a blitz event joins at their rating.
    assert {m.player_id: m.after for m in sides["blitz"].moves} == pytest.approx(new_blitz)
    assert all(m.before is None for m in sides["blitz"].moves)
    assert sides["blitz"].joined == len(new_blitz) > 0
    blitz_events = RatedEvent.objects.filter(event__kind=Event.Kind.BLITZ)
    assert set(blitz_events.values_list("ladder_id", flat=True)) == {blitz.pk}


def test_adding_a_ladder_with_kinds_previews_then_replays_both(
    signed_in, history, django_capture_on_commit_callbacks
):
    before = stored(history)
    preview = add(signed_in, history, name="Blitz", slug="blitz", kinds=["blitz"])
    assert preview.status_code == 200 and stored(history) == before
    shown = preview.context["preview"]["ladders"]
    assert [(side["ladder"].slug, side["ladder"].new) for side in shown] == [
        ("main", False),
        ("blitz", True),
    ]
    with django_capture_on_commit_callbacks(execute=True):
        signed_in.post(reverse("ladder_add", args=[history.slug]), confirmation(preview))
    assert Ladder.objects.get(club=history, slug="blitz").kinds == ["blitz"]
    assert verify_ladder(history) == []


def test_renaming_changes_only_the_name_and_is_logged(signed_in, director, history):
    main = Ladder.objects.get(club=history)
    old = main.name
    response = signed_in.post(
        reverse("ladder_rename", args=[history.slug, "main"]), {"name": "  Club   ladder "}
    )
    assert response.status_code == 302
    main.refresh_from_db()
    assert (main.name, main.slug, main.is_current) == ("Club ladder", "main", True)
    entry = AuditEntry.objects.get(club=history, action="ladder.renamed")
    assert entry.user == director and entry.details["old"] == old
    with translation.override("en"):
        assert sentence(entry, names_for([entry])).endswith(
            f"renamed the ladder {old} to Club ladder."
        )


@pytest.mark.parametrize(
    ("values", "message"),
    [
        ({"kinds": ["bughouse"]}, "is not one of the available choices"),
        ({"kinds": ["blitz", "blitz"]}, "Each kind can be chosen only once."),
        ({"slug": "main"}, "The club has a ladder with this short name already."),
        ({"slug": "Not A Slug"}, "lower-case letters, digits and hyphens"),
        ({"policy": "glicko"}, "is not one of the available choices"),
        ({"name": "   "}, "This field is required."),
    ],
)
def test_a_forged_new_ladder_is_refused_with_a_message_and_nothing_stored(
    signed_in, history, values, message
):
    before = stored(history)
    for step in ({}, {"confirm": "1"}):
        data = {"name": "Blitz", "slug": "blitz", "kinds": ["rapid"], **values, **step}
        response = add(signed_in, history, **data)
        assert response.status_code == 400
        assert message in response.content.decode()
    assert stored(history) == before


@pytest.mark.parametrize(
    ("values", "message"),
    [
        ({"kind": "bughouse", "to": "blitz"}, "is not one of the available choices"),
        ({"kind": ["rapid", "blitz"], "to": "blitz"}, "Choose one kind to move."),
        ({"kind": "rapid", "to": "nowhere"}, "is not one of the available choices"),
    ],
)
def test_a_forged_move_is_refused_with_a_message_and_nothing_stored(
    signed_in, history, values, message
):
    add(signed_in, history, name="Blitz", slug="blitz")
    before = stored(history)
    for step in ({}, {"confirm": "1"}):
        response = move(signed_in, history, **values, **step)
        assert response.status_code == 400
        assert message in response.content.decode()
    assert stored(history) == before


def test_a_move_over_a_newer_change_is_refused(signed_in, history):
    add(signed_in, history, name="Blitz", slug="blitz")
    shown = assignment(history)
    move(signed_in, history, kind="rapid", to="blitz", confirm="1")
    before = stored(history)
    response = move(signed_in, history, kind="blitz", to="blitz", based_on=shown, confirm="1")
    assert response.status_code == 302
    assert stored(history) == before


def test_moving_a_kind_to_the_ladder_that_has_it_changes_nothing(signed_in, history):
    before = stored(history)
    response = move(signed_in, history, kind="blitz", to="main", confirm="1")
    assert response.status_code == 302
    assert stored(history) == before


def test_each_change_is_in_the_audit_log_as_a_sentence(
    signed_in, director, history, django_capture_on_commit_callbacks
):
    main = Ladder.objects.get(club=history)
    main_name = main.name
    with django_capture_on_commit_callbacks(execute=True):
        add(signed_in, history, name="Quick", slug="quick", kinds=["rapid"], confirm="1")
        move(signed_in, history, kind="blitz", to="quick", confirm="1")
    added = AuditEntry.objects.get(club=history, action="ladder.added")
    moved = AuditEntry.objects.get(club=history, action="ladder_kind.moved")
    assert added.user == moved.user == director
    assert added.details["kinds"] == ["rapid"] and added.details["taken"] == {"main": ["rapid"]}
    assert moved.details["taken"] == {"main": ["blitz"]}
    with translation.override("en"):
        names = names_for([added, moved])
        assert f"added the ladder Quick, rating Rapid (Rapid from {main_name})" in sentence(
            added, names
        )
        assert f"moved Blitz from {main_name} to the ladder Quick." in sentence(moved, names)


def test_rating_settings_are_per_ladder_and_the_old_address_is_the_first(
    signed_in, history, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        add(signed_in, history, name="Blitz", slug="blitz", kinds=["blitz"], confirm="1")
    main, blitz = Ladder.objects.for_club(history.pk)
    first = signed_in.get(reverse("rating_settings", args=[history.slug]))
    assert first.context["ladder"] == main
    url = reverse("ladder_rating_settings", args=[history.slug, "blitz"])
    page = signed_in.get(url)
    assert page.context["ladder"] == blitz
    data = {"based_on": page.context["form"]["based_on"].value(), "policy": "ladder"}
    data |= {name: str(value) for name, value in blitz.rating_settings.items()} | {"k_high": "32"}
    main_before, blitz_before = ratings(main), ratings(blitz)
    main_settings = dict(main.rating_settings)
    preview = signed_in.post(url, data)
    moved = {m.player_id for m in preview.context["impact"].moves}
    assert moved and moved <= set(blitz_before)
    with django_capture_on_commit_callbacks(execute=True):
        assert signed_in.post(url, {**data, "confirm": "1"}).status_code == 302
    main.refresh_from_db()
    blitz.refresh_from_db()
    assert blitz.rating_settings["k_high"] == 32.0 and main.rating_settings == main_settings
    assert ratings(main) == main_before and ratings(blitz) != blitz_before
    entry = AuditEntry.objects.get(club=history, action="rating_settings.changed")
    with translation.override("en"):
        assert "changed the rating settings of Blitz: " in sentence(entry, names_for([entry]))


def test_an_unknown_ladder_is_404(signed_in, history):
    for name, method in (("ladder_rating_settings", "get"), ("ladder_rename", "post")):
        response = getattr(signed_in, method)(reverse(name, args=[history.slug, "nowhere"]))
        assert response.status_code == 404


def test_the_screen_speaks_the_directors_language_default_name_included(signed_in, history):
    add(signed_in, history, name="Snelschaak", slug="blitz")
    # override: the language the request activates does not outlive the test.
    with translation.override("en"):
        page = signed_in.get(
            reverse("club_ladders", args=[history.slug]), HTTP_ACCEPT_LANGUAGE="nl"
        )
    html = page.content.decode()
    assert "<h1>Ranglijsten</h1>" in html
    # The name every club was given reads in Dutch; a name a director typed stays as typed.
    assert '<th scope="row">Ranglijst</th>' in html
    assert '<th scope="row">Snelschaak</th>' in html
    assert "Een soort toernooi naar een andere ranglijst verplaatsen" in html
