"""The director's event screens, end to end through the views."""

from __future__ import annotations

import datetime as dt
import re
from decimal import Decimal
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from clubs.models import AuditEntry, Entry, Event, Game, Player
from clubs.results import Result
from directors.events.publishing import delete_event
from ladder.changes import LadderInput, club_changed
from ladder.models import PlayerEventResult
from ladder.replay import verify_ladder
from tests.factories import first_ladder, make_event, make_players, set_standing

pytestmark = pytest.mark.django_db

FILES = Path(__file__).parents[1] / "importers" / "files"
SWISS_MANAGER = FILES / "swiss_manager_cp1252_crlf.trf"
W, D, B = Result.WHITE_WIN, Result.DRAW, Result.BLACK_WIN


def url(name, event, *more):
    return reverse(name, args=[event.club.slug, event.pk, *more])


def fresh(event):
    return Event.objects.get(pk=event.pk)


def counts():
    return (
        Event.objects.count(),
        Entry.objects.count(),
        Game.objects.count(),
        Player.objects.count(),
        AuditEntry.objects.count(),
    )


def checked_choices(html):
    """The choices the names page selects before the director touches anything."""
    found = {}
    for name, options in re.findall(r'<select name="([^"]+)"[^>]*>(.*?)</select>', html, re.S):
        chosen = re.search(r'<option value="([^"]*)" selected', options)
        found[name] = chosen.group(1) if chosen else ""
    return found


def grid_post(rows, version, **extra):
    data = {
        "version": version,
        "row-TOTAL_FORMS": len(rows),
        "row-INITIAL_FORMS": 0,
        "row-MIN_NUM_FORMS": 0,
        "row-MAX_NUM_FORMS": 3000,
        **extra,
    }
    for at, (round_no, white, black, result) in enumerate(rows):
        data.update(
            {
                f"row-{at}-round": round_no,
                f"row-{at}-white": white,
                f"row-{at}-black": black,
                f"row-{at}-result": result,
            }
        )
    return data


def upload(client, event, name, data, fmt="auto", version=None):
    return client.post(
        url("event_upload", event),
        {
            "file": SimpleUploadedFile(name, data),
            "format": fmt,
            "version": fresh(event).edit_version if version is None else version,
        },
        follow=True,
    )


@pytest.fixture
def signed_in(client, director):
    client.force_login(director)
    return client


@pytest.fixture
def draft(club):
    return Event.objects.create(club=club, name="Club night", date=dt.date(2024, 9, 14))


