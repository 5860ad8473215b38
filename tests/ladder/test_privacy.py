"""Privacy on the club pages: who sees a club, which names they see, what search engines see."""

import csv
import io
import json
import re

import pytest
from django.urls import reverse
from django.utils import timezone

from clubs.models import Club, Event, Player
from clubs.results import Result
from ladder.replay import replay_ladder
from ladder.roster.display import NameFacts, initials, shown_name, shown_names
from tests.factories import make_club, make_event, make_user

pytestmark = pytest.mark.django_db

W, D = Result.WHITE_WIN, Result.DRAW
PAGES = [
    "",
    "players/",
    "events/",
    "ladder.csv",
    "ladder.json",
    "seeding.trf",
    "seeding.csv",
    "how-ratings-work/",
    "seasons/",
    "seasons/2025-26/",  # the events' season (10 January 2026)
]
HTML_PAGES = ["", "players/", "events/", "how-ratings-work/", "seasons/", "seasons/2025-26/"]


def url(club: Club, suffix: str = "", secret: str | None = None) -> str:
    if secret is None and club.visibility != Club.Visibility.PUBLIC:
        secret = club.secret
    if secret is None:
        return reverse("club_page", args=[club.slug]) + suffix
    return reverse("club_page_secret", args=[club.slug, secret]) + suffix


def every_page(club: Club, player: Player, event) -> list[str]:
    # The event has two rounds: ?after=1 is its standings after the first. Its rounds, its
    # wall chart (a Swiss) and its rating changes are pages of their own too (issue 27).
    return [
        *PAGES,
        f"players/{player.pk}/",
        *(f"events/{event.pk}/{part}" for part in EVENT_PARTS),
    ]


EVENT_PARTS = ["", "?after=1", "rounds/", "rounds/?round=2", "wallchart/", "ratings/"]


def populate(club: Club) -> tuple[list[Player], object]:
    """A junior without consent, a junior with consent and two adults, one rated event."""
    players = [
        Player.objects.create(club=club, name="Jasper Bakker", junior=True),
        Player.objects.create(club=club, name="Lotte Smit", junior=True, full_name_consent=True),
        Player.objects.create(club=club, name="Henk Bos"),
        Player.objects.create(club=club, name="Ingrid Dekker"),
    ]
    jasper, lotte, henk, ingrid = players
    event = make_event(club, [(1, jasper, henk, W), (1, lotte, ingrid, D), (2, jasper, lotte, D)])
    replay_ladder(club.pk, full=True)
    club.refresh_from_db()
    return players, event


@pytest.fixture
def public(owner):
    return make_club(slug="knights", owner=owner, visibility=Club.Visibility.PUBLIC)


def text_of(response) -> str:
    return response.content.decode()


def without_csrf(html: str) -> str:
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", html)


# --- names: the one rule ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("Jasper Bakker", "J. B."),
        ("Pieter van der Berg", "P. v. d. B."),
        ("Anna-Lena Müller", "A.-L. M."),
        ("Bakker, Jasper", "B. J."),
        ("  ", ""),
        ("प्रिया शर्मा", "प्. श."),
        ("Zoë", "Z."),
    ],
)
def test_initials(name, expected):
    assert initials(name) == expected


class _Club:
    def __init__(self, name_display: str) -> None:
        self.name_display = name_display


@pytest.mark.parametrize(
    ("mode", "junior", "consent", "director", "expected"),
    [
        ("full", False, False, False, "Jasper Bakker"),
        ("full", True, False, False, "J. B."),
        ("full", True, True, False, "Jasper Bakker"),
        ("initials", False, False, False, "J. B."),
        ("initials", True, True, False, "J. B."),
        ("initials", True, False, True, "Jasper Bakker"),
        ("full", True, False, True, "Jasper Bakker"),
    ],
)
def test_shown_name(mode, junior, consent, director, expected):
    player = NameFacts(1, "Jasper Bakker", junior, consent)
    assert shown_name(player, _Club(mode), director) == expected


