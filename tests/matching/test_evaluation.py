import pytest

from matching import prepare_roster, suggest_prepared
from tests.matching.evaluation_set import CASES, ROSTER, run, score_by_category

CATEGORIES = {
    "case", "spacing", "punctuation", "accents", "cyrillic", "devanagari", "swapped_order",
    "particles", "titles", "initials", "middle_names", "typos", "nicknames", "suffixes",
    "siblings", "father_son", "common_surname", "newcomers",
}  # fmt: skip


@pytest.fixture(scope="module")
def outcomes():
    roster = prepare_roster(ROSTER)
    return run(lambda typed: suggest_prepared(typed, roster))


def test_the_evaluation_set_is_large_and_covers_every_category():
    assert len(CASES) >= 150
    assert len(ROSTER) >= 200
    assert {case.category for case in CASES} == CATEGORIES
    assert all(case.roster_name in ROSTER for case in CASES)


def test_the_true_player_is_in_the_top_three_for_at_least_95_percent_of_same_person_cases(
    outcomes,
):
    same = [outcome for outcome in outcomes if outcome.case.same]
    found = [outcome for outcome in same if outcome.rank is not None and outcome.rank <= 3]
    missed = [outcome.case for outcome in same if outcome not in found]
    assert len(found) >= 0.95 * len(same), missed


def test_no_different_person_is_ever_preselected(outcomes):
    wrong = [o.case for o in outcomes if not o.case.same and o.true_preselect]
    assert wrong == []


def test_a_same_person_case_never_preselects_someone_else(outcomes):
    same = [outcome for outcome in outcomes if outcome.case.same]
    wrong = [o.case for o in same if o.preselected not in (None, o.case.roster_name)]
    assert wrong == []


def test_scores_by_category_add_up(outcomes):
    scores = score_by_category(outcomes)
    assert sum(score.cases for score in scores) == len(CASES)
    assert all(score.top1 <= score.top3 <= score.cases for score in scores)
