import pytest
from django.urls import reverse

from tests.factories import make_user

pytestmark = pytest.mark.django_db


def test_the_owner_invites_a_director_by_email_and_nobody_is_added_yet(client, club, owner):
    make_user("helper@example.org")
    client.force_login(owner)
    response = client.post(
        reverse("director_add", args=[club.slug]), {"email": "HELPER@example.org"}, follow=True
    )
    assert "We sent an invitation to helper@example.org" in response.content.decode()
    assert club.roles.count() == 2  # joins only by accepting (accounts/test_invitations.py)


def test_inviting_an_unknown_address_does_not_say_it_has_no_account(client, club, owner):
    client.force_login(owner)
    response = client.post(
        reverse("director_add", args=[club.slug]), {"email": "ghost@example.org"}, follow=True
    )
    page = response.content.decode()
    assert "No account uses this address" not in page
    assert "We sent an invitation to ghost@example.org" in page
    assert club.roles.count() == 2


def test_the_owner_removes_a_director(client, club, owner, director):
    role = club.roles.get(user=director)
    client.force_login(owner)
    client.post(reverse("director_remove", args=[club.slug, role.pk]))
    assert not club.roles.filter(user=director).exists()


def test_the_owner_cannot_be_removed(client, club, owner):
    role = club.roles.get(user=owner)
    client.force_login(owner)
    response = client.post(reverse("director_remove", args=[club.slug, role.pk]))
    assert response.status_code == 404
    assert club.roles.filter(user=owner).exists()


def test_a_director_who_is_not_owner_cannot_change_directors(client, club, director, owner):
    make_user("helper@example.org")
    client.force_login(director)
    response = client.post(
        reverse("director_add", args=[club.slug]), {"email": "helper@example.org"}
    )
    assert response.status_code == 404
    role = club.roles.get(user=owner)
    assert client.post(reverse("director_remove", args=[club.slug, role.pk])).status_code == 404
    assert club.roles.count() == 2


def test_a_director_sees_the_club_settings(client, club, director):
    client.force_login(director)
    response = client.get(reverse("club_manage", args=[club.slug]))
    assert response.status_code == 200
    assert club.name in response.content.decode()