def test_look_alikes_are_numbered_by_player_order():
    players = [
        NameFacts(7, "Jan Bakker", False, False),
        NameFacts(3, "Joke Bos", False, False),
        NameFacts(9, "Anna Smit", False, False),
        NameFacts(12, "jan bakker", False, False),
    ]
    assert shown_names(players, _Club("initials"), False) == {
        3: "J. B.",
        7: "J. B. (2)",
        9: "A. S.",
        12: "j. b. (3)",  # the same letters, whatever their case
    }
    full = shown_names(players, _Club("full"), False)
    assert full[7] == "Jan Bakker" and full[12] == "jan bakker (2)" and full[3] == "Joke Bos"


# --- names on the pages -----------------------------------------------------------------------


def test_a_junior_is_shown_by_initials_on_every_page_and_export(client, public):
    (jasper, _lotte, henk, _), event = populate(public)
    for page in [*every_page(public, jasper, event), f"players/{henk.pk}/"]:
        content = text_of(client.get(url(public, page)))
        assert "Jasper" not in content and "Bakker" not in content, page
    ladder = text_of(client.get(url(public)))
    assert "J. B." in ladder and "Lotte Smit" in ladder and "Henk Bos" in ladder
    player_page = text_of(client.get(url(public, f"players/{jasper.pk}/")))
    assert "<h1>J. B.</h1>" in player_page and "<title>J. B. · Knights</title>" in player_page


def test_a_junior_is_shown_by_initials_in_head_to_head_and_best_win(client, public):
    (jasper, _lotte, henk, _), _event = populate(public)
    make_event(public, [(1, henk, jasper, W)], name="Rematch")  # Henk's best win: a junior
    replay_ladder(public.pk, full=True)
    html = text_of(client.get(url(public, f"players/{henk.pk}/")))
    head_to_head = re.search(r'<table class="head-to-head">.*?</table>', html, re.S).group(0)
    best = re.search(r'<p class="best-win">.*?</p>', html, re.S).group(0)
    link = f'<a href="{url(public, f"players/{jasper.pk}/")}">J. B.</a>'
    assert link in head_to_head and link in best
    assert "Jasper" not in html and "Bakker" not in html


def test_a_junior_is_shown_by_initials_in_json_and_csv(client, public):
    populate(public)
    names = [
        p["name"] for p in json.loads(client.get(url(public, "ladder.json")).content)["players"]
    ]
    assert "J. B." in names and "Lotte Smit" in names
    rows = csv.DictReader(io.StringIO(text_of(client.get(url(public, "ladder.csv")))))
    assert {"J. B.", "Lotte Smit", "Henk Bos", "Ingrid Dekker"} == {r["name"] for r in rows}
    assert "J. B." in text_of(client.get(url(public, "seeding.trf")))


def test_in_initials_mode_nobody_is_named_in_full(client, public):
    public.name_display = Club.NameDisplay.INITIALS
    public.save()
    (jasper, *_), event = populate(public)
    for page in every_page(public, jasper, event):
        content = text_of(client.get(url(public, page)))
        for word in ["Jasper", "Lotte", "Henk", "Ingrid", "Bakker", "Smit", "Bos", "Dekker"]:
            assert word not in content, (page, word)
    names = {
        p["name"] for p in json.loads(client.get(url(public, "ladder.json")).content)["players"]
    }
    assert names == {"J. B.", "L. S.", "H. B.", "I. D."}


def test_a_round_robins_crosstable_and_winner_name_a_junior_by_initials_only(client, public):
    jasper = Player.objects.create(club=public, name="Jasper Bakker", junior=True)
    henk = Player.objects.create(club=public, name="Henk Bos")
    ingrid = Player.objects.create(club=public, name="Ingrid Dekker")
    event = make_event(public, [(1, jasper, henk, W), (2, henk, ingrid, D), (3, ingrid, jasper, D)])
    replay_ladder(public.pk, full=True)
    for page in [f"events/{event.pk}/", f"events/{event.pk}/?after=2", "events/"]:
        content = text_of(client.get(url(public, page)))
        assert "Jasper" not in content and "Bakker" not in content, page
        assert f'<a href="/c/knights/players/{jasper.pk}/">J. B.</a>' in content, page
    crosstable = text_of(client.get(url(public, f"events/{event.pk}/")))
    assert '<span class="visually-hidden">J. B.</span>' in crosstable  # its column head
    shared = text_of(client.get(reverse("shared_event", args=[event.share_token]) + "?after=2"))
    assert "J. B." in shared and "Jasper" not in shared and "/players/" not in shared


