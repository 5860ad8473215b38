"""What the director is told after uploading a file other programs wrote (issue 23): how the
rounds of a PGN were numbered, and each player whose points column and rounds disagree."""

from __future__ import annotations

import datetime as dt
from html import unescape

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from clubs.models import Event
from tests.corpus import TRF_CORPUS
from tests.directors.importers.trf_lines import player

pytestmark = pytest.mark.django_db
CORPUS = TRF_CORPUS


def pgn(*games: tuple[str, str, str]) -> bytes:
    return "\n".join(
        f'[Event "Match"]\n[Round "{round_tag}"]\n[White "{white}"]\n[Black "{black}"]\n'
        '[Result "1/2-1/2"]\n\n1/2-1/2\n'
        for round_tag, white, black in games
    ).encode()


@pytest.fixture
def draft(client, director, club):
    client.force_login(director)
    return Event.objects.create(club=club, name="Imported", date=dt.date(2026, 10, 3))


def upload(client, event, name, data) -> str:
    response = client.post(
        reverse("event_upload", args=[event.club.slug, event.pk]),
        {
            "file": SimpleUploadedFile(name, data),
            "format": "auto",
            "version": Event.objects.get(pk=event.pk).edit_version,
        },
        follow=True,
    )
    assert response.status_code == 200
    return unescape(response.content.decode())


def test_an_engine_match_tagged_round_1_is_numbered_and_the_director_told(client, draft):
    page = upload(client, draft, "match.pgn", pgn(*[("1", "Stockfish", "Leela")] * 4))
    assert "Line 1: every game of the file is tagged round 1" in page
    assert sorted(draft.games.values_list("round", flat=True)) == [1, 2, 3, 4]


def test_a_game_whose_round_is_lost_is_numbered_and_the_director_told(client, draft):
    data = pgn(("1", "Ann", "Bob"), ("1", "Cid", "Dan"), ("?", "Eve", "Fay"), ("2", "Ann", "Cid"))
    page = upload(client, draft, "club.pgn", data)
    assert "Line 17: this game's Round tag is '?', so it was put in round 1" in page
    assert list(draft.games.order_by("id").values_list("round", flat=True)) == [1, 1, 1, 2]


def test_a_matchs_games_are_stored_in_their_round(client, draft):
    data = pgn(("1.1", "Ann", "Bob"), ("1.2", "Bob", "Ann"), ("2.1", "Ann", "Bob"))
    upload(client, draft, "knockout.pgn", data)
    assert list(draft.games.order_by("id").values_list("round", flat=True)) == [1, 1, 2]


def test_every_player_whose_points_and_rounds_disagree_is_listed(client, draft):
    path = CORPUS / "greek_friendship_cup_heraklion_2024_team.trf"
    if not path.exists():
        pytest.skip("the shared TRF corpus is not here")
    page = upload(client, draft, path.name, path.read_bytes())
    listed = [note for note in page.split("</li>") if "the points column says" in note]
    assert len(listed) == 12
    assert any(
        "Line 28: the points column says 3.5 for player 9 (Hatzidakis,Nikolaos), but the round "
        "results add up to 2.5" in line
        for line in listed
    )


def test_notes_past_the_first_twenty_are_counted_with_their_lines(client, draft):
    # 26 players, each with a points column of 5 after one game: 26 notes.
    lines = [
        player(key, f"Player {key:02d}", (key + 1 if key % 2 else key - 1, "w" if key % 2 else "b",
               "1" if key % 2 else "0"), points="5.0")
        for key in range(1, 27)
    ]  # fmt: skip
    page = upload(client, draft, "many.trf", "\n".join(lines).encode())
    shown = [note for note in page.split("</li>") if "the points column says" in note]
    assert len(shown) == 20
    assert "6 more notes about the file are not shown here: lines 21, 22, 23, 24, 25, 26." in page
