"""A no-show (only a forfeit, or no game at all) on the names screen: never offered as a new
player, and never waited for before publishing (issue 23, part 3)."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from clubs.models import Event, Player
from directors.events.flow import unconfirmed_names
from tests.directors.importers.trf_lines import player

pytestmark = pytest.mark.django_db

# Dan lost his only pairing by forfeit; Eve was entered and never paired. Both have a rating
# and a federation: people, not a program's bye dummy.
NO_SHOWS_TRF = "\n".join(
    [
        "012 Autumn Rapid",
        player(1, "Alder, Ann", (2, "w", "1"), (3, "b", "="), rating="1800", points="1.5"),
        player(2, "Birch, Bob", (1, "b", "0"), (0, "-", "F"), rating="1700", points="1.0"),
        player(3, "Cedar, Cid", (4, "w", "+"), (1, "w", "="), rating="1600", points="1.5"),
        player(4, "Dogwood, Dan", (3, "b", "-"), rating="1500", federation="NED", points="0.0"),
        player(5, "Elm, Eve", (0, "-", "-"), rating="1400", federation="NED", points="0.0"),
    ]
).encode()


def url(name, event):
    return reverse(name, args=[event.club.slug, event.pk])


def fresh(event):
    return Event.objects.get(pk=event.pk)


def choice(html: str, entry_id: int) -> str:
    select = re.search(rf'<select name="decision_{entry_id}"[^>]*>(.*?)</select>', html, re.S)
    assert select is not None
    chosen = re.search(r'<option value="([^"]*)" selected', select.group(1))
    return chosen.group(1) if chosen else ""


@pytest.fixture
def uploaded(client, director, club):
    client.force_login(director)
    event = Event.objects.create(club=club, name="Autumn Rapid", date=dt.date(2026, 10, 3))
    client.post(
        url("event_upload", event),
        {
            "file": SimpleUploadedFile("autumn.trf", NO_SHOWS_TRF),
            "format": "auto",
            "version": fresh(event).edit_version,
        },
    )
    entries = {e.typed_name: e for e in event.entries.all()}
    assert set(entries) == {"Alder, Ann", "Birch, Bob", "Cedar, Cid", "Dogwood, Dan", "Elm, Eve"}
    return event, entries


def test_a_no_show_is_offered_no_player_rather_than_a_new_one(client, uploaded):
    event, entries = uploaded
    page = client.get(url("event_names", event) + "?show=all").content.decode()
    for name in ("Dogwood, Dan", "Elm, Eve"):
        assert choice(page, entries[name].pk) == "none", name
    for name in ("Alder, Ann", "Birch, Bob", "Cedar, Cid"):
        assert choice(page, entries[name].pk) == "new", name


def test_the_event_publishes_without_a_decision_about_its_no_shows(client, uploaded):
    event, entries = uploaded
    assert unconfirmed_names(event) == ["Alder, Ann", "Birch, Bob", "Cedar, Cid"]
    for name in ("Alder, Ann", "Birch, Bob", "Cedar, Cid"):
        entry = entries[name]
        entry.player = Player.objects.create(club=event.club, name=name)
        entry.save()
    assert unconfirmed_names(event) == []
    response = client.post(url("event_publish", event), {"version": fresh(event).edit_version})
    assert response.status_code == 302
    assert fresh(event).is_published
    assert not Player.objects.filter(name__in=["Dogwood, Dan", "Elm, Eve"]).exists()


def test_a_bulk_import_leaves_out_only_entrants_without_points():
    """import_event decides 'no player' alone for a no-show without points; one whose only
    points are a bye or a forfeit win is named like anyone else."""
    from directors.events.names import Action, NameReview, automatic_decisions

    def review(entry_id: int, *, scored: bool) -> NameReview:
        return NameReview(entry_id, f"Name {entry_id}", entry_id, None, None, 2, 0, None, None,
                          scored=scored)  # fmt: skip

    decided = automatic_decisions([review(1, scored=False), review(2, scored=True)],
                                  link_exact=False)  # fmt: skip
    actions = {d.entry_id: d.action for d in decided.decisions}
    assert actions == {1: Action.NONE, 2: Action.NEW}