def test_directors_always_see_full_names(client, public, owner):
    public.name_display = Club.NameDisplay.INITIALS
    public.save()
    (jasper, *_), event = populate(public)
    client.force_login(owner)
    pages = ["", "players/", f"players/{jasper.pk}/", f"events/{event.pk}/", "ladder.csv"]
    for page in [*pages, f"events/{event.pk}/?after=1"]:
        content = text_of(client.get(url(public, page)))
        assert "Jasper Bakker" in content, page
    names = {
        p["name"] for p in json.loads(client.get(url(public, "ladder.json")).content)["players"]
    }
    assert names == {"Jasper Bakker", "Lotte Smit", "Henk Bos", "Ingrid Dekker"}


def test_two_players_with_the_same_initials_stay_apart_on_every_page(client, public):
    public.name_display = Club.NameDisplay.INITIALS
    public.save()
    jan = Player.objects.create(club=public, name="Jan Bakker")
    joke = Player.objects.create(club=public, name="Joke Bos")
    event = make_event(public, [(1, jan, joke, W)])
    replay_ladder(public.pk, full=True)

    ladder = text_of(client.get(url(public)))
    assert f'<a href="/c/knights/players/{jan.pk}/">J. B.</a>' in ladder
    assert f'<a href="/c/knights/players/{joke.pk}/">J. B. (2)</a>' in ladder
    for page in ["players/", f"events/{event.pk}/", f"players/{jan.pk}/", "ladder.json"]:
        assert "J. B. (2)" in text_of(client.get(url(public, page))), page


def test_nothing_on_a_page_reveals_the_junior_flag(client, public):
    """A junior whose family agreed to full names looks exactly like an adult."""
    (_jasper, lotte, _henk, _ingrid), event = populate(public)
    pages = every_page(public, lotte, event)
    before = {page: without_csrf(text_of(client.get(url(public, page)))) for page in pages}
    assert not any("junior" in content.lower() for content in before.values())
    Player.objects.filter(pk=lotte.pk).update(junior=False, full_name_consent=False)
    for page in pages:
        assert without_csrf(text_of(client.get(url(public, page)))) == before[page], page


# --- who may see a club -----------------------------------------------------------------------


@pytest.fixture
def clubs(owner):
    """The same small history in a public, an unlisted and a director-only club."""
    made = {}
    for visibility in Club.Visibility.values:
        club = make_club(slug=f"club-{visibility}", owner=owner, visibility=visibility)
        (player, *_), event = populate(club)
        made[visibility] = (club, player, event)
    return made


def test_director_only_wrong_secret_and_missing_clubs_give_the_same_404(client, clubs):
    hidden, hidden_player, hidden_event = clubs["director"]
    unlisted, unlisted_player, unlisted_event = clubs["unlisted"]
    _public, _public_player, _public_event = clubs["public"]
    events = [f"events/{{event}}/{part}" for part in ["", "rounds/", "wallchart/", "ratings/"]]
    for page in [*PAGES, "players/{player}/", *events]:
        missing = client.get(
            reverse("club_page", args=["no-such-club"])
            + page.format(player=hidden_player.pk, event=hidden_event.pk)
        )
        assert missing.status_code == 404
        answers = [
            client.get(url(hidden, page.format(player=hidden_player.pk, event=hidden_event.pk))),
            client.get(
                url(hidden, page.format(player=hidden_player.pk, event=hidden_event.pk), "x" * 32)
            ),
            client.get(
                url(
                    unlisted,
                    page.format(player=unlisted_player.pk, event=unlisted_event.pk),
                    "x" * 32,
                )
            ),
            client.get(
                reverse("club_page", args=[unlisted.slug])
                + page.format(player=unlisted_player.pk, event=unlisted_event.pk)
            ),
            # A public club's page with another club's player or event id.
            client.get(url(_public, page.format(player=hidden_player.pk, event=hidden_event.pk)))
            if "{" in page
            else missing,
        ]
        *hidden_answers, cross_club = answers
        for answer in hidden_answers:
            assert answer.status_code == 404, page
            assert answer.content == missing.content, page
        # Under a club the visitor may see, the same page with a way back to that club
        # (members.web.not_found), which says nothing of the other club's id.
        back = f'<p><a href="/c/{_public.slug}/">Back to {_public.name}</a></p>'.encode()
        assert cross_club.status_code == 404, page
        if "{" in page:
            assert back in cross_club.content, page
            assert cross_club.content.replace(back, b"") == missing.content, page
        for answer in answers:
            assert "X-Robots-Tag" not in answer or answer["X-Robots-Tag"] == missing.get(
                "X-Robots-Tag"
            )


