"""Every result's words come from one translated table, in both its forms."""

from __future__ import annotations

from django.utils import translation

from clubs.labels.results import RESULT_CHOICES, RESULT_LABELS
from clubs.models import Game
from clubs.results import Result


def test_every_result_has_a_short_label_and_a_page_text():
    assert set(RESULT_LABELS) == set(Result)
    assert all(label.short and label.text for label in RESULT_LABELS.values())


def test_the_grid_and_the_model_offer_the_same_choices_from_the_table():
    assert Game._meta.get_field("result").choices == RESULT_CHOICES
    assert RESULT_CHOICES[:3] == [("1-0", "1–0"), ("1/2", "½–½"), ("0-1", "0–1")]


def test_both_forms_keep_their_translations():
    label = RESULT_LABELS[Result.BYE_PAIRING]
    with translation.override("nl"):
        short, text = str(label.short), str(label.text)
    assert short != "Bye from the pairing (odd number)"
    assert text != "bye (odd number of players)"
