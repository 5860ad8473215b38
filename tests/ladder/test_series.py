"""The Grand Prix engine (ladder/series.py), pure: properties over generated events and rules,
and two real series' rules worked out by hand."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ladder.series import (
    HIGHER,
    SHARE,
    EventPlaces,
    Placing,
    Row,
    Rules,
    Scored,
    place_points,
    points_text,
    score,
    section_of,
    sum_text,
)

# --- generated events and rules ----------------------------------------------------------------

MEMBERS = range(1, 9)
GUESTS = range(100, 104)  # hold places, never ranked (not members, or no player)


@st.composite
def event_places(draw: st.DrawFn, event: int) -> EventPlaces:
    """An event's field with final places as standings give them: by score, tied scores
    sharing a place (1, 2, 2, 4)."""
    field = draw(
        st.lists(st.sampled_from([*MEMBERS, *GUESTS]), min_size=1, max_size=10, unique=True)
    )
    halves = draw(st.lists(st.integers(0, 10), min_size=len(field), max_size=len(field)))
    scores = [Fraction(h, 2) for h in halves]
    placings = tuple(
        Placing(player, 1 + sum(other > mine for other in scores), mine)
        for player, mine in zip(field, scores, strict=True)
    )
    return EventPlaces(event, placings)


@st.composite
def seasons(draw: st.DrawFn) -> list[EventPlaces]:
    count = draw(st.integers(0, 7))
    return [draw(event_places(event)) for event in range(1, count + 1)]


rules_strategy = st.builds(
    Rules,
    points=st.one_of(
        st.just(()),
        st.lists(st.integers(0, 25), min_size=1, max_size=8).map(
            lambda p: tuple(sorted(p, reverse=True))
        ),
    ),
    best=st.one_of(st.none(), st.integers(1, 6)),
    ties=st.sampled_from([SHARE, HIGHER]),
    min_events=st.integers(0, 4),
)


def table(points: tuple[int, ...], place: int) -> Fraction:
    return Fraction(points[place - 1]) if place <= len(points) else Fraction(0)


@settings(max_examples=300, deadline=None)
@given(seasons(), rules_strategy)
def test_every_total_is_the_sum_of_its_counted_results(events, rules):
    for row in score(events, rules, MEMBERS):
        assert row.total == sum((s.points for s in row.results if s.counted), Fraction(0))


@settings(max_examples=300, deadline=None)
@given(seasons(), rules_strategy)
def test_exactly_the_best_n_count_or_every_result_when_fewer(events, rules):
    for row in score(events, rules, MEMBERS):
        counted = [s for s in row.results if s.counted]
        discarded = [s for s in row.results if not s.counted]
        expected = len(row.results) if rules.best is None else min(rules.best, len(row.results))
        assert len(counted) == expected
        # The discarded are never better than a counted one; between equals the earlier counts.
        for dropped in discarded:
            for kept in counted:
                assert kept.points > dropped.points or (
                    kept.points == dropped.points
                    and row.results.index(kept) < row.results.index(dropped)
                )


@settings(max_examples=300, deadline=None)
@given(seasons(), rules_strategy)
def test_shared_places_split_the_points_as_the_rule_says(events, rules):
    for event in events:
        given_points = place_points(event.placings, rules)
        for placing in event.placings:
            place, points = given_points[placing.player]
            assert place == placing.place
            if not rules.points:
                assert points == placing.game_points
                continue
            tied = sum(p.place == placing.place for p in event.placings)
            spanned = [table(rules.points, p) for p in range(place, place + tied)]
            if rules.ties == HIGHER:
                assert points == spanned[0]
            else:
                assert points == sum(spanned) / tied
        if rules.points and rules.ties == SHARE:
            # Sharing moves points between the tied, never adds or loses any.
            handed_out = sum(points for _place, points in given_points.values())
            assert handed_out == sum(
                table(rules.points, p) for p in range(1, len(event.placings) + 1)
            )


@settings(max_examples=300, deadline=None)
@given(seasons(), rules_strategy)
def test_the_ranking_follows_the_totals_and_equal_totals_share_a_rank(events, rules):
    rows = score(events, rules, MEMBERS)
    ranked = [row for row in rows if row.rank is not None]
    unranked = [row for row in rows if row.rank is None]
    assert rows == ranked + unranked  # the unranked come after
    assert all(len(row.results) >= rules.min_events for row in ranked)
    assert all(len(row.results) < rules.min_events for row in unranked)
    for row in ranked:
        assert row.rank == 1 + sum(other.total > row.total for other in ranked)
    assert [row.total for row in ranked] == sorted((row.total for row in ranked), reverse=True)
    # Equal ranks in player id order here (the reader orders them by name).
    for one, two in itertools.pairwise(ranked):
        assert one.rank != two.rank or one.player < two.player


@settings(max_examples=200, deadline=None)
@given(seasons(), rules_strategy)
def test_only_the_players_given_are_listed_each_once_with_every_event_they_played(events, rules):
    rows = score(events, rules, MEMBERS)
    players = [row.player for row in rows]
    assert len(players) == len(set(players))
    played = {p.player for e in events for p in e.placings if p.player in MEMBERS}
    assert set(players) == played
    for row in rows:
        assert [s.event for s in row.results] == [
            e.event for e in events if any(p.player == row.player for p in e.placings)
        ]


# --- the printed numbers -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (Fraction(24), "24"),
        (Fraction(0), "0"),
        (Fraction(49, 2), "24½"),
        (Fraction(1, 2), "½"),
        (Fraction(22, 3), "7⅓"),
        (Fraction(20, 3), "6⅔"),
        (Fraction(9, 4), "2¼"),
        (Fraction(3, 4), "¾"),
        (Fraction(23, 7), "3 2/7"),
        (Fraction(2, 7), "2/7"),
        (Fraction(17, 5), "3 2/5"),
    ],
)
def test_points_are_written_as_a_reader_writes_them(value, text):
    assert points_text(value) == text


def test_the_sum_shows_the_counted_results_in_event_order_and_leaves_out_the_discarded():
    row = Row(
        1,
        7,
        Fraction(49, 2),
        (
            Scored(1, 1, Fraction(10), True),
            Scored(2, 7, Fraction(2), False),
            Scored(3, 2, Fraction(8), True),
            Scored(4, 3, Fraction(13, 2), True),
        ),
    )
    assert sum_text(row) == "10 + 8 + 6½ = 24½"
    assert sum_text(Row(1, 7, Fraction(10), (Scored(1, 1, Fraction(10), True),))) == "10"


def test_three_tied_places_share_their_points_in_thirds():
    rules = Rules(points=(10, 8, 6, 5, 3), best=None, ties=SHARE, min_events=0)
    placings = (
        Placing(1, 1, Fraction(4)),
        Placing(2, 2, Fraction(3)),
        Placing(3, 2, Fraction(3)),
        Placing(4, 2, Fraction(3)),
        Placing(5, 5, Fraction(1)),
    )
    given_points = place_points(placings, rules)
    assert given_points[2] == (2, Fraction(19, 3))  # (8 + 6 + 5) / 3
    assert points_text(given_points[2][1]) == "6⅓"
    assert given_points[5] == (5, Fraction(3))
    higher = place_points(placings, Rules((10, 8, 6, 5, 3), None, HIGHER, 0))
    assert [higher[p][1] for p in (2, 3, 4)] == [Fraction(8)] * 3


def test_a_player_twice_in_one_event_after_a_merge_keeps_the_better_place_once():
    rules = Rules(points=(10, 8, 6), best=None, ties=SHARE, min_events=0)
    event = EventPlaces(
        1, (Placing(1, 1, Fraction(3)), Placing(2, 2, Fraction(2)), Placing(1, 3, Fraction(1)))
    )
    [first, second] = score([event], rules, {1, 2})
    assert (first.player, first.total, len(first.results)) == (1, Fraction(10), 1)
    assert (second.player, second.total) == (2, Fraction(8))


# --- two real series ---------------------------------------------------------------------------

ANNA, BEN, CEM, DORA, EVE_GUEST = 1, 2, 3, 4, 99


def places(event: int, *ranked: tuple[int, int]) -> EventPlaces:
    """An event's places (player, place); game points are no part of a points table."""
    return EventPlaces(event, tuple(Placing(p, place, Fraction(0)) for p, place in ranked))


