"""Result taps kept offline and sent later (issue 36, item 2): each key is applied once, a tap
made stale by a re-pairing or a later result is refused with its reason while the others go
through, and a forged key or pairing is a 4xx that stores nothing. The browser side is
tests/browser/test_night_offline.py."""

from __future__ import annotations

import uuid

import pytest
from django.urls import reverse

from clubs.models import AuditEntry, Board, Game, NightTap, Round
from clubs.results import Result
from directors.night import rounds as night_rounds
from directors.night.pairs import NO_RESULT_YET, result_moved
from tests.directors.night.test_night_views import night, roster, signed_in, tap, url

pytestmark = pytest.mark.django_db

__all__ = ["roster", "signed_in"]  # fixtures used by the tests below

JSON = {"HTTP_ACCEPT": "application/json"}


@pytest.fixture
def paired(club, roster):
    event = night(club, roster[:4])
    night_rounds.pair_next_round(event.pk, None)
    return event


def offline_tap(result, event, round_number, board_number, *, key=None, based_on=NO_RESULT_YET):
    return {
        **tap(result, event, round_number, board_number),
        "key": str(key or uuid.uuid4()),
        "based_on": based_on,
    }


def audit_lines(event):
    return AuditEntry.objects.filter(action="board_result.entered", club=event.club).count()


def stored(event):
    return sorted(
        Game.objects.filter(event=event).values_list("round", "white_id", "black_id", "result")
    )


@pytest.mark.parametrize(
    ("now", "based_on", "tapped", "moved"),
    [
        ("", None, "1-0", False),  # a tap that says nothing of its base (a command)
        ("", NO_RESULT_YET, "1-0", False),  # the first result
        ("1-0", "1-0", "0-1", False),  # a correction of what the screen showed
        ("1-0", NO_RESULT_YET, "0-1", True),  # another director's result came first
        ("1/2", "1-0", "0-1", True),  # corrected since the screen showed it
        ("1-0", NO_RESULT_YET, "1-0", False),  # both say the same: nothing to refuse
    ],
)
def test_a_tap_is_late_only_when_the_board_moved_to_another_result(now, based_on, tapped, moved):
    assert result_moved(now, based_on, tapped) is moved


def test_a_replayed_key_is_applied_once_and_answered_the_same(signed_in, paired):
    key = uuid.uuid4()
    posted = offline_tap("1-0", paired, 1, 1, key=key)
    first = signed_in.post(url("night_result", paired, 1, 1), posted, **JSON)
    assert first.status_code == 200
    assert first.json()["status"] == "applied"
    games, lines = stored(paired), audit_lines(paired)
    again = signed_in.post(url("night_result", paired, 1, 1), posted, **JSON)
    assert again.status_code == 200
    assert again.json() | {"status": "applied"} == first.json()
    assert again.json()["status"] == "replayed"
    assert stored(paired) == games
    assert audit_lines(paired) == lines == 1
    assert NightTap.objects.filter(event=paired, key=key).count() == 1


def test_a_replay_after_a_later_correction_does_not_undo_it(signed_in, paired):
    """The first tap's copy arrives late, after the board was corrected: answered as applied
    before, and the correction stays."""
    posted = offline_tap("1-0", paired, 1, 1)
    signed_in.post(url("night_result", paired, 1, 1), posted, **JSON)
    fix = offline_tap("0-1", paired, 1, 1, based_on="1-0")
    assert signed_in.post(url("night_result", paired, 1, 1), fix, **JSON).status_code == 200
    late = signed_in.post(url("night_result", paired, 1, 1), posted, **JSON)
    assert late.json()["status"] == "replayed"
    assert Board.objects.get(event=paired, round=1, number=1).game.result == Result.BLACK_WIN


def test_a_tap_based_on_an_older_result_is_refused_and_the_next_goes_through(signed_in, paired):
    # Another director entered board 1 while this phone was offline with its own tap.
    night_rounds.enter_result(paired.pk, 1, 1, Result.DRAW, None)
    games, lines = stored(paired), audit_lines(paired)
    stale = signed_in.post(
        url("night_result", paired, 1, 1), offline_tap("1-0", paired, 1, 1), **JSON
    )
    assert stale.status_code == 409
    answer = stale.json()
    assert answer["status"] == "refused"
    assert "Board 1 of round 1 holds ½–½, not no result" in answer["reason"]
    assert (answer["board"], answer["result"], answer["label"]) == (1, "1/2", "½–½")
    assert stored(paired) == games and audit_lines(paired) == lines
    assert not NightTap.objects.exists()
    # The queue's next tap, for board 2, is not blocked.
    fine = signed_in.post(
        url("night_result", paired, 1, 2), offline_tap("0-1", paired, 1, 2), **JSON
    )
    assert fine.status_code == 200
    assert Board.objects.get(event=paired, round=1, number=2).game.result == Result.BLACK_WIN


