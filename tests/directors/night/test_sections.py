"""An evening of several sections (issue 36, item 3): one check-in split into sections,
each an ordinary club night paired, scored and published on its own; late arrivals and
moves between sections; the screens that show every section; forged section ids."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse

from clubs.models import AuditEntry, Club, Entry, Evening, Event, PairingSystem, Player
from clubs.results import Result
from directors.edits import PublishingError
from directors.night import board_reports, evening, sections
from directors.night import rounds as night_rounds
from tests.factories import make_club, make_players, set_standing

pytestmark = pytest.mark.django_db

DATE = dt.date(2026, 3, 3)
NAMES = [
    "Ana Alves", "Ben Brook", "Cleo Cruz", "Dev Dutta",  # 1800 … 1500: the Open
    "Eva Engel", "Finn Frost", "Gus Grant", "Hana Hill",  # 1400 … 1100: the Minor
]  # fmt: skip
RATINGS = [1800, 1700, 1600, 1500, 1400, 1300, 1200, 1100]


@pytest.fixture
def roster(club) -> list[Player]:
    players = make_players(club, NAMES)
    for rating, player in zip(RATINGS, players, strict=True):
        set_standing(player.pk, rating=rating, rated_games=20)
    return players


@pytest.fixture
def signed_in(client, director):
    client.force_login(director)
    return client


def two_sections(club: Club, players: list[Player], *, rounds: int = 3) -> list[Event]:
    plan = sections.plan_sections(
        club, players, kind=Event.Kind.STANDARD, how="rating", thresholds=[1500],
        names=["Open", "Minor"],
    )  # fmt: skip
    return sections.start_sections(
        club, name="Tuesday", date=DATE, sections=plan, user=None,
        start=lambda name, ticked: evening.start_event(
            club, name=name, date=DATE, system=PairingSystem.SWISS, rounds=rounds,
            players=ticked, user=None,
        ),
    )  # fmt: skip


def names_in(event: Event) -> list[str]:
    return list(event.entries.order_by("start_rank").values_list("typed_name", flat=True))


def play_round(event: Event, number: int) -> None:
    for board in event.round_boards(number):
        if not board.is_bye:
            night_rounds.enter_result(event.pk, number, board.number, Result.WHITE_WIN, None)


def said(response) -> list[str]:
    return [str(m) for m in get_messages(response.wsgi_request)]


# --- the services --------------------------------------------------------------------------------


def test_one_check_in_two_sections_each_paired_and_published_on_its_own(club, roster):
    open_, minor = two_sections(club, roster)
    assert (open_.name, minor.name) == ("Tuesday – Open", "Tuesday – Minor")
    assert (open_.section, minor.section) == ("Open", "Minor")
    assert open_.evening_id == minor.evening_id == Evening.objects.get().pk
    assert (open_.date, open_.kind) == (minor.date, minor.kind)
    assert minor.order_in_day == open_.order_in_day + 1
    assert names_in(open_) == NAMES[:4] and names_in(minor) == NAMES[4:]
    for section in (open_, minor):
        night_rounds.pair_next_round(section.pk, None)
        play_round(section, 1)
    night_rounds.publish_night(open_.pk, None)
    open_.refresh_from_db()
    minor.refresh_from_db()
    assert open_.status == Event.Status.PUBLISHED
    assert minor.status == Event.Status.DRAFT  # the other section waits for its own publish
    night_rounds.pair_next_round(minor.pk, None)  # and goes on
    assert minor.paired_rounds() == 2


def test_a_one_section_evening_is_as_before_with_no_evening_and_no_section(club, roster):
    event = evening.start_event(
        club, name="Tuesday", date=DATE, system=PairingSystem.SWISS, rounds=3,
        players=roster, user=None,
    )  # fmt: skip
    assert (event.name, event.section, event.evening_id, event.order_in_day) == (
        "Tuesday", "", None, 0,
    )  # fmt: skip
    assert event.sections() == [event]
    assert not Evening.objects.exists()


def test_sections_follow_the_days_other_events_in_order(club, roster):
    earlier = Event.objects.create(club=club, name="Blitz", date=DATE, order_in_day=4)
    open_, minor = two_sections(club, roster)
    assert (open_.order_in_day, minor.order_in_day) == (earlier.order_in_day + 1, 6)


def test_a_section_of_fewer_than_two_or_a_player_twice_starts_nothing(club, roster):
    lonely = [sections.Section("Open", roster[:1]), sections.Section("Minor", roster[1:4])]
    twice = [sections.Section("Open", roster[:3]), sections.Section("Minor", roster[2:5])]
    for plan in (lonely, twice):
        with pytest.raises(PublishingError):
            sections.start_sections(
                club, name="Tuesday", date=DATE, sections=plan, user=None,
                start=lambda name, ticked: evening.start_event(
                    club, name=name, date=DATE, system=PairingSystem.SWISS, rounds=1,
                    players=ticked, user=None,
                ),
            )  # fmt: skip
    assert not Event.objects.exists() and not Evening.objects.exists()


def test_a_refused_second_section_leaves_no_first_section(club, roster):
    plan = [sections.Section("Open", roster[:4]), sections.Section("Minor", roster[4:])]
    with pytest.raises(PublishingError):
        sections.start_sections(
            club, name="Tuesday", date=DATE, sections=plan, user=None,
            # Four players play at most three Swiss rounds: the second section is refused.
            start=lambda name, ticked: evening.start_event(
                club, name=name, date=DATE, system=PairingSystem.SWISS,
                rounds=3 if name.endswith("Open") else 9, players=ticked, user=None,
            ),
        )  # fmt: skip
    assert not Event.objects.exists() and not Evening.objects.exists()


def test_by_age_the_juniors_play_apart_from_the_adults(club, roster):
    Player.objects.filter(pk__in=[roster[1].pk, roster[6].pk, roster[7].pk]).update(junior=True)
    players = list(Player.objects.filter(pk__in=[p.pk for p in roster]).order_by("pk"))
    plan = sections.plan_sections(
        club, players, kind=Event.Kind.STANDARD, how="age", thresholds=[], names=[]
    )
    assert [(s.name, sorted(p.name for p in s.players)) for s in plan] == [
        ("Adults", sorted(NAMES[i] for i in (0, 2, 3, 4, 5))),
        ("Juniors", sorted(NAMES[i] for i in (1, 6, 7))),
    ]


def test_a_late_arrival_joins_the_chosen_section_and_never_a_second(club, roster):
    open_, minor = two_sections(club, roster[:7])
    late = roster[7]
    entry = evening.add_entrant(minor.pk, late, None)
    assert entry.event_id == minor.pk and names_in(minor)[-1] == late.name
    with pytest.raises(PublishingError, match="already playing in Minor"):
        evening.add_entrant(open_.pk, late, None)
    assert not open_.entries.filter(player=late).exists()


def test_a_move_before_the_first_round_takes_the_seed_the_ladder_gives(club, roster):
    open_, minor = two_sections(club, roster)
    dev = open_.entries.get(player=roster[3])
    moved = sections.move_entrant(open_.pk, dev.pk, minor.pk, None)
    assert moved.event_id == minor.pk
    assert names_in(open_) == NAMES[:3]
    assert names_in(minor) == [NAMES[3], *NAMES[4:]]  # 1500: the Minor's top seed
    assert list(minor.entries.order_by("start_rank").values_list("start_rank", flat=True)) == [
        1, 2, 3, 4, 5,
    ]  # fmt: skip
    assert AuditEntry.objects.filter(action="entrant.moved").count() == 1


def test_a_move_is_refused_once_the_players_section_is_paired(club, roster):
    open_, minor = two_sections(club, roster)
    night_rounds.pair_next_round(open_.pk, None)
    ana = open_.entries.get(player=roster[0])
    with pytest.raises(PublishingError, match="paired already"):
        sections.move_entrant(open_.pk, ana.pk, minor.pk, None)
    assert Entry.objects.get(pk=ana.pk).event_id == open_.pk
    # The Minor is not paired: its players may still go up, as late arrivals of the Open.
    eva = minor.entries.get(player=roster[4])
    sections.move_entrant(minor.pk, eva.pk, open_.pk, None)
    assert names_in(open_)[-1] == NAMES[4]  # the next seed: nobody's number moved
    # The round the Open played without them scores as a late arrival's missed round does.
    moved = open_.entries.get(player=roster[4])
    assert moved.joined_round == 2
    missed = open_.games.get(white=moved, round=1)
    assert missed.black_id is None and missed.result_code.is_bye
    assert missed.result_code.scores[0] == (0.5 if club.missed_rounds == "H" else 0.0)


def test_a_move_to_an_event_of_another_evening_is_refused(club, roster):
    open_, _minor = two_sections(club, roster[:6], rounds=1)
    other = evening.start_event(
        club, name="Other", date=DATE, system=PairingSystem.SWISS, rounds=1,
        players=roster[6:], user=None,
    )  # fmt: skip
    ana = open_.entries.get(player=roster[0])
    with pytest.raises(PublishingError):
        sections.move_entrant(open_.pk, ana.pk, other.pk, None)
    assert Entry.objects.get(pk=ana.pk).event_id == open_.pk


def test_a_sections_own_rules_change_before_its_first_round_only(club, roster):
    open_, minor = two_sections(club, roster)
    sections.change_rules(minor.pk, system=PairingSystem.ROUND_ROBIN, rounds=None,
                          pairing_bye=None, user=None)  # fmt: skip
    minor.refresh_from_db()
    assert (minor.pairing_system, minor.planned_rounds) == (PairingSystem.ROUND_ROBIN, 3)
    night_rounds.pair_next_round(open_.pk, None)
    with pytest.raises(PublishingError, match="fixed"):
        sections.change_rules(open_.pk, system=PairingSystem.SWISS, rounds=2,
                              pairing_bye=None, user=None)  # fmt: skip
    open_.refresh_from_db()
    assert open_.planned_rounds == 3


# --- the screens ---------------------------------------------------------------------------------


def test_the_start_form_splits_the_check_in_into_sections(signed_in, club, roster):
    response = signed_in.post(
        reverse("night_start", args=[club.slug]),
        {"action": "start", "name": "Tuesday", "date": "2026-03-03", "kind": "standard",
         "rated": "on", "system": "swiss", "rounds": "3", "split": "rating",
         "thresholds": "1500", "section_names": "Open, Minor",
         "players": [p.pk for p in roster]},
    )  # fmt: skip
    open_, minor = Event.objects.order_by("order_in_day")
    assert response.url == reverse("night_evening", args=[club.slug, open_.pk])
    assert (open_.name, minor.name) == ("Tuesday – Open", "Tuesday – Minor")
    page = signed_in.get(response.url).content.decode()
    assert 'id="sections"' in page
    for section in (open_, minor):
        assert reverse("night_pair", args=[club.slug, section.pk]) in page


def test_a_split_the_form_cannot_make_is_said_and_starts_nothing(signed_in, club, roster):
    response = signed_in.post(
        reverse("night_start", args=[club.slug]),
        {"action": "start", "name": "Tuesday", "date": "2026-03-03", "kind": "standard",
         "rated": "on", "system": "swiss", "rounds": "3", "split": "rating",
         "thresholds": "1500", "section_names": "Open",
         "players": [p.pk for p in roster]},
    )  # fmt: skip
    assert response.status_code == 200
    assert "Give 2 section names" in response.content.decode()
    assert not Event.objects.exists()


def test_the_evening_screen_shows_both_sections_with_their_own_pair_and_publish(
    signed_in, club, roster
):
    open_, minor = two_sections(club, roster)
    night_rounds.pair_next_round(open_.pk, None)
    play_round(open_, 1)
    page = signed_in.get(reverse("night_evening", args=[club.slug, minor.pk])).content.decode()
    cards = re.findall(r'<div class="night-section-card[^"]*" id="section-(\d+)"', page)
    assert cards == [str(open_.pk), str(minor.pk)]
    assert reverse("night_publish", args=[club.slug, open_.pk]) in page
    assert reverse("night_pair", args=[club.slug, minor.pk]) in page
    assert "Pair round 2" in page  # the Open's next round, from the Minor's screen
    # The move goes to the other section, before this one's first round.
    assert reverse("night_move", args=[club.slug, minor.pk]) in page


def test_a_move_through_the_screen_and_a_forged_section_is_not_found(
    signed_in, club, roster, outsider
):
    open_, minor = two_sections(club, roster)
    dev = open_.entries.get(player=roster[3])
    move = reverse("night_move", args=[club.slug, open_.pk])
    elsewhere = Club.objects.get(slug="elsewhere")
    theirs = evening.start_event(
        elsewhere, name="Theirs", date=DATE, system=PairingSystem.SWISS, rounds=1,
        players=make_players(elsewhere, ["X Y", "Z W"]), user=None,
    )  # fmt: skip
    alone = evening.start_event(
        club, name="Alone", date=DATE, system=PairingSystem.SWISS, rounds=1,
        players=make_players(club, ["P Q", "R S"]), user=None,
    )  # fmt: skip
    for forged in (theirs.pk, alone.pk, open_.pk, 999_999):
        response = signed_in.post(move, {"entry": dev.pk, "section": forged})
        assert response.status_code == 404, forged
    assert Entry.objects.get(pk=dev.pk).event_id == open_.pk
    response = signed_in.post(move, {"entry": dev.pk, "section": minor.pk})
    assert response.status_code == 302
    assert "Dev Dutta plays in the section “Minor”." in said(response)
    assert minor.entries.filter(player=roster[3]).exists()


def test_the_sheet_of_a_round_lists_each_sections_boards_under_its_name(signed_in, club, roster):
    open_, minor = two_sections(club, roster)
    night_rounds.pair_next_round(open_.pk, None)
    sheet = reverse("night_sections_sheet", args=[club.slug, open_.pk, 1])
    page = signed_in.get(sheet).content.decode()
    assert "<h2>Open</h2>" in page and "<h2>Minor</h2>" in page
    assert "Round 1 is not paired yet in this section." in page
    night_rounds.pair_next_round(minor.pk, None)
    page = signed_in.get(sheet).content.decode()
    for name in NAMES:
        assert name in page
    assert reverse("night_sheet", args=[club.slug, minor.pk, 1]) in page
    # A round no section paired, and an evening of one section, have no such sheet.
    unpaired = reverse("night_sections_sheet", args=[club.slug, open_.pk, 2])
    assert signed_in.get(unpaired).status_code == 404
    alone = evening.start_event(
        club, name="Alone", date=DATE, system=PairingSystem.SWISS, rounds=1,
        players=make_players(club, ["P Q", "R S"]), user=None,
    )  # fmt: skip
    night_rounds.pair_next_round(alone.pk, None)
    one_section = reverse("night_sections_sheet", args=[club.slug, alone.pk, 1])
    assert signed_in.get(one_section).status_code == 404


def test_the_live_page_shows_every_section(client):
    public = make_club(slug="knights", visibility=Club.Visibility.PUBLIC)
    players = make_players(public, NAMES)
    for rating, player in zip(RATINGS, players, strict=True):
        set_standing(player.pk, rating=rating, rated_games=20)
    open_, minor = two_sections(public, players)
    night_rounds.pair_next_round(open_.pk, None)
    night_rounds.pair_next_round(minor.pk, None)
    page = client.get(reverse("club_event_live", args=[public.slug, open_.pk])).content.decode()
    assert "Tuesday – Open" in page
    assert f'id="section-{minor.pk}"' in page and "<h2>Minor</h2>" in page
    # Once, in the page's body: not in its <title> nor in its <head> (where a browser moves
    # it above the site's header).
    assert page.count(f'id="section-{minor.pk}"') == 1
    assert page.index("</head>") < page.index(f'id="section-{minor.pk}"')
    assert re.search(r"<title>[^<]*Tuesday – Open[^<]*</title>", page)
    minor_block = page[page.index(f'id="section-{minor.pk}"') :]
    for name in NAMES[4:]:
        assert name in minor_block  # the Minor's boards and standings, below the Open's
    play_round(minor, 1)
    night_rounds.publish_night(minor.pk, None)
    page = client.get(reverse("club_event_live", args=[public.slug, open_.pk])).content.decode()
    assert f'events/{minor.pk}/">Minor</a> (published)' in page
    assert f'id="section-{minor.pk}"' not in page


# --- found on a director's walk (issue 36) ------------------------------------------------------


def chosen_sections(club: Club, players: list[Player], *, system: str = PairingSystem.SWISS):
    plan = sections.plan_sections(
        club, players, kind=Event.Kind.STANDARD, how="chosen", thresholds=[],
        names=["Open", "Kids"],
    )  # fmt: skip
    return sections.start_sections(
        club, name="Tuesday", date=DATE, sections=plan, user=None, chosen=True,
        start=lambda name, ticked: evening.start_event(
            club, name=name, date=DATE, system=system, rounds=3 if system == "swiss" else None,
            players=ticked, user=None, least_players=0,
        ),
    )  # fmt: skip


def test_sections_chosen_per_player_start_empty_and_pair_once_players_are_moved_in(club, roster):
    open_, kids = chosen_sections(club, roster)
    assert names_in(open_) == NAMES and names_in(kids) == []
    with pytest.raises(PublishingError, match="“Kids” has fewer than two players to pair"):
        night_rounds.pair_next_round(kids.pk, None)
    first = open_.entries.get(player=roster[7])
    sections.move_entrant(open_.pk, first.pk, kids.pk, None)
    with pytest.raises(PublishingError, match="fewer than two players to pair"):
        night_rounds.pair_next_round(kids.pk, None)  # one player is not a pairing either
    assert kids.paired_rounds() == 0
    for player in roster[5:7]:
        sections.move_entrant(open_.pk, open_.entries.get(player=player).pk, kids.pk, None)
    assert names_in(kids) == NAMES[5:]  # seeded by rating as they came in
    for section in (open_, kids):
        assert night_rounds.pair_next_round(section.pk, None) == 1
    assert kids.round_boards(1)[0].white.typed_name in NAMES[5:]


def test_a_swiss_section_filled_by_moves_is_held_to_the_rounds_its_players_can_play(club, roster):
    open_, kids = chosen_sections(club, roster)  # three rounds each
    for player in roster[6:]:
        sections.move_entrant(open_.pk, open_.entries.get(player=player).pk, kids.pk, None)
    with pytest.raises(PublishingError, match="2 players can play at most 1 Swiss rounds"):
        night_rounds.pair_next_round(kids.pk, None)
    sections.change_rules(kids.pk, system=PairingSystem.SWISS, rounds=1, pairing_bye=None,
                          user=None)  # fmt: skip
    assert night_rounds.pair_next_round(kids.pk, None) == 1


def test_an_empty_round_robin_section_takes_its_table_from_the_players_moved_in(club, roster):
    open_, kids = chosen_sections(club, roster, system=PairingSystem.ROUND_ROBIN)
    kids.refresh_from_db()
    assert kids.planned_rounds == 0
    for player in roster[5:]:
        sections.move_entrant(open_.pk, open_.entries.get(player=player).pk, kids.pk, None)
    kids.refresh_from_db()
    open_.refresh_from_db()
    assert (open_.planned_rounds, kids.planned_rounds) == (5, 3)
    assert night_rounds.pair_next_round(kids.pk, None) == 1


def test_a_split_by_rating_still_refuses_a_section_of_fewer_than_two(club, roster):
    plan = [sections.Section("Open", roster[:1]), sections.Section("Minor", roster[1:4])]
    with pytest.raises(PublishingError, match=r"The section “Open” has fewer than two players\."):
        sections.start_sections(
            club, name="Tuesday", date=DATE, sections=plan, user=None,
            start=lambda name, ticked: evening.start_event(
                club, name=name, date=DATE, system=PairingSystem.SWISS, rounds=1,
                players=ticked, user=None, least_players=0,
            ),
        )  # fmt: skip
    assert not Event.objects.exists()


def test_chosen_per_player_on_the_screens_start_move_then_pair(signed_in, club, roster):
    response = signed_in.post(
        reverse("night_start", args=[club.slug]),
        {"action": "start", "name": "Tuesday", "date": "2026-03-03", "kind": "standard",
         "rated": "on", "system": "swiss", "rounds": "3", "split": "chosen",
         "section_names": "Open, Kids", "players": [p.pk for p in roster]},
    )  # fmt: skip
    assert response.status_code == 302, said(response)
    open_, kids = Event.objects.order_by("order_in_day")
    assert (open_.section, kids.section) == ("Open", "Kids")
    assert open_.entries.count() == 8 and kids.entries.count() == 0
    # The Kids' screen says what to do, and offers no Pair button that cannot work.
    page = signed_in.get(reverse("night_evening", args=[club.slug, kids.pk])).content.decode()
    assert 'id="few-players"' in page
    assert reverse("night_pair", args=[club.slug, kids.pk]) not in page
    card = page[page.index(f'id="section-{open_.pk}"') :]
    assert reverse("night_pair", args=[club.slug, open_.pk]) in card
    # Pairing anyway (a stale page) is refused, naming what to do.
    pair_kids = reverse("night_pair", args=[club.slug, kids.pk])
    response = signed_in.post(pair_kids, {"expected": 1})
    assert any("fewer than two players to pair" in m for m in said(response))
    assert kids.paired_rounds() == 0
    # The director moves three players from the Open's screen, then pairs each section.
    move = reverse("night_move", args=[club.slug, open_.pk])
    for player in roster[5:]:
        entry = open_.entries.get(player=player)
        response = signed_in.post(move, {"entry": entry.pk, "section": kids.pk})
        assert f"{player.name} plays in the section “Kids”." in said(response)
    page = signed_in.get(reverse("night_evening", args=[club.slug, kids.pk])).content.decode()
    assert 'id="few-players"' not in page
    for section in (kids, open_):
        response = signed_in.post(reverse("night_pair", args=[club.slug, section.pk]),
                                  {"expected": 1})  # fmt: skip
        assert response.url == reverse("night_sheet", args=[club.slug, section.pk, 1])
        assert section.paired_rounds() == 1
    assert sorted(names_in(kids)) == sorted(NAMES[5:])


def test_the_sheet_of_every_section_has_the_board_codes_of_each_section_that_takes_them(
    signed_in, club, roster
):
    open_, minor = two_sections(club, roster)
    for section in (open_, minor):
        night_rounds.pair_next_round(section.pk, None)
    sheet = reverse("night_sections_sheet", args=[club.slug, open_.pk, 1])
    page = signed_in.get(sheet).content.decode()
    for section in (open_, minor):
        block = page[page.index(f'id="section-{section.pk}"') :]
        block = block.split('class="sheet-section"')[0]  # up to the next section's
        codes = board_reports.round_codes(section, 1)
        assert len(codes) == 2
        assert f'id="board-codes-{section.pk}"' in block
        assert block.count('class="qr"') == 2
        for number, code in codes.items():
            assert f"Board {number}" in block
            assert reverse("board_report", args=[code.code]) in block
    # A section that does not take reports at the board this evening shows none.
    board_reports.switch_evening(minor.pk, False, None)
    page = signed_in.get(sheet).content.decode()
    assert f'id="board-codes-{open_.pk}"' in page
    assert f'id="board-codes-{minor.pk}"' not in page
    assert page.count('class="qr"') == 2


def test_the_evening_screen_shows_each_action_once(signed_in, club, roster):
    open_, minor = two_sections(club, roster)
    for section in (open_, minor):
        night_rounds.pair_next_round(section.pk, None)
        play_round(section, 1)
    page = signed_in.get(reverse("night_evening", args=[club.slug, open_.pk])).content.decode()
    for section in (open_, minor):
        for name in ("night_pair", "night_publish"):
            action = f'action="{reverse(name, args=[club.slug, section.pk])}"'
            assert page.count(action) == 1, (section.section, name)
    own_card = page[page.index(f'id="section-{open_.pk}"') : page.index(f'id="section-{minor.pk}"')]
    assert "<form" not in own_card and "Publish" not in own_card
    minor_card = page[page.index(f'id="section-{minor.pk}"') : page.index('id="rounds"')]
    links = re.findall(r"<a [^>]*>([^<]+)</a>", minor_card)
    assert links == ["Minor", "pairing sheet", "every section's pairings", "results", "standings"]
    assert "Publish the section “Minor”" in minor_card
    assert "Publish the section “Open”" in page[page.index('id="rounds"') :]
    # This section's round list links the sheet of every section.
    rounds = page[page.index('id="rounds"') : page.index('id="entrants"')]
    assert reverse("night_sections_sheet", args=[club.slug, open_.pk, 1]) in rounds


def test_a_sections_name_is_never_read_as_a_word_of_its_action(signed_in, club, roster):
    open_, minor = two_sections(club, roster)
    night_rounds.pair_next_round(minor.pk, None)
    play_round(minor, 1)
    evening_page = reverse("night_evening", args=[club.slug, open_.pk])
    page = signed_in.get(evening_page, HTTP_ACCEPT_LANGUAGE="nl").content.decode()
    assert "De groep „Minor” publiceren" in page
    assert "De regels van de groep „Open”…" in page
    assert "Minor publiceren" not in page.replace("„Minor” publiceren", "")
    page = signed_in.get(evening_page, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Die Gruppe „Minor“ veröffentlichen" in page


def test_a_sections_card_publish_asks_first_with_rounds_left(signed_in, club, roster):
    open_, minor = two_sections(club, roster)
    night_rounds.pair_next_round(minor.pk, None)
    play_round(minor, 1)
    page = signed_in.get(reverse("night_evening", args=[club.slug, open_.pk])).content.decode()
    card = page[page.index(f'id="section-{minor.pk}"') : page.index('id="rounds"')]
    publish = reverse("night_publish", args=[club.slug, minor.pk])
    assert f'action="{publish}"' in card
    response = signed_in.post(publish, {})
    assert response.status_code == 200
    assert "Only 1 of 3 rounds is paired" in response.content.decode()
    minor.refresh_from_db()
    assert minor.status == Event.Status.DRAFT
