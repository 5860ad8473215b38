import pytest

from tests.factories import PASSWORD, make_club, make_user

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_director_signs_in_and_reaches_the_club_without_csp_violations(page):
    user = make_user("director@example.org")
    make_club(slug="rooks", owner=user)
    page.page.goto("/accounts/login/")
    page.page.get_by_label("E-mail address").fill("director@example.org")
    page.page.get_by_label("Password").fill(PASSWORD)
    page.page.get_by_role("button", name="Log in").click()
    page.page.goto("/manage/rooks/")
    assert page.page.get_by_role("heading", name="Rooks").is_visible()
    assert page.csp_violations() == []
