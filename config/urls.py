from django.conf import settings
from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path, re_path

from clubs.accounts import views as account_views
from config.health import healthz, livez, readyz
from config.static_files import collected_later
from directors import rating_settings_views, settings_views
from directors import views as club_views
from directors.api import router as publish_router
from members.api.routes import api
from members.web import views as ladder_views

# The publish API (directors/api.py) joins the read API: one schema, one set of errors.
api.add_router("", publish_router)

urlpatterns = [
    path("", club_views.home, name="home"),
    path("healthz", healthz, name="healthz"),
    path("livez", livez, name="livez"),
    path("readyz", readyz, name="readyz"),
    # Reached only for names WhiteNoise did not index at start-up (config/static_files.py).
    re_path(r"^static/(?P<path>.+)$", collected_later),
    path(settings.ADMIN_PATH, admin.site.urls),
    path("i18n/<str:code>/", club_views.choose_language, name="choose_language"),
    # Accounts (their pages name templates in clubs/accounts/, not Django's registration/)
    path("accounts/signup/", account_views.signup, name="signup"),
    path("accounts/signup/sent/", account_views.signup_sent, name="signup_sent"),
    path("accounts/signup/<str:token>/", account_views.signup_confirm, name="signup_confirm"),
    path("accounts/login/", account_views.SignInView.as_view(), name="login"),
    path("accounts/login/link/<str:token>/", account_views.signin_link, name="signin_link"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path(
        "accounts/password-reset/",
        account_views.ThrottledPasswordResetView.as_view(),
        name="password_reset",
    ),
    path(
        "accounts/password-reset/sent/",
        auth_views.PasswordResetDoneView.as_view(
            template_name="clubs/accounts/password_reset_done.html"
        ),
        name="password_reset_done",
    ),
    path(
        "accounts/reset/<uidb64>/<token>/",
        auth_views.PasswordResetConfirmView.as_view(
            template_name="clubs/accounts/password_reset_confirm.html"
        ),
        name="password_reset_confirm",
    ),
    path(
        "accounts/reset/done/",
        auth_views.PasswordResetCompleteView.as_view(
            template_name="clubs/accounts/password_reset_complete.html"
        ),
        name="password_reset_complete",
    ),
    # Directors
    path("clubs/new/", club_views.club_create, name="club_create"),
    path("manage/<slug:slug>/", club_views.club_manage, name="club_manage"),
    path("manage/<slug:slug>/directors/add/", club_views.director_add, name="director_add"),
    path("invitations/<str:token>/", club_views.invitation_accept, name="invitation_accept"),
    path(
        "manage/<slug:slug>/invitations/<int:invitation_id>/revoke/",
        club_views.invitation_revoke,
        name="invitation_revoke",
    ),
    path(
        "manage/<slug:slug>/directors/<int:role_id>/remove/",
        club_views.director_remove,
        name="director_remove",
    ),
    # The club's settings: its page, ratings, secret link and the tie-breaks of every standings.
    path("manage/<slug:slug>/settings/", settings_views.club_settings, name="club_settings"),
    path(
        "manage/<slug:slug>/settings/tiebreaks/",
        settings_views.tiebreak_order,
        name="tiebreak_order",
    ),
    path(
        "manage/<slug:slug>/settings/byes/",
        settings_views.night_bye_settings,
        name="night_bye_settings",
    ),
    path(
        "manage/<slug:slug>/settings/embeds/",
        settings_views.embed_origins,
        name="club_embed_origins",
    ),
    path(
        "manage/<slug:slug>/ratings/",
        rating_settings_views.rating_settings,
        name="rating_settings",
    ),
    path(
        "manage/<slug:slug>/ladders/<slug:ladder>/ratings/",
        rating_settings_views.rating_settings,
        name="ladder_rating_settings",
    ),
    path(
        "manage/<slug:slug>/secret/rotate/", settings_views.rotate_secret, name="club_rotate_secret"
    ),
    path("manage/<slug:slug>/rebuild/", ladder_views.rebuild, name="ladder_rebuild"),
    path("manage/<slug:slug>/audit/", club_views.audit_log, name="audit_log"),
    path(
        "manage/<slug:slug>/players/<int:player_id>/erase/",
        club_views.player_erase,
        name="player_erase",
    ),
    path("", include("billing.urls")),
    path("", include("directors.roster_urls")),
    path("", include("directors.events.urls")),
    path("", include("directors.ladders.urls")),
    path("", include("directors.series_urls")),
    path("", include("directors.night.urls")),
    path("", include("directors.schedule_urls")),
    path("", include("directors.token_urls")),
    path("", include("members.web.page_urls")),
    # The read API (members/api/), its schema at api/v1/openapi.json.
    path("api/v1/", api.urls),
]

# A 404 under a club the visitor may see links back to it (members.web.not_found).
handler404 = "members.web.not_found.page_not_found"
# A database that is away is a 503 with Retry-After, any other fault the 500 page.
handler500 = "config.errors.server_error"