def test_a_director_sees_a_director_only_club(client, clubs, owner):
    hidden, player, event = clubs["director"]
    other_director = make_user("second@example.org")
    hidden.roles.create(user=other_director, role="director")
    client.force_login(other_director)
    for page in every_page(hidden, player, event):
        response = client.get(url(hidden, page))
        assert response.status_code == 200, page
        assert response["X-Robots-Tag"] == "noindex, nofollow"


def test_a_director_of_another_club_gets_404(client, clubs, outsider):
    client.force_login(outsider)
    hidden, player, event = clubs["director"]
    for page in every_page(hidden, player, event):
        assert client.get(url(hidden, page)).status_code == 404, page


def test_rotating_the_secret_kills_every_old_link(client, clubs, owner):
    unlisted, player, event = clubs["unlisted"]
    old = unlisted.secret
    pages = every_page(unlisted, player, event)
    assert all(client.get(url(unlisted, page, old)).status_code == 200 for page in pages)

    client.force_login(owner)
    client.post(reverse("club_rotate_secret", args=[unlisted.slug]))
    client.logout()
    unlisted.refresh_from_db()

    for page in pages:
        assert client.get(url(unlisted, page, old)).status_code == 404, page
        assert client.get(url(unlisted, page)).status_code == 200, page


def test_unlisted_pages_ask_not_to_be_indexed_and_send_no_referrer(client, clubs):
    unlisted, player, event = clubs["unlisted"]
    for page in every_page(unlisted, player, event):
        response = client.get(url(unlisted, page))
        assert response.status_code == 200, page
        assert response["X-Robots-Tag"] == "noindex, nofollow", page
        assert response["Referrer-Policy"] == "no-referrer", page
        if response["Content-Type"].startswith("text/html"):
            assert '<meta name="robots" content="noindex">' in text_of(response), page


def test_unlisted_links_keep_the_secret_and_public_pages_never_show_one(client, clubs):
    unlisted, player, event = clubs["unlisted"]
    ladder = text_of(client.get(url(unlisted)))
    assert f'href="/c/{unlisted.slug}/s/{unlisted.secret}/players/{player.pk}/"' in ladder
    public, player, event = clubs["public"]
    for page in every_page(public, player, event):
        response = client.get(url(public, page))
        assert public.secret not in text_of(response), page


def test_public_pages_are_indexable(client, clubs):
    public, player, event = clubs["public"]
    for page in every_page(public, player, event):
        response = client.get(url(public, page))
        assert response.status_code == 200, page
        assert "X-Robots-Tag" not in response, page
        assert 'content="noindex"' not in text_of(response), page
        assert response["Referrer-Policy"] == "same-origin", page


def test_a_public_club_is_not_shown_at_a_secret_url(client, clubs):
    public, *_ = clubs["public"]
    assert client.get(url(public, "", public.secret)).status_code == 404


def test_the_inactive_notice_is_not_indexed_either(client, clubs, settings):
    settings.BILLING_ENABLED = True
    public, _player, event = clubs["public"]
    response = client.get(url(public))
    assert "This club page is not active" in text_of(response)
    assert response["X-Robots-Tag"] == "noindex, nofollow"
    assert '<meta name="robots" content="noindex">' in text_of(response)
    # A public club's event page stays public, and indexable, by its own link.
    event_page = client.get(url(public, f"events/{event.pk}/"))
    assert event_page.status_code == 200 and "X-Robots-Tag" not in event_page
    assert 'content="noindex"' not in text_of(event_page)


