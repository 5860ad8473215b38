"""The club night as an installable web app: its service worker and a club's manifest.

The worker (templates/directors/night/service_worker.js) is served here rather than by
WhiteNoise so it can say Service-Worker-Allowed: / and be registered for the whole site
(static/directors/night/offline.js): it then sees signing in and out, and forgets the pages it
kept. It answers only the night pages (/manage/<club>/night/...) and the files they load; it
holds no club data itself. The manifest is the club's, behind the access helper.
"""

from __future__ import annotations

import json

from django.http import HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from clubs.access import AuthedRequest, club_for_director

# Moved on when the worker keeps pages differently: the copies kept by an older one go.
WORKER_VERSION = "1"
THEME = "#2f5d50"  # the site's accent (static/css/site.css)


@require_safe
def night_service_worker(request: AuthedRequest) -> HttpResponse:
    files = [static("directors/night/"), static("css/"), static("fonts/"), static("favicon.svg")]
    signing = [reverse("login"), reverse("logout"), reverse("signup")]
    script = render_to_string(
        "directors/night/service_worker.js",
        {
            "version": WORKER_VERSION,
            "files": json.dumps(files),
            "signing": json.dumps(signing),
            "offline_title": _("Not available offline"),
            "offline_text": _(
                "This page was not opened on this device while the network was there, so it "
                "cannot be shown now. It opens again once the network is back."
            ),
        },
        request=request,
    )
    response = HttpResponse(script, content_type="text/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = "/"
    # The browser checks for a new worker on every visit; no copy of it may stand in the way.
    response["Cache-Control"] = "no-cache"
    return response


@require_safe
def night_manifest(request: AuthedRequest, slug: str) -> HttpResponse:
    club = club_for_director(request, slug)
    manifest = {
        "name": _("Club night · %(club)s") % {"club": club.name},
        "short_name": _("Club night"),
        "start_url": reverse("night_start", args=[club.slug]),
        "scope": reverse("club_manage", args=[club.slug]),
        "display": "standalone",
        "background_color": "#fbfaf7",
        "theme_color": THEME,
        "icons": [
            {"src": static("favicon.svg"), "sizes": "any", "type": "image/svg+xml"},
        ],
    }
    response = JsonResponse(manifest, content_type="application/manifest+json")
    response["Cache-Control"] = "private, no-cache"
    return response