def test_the_whole_flow_from_draft_to_a_corrected_published_event(
    signed_in, club, django_capture_on_commit_callbacks
):
    # The club's ladder before: Jürgen played an earlier event, and one later event exists.
    jurgen, _sara, old_rival = make_players(club, ["Jürgen Müller", "Sara Weiß", "Old Rival"])
    make_event(club, [(1, jurgen, old_rival, W)], date=dt.date(2024, 1, 5), name="Winter")
    make_event(club, [(1, old_rival, jurgen, W)], date=dt.date(2025, 1, 5), name="Next winter")
    with django_capture_on_commit_callbacks(execute=True):
        from django.db import transaction

        with transaction.atomic():
            club_changed(club.pk, LadderInput())

    response = signed_in.post(
        reverse("event_create", args=[club.slug]),
        {"name": "Vereinsmeisterschaft", "date": "2024-09-14", "order_in_day": 0,
         "kind": "standard", "rated": "on"},
    )  # fmt: skip
    event = Event.objects.get(name="Vereinsmeisterschaft")
    assert response.status_code == 302
    assert event.status == Event.Status.DRAFT

    response = upload(signed_in, event, "vm.trf", SWISS_MANAGER.read_bytes())
    assert response.redirect_chain[-1][0] == url("event_names", event)
    assert event.entries.count() == 5  # and its "spielfrei", which is no entrant
    assert event.games.count() == 9  # six pairings, three byes

    page = signed_in.get(url("event_names", event)).content.decode()
    assert "Müller, Jürgen" in page
    assert "Jürgen Müller" in page and "First and last name swapped" in page
    assert "Sara Weiß" in page and "Similar spelling" in page
    defaults = checked_choices(page)
    muller = event.entries.get(typed_name="Müller, Jürgen")
    soren = event.entries.get(typed_name="Weiß, Sören")
    assert not event.entries.filter(typed_name="spielfrei").exists()  # a bye's dummy
    assert defaults[f"decision_{muller.pk}"] == f"p{jurgen.pk}"  # preselected, not yet linked
    # Sara Weiß is only alike as text: a weak candidate, so Sören starts as a new player.
    assert defaults[f"decision_{soren.pk}"] == "new"
    muller.refresh_from_db()
    assert muller.player is None

    # The director accepts the suggestions as shown but leaves Sören for later.
    signed_in.post(
        url("event_names", event),
        {**defaults, f"decision_{soren.pk}": "", "version": fresh(event).edit_version},
    )
    response = signed_in.post(
        url("event_publish", event), {"version": fresh(event).edit_version}, follow=True
    )
    assert "Confirm this name before publishing: Weiß, Sören." in response.content.decode()
    assert fresh(event).status == Event.Status.DRAFT

    response = signed_in.post(
        url("event_names", event),
        {f"decision_{soren.pk}": "new", "version": fresh(event).edit_version},
    )
    assert response.url == url("event_preview", event)
    assert not Player.objects.filter(name="spielfrei").exists()
    assert Entry.objects.get(pk=muller.pk).player == jurgen

    preview = signed_in.get(url("event_preview", event)).context["preview"]
    shown = {row.player_id: (row.pre_rating, row.change, row.post_rating) for row in preview.rows}
    assert len(shown) == 5
    jurgen.refresh_from_db()
    winter = PlayerEventResult.objects.get(player=jurgen, event__name="Winter")
    assert shown[jurgen.pk][0] == pytest.approx(winter.post_rating)  # the ladder at its date

    with django_capture_on_commit_callbacks(execute=True):
        response = signed_in.post(
            url("event_publish", event), {"version": fresh(event).edit_version}
        )
    assert fresh(event).status == Event.Status.PUBLISHED
    stored = {
        r.player_id: (r.pre_rating, r.change, r.post_rating)
        for r in PlayerEventResult.objects.filter(event=event)
    }
    assert stored.keys() == shown.keys()
    for player_id, numbers in shown.items():
        assert stored[player_id] == pytest.approx(numbers)
    club.refresh_from_db()
    assert club.ladder_is_current
    assert verify_ladder(club) == []

    # A correction through the grid: round 1, Müller against Weiß, 1-0 becomes 0-1.
    page = signed_in.get(url("event_grid", event))
    rows = [
        (row.round, row.white, row.black, row.result) for row in _rows_of(page.context["formset"])
    ]
    at = next(n for n, r in enumerate(rows) if r[1] == "Müller, Jürgen" and r[0] == "1")
    assert rows[at][3] == "1-0"
    rows[at] = (*rows[at][:3], "0-1")
    before = PlayerEventResult.objects.get(event=event, player=jurgen).change
    # A published event's correction is shown first and applies on confirmation.
    shown = signed_in.post(url("event_grid", event), grid_post(rows, fresh(event).edit_version))
    assert shown.status_code == 200 and shown.context["impact"].moved > 0
    with django_capture_on_commit_callbacks(execute=True):
        response = signed_in.post(
            url("event_correction", event), {"token": shown.context["pending"].token}
        )
    assert response.status_code == 302
    after = PlayerEventResult.objects.get(event=event, player=jurgen).change
    assert after < before
    club.refresh_from_db()
    assert club.ladder_is_current
    assert verify_ladder(club) == []
    assert AuditEntry.objects.filter(club=club, action="event.published").count() == 1


def _rows_of(formset):
    from directors.events.results import GridRow

    return [
        GridRow(n, f.initial["round"], f.initial["white"], f.initial["black"], f.initial["result"])
        for n, f in enumerate(formset.forms, start=1)
        if f.initial.get("white")
    ]


def test_the_grid_stores_typed_rows_and_carries_the_round(signed_in, draft):
    rows = [
        ("1", "Ann Apple", "Bob Baker", "1-0"),
        ("", "Cid Cole", "Dee Dunn", "1/2"),
        ("2", "Ann Apple", "Cid Cole", "0-1"),
        ("", "Bob Baker", "", "bye½"),
        ("2", "", "", ""),  # a blank row with the carried round: skipped
    ]
    response = signed_in.post(url("event_grid", draft), grid_post(rows, draft.edit_version))
    assert response.status_code == 302
    games = [
        (g.round, g.white.typed_name, g.black.typed_name if g.black else None, g.result)
        for g in draft.games.order_by("round", "id")
    ]
    assert games == [
        (1, "Ann Apple", "Bob Baker", "1-0"),
        (1, "Cid Cole", "Dee Dunn", "1/2"),
        (2, "Ann Apple", "Cid Cole", "0-1"),
        (2, "Bob Baker", None, "bye½"),
    ]
    assert draft.entries.count() == 4


