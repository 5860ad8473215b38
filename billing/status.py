"""What the rest of the app asks about billing. It never sees a plan name."""

from __future__ import annotations

from typing import TYPE_CHECKING

from billing.models import Subscription

if TYPE_CHECKING:
    from clubs.models import Club


def page_is_active(club: Club) -> bool:
    """Whether the club's page is open to visitors: always when billing is off.

    The rule is the club's own (`Club.page_is_active`, read from its subscription rows),
    so billing views and the public pages cannot disagree."""
    return club.page_is_active()


def current_subscription(club: Club) -> Subscription | None:
    """The subscription to show the owner: the active one, else the newest."""
    subscriptions = Subscription.objects.filter(club=club)
    return subscriptions.active().first() or subscriptions.first()
