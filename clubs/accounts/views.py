"""Sign-up, sign-in and password reset: throttled, and never telling whether an account exists.

A browser the account never signed in from, refused because the account is over a
failure limit (clubs/accounts/auth.py), is mailed a one-time sign-in link instead of only being told
to wait: at most ACCOUNT_MAIL_LIMIT a window, the page reading the same with or without an
account. Following the link asks for one button press (mail scanners follow links too),
which spends it, signs this browser in and marks it as the account's own.

Sign-up asks for an e-mail address and a name and always answers "check your e-mail".
A new address gets a link to choose a password, which creates the account; an address
that already has an account gets a note saying so, with links to sign in and to reset the
password. So the page reads the same for both, only the mailbox owner learns which, and
nobody can set a password for an address they cannot read. Every link in mail is built
from SITE_URL, never from the request's Host header.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.forms import AuthenticationForm, PasswordResetForm, SetPasswordForm
from django.contrib.auth.views import LoginView, PasswordResetView
from django.core import signing
from django.core.mail import send_mail
from django.db import IntegrityError, transaction
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import Resolver404, resolve, reverse
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from clubs.accounts.auth import REFUSED_NEW_BROWSER, remember_device
from clubs.accounts.forms import (
    JOIN_AFTER_SIGNUP,
    SignUpForm,
    ThrottledLoginForm,
    too_many_from_address,
)
from clubs.accounts.throttle import address_allows, mail_allowed, normalised_email
from clubs.models import SignInLink, User
from clubs.models.accounts import SIGN_IN_LINK_SECONDS

SIGNUP_SALT = "clubs.signup"
SIGNUP_LINK_SECONDS = 3 * 24 * 3600
TOO_MANY = 429


def site_url(path: str = "") -> str:
    return settings.SITE_URL.rstrip("/") + path


class SignInView(LoginView):
    """Django's sign-in, which also marks this browser as the account's own (accounts/auth.py)."""

    authentication_form = ThrottledLoginForm
    # Named, not found by Django's default under registration/: the admin ships a page there.
    template_name = "clubs/accounts/login.html"

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        """On the way to an invitation, the page offers sign-up carrying it (no account yet)."""
        context = super().get_context_data(**kwargs)
        try:
            match = resolve(urlsplit(str(context.get("next") or "")).path)
        except Resolver404:
            return context
        if match.url_name == "invitation_accept":
            query = urlencode({"invitation": match.kwargs["token"]})
            context["signup_url"] = f"{reverse('signup')}?{query}"
        return context

    def form_valid(self, form: AuthenticationForm) -> HttpResponse:
        response = super().form_valid(form)
        remember_device(response, form.get_user().email)
        return response

    def form_invalid(self, form: AuthenticationForm) -> HttpResponse:
        if getattr(self.request, "sign_in_refused", None) == REFUSED_NEW_BROWSER:
            send_sign_in_link(form.cleaned_data.get("username", ""))
        return super().form_invalid(form)


def send_sign_in_link(username: str) -> None:
    """Mail the account a one-time sign-in link, if it exists and is under ACCOUNT_MAIL_LIMIT."""
    if not username or not mail_allowed(username, "sign-in-link"):
        return
    user = User.objects.filter(email__iexact=normalised_email(username), is_active=True).first()
    if user is None:
        return
    token = SignInLink.objects.issue(user)
    body = render_to_string(
        "clubs/accounts/signin_link_email.txt",
        {
            "link": site_url(reverse("signin_link", args=[token])),
            "minutes": SIGN_IN_LINK_SECONDS // 60,
            "reset_url": site_url(reverse("password_reset")),
        },
    )
    send_mail(_("Your Club pages sign-in link"), body, None, [user.email])


@require_http_methods(["GET", "POST"])
def signin_link(request: HttpRequest, token: str) -> HttpResponse:
    """The link from a sign-in mail: a button, then this browser is signed in and known."""
    if request.method == "GET":
        usable = SignInLink.objects.usable(token) is not None
        return render(request, "clubs/accounts/signin_link.html", {"invalid": not usable})
    user = SignInLink.objects.redeem(token)
    if user is None:
        return render(request, "clubs/accounts/signin_link.html", {"invalid": True})
    login(request, user, backend="clubs.auth.ThrottledModelBackend")
    response = redirect(settings.LOGIN_REDIRECT_URL)
    remember_device(response, user.email)
    return response


class ThrottledPasswordResetView(PasswordResetView):
    """Mails at most ACCOUNT_MAIL_LIMIT links to one address and takes ADDRESS_RATE_LIMIT
    requests from one network per window; over a limit it answers exactly as if it had sent."""

    template_name = "clubs/accounts/password_reset_form.html"
    email_template_name = "clubs/accounts/password_reset_email.html"

    def form_valid(self, form: PasswordResetForm) -> HttpResponse:
        email = form.cleaned_data["email"]
        if not (
            address_allows(self.request, "password-reset") and mail_allowed(email, "password-reset")
        ):
            return HttpResponseRedirect(self.get_success_url())
        # The link and the subject's site name come from SITE_URL, not the Host header.
        form.save(
            domain_override=urlsplit(site_url()).netloc,
            use_https=site_url().startswith("https://"),
            extra_email_context={"site_url": site_url()},
            token_generator=self.token_generator,
            from_email=self.from_email,
            email_template_name=self.email_template_name,
            subject_template_name=self.subject_template_name,
            html_email_template_name=self.html_email_template_name,
            request=self.request,
        )
        return HttpResponseRedirect(self.get_success_url())


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    """Sign-up: an address and a name. From an invitation (`?invitation=`, its link's token),
    the token rides along in the mailed link, so the new account lands on the club, joined."""
    initial = {"invitation": request.GET.get("invitation", "")}
    form = SignUpForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        if not address_allows(request, "sign-up"):
            form.add_error(None, too_many_from_address())
            return render(request, "clubs/accounts/signup.html", {"form": form}, status=TOO_MANY)
        email, name = form.cleaned_data["email"], form.cleaned_data["name"]
        if mail_allowed(email, "sign-up"):
            send_signup_mail(email, name, form.cleaned_data["invitation"])
        return redirect("signup_sent")
    return render(request, "clubs/accounts/signup.html", {"form": form})


def send_signup_mail(email: str, name: str, invitation: str = "") -> None:
    if User.objects.filter(email__iexact=email).exists():
        subject = _("You already have a Club pages account")
        body = render_to_string(
            "clubs/accounts/signup_exists_email.txt",
            {
                "login_url": site_url(reverse("login")),
                "reset_url": site_url(reverse("password_reset")),
            },
        )
    else:
        data = {"e": email, "n": name, **({"i": invitation} if invitation else {})}
        token = signing.dumps(data, salt=SIGNUP_SALT, compress=True)
        subject = _("Finish signing up for Club pages")
        body = render_to_string(
            "clubs/accounts/signup_email.txt",
            {"link": site_url(reverse("signup_confirm", args=[token]))},
        )
    send_mail(subject, body, None, [email])


def signup_sent(request: HttpRequest) -> HttpResponse:
    return render(request, "clubs/accounts/signup_sent.html")


def _pending_signup(token: str) -> tuple[str, str, str] | None:
    """The address, name and invitation token (or "") of a sign-up link not used yet."""
    try:
        data = signing.loads(token, salt=SIGNUP_SALT, max_age=SIGNUP_LINK_SECONDS)
    except signing.BadSignature:
        return None
    email = normalised_email(str(data.get("e", "")))
    if not email or User.objects.filter(email__iexact=email).exists():
        return None  # used already: the account exists
    return email, str(data.get("n", "")), str(data.get("i", ""))


@require_http_methods(["GET", "POST"])
def signup_confirm(request: HttpRequest, token: str) -> HttpResponse:
    """The link from the sign-up mail: choose a password, and the account exists."""
    pending = _pending_signup(token)
    if pending is None:
        # 200, as Django's own password-reset link page answers a spent link.
        return render(request, "clubs/accounts/signup_confirm.html", {"invalid": True})
    email, name, invitation = pending
    form = SetPasswordForm(User(email=email, name=name), request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            with transaction.atomic():
                user = form.save()
        except IntegrityError:  # the same link used twice at once
            return render(request, "clubs/accounts/signup_confirm.html", {"invalid": True})
        login(request, user, backend="clubs.auth.ThrottledModelBackend")
        if invitation:
            # The invitation's page accepts it at once for this session (it was this sign-up
            # that asked to join), and says so if it can no longer be used.
            request.session[JOIN_AFTER_SIGNUP] = invitation
            response = redirect("invitation_accept", token=invitation)
        else:
            messages.success(request, _("Welcome! Create your club to get started."))
            response = redirect("club_create")
        remember_device(response, user.email)
        return response
    return render(request, "clubs/accounts/signup_confirm.html", {"form": form, "email": email})
