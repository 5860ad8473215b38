import pytest
from django.urls import reverse

from clubs.models import ClubRole
from tests.factories import make_user

pytestmark = pytest.mark.django_db


def test_the_owner_adds_a_director_by_email(client, club, owner):
    helper = make_user("helper@example.org")
    client.force_login(owner)
    response = client.post(
        reverse("director_add", args=[club.slug]), {"email": "HELPER@example.org"}
    )
    assert response.status_code == 302
    assert club.roles.filter(user=helper, role=ClubRole.Role.DIRECTOR).exists()


def test_adding_an_unknown_address_says_so_and_adds_nobody(client, club, owner):
    client.force_login(owner)
    response = client.post(
        reverse("director_add", args=[club.slug]), {"email": "ghost@example.org"}, follow=True
    )
    assert "No account uses this address" in response.content.decode()
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