def test_a_monthly_rapid_grand_prix_best_6_of_10_members_only_at_least_3_events():
    """10/8/6/5/4/3/2/1, the best 6 of 10 monthly rapids, members only (Eve is a guest: she
    holds her places, a member behind her takes the points of his own place), at least 3
    events. Worked out by hand from the ten events' places."""
    rules = Rules(points=(10, 8, 6, 5, 4, 3, 2, 1), best=6, ties=SHARE, min_events=3)
    events = [
        places(1, (ANNA, 1), (BEN, 2), (CEM, 3), (EVE_GUEST, 4)),
        places(2, (BEN, 1), (ANNA, 2), (CEM, 3)),
        places(3, (ANNA, 1), (CEM, 2), (BEN, 3)),
        places(4, (BEN, 1), (CEM, 2), (EVE_GUEST, 2)),  # Cem and Eve share 2nd and 3rd: 7 each
        places(5, (BEN, 1), (CEM, 2), (ANNA, 3), (EVE_GUEST, 4)),
        places(6, (ANNA, 1), (CEM, 2), (EVE_GUEST, 3), (DORA, 4)),  # Dora: 4th's 5, not 3rd's
        places(7, (BEN, 1), (ANNA, 2), (CEM, 3)),
        places(8, (CEM, 1), (BEN, 2), (DORA, 3)),
        places(9, (ANNA, 1), (CEM, 2), (EVE_GUEST, 3)),
        places(10, (CEM, 1), (ANNA, 2), (EVE_GUEST, 3)),
    ]
    rows = score(events, rules, {ANNA, BEN, CEM, DORA})
    summary = [(row.rank, row.player, row.total, sum_text(row)) for row in rows]
    assert summary == [
        # Anna 10 8 10 - 6 10 8 - 10 8: four 10s and the first two 8s; the 6 and the last 8 go.
        (1, ANNA, 56, "10 + 8 + 10 + 10 + 8 + 10 = 56"),
        # Ben 8 10 6 10 10 - 10 8: his 6 goes. Equal totals share first place.
        (1, BEN, 56, "8 + 10 + 10 + 10 + 10 + 8 = 56"),
        # Cem 6 6 8 7 8 8 6 10 8 10: the 10s and the 8s count, the 7 and the 6s go.
        (3, CEM, 52, "8 + 8 + 8 + 10 + 8 + 10 = 52"),
        # Dora played twice: listed after the ranked, unranked.
        (None, DORA, 11, "5 + 6 = 11"),
    ]
    anna = rows[0]
    assert [s.event for s in anna.results if not s.counted] == [5, 10]
    cem = rows[2]
    assert [(s.event, s.points) for s in cem.results if not s.counted] == [
        (1, 6), (2, 6), (4, 7), (7, 6)
    ]  # fmt: skip


