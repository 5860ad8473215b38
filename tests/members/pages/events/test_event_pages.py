"""The event page's standings after each round, crosstable, performance ratings and player
links, and the winners on the list of events (issue 18)."""

import random
import re

import pytest
from django.db import transaction
from django.test import Client
from django.urls import reverse

from clubs.models import Club, Entry, Event, Game, Player
from clubs.results import Result
from ladder.changes import OnPages, club_changed
from ladder.tiebreaks import DEFAULT_ORDER
from members.pages.events.event_pages import Tiebreaks, first_place, read_after, round_robin
from tests.factories import make_club, make_event, new_player
from tests.members.pages.test_pages import replay, table, tables, url

pytestmark = pytest.mark.django_db

W, D, B = Result.WHITE_WIN, Result.DRAW, Result.BLACK_WIN


@pytest.fixture
def public(owner):
    return make_club(slug="knights", owner=owner, visibility=Club.Visibility.PUBLIC)


@pytest.fixture
def swiss(public):
    """Three rounds, not a round robin (Bob and Dee never meet): Bob forfeits to Ann in
    round 2 and Cid beats Ann at Chess960 in round 3, while Bob and Dee have byes."""
    ann = new_player(club=public, name="Ann Alder", start_rating=1600, start_games=30)
    bob = new_player(club=public, name="Bob Birch", start_rating=1400, start_games=30)
    cid = new_player(club=public, name="Cid Cedar", start_rating=1500, start_games=30)
    dee = new_player(club=public, name="Dee Dogwood", start_rating=1300, start_games=30)
    event = make_event(
        public,
        [
            (1, ann, dee, W),
            (1, bob, cid, D),
            (2, ann, bob, Result.WHITE_FORFEIT_WIN),
            (2, cid, dee, W),
            (3, cid, ann, W),
            (3, bob, None, Result.BYE_FULL),
            (3, dee, None, Result.BYE_ZERO),
        ],
        name="Spring Swiss",
    )
    event.games.filter(round=3, white__player=cid).update(variant="Chess960")
    replay(public)
    return {"ann": ann, "bob": bob, "cid": cid, "dee": dee, "event": event}


def event_url(club: Club, event: Event, query: str = "") -> str:
    return url(club, f"events/{event.pk}/") + query


def heading(response) -> str:
    return re.search(r'<h2 id="standings-heading">([^<]+)</h2>', response.content.decode()).group(1)


# --- standings after each round ---------------------------------------------------------------


def test_the_final_standings_link_to_the_standings_after_each_earlier_round(client, public, swiss):
    html = client.get(event_url(public, swiss["event"])).content.decode()
    nav = re.search(
        r'<nav class="filters" aria-label="Standings after each round">.*?</nav>', html, re.S
    )
    assert nav is not None
    links = re.findall(r'href="([^"]+)"', nav.group(0))
    assert links == ["?after=1", "?after=2"]  # round 3 is the last: its standings are final
    assert '<strong aria-current="page">Final standings</strong>' in nav.group(0)


def test_the_standings_after_a_round_count_only_the_games_up_to_it(client, public, swiss):
    response = client.get(event_url(public, swiss["event"], "?after=1"))
    assert response.status_code == 200
    assert heading(response) == "Standings after round 1 of 3"
    standings = table(response, "standings")
    # Rank, name, points, played, byes, forfeits, BH-C1, BH, SB, wins, perf.: no rating
    # change, which is the whole event's. Bob and Cid share rank 2: one draw, against each
    # other, and nothing else to tell them apart.
    assert [row[:4] for row in standings] == [
        ["1", "Ann Alder", "1", "1"],
        ["2", "Bob Birch", "½", "1"],
        ["2", "Cid Cedar", "½", "1"],
        ["4", "Dee Dogwood", "0", "1"],
    ]
    assert all(len(row) == 12 for row in standings)  # five tie-breaks, a perf., no change
    # The performance after round 1: Cid drew Bob (1400) -> 1400 + 0; 1543 in the end.
    assert standings[2][-1] == "1400"
    # The links to the rounds (their own page) are the whole event's.
    html = response.content.decode()
    rounds = ["rounds/?round=1", "rounds/?round=2", "rounds/?round=3", "rounds/"]
    assert re.findall(r'href="(rounds/[^"]*)"', html) == rounds
    assert len(tables(client.get(event_url(public, swiss["event"], "rounds/")), "round")) == 3
    assert '<strong aria-current="page">1</strong>' in html


