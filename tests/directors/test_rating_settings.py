"""The directors' rating settings: shown with their effect, saved through the one door."""

from __future__ import annotations

import datetime as dt
from html.parser import HTMLParser

import pytest
from django.db import transaction
from django.test import Client
from django.urls import reverse

from clubs.models import AuditEntry, Club, Ladder
from clubs.results import Result
from ladder.changes import LadderInput, club_changed
from ladder.replay import replay_ladder, verify_ladder
from tests.factories import first_ladder, make_event, make_players, rated_players

pytestmark = pytest.mark.django_db

W, D, B = Result.WHITE_WIN, Result.DRAW, Result.BLACK_WIN
LADDER = {
    "policy": "ladder",
    "start_rating": "1200",
    "k_high": "40",
    "k_low": "20",
    "k_threshold": "20",
    "provisional_below": "5",
    "junior_k_max_rating": "2300",
}


@pytest.fixture
def signed_in(director):
    client = Client()
    client.force_login(director)
    return client


@pytest.fixture
def history(club):
    """Three published events among five players, the ladder up to date."""
    ann, bob, cid, dee, eve = make_players(club, ["Ann", "Bob", "Cid", "Dee", "Eve"])
    for month, (a, b, c) in enumerate([(W, D, B), (D, W, W), (B, B, D)], start=1):
        make_event(
            club,
            [(1, ann, bob, a), (1, cid, dee, b), (2, ann, cid, c), (2, bob, eve, a)],
            date=dt.date(2026, month, 5),
        )
    with transaction.atomic():
        club_changed(club.pk, LadderInput())
    replay_ladder(club.pk)
    return club


def url(club):
    return reverse("rating_settings", args=[club.slug])


def form(client, club, **values):
    """The form as the page shows it, with `values` typed over it."""
    page = client.get(url(club), {"policy": values.get("policy", first_ladder(club).rating_policy)})
    data = {"based_on": page.context["form"]["based_on"].value(), **LADDER, **values}
    return {key: value for key, value in data.items() if value is not None}


def ratings(club):
    return dict(rated_players().filter(club=club).values_list("id", "rating"))


def saved(club):
    club = Club.objects.get(pk=club.pk)
    return (
        first_ladder(club).rating_policy,
        first_ladder(club).rating_settings,
        first_ladder(club).data_version,
    )


def test_the_preview_tells_what_moves_and_saves_nothing(signed_in, history):
    before = saved(history), ratings(history), AuditEntry.objects.count()
    response = signed_in.post(url(history), form(signed_in, history, k_high="32", k_low="16"))
    assert response.status_code == 200
    assert "ratings move; the largest by" in response.content.decode()
    assert response.context["impact"].moved > 0
    assert (saved(history), ratings(history), AuditEntry.objects.count()) == before


def test_the_previewed_figures_are_what_the_replay_does_after_saving(
    signed_in, history, django_capture_on_commit_callbacks
):
    old = ratings(history)
    data = form(signed_in, history, k_high="32", k_low="16", provisional_below="2")
    impact = signed_in.post(url(history), data).context["impact"]
    with django_capture_on_commit_callbacks(execute=True):
        response = signed_in.post(url(history), {**data, "confirm": "1"})
    assert response.status_code == 302
    club = Club.objects.get(pk=history.pk)
    assert (
        first_ladder(club).rating_settings["k_high"] == 32.0
        and first_ladder(club).rating_settings["provisional_below"] == 2
    )
    assert club.ladder_is_current and verify_ladder(club) == []
    new = ratings(club)
    moved = {pid: new[pid] - old[pid] for pid in old if abs(new[pid] - old[pid]) >= 0.05}
    assert impact.moved == len(moved) > 0
    assert impact.largest == pytest.approx(max(abs(c) for c in moved.values()))
    assert {m.player_id: m.change for m in impact.moves} == pytest.approx(moved)


def test_the_change_is_in_the_audit_log_with_old_and_new_values(signed_in, director, history):
    data = form(signed_in, history, k_low="15")
    signed_in.post(url(history), {**data, "confirm": "1"})
    entry = AuditEntry.objects.get(club=history, action="rating_settings.changed")
    assert entry.user == director
    assert entry.details["changes"] == {"k_low": [20.0, 15.0]}


def test_switching_to_hsb_previews_and_saves_the_policy(
    signed_in, history, django_capture_on_commit_callbacks
):
    data = form(signed_in, history, policy="hsb", bonus="5", start_rating="800")
    for key in ("k_high", "k_low", "k_threshold", "provisional_below", "junior_k_max_rating"):
        data.pop(key)
    preview = signed_in.post(url(history), data)
    assert preview.context["impact"].moved == 5
    with django_capture_on_commit_callbacks(execute=True):
        signed_in.post(url(history), {**data, "confirm": "1"})
    club = Club.objects.get(pk=history.pk)
    assert first_ladder(club).rating_policy == "hsb"
    assert first_ladder(club).rating_settings == {"start_rating": 800.0, "bonus": 5}
    assert verify_ladder(club) == []