def test_a_junior_grand_prix_by_game_points_scored_apart_in_two_rating_groups():
    """Every result counts, scored by the game points of each of four Saturday events;
    groups by rating (the reader decides who is in which): each group is ranked apart, so
    the lower group has its own first place."""
    rules = Rules(points=(), best=None, ties=SHARE, min_events=0)
    lara, mo, nils, ole, pia, quinn = 11, 12, 13, 14, 15, 16
    upper, lower = {lara, mo, nils}, {ole, pia, quinn}

    def saturday(event: int, *scores: tuple[int, float]) -> EventPlaces:
        ordered = sorted(scores, key=lambda s: -s[1])
        return EventPlaces(
            event,
            tuple(
                Placing(p, 1 + sum(o > pts for _q, o in ordered), Fraction(pts))
                for p, pts in ordered
            ),
        )

    events = [
        saturday(1, (lara, 4), (mo, 3.5), (nils, 2), (ole, 2), (pia, 1.5), (quinn, 1)),
        saturday(2, (mo, 4.5), (lara, 3), (ole, 2.5), (pia, 2.5), (quinn, 0.5)),
        saturday(3, (lara, 3.5), (nils, 3.5), (pia, 3), (quinn, 2), (ole, 0)),
        saturday(4, (quinn, 4.5), (mo, 4), (nils, 3), (lara, 2.5), (ole, 1.5), (pia, 1)),
    ]
    top = [
        (r.rank, r.player, points_text(r.total), sum_text(r)) for r in score(events, rules, upper)
    ]
    assert top == [
        (1, lara, "13", "4 + 3 + 3½ + 2½ = 13"),
        (2, mo, "12", "3½ + 4½ + 4 = 12"),
        (3, nils, "8½", "2 + 3½ + 3 = 8½"),
    ]
    juniors = [(r.rank, r.player, points_text(r.total)) for r in score(events, rules, lower)]
    # Pia 1½ + 2½ + 3 + 1 and Quinn ½ + … + 4½ both 8, sharing first; Ole's 6 is third.
    assert juniors == [(1, pia, "8"), (1, quinn, "8"), (3, ole, "6")]


