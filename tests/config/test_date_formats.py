"""Dates: one written-month format per language on every screen (config/formats)."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.conf import settings
from django.urls import reverse

from clubs import audit
from clubs.models import Club
from clubs.results import Result
from ladder.replay import replay_ladder
from tests.factories import make_club, make_event, make_players

pytestmark = pytest.mark.django_db

# 10 February 2026: as 10/02/2026 it is 2 October in the United States.
SHOWN = {"en": "10 Feb 2026", "nl": "10 feb 2026", "de": "10. Feb. 2026", "hi": "10 फ़रवरी 2026"}
# Day and month as numbers, in either order (10/02/2026, 2.10.26, 10-2-2026): the forms a
# reader in another country misreads. ISO (2026-02-10) starts with the year and is not one.
AMBIGUOUS_DATE = re.compile(r"(?<![\d/.-])\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4}(?![\d/.-])")
# Django's own English default ("Feb. 10, 2026"), which mixed with the numeric short form.
MONTH_FIRST = re.compile(r"\b[A-Z][a-z]{2,3}\. \d{1,2}, \d{4}\b")


@pytest.fixture
def public_club(owner):
    club = make_club(slug="knights", owner=owner, visibility=Club.Visibility.PUBLIC)
    ann, bob = make_players(club, ["Ann Alder", "Bob Birch"])
    event = make_event(
        club, [(1, ann, bob, Result.WHITE_WIN)], date=dt.date(2026, 2, 10), name="Winter open"
    )
    replay_ladder(club.pk, full=True)
    audit.record(club, owner, "event.published", event=event.pk)
    return club, ann, event


def visible_text(html: str) -> str:
    """The page without tags, so attributes (datetime="2026-02-10", form values) stay ISO."""
    html = re.sub(r"<(script|style)\b.*?</\1>", "", html, flags=re.S)
    return re.sub(r"<[^>]+>", " ", html)


def pages(club, player, event) -> list[tuple[str, bool]]:
    base = f"/c/{club.slug}/"
    public = ["", "players/", f"players/{player.pk}/", "events/", f"events/{event.pk}/"]
    manage = [
        reverse("event_list", kwargs={"slug": club.slug}),
        reverse("event_detail", kwargs={"slug": club.slug, "event_id": event.pk}),
        reverse("roster_player", kwargs={"slug": club.slug, "player_id": player.pk}),
        reverse("audit_log", kwargs={"slug": club.slug}),
    ]
    return [(base + path, False) for path in public] + [(path, True) for path in manage]


@pytest.mark.parametrize("language", list(SHOWN))
def test_every_main_page_writes_dates_with_the_month_as_a_word(
    client, owner, public_club, language
):
    club, ann, event = public_club
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    for path, signed_in in pages(club, ann, event):
        if signed_in:
            client.force_login(owner)
        response = client.get(path)
        assert response.status_code == 200, path
        text = visible_text(response.content.decode())
        assert not AMBIGUOUS_DATE.search(text), (path, AMBIGUOUS_DATE.search(text))
        assert not MONTH_FIRST.search(text), path
        if "audit" not in path:  # the log shows when it happened, today
            assert SHOWN[language] in text, (path, language)


@pytest.mark.parametrize(
    ("language", "month", "shown"),
    [
        ("hi", 9, "10 सितंबर 2026"),  # CLDR, not Django's सितमबर
        ("hi", 11, "10 नवंबर 2026"),
        ("hi", 12, "10 दिसंबर 2026"),
        ("de", 7, "10. Juli 2026"),  # CLDR's abbreviated German months
        ("de", 9, "10. Sept. 2026"),
        ("de", 4, "10. Apr. 2026"),
        ("de", 3, "10. März 2026"),
        ("nl", 9, "10 sep 2026"),
    ],
)
def test_month_names_follow_cldr(language, month, shown):
    from django.utils import formats, translation

    with translation.override(language):
        assert formats.date_format(dt.date(2026, month, 10)) == shown