@pytest.mark.parametrize(
    ("values", "message"),
    [
        ({"k_high": "-5", "k_low": "-10"}, "Enter a value from 1 to 100."),
        ({"start_rating": "1000000"}, "Enter a value from 0 to 4000."),
        ({"k_threshold": "12.5"}, "Enter a whole number."),
        ({"start_rating": "nan"}, "Enter a number."),
        ({"k_high": "10", "k_low": "20"}, "This must be at least “K for established players”."),
        ({"k_low": None}, "This field is required."),
    ],
)
def test_a_refused_value_is_named_and_nothing_is_saved(signed_in, history, values, message):
    before = saved(history), AuditEntry.objects.count()
    for step in ({}, {"confirm": "1"}):
        response = signed_in.post(url(history), {**form(signed_in, history, **values), **step})
        assert response.status_code == 200
        assert message in response.content.decode()
        assert response.context["impact"] is None
    assert (saved(history), AuditEntry.objects.count()) == before


def test_a_forged_policy_is_refused_and_nothing_is_saved(signed_in, history):
    before = saved(history), AuditEntry.objects.count()
    data = {**form(signed_in, history), "policy": "glicko", "confirm": "1"}
    response = signed_in.post(url(history), data)
    assert "There is no such rating policy" in response.content.decode()
    assert (saved(history), AuditEntry.objects.count()) == before


def test_a_forged_extra_setting_is_ignored_not_stored(signed_in, history):
    data = {**form(signed_in, history, k_low="15"), "bonus": "8", "secret": "x", "confirm": "1"}
    signed_in.post(url(history), data)
    stored = first_ladder(history.pk).rating_settings
    assert stored["k_low"] == 15.0 and "bonus" not in stored and "secret" not in stored


def test_a_save_over_settings_someone_changed_meanwhile_is_refused(signed_in, history):
    data = form(signed_in, history, k_low="15")
    Ladder.objects.filter(club_id=history.pk).update(rating_settings={"k_low": 10})
    before = saved(history)
    response = signed_in.post(url(history), {**data, "confirm": "1"}, follow=True)
    assert "changed by someone else" in response.content.decode()
    assert saved(history) == before


def test_saving_the_settings_the_club_has_changes_nothing(signed_in, history):
    before = saved(history), AuditEntry.objects.count()
    response = signed_in.post(url(history), {**form(signed_in, history), "confirm": "1"})
    assert response.status_code == 302
    assert (saved(history), AuditEntry.objects.count()) == before


def test_the_owner_may_change_them_and_outsiders_get_404(owner, outsider, history):
    client = Client()
    client.force_login(outsider)
    assert client.get(url(history)).status_code == 404
    assert client.post(url(history), {**LADDER, "confirm": "1"}).status_code == 404
    client.force_login(owner)
    assert client.get(url(history)).status_code == 200


class _FieldRows(HTMLParser):
    """The settings form (the page's form that posts) as its rows: each top-level <div> of
    the form with the `for` of its labels and the ids of its visible inputs; inputs outside
    any row are kept apart."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[dict[str, list[str]]] = []
        self.loose: list[str] = []
        self._in_form = False
        self._depth = 0

    def handle_starttag(self, tag, attrs):
        found = dict(attrs)
        if tag == "form" and found.get("method") == "post" and not self.rows:
            self._in_form = True
        elif not self._in_form:
            return
        elif tag == "div":
            self._depth += 1
            if self._depth == 1:
                self.rows.append({"labels": [], "inputs": []})
        elif tag == "label" and self._depth:
            self.rows[-1]["labels"].append(found.get("for") or "")
        elif tag in ("input", "select", "textarea") and found.get("type") != "hidden":
            (self.rows[-1]["inputs"] if self._depth else self.loose).append(found.get("id") or "")

    def handle_endtag(self, tag):
        if tag == "form":
            self._in_form = False
        elif tag == "div" and self._in_form:
            self._depth -= 1


@pytest.mark.parametrize("policy", ["ladder", "hsb"])
def test_each_setting_sits_in_its_own_row_with_its_own_label(signed_in, history, policy):
    response = signed_in.get(url(history), {"policy": policy})
    parsed = _FieldRows()
    parsed.feed(response.content.decode())
    fields = [row for row in parsed.rows if row["inputs"]]
    names = list(response.context["form"].visible_fields())
    assert parsed.loose == []
    assert len(fields) == len(names) >= 2
    for row, field in zip(fields, names, strict=True):
        assert row["inputs"] == [field.id_for_label]
        assert row["labels"] == [field.id_for_label]
