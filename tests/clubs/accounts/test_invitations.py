"""Directors join by a mailed invitation; the owner's page never tells whether an account exists."""

import re
import time
from unittest import mock

import pytest
from django.core import mail, signing
from django.test import Client, override_settings
from django.urls import reverse

from clubs.accounts.invitations import INVITATION_SECONDS
from clubs.accounts.views import SIGNUP_SALT
from clubs.models import AuditEntry, ClubInvitation, ClubRole
from tests.factories import PASSWORD, make_user

pytestmark = pytest.mark.django_db


def invite(client, club, email, **headers):
    return client.post(reverse("director_add", args=[club.slug]), {"email": email}, **headers)


def link_in(message):
    return re.search(r"https?://[^/\s]+(/invitations/\S+)", message.body).group(1)


@pytest.fixture
def owner_client(client, owner):
    client.force_login(owner)
    return client


def answer(client, response):
    """The page the owner lands on, without the per-request CSRF tokens and without the list
    of pending invitations (it names no address; test_the_pending_list_reads_the_same_...
    checks it on its own)."""
    page = client.get(response["Location"]).content.decode()
    page = re.sub(r'<div id="pending-invitations">.*?\n  </div>', "", page, flags=re.S)
    return re.sub(r'value="[A-Za-z0-9]{64}"', 'value="TOKEN"', page)


def signed_in(user):
    client = Client()
    client.force_login(user)
    return client


def test_the_answer_is_the_same_for_a_new_an_existing_and_a_directing_address(
    owner_client, club, director
):
    make_user("helper@example.org")
    pages = []
    for email in ("ghost@example.org", "helper@example.org", "director@example.org"):
        response = invite(owner_client, club, email)
        assert response.status_code == 302
        assert response["Location"] == reverse("club_manage", args=[club.slug])
        page = answer(owner_client, response)
        assert f"We sent an invitation to {email}" in page
        pages.append(page.replace(f"invitation to {email}", "invitation to EMAIL"))
    assert pages[0] == pages[1] == pages[2]
    assert sorted(m.to[0] for m in mail.outbox) == ["ghost@example.org", "helper@example.org"]
    assert club.roles.count() == 2  # nobody is added before accepting


def test_inviting_someone_who_directs_the_club_already_sends_nothing(owner_client, club):
    invite(owner_client, club, "DIRECTOR@example.org")
    invite(owner_client, club, "owner@example.org")
    assert mail.outbox == []
    assert not ClubInvitation.objects.exists()


def test_the_invited_account_accepts_with_a_button_and_directs_the_club(owner_client, club, owner):
    helper = make_user("helper@example.org")
    invite(owner_client, club, "Helper@Example.org")
    (message,) = mail.outbox
    assert club.name in message.subject
    helper_client = signed_in(helper)
    page = helper_client.get(link_in(message))
    assert page.status_code == 200
    assert club.name in page.content.decode()
    assert not club.roles.filter(user=helper).exists()  # a GET changes nothing
    response = helper_client.post(link_in(message))
    assert response.status_code == 302
    assert response["Location"] == reverse("club_manage", args=[club.slug])
    assert club.roles.filter(user=helper, role=ClubRole.Role.DIRECTOR).exists()
    entry = AuditEntry.objects.get(club=club, action="director.added")
    assert entry.user == owner
    assert entry.details["user_id"] == helper.pk


def test_a_signed_out_visitor_is_sent_to_sign_in_and_brought_back(owner_client, club):
    helper = make_user("helper@example.org")
    invite(owner_client, club, "helper@example.org")
    link = link_in(mail.outbox[0])
    visitor = Client()
    response = visitor.get(link)
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))
    assert "next=" in response["Location"]
    response = visitor.post(
        response["Location"], {"username": helper.email, "password": PASSWORD, "next": link}
    )
    assert response["Location"] == link
    visitor.post(link)
    assert club.roles.filter(user=helper).exists()


def test_an_address_without_an_account_signs_up_and_then_accepts(owner_client, club):
    invite(owner_client, club, "newcomer@example.org")
    link = link_in(mail.outbox[0])
    newcomer = make_user("newcomer@example.org")  # signed up after the invitation was sent
    signed_in(newcomer).post(link)
    assert club.roles.filter(user=newcomer, role=ClubRole.Role.DIRECTOR).exists()


def test_another_signed_in_account_cannot_use_the_link(owner_client, club, outsider):
    make_user("helper@example.org")
    invite(owner_client, club, "helper@example.org")
    link = link_in(mail.outbox[0])
    other = signed_in(outsider)
    page = other.get(link)
    assert page.status_code == 404
    assert club.name not in page.content.decode()
    assert other.post(link).status_code == 404
    assert not club.roles.filter(user=outsider).exists()


