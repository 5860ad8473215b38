"""The baseline for bench/pages.sh: the project's settings and middleware, one view that lists
60 rows from the database through a template, nothing else.

    gunicorn --chdir /path/to/repo bench.minimal_wsgi:application
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

from django.conf import settings
from django.core.wsgi import get_wsgi_application
from django.http import HttpRequest, HttpResponse
from django.template import engines
from django.urls import path

settings.ROOT_URLCONF = __name__
application = get_wsgi_application()

TEMPLATE = engines["django"].from_string(
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Players</title></head>'
    "<body><table><thead><tr><th>#</th><th>Name</th><th>Games</th></tr></thead><tbody>\n"
    "{% for id, name, games in rows %}"
    "<tr><td>{{ id }}</td><td>{{ name }}</td><td>{{ games }}</td></tr>\n"
    "{% endfor %}</tbody></table></body></html>"
)


def players(request: HttpRequest) -> HttpResponse:
    from ladder.models import LadderRating

    # Games live on each ladder's rating since the ladders (issue 26): one join, as a page
    # of names and games would need.
    ratings = LadderRating.objects.order_by("id")
    rows = ratings.values_list("player_id", "player__name", "rated_games")[:60]
    return HttpResponse(TEMPLATE.render({"rows": rows}, request))


urlpatterns = [path("", players)]