# --- search engines ---------------------------------------------------------------------------


def test_robots_txt_allows_only_the_public_pages(client, settings):
    settings.SITE_URL = "https://clubs.example.org"
    response = client.get("/robots.txt")
    assert response["Content-Type"] == "text/plain; charset=utf-8"
    lines = text_of(response).splitlines()
    assert "User-agent: *" in lines
    assert "Disallow: /manage/" in lines
    assert "Disallow: /accounts/" in lines
    assert "Sitemap: https://clubs.example.org/sitemap.xml" in lines


def test_the_sitemap_lists_only_public_clubs(client, clubs, settings):
    settings.SITE_URL = "https://clubs.example.org"
    response = client.get("/sitemap.xml")
    assert response["Content-Type"].startswith("application/xml")
    locations = re.findall(r"<loc>([^<]+)</loc>", text_of(response))
    public, _player, event = clubs["public"]
    site = "https://clubs.example.org"
    assert locations == [
        f"{site}/c/{public.slug}/",
        f"{site}/c/{public.slug}/players/",
        f"{site}/c/{public.slug}/events/",
        f"{site}/c/{public.slug}/how-ratings-work/",
        f"{site}/c/{public.slug}/events/{event.pk}/",
    ]
    for club, *_ in (clubs["unlisted"], clubs["director"]):
        assert club.slug not in text_of(response) and club.secret not in text_of(response)


def test_the_directory_links_only_public_clubs(client, clubs):
    html = text_of(client.get(reverse("club_directory")))
    public, *_ = clubs["public"]
    assert f'href="/c/{public.slug}/"' in html
    assert "club-unlisted" not in html and "club-director" not in html


def test_robots_txt_lets_crawlers_fetch_secret_links_to_find_their_noindex(client, clubs):
    """A disallowed page is never fetched, so its noindex is never seen and a leaked link
    can still be indexed as a bare address."""
    unlisted, player, event = clubs["unlisted"]
    rules = [
        line.split(":", 1)[1].strip()
        for line in text_of(client.get("/robots.txt")).splitlines()
        if line.startswith("Disallow:")
    ]
    for path in [url(unlisted, page) for page in every_page(unlisted, player, event)] + [
        shared_url(event)
    ]:
        for rule in rules:
            pattern = re.escape(rule).replace(r"\*", ".*")
            assert not re.match(pattern, path), (rule, path)
        response = client.get(path)
        assert response["X-Robots-Tag"] == "noindex, nofollow", path
    assert {"/manage/", "/accounts/", "/i18n/"} <= set(rules)


# --- an event's own results link --------------------------------------------------------------


def shared_url(event) -> str:
    return reverse("shared_event", args=[event.share_token])


def test_every_event_has_its_own_results_link_unlike_the_club_secret(clubs):
    unlisted, player, event = clubs["unlisted"]
    other = make_event(unlisted, [(1, player, Player.objects.filter(club=unlisted)[1], W)])
    tokens = {event.share_token, other.share_token, unlisted.secret}
    assert len(tokens) == 3
    assert all(len(token) >= 32 for token in tokens)  # 24 random bytes, as the club secret


def test_an_events_own_link_opens_its_results_and_nothing_else(client, clubs):
    unlisted, player, event = clubs["unlisted"]
    # The event page, and its rounds, wall chart and rating changes by the same link (issue 27).
    parts = [("", "Standings"), ("rounds/", "Round 2"), ("wallchart/", "Rd 2")]
    for part, heading in [*parts, ("ratings/", "Worked out")]:
        response = client.get(shared_url(event) + part)
        assert response.status_code == 200, part
        html = text_of(response)
        assert event.name in html and "Henk Bos" in html and heading in html, part
        assert unlisted.secret not in html, part
        links = re.findall(r'href="([^"]*)"', html)
        assert not [link for link in links if link.startswith(f"/c/{unlisted.slug}")], links
        assert response["X-Robots-Tag"] == "noindex, nofollow", part
        assert response["Referrer-Policy"] == "no-referrer", part
        assert '<meta name="robots" content="noindex">' in html, part
    # The event page's links to them stay under the event's own link.
    html = text_of(client.get(shared_url(event)))
    assert 'href="rounds/?round=1"' in html and 'href="wallchart/"' in html
    for page in ["players/", "events/", "ladder.json", f"players/{player.pk}/"]:
        assert client.get(shared_url(event) + page).status_code == 404, page