def test_a_link_works_only_once(owner_client, club, owner):
    helper = make_user("helper@example.org")
    invite(owner_client, club, "helper@example.org")
    link = link_in(mail.outbox[0])
    helper_client = signed_in(helper)
    helper_client.post(link)
    role = club.roles.get(user=helper)
    owner_client.post(reverse("director_remove", args=[club.slug, role.pk]))
    assert helper_client.get(link).status_code == 404
    assert helper_client.post(link).status_code == 404
    assert not club.roles.filter(user=helper).exists()


def test_a_tampered_link_is_refused(owner_client, club):
    helper = make_user("helper@example.org")
    invite(owner_client, club, "helper@example.org")
    link = link_in(mail.outbox[0])
    token = link.split("/")[-2]
    forged = link.replace(token, token[:-1] + ("A" if token[-1] != "A" else "B"))
    # A real signature, but for sign-up links: the salt keeps the two kinds apart.
    other_salt = signing.dumps({"i": ClubInvitation.objects.get().pk}, salt=SIGNUP_SALT)
    guessed = link.replace(token, other_salt)
    helper_client = signed_in(helper)
    for url in (forged, guessed):
        assert helper_client.post(url).status_code == 404
    assert not club.roles.filter(user=helper).exists()


def test_a_link_expires_after_seven_days(owner_client, club):
    helper = make_user("helper@example.org")
    invite(owner_client, club, "helper@example.org")
    link = link_in(mail.outbox[0])
    helper_client = signed_in(helper)
    later = time.time() + INVITATION_SECONDS + 60
    with mock.patch("django.core.signing.time.time", return_value=later):
        assert helper_client.post(link).status_code == 404
    assert INVITATION_SECONDS == 7 * 24 * 3600
    assert not club.roles.filter(user=helper).exists()


def test_a_new_invitation_replaces_the_older_link(owner_client, club):
    helper = make_user("helper@example.org")
    invite(owner_client, club, "helper@example.org")
    invite(owner_client, club, "helper@example.org")
    old, new = (link_in(m) for m in mail.outbox)
    helper_client = signed_in(helper)
    assert helper_client.post(old).status_code == 404
    assert helper_client.post(new).status_code == 302
    assert club.roles.filter(user=helper).exists()


@override_settings(ALLOWED_HOSTS=["*"], SITE_URL="https://clubs.example/")
def test_the_invitation_link_comes_from_site_url_not_the_host_header(owner_client, club):
    invite(owner_client, club, "helper@example.org", HTTP_HOST="evil.example")
    (message,) = mail.outbox
    assert "https://clubs.example/invitations/" in message.body
    assert "evil.example" not in message.body


def test_invitations_to_one_address_are_limited_and_answer_the_same(owner_client, club):
    pages = set()
    for _ in range(6):
        response = invite(owner_client, club, "target@example.org")
        pages.add(answer(owner_client, response))
    assert len(mail.outbox) == 3  # ACCOUNT_MAIL_LIMIT
    assert len(pages) == 1


@override_settings(ADDRESS_RATE_LIMIT=3)
def test_invitations_are_limited_per_network_address(owner_client, club):
    for n in range(5):
        response = invite(owner_client, club, f"person{n}@example.org")
    assert len(mail.outbox) == 3
    page = owner_client.get(response["Location"]).content.decode()
    assert "Too many attempts from your network" in page
    assert "person4@example.org" not in page


def test_the_owner_sees_the_invitation_form_and_a_director_does_not(client, club, director, owner):
    client.force_login(owner)
    page = client.get(reverse("club_manage", args=[club.slug])).content.decode()
    assert "Invite a director" in page
    client.force_login(director)
    page = client.get(reverse("club_manage", args=[club.slug])).content.decode()
    assert "Invite a director" not in page


def signup_link_in(message):
    return re.search(r"https?://[^/\s]+(/accounts/signup/\S+)", message.body).group(1)


def sign_up_through(visitor, page_with_signup, email):
    """Follow the sign-up link of a page or mail, send the form, open the mailed link and
    choose a password: the response of that last step."""
    signup_page = visitor.get(page_with_signup)
    form = signup_page.context["form"]
    visitor.post(
        page_with_signup,
        {"email": email, "name": "New Comer", "invitation": form["invitation"].value()},
    )
    confirm = re.search(r"https?://[^/\s]+(/\S+)", mail.outbox[-1].body).group(1)
    return visitor.post(
        confirm, {"new_password1": "a long new passw0rd", "new_password2": "a long new passw0rd"}
    )


def test_an_invitee_without_an_account_signs_up_from_the_link_and_lands_on_the_club_joined(
    owner_client, club
):
    invite(owner_client, club, "newcomer@example.org")
    link = link_in(mail.outbox[0])
    visitor = Client()
    login_page = visitor.get(visitor.get(link)["Location"]).content.decode()
    signup = re.search(r'href="(/accounts/signup/\?invitation=[^"]+)"', login_page).group(1)
    response = sign_up_through(visitor, signup.replace("&amp;", "&"), "newcomer@example.org")
    assert response.status_code == 302
    landed = visitor.get(response["Location"], follow=True)
    assert landed.redirect_chain[-1][0] == reverse("club_manage", args=[club.slug])
    assert "You now direct" in landed.content.decode()
    newcomer = club.roles.get(user__email="newcomer@example.org")
    assert newcomer.role == ClubRole.Role.DIRECTOR
    assert AuditEntry.objects.filter(club=club, action="director.added").count() == 1


