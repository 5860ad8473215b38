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
from directors.roster.starting_ladder import (
    import_starting_ladder,
    parse_starting_ladder,
    read_starting_ladder,
)
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


def test_a_name_the_roster_writes_in_other_capitals_is_asked_about_not_doubled(signed_in, club):
    ann = Player.objects.create(club=club, name="Ann Archer")
    before = stored(club)
    shown = preview(signed_in, club, "name,rating,games\nANN ARCHER,1500,30\nBob Brown,1400,3\n")
    close = shown.context["plan"].close
    assert [(c.row.name, [p.player_id for p in c.candidates]) for c in close] == [
        ("ANN ARCHER", [ann.pk])
    ]
    assert [row.name for row in shown.context["plan"].new] == ["Bob Brown"]
    assert "Import these players" not in shown.content.decode()
    assert save(signed_in, club, shown).status_code == 400  # not answered yet
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


# Names close to roster players: the director says who each is (issue 36) ----------------

ZOE_FILE = "name,rating,games,junior\nAnn Archer,1500,30,no\nZoe van Dijk,1100,5,yes\n"


@pytest.fixture
def zoe(club):
    player = Player.objects.create(club=club, name="Zoë van Dijk")
    set_start(first_ladder(club).pk, player.pk, 900.0, 2)
    return player


def choose(client, club, response, **answers):
    """Post the preview's answers: field -> value ("new" or a player id)."""
    data = {"payload": response.context["payload"], **{k: str(v) for k, v in answers.items()}}
    return client.post(url(club, "roster_import_choose"), data)


def field(response, name):
    return next(c.field for c in response.context["plan"].close if c.row.name == name)


def test_a_name_differing_only_by_an_accent_is_asked_about_and_nothing_saved_before(
    signed_in, club, zoe
):
    before = stored(club)
    shown = preview(signed_in, club, ZOE_FILE)
    plan = shown.context["plan"]
    assert [row.name for row in plan.new] == ["Ann Archer"]  # Zoe is not previewed as new
    assert [(c.row.name, c.candidates[0].player_id) for c in plan.undecided] == [
        ("Zoe van Dijk", zoe.pk)
    ]
    page = shown.content.decode()
    assert "1 name close to players on the roster" in page
    assert "The same as Zoë van Dijk" in page and "A new person" in page
    assert "keeps the roster's spelling" in page  # what "the same as" does, said
    assert "Import these players" not in page
    response = save(signed_in, club, shown)
    assert response.status_code == 400
    assert "Say for every name close to a roster player" in response.content.decode()
    assert stored(club) == before


def test_the_same_as_a_roster_player_updates_that_player_as_an_exact_name_would(
    signed_in, club, zoe, director
):
    shown = preview(signed_in, club, ZOE_FILE)
    before = stored(club)
    chosen = choose(signed_in, club, shown, **{field(shown, "Zoe van Dijk"): zoe.pk})
    assert chosen.status_code == 200
    assert stored(club) == before  # answering stores nothing
    page = chosen.content.decode()
    assert "(on the roster: Zoë van Dijk, as you said)" in page
    assert "starting rating 900 → 1100" in page and "junior no → yes" in page
    assert "Import these players" in page
    assert save(signed_in, club, chosen).status_code == 302
    zoe.refresh_from_db()
    assert (zoe.name, zoe.junior) == ("Zoë van Dijk", True)  # the roster's spelling is kept
    row = LadderRating.objects.get(player=zoe, ladder=first_ladder(club))
    assert (row.start_rating, row.start_games) == (1100.0, 5)
    assert sorted(Player.objects.filter(club=club).values_list("name", flat=True)) == [
        "Ann Archer",
        "Zoë van Dijk",
    ]
    entry = AuditEntry.objects.get(club=club, action="roster.imported")
    assert (entry.details["created"], entry.details["updated"]) == (1, 1)
    assert entry.details["same_as"] == [["Zoe van Dijk", zoe.pk]]


