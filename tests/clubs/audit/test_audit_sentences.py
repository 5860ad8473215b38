"""The audit log reads as sentences, one for every action, filterable by player and event."""

import datetime as dt

import pytest
from django.db import transaction
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import translation

from clubs import audit
from clubs.models import AuditEntry, Club, User
from clubs.results import Result
from directors.audit.sentences import SENTENCES, names_for, sentence, sentences
from directors.roster.merging import merge_players
from directors.roster.players import rename_player, update_player_details
from tests.factories import make_event, make_players

pytestmark = pytest.mark.django_db

W = Result.WHITE_WIN


@pytest.fixture
def anna(director):
    User.objects.filter(pk=director.pk).update(name="Anna")
    director.refresh_from_db()
    return director


@pytest.fixture
def cast(club):
    jan, emma = make_players(club, ["Jan Jansen", "Emma de Vries"])
    event = make_event(club, [(1, jan, emma, W)], name="January Open", date=dt.date(2026, 1, 5))
    return {"jan": jan, "emma": emma, "event": event}


def details_of(cast, director) -> dict[str, tuple[dict, str]]:
    """Per action: details as the code records them, and words its sentence must have."""
    jan, emma, event = cast["jan"].pk, cast["emma"].pk, cast["event"].pk
    return {
        "club.created": ({"slug": "rooks"}, "Anna created the club."),
        "club_secret.rotated": ({}, "Anna gave the club page a new secret link."),
        "tiebreak_order.changed": (
            {"old": ["bh-c1", "bh"], "new": ["sb", "de"]},
            "Anna changed the order of the tie-breaks to Sonneborn-Berger, Direct encounter.",
        ),
        "page_settings.changed": (
            {"changes": {"visibility": ["unlisted", "public"]}},
            "Anna changed the club page settings: who can see it from Unlisted: anyone "
            "with the secret link to Public.",
        ),
        "rating_settings.changed": (
            {"changes": {"start_rating": [1200.0, 1500.0]}},
            "Anna changed the rating settings: Start rating for newcomers from 1200 to 1500.",
        ),
        "director.invited": ({"invitation_id": 3}, "Anna invited a new director."),
        "invitation.revoked": (
            {"invitation_id": 3},
            "Anna withdrew an invitation to direct the club.",
        ),
        "director.added": ({"user_id": director.pk}, f"added {director.email} as a director"),
        "director.removed": (
            {"user_id": director.pk},
            f"Anna removed {director.email} as a director.",
        ),
        "event.created": ({"event_id": event, "name": "x"}, "created the event January Open."),
        "event.updated": (
            {"event_id": event, "changed": ["date", "name"]},
            "Anna changed the date and name of January Open.",
        ),
        "event.published": ({"event_id": event, "name": "x"}, "Anna published January Open."),
        "event.unpublished": ({"event_id": event}, "Anna took January Open back to draft."),
        "event.deleted": ({"event_id": event}, "Anna deleted January Open."),
        "event.restored": ({"event_id": event}, "Anna restored January Open."),
        "share_link.rotated": ({"event_id": event}, "gave January Open a new results link."),
        "results.saved": (
            {"event_id": event, "source": "file:trf", "games": 1, "new_names": 0},
            "Anna saved 1 game of January Open from a TRF file.",
        ),
        "names.decided": (
            {"event_id": event, "linked": 2, "created": 1, "dropped": 0},
            "Anna decided the names of January Open: 2 linked to players, 1 new players, "
            "0 without a player.",
        ),
        "entry.added": ({"event_id": event, "typed_name": "Piet"}, "added Piet to January"),
        "club_night.started": (
            {"event_id": event, "name": "January", "players": 9, "system": "swiss", "rounds": 4},
            "Anna started the club night January Open with 9 players.",
        ),
        "seed.moved": (
            {"event_id": event, "typed_name": "Piet", "seed": 2},
            "Anna moved Piet to seed 2 in January",
        ),
        "entrant.withdrawn": (
            {"event_id": event, "typed_name": "Piet", "round": 3},
            "Anna withdrew Piet from January Open from round 3.",
        ),
        "entrant.returned": (
            {"event_id": event, "typed_name": "Piet", "round": 4},
            "Anna brought Piet back into January Open from round 4.",
        ),
        "entrant.moved": (
            {"event_id": event, "typed_name": "Piet", "to_event_id": 0, "to_section": "Minor"},
            "Anna moved Piet from January Open to the section Minor.",
        ),
        "night_rules.changed": (
            {"event_id": event, "system": "swiss", "rounds": 4, "pairing_bye": "+"},
            "Anna changed the system, rounds and bye of January Open.",
        ),
        "bye.requested": (
            {"event_id": event, "typed_name": "Piet", "round": 2},
            "Anna gave Piet a half-point bye in round 2 of January Open.",
        ),
        "bye_settings.changed": (
            {"event_id": event, "old": "H", "new": "ZF"},
            "Anna let the players of January Open ask for these byes: 0 points, 1 point.",
        ),
        "bye.cancelled": (
            {"event_id": event, "typed_name": "Piet", "round": 2},
            "Anna cancelled the bye of Piet in round 2 of January Open.",
        ),
        "round.paired": ({"event_id": event, "round": 1}, "Anna paired round 1 of January Open."),
        "round.unpaired": (
            {"event_id": event, "round": 1},
            "Anna took back the pairing of round 1 of January Open.",
        ),
        "board_result.entered": (
            {"event_id": event, "round": 2, "board": 3, "result": "1/2"},
            "Anna entered 1/2 on board 3 of round 2 of January Open.",
        ),
        "board_report.received": (
            {
                "event_id": event,
                "round": 2,
                "board": 3,
                "side": "white",
                "result": "1-0",
                "code": "K7M4…",
                "old": "1/2",
            },
            "White reported 1-0 (instead of 1/2) at board 3 of round 2 of January Open with "
            "code K7M4…",
        ),
        "board_report.confirmed": (
            {
                "event_id": event,
                "round": 2,
                "board": 3,
                "result": "1-0",
                "code": "K7M4…",
                "pair": "Jan Jansen – Emma de Vries",
            },
            "Both players confirmed 1-0 at board 3 of round 2 of January Open (Jan Jansen – "
            "Emma de Vries) with code K7M4…: the result is stored.",
        ),
        "board_report.disputed": (
            {
                "event_id": event,
                "round": 2,
                "board": 3,
                "white": "1-0",
                "black": "0-1",
                "code": "K7M4…",
                "pair": "Jan Jansen – Emma de Vries",
            },
            "white says 1-0, black says 0-1. Nothing is stored.",
        ),
        "entry.removed": ({"event_id": event, "typed_name": "Piet"}, "removed Piet from"),
        "entry.repointed": (
            {
                "entry_id": 1,
                "event_id": event,
                "typed_name": "J. Jansen",
                "from_player_id": emma,
                "to_player_id": jan,
                "new_player": False,
            },
            "Anna moved J. Jansen in January Open from Emma de Vries to Jan Jansen.",
        ),
        "player.added": ({"player_id": jan, "name": "Jan"}, "Anna added Jan Jansen to the roster."),
        "roster.imported": (
            {"source": "web", "ladder_id": 1, "ladder_name": "Main", "created": 3, "updated": 1},
            "Anna imported a roster onto the ladder Main: 3 new players, 1 players on the "
            "roster with a new starting rating or junior flag.",
        ),
        "held_players.removed": (
            {"event_id": event, "name": "January Open", "players": ["Zoe Quinn", "Ugo Yates"]},
            "Anna deleted the draft January Open, and with it 2 players met only there: "
            "Zoe Quinn and Ugo Yates.",
        ),
        "player.renamed": (
            {"player_id": jan, "old": "Jansen,Jan", "new": "Jan Jansen"},
            "Anna renamed Jansen,Jan to Jan Jansen.",
        ),
        "player.edited": (
            {"player_id": jan, "changed": {"full_name_consent": [True, False]}},
            "Anna changed Jan Jansen's family consent from yes to no.",
        ),
        "player.deleted": (
            {"player_id": 999_999, "name": "Emma de Vris"},
            "Anna deleted Emma de Vris from the roster.",
        ),
        "player.erased": ({"player_id": jan}, "Anna erased the personal data of Jan Jansen."),
        "players.merged": (
            {"merge_id": 1, "kept_id": jan, "merged_id": emma, "entries": 2},
            "Anna merged Emma de Vries into Jan Jansen (2 entries moved).",
        ),
        "merge.undone": (
            {"merge_id": 1, "kept_id": jan, "merged_id": emma},
            "Anna undid the merge of Emma de Vries into Jan Jansen.",
        ),
        "duplicate.dismissed": (
            {"first_id": jan, "second_id": emma},
            "Anna marked Jan Jansen and Emma de Vries as two different people.",
        ),
        "ladder.rebuilt": ({}, "Anna had the ladder rebuilt from the first event."),
        "ladder.added": (
            {
                "ladder": "blitz",
                "name": "Blitz",
                "policy": "ladder",
                "kinds": ["rapid", "blitz"],
                "taken": {"main": ["rapid", "blitz"]},
                "names": {"main": "Ladder"},
            },
            "Anna added the ladder Blitz, rating Rapid and Blitz (Rapid and Blitz from Ladder).",
        ),
        "ladder_kind.moved": (
            {
                "ladder": "blitz",
                "name": "Blitz",
                "kinds": ["rapid"],
                "taken": {"main": ["rapid"]},
                "names": {"main": "Ladder"},
            },
            "Anna moved Rapid from Ladder to the ladder Blitz.",
        ),
        "ladder.renamed": (
            {"ladder": "blitz", "old": "Blitz", "new": "Lightning"},
            "Anna renamed the ladder Blitz to Lightning.",
        ),
        "never_pair.added": (
            {"first_id": jan, "second_id": emma},
            "Anna asked that Jan Jansen and Emma de Vries are never paired.",
        ),
        "never_pair.removed": (
            {"first_id": jan, "second_id": emma},
            "Anna let Jan Jansen and Emma de Vries be paired again.",
        ),
        "series.created": (
            {"series_id": 1, "slug": "rapid-gp", "name": "Rapid Grand Prix"},
            "Anna created the series Rapid Grand Prix.",
        ),
        "series.changed": (
            {"series_id": 1, "slug": "rapid-gp", "name": "Rapid Grand Prix"},
            "Anna changed the series Rapid Grand Prix.",
        ),
        "series.deleted": (
            {"series_id": 1, "slug": "rapid-gp", "name": "Rapid Grand Prix"},
            "Anna deleted the series Rapid Grand Prix.",
        ),
        "schedule_entry.added": (
            {"entry_id": 1, "name": "Club night", "date": "2026-09-01"},
            "Anna scheduled Club night from 2026-09-01.",
        ),
        "schedule_entry.changed": (
            {"entry_id": 1, "name": "Club night", "date": "2026-09-01"},
            "Anna changed the scheduled event Club night.",
        ),
        "schedule_entry.deleted": (
            {"entry_id": 1, "name": "Club night", "date": "2026-09-01"},
            "Anna took Club night off the schedule.",
        ),
        "schedule_date.cancelled": (
            {"entry_id": 1, "name": "Club night", "date": "2026-12-22"},
            "Anna cancelled Club night on 2026-12-22.",
        ),
        "schedule_date.reinstated": (
            {"entry_id": 1, "name": "Club night", "date": "2026-12-22"},
            "Anna reinstated Club night on 2026-12-22.",
        ),
        "embed_origins.changed": (
            {"old": [], "new": ["https://rooks.example"]},
            "Anna set the websites that may show the club's embeds: https://rooks.example.",
        ),
        "api_token.created": (
            {"name": "Swiss-Manager", "scope": "publish"},
            "Anna made the API token Swiss-Manager (publish).",
        ),
        "api_token.revoked": (
            {"name": "Swiss-Manager", "scope": "publish"},
            "Anna revoked the API token Swiss-Manager.",
        ),
        "board.changed": (
            {"event_id": event, "round": 2, "boards": [1, 3]},
            "Anna changed the pairing of round 2 of January Open by hand (board 1, 3).",
        ),
    }