def test_the_grid_offers_entrants_and_roster_names_and_blank_rows(signed_in, club, draft):
    make_players(club, ["Roster Person"])
    Entry.objects.create(event=draft, typed_name="Entrant Person")
    page = signed_in.get(url("event_grid", draft)).content.decode()
    assert '<option value="Roster Person">' in page
    assert '<option value="Entrant Person">' in page
    assert page.count('list="names"') == 20  # ten blank rows, white and black
    assert 'aria-labelledby="col-white row-1"' in page


@pytest.mark.parametrize(
    ("rows", "message"),
    [
        pytest.param(
            [("1", "Ann", "Bob", "1-0"), ("1", "Cid", "", "1-0")],
            "Row 2: black is empty",
            id="a game without an opponent",
        ),
        pytest.param(
            [("1", "Ann", "Bob", "1-0"), ("x", "Cid", "Dee", "1-0")],
            "Row 2: the round &#x27;x&#x27; is not a number",
            id="a round that is not a number",
        ),
        pytest.param(
            [("1", "Ann", "Bob", "1-0"), ("", "Bob", "Cid", "0-1")],
            "Row 2: Bob already plays in round 1 on row 1.",
            id="a player twice in one round",
        ),
        pytest.param([("1", "Ann", "Bob", "")], "Row 1: choose a result", id="no result"),
        pytest.param([("1", "", "Bob", "1-0")], "Row 1: the white player is empty", id="no white"),
    ],
)
def test_a_bad_grid_row_is_named_and_nothing_is_stored(signed_in, draft, rows, message):
    before = counts()
    response = signed_in.post(url("event_grid", draft), grid_post(rows, draft.edit_version))
    assert response.status_code == 200
    assert message in response.content.decode()
    assert counts() == before
    assert fresh(draft).edit_version == draft.edit_version
    # What the director typed is still on the page.
    assert 'value="Ann"' in response.content.decode() or 'value="Bob"' in response.content.decode()


def test_pasted_csv_is_read_with_the_csv_importer(signed_in, draft):
    text = (FILES / "ladder_night_comma.csv").read_text("utf-8-sig")
    response = signed_in.post(
        url("event_paste", draft), {"text": text, "version": draft.edit_version}
    )
    assert response.url == url("event_names", draft)
    assert draft.games.count() == 9
    assert draft.entries.count() == 5
    assert AuditEntry.objects.get(action="results.saved").details["source"] == "paste"


def test_bad_pasted_csv_names_the_line_and_stores_nothing(signed_in, draft):
    before = counts()
    text = "round,white,black,result\n1,Ann,Bob,1-0\n2,Ann,Bob,7-3\n"
    response = signed_in.post(
        url("event_paste", draft), {"text": text, "version": draft.edit_version}
    )
    page = response.content.decode()
    assert "Line 3: the result &#x27;7-3&#x27; is not understood" in page
    assert counts() == before


@pytest.mark.parametrize("size", [4 * 1024 * 1024 + 1, 6 * 1024 * 1024])
def test_an_upload_over_four_megabytes_gets_a_message_and_stores_nothing(signed_in, draft, size):
    before = counts()
    response = upload(signed_in, draft, "huge.trf", b"012 x\n" + b"x" * size)
    page = response.content.decode()
    assert "larger than" in page and "4.0\xa0MB" in page
    assert counts() == before
    assert fresh(draft).edit_version == draft.edit_version


def test_a_broken_file_names_the_line_and_stores_nothing(signed_in, draft):
    upload(signed_in, draft, "vm.trf", SWISS_MANAGER.read_bytes())
    games = list(draft.games.values_list("round", "white__typed_name", "result"))
    before = counts()
    lines = SWISS_MANAGER.read_bytes().split(b"\r\n")
    first = next(n for n, line in enumerate(lines) if line.startswith(b"001"))
    broken = b"\r\n".join([*lines[: first + 1], lines[first], *lines[first + 1 :]])
    response = upload(signed_in, draft, "vm.trf", broken)
    page = response.content.decode()
    assert f"Line {first + 2}: starting rank 1 is used twice (also on line {first + 1})" in page
    assert counts() == before
    assert list(draft.games.values_list("round", "white__typed_name", "result")) == games


