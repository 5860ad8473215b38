"""The club pages: ladder, roster, player, events, event, exports and the directors' settings."""

import csv
import datetime as dt
import io
import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import timezone

from clubs.models import AuditEntry, Club, Event, Ladder, Player
from clubs.results import Result
from directors.events.publishing import delete_event
from directors.importers import parse_file
from ladder.replay import replay_ladder
from tests.factories import first_ladder, make_club, make_event, new_player, standing

pytestmark = pytest.mark.django_db

W, D, B = Result.WHITE_WIN, Result.DRAW, Result.BLACK_WIN


class _Tables(HTMLParser):
    """Every table row of a page as the list of its cells' texts, by the table's class."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: list[tuple[str, list[list[str]]]] = []
        self._cell: list[str] | None = None
        self._row: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        if tag == "table":
            self.tables.append((dict(attrs).get("class") or "", []))
        elif tag == "tr" and self.tables:
            self._row = []
        elif tag in ("td", "th") and self._row is not None:
            self._cell = []

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._cell is not None and self._row is not None:
            self._row.append(" ".join("".join(self._cell).split()))
            self._cell = None
        elif tag == "tr" and self._row is not None:
            self.tables[-1][1].append(self._row)
            self._row = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)


def tables(response, css_class: str) -> list[list[list[str]]]:
    parser = _Tables()
    parser.feed(response.content.decode())
    return [rows for cls, rows in parser.tables if css_class in cls.split()]


def table(response, css_class: str) -> list[list[str]]:
    """The body rows of the first table with this class."""
    return tables(response, css_class)[0][1:]


def url(club: Club, suffix: str = "") -> str:
    """A club page as a visitor reaches it: with the secret unless the club is public."""
    if club.visibility == Club.Visibility.PUBLIC:
        return reverse("club_page", args=[club.slug]) + suffix
    return reverse("club_page_secret", args=[club.slug, club.secret]) + suffix


def rated(club: Club, name: str, rating: float, games: int, **fields) -> Player:
    """A player as a replay leaves them, without building a history."""
    fields.setdefault("provisional", games < 5)
    return new_player(club=club, name=name, rating=rating, rated_games=games, **fields)


def replay(club: Club) -> None:
    replay_ladder(club.pk, full=True)
    club.refresh_from_db()


@pytest.fixture
def public(owner):
    return make_club(slug="knights", owner=owner, visibility=Club.Visibility.PUBLIC)


# --- the ladder -------------------------------------------------------------------------------


def test_the_ladder_lists_established_players_by_rating_then_provisional_ones(client, public):
    today = timezone.localdate()
    rated(public, "Ann Alder", 1500.4, 30, last_played=today, last_change=12.26)
    rated(public, "Bob Birch", 1600.6, 12, last_played=today, last_change=-3.04)
    rated(public, "Cid Cedar", 1700, 2, last_played=today)
    rated(public, "Dee Dogwood", 1450, 4, last_played=today, last_change=0.0)
    Player.objects.create(club=public, name="Eve Elm")  # no rated game: not on the ladder

    response = client.get(url(public))

    rows = table(response, "ladder")
    assert [row[:4] for row in rows] == [
        ["1", "Bob Birch", "1601", "12"],
        ["2", "Ann Alder", "1500", "30"],
        ["3", "Cid Cedar provisional 3 more rated games to be established", "1700", "2"],
        ["4", "Dee Dogwood provisional 1 more rated game to be established", "1450", "4"],
    ]
    assert [row[5] for row in rows] == ["▼down −3.0", "▲up +12.3", "—", "0.0"]
    assert "Eve Elm" not in response.content.decode()


def test_provisional_players_are_grey_and_also_marked_in_words(client, public):
    rated(public, "Cid Cedar", 1700, 2)
    html = client.get(url(public)).content.decode()
    row = re.search(r"<tr[^>]*>(?:(?!</tr>).)*Cid Cedar.*?</tr>", html, re.S).group(0)
    assert row.startswith('<tr class="provisional">')
    assert '<span class="tag">provisional</span>' in row


def test_the_active_filter_keeps_players_who_played_in_the_last_twelve_months(client, public):
    today = timezone.localdate()
    rated(public, "Recent Player", 1500, 30, last_played=today - dt.timedelta(days=364))
    rated(public, "Long Gone", 1600, 30, last_played=today - dt.timedelta(days=400))

    everyone = [row[1] for row in table(client.get(url(public)), "ladder")]
    active = [row[1] for row in table(client.get(url(public), {"active": "1"}), "ladder")]

    assert everyone == ["Long Gone", "Recent Player"]
    assert active == ["Recent Player"]


def test_the_active_filter_says_so_when_nobody_played_in_the_last_twelve_months(client, public):
    today = timezone.localdate()
    rated(public, "Long Gone", 1600, 30, last_played=today - dt.timedelta(days=400))
    html = client.get(url(public), {"active": "1"}).content.decode()
    assert "Nobody has played in the last 12 months." in html
    assert "No rated games yet." not in html
    assert "Long Gone" in client.get(url(public)).content.decode()


def test_the_print_stylesheet_hides_the_search_and_the_after_round_links():
    css = (Path(settings.BASE_DIR) / "static/css/site.css").read_text()
    print_rules = " ".join(re.findall(r"@media print \{([^@]*?)\}\s*\}?", css))
    for selector in (".list-search", "nav.filters"):
        assert selector in print_rules


def test_every_page_links_the_favicon(client, public):
    html = client.get(url(public)).content.decode()
    found = re.search(r'<link rel="icon" href="([^"]+)"', html)
    assert found is not None
    assert (Path(settings.BASE_DIR) / "static" / "favicon.svg").is_file()


def test_every_page_says_when_the_ladder_is_being_recalculated(client, public):
    ann = rated(public, "Ann Alder", 1500, 30)
    event = make_event(public, [(1, ann, rated(public, "Bob Birch", 1400, 30), W)])
    pages = ["", "players/", f"players/{ann.pk}/", "events/", f"events/{event.pk}/"]
    notice = "The ladder is being recalculated"

    Ladder.objects.filter(club_id=public.pk).update(data_version=1, built_version=1)
    assert not any(notice in client.get(url(public, p)).content.decode() for p in pages)

    Ladder.objects.filter(club_id=public.pk).update(data_version=2)
    for page in pages:
        assert notice in client.get(url(public, page)).content.decode(), page


# --- a hand-built history: the player page and the event page ---------------------------------


@pytest.fixture
def history(public):
    """Ann and Bob are established with K 20, Dee established with K 40, Cid provisional."""
    ann = new_player(club=public, name="Ann Alder", start_rating=1500, start_games=30)
    bob = new_player(club=public, name="Bob Birch", start_rating=1400, start_games=30)
    cid = Player.objects.create(club=public, name="Cid Cedar")
    dee = new_player(club=public, name="Dee Dogwood", start_rating=1300, start_games=10)
    swiss = make_event(
        public,
        [
            (1, ann, bob, W),
            (1, cid, dee, D),  # protection: counts for Cid only
            (2, ann, dee, Result.WHITE_FORFEIT_WIN),
            (2, bob, None, Result.BYE_FULL),
            (2, cid, None, Result.BYE_HALF),
            (3, dee, ann, Result.UNRATED_WHITE_WIN),
            (3, bob, cid, B),  # protection: counts for Cid only
        ],
        date=dt.date(2026, 1, 10),
        name="January Swiss",
    )
    friendly = make_event(
        public, [(1, ann, bob, D)], date=dt.date(2026, 2, 1), name="Friendly", rated=False
    )
    bughouse = make_event(
        public,
        [(1, ann, cid, W)],
        date=dt.date(2026, 3, 1),
        name="Bughouse night",
        kind=Event.Kind.BUGHOUSE,
    )
    replay(public)
    return {
        "ann": ann,
        "bob": bob,
        "cid": cid,
        "dee": dee,
        "swiss": swiss,
        "friendly": friendly,
        "bughouse": bughouse,
    }


def test_the_player_page_shows_rating_status_and_the_lifetime_record(client, public, history):
    ann = history["ann"]
    response = client.get(url(public, f"players/{ann.pk}/"))
    html = response.content.decode()

    assert "<h1>Ann Alder</h1>" in html
    assert re.search(r"<dt>Rating</dt><dd>1507</dd>", html)  # 1500 + 20 x (1 - 0.64)
    assert re.search(r"<dt>Status</dt><dd>established</dd>", html)
    # Over the board: the win against Bob, the draw in the friendly, the bughouse win and the
    # unrated loss to Dee; the forfeit is counted apart.
    assert table(response, "record") == [["4", "2", "1", "1", "0", "1", "0"]]


def test_byes_are_counted_apart_in_the_lifetime_record(client, public, history):
    response = client.get(url(public, f"players/{history['bob'].pk}/"))
    #                                    played won drawn lost byes forfeits won/lost
    assert table(response, "record") == [["3", "0", "1", "2", "1", "0", "0"]]


def test_the_breakdown_shows_each_game_and_why_it_did_or_did_not_count(client, public, history):
    ann, swiss = history["ann"], history["swiss"]
    response = client.get(url(public, f"players/{ann.pk}/"))
    html = response.content.decode()

    games = tables(response, "games")
    assert len(games) == 3  # one table per event, newest first
    bughouse, friendly, january = (rows[1:] for rows in games)
    assert january == [
        ["1", "white", "Bob Birch", "1400", "0.6401", "1", "yes"],
        [
            "2",
            "white",
            "Dee Dogwood",
            "1300",
            "—",
            "+",
            "Not counted: the game was not played (a forfeit, or no result).",
        ],
        [
            "3",
            "black",
            "Dee Dogwood",
            "1300",
            "—",
            "0",
            "Not counted: this result was entered as not rated.",
        ],
    ]
    assert friendly == [
        ["1", "white", "Bob Birch", "1393", "—", "½", "Not counted: this event was not rated."]
    ]
    assert bughouse[0][-1] == "Not counted: bughouse is a team game, and only chess is rated."
    # The sentence that answers "why did I gain so little".
    assert (
        "Rating 1500.0 before the event, 1507.2 after it. In the one counted game: score 1, "
        "expected 0.6401." in html
    )
    # 20 × (1 − 0.6401) = 7.198: the sum adds up from the numbers it shows.
    assert "Change = K × (score − expected) = 20 × (1 − 0.6401) = +7.2." in html
    assert f'href="{url(public, f"events/{swiss.pk}/")}"' in html


def test_the_protection_rule_is_explained_on_the_established_players_page(client, public, history):
    response = client.get(url(public, f"players/{history['dee'].pk}/"))
    (january,) = tables(response, "games")
    assert january[1] == [
        "1",
        "black",
        "Cid Cedar",
        "1200",
        "—",
        "½",
        "Not counted for you: your opponent was still provisional, so your rating was protected.",
    ]
    response = client.get(url(public, f"players/{history['cid'].pk}/"))
    cid_january = tables(response, "games")[-1]
    assert cid_january[1][-1] == "yes"
    assert cid_january[1][4] == "0.3599"  # 1200 against 1300


def test_the_player_page_has_the_chart_and_the_same_numbers_in_a_table(client, public, history):
    response = client.get(url(public, f"players/{history['ann'].pk}/"))
    html = response.content.decode()
    svg = re.search(r"<svg .*?</svg>", html, re.S).group(0)
    assert 'viewBox="0 0 480 270"' in svg
    assert '<title id="chart-title">Rating history of Ann Alder</title>' in svg
    # The start, then one point per event: only the Swiss was rated. Each kind has a key.
    assert svg.count('<circle class="rated"') == 1 + 1
    assert svg.count('<rect class="unrated"') == 2 + 1
    assert svg.count('<path class="start"') == 1 + 1
    (history_table,) = tables(response, "visually-hidden")
    assert history_table[1:] == [
        ["10 Jan 2026", "Starting rating", "1500"],
        ["10 Jan 2026", "January Swiss", "1507"],
        ["1 Feb 2026", "Friendly (not rated)", "1507"],
        ["1 Mar 2026", "Bughouse night (not rated)", "1507"],
    ]
    changes = re.findall(r'<span class="change">([^<]+)</span>', html)
    assert changes == ["0.0", "0.0", "+7.2"]


def test_a_merged_players_page_leads_to_the_player_they_were_merged_into(client, public, history):
    ann, bob = history["ann"], history["bob"]
    Player.objects.filter(pk=bob.pk).update(merged_into=ann)
    response = client.get(url(public, f"players/{bob.pk}/"))
    assert response.status_code == 302
    assert response["Location"] == url(public, f"players/{ann.pk}/")


def test_the_event_page_counts_byes_and_forfeits_in_the_standings(client, public, history):
    response = client.get(url(public, f"events/{history['swiss'].pk}/"))
    standings = table(response, "standings")
    #  rank, name, points, played, byes, forfeits, then the club's tie-breaks (FIDE's default
    #  order: Buchholz Cut-1, Buchholz, SB, direct encounter, wins), perf., change. The event
    #  is of January 2026, so C.07 as before the 2026 amendment (ladder.tiebreaks.rules_on):
    #  an unplayed round counts as a dummy opponent with the player's own final score.
    #  Ann and Cid tie on 2; they never met (DE 0 each), Buchholz Cut-1 separates them:
    #  Ann: Bob (1, his full-point bye not his choice) + her forfeit win (dummy: her own 2) +
    #  Dee (1½) = 4½, cut the lowest (Bob's 1) -> 3½; SB 1 x 1 + 1 x 2 + 0 x 1½ = 3.
    #  Cid: Dee (1½) + his half bye (a VUR, dummy: his own 2) + Bob (1) = 4½, the VUR cut
    #  first -> 2½; SB ½ x 1½ + ½ x 2 + 1 x 1 = 2.75.
    #  Dee: Cid (2) + the forfeit she lost (a VUR, dummy: her own 1½) + Ann (2) = 5½, cut the
    #  VUR -> 4; SB ½ x 2 + 0 + 1 x 2 = 3. Bob: Ann (2) + his bye (dummy: 1) + Cid (2) = 5,
    #  cut 1 -> 4; SB 1 x 1 = 1.
    # Perf. counts the games over the board only (FIDE TPR, opponents' ratings before the
    # event): Ann beat Bob (1400), 1 of 1 -> 1400 + 800; Cid drew Dee (1300) and beat Bob
    # (1400): average 1350, p = .75 -> +193; Bob lost to Ann (1500) and Cid (1200) -> −800.
    assert standings == [
        ["1", "Ann Alder", "2", "2", "0", "1", "3.5", "4.5", "3.00", "0", "1", "2200", "+7.2"],
        ["2", "Cid Cedar", "2", "2", "1", "0", "2.5", "4.5", "2.75", "0", "1", "1543", "+36.0"],
        ["3", "Dee Dogwood", "1½", "2", "0", "1", "4", "5.5", "3.00", "0", "1", "1200", "0.0"],
        ["4", "Bob Birch", "1", "2", "1", "0", "4", "5", "1.00", "0", "0", "550", "−7.2"],
    ]


def test_the_events_rounds_page_lists_every_round(client, public, history):
    response = client.get(url(public, f"events/{history['swiss'].pk}/rounds/"))
    rounds = [rows[1:] for rows in tables(response, "round")]
    assert rounds == [
        [["1", "Ann Alder", "1–0", "Bob Birch"], ["2", "Cid Cedar", "½–½", "Dee Dogwood"]],
        [
            ["1", "Ann Alder", "+ – − (forfeit)", "Dee Dogwood"],
            ["2", "Bob Birch", "full-point bye", "—"],
            ["3", "Cid Cedar", "half-point bye", "—"],
        ],
        [
            ["1", "Dee Dogwood", "1–0 (unrated)", "Ann Alder"],
            ["2", "Bob Birch", "0–1", "Cid Cedar"],
        ],
    ]


def test_the_event_page_shows_the_rating_changes(client, public, history):
    response = client.get(url(public, f"events/{history['swiss'].pk}/"))
    changes = table(response, "rating-changes")
    assert [row[0] for row in changes] == ["Cid Cedar", "Ann Alder", "Dee Dogwood", "Bob Birch"]
    # One decimal, as the player page's breakdown, so that before + change = after; the
    # expected score with four, and the change worked out from the printed numbers.
    assert changes[1] == [
        "Ann Alder", "1500.0", "1", "1", "0.6401", "+7.2", "1507.2", "20 × (1 − 0.6401) = +7.2"
    ]  # fmt: skip
    assert changes[0][:4] == ["Cid Cedar", "1200.0", "2", "1.5"]
    assert changes[0][5:7] == ["+36.0", "1236.0"]
    assert changes[0][7] == f"40 × (1.5 − {changes[0][4]}) = +36.0"


def test_an_unrated_event_shows_no_rating_changes(client, public, history):
    response = client.get(url(public, f"events/{history['friendly'].pk}/"))
    html = response.content.decode()
    assert "not rated" in html
    assert not tables(response, "rating-changes")
    assert len(table(response, "standings")[0]) == 12  # a performance but no change column


def test_a_round_robin_gets_a_crosstable(client, public):
    a, b, c, d = (
        Player.objects.create(club=public, name=name) for name in ["Ann", "Bob", "Cid", "Dee"]
    )
    event = make_event(
        public,
        [
            (1, a, b, W),
            (1, c, d, D),
            (2, a, c, D),
            (2, d, b, Result.WHITE_FORFEIT_WIN),
            (3, d, a, B),
            (3, b, c, W),
        ],
    )
    replay(public)
    response = client.get(url(public, f"events/{event.pk}/"))
    crosstable = table(response, "crosstable")
    # Bob and Cid tie on 1; Buchholz Cut-1 puts Cid first: Dee 1½ + Ann 2½ + Bob 1½ (his
    # forfeit loss counted as a draw) = 5½, cut 1½ -> 4, against Bob's Ann 2½ + Cid 1, his
    # forfeit loss (own 1) cut first -> 3½.
    assert [row[1] for row in crosstable] == ["Ann", "Dee", "Cid", "Bob"]
    cells = {row[1]: row for row in crosstable}
    order = [row[1] for row in crosstable]
    col = {name: 2 + order.index(name) for name in order}
    # Each symbol shown, and said in words to a screen reader.
    assert cells["Ann"][col["Bob"]] == "1won" and cells["Bob"][col["Ann"]] == "0lost"
    assert cells["Ann"][col["Cid"]] == "½drew" and cells["Cid"][col["Ann"]] == "½drew"
    assert cells["Dee"][col["Bob"]] == "+won by forfeit"
    assert cells["Bob"][col["Dee"]] == "−lost by forfeit"
    assert cells["Ann"][col["Ann"]] == ""
    assert cells["Ann"][-1] == "2½"


def test_a_swiss_gets_no_crosstable(client, public, history):
    response = client.get(url(public, f"events/{history['swiss'].pk}/"))
    assert not tables(response, "crosstable")


def test_draft_and_deleted_events_are_not_shown(client, public, history):
    draft = make_event(public, [(1, history["ann"], history["bob"], W)], published=False)
    deleted = history["friendly"]
    delete_event(deleted.pk, deleted.edit_version, None)
    assert client.get(url(public, f"events/{draft.pk}/")).status_code == 404
    assert client.get(url(public, f"events/{deleted.pk}/")).status_code == 404
    names = [row[1] for row in table(client.get(url(public, "events/")), "events")]
    assert names == ["Bughouse night", "January Swiss"]


def test_the_list_of_events_shows_date_kind_winner_players_and_whether_it_was_rated(
    client, public, history
):
    rows = table(client.get(url(public, "events/")), "events")
    # The winner is rank 1 after the tie-breaks (the Swiss: Ann ahead of Cid on Buchholz
    # Cut-1); a drawn two-player friendly is a shared first place.
    assert rows == [
        ["1 Mar 2026", "Bughouse night", "Bughouse", "Ann Alder", "2", "not rated"],
        [
            "1 Feb 2026",
            "Friendly",
            "Standard",
            "Ann Alder, Bob Birch (shared first place)",
            "2",
            "not rated",
        ],
        ["10 Jan 2026", "January Swiss", "Standard", "Ann Alder", "4", "rated"],
    ]


def test_the_roster_lists_everyone_by_name_with_their_status(client, public):
    rated(public, "Bob Birch", 1500, 30)
    rated(public, "Ann Alder", 1450.5, 3)
    Player.objects.create(club=public, name="Cid Cedar")
    rows = table(client.get(url(public, "players/")), "roster")
    assert [row[:4] for row in rows] == [
        ["Ann Alder", "1451", "provisional 2 more rated games to be established", "3"],
        ["Bob Birch", "1500", "established", "30"],
        ["Cid Cedar", "—", "not rated yet", "0"],
    ]


# --- exports ----------------------------------------------------------------------------------


@pytest.fixture
def three(public):
    today = timezone.localdate()
    rated(public, "Ann Alder", 1500.4, 30, last_played=today, last_change=12.26)
    rated(public, "Bob Birch", 1600.6, 12, last_played=dt.date(2020, 1, 1))
    rated(public, "Cid Cedar", 1700, 2, last_played=today, last_change=-40.0)
    return today


def test_the_ladder_exports_as_csv(client, public, three):
    response = client.get(url(public, "ladder.csv"))
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"] == 'attachment; filename="knights-ladder.csv"'
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows == [
        ["rank", "name", "rating", "rated_games", "provisional", "last_played", "last_change"],
        ["1", "Bob Birch", "1601", "12", "false", "2020-01-01", ""],
        ["2", "Ann Alder", "1500", "30", "false", three.isoformat(), "12.3"],
        ["3", "Cid Cedar", "1700", "2", "true", three.isoformat(), "-40.0"],
    ]


def test_the_ladder_exports_as_json_under_the_club_pages_url(client, public, three):
    assert reverse("club_ladder_json", args=[public.slug]) == "/c/knights/ladder.json"
    response = client.get("/c/knights/ladder.json")
    assert response["Content-Type"] == "application/json; charset=utf-8"
    data = json.loads(response.content)
    assert data["club"] == "Knights" and data["ladder_is_current"] is True
    assert data["players"][1] == {
        "rank": 2,
        "name": "Ann Alder",
        "rating": 1500,
        "rated_games": 30,
        "provisional": False,
        "last_played": three.isoformat(),
        "last_change": 12.3,
    }
    active = json.loads(client.get("/c/knights/ladder.json", {"active": "1"}).content)
    assert [p["name"] for p in active["players"]] == ["Ann Alder", "Cid Cedar"]


def test_the_seeding_list_is_in_ladder_order_in_trf_player_lines(client, public, three):
    response = client.get(url(public, "seeding.trf"))
    lines = response.content.decode().splitlines()
    assert lines == [
        "001    1      Bob Birch                         1601",
        "001    2      Ann Alder                         1500",
        "001    3      Cid Cedar                         1700",
    ]
    # FIDE TRF columns (1-based): starting rank 5-8, name 15-47, rating 49-52.
    assert lines[0][4:8] == "   1" and lines[0][14:47].strip() == "Bob Birch"
    assert lines[0][48:52] == "1601"
    # And the club's own TRF reader reads it back.
    players = parse_file(response.content, "trf").players
    assert [(p.key, p.name, p.rating) for p in players] == [
        (1, "Bob Birch", 1601),
        (2, "Ann Alder", 1500),
        (3, "Cid Cedar", 1700),
    ]


def test_the_seeding_list_as_csv(client, public, three):
    rows = list(csv.reader(io.StringIO(client.get(url(public, "seeding.csv")).content.decode())))
    assert rows == [
        ["rank", "name", "rating"],
        ["1", "Bob Birch", "1601"],
        ["2", "Ann Alder", "1500"],
        ["3", "Cid Cedar", "1700"],
    ]


def test_a_name_that_looks_like_a_formula_is_defused_in_csv(client, public):
    rated(public, "=HYPERLINK(1)", 1500, 30)
    text = client.get(url(public, "ladder.csv")).content.decode()
    assert "'=HYPERLINK(1)" in text


def test_long_names_are_cut_to_the_trf_name_columns(client, public):
    rated(public, "Maximiliana Alexandrovna Wolkonskaja-Petrowa", 1500, 30)
    (line,) = client.get(url(public, "seeding.trf")).content.decode().splitlines()
    assert line[14:47] == "Maximiliana Alexandrovna Wolkonsk"
    assert line[48:52] == "1500"


def test_the_export_command_still_prints_full_names_and_full_precision(public):
    from django.core.management import call_command

    rated(public, "Ann Alder", 1500.4, 30, junior=True)
    out = io.StringIO()
    call_command("export_ladder", "knights", stdout=out)
    assert json.loads(out.getvalue()) == [
        {"rank": 1, "name": "Ann Alder", "rating": 1500.4, "games": 30, "provisional": False}
    ]


# --- an inactive club page --------------------------------------------------------------------


@pytest.fixture
def billing_on(settings):
    settings.BILLING_ENABLED = True  # and no subscription: the club page is inactive


def test_visitors_of_an_inactive_club_see_the_notice_but_each_event_stays_public(
    client, public, history, billing_on
):
    notice = "This club page is not active at the moment"
    ann = history["ann"]
    for page in ["", "players/", f"players/{ann.pk}/", "events/"]:
        response = client.get(url(public, page))
        html = response.content.decode()
        assert response.status_code == 200, page
        assert notice in html, page
        assert "Ann Alder" not in html, page
    event = client.get(url(public, f"events/{history['swiss'].pk}/"))
    assert event.status_code == 200
    html = event.content.decode()
    assert "Ann Alder" in html and "January Swiss" in html
    assert "the results of each event stay public by their own link" in html
    assert f"players/{ann.pk}/" not in html  # the player pages are part of the inactive page


INACTIVE_NOTICE = "This club page is not active at the moment"


def test_an_inactive_clubs_ladder_json_answers_402_in_json(client, public, history, billing_on):
    response = client.get(url(public, "ladder.json"))
    assert response.status_code == 402
    assert response["Content-Type"] == "application/json; charset=utf-8"
    body = response.json()
    assert body["error"] == "club_page_inactive"
    assert INACTIVE_NOTICE in body["message"]
    assert "Ann Alder" not in response.content.decode()
    assert "Content-Disposition" not in response


@pytest.mark.parametrize("page", ["ladder.csv", "seeding.csv", "seeding.trf"])
def test_an_inactive_clubs_csv_and_trf_downloads_answer_402_in_plain_text(
    client, public, history, billing_on, page
):
    response = client.get(url(public, page))
    assert response.status_code == 402, page
    assert response["Content-Type"] == "text/plain; charset=utf-8", page
    text = response.content.decode()
    assert text.startswith(INACTIVE_NOTICE) and "<" not in text, page
    assert "Ann Alder" not in text, page
    assert "Content-Disposition" not in response, page


def test_an_inactive_clubs_download_speaks_the_clubs_language(client, public, history, billing_on):
    Club.objects.filter(pk=public.pk).update(language="nl")
    message = client.get(url(public, "ladder.json")).json()["message"]
    assert INACTIVE_NOTICE not in message and message


@pytest.mark.parametrize("page", ["ladder.json", "ladder.csv", "seeding.trf", "seeding.csv"])
def test_an_inactive_unlisted_clubs_downloads_stay_404_without_the_secret(
    client, club, billing_on, page
):
    assert client.get(reverse("club_page", args=[club.slug]) + page).status_code == 404
    assert client.get(url(club, page)).status_code == 402
    assert client.get(url(club, page))["X-Robots-Tag"] == "noindex, nofollow"


@pytest.mark.parametrize("page", ["ladder.json", "ladder.csv", "seeding.trf", "seeding.csv"])
def test_directors_of_an_inactive_club_still_download_the_files(
    client, public, history, owner, billing_on, page
):
    client.force_login(owner)
    response = client.get(url(public, page))
    assert response.status_code == 200, page
    assert "Ann Alder" in response.content.decode(), page


def test_the_event_page_of_an_inactive_club_still_follows_the_visibility_rules(
    client, club, billing_on
):
    ann = Player.objects.create(club=club, name="Ann")
    bob = Player.objects.create(club=club, name="Bob")
    event = make_event(club, [(1, ann, bob, W)])
    plain = reverse("club_event", args=[club.slug, event.pk])
    secret = reverse("club_event_secret", args=[club.slug, club.secret, event.pk])
    assert client.get(plain).status_code == 404  # unlisted: only with the secret
    response = client.get(secret)
    assert response.status_code == 200
    assert response["X-Robots-Tag"] == "noindex, nofollow"


def test_directors_of_an_inactive_club_still_see_everything(
    client, public, history, owner, billing_on
):
    client.force_login(owner)
    html = client.get(url(public)).content.decode()
    assert "Visitors see that this club page is inactive" in html
    assert "Ann Alder" in html


# --- the directors' settings ------------------------------------------------------------------


def test_a_director_changes_visibility_names_and_language_and_it_is_logged(client, club, director):
    client.force_login(director)
    settings_url = reverse("club_settings", args=[club.slug])
    assert client.get(settings_url).status_code == 200
    response = client.post(
        settings_url, {"visibility": "public", "name_display": "initials", "language": "nl"}
    )
    assert response.status_code == 302
    club.refresh_from_db()
    assert (club.visibility, club.name_display, club.language) == ("public", "initials", "nl")
    entry = AuditEntry.objects.get(club=club)
    assert entry.action == "page_settings.changed" and entry.user == director
    assert entry.details["changes"] == {
        "visibility": ["unlisted", "public"],
        "name_display": ["full", "initials"],
        "language": ["en", "nl"],
    }


def test_saving_unchanged_settings_logs_nothing(client, club, director):
    client.force_login(director)
    client.post(
        reverse("club_settings", args=[club.slug]),
        {"visibility": club.visibility, "name_display": club.name_display, "language": "en"},
    )
    assert not AuditEntry.objects.filter(club=club).exists()


def test_an_invalid_setting_is_refused_and_nothing_changes(client, club, director):
    client.force_login(director)
    response = client.post(
        reverse("club_settings", args=[club.slug]),
        {"visibility": "everyone", "name_display": "full", "language": "en"},
    )
    assert response.status_code == 200
    assert "errorlist" in response.content.decode()
    club.refresh_from_db()
    assert club.visibility == "unlisted"
    assert not AuditEntry.objects.exists()


def test_rotating_the_secret_is_logged_without_the_secret(client, club, director):
    old = club.secret
    client.force_login(director)
    response = client.post(reverse("club_rotate_secret", args=[club.slug]))
    assert response.status_code == 302
    club.refresh_from_db()
    assert club.secret != old and len(club.secret) >= 22
    entry = AuditEntry.objects.get(club=club)
    assert entry.action == "club_secret.rotated"
    assert old not in json.dumps(entry.details) and club.secret not in json.dumps(entry.details)


def test_rotation_is_a_post(client, club, director):
    client.force_login(director)
    assert client.get(reverse("club_rotate_secret", args=[club.slug])).status_code == 405


@pytest.mark.parametrize("persona", ["anonymous", "outsider"])
def test_outsiders_get_404_from_settings_and_rotation(client, club, outsider, persona):
    if persona == "outsider":
        client.force_login(outsider)
    old = club.secret
    settings_url = reverse("club_settings", args=[club.slug])
    assert client.get(settings_url).status_code == 404
    assert client.post(settings_url, {"visibility": "public"}).status_code == 404
    assert client.post(reverse("club_rotate_secret", args=[club.slug])).status_code == 404
    club.refresh_from_db()
    assert club.secret == old and club.visibility == "unlisted"
    assert not AuditEntry.objects.filter(club=club).exists()


def test_the_rebuild_button_still_works(client, club, director, django_capture_on_commit_callbacks):
    client.force_login(director)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("ladder_rebuild", args=[club.slug]))
    assert response.status_code == 302
    club.refresh_from_db()
    assert first_ladder(club).data_version == 1 and club.ladder_is_current


def test_pages_answer_only_get_and_head(client, public):
    assert client.post(url(public)).status_code == 405
    assert client.head(url(public)).status_code == 200


def test_a_director_is_linked_to_the_managers_pages(client, public, owner):
    client.force_login(owner)
    html = client.get(url(public)).content.decode()
    assert reverse("club_manage", args=[public.slug]) in html
    client.logout()
    assert (
        reverse("club_manage", args=[public.slug]) not in client.get(url(public)).content.decode()
    )


def test_the_club_menu_marks_the_current_section(client, public, history):
    pages = {
        "": "/c/knights/",
        "players/": "/c/knights/players/",
        f"players/{history['ann'].pk}/": "/c/knights/players/",
        "events/": "/c/knights/events/",
        f"events/{history['swiss'].pk}/": "/c/knights/events/",
    }
    for page, current in pages.items():
        html = client.get(url(public, page)).content.decode()
        assert re.findall(r'<a href="([^"]+)" aria-current="page">', html) == [current], page


@pytest.mark.parametrize("delimiter", [";", ","])
def test_a_formula_hidden_after_a_separator_is_defused_in_csv(client, public, delimiter):
    rated(public, ";=cmd|' /C calc'!A0;", 1500, 30, last_change=-12.5)
    text = client.get(url(public, "ladder.csv")).content.decode()
    rows = list(csv.reader(io.StringIO(text, newline=""), delimiter=delimiter))
    cells = [cell for row in rows for cell in row]
    formulas = [c for c in cells if c.lstrip().startswith(("=", "+", "-", "@")) and c != "-12.5"]
    assert formulas == []
    if delimiter == ",":
        assert rows[1][1] == "';'=cmd|' /C calc'!A0;"
        assert rows[1][-1] == "-12.5"  # a rating change stays a number


# --- variants ---------------------------------------------------------------------------------


def test_a_variant_game_shows_its_variant_on_the_event_page_and_why_it_did_not_count(
    client, public
):
    ann = new_player(club=public, name="Ann Alder", start_rating=1500, start_games=30)
    bob = new_player(club=public, name="Bob Birch", start_rating=1400, start_games=30)
    event = make_event(public, [(1, ann, bob, W), (2, bob, ann, W)], name="Mixed night")
    event.games.filter(round=2).update(variant="Chess960")
    replay(public)

    response = client.get(url(public, f"events/{event.pk}/rounds/"))
    first, second = tables(response, "round")
    assert first[1][2] == "1–0"
    assert second[1][2] == "1–0 · Chess960, not standard chess: never rated"
    # Only the standard game moved the ratings: Ann won it, and lost the Chess960 game.
    ann = standing(ann)
    assert (ann.rated_games, ann.rating > 1500) == (31, True)

    response = client.get(url(public, f"players/{ann.pk}/"))
    (games,) = tables(response, "games")
    assert games[1][-1] == "yes"
    assert games[2][-1] != "yes"
    assert "not standard chess" in games[2][-1]


# --- the player page's summaries: head-to-head, best win, by kind, print (issue 18) -------


def test_head_to_head_counts_games_over_the_board_against_each_opponent(client, public, history):
    ann = history["ann"]
    response = client.get(url(public, f"players/{ann.pk}/"))
    # Bob: the Swiss win and the friendly draw; Cid: the bughouse win; Dee: the unrated loss
    # (the forfeit win against Dee is no game over the board). Most games first.
    assert table(response, "head-to-head") == [
        ["Bob Birch", "2", "1½", "1", "1", "0"],
        ["Cid Cedar", "1", "1", "1", "0", "0"],
        ["Dee Dogwood", "1", "0", "0", "0", "1"],
    ]
    html = response.content.decode()
    bob = url(public, f"players/{history['bob'].pk}/")
    assert f'<a href="{bob}">Bob Birch</a>' in html


def test_the_best_win_is_the_highest_rated_opponent_beaten_in_a_rated_game(client, public, history):
    # Ann beat Bob (1400) in the rated Swiss and Cid at bughouse, which is never rated.
    html = client.get(url(public, f"players/{history['ann'].pk}/")).content.decode()
    best = re.search(r'<p class="best-win">(.*?)</p>', html, re.S).group(1)
    text = re.sub(r"<[^>]+>", "", best)
    assert text == (
        "Best win: Against Bob Birch, rated 1400 before the game, in January Swiss on 10 Jan 2026."
    )
    swiss = url(public, f"events/{history['swiss'].pk}/")
    assert f'href="{swiss}"' in best


def test_a_player_without_a_rated_win_is_told_so(client, public, history):
    # Dee beat Ann only by a result entered as not rated.
    html = client.get(url(public, f"players/{history['dee'].pk}/")).content.decode()
    assert "No win in a rated game yet." in html


def test_the_summary_by_kind_counts_events_games_and_score(client, public, history):
    response = client.get(url(public, f"players/{history['ann'].pk}/"))
    # Standard: the Swiss (a win and the unrated loss; the forfeit left out) and the friendly
    # (a draw); bughouse: one win.
    assert table(response, "kinds") == [["Standard", "2", "3", "1½"], ["Bughouse", "1", "1", "1"]]


def test_games_played_and_rated_games_are_defined_on_the_page(client, public, history):
    html = client.get(url(public, f"players/{history['ann'].pk}/")).content.decode()
    definitions = re.sub(r"\s+", " ", re.search(r'<p class="definitions">(.*?)</p>', html, re.S)[1])
    assert "“Games played” counts every game played over the board" in definitions
    assert "bughouse, chess variants and unrated events included" in definitions
    assert "“Rated games” counts only the games that moved the rating." in definitions
    # Ann came with 30 games and one counted here: 31 rated games, 30 from before.
    assert "Of those, 30 were played before the club’s records began" in definitions
    assert re.search(r"<dt>Rated games</dt><dd>31</dd>", html)


def test_a_player_with_no_games_before_the_club_is_not_told_about_them(client, public, history):
    html = client.get(url(public, f"players/{history['cid'].pk}/")).content.decode()
    assert "Rated games” counts only" in html
    assert "before the club’s records began" not in html


def test_every_breakdown_is_written_once_more_for_print(client, public, history):
    response = client.get(url(public, f"players/{history['ann'].pk}/"))
    html = response.content.decode()
    screen = html.count('<details class="event-breakdown"')
    printed = re.search(r'<div class="print-only">(.*?)</div>\n', html, re.S).group(1)
    assert screen == printed.count('<section class="event-print">') == 3
    # The same tables as on screen, the oldest event's one included.
    assert tables(response, "print-games") == tables(response, "games")
    assert printed.count('<p class="why">') == 3


def test_each_events_summary_says_the_rating_after_it(client, public, history):
    html = client.get(url(public, f"players/{history['ann'].pk}/")).content.decode()
    summaries = re.findall(r"<summary>(.*?)</summary>", html, re.S)
    assert [re.sub(r"<[^>]+>", "", s) for s in summaries] == [
        "1 Mar 2026 · Bughouse night · 0.0 · rating 1507.2",
        "1 Feb 2026 · Friendly · 0.0 · rating 1507.2",
        # As the sentence writes it: "Rating 1500.0 before the event, 1507.2 after it."
        "10 Jan 2026 · January Swiss · +7.2 · rating 1507.2",
    ]


def test_each_game_cell_names_its_column_for_the_phone_layout(client, public, history):
    html = client.get(url(public, f"players/{history['ann'].pk}/")).content.decode()
    row = re.search(r'<table class="games">.*?<tbody>\n(<tr>.*?</tr>)', html, re.S).group(1)
    labels = re.findall(r'data-label="([^"]+)"', row)
    assert labels == [
        "Round",
        "Colour",
        "Opponent",
        "Opponent’s rating before",
        "Expected",
        "Result",
        "Counted",
    ]


def test_a_player_without_games_has_no_opponents_section(client, public):
    eve = Player.objects.create(club=public, name="Eve Elm")
    html = client.get(url(public, f"players/{eve.pk}/")).content.decode()
    assert "Against each opponent" not in html and "No events yet." in html