def test_the_tie_breaks_after_a_round_are_those_of_the_games_up_to_it(client, public, swiss):
    after_two = table(client.get(event_url(public, swiss["event"], "?after=2")), "standings")
    final = table(client.get(event_url(public, swiss["event"])), "standings")
    by_name = {row[1]: row for row in after_two}
    # After round 2 Ann has 2, from Dee and her forfeit win; the final Buchholz adds Cid,
    # whom she met in round 3, and Dee's absence then (a draw for his opponents).
    assert by_name["Ann Alder"][2] == "2"
    assert by_name["Ann Alder"][7] != {row[1]: row for row in final}["Ann Alder"][7]


@pytest.mark.parametrize("value", ["0", "3", "99", "abc", "-1", "1.5", " 1", "٣", "1" * 30, ""])
def test_a_round_the_event_does_not_have_gives_the_final_standings(client, public, swiss, value):
    final = table(client.get(event_url(public, swiss["event"])), "standings")
    response = client.get(event_url(public, swiss["event"]), {"after": value})
    assert response.status_code == 200
    assert heading(response) == "Standings"
    assert table(response, "standings") == final


def test_an_event_of_one_round_offers_no_earlier_standings(client, public, swiss):
    one = make_event(public, [(1, swiss["ann"], swiss["bob"], W)], name="One round")
    html = client.get(event_url(public, one)).content.decode()
    assert "Standings after each round" not in html


@pytest.mark.parametrize(
    ("value", "expected"),
    [(None, None), ("1", 1), ("12", 12), ("9999", 9999), ("10000", None), ("0", None),
     ("01", None), ("+1", None), ("1 ", None), ("١", None), ("", None)],
)  # fmt: skip
def test_read_after(value, expected):
    assert read_after(value) == expected


def test_a_page_after_a_round_is_kept_apart_and_shared_like_the_event_page(swiss, public):
    path = event_url(public, swiss["event"])
    first, again = Client().get(path + "?after=1"), Client().get(path + "?after=1")
    assert (first["X-Page-Cache"], again["X-Page-Cache"]) == ("miss", "hit")
    assert again.content == first.content
    assert Client().get(path + "?after=2")["X-Page-Cache"] == "miss"
    assert Client().get(path)["X-Page-Cache"] == "miss"
    # Public club: a shared cache may keep it a minute, and it has its own validator.
    assert again["Cache-Control"] == Client().get(path)["Cache-Control"]
    assert "public" in again["Cache-Control"]
    assert again["ETag"] != Client().get(path)["ETag"]
    not_modified = Client().get(path + "?after=1", HTTP_IF_NONE_MATCH=again["ETag"])
    assert not_modified.status_code == 304
    # A value no link writes is built fresh every time and never kept.
    for junk in ("?after=abc", "?after=0", "?after=1&after=2", "?after=100"):
        assert "X-Page-Cache" not in Client().get(path + junk), junk


def test_an_unlisted_clubs_page_after_a_round_is_never_kept_by_a_shared_cache(swiss, public):
    Club.objects.filter(pk=public.pk).update(visibility=Club.Visibility.UNLISTED)
    public.refresh_from_db()
    response = Client().get(event_url(public, swiss["event"], "?after=1"))
    assert response.status_code == 200
    assert "private" in response["Cache-Control"] and "public" not in response["Cache-Control"]
    assert response["X-Robots-Tag"] == "noindex, nofollow"
    bare = reverse("club_event", args=[public.slug, swiss["event"].pk]) + "?after=1"
    assert Client().get(bare).status_code == 404