def test_every_action_has_a_sentence():
    assert set(SENTENCES) == set(audit.ACTIONS)


def test_each_action_reads_as_a_sentence_with_the_names_it_concerns(club, anna, cast):
    cases = details_of(cast, anna)
    assert set(cases) == set(audit.ACTIONS)
    entries = [
        AuditEntry(club=club, user=anna, action=action, details=details)
        for action, (details, _words) in cases.items()
    ]
    names = names_for(entries)
    with translation.override("en"):
        for entry in entries:
            assert cases[entry.action][1] in sentence(entry, names), entry.action


def test_a_staff_or_command_change_says_who_made_it(club, anna, cast):
    edited = {"player_id": cast["jan"].pk, "by": "staff", "changed": ["junior"]}
    staff = AuditEntry(club=club, user=anna, action="player.edited", details=edited)
    command = AuditEntry(club=club, action="event.published", details={"event_id": 0, "name": "B"})
    names = names_for([staff, command])
    with translation.override("en"):
        assert (
            sentence(staff, names) == "Anna (in the staff admin) changed Jan Jansen's junior flag."
        )
        assert sentence(command, names) == "A command published B."


def test_names_come_from_one_query_per_kind_however_many_entries(club, anna, cast):
    players = make_players(club, [f"Player {n}" for n in range(30)])
    with transaction.atomic():
        for player in players:
            audit.record(club, anna, "player.added", player_id=player.pk, name=player.name)
            audit.record(club, anna, "event.published", event_id=cast["event"].pk, name="x")
        audit.record(club, anna, "director.added", user_id=anna.pk)
    entries = list(club.audit_entries.select_related("user"))
    from django.db import connection

    with CaptureQueriesContext(connection) as queries:
        found = sentences(entries)
    assert len(queries) == 3
    assert "Anna added Player 7 to the roster." in [text for _entry, text in found]