def test_a_file_in_a_chosen_format_is_read_as_that_format(signed_in, draft):
    data = (FILES / "club_rapid_2024.pgn").read_bytes()
    response = upload(signed_in, draft, "results.txt", data, fmt="pgn")
    assert response.redirect_chain[-1][0] == url("event_names", draft)
    assert draft.games.exists()
    assert AuditEntry.objects.get(action="results.saved").details["source"] == "file:pgn"


def test_a_stale_edit_version_is_refused_with_a_message(signed_in, club, director, draft):
    rows = [("1", "Ann", "Bob", "1-0")]
    version = draft.edit_version
    assert signed_in.post(url("event_grid", draft), grid_post(rows, version)).status_code == 302
    # A second director, with the page opened before that save, types another result.
    response = signed_in.post(
        url("event_grid", draft), grid_post([("1", "Ann", "Bob", "0-1")], version), follow=True
    )
    assert "changed by someone else" in response.content.decode()
    assert list(draft.games.values_list("result", flat=True)) == ["1-0"]
    assert fresh(draft).edit_version == version + 1
    for name in ("event_publish", "event_delete"):
        signed_in.post(url(name, draft), {"version": version})
    assert fresh(draft).status == Event.Status.DRAFT
    assert fresh(draft).deleted_at is None


def test_details_can_be_edited_and_a_stale_edit_is_refused(signed_in, draft):
    data = {"name": "Renamed", "date": "2024-09-15", "order_in_day": 2, "kind": "blitz"}
    response = signed_in.post(url("event_edit", draft), {**data, "version": draft.edit_version})
    assert response.status_code == 302
    event = fresh(draft)
    assert (event.name, event.date, event.kind, event.rated) == (
        "Renamed",
        dt.date(2024, 9, 15),
        "blitz",
        False,
    )
    response = signed_in.post(
        url("event_edit", draft), {**data, "name": "Again", "version": draft.edit_version}
    )
    assert fresh(draft).name == "Renamed"


def test_placeholder_entries_create_no_player(signed_in, club, draft):
    upload(signed_in, draft, "every.trf", (FILES / "every_result_code.trf").read_bytes())
    page = signed_in.get(url("event_names", draft)).content.decode()
    defaults = checked_choices(page)
    walker = draft.entries.get(typed_name="Walker, Jack")  # forfeits and byes only
    roberts = draft.entries.get(typed_name="Roberts, Isla")  # likewise
    assert not draft.entries.filter(typed_name="spielfrei").exists()  # a bye's dummy
    # Walker's points are a bye (his win against the placeholder): he is offered a player
    # like anyone else; "no player" is the default only for an entrant without points.
    assert defaults[f"decision_{walker.pk}"] != "none"
    roberts_scored = (
        Game.objects.filter(white=roberts, black__isnull=True)
        .exclude(result__in=[Result.BYE_ZERO.value, Result.BYE_PAIRING_ZERO.value])
        .exists()
    )
    assert (defaults[f"decision_{roberts.pk}"] == "none") is not roberts_scored
    # The director asks for a player for Walker and for none for Roberts.
    decisions = {
        **defaults,
        f"decision_{walker.pk}": "new",
        f"decision_{roberts.pk}": "none",
    }
    signed_in.post(url("event_names", draft), {**decisions, "version": fresh(draft).edit_version})
    names = set(Player.objects.filter(club=club).values_list("name", flat=True))
    assert "spielfrei" not in names and "Roberts, Isla" not in names
    assert "Walker, Jack" in names
    assert len(names) == 9
    # Walker's win against the placeholder is his bye; the double forfeit of Roberts and
    # Walker stays what the file says; only Roberts's own byes go.
    round_four = draft.games.get(round=4, white=walker)
    assert (round_four.black, round_four.result) == (None, Result.BYE_PAIRING.value)
    round_one = draft.games.get(round=1, white=roberts)
    assert (round_one.black, round_one.result) == (walker, Result.DOUBLE_FORFEIT.value)
    assert not Game.objects.filter(white=roberts, black__isnull=True).exists()
    response = signed_in.post(
        url("event_publish", draft), {"version": fresh(draft).edit_version}, follow=True
    )
    assert fresh(draft).status == Event.Status.PUBLISHED, response.content.decode()