def test_a_directors_page_after_a_round_is_never_shared(client, swiss, public, owner):
    client.force_login(owner)
    response = client.get(event_url(public, swiss["event"], "?after=1"))
    assert heading(response) == "Standings after round 1 of 3"
    assert "X-Page-Cache" not in response and "public" not in response["Cache-Control"]


# --- performance ratings ----------------------------------------------------------------------


def test_the_performance_counts_only_standard_games_over_the_board(client, public, swiss):
    response = client.get(event_url(public, swiss["event"]))
    perf = {row[1]: row[11] for row in table(response, "standings")}
    # Ann: her forfeit win is no game and her Chess960 loss no standard chess: only her win
    # against Dee (1300) counts -> 1300 + 800.
    assert perf["Ann Alder"] == "2100"
    # Bob: his forfeit loss and his bye left out, a draw with Cid (1500): 1500 + 0.
    assert perf["Bob Birch"] == "1500"
    # Cid: drew Bob (1400), beat Dee (1300): average 1350, p = .75 -> +193.
    assert perf["Cid Cedar"] == "1543"
    # Dee: lost to Ann (1600) and Cid (1500): 1550 − 800.
    assert perf["Dee Dogwood"] == "750"
    html = response.content.decode()
    assert '<abbr title="Performance rating">Perf.</abbr>' in html
    assert "Perf. is the performance rating, as FIDE computes it" in html


def test_a_player_without_a_game_over_the_board_has_no_performance(client, public, swiss):
    eve = Player.objects.create(club=public, name="Eve Elm")
    event = make_event(
        public,
        [
            (1, swiss["ann"], eve, Result.BLACK_FORFEIT_WIN),
            (1, swiss["bob"], None, Result.BYE_FULL),
        ],
    )
    replay(public)
    perf = {row[1]: row[11] for row in table(client.get(event_url(public, event)), "standings")}
    # Nobody played a game over the board: each is marked so beside the name.
    assert perf == {
        "Eve Elm (did not play)": "—",
        "Bob Birch (did not play)": "—",
        "Ann Alder (did not play)": "—",
    }


def test_bughouse_shows_no_performance(client, public, swiss):
    event = make_event(public, [(1, swiss["ann"], swiss["bob"], W)], kind=Event.Kind.BUGHOUSE)
    replay(public)
    html = client.get(event_url(public, event)).content.decode()
    assert "Perf." not in html


# --- crosstables ------------------------------------------------------------------------------


def test_a_double_round_robin_gets_a_crosstable_with_both_games_in_each_cell(client, public):
    a, b, c = (Player.objects.create(club=public, name=n) for n in ["Ann", "Bob", "Cid"])
    event = make_event(
        public,
        [(1, a, b, W), (2, b, c, D), (3, c, a, B), (4, b, a, D), (5, c, b, W), (6, a, c, D)],
    )
    replay(public)
    response = client.get(event_url(public, event))
    rows = table(response, "crosstable")
    assert [row[1] for row in rows] == ["Ann", "Cid", "Bob"]
    cells = {row[1]: row for row in rows}
    # Columns in standings order; each cell the row player's games against the column's.
    assert cells["Ann"][2:5] == ["", "1won ½drew", "1won ½drew"]
    assert cells["Bob"][2:5] == ["0lost ½drew", "½drew 0lost", ""]
    # Column heads: the row's number, and the name for a screen reader.
    head = tables(response, "crosstable")[0][0]
    assert head[2:5] == ["1Ann", "2Cid", "3Bob"]


def test_the_crosstable_is_a_focusable_labelled_scroll_region(client, public):
    a, b, c = (Player.objects.create(club=public, name=n) for n in ["Ann", "Bob", "Cid"])
    event = make_event(public, [(1, a, b, W), (2, b, c, D), (3, c, a, B)])
    html = client.get(event_url(public, event)).content.decode()
    assert (
        '<div class="scroll" role="region" aria-labelledby="crosstable-heading" tabindex="0">'
        in html
    )
    assert '<h2 id="crosstable-heading">Crosstable</h2>' in html
    assert "1 a win, ½ a draw, 0 a loss, + a win by forfeit, − a loss by forfeit" in html


