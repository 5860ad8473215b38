"""The names table: one row per entrant, filters, candidate details, weak suggestions, and
the bulk buttons."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.urls import reverse

from clubs.models import AuditEntry, Entry, Event, Game, Player
from clubs.results import Result
from directors.importers import parse_file
from tests.corpus import TRF_CORPUS
from tests.factories import make_event, make_players, set_standing

KARL_MALA = TRF_CORPUS / "karl_mala_gedenkturnier_2005.trf"
W = Result.WHITE_WIN
pytestmark = pytest.mark.django_db


def url(name, event, query=""):
    return reverse(name, args=[event.club.slug, event.pk]) + query


def fresh(event):
    return Event.objects.get(pk=event.pk)


def rows(html):
    """The entry ids of the table's rows, in order."""
    return [int(pk) for pk in re.findall(r'<tr id="name-(\d+)"', html)]


def selected(html, entry):
    select = re.search(rf'<select name="decision_{entry.pk}"[^>]*>(.*?)</select>', html, re.S)
    chosen = re.search(r'<option value="([^"]*)" selected', select.group(1))
    return chosen.group(1) if chosen else ""


@pytest.fixture
def signed_in(client, director):
    client.force_login(director)
    return client


@pytest.fixture
def table(club):
    """A draft with one name of each kind, and an earlier event Emma and Eva played."""
    jurgen, emma, eva, mila, rival = make_players(
        club, ["Jürgen Müller", "Emma de Vries", "Eva de Vries", "Mila Hendriks", "Old Rival"]
    )
    set_standing(emma.pk, rating=1834.4, rated_games=52, provisional=False)
    set_standing(eva.pk, rating=1421, rated_games=7, provisional=True)
    make_event(club, [(1, emma, rival, W)], date=dt.date(2024, 3, 2), name="Spring cup")
    make_event(club, [(1, eva, rival, W)], date=dt.date(2023, 3, 2), name="Old open")
    make_event(club, [(1, eva, rival, W)], date=dt.date(2024, 5, 2), name="Draft night",
               published=False)  # fmt: skip
    event = make_event(club, [], published=False, name="Summer open", date=dt.date(2024, 9, 1))
    names = ["Müller, Jürgen", "E. de Vries", "Kandic, Milan", "spielfrei", "Old Rival"]
    entries = {
        name: Entry.objects.create(
            event=event,
            typed_name=name,
            start_rank=rank,
            rating_in_file=2000 + rank,
            fide_id="3400042" if rank == 1 else "",
            federation="GER" if rank == 1 else "",
        )
        for rank, name in enumerate(names, start=1)
    }
    entries["Old Rival"].player = rival
    entries["Old Rival"].save()
    pairs = [("Müller, Jürgen", "E. de Vries"), ("Kandic, Milan", "Old Rival")]
    for white, black in pairs:
        Game.objects.create(
            event=event, round=1, white=entries[white], black=entries[black], result=W
        )
    players = {"jurgen": jurgen, "emma": emma, "eva": eva, "mila": mila, "rival": rival}
    return event, entries, players


def test_the_table_has_one_row_per_unconfirmed_name_and_all_adds_the_confirmed(signed_in, table):
    event, entries, _players = table
    page = signed_in.get(url("event_names", event)).content.decode()
    unconfirmed = [entries[n].pk for n in ["Müller, Jürgen", "E. de Vries", "Kandic, Milan"]]
    assert rows(page) == [*unconfirmed, entries["spielfrei"].pk]
    every = signed_in.get(url("event_names", event, "?show=all")).content.decode()
    assert rows(every) == [*rows(page), entries["Old Rival"].pk]
    # The older link still works.
    assert rows(signed_in.get(url("event_names", event, "?all=1")).content.decode()) == rows(every)


@pytest.mark.parametrize(
    ("show", "expected"),
    [
        ("suggested", ["Müller, Jürgen"]),
        ("decide", ["E. de Vries"]),
        ("new", ["Kandic, Milan", "spielfrei"]),
        ("nonsense", ["Müller, Jürgen", "E. de Vries", "Kandic, Milan", "spielfrei"]),
    ],
)
def test_each_filter_shows_only_its_names(signed_in, table, show, expected):
    event, entries, _players = table
    page = signed_in.get(url("event_names", event, f"?show={show}")).content.decode()
    assert rows(page) == [entries[name].pk for name in expected]


def test_the_filter_links_count_their_names_and_weak_ones_are_not_suggested(signed_in, table):
    event, _entries, _players = table
    page = signed_in.get(url("event_names", event)).content.decode()
    links = dict(re.findall(r'<a href="[^"]*names/(?:\?show=(\w+))?"[^>]*>[^<(]*\((\d+)\)', page))
    assert links == {"": "4", "decide": "1", "suggested": "1", "new": "2"}


def test_each_candidate_shows_its_rating_games_and_last_published_event(signed_in, table):
    event, entries, players = table
    page = signed_in.get(url("event_names", event, "?show=decide")).content.decode()
    options = dict(re.findall(r'<option value="p(\d+)"[^>]*>([^<]*)</option>', page))
    emma, eva = options[str(players["emma"].pk)], options[str(players["eva"].pk)]
    assert "1834, 52 rated games" in emma and "Spring cup" in emma
    # Eva's latest event is a draft: her last published one is shown.
    assert "1421 (provisional), 7 rated games" in eva and "Old open" in eva
    assert "Draft night" not in eva
    assert selected(page, entries["E. de Vries"]) == ""  # two alike: the director decides