def test_a_new_person_is_added_beside_the_close_roster_player(signed_in, club, zoe):
    shown = preview(signed_in, club, ZOE_FILE)
    chosen = choose(signed_in, club, shown, **{field(shown, "Zoe van Dijk"): "new"})
    assert [row.name for row in chosen.context["plan"].new] == ["Ann Archer", "Zoe van Dijk"]
    assert "Line 3: Zoe van Dijk is a new person." in chosen.content.decode()
    save(signed_in, club, chosen)
    assert sorted(Player.objects.filter(club=club).values_list("name", flat=True)) == [
        "Ann Archer",
        "Zoe van Dijk",
        "Zoë van Dijk",
    ]
    zoe_row = LadderRating.objects.get(ladder=first_ladder(club), player=zoe)
    assert (zoe_row.start_rating, zoe_row.start_games) == (900.0, 2)  # untouched
    entry = AuditEntry.objects.get(club=club, action="roster.imported")
    assert entry.details["new_beside_close"] == ["Zoe van Dijk"]


def test_answers_left_out_are_asked_again_and_the_given_ones_kept(signed_in, club, zoe):
    Player.objects.create(club=club, name="Robert Brown")
    content = ZOE_FILE + "Bob Brown,1200,4,no\n"
    shown = preview(signed_in, club, content)
    assert len(shown.context["plan"].undecided) == 2
    partly = choose(signed_in, club, shown, **{field(shown, "Zoe van Dijk"): zoe.pk})
    plan = partly.context["plan"]
    assert [c.row.name for c in plan.undecided] == ["Bob Brown"]
    page = partly.content.decode()
    assert "Import these players" not in page
    assert f'value="{zoe.pk}" required checked' in page  # the answer given stays chosen
    before = stored(club)
    assert save(signed_in, club, partly).status_code == 400
    assert stored(club) == before


def test_the_answers_can_be_changed_before_saving(signed_in, club, zoe):
    shown = preview(signed_in, club, ZOE_FILE)
    zoe_field = field(shown, "Zoe van Dijk")
    chosen = choose(signed_in, club, shown, **{zoe_field: zoe.pk})
    asked = signed_in.post(
        url(club, "roster_import_choose"),
        {"payload": chosen.context["payload"], "change": "1"},
    )
    page = asked.content.decode()
    assert "Use these answers" in page and "Import these players" not in page
    again = choose(signed_in, club, asked, **{zoe_field: "new"})
    save(signed_in, club, again)
    assert Player.objects.filter(club=club, name="Zoe van Dijk").exists()


def test_a_forged_answer_is_refused_and_stores_nothing(signed_in, club, zoe, outsider):
    theirs = Player.objects.create(
        club=Ladder.objects.exclude(club=club).first().club, name="Zoe van Dijk"
    )
    mine_not_offered = Player.objects.create(club=club, name="Xavier Quintero")
    shown = preview(signed_in, club, ZOE_FILE)
    zoe_field = field(shown, "Zoe van Dijk")
    before = stored(club)
    for value in [theirs.pk, mine_not_offered.pk, "someone", "-1"]:
        response = choose(signed_in, club, shown, **{zoe_field: value})
        assert response.status_code == 400, value
        assert "This preview cannot be saved" in response.content.decode()
        assert not response.context["payload"]
    assert stored(club) == before


def test_answers_travel_signed_so_an_altered_one_is_refused(signed_in, club, zoe):
    shown = preview(signed_in, club, ZOE_FILE)
    chosen = choose(signed_in, club, shown, **{field(shown, "Zoe van Dijk"): "new"})
    data = signing.loads(chosen.context["payload"], salt="directors.roster_import")
    assert data["choices"] == {"Zoe van Dijk": "new"}
    before = stored(club)
    altered = chosen.context["payload"].replace(".", ".x", 1)
    response = signed_in.post(url(club, "roster_import_save"), {"payload": altered})
    assert response.status_code == 400
    # Signed, but for another player than the one the preview was planned with: stale.
    forged = signing.dumps(
        {**data, "choices": {"Zoe van Dijk": zoe.pk}}, salt="directors.roster_import"
    )
    response = signed_in.post(url(club, "roster_import_save"), {"payload": forged})
    assert response.status_code == 409
    assert stored(club) == before