def test_the_invitation_mails_sign_up_link_carries_it_too(owner_client, club):
    invite(owner_client, club, "newcomer@example.org")
    visitor = Client()
    response = sign_up_through(visitor, signup_link_in(mail.outbox[0]), "newcomer@example.org")
    landed = visitor.get(response["Location"], follow=True)
    assert landed.redirect_chain[-1][0] == reverse("club_manage", args=[club.slug])
    assert club.roles.filter(user__email="newcomer@example.org").exists()


def test_signing_up_with_another_address_than_the_invited_one_joins_nothing(owner_client, club):
    invite(owner_client, club, "newcomer@example.org")
    visitor = Client()
    response = sign_up_through(visitor, signup_link_in(mail.outbox[0]), "someone@example.org")
    page = visitor.get(response["Location"])
    assert page.status_code == 404
    assert "cannot be used" in page.content.decode()
    assert not club.roles.filter(user__email="someone@example.org").exists()


def test_a_forged_invitation_on_the_sign_up_form_is_dropped(client):
    response = client.post(
        reverse("signup"), {"email": "x@example.org", "invitation": "../../admin/<b>"}
    )
    assert response.status_code == 302
    confirm = re.search(r"https?://[^/\s]+(/\S+)", mail.outbox[-1].body).group(1)
    done = client.post(
        confirm, {"new_password1": "a long new passw0rd", "new_password2": "a long new passw0rd"}
    )
    assert done["Location"] == reverse("club_create")


def test_pending_invitations_are_listed_and_the_owner_can_withdraw_one(
    owner_client, club, owner, director
):
    invite(owner_client, club, "helper@example.org")
    invite(owner_client, club, "other@example.org")
    manage = reverse("club_manage", args=[club.slug])
    page = owner_client.get(manage).content.decode()
    assert page.count("Withdraw</button>") == 2
    assert f"by {owner.email}, open until" in page
    assert "Withdraw</button>" not in signed_in(director).get(manage).content.decode()

    first = ClubInvitation.objects.order_by("pk").first()
    response = owner_client.post(reverse("invitation_revoke", args=[club.slug, first.pk]))
    assert response.status_code == 302
    assert owner_client.get(manage).content.decode().count("Withdraw</button>") == 1
    entry = AuditEntry.objects.get(club=club, action="invitation.revoked")
    assert (entry.user, entry.details["invitation_id"]) == (owner, first.pk)
    # Once withdrawn, it cannot be withdrawn again; another club's owner cannot reach it.
    again = owner_client.post(reverse("invitation_revoke", args=[club.slug, first.pk]))
    assert again.status_code == 404


def test_a_withdrawn_invitations_link_says_so_and_joins_nobody(owner_client, club):
    helper = make_user("helper@example.org")
    invite(owner_client, club, "helper@example.org")
    link = link_in(mail.outbox[0])
    invitation = ClubInvitation.objects.get()
    owner_client.post(reverse("invitation_revoke", args=[club.slug, invitation.pk]))
    helper_client = signed_in(helper)
    page = helper_client.get(link)
    assert page.status_code == 410
    assert "This invitation was withdrawn by the club" in page.content.decode()
    assert helper_client.post(link).status_code == 410
    assert not club.roles.filter(user=helper).exists()


def test_another_clubs_owner_cannot_withdraw_an_invitation(owner_client, club, outsider):
    invite(owner_client, club, "helper@example.org")
    invitation = ClubInvitation.objects.get()
    other = signed_in(outsider)
    assert (
        other.post(reverse("invitation_revoke", args=["elsewhere", invitation.pk])).status_code
        == 404
    )
    assert (
        other.post(reverse("invitation_revoke", args=[club.slug, invitation.pk])).status_code == 404
    )
    assert ClubInvitation.objects.get().revoked_at is None


def test_the_pending_list_reads_the_same_for_a_new_and_an_existing_address(owner_client, club):
    make_user("helper@example.org")
    manage = reverse("club_manage", args=[club.slug])
    lists = []
    for email in ("ghost@example.org", "helper@example.org"):
        invite(owner_client, club, email)
        page = owner_client.get(manage).content.decode()
        (shown,) = re.findall(r'<div id="pending-invitations">.*?\n  </div>', page, flags=re.S)
        assert "@example.org," not in shown.replace("owner@example.org,", "")
        shown = re.sub(r'value="[A-Za-z0-9]{64}"', 'value="TOKEN"', shown)
        lists.append(re.sub(r"invitations/\d+/", "invitations/N/", shown))
        ClubInvitation.objects.all().delete()
    assert lists[0] == lists[1]