def test_the_file_says_rating_id_and_federation(signed_in, table):
    event, _entries, _players = table
    page = signed_in.get(url("event_names", event, "?show=suggested")).content.decode()
    assert "Rating in the file: 2001. · ID 3400042 · GER" in page


def test_a_weak_suggestion_is_shown_apart_and_never_chosen(signed_in, table):
    event, entries, players = table
    page = signed_in.get(url("event_names", event, "?show=new")).content.decode()
    kandic = entries["Kandic, Milan"]
    row = page[page.index(f'<tr id="name-{kandic.pk}"') :]
    row = row[: row.index("</tr>")]
    assert "No likely player on the roster." in row
    weak_group = re.search(r'<optgroup label="Weak: only alike as text">(.*?)</optgroup>', row)
    assert f'value="p{players["mila"].pk}"' in weak_group.group(1)
    assert "Likely" not in row
    assert selected(page, kandic) == "new"


def test_accept_every_same_name_link_links_only_the_preselected(signed_in, table):
    event, _entries, players = table
    response = signed_in.post(
        url("event_names_bulk", event),
        {"version": fresh(event).edit_version, "action": "same_name", "show": "suggested"},
    )
    assert response.url == url("event_names", event, "?show=suggested")
    linked = dict(event.entries.values_list("typed_name", "player_id"))
    assert linked["Müller, Jürgen"] == players["jurgen"].pk
    assert linked["E. de Vries"] is None and linked["Kandic, Milan"] is None
    assert AuditEntry.objects.filter(action="names.decided", club=event.club).count() == 1


def test_make_every_unmatched_name_a_new_player_leaves_decisions_and_no_shows(signed_in, table):
    event, _entries, _players = table
    before = Player.objects.count()
    signed_in.post(
        url("event_names_bulk", event),
        {"version": fresh(event).edit_version, "action": "new", "show": "open"},
    )
    linked = {name: pid for name, pid in event.entries.values_list("typed_name", "player__name")}
    assert linked["Kandic, Milan"] == "Kandic, Milan"  # weak Mila Hendriks held nothing back
    assert linked["E. de Vries"] is None and linked["Müller, Jürgen"] is None
    assert linked["spielfrei"] is None  # no game: not a player
    assert Player.objects.count() == before + 1


def test_a_bulk_button_of_a_stale_page_changes_nothing(signed_in, table):
    event, _entries, _players = table
    stale = fresh(event).edit_version
    Event.objects.filter(pk=event.pk).update(edit_version=stale + 1)  # someone saved meanwhile
    response = signed_in.post(
        url("event_names_bulk", event),
        {"version": stale, "action": "same_name", "show": "open"},
        follow=True,
    )
    assert not event.entries.filter(typed_name="Müller, Jürgen", player__isnull=False).exists()
    assert 'class="message error"' in response.content.decode()


def test_a_filtered_page_saves_only_its_rows(signed_in, table):
    event, entries, players = table
    page = signed_in.get(url("event_names", event, "?show=decide")).content.decode()
    assert rows(page) == [entries["E. de Vries"].pk]
    response = signed_in.post(
        url("event_names", event, "?show=decide"),
        {
            f"decision_{entries['E. de Vries'].pk}": f"p{players['eva'].pk}",
            "version": fresh(event).edit_version,
        },
    )
    assert response.url == url("event_names", event, "?show=decide")
    linked = dict(event.entries.values_list("typed_name", "player_id"))
    assert linked["E. de Vries"] == players["eva"].pk
    assert linked["Müller, Jürgen"] is None  # not on that page: untouched
    assert linked["Old Rival"] == players["rival"].pk


def test_outsiders_get_404_from_the_table_and_its_bulk_buttons(client, outsider, table):
    event, _entries, _players = table
    client.force_login(outsider)
    assert client.get(url("event_names", event, "?show=all")).status_code == 404
    response = client.post(
        url("event_names_bulk", event),
        {"version": fresh(event).edit_version, "action": "same_name"},
    )
    assert response.status_code == 404
    assert not event.entries.filter(typed_name="Müller, Jürgen", player__isnull=False).exists()


# --- the file's rating-list columns, stored per entrant ------------------------------------


def test_the_trf_reader_keeps_each_players_id_and_federation():
    imported = parse_file(KARL_MALA.read_bytes(), "trf")
    first, second = imported.players[0], imported.players[1]
    assert (first.name, first.fide_id, first.federation) == ("Vasquez,Rodrigo", "3400042", "CHI")
    assert (second.fide_id, second.federation) == ("14101068", None)  # blank federation


def test_the_pgn_reader_keeps_a_fide_id_tag():
    pgn = (
        b'[Event "Club"]\n[Round "1"]\n[White "Ann Archer"]\n[Black "Bob Baker"]\n'
        b'[WhiteFideId "1503014"]\n[BlackFideId "0"]\n[Result "1-0"]\n\n1. e4 e5 1-0\n'
    )
    players = {p.name: p.fide_id for p in parse_file(pgn, "pgn").players}
    assert players == {"Ann Archer": "1503014", "Bob Baker": None}


def test_an_uploaded_trf_stores_id_and_federation_on_each_entry(signed_in, club):
    event = make_event(club, [], published=False, name="Karl Mala")
    from django.core.files.uploadedfile import SimpleUploadedFile

    signed_in.post(
        url("event_upload", event),
        {
            "file": SimpleUploadedFile("km.trf", KARL_MALA.read_bytes()),
            "format": "auto",
            "version": fresh(event).edit_version,
        },
    )
    first = event.entries.get(start_rank=1)
    assert (first.fide_id, first.federation, first.rating_in_file) == ("3400042", "CHI", 2558)
