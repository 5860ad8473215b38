"""The roster import on the roster screen: the file import_roster reads, uploaded or pasted,
previewed (new, on the roster, what changes, bad lines), then saved all or nothing."""

from __future__ import annotations

import pytest
from django.core import signing
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from clubs.models import AuditEntry, Ladder, Player
from directors.events.results import MAX_UPLOAD_BYTES
from directors.roster.starting_ladder import read_starting_ladder
from ladder.models import LadderRating
from ladder.roster.ladders import set_start
from tests.factories import first_ladder

pytestmark = pytest.mark.django_db

GOOD = "name,rating,games,junior\nAnn Archer,1500,30,no\nBob Brown,1234.5,0,yes\n"


@pytest.fixture
def signed_in(director):
    client = Client()
    client.force_login(director)
    return client


def url(club, name="roster_import"):
    return reverse(name, args=[club.slug])


def preview(client, club, content, **extra):
    if isinstance(content, str):
        content = content.encode()
    upload = SimpleUploadedFile("roster.csv", content, content_type="text/csv")
    return client.post(url(club), {"file": upload, **extra})


def save(client, club, response):
    return client.post(url(club, "roster_import_save"), {"payload": response.context["payload"]})


def stored(club):
    return (
        sorted(
            Player.objects.filter(club=club).values_list("name", "junior"),
        ),
        sorted(
            LadderRating.objects.filter(player__club=club).values_list(
                "player__name", "ladder_id", "start_rating", "start_games"
            )
        ),
        AuditEntry.objects.filter(club=club, action="roster.imported").count(),
        first_ladder(club).data_version,
    )


def test_the_empty_roster_page_links_to_the_import(signed_in, club):
    page = signed_in.get(url(club, "roster_players")).content.decode()
    assert f'or <a href="{url(club)}">import a roster</a>.' in page


def test_a_good_file_is_previewed_then_saved_with_its_audit_line(signed_in, club, director):
    before = stored(club)
    shown = preview(signed_in, club, GOOD)
    assert shown.status_code == 200
    assert [row.name for row in shown.context["plan"].new] == ["Ann Archer", "Bob Brown"]
    assert "2 new players" in shown.content.decode()
    assert stored(club) == before  # the preview stores nothing
    response = save(signed_in, club, shown)
    assert response.status_code == 302
    assert response["Location"] == url(club, "roster_players")
    names, starts, _audits, version = stored(club)
    assert names == [("Ann Archer", False), ("Bob Brown", True)]
    ladder = first_ladder(club).pk
    assert starts == [("Ann Archer", ladder, 1500.0, 30), ("Bob Brown", ladder, 1234.5, 0)]
    entry = AuditEntry.objects.get(club=club, action="roster.imported")
    assert entry.user == director
    assert (entry.details["created"], entry.details["updated"]) == (2, 0)
    assert version == before[3] + 1


def test_a_pasted_roster_is_read_as_a_file_is(signed_in, club):
    shown = signed_in.post(url(club), {"text": GOOD})
    assert [row.name for row in shown.context["plan"].new] == ["Ann Archer", "Bob Brown"]
    save(signed_in, club, shown)
    assert Player.objects.filter(club=club).count() == 2


def test_a_player_on_the_roster_by_exact_name_is_shown_with_what_changes_and_updated(
    signed_in, club
):
    ann = Player.objects.create(club=club, name="Ann Archer", junior=True)
    set_start(first_ladder(club).pk, ann.pk, 1400.0, 3)
    shown = preview(signed_in, club, GOOD)
    page = shown.content.decode()
    assert "1 new player" in page and "1 player already on the roster" in page
    assert "starting rating 1400 → 1500" in page
    assert "starting games 3 → 30" in page
    save(signed_in, club, shown)
    ann.refresh_from_db()
    assert not ann.junior
    row = LadderRating.objects.get(player=ann, ladder=first_ladder(club))
    assert (row.start_rating, row.start_games) == (1500.0, 30)
    assert Player.objects.filter(club=club).count() == 2
    entry = AuditEntry.objects.get(club=club, action="roster.imported")
    assert (entry.details["created"], entry.details["updated"]) == (1, 1)


def test_a_name_the_roster_writes_in_other_capitals_is_refused_not_doubled(signed_in, club):
    Player.objects.create(club=club, name="Ann Archer")
    before = stored(club)
    shown = preview(signed_in, club, "name,rating,games\nANN ARCHER,1500,30\nBob Brown,1400,3\n")
    assert "on the roster: Ann Archer" in shown.content.decode()
    assert not shown.context["payload"]
    assert stored(club) == before


