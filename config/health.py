"""Liveness, readiness and health, kept apart.

/livez: does this process answer HTTP? It touches neither the database nor
Redis, so the Docker HEALTHCHECK (which restarts a container that fails it)
does not kill web processes that still serve pages while Redis, or the
database, is away: a restart would not bring either back.

/readyz: can this process serve pages? The database answers, the static
manifest is there and the home page renders; 503 otherwise, naming what
failed. Redis is reported but never makes it 503: pages do not need it (a
correction is saved and the sweep queues its replay later), so a load balancer
that asks /readyz keeps every host during a Redis outage.

/healthz: can the deployment do its work? Database, Redis and the oldest
out-of-date ladder, for monitors and alerts; 503 when the database or Redis
does not answer.
"""

from __future__ import annotations

import logging

from django.conf import settings
from django.contrib.staticfiles.storage import ManifestFilesMixin, staticfiles_storage
from django.db import connection
from django.db.models import Min
from django.http import HttpRequest, JsonResponse
from django.utils import timezone
from django.views.decorators.cache import never_cache

from config import redis_client

logger = logging.getLogger(__name__)
# Named by every page (templates/base.html).
STYLESHEET = "css/site.css"
OK = ("ok", "not configured", "not tried")


@never_cache
def livez(request: HttpRequest) -> JsonResponse:
    return JsonResponse({"status": "ok"})


@never_cache
def healthz(request: HttpRequest) -> JsonResponse:
    body: dict[str, object] = {"database": _database_status()}
    healthy = body["database"] == "ok"
    if settings.REDIS_URL:
        body["redis"] = _redis_status()
        healthy = healthy and body["redis"] == "ok"
    else:
        body["redis"] = "not configured"
    if body["database"] == "ok":
        body["oldest_out_of_date_ladder_seconds"] = _oldest_out_of_date_seconds()
    body["status"] = "ok" if healthy else "unavailable"
    return JsonResponse(body, status=200 if healthy else 503)


@never_cache
def readyz(request: HttpRequest) -> JsonResponse:
    body: dict[str, object] = {
        "database": _database_status(),
        "static": static_status(),
    }
    prerequisites_ok = body["database"] == "ok" and body["static"] == "ok"
    body["page"] = _page_status(request) if prerequisites_ok else "not tried"
    body["redis"] = redis = _redis_status() if settings.REDIS_URL else "not configured"
    failed = [name for name in ("database", "static", "page") if body[name] not in OK]
    if failed:
        body["status"] = "unavailable"
        body["failed"] = failed
        logger.error("Not ready: %s", ", ".join(f"{name} {body[name]}" for name in failed))
        return JsonResponse(body, status=503)
    body["status"] = "ok" if redis in OK else "degraded"
    if body["status"] == "degraded":
        logger.warning("Ready without Redis (%s): replays wait for the sweep", redis)
    return JsonResponse(body)


def _database_status() -> str:
    try:
        # Connecting is the database answering (a fresh connection each request: no
        # CONN_MAX_AGE); is_usable() asks a kept one whether the server is still there.
        connection.ensure_connection()
        if not connection.is_usable():
            raise ConnectionError("the database connection is no longer usable")
    except Exception:  # any driver error means "not healthy", never a 500
        logger.warning("Health check: the database does not answer", exc_info=True)
        return "unavailable"
    return "ok"


def static_status() -> str:
    """Without collectstatic's manifest every page that names a stylesheet is a 500, and the
    storage reads the manifest once, at start-up: a restart after collectstatic is needed."""
    if not isinstance(staticfiles_storage, ManifestFilesMixin):
        return "ok"  # DEBUG: files are served from the source folders by name
    if not staticfiles_storage.hashed_files:
        return "manifest missing"
    if not staticfiles_storage.exists(staticfiles_storage.stored_name(STYLESHEET)):
        return "files missing"
    return "ok"


def _page_status(request: HttpRequest) -> str:
    """The home page as a visitor sees it: templates, static names, translations."""
    from django.contrib.auth.models import AnonymousUser

    from directors.views import home

    request.user = AnonymousUser()
    try:
        response = home(request)
    except Exception:
        logger.exception("Readiness: the home page does not render")
        return "error"
    return "ok" if response.status_code == 200 else f"status {response.status_code}"


def _redis_status() -> str:
    assert settings.REDIS_URL is not None
    answer = redis_client.reachable(settings.REDIS_URL)
    if answer is None:
        return "unavailable (not asked again yet)"
    return "ok" if answer else "unavailable"


def _oldest_out_of_date_seconds() -> int | None:
    from clubs.models import Ladder

    oldest = Ladder.objects.out_of_date().aggregate(oldest=Min("out_of_date_since"))["oldest"]
    if oldest is None:
        return None
    return max(0, int((timezone.now() - oldest).total_seconds()))