def test_a_tap_from_before_a_repairing_is_refused_naming_the_new_pair(signed_in, paired):
    kept = offline_tap("1-0", paired, 1, 1)
    night_rounds.unpair_round(paired.pk, 1, None)
    night_rounds.pair_next_round(paired.pk, None)
    response = signed_in.post(url("night_result", paired, 1, 1), kept, **JSON)
    assert response.status_code == 409
    assert "was paired again" in response.json()["reason"]
    assert response.json()["pairing"] == Round.pairing_of(paired.pk, 1)
    assert not Game.objects.filter(event=paired, black__isnull=False).exists()


def test_a_tap_that_agrees_with_a_later_result_changes_nothing(signed_in, paired):
    night_rounds.enter_result(paired.pk, 1, 1, Result.WHITE_WIN, None)
    lines = audit_lines(paired)
    same = signed_in.post(
        url("night_result", paired, 1, 1), offline_tap("1-0", paired, 1, 1), **JSON
    )
    assert same.status_code == 200
    assert audit_lines(paired) == lines


@pytest.mark.parametrize(
    ("change", "status"),
    [
        ({"key": "not-a-uuid"}, 400),
        ({"based_on": "9-9"}, 400),
        ({"pairing": "77"}, 409),
        ({"white": "999999"}, 409),
    ],
)
def test_a_forged_key_or_pairing_is_a_4xx_that_stores_nothing(signed_in, paired, change, status):
    before, lines = stored(paired), audit_lines(paired)
    posted = {**offline_tap("1-0", paired, 1, 1), **change}
    response = signed_in.post(url("night_result", paired, 1, 1), posted, **JSON)
    assert response.status_code == status
    assert response.json()["status"] == "refused" and response.json()["reason"]
    assert stored(paired) == before and audit_lines(paired) == lines
    assert not NightTap.objects.exists()


def test_a_key_used_again_for_another_board_is_refused(signed_in, paired):
    key = uuid.uuid4()
    signed_in.post(url("night_result", paired, 1, 1), offline_tap("1-0", paired, 1, 1, key=key))
    before = stored(paired)
    reused = signed_in.post(
        url("night_result", paired, 1, 2), offline_tap("0-1", paired, 1, 2, key=key), **JSON
    )
    assert reused.status_code == 400
    assert "already used for another result" in reused.json()["reason"]
    assert stored(paired) == before


def test_a_form_without_the_script_still_records_and_redirects(signed_in, paired):
    """The plain form (no key, no JSON): a redirect to the next board, as before; it too
    sends the result it showed, so a result entered meanwhile is not overwritten."""
    response = signed_in.post(
        url("night_result", paired, 1, 1), {**tap("1-0", paired, 1, 1), "based_on": "none"}
    )
    assert response.status_code == 302
    assert response.url.endswith("#board-2")
    late = signed_in.post(
        url("night_result", paired, 1, 1), {**tap("0-1", paired, 1, 1), "based_on": "none"}
    )
    assert late.status_code == 302
    assert Board.objects.get(event=paired, round=1, number=1).game.result == Result.WHITE_WIN


def test_the_results_page_carries_each_boards_result_for_the_script(signed_in, paired):
    night_rounds.enter_result(paired.pk, 1, 1, Result.DRAW, None)
    html = signed_in.get(url("night_results", paired, 1)).content.decode()
    assert 'data-board="1" data-result="1/2"' in html
    assert 'name="based_on" value="1/2"' in html
    assert 'name="based_on" value="none"' in html  # board 2 has no result yet
    assert "directors/night/offline.js" in html
    assert reverse("night_manifest", args=[paired.club.slug]) in html


def test_the_service_worker_is_served_for_the_whole_site(client):
    response = client.get(reverse("night_service_worker"))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Service-Worker-Allowed"] == "/"
    assert "no-cache" in response["Cache-Control"]
    body = response.content.decode()
    assert "/manage\\/[-\\w]+\\/night\\/" in body
    assert reverse("logout") in body and reverse("login") in body


def test_the_manifest_is_the_clubs_and_starts_at_its_night(signed_in, club):
    response = signed_in.get(reverse("night_manifest", args=[club.slug]))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    manifest = response.json()
    assert manifest["start_url"] == reverse("night_start", args=[club.slug])
    assert manifest["start_url"].startswith(manifest["scope"])
    assert manifest["display"] == "standalone"
    assert manifest["icons"][0]["type"] == "image/svg+xml"
    assert club.name in manifest["name"]
