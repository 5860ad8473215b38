"""Liveness and health, kept apart.

/livez: does this process answer HTTP? It touches neither the database nor
Redis, so the Docker HEALTHCHECK (which restarts a container that fails it)
does not kill web processes that still serve pages while Redis, or the
database, is away: a restart would not bring either back.

/healthz: can the deployment do its work? Database, Redis and the oldest
out-of-date ladder, for monitors and load balancers; 503 when the database or
Redis does not answer.
"""

from __future__ import annotations

from django.conf import settings
from django.db import connection
from django.db.models import Min
from django.http import HttpRequest, JsonResponse
from django.utils import timezone
from django.views.decorators.cache import never_cache


@never_cache
def livez(request: HttpRequest) -> JsonResponse:
    return JsonResponse({"status": "ok"})


@never_cache
def healthz(request: HttpRequest) -> JsonResponse:
    body: dict[str, object] = {}
    healthy = True
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        body["database"] = "ok"
    except Exception:  # any driver error means "not healthy", never a 500
        body["database"] = "unavailable"
        healthy = False
    if settings.REDIS_URL:
        body["redis"] = _redis_status()
        healthy = healthy and body["redis"] == "ok"
    else:
        body["redis"] = "not configured"
    if body["database"] == "ok":
        body["oldest_out_of_date_ladder_seconds"] = _oldest_out_of_date_seconds()
    body["status"] = "ok" if healthy else "unavailable"
    return JsonResponse(body, status=200 if healthy else 503)


def _redis_status() -> str:
    import django_rq
    from redis.exceptions import RedisError

    try:
        django_rq.get_connection("default").ping()
    except RedisError:
        return "unavailable"
    return "ok"


def _oldest_out_of_date_seconds() -> int | None:
    from clubs.models import Club

    oldest = Club.objects.ladder_out_of_date().aggregate(oldest=Min("out_of_date_since"))["oldest"]
    if oldest is None:
        return None
    return max(0, int((timezone.now() - oldest).total_seconds()))