def test_one_roster_player_chosen_for_two_names_is_refused(signed_in, club, zoe):
    content = ZOE_FILE + "Zoé van Dijk,1000,1,no\n"
    shown = preview(signed_in, club, content)
    answers = {field(shown, "Zoe van Dijk"): zoe.pk, field(shown, "Zoé van Dijk"): zoe.pk}
    before = stored(club)
    response = choose(signed_in, club, shown, **answers)
    assert response.status_code == 400
    assert "Lines 3 and 4 cannot both be Zoë van Dijk" in response.content.decode()
    assert stored(club) == before


def test_a_name_another_line_already_is_on_the_roster_is_still_asked_about(signed_in, club, zoe):
    content = ZOE_FILE + "Zoë van Dijk,1000,1,no\n"
    shown = preview(signed_in, club, content)
    plan = shown.context["plan"]
    assert [f.row.name for f in plan.on_roster] == ["Zoë van Dijk"]
    [close] = plan.close
    assert [(c.player_id, c.taken) for c in close.candidates] == [(zoe.pk, True)]
    assert "another line of this file is that player already" in shown.content.decode()
    assert choose(signed_in, club, shown, **{close.field: zoe.pk}).status_code == 400
    chosen = choose(signed_in, club, shown, **{close.field: "new"})
    assert chosen.context["plan"].can_save


def test_the_roster_changing_after_the_answers_makes_the_save_stale(signed_in, club, zoe):
    shown = preview(signed_in, club, ZOE_FILE)
    chosen = choose(signed_in, club, shown, **{field(shown, "Zoe van Dijk"): zoe.pk})
    Player.objects.filter(pk=zoe.pk).update(name="Zoë van Dijk-Smit")  # renamed meanwhile
    before = stored(club)
    response = save(signed_in, club, chosen)
    assert response.status_code == 409
    assert stored(club) == before


def test_the_import_roster_command_still_asks_nothing_and_adds_the_close_name(club, zoe):
    rows = parse_starting_ladder(ZOE_FILE.encode())
    assert import_starting_ladder(club, rows) == 2
    assert sorted(Player.objects.filter(club=club).values_list("name", flat=True)) == [
        "Ann Archer",
        "Zoe van Dijk",
        "Zoë van Dijk",
    ]
    details = AuditEntry.objects.get(club=club, action="roster.imported").details
    assert "same_as" not in details


def test_a_name_two_roster_players_share_is_asked_about_not_given_to_either(signed_in, club):
    first = Player.objects.create(club=club, name="Ann Archer")
    second = Player.objects.create(club=club, name="Ann Archer")
    shown = preview(signed_in, club, GOOD)
    plan = shown.context["plan"]
    assert plan.on_roster == ()
    [close] = plan.close
    assert {c.player_id for c in close.candidates} == {first.pk, second.pk}
    chosen = choose(signed_in, club, shown, **{close.field: second.pk})
    save(signed_in, club, chosen)
    starts = LadderRating.objects.filter(ladder=first_ladder(club), start_rating=1500.0)
    assert list(starts.values_list("player_id", flat=True)) == [second.pk]


def test_a_name_only_alike_as_text_is_not_asked_about(signed_in, club):
    """A shared surname or first name alone is a weak suggestion, never a likely match: a
    file of new members would otherwise be mostly questions."""
    Player.objects.create(club=club, name="Mila Hendriks")
    Player.objects.create(club=club, name="Kees Jansen")
    shown = preview(signed_in, club, "name,rating,games\nMilan Kandic,1500,3\nAnn Jansen,1400,2\n")
    plan = shown.context["plan"]
    assert plan.close == ()
    assert [row.name for row in plan.new] == ["Milan Kandic", "Ann Jansen"]
    assert "Import these players" in shown.content.decode()
