"""An entrant who played no game (only a forfeit, or nothing) is shown as such in the final
standings and the wall chart (issue 23, part 3)."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.urls import reverse

from clubs.models import Club, Entry
from clubs.results import Result
from ladder.replay import replay_ladder
from tests.factories import make_club, make_event, make_players

pytestmark = pytest.mark.django_db
W, D = Result.WHITE_WIN, Result.DRAW


@pytest.fixture
def swiss():
    club = make_club(slug="absent-chart", visibility=Club.Visibility.PUBLIC)
    ann, bob, cid, dan = make_players(club, ["Ann Alder", "Bob Birch", "Cid Cedar", "Dan Dogwood"])
    event = make_event(
        club,
        [
            (1, ann, bob, W),
            (1, cid, dan, Result.WHITE_FORFEIT_WIN),  # Dan never came
            (2, ann, cid, D),
            (2, bob, None, Result.BYE_FULL),
        ],
        name="Autumn Swiss",
    )
    Entry.objects.create(event=event, typed_name="Eve Elm", start_rank=5)  # entered, no game
    replay_ladder(club.pk, full=True)
    return club, event


def rows_of(html: str, table: str) -> dict[str, str]:
    """Each row of the table's body by its entrant's name: the row's text."""
    body = re.search(rf'<table class="{table}">.*?<tbody>(.*?)</tbody>', html, re.S)
    assert body is not None, table
    found = {}
    for row in re.findall(r"<tr>(.*?)</tr>", body.group(1), re.S):
        text = " ".join(unescape(re.sub(r"<[^>]+>", " ", row)).split())
        # Eve has no player: the page calls her an unconfirmed player.
        name = next((n for n in ("Ann", "Bob", "Cid", "Dan") if n in text), "Eve")
        found[name] = text
    return found


@pytest.mark.parametrize(
    ("page", "table"), [("club_event", "standings"), ("club_event_wallchart", "wallchart")]
)
def test_an_entrant_without_a_game_over_the_board_did_not_play(client, swiss, page, table):
    club, event = swiss
    html = client.get(reverse(page, args=[club.slug, event.pk])).content.decode()
    rows = rows_of(html, table)
    absent = {name for name, text in rows.items() if "(did not play)" in text}
    # Cid won by forfeit but drew Ann over the board; Bob's bye is no game, his win is.
    assert absent == {"Dan", "Eve"}


def test_did_not_play_is_translated(client, swiss):
    club, event = swiss
    path = reverse("club_event", args=[club.slug, event.pk])
    words = {"nl": "(niet gespeeld)", "de": "(nicht gespielt)", "hi": "(नहीं खेले)"}
    for language, marker in words.items():
        html = client.get(path, HTTP_ACCEPT_LANGUAGE=language).content.decode()
        assert marker in rows_of(html, "standings")["Dan"], language
