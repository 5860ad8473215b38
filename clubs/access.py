"""The one way views reach club data.

Each helper answers 404, never 403, to anyone who may not see the object, so an
outsider cannot tell a club or an id that exists from one that does not.
"""

from __future__ import annotations

import hmac

from django.http import Http404, HttpRequest
from django.urls import reverse

from clubs.board_codes import normalised
from clubs.models import ApiToken, BoardCode, Club, ClubRole, Event, Ladder, Player, User

NOT_FOUND = "No such page."


class AuthedRequest(HttpRequest):
    """The request of a view behind @login_required or a director or owner door below.

    Only a type: Django builds the requests. By the time such a view reads `request.user` it
    is a signed-in User, never AnonymousUser (the door answers 404 to anyone signed out).
    """

    user: User


def club_for_director(request: HttpRequest, slug: str) -> Club:
    """A club the signed-in user directs (owners are directors too)."""
    user = request.user
    if not user.is_authenticated:
        raise Http404(NOT_FOUND)
    club = Club.objects.filter(slug=slug, roles__user=user).first()
    if club is None:
        raise Http404(NOT_FOUND)
    return club


def club_for_owner(request: HttpRequest, slug: str) -> Club:
    user = request.user
    if not user.is_authenticated:
        raise Http404(NOT_FOUND)
    club = Club.objects.filter(slug=slug, roles__user=user, roles__role=ClubRole.Role.OWNER).first()
    if club is None:
        raise Http404(NOT_FOUND)
    return club


def ladder_for_director(request: HttpRequest, slug: str, ladder: str | None) -> Ladder:
    """A ladder of a directed club by its slug; None: the club's first ladder."""
    club = club_for_director(request, slug)
    ladders = Ladder.objects.for_club(club.pk)
    found = ladders.first() if ladder is None else ladders.filter(slug=ladder).first()
    if found is None:
        raise Http404(NOT_FOUND)
    found.club = club  # the club already read, not read again
    return found


def event_for_director(request: HttpRequest, slug: str, event_id: int) -> Event:
    """Any event of a directed club, deleted and draft events included."""
    club = club_for_director(request, slug)
    event = Event.objects.filter(club=club, pk=event_id).select_related("club").first()
    if event is None:
        raise Http404(NOT_FOUND)
    return event


def player_for_director(request: HttpRequest, slug: str, player_id: int) -> Player:
    club = club_for_director(request, slug)
    player = Player.objects.filter(club=club, pk=player_id).select_related("club").first()
    if player is None:
        raise Http404(NOT_FOUND)
    return player


def club_for_visitor(request: HttpRequest, slug: str, secret: str | None) -> Club:
    """A club page as a visitor may see it.

    Public clubs answer at their plain URL, unlisted ones only with the right
    secret, director-only ones only to their directors. Directors of the club
    see it under either URL. Everything else is the same 404.
    """
    # With its ladders' versions, which its pages' keys need (members.web.page_cache).
    club = Club.objects.with_ladders(slug)
    if club is None:
        raise Http404(NOT_FOUND)
    if club.is_directed_by(request.user):
        return club
    if club.visibility == Club.Visibility.PUBLIC and secret is None:
        return club
    if (
        club.visibility == Club.Visibility.UNLISTED
        and secret is not None
        and _same_secret(secret, club.secret)
    ):
        return club
    raise Http404(NOT_FOUND)


def club_for_token(slug: str, token: ApiToken | None) -> Club:
    """A club read by a program with one of its API tokens (clubs.tokens.find_token's).

    The token opens its own club, public or unlisted, at the plain address, as its secret link
    would; a director-only club stays its signed-in directors' alone. No token (forged or
    revoked), another club's token and an unknown club are the same 404.
    """
    club = Club.objects.with_ladders(slug)
    if (
        club is None
        or token is None
        or token.club_id != club.pk
        or club.visibility == Club.Visibility.DIRECTOR
    ):
        raise Http404(NOT_FOUND)
    return club


def event_for_share_token(token: str) -> Event:
    """A published event by its own results link, whoever asks.

    The link opens that one page and nothing else of the club. A club whose pages are for
    directors only shares nothing; a wrong, old or unpublished event's token is the same 404.
    """
    event = (
        Event.objects.published()
        .filter(share_token=token)
        .exclude(club__visibility=Club.Visibility.DIRECTOR)
        .select_related("club")
        .first()
    )
    if event is None:
        raise Http404(NOT_FOUND)
    return event


class BoardCodeGone(Http404):
    """A board code that opens nothing, and why: "unknown" (never made, or forged), "expired"
    (its round closed: the next round is paired, the round was taken back, the evening is
    published or deleted) or "off" (reporting at the board is switched off). All are a 404;
    the reason only chooses the sentence the player reads."""

    def __init__(self, reason: str) -> None:
        super().__init__(NOT_FOUND)
        self.reason = reason


def board_code_for_visitor(text: str) -> BoardCode:
    """A live board code by the text a player scanned or typed, whoever asks (the code is the
    key: it opens that one board of the round being played and nothing else of the club).

    Whether it still matches the board (a re-pairing, a hand change) and whether the board's
    result is in are the report's own checks (directors/night/board_reports.py), with their
    own messages."""
    wanted = normalised(text)
    found = (
        BoardCode.objects.filter(code=wanted).select_related("event__club").first()
        if wanted is not None
        else None
    )
    if (
        found is None
        or not _same_secret(found.code, wanted or "")
        or not found.event.pairing_system
    ):
        raise BoardCodeGone("unknown")
    event = found.event
    if event.deleted_at is not None or event.status == Event.Status.PUBLISHED:
        raise BoardCodeGone("expired")
    if not event.reports_at_board:
        raise BoardCodeGone("off")
    if found.round != event.paired_rounds():
        raise BoardCodeGone("expired")
    return found


def _same_secret(given: str, expected: str) -> bool:
    return hmac.compare_digest(given.encode(), expected.encode())


def club_page_path(club: Club) -> str:
    """Where visitors find the club page: with the secret for an unlisted club (the path
    that club_for_visitor lets through)."""
    if club.visibility == Club.Visibility.UNLISTED:
        return reverse("club_page_secret", kwargs={"slug": club.slug, "secret": club.secret})
    return reverse("club_page", kwargs={"slug": club.slug})