def test_a_swiss_where_some_pair_met_twice_is_no_round_robin():
    # (round, white, black, result, variant)
    single = [(1, 1, 2, W, ""), (2, 2, 3, D, ""), (3, 3, 1, B, ""), (3, 4, None, "bye1", "")]
    assert round_robin(single)
    assert not round_robin([*single, (4, 1, 2, W, "")])  # one pair twice, the others once
    assert round_robin([*single, (4, 1, 2, W, ""), (5, 2, 3, W, ""), (6, 1, 3, D, "")])
    assert not round_robin(single[:2])  # Ann and Cid never met
    assert not round_robin([(1, 1, 2, W, "")])  # two players: a match, not a round robin


# --- names as links, under the privacy rules --------------------------------------------------


def test_every_name_on_the_event_page_links_to_the_players_page(client, public, swiss):
    response = client.get(event_url(public, swiss["event"]))
    html = response.content.decode()
    ann = swiss["ann"]
    link = f'<a href="/c/knights/players/{ann.pk}/">Ann Alder</a>'
    rounds = client.get(event_url(public, swiss["event"], "rounds/")).content.decode()
    boards = re.findall(r'<table class="round">.*?</table>', rounds, re.S)
    assert len(boards) == 3
    assert all(link in board for board in boards)  # Ann played in every round
    standings = re.search(r'<table class="standings">.*?</table>', html, re.S).group(0)
    assert link in standings


def test_a_round_robins_crosstable_names_link_to_the_players_pages(client, public):
    a, b, c = (Player.objects.create(club=public, name=n) for n in ["Ann", "Bob", "Cid"])
    event = make_event(public, [(1, a, b, W), (2, b, c, D), (3, c, a, B)])
    html = client.get(event_url(public, event)).content.decode()
    crosstable = re.search(r'<table class="crosstable">.*?</table>', html, re.S).group(0)
    for player in (a, b, c):
        assert f'<th scope="row"><a href="/c/knights/players/{player.pk}/">' in crosstable


def test_an_unconfirmed_entrant_is_named_but_not_linked(client, public, swiss):
    event = make_event(public, [(1, swiss["ann"], swiss["bob"], W)])
    stranger = Entry.objects.create(event=event, typed_name="Walk In", start_rank=3)
    ann_entry = event.entries.get(player=swiss["ann"])
    Game.objects.create(event=event, round=2, white=stranger, black=ann_entry, result=D)
    html = client.get(event_url(public, event)).content.decode()
    assert "<td>unconfirmed player</td>" in html
    rounds = client.get(event_url(public, event, "rounds/")).content.decode()
    assert "<td>unconfirmed player</td>" in rounds
    link = f'href="/c/knights/players/{swiss["ann"].pk}/"'
    assert html.count(link) == 1  # the standings (no replay: no rating changes)
    assert rounds.count(link) == 2  # both of her boards


def test_an_events_own_link_names_everyone_without_links(client, public, swiss):
    event = swiss["event"]
    html = client.get(reverse("shared_event", args=[event.share_token]) + "?after=1").content
    html = html.decode()
    assert "Standings after round 1 of 3" in html and "Ann Alder" in html
    assert "/players/" not in html


# --- the list of events: winners --------------------------------------------------------------


def test_the_list_of_events_names_each_winner_after_the_tie_breaks(client, public, swiss):
    rows = {row[1]: row for row in table(client.get(url(public, "events/")), "events")}
    # Cid 2½ (his Chess960 win scores in the standings), Ann 2, Bob 1½, Dee 0.
    assert rows["Spring Swiss"][3] == "Cid Cedar"
    html = client.get(url(public, "events/")).content.decode()
    assert f'<td><a href="/c/knights/players/{swiss["cid"].pk}/">Cid Cedar</a></td>' in html