def test_an_events_own_link_names_juniors_by_initials(client, clubs, owner):
    parts = ["", "rounds/", "wallchart/", "ratings/"]
    for visibility in ("public", "unlisted"):
        club, _player, event = clubs[visibility]
        for part in parts:
            html = text_of(client.get(shared_url(event) + part))
            assert "J. B." in html and "Jasper" not in html and "Bakker" not in html, part
            assert "Lotte Smit" in html, part  # her family agreed
    club, _player, event = clubs["unlisted"]
    Club.objects.filter(pk=club.pk).update(name_display=Club.NameDisplay.INITIALS)
    for part in parts:
        html = text_of(client.get(shared_url(event) + part))
        for word in ["Jasper", "Lotte", "Henk", "Ingrid", "Bakker", "Smit", "Bos", "Dekker"]:
            assert word not in html, (part, word)
    # Shared by a director, it shows what everyone else sees, not the director's full names.
    client.force_login(owner)
    for part in parts:
        assert "Jasper" not in text_of(client.get(shared_url(event) + part)), part


def test_a_wrong_old_or_withdrawn_results_link_is_the_same_404(client, clubs, owner):
    unlisted, player, event = clubs["unlisted"]
    _hidden, _hidden_player, hidden_event = clubs["director"]
    missing = client.get(reverse("shared_event", args=["x" * 32]))
    assert missing.status_code == 404
    old = shared_url(event)
    assert client.get(old).status_code == 200
    client.force_login(owner)
    rotate = reverse("event_share_rotate", args=[unlisted.slug, event.pk])
    assert client.post(rotate).status_code == 302
    client.logout()
    event.refresh_from_db()
    draft = make_event(unlisted, [(1, player, Player.objects.filter(club=unlisted)[1], W)],
                       published=False)  # fmt: skip
    deleted = make_event(unlisted, [(1, player, Player.objects.filter(club=unlisted)[1], W)])
    Event.objects.filter(pk=deleted.pk).update(deleted_at=timezone.now())
    for gone in [old, shared_url(draft), shared_url(deleted), shared_url(hidden_event)]:
        for part in ["", "rounds/", "wallchart/", "ratings/"]:
            answer = client.get(gone + part)
            assert answer.status_code == 404, gone + part
            assert answer.content == missing.content, gone + part
    assert client.get(shared_url(event)).status_code == 200


def test_an_events_own_link_stays_open_while_the_club_page_is_inactive(client, clubs, settings):
    settings.BILLING_ENABLED = True
    unlisted, _player, event = clubs["unlisted"]
    assert "This club page is not active" in text_of(client.get(url(unlisted)))
    html = text_of(client.get(shared_url(event)))
    assert "Henk Bos" in html and "not active" not in html


def test_the_directors_event_screen_shows_the_events_own_link(client, clubs, owner):
    unlisted, _player, event = clubs["unlisted"]
    client.force_login(owner)
    screen = text_of(client.get(reverse("event_detail", args=[unlisted.slug, event.pk])))
    assert event.share_token in screen and unlisted.secret not in screen
    hidden, _player, hidden_event = clubs["director"]
    screen = text_of(client.get(reverse("event_detail", args=[hidden.slug, hidden_event.pk])))
    assert hidden_event.share_token not in screen


def test_the_sitemap_holds_no_secret_and_no_events_own_link(client, clubs):
    sitemap = text_of(client.get("/sitemap.xml"))
    for club, _player, event in clubs.values():
        assert event.share_token not in sitemap and club.secret not in sitemap
        assert "/results/" not in sitemap