def test_a_name_can_be_added_confirmed_and_removed(signed_in, club, draft):
    response = signed_in.post(
        url("event_entry_add", draft), {"typed_name": "Late Comer", "version": draft.edit_version}
    )
    assert response.status_code == 302
    entry = draft.entries.get(typed_name="Late Comer")
    signed_in.post(
        url("event_entry_remove", draft, entry.pk), {"version": fresh(draft).edit_version}
    )
    assert not draft.entries.exists()


def test_delete_and_restore_from_the_event_page(signed_in, club, draft):
    signed_in.post(url("event_delete", draft), {"version": draft.edit_version})
    assert fresh(draft).deleted_at is not None
    page = signed_in.get(url("event_detail", draft)).content.decode()
    assert "This event is deleted" in page
    response = signed_in.post(
        url("event_grid", draft),
        grid_post([("1", "Ann", "Bob", "1-0")], fresh(draft).edit_version),
    )
    assert "restore it before changing it" in response.content.decode()
    signed_in.post(url("event_restore", draft), {"version": fresh(draft).edit_version})
    assert fresh(draft).deleted_at is None


def test_the_list_shows_drafts_and_deleted_events(signed_in, club, draft):
    Event.objects.create(club=club, name="Gone", date=dt.date(2024, 1, 1), deleted_at=dt.datetime(
        2024, 2, 1, tzinfo=dt.UTC))  # fmt: skip
    page = signed_in.get(reverse("event_list", args=[club.slug])).content.decode()
    assert "Club night" in page and "Gone" in page and "Deleted" in page


# Tenancy and CSRF --------------------------------------------------------------------------


def event_requests(event, entry):
    gets = ["event_detail", "event_edit", "event_results", "event_grid", "event_names"]
    posts = [
        "event_edit",
        "event_upload",
        "event_paste",
        "event_grid",
        "event_names",
        "event_entry_add",
        "event_publish",
        "event_unpublish",
        "event_delete",
        "event_restore",
    ]
    return [
        *(("get", url(name, event)) for name in [*gets, "event_preview"]),
        *(("post", url(name, event)) for name in posts),
        ("post", url("event_entry_remove", event, entry.pk)),
    ]


@pytest.mark.parametrize("persona", ["anonymous", "outsider"])
def test_outsiders_get_404_from_every_event_route(client, club, outsider, persona):
    ann, bob = make_players(club, ["Ann", "Bob"])
    published = make_event(club, [(1, ann, bob, W)], name="Published")
    deleted = make_event(club, [(1, bob, ann, D)], name="Deleted", date=dt.date(2026, 2, 1))
    delete_event(deleted.pk, deleted.edit_version, None)
    draft = make_event(club, [], published=False, name="Draft")
    entry = Entry.objects.create(event=draft, typed_name="Nobody")
    if persona == "outsider":
        client.force_login(outsider)
    before = (
        counts(),
        list(Event.objects.values_list("id", "edit_version", "status", "deleted_at")),
    )
    for method, path in [
        ("get", reverse("event_list", args=[club.slug])),
        ("get", reverse("event_create", args=[club.slug])),
        ("post", reverse("event_create", args=[club.slug])),
    ]:
        assert getattr(client, method)(path).status_code == 404, path
    for event in (published, deleted, draft):
        for method, path in event_requests(event, entry):
            data = {
                "version": fresh(event).edit_version,
                "name": "Hijack",
                "date": "2024-01-01",
                "kind": "standard",
                "typed_name": "Hijack",
                "text": "round,white,black,result\n1,A,B,1-0\n",
                **grid_post([("1", "A", "B", "1-0")], fresh(event).edit_version),
            }
            response = getattr(client, method)(path, data if method == "post" else None)
            assert response.status_code == 404, (method, path)
    after = (
        counts(),
        list(Event.objects.values_list("id", "edit_version", "status", "deleted_at")),
    )
    assert after == before
    club.refresh_from_db()
    assert first_ladder(club).data_version == 1  # only the soft delete above


