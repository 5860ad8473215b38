"""Directors join a club by accepting an owner's invitation mailed to them.

The owner's page answers the same for every address (new, with an account, or already a
director), so it cannot be used to find out whether an account exists. The mail carries a
signed link that expires after INVITATION_SECONDS and works once; it is accepted by the
account with the invited address, signed in. Links are built from SITE_URL, never from
the request's Host header.
"""

from __future__ import annotations

import datetime as dt

from django.core import signing
from django.core.mail import send_mail
from django.db import transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.http import urlencode
from django.utils.translation import gettext as _

from clubs import audit
from clubs.accounts.throttle import key_hash, mail_allowed, normalised_email
from clubs.accounts.views import site_url
from clubs.models import Club, ClubInvitation, ClubRole, User

INVITATION_SALT = "clubs.director-invitation"
INVITATION_SECONDS = 7 * 24 * 3600
MAIL_KIND = "director-invitation"


def email_hash(email: str) -> str:
    return key_hash("invitation", normalised_email(email))


def invite(club: Club, inviter: User, email: str) -> None:
    """Mail `email` a link to become a director of `club`, unless that address already
    directs the club or has had its share of mail: the caller answers the same either way."""
    email = normalised_email(email)
    if club.roles.filter(user__email__iexact=email).exists():
        return  # nothing new to offer; the answer must not say so
    if not mail_allowed(email, MAIL_KIND):
        return
    with transaction.atomic():
        # Only the newest link for an address works, so an old mail cannot be used later.
        club.invitations.filter(email_hash=email_hash(email), accepted_at=None).delete()
        invitation = ClubInvitation.objects.create(
            club=club, email_hash=email_hash(email), invited_by=inviter
        )
        audit.record(club, inviter, "director.invited", invitation_id=invitation.pk)
    token = signing.dumps({"i": invitation.pk}, salt=INVITATION_SALT)
    body = render_to_string(
        "clubs/accounts/invitation_email.txt",
        {
            "club": club,
            "email": email,
            "link": site_url(reverse("invitation_accept", args=[token])),
            "signup_url": site_url(f"{reverse('signup')}?{urlencode({'invitation': token})}"),
        },
    )
    send_mail(_("You are invited to direct %(club)s") % {"club": club.name}, body, None, [email])


def invitation_for(token: str, user: User) -> ClubInvitation | None:
    """The open invitation behind `token` if `user` may accept it; None for a tampered,
    expired, used or replaced link and for any other account than the invited one."""
    try:
        data = signing.loads(token, salt=INVITATION_SALT, max_age=INVITATION_SECONDS)
    except signing.BadSignature:  # SignatureExpired is one too
        return None
    if not isinstance(data, dict) or not isinstance(data.get("i"), int):
        return None
    invitation = (
        ClubInvitation.objects.filter(pk=data["i"], accepted_at=None, revoked_at=None)
        .select_related("club", "invited_by")
        .first()
    )
    if invitation is None or invitation.email_hash != email_hash(user.email):
        return None
    return invitation


def revoked(token: str) -> bool:
    """Whether `token` is a genuine link to an invitation the owner has withdrawn (its page
    says so: the link came from the club's own mail, so this tells its holder nothing new)."""
    try:
        data = signing.loads(token, salt=INVITATION_SALT)
    except signing.BadSignature:
        return False
    if not isinstance(data, dict) or not isinstance(data.get("i"), int):
        return False
    return ClubInvitation.objects.filter(pk=data["i"], revoked_at__isnull=False).exists()


def pending(club: Club) -> list[ClubInvitation]:
    """The club's invitations still waiting for an answer: neither accepted, withdrawn nor
    expired; newest first."""
    oldest = timezone.now() - dt.timedelta(seconds=INVITATION_SECONDS)
    return list(
        club.invitations.filter(accepted_at=None, revoked_at=None, created_at__gte=oldest)
        .select_related("invited_by")
        .order_by("-created_at", "-pk")
    )


def expires_at(invitation: ClubInvitation) -> dt.datetime:
    return invitation.created_at + dt.timedelta(seconds=INVITATION_SECONDS)


def revoke(club: Club, invitation_id: int, user: User) -> bool:
    """Withdraw a pending invitation of the club; False if it is not one (answered already,
    withdrawn, or another club's)."""
    with transaction.atomic():
        withdrawn = club.invitations.filter(
            pk=invitation_id, accepted_at=None, revoked_at=None
        ).update(revoked_at=timezone.now())
        if withdrawn:
            audit.record(club, user, "invitation.revoked", invitation_id=invitation_id)
    return bool(withdrawn)


def accept(invitation: ClubInvitation, user: User) -> bool:
    """Make `user` a director of the invitation's club; False if the link was used meanwhile."""
    with transaction.atomic():
        # Claimed with one conditional UPDATE, so two tabs accepting at once add one role.
        claimed = ClubInvitation.objects.filter(
            pk=invitation.pk, accepted_at=None, revoked_at=None
        ).update(accepted_at=timezone.now())
        if not claimed:
            return False
        club = invitation.club
        if not club.roles.filter(user=user).exists():
            ClubRole.objects.create(club=club, user=user, role=ClubRole.Role.DIRECTOR)
            audit.record(
                club,
                invitation.invited_by,
                "director.added",
                user_id=user.pk,
                invitation_id=invitation.pk,
            )
    return True