F1 = Fraction(1)

# --- groups by section -----------------------------------------------------------------------

SECTIONS = ["Open", "Major", "Minor"]  # highest first


@given(st.lists(st.sampled_from([*SECTIONS, ""]), min_size=1, max_size=12))
def test_a_player_is_grouped_in_the_section_of_most_events_ties_to_the_higher(played):
    chosen = section_of(played, SECTIONS)
    named = [section for section in played if section]
    if not named:
        assert chosen == ""  # only events without sections
        return
    most = max(named.count(section) for section in named)
    tied = [section for section in SECTIONS if named.count(section) == most]
    assert chosen == tied[0]  # of those played most, the highest
    assert chosen in played


def test_section_of_reads_the_order_not_the_names_alphabet():
    assert section_of(["Minor", "Open"], ["Open", "Minor"]) == "Open"
    assert section_of(["Minor", "Open"], ["Minor", "Open"]) == "Minor"
    assert section_of(["Minor", "Minor", "Open", "", "", ""], ["Open", "Minor"]) == "Minor"


def test_a_winter_club_night_series_open_and_minor_ranked_apart_each_with_its_winner():
    """A club's winter Tuesdays: an Open and a Minor each night, points 6, 4, 3, 2, 1 by
    final place, best 2 of 3. Rhea moved up to the Open for the last night: two of her three
    nights were in the Minor, so she is ranked there, with all three of her results. The
    reader groups (members/series.py); the engine ranks each group apart."""
    rules = Rules(points=(6, 4, 3, 2, 1), best=2, ties=SHARE, min_events=0)
    ada, bo, cy, dan, eli, rhea = 21, 22, 23, 24, 25, 26
    open_1 = EventPlaces(1, (Placing(ada, 1, F1), Placing(bo, 2, F1), Placing(cy, 3, F1)))
    minor_1 = EventPlaces(2, (Placing(rhea, 1, F1), Placing(dan, 2, F1), Placing(eli, 3, F1)))
    open_2 = EventPlaces(3, (Placing(bo, 1, F1), Placing(cy, 2, F1), Placing(ada, 3, F1)))
    minor_2 = EventPlaces(4, (Placing(dan, 1, F1), Placing(rhea, 2, F1), Placing(eli, 3, F1)))
    open_3 = EventPlaces(
        5, (Placing(rhea, 1, F1), Placing(ada, 2, F1), Placing(bo, 2, F1), Placing(cy, 4, F1))
    )
    minor_3 = EventPlaces(6, (Placing(eli, 1, F1), Placing(dan, 2, F1)))
    sections = {1: "Open", 2: "Minor", 3: "Open", 4: "Minor", 5: "Open", 6: "Minor"}
    events = [open_1, minor_1, open_2, minor_2, open_3, minor_3]
    played: dict[int, list[str]] = {}
    for event in events:
        for placing in event.placings:
            played.setdefault(placing.player, []).append(sections[event.event])
    group = {p: section_of(s, ["Open", "Minor"]) for p, s in played.items()}
    assert group[rhea] == "Minor"
    opens = {p for p, s in group.items() if s == "Open"}
    minors = {p for p, s in group.items() if s == "Minor"}
    top = [(r.rank, r.player, sum_text(r)) for r in score(events, rules, opens)]
    # Ada 6, 3, 3½ (2nd shared: (4+3)/2): best two 6 + 3½; Bo 4, 6, 3½: 4 + 6; Cy 3, 4, 2.
    assert top == [(1, bo, "4 + 6 = 10"), (2, ada, "6 + 3½ = 9½"), (3, cy, "3 + 4 = 7")]
    low = [(r.rank, r.player, sum_text(r)) for r in score(events, rules, minors)]
    # Rhea 6 (Minor), 4 (Minor), 6 (Open, 1st): best two 6 + 6.
    assert low == [(1, rhea, "6 + 6 = 12"), (2, dan, "4 + 6 = 10"), (3, eli, "3 + 6 = 9")]