def test_a_post_without_the_csrf_token_is_refused(club, director, draft):
    client = Client(enforce_csrf_checks=True)
    client.force_login(director)
    response = client.post(url("event_delete", draft), {"version": draft.edit_version})
    assert response.status_code == 403
    assert fresh(draft).deleted_at is None
    response = client.post(
        url("event_grid", draft), grid_post([("1", "A", "B", "1-0")], draft.edit_version)
    )
    assert response.status_code == 403
    assert not draft.games.exists()


def test_mutations_refuse_get(signed_in, draft):
    for name in ("event_publish", "event_delete", "event_restore", "event_upload"):
        assert signed_in.get(url(name, draft)).status_code == 405


def test_every_page_renders_with_unique_ids_and_a_label_on_every_input(signed_in, club, draft):
    make_players(club, ["Jürgen Müller"])
    upload(signed_in, draft, "vm.trf", SWISS_MANAGER.read_bytes())
    pages = ["event_detail", "event_edit", "event_results", "event_grid", "event_names"]
    for name in [*pages, "event_preview"]:
        response = signed_in.get(url(name, draft))
        assert response.status_code == 200, name
        html = response.content.decode()
        ids = re.findall(r' id="([^"]+)"', html)
        assert len(ids) == len(set(ids)), name
        for tag in re.findall(r"<(?:input|select|textarea)\b[^>]*>", html):
            if 'type="hidden"' in tag:
                continue
            labelled = re.search(r'aria-labelledby="[^"]+"', tag)
            tag_id = re.search(r' id="([^"]+)"', tag)
            assert labelled or (tag_id and f'for="{tag_id.group(1)}"' in html), (name, tag)
    assert signed_in.get(reverse("event_create", args=[club.slug])).status_code == 200


# --- PGN files without rounds, with several events, with variants --------------------------------


def pgn(*games: dict[str, str]) -> bytes:
    return "\n".join(
        "".join(f'[{tag} "{value}"]\n' for tag, value in game.items()) + "\n*\n" for game in games
    ).encode()


def test_a_pgn_file_without_rounds_is_numbered_in_file_order_and_the_preview_says_so(
    signed_in, draft
):
    data = pgn(
        {"Event": "Match", "Round": "?", "White": "Ann", "Black": "Bob", "Result": "1-0"},
        {"Event": "Match", "Round": "?", "White": "Bob", "Black": "Ann", "Result": "0-1"},
    )
    response = upload(signed_in, draft, "match.pgn", data)
    assert response.redirect_chain[-1][0] == url("event_names", draft)
    assert "the file gives no round numbers" in response.content.decode()
    rounds = list(draft.games.order_by("round").values_list("round", "white__typed_name"))
    assert rounds == [(1, "Ann"), (2, "Bob")]
    assert fresh(draft).rounds_from_order

    preview = signed_in.get(url("event_preview", draft)).content.decode()
    assert "The file gave no round numbers" in preview
    assert url("event_grid", draft) in preview

    # The director moves the second game to round 3 in the grid; the note then goes.
    rows = [("1", "Ann", "Bob", "1-0"), ("3", "Bob", "Ann", "0-1")]
    response = signed_in.post(url("event_grid", draft), grid_post(rows, fresh(draft).edit_version))
    assert response.status_code == 302
    assert list(draft.games.order_by("round").values_list("round", flat=True)) == [1, 3]
    assert not fresh(draft).rounds_from_order
    assert "no round numbers" not in signed_in.get(url("event_preview", draft)).content.decode()


def several_events_file() -> bytes:
    return pgn(
        {"Event": "Titled Arena", "Site": "https://lichess.org/a1", "Round": "-",
         "White": "Ann", "Black": "Bob", "Result": "1-0"},
        {"Event": "Casual game", "Site": "https://lichess.org/b2", "Round": "-",
         "White": "Cid", "Black": "Ann", "Result": "0-1"},
        {"Event": "Titled Arena", "Site": "https://lichess.org/c3", "Round": "-",
         "White": "Bob", "Black": "Cid", "Result": "1-0"},
    )  # fmt: skip


def test_a_file_with_several_events_is_refused_offering_a_choice_of_them(signed_in, draft):
    before = counts()
    response = upload(signed_in, draft, "lichess.pgn", several_events_file())
    page = response.content.decode()
    assert (
        "This file holds games of 2 events: Titled Arena (2 games); Casual game (1 game)." in page
    )
    assert '<select name="event"' in page
    assert '<option value="Titled Arena">Titled Arena (2 games)</option>' in page
    assert '<option value="Casual game">Casual game (1 game)</option>' in page
    assert counts() == before