@pytest.mark.parametrize(
    ("content", "reasons"),
    [
        (
            GOOD + "Cid Cole,strong,12,no\nDee Dunn,1400,3,maybe\n,1400,3,no\n",
            {
                4: "rating and games must be numbers",
                5: "junior must be yes or no, not 'maybe'",
                6: "the name is empty",
            },
        ),
        ("name,rating\nAnn,1500\n", {1: "missing column(s) games"}),
        (b"name,rating,games\r\nAnn,1500,30\r\n\x81\x8d\x8f\x90", {None: "not text in UTF-8"}),
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", {None: "not a CSV text file"}),
    ],
    ids=["broken rows", "missing column", "wrong encoding", "binary"],
)
def test_a_bad_file_names_every_bad_line_and_why_and_offers_no_save(
    signed_in, club, content, reasons
):
    before = stored(club)
    shown = preview(signed_in, club, content)
    assert shown.status_code == 200
    found = {bad.line: bad.reason for bad in shown.context["problems"]}
    assert set(found) == set(reasons)
    for line, reason in reasons.items():
        assert reason in found[line]
    assert not shown.context["payload"]
    assert "Import these players" not in shown.content.decode()
    assert stored(club) == before


def test_a_file_above_the_event_upload_limit_is_refused(signed_in, club):
    before = stored(club)
    huge = GOOD.encode() + b"x" * MAX_UPLOAD_BYTES
    response = preview(signed_in, club, huge)
    assert response.status_code == 400
    assert "larger than the 4.0" in response.content.decode()
    assert stored(club) == before


def test_a_forged_or_other_clubs_preview_is_refused_and_stores_nothing(signed_in, club):
    shown = preview(signed_in, club, GOOD)
    data = signing.loads(shown.context["payload"], salt="directors.roster_import")
    before = stored(club)
    forged = [
        shown.context["payload"][:-3] + "abc",  # altered
        signing.dumps({**data, "club": club.pk + 1}, salt="directors.roster_import"),
        signing.dumps(data, salt="another purpose"),
        "",
    ]
    for payload in forged:
        response = signed_in.post(url(club, "roster_import_save"), {"payload": payload})
        assert response.status_code == 400
        assert "This preview cannot be saved" in response.content.decode()
    assert stored(club) == before


def test_a_preview_of_another_ladder_than_the_clubs_is_refused(signed_in, club, outsider):
    other = Ladder.objects.exclude(club=club).first()
    shown = preview(signed_in, club, GOOD)
    data = signing.loads(shown.context["payload"], salt="directors.roster_import")
    payload = signing.dumps({**data, "ladder": other.pk}, salt="directors.roster_import")
    before = stored(club)
    response = signed_in.post(url(club, "roster_import_save"), {"payload": payload})
    assert response.status_code == 400
    assert stored(club) == before


def test_a_stale_preview_is_refused_when_the_roster_changed_and_stores_nothing(signed_in, club):
    shown = preview(signed_in, club, GOOD)
    Player.objects.create(club=club, name="Bob Brown")  # added meanwhile
    before = stored(club)
    response = save(signed_in, club, shown)
    assert response.status_code == 409
    assert "The roster changed since this preview" in response.content.decode()
    assert stored(club) == before


def test_a_saved_preview_sent_again_imports_nothing_more(signed_in, club):
    shown = preview(signed_in, club, GOOD)
    save(signed_in, club, shown)
    before = stored(club)
    assert save(signed_in, club, shown).status_code == 409
    assert stored(club) == before


def test_the_starting_ratings_go_on_the_chosen_ladder(signed_in, club):
    blitz = Ladder.objects.create(club=club, name="Blitz", slug="blitz", position=2)
    shown = preview(signed_in, club, GOOD, ladder=blitz.pk)
    save(signed_in, club, shown)
    rows = LadderRating.objects.filter(player__club=club, start_rating__isnull=False)
    assert set(rows.values_list("ladder_id", flat=True)) == {blitz.pk}


def test_another_clubs_ladder_cannot_be_chosen(signed_in, club, outsider):
    other = Ladder.objects.exclude(club=club).first()
    response = preview(signed_in, club, GOOD, ladder=other.pk)
    assert response.status_code == 400
    assert not Player.objects.filter(club=club).exists()


def test_reading_keeps_going_past_a_bad_line_so_every_one_is_named():
    read = read_starting_ladder(b"name,rating,games\nA,x,1\nB,1500,2\nC,1500,-1\nb,1,1\n")
    assert [row.name for row in read.rows] == ["B"]
    assert [(p.line, p.reason) for p in read.problems] == [
        (2, "rating and games must be numbers"),
        (4, "rating must be 0–4000 and games at least 0"),
        (5, "b appears twice"),
    ]
