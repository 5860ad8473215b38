"""The 404 and 500 pages: in the visitor's language, in the site's layout, and safe."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.db import OperationalError, connection
from django.test import Client, override_settings

from clubs.models import Club
from tests.factories import make_club

pytestmark = [pytest.mark.django_db, pytest.mark.urls("tests.error_urls")]

LIVE = override_settings(DEBUG=False, ALLOWED_HOSTS=["testserver"])


@LIVE
def test_a_missing_page_says_so_in_english_in_the_sites_layout():
    response = Client().get("/no/such/page/", HTTP_ACCEPT_LANGUAGE="en")
    html = response.content.decode()
    assert response.status_code == 404
    assert '<html lang="en">' in html and "<h1>Page not found</h1>" in html
    assert 'class="site-header"' in html and 'class="languages"' in html


@LIVE
def test_a_missing_page_speaks_hindi_to_a_hindi_browser():
    response = Client().get("/no/such/page/", HTTP_ACCEPT_LANGUAGE="hi")
    html = response.content.decode()
    assert response.status_code == 404 and '<html lang="hi">' in html
    assert "क्लब पेज" in html  # "Club pages" in the site's header


@LIVE
def test_a_missing_page_follows_the_language_cookie_over_the_browser():
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "hi"
    response = client.get("/no/such/page/", HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 404 and '<html lang="hi">' in response.content.decode()


@LIVE
def test_an_unlisted_club_without_its_secret_gets_the_same_404_page():
    club = make_club(slug="hidden-club", name="Hidden Knights", visibility=Club.Visibility.UNLISTED)
    response = Client().get(f"/c/{club.slug}/")
    html = response.content.decode()
    assert response.status_code == 404 and "<h1>Page not found</h1>" in html
    assert "Hidden Knights" not in html


def _refuse_queries(execute, sql, params, many, context):
    raise OperationalError("the database is down")


@LIVE
def test_a_fault_shows_the_500_page_without_the_error_and_without_the_database():
    client = Client(raise_request_exception=False)
    with connection.execute_wrapper(_refuse_queries):
        response = client.get("/broken/", HTTP_ACCEPT_LANGUAGE="en")
    html = response.content.decode()
    assert response.status_code == 500
    assert "<h1>Something went wrong</h1>" in html and 'class="site-header"' in html
    assert "a fault the visitor must not see" not in html and "Traceback" not in html


@LIVE
def test_the_500_page_is_in_the_visitors_language():
    client = Client(raise_request_exception=False)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "hi"
    with connection.execute_wrapper(_refuse_queries):
        response = client.get("/broken/")
    assert response.status_code == 500 and '<html lang="hi">' in response.content.decode()


@LIVE
def test_a_missing_page_inside_a_public_club_links_back_to_it():
    club = make_club(slug="open-club", name="Open Knights", visibility=Club.Visibility.PUBLIC)
    response = Client().get(f"/c/{club.slug}/players/999999/", HTTP_ACCEPT_LANGUAGE="en")
    html = response.content.decode()
    assert response.status_code == 404 and "<h1>Page not found</h1>" in html
    assert f'<a href="/c/{club.slug}/">Back to Open Knights</a>' in html


@LIVE
def test_a_missing_page_inside_an_unlisted_club_links_back_only_with_its_secret():
    club = make_club(slug="quiet-club", name="Quiet Knights", visibility=Club.Visibility.UNLISTED)
    with_secret = Client().get(f"/c/{club.slug}/s/{club.secret}/events/999999/")
    assert with_secret.status_code == 404
    assert f'href="/c/{club.slug}/s/{club.secret}/">Back to Quiet Knights' in (
        with_secret.content.decode()
    )
    without = Client().get(f"/c/{club.slug}/s/wrong-secret/events/999999/")
    assert without.status_code == 404 and "Quiet Knights" not in without.content.decode()


@LIVE
def test_a_director_only_club_gets_no_link_from_its_404():
    club = make_club(slug="closed-club", name="Closed Knights", visibility=Club.Visibility.DIRECTOR)
    response = Client().get(f"/c/{club.slug}/players/1/")
    assert response.status_code == 404 and "Closed Knights" not in response.content.decode()


@LIVE
def test_a_page_whose_database_stays_away_gets_a_503_with_retry_after():
    club = make_club(slug="busy-club", visibility=Club.Visibility.PUBLIC)
    client = Client(raise_request_exception=False)
    with connection.execute_wrapper(_refuse_queries):
        response = client.get(f"/c/{club.slug}/players/")
    assert response.status_code == 503 and response["Retry-After"] == "5"
    assert "Traceback" not in response.content.decode()


@LIVE
def test_a_missing_page_while_the_database_is_away_is_still_a_404():
    club = make_club(slug="busy-club", name="Busy Knights", visibility=Club.Visibility.PUBLIC)
    with connection.execute_wrapper(_refuse_queries):
        response = Client(raise_request_exception=False).get(f"/c/{club.slug}/no/such/page/")
    assert response.status_code == 404 and "<h1>Page not found</h1>" in response.content.decode()