def test_the_chosen_event_of_a_file_holding_several_is_imported(signed_in, draft):
    response = signed_in.post(
        url("event_upload", draft),
        {
            "file": SimpleUploadedFile("lichess.pgn", several_events_file()),
            "format": "auto",
            "event": "Titled Arena",
            "version": fresh(draft).edit_version,
        },
        follow=True,
    )
    assert response.redirect_chain[-1][0] == url("event_names", draft)
    games = draft.games.order_by("round").values_list("white__typed_name", "black__typed_name")
    assert list(games) == [("Ann", "Bob"), ("Bob", "Cid")]


def test_a_variant_game_is_stored_as_played_and_kept_through_the_grid(signed_in, draft):
    data = pgn(
        {"Round": "1", "White": "Ann", "Black": "Bob", "Result": "1-0"},
        {"Round": "2", "White": "Bob", "Black": "Ann", "Result": "1-0", "Variant": "Chess960"},
    )
    response = upload(signed_in, draft, "club.pgn", data)
    assert "not standard chess (Chess960: 1)" in response.content.decode()
    stored = list(draft.games.order_by("round").values_list("result", "variant"))
    assert stored == [("1-0", ""), ("1-0", "Chess960")]
    assert (
        "1 game is Chess960, not standard chess"
        in signed_in.get(url("event_preview", draft)).content.decode()
    )

    page = signed_in.get(url("event_grid", draft)).content.decode()
    assert '<input type="hidden" name="row-1-variant" value="Chess960">' in page
    assert "Chess960: not standard chess, never rated" in page
    rows = [("1", "Ann", "Bob", "1-0"), ("2", "Bob", "Ann", "1/2")]
    post = grid_post(rows, fresh(draft).edit_version, **{"row-1-variant": "Chess960"})
    assert signed_in.post(url("event_grid", draft), post).status_code == 302
    stored = list(draft.games.order_by("round").values_list("result", "variant"))
    assert stored == [("1-0", ""), ("1/2", "Chess960")]


def test_the_review_screen_says_which_date_the_file_gave_and_both_readings_if_unsure(
    signed_in, draft
):
    data = (FILES / "swiss_manager_cp1252_crlf.trf").read_bytes()
    irish = data.replace(b"042 14.09.2024", b"042 10.09.13").replace(b"052 28.09.2024", b"")
    irish = irish.replace(b"24/09/14  24/09/21  24/09/28", b"10/09/13  10/10/11  11/03/13")
    page = upload(signed_in, draft, "league.trf", irish).content.decode()
    assert "Date 2010-09-13 read from record 042 (as YY.MM.DD, agreeing with the 132 round " in page
    assert "This event&#x27;s date is 2024-09-14: if the file&#x27;s date is right" in page
    assert fresh(draft).date == dt.date(2024, 9, 14)  # the director's date stays

    # Without the round dates nothing decides: both readings are shown.
    unsure = irish.replace(b"10/09/13  10/10/11  11/03/13", b"")
    page = upload(signed_in, draft, "league.trf", unsure).content.decode()
    assert "could be 10 September 2013 or 13 September 2010" in page
    assert "It could also be 2010-09-13 (as YY.MM.DD): check the event&#x27;s date." in page


def test_the_preview_prints_ratings_whose_sum_adds_up(signed_in, club):
    # 1400.04 + 7.2242 = 1407.2642: rounded one by one, 1400.0 + 7.2 would print 1407.3.
    ann, bob = make_players(club, ["Ann Alder", "Bob Birch"])
    set_standing(ann.pk, start_rating=1400.04, start_games=30)
    set_standing(bob.pk, start_rating=1301, start_games=30)
    draft = make_event(club, [(1, ann, bob, W)], published=False)
    html = signed_in.get(url("event_preview", draft)).content.decode()
    rows = re.findall(
        r'<th scope="row">(.*?)</th>\s*((?:<td class="num">[^<]*</td>\s*)+)</tr>', html, re.S
    )
    assert len(rows) == 2
    for _name, cells in rows:
        values = re.findall(r'<td class="num">([^<]*)</td>', cells)
        before, change, after = (Decimal(values[i].replace("+", "")) for i in (0, 5, 6))
        assert before + change == after, values
    assert "1400.04" in html  # more decimals where one is not enough


