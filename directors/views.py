"""Accounts, club creation and the directors' club settings. Thin views only."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from clubs import audit
from clubs.access import (
    NOT_FOUND,
    AuthedRequest,
    club_for_director,
    club_for_owner,
    club_page_path,
    player_for_director,
)
from clubs.accounts import invitations
from clubs.accounts.forms import JOIN_AFTER_SIGNUP, too_many_from_address
from clubs.accounts.throttle import address_allows
from clubs.models import Club, ClubRole
from directors.audit import sentences as audit_sentences
from directors.forms import AuditFilterForm, ClubCreateForm, InviteDirectorForm
from directors.roster.erasure import erase_player

AUDIT_PER_PAGE = 100


def home(request: HttpRequest) -> HttpResponse:
    my_clubs = Club.objects.directed_by(request.user).order_by("name")
    return render(request, "directors/home.html", {"my_clubs": my_clubs})


@require_safe
def choose_language(request: HttpRequest, code: str) -> HttpResponse:
    """The language switcher: plain links, so that pages carry no per-visitor form token and
    can be shared from the page cache. Only sets the language cookie and goes back."""
    if code not in dict(settings.LANGUAGES):
        raise Http404(NOT_FOUND)
    back = request.GET.get("next", "")
    if not url_has_allowed_host_and_scheme(
        back, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        back = reverse("home")
    response = HttpResponseRedirect(back)
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        code,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        path=settings.LANGUAGE_COOKIE_PATH,
        domain=settings.LANGUAGE_COOKIE_DOMAIN,
        secure=settings.LANGUAGE_COOKIE_SECURE,
        httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
        samesite=settings.LANGUAGE_COOKIE_SAMESITE,  # type: ignore[arg-type]  # stubbed as str
    )
    return response


@login_required
def club_create(request: AuthedRequest) -> HttpResponse:
    form = ClubCreateForm(request.POST or None)
    if request.method == "POST" and not address_allows(request, "club-create"):
        # Before validation, and with an unbound form: over the limit the answer must not
        # say whether the address is available (the form's own check is the probe limited).
        messages.error(request, too_many_from_address().messages[0])
        form = ClubCreateForm(initial={"name": request.POST.get("name", "")})
        return render(request, "directors/club_create.html", {"form": form}, status=429)
    if request.method == "POST" and form.is_valid():
        with transaction.atomic():
            club = form.save()
            ClubRole.objects.create(club=club, user=request.user, role=ClubRole.Role.OWNER)
            audit.record(club, request.user, "club.created", slug=club.slug)
        return redirect("club_manage", slug=club.slug)
    return render(request, "directors/club_create.html", {"form": form})


def club_manage(request: AuthedRequest, slug: str) -> HttpResponse:
    club = club_for_director(request, slug)
    roles = club.roles.select_related("user").order_by("role", "user__email")
    return render(
        request,
        "directors/club_manage.html",
        {
            "club": club,
            "roles": roles,
            "is_owner": club.is_owned_by(request.user),
            "invite_form": InviteDirectorForm(),
            "pending_invitations": [
                (invitation, invitations.expires_at(invitation))
                for invitation in invitations.pending(club)
            ],
            "page_path": club_page_path(club),
        },
    )


@require_POST
def director_add(request: AuthedRequest, slug: str) -> HttpResponse:
    """Invite a director by e-mail. One answer for every valid address, so the page never
    tells whether an account exists or already directs the club (clubs/accounts/invitations.py)."""
    club = club_for_owner(request, slug)
    form = InviteDirectorForm(request.POST)
    if not form.is_valid():
        for error in form.errors.get("email", []):
            messages.error(request, str(error))
    elif not address_allows(request, "director-invite"):
        messages.error(request, too_many_from_address().messages[0])
    else:
        email = form.cleaned_data["email"]
        invitations.invite(club, request.user, email)
        messages.success(
            request,
            _("We sent an invitation to %(email)s; they become a director when they accept it.")
            % {"email": email},
        )
    return redirect("club_manage", slug=club.slug)


@login_required
@require_http_methods(["GET", "POST"])
def invitation_accept(request: AuthedRequest, token: str) -> HttpResponse:
    """The link from an invitation mail: the invited account, signed in, confirms with a POST.

    Signed out, Django's sign-in page brings the visitor back here (`next`). A tampered,
    expired, used or replaced link and another account than the invited one all get the
    same 404 page, which says what to check without telling which it was.
    """
    invitation = invitations.invitation_for(token, request.user)
    joining = request.session.pop(JOIN_AFTER_SIGNUP, None) == token
    if invitation is None:
        if invitations.revoked(token):
            return render(request, "clubs/accounts/invitation.html", {"revoked": True}, status=410)
        return render(request, "clubs/accounts/invitation.html", {"invalid": True}, status=404)
    club = invitation.club
    # Just signed up from this invitation: the sign-up was the answer, no second question.
    if request.method == "POST" or joining:
        if not invitations.accept(invitation, request.user):
            return render(request, "clubs/accounts/invitation.html", {"invalid": True}, status=404)
        messages.success(request, _("You now direct %(club)s.") % {"club": club.name})
        return redirect("club_manage", slug=club.slug)
    return render(request, "clubs/accounts/invitation.html", {"club": club})


@require_POST
def invitation_revoke(request: AuthedRequest, slug: str, invitation_id: int) -> HttpResponse:
    """The owner withdraws a pending invitation: its link then says it was withdrawn."""
    club = club_for_owner(request, slug)
    if not invitations.revoke(club, invitation_id, request.user):
        raise Http404("No pending invitation of this club.")
    messages.success(request, _("The invitation is withdrawn: its link no longer works."))
    return redirect("club_manage", slug=club.slug)


@require_POST
def director_remove(request: AuthedRequest, slug: str, role_id: int) -> HttpResponse:
    club = club_for_owner(request, slug)
    role = get_object_or_404(ClubRole, club=club, pk=role_id)
    if role.role == ClubRole.Role.OWNER:
        raise Http404("The owner cannot be removed.")
    with transaction.atomic():
        role.delete()
        audit.record(club, request.user, "director.removed", user_id=role.user_id)
    messages.success(
        request, _("%(email)s no longer directs the club.") % {"email": role.user.email}
    )
    return redirect("club_manage", slug=club.slug)


@require_safe
def audit_log(request: AuthedRequest, slug: str) -> HttpResponse:
    club = club_for_director(request, slug)
    filters = AuditFilterForm(request.GET, club=club)
    player_id = event_id = None
    if filters.is_valid():
        player, event = filters.cleaned_data["player"], filters.cleaned_data["event"]
        player_id = player.pk if player is not None else None
        event_id = event.pk if event is not None else None
    entries = audit_sentences.about(
        club.audit_entries.select_related("user"), player_id=player_id, event_id=event_id
    )
    page = Paginator(entries, AUDIT_PER_PAGE).get_page(request.GET.get("page"))
    query = request.GET.copy()
    query.pop("page", None)
    return render(
        request,
        "directors/audit/audit_log.html",
        {
            "club": club,
            "filters": filters,
            "filtered": player_id is not None or event_id is not None,
            "page": page,
            "rows": audit_sentences.sentences(list(page.object_list)),
            "query": query.urlencode(),
        },
    )


@require_http_methods(["GET", "POST"])
def player_erase(request: AuthedRequest, slug: str, player_id: int) -> HttpResponse:
    """Confirm (GET) and carry out (POST) the removal of a player's personal data."""
    player = player_for_director(request, slug, player_id)
    if request.method == "POST":
        erase_player(player, request.user)
        messages.success(request, _("The player's name has been removed everywhere."))
        return redirect("club_manage", slug=player.club.slug)
    return render(request, "directors/roster/erase.html", {"club": player.club, "player": player})