def test_the_log_page_shows_sentences_not_details(client, club, anna, cast):
    update_player_details(
        cast["jan"], junior=False, full_name_consent=True, start_rating=None, user=anna
    )
    client.force_login(anna)
    page = client.get(reverse("audit_log", args=[club.slug])).content.decode()
    assert "Anna changed Jan Jansen&#x27;s family consent from no to yes." in page
    assert "full_name_consent" not in page


def test_the_log_filters_by_player_under_any_role_and_by_event(client, club, anna, cast, on_commit):
    jan, emma, event = cast["jan"], cast["emma"], cast["event"]
    (bob,) = make_players(club, ["Bob Visser"])
    rename_player(bob, "Robert Visser", anna)
    with on_commit():
        merge_players(club, emma, bob, anna)
    with transaction.atomic():
        audit.record(club, anna, "event.published", event_id=event.pk, name=event.name)
    client.force_login(anna)
    log = reverse("audit_log", args=[club.slug])

    page = client.get(log, {"player": bob.pk}).content.decode()
    assert "Anna renamed Bob Visser to Robert Visser." in page
    assert "Anna merged Robert Visser into Emma de Vries" in page
    assert "published January Open" not in page

    page = client.get(log, {"event": event.pk}).content.decode()
    assert "Anna published January Open." in page
    assert "renamed" not in page

    page = client.get(log, {"player": jan.pk}).content.decode()
    assert "No change concerns this player or event." in page


def test_the_log_filter_offers_only_this_clubs_players(client, club, anna, outsider):
    other = Club.objects.get(slug="elsewhere")
    (theirs,) = make_players(other, ["Their Player"])
    with transaction.atomic():
        audit.record(club, anna, "club.created")
    client.force_login(anna)
    response = client.get(reverse("audit_log", args=[club.slug]), {"player": theirs.pk})
    page = response.content.decode()
    assert "Their Player" not in page
    assert "Anna created the club." in page  # an unknown choice filters nothing


@pytest.fixture
def on_commit(django_capture_on_commit_callbacks):
    return lambda: django_capture_on_commit_callbacks(execute=True)