def test_many_sharingfirst_place_are_counted_and_no_game_no_winner(client, public):
    players = [Player.objects.create(club=public, name=f"Player {n}") for n in range(8)]
    make_event(
        public, [(1, players[n], players[n + 1], D) for n in range(0, 8, 2)], name="All draws"
    )
    empty = Event.objects.create(
        club=public, name="Rained off", date="2026-01-11", status=Event.Status.PUBLISHED
    )
    Entry.objects.create(event=empty, typed_name="Player 0", player=players[0], start_rank=1)
    rows = {row[1]: row for row in table(client.get(url(public, "events/")), "events")}
    assert rows["All draws"][3] == "8 players share first place"
    assert rows["Rained off"][3] == "—"


def test_a_juniors_win_is_listed_by_initials(client, public):
    jasper = Player.objects.create(club=public, name="Jasper Bakker", junior=True)
    henk = Player.objects.create(club=public, name="Henk Bos")
    make_event(public, [(1, jasper, henk, W)], name="Junior cup")
    html = client.get(url(public, "events/")).content.decode()
    assert f'<a href="/c/knights/players/{jasper.pk}/">J. B.</a>' in html
    assert "Jasper" not in html and "Bakker" not in html


def test_the_kind_filter_keeps_the_winners(client, public, swiss):
    rows = table(client.get(url(public, "events/"), {"kind": "standard"}), "events")
    assert [row[3] for row in rows] == ["Cid Cedar"]
    assert tables(client.get(url(public, "events/"), {"kind": "blitz"}), "events") == []


@pytest.mark.parametrize("seed", range(40))
def test_the_winners_shortcut_agrees_with_the_full_tie_breaks(seed):
    """A sole leader on points is taken without computing tie-breaks; whoever leads, the
    first place is the one of the full computation."""
    rng = random.Random(seed)
    entries = list(range(1, rng.randint(3, 12)))
    codes = [W, D, B, Result.WHITE_FORFEIT_WIN, Result.DOUBLE_FORFEIT]
    games = []
    for round_no in range(1, rng.randint(1, 6) + 1):
        rng.shuffle(entries)
        pairs = zip(entries[::2], entries[1::2], strict=False)  # the odd one out gets a bye
        games += [(round_no, a, b, rng.choice(codes), "") for a, b in pairs]
        if len(entries) % 2:
            games.append((round_no, entries[-1], None, Result.BYE_PAIRING, ""))
    values = Tiebreaks(DEFAULT_ORDER, round_robin(games)).compute(sorted(entries), games)
    expected = [] if values[0].points == 0 else [v.player for v in values if v.rank == 1]
    assert sorted(first_place(games, DEFAULT_ORDER)) == sorted(expected)


def test_the_standings_follow_the_clubs_tie_break_order(client, public, swiss):
    default = table(client.get(event_url(public, swiss["event"])), "standings")
    Club.objects.filter(pk=public.pk).update(tiebreak_order=["won", "sb"])
    public.refresh_from_db()
    with transaction.atomic():
        club_changed(public.pk, OnPages())
    html = client.get(event_url(public, swiss["event"])).content.decode()
    heads = re.findall(r'<abbr title="([^"]+)">', html.split('id="standings-heading"')[1])
    assert heads[:2] == ["Games won over the board", "Sonneborn-Berger"]
    chosen = table(client.get(event_url(public, swiss["event"])), "standings")
    # Two tie-break columns instead of five; the points and names stay, the ranks follow
    # the wins first.
    assert len(chosen[0]) == len(default[0]) - 3
    assert sorted(row[1] for row in chosen) == sorted(row[1] for row in default)
    wins = [int(row[6]) for row in chosen]
    points = [row[2] for row in chosen]
    for above, below in zip(range(len(chosen)), range(1, len(chosen)), strict=False):
        if points[above] == points[below]:
            assert wins[above] >= wins[below]


def test_a_stored_order_this_version_cannot_read_falls_back_to_fides(client, public, swiss):
    Club.objects.filter(pk=public.pk).update(tiebreak_order=["nonsense"])
    response = client.get(event_url(public, swiss["event"]))
    assert response.status_code == 200
    heads = re.findall(r'<abbr title="([^"]+)">', response.content.decode())
    assert heads[:5] == [
        "Buchholz Cut-1", "Buchholz", "Sonneborn-Berger", "Direct encounter",
        "Games won over the board",
    ]  # fmt: skip