def irish_league(*, round_dates: bool = True) -> bytes:
    """The Swiss-Manager file with an Irish league's year-first dates (10.09.13 = 2010-09-13)."""
    data = SWISS_MANAGER.read_bytes()
    data = data.replace(b"042 14.09.2024", b"042 10.09.13").replace(b"052 28.09.2024", b"")
    new = b"10/09/13  10/10/11  11/03/13" if round_dates else b""
    return data.replace(b"24/09/14  24/09/21  24/09/28", new)


def test_the_preview_says_which_date_the_file_gave_long_after_the_upload(signed_in, draft):
    upload(signed_in, draft, "league.trf", irish_league())
    assert fresh(draft).file_date["record"] == "042"
    page = signed_in.get(url("event_preview", draft)).content.decode()
    assert "Date 2010-09-13 read from record 042 (as YY.MM.DD, agreeing with the 132 round " in page
    assert "This event&#x27;s date is 2024-09-14: if the file&#x27;s date is right" in page

    # Two readings stay possible: the preview shows both.
    upload(signed_in, draft, "league.trf", irish_league(round_dates=False))
    page = signed_in.get(url("event_preview", draft)).content.decode()
    assert "It could also be 2010-09-13 (as YY.MM.DD): check the event&#x27;s date." in page


def test_the_preview_warns_when_another_date_in_the_file_contradicts_the_one_read(signed_in, draft):
    data = SWISS_MANAGER.read_bytes().replace(b"052 28.09.2024", b"052 01.02.2019")
    upload(signed_in, draft, "vm.trf", data)
    page = signed_in.get(url("event_preview", draft)).content.decode()
    assert "It does not agree with the end date in record 052: check the event&#x27;s date." in page


def test_the_file_date_goes_when_the_grid_replaces_the_results(signed_in, draft):
    upload(signed_in, draft, "vm.trf", SWISS_MANAGER.read_bytes())
    assert fresh(draft).file_date["date"] == "2024-09-14"
    page = signed_in.get(url("event_preview", draft)).content.decode()
    assert "Date 2024-09-14 read from record 042" in page
    assert "This event&#x27;s date is" not in page  # the file agrees with the event

    rows = [("1", "Ann", "Bob", "1-0")]
    response = signed_in.post(url("event_grid", draft), grid_post(rows, fresh(draft).edit_version))
    assert response.status_code == 302
    assert fresh(draft).file_date is None
    assert "read from record" not in signed_in.get(url("event_preview", draft)).content.decode()


def test_saving_the_names_computes_no_suggestions_and_a_refused_form_shows_them(
    signed_in, club, monkeypatch
):
    # Suggestions are most of a names page's work: a submitted form of 2,000 names is read
    # without them, and only a page shown again (here with an error) computes them.
    import directors.events.names

    ann, _bob = make_players(club, ["Ann Archer", "Bob Baker"])
    event = make_event(club, [], published=False)
    white = Entry.objects.create(event=event, typed_name="Archer, Ann", start_rank=1)
    black = Entry.objects.create(event=event, typed_name="Carl Cook", start_rank=2)
    Game.objects.create(event=event, round=1, white=white, black=black, result=Result.DRAW)
    calls = []
    real = directors.events.names.suggest_prepared
    monkeypatch.setattr(
        directors.events.names,
        "suggest_prepared",
        lambda *a, **k: calls.append(a[0]) or real(*a, **k),
    )
    defaults = checked_choices(signed_in.get(url("event_names", event)).content.decode())
    assert defaults[f"decision_{white.pk}"] == f"p{ann.pk}" and len(calls) == 2

    calls.clear()
    refused = signed_in.post(
        url("event_names", event),
        {**defaults, f"start_{black.pk}": "4001", "version": fresh(event).edit_version},
    )
    assert refused.status_code == 200 and len(calls) == 2  # shown again, with its suggestions
    assert "Ann Archer" in refused.content.decode()

    calls.clear()
    saved = signed_in.post(
        url("event_names", event), {**defaults, "version": fresh(event).edit_version}
    )
    assert saved.status_code == 302 and calls == []
    assert Entry.objects.get(pk=white.pk).player == ann
    assert Entry.objects.get(pk=black.pk).player.name == "Carl Cook"
