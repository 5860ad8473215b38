"""The results grid's keys: the table (pure) and the page that shows and loads it."""

from __future__ import annotations

import html
import json
import re

import pytest
from django.urls import reverse

from clubs.labels.results import RESULT_LABELS
from clubs.results import Result
from directors.grid_keys import GRID_KEYS, keys_by_result, keys_json
from tests.factories import make_event

SINGLE = {keys: result for keys, result in GRID_KEYS if len(keys) == 1}
PREFIXES = {keys[0] for keys, _ in GRID_KEYS if len(keys) > 1}


def test_every_result_of_the_grid_has_keys():
    assert set(keys_by_result()) == set(RESULT_LABELS)


def test_a_single_key_picks_only_a_played_result_or_no_result():
    assert {result for result in SINGLE.values()} == {
        Result.WHITE_WIN,
        Result.DRAW,
        Result.BLACK_WIN,
        Result.NO_RESULT,
    }


def test_no_key_is_both_a_result_and_the_start_of_two_keys():
    assert not PREFIXES & set(SINGLE)


def test_a_key_pressed_twice_never_reaches_a_forfeit_or_a_bye():
    sequences = {keys: result for keys, result in GRID_KEYS}
    for key in SINGLE:
        assert key * 2 not in sequences


def test_forfeits_start_with_a_forfeit_sign_and_byes_with_b():
    for keys, result in GRID_KEYS:
        if result.is_bye:
            assert keys[0] == "b"
        elif result in {Result.WHITE_FORFEIT_WIN, Result.BLACK_FORFEIT_WIN, Result.DOUBLE_FORFEIT}:
            assert keys[0] in "+-" and len(keys) == 2


def test_each_key_sequence_means_one_result():
    sequences = [keys for keys, _ in GRID_KEYS]
    assert len(sequences) == len(set(sequences))
    assert json.loads(keys_json())["+1"] == "+-"


@pytest.mark.django_db
def test_the_grid_page_carries_the_keys_a_legend_and_its_script(client, director, club):
    client.force_login(director)
    event = make_event(club, published=False, name="Club night")
    page = client.get(reverse("event_grid", args=[club.slug, event.pk])).content.decode()
    keys = re.search(r'data-grid-keys="([^"]*)"', page)
    assert keys is not None
    assert json.loads(html.unescape(keys.group(1))) == json.loads(keys_json())
    # The legend is there for the script to show; without the script the keys do nothing.
    assert '<section id="grid-keys" class="grid-keys" hidden' in page
    assert "<kbd>+</kbd><kbd>1</kbd>" in page
    assert re.search(r"<script src=\"/static/directors/events/grid\.js\" defer></script>", page)
    assert "<script>" not in page  # no inline script: the CSP allows only our files


@pytest.mark.django_db
def test_the_grids_first_submit_button_is_disabled_so_enter_saves_nothing(client, director, club):
    client.force_login(director)
    event = make_event(club, published=False, name="Club night")
    grid_url = reverse("event_grid", args=[club.slug, event.pk])
    page = client.get(grid_url).content.decode()
    start = page.index(f'<form method="post" action="{grid_url}">')
    form = page[start : page.index("</form>", start)]
    buttons = re.findall(r"<button [^>]*>", form)
    assert buttons[0] == '<button type="submit" disabled hidden tabindex="-1">'
    assert len(buttons) == 3
