"""Static files collectstatic wrote after this process started.

WhiteNoise indexes STATIC_ROOT once, at start-up. During a rolling deploy over a shared
STATIC_ROOT, a page of the new version can send its visitor to a process of the old one,
which would answer 404 for the new stylesheet. A name WhiteNoise does not know reaches this
view, which serves it from STATIC_ROOT if it is there (and only from there).
"""

from __future__ import annotations

import re

from django.conf import settings
from django.http import FileResponse, HttpRequest
from django.utils.cache import patch_cache_control
from django.views.decorators.http import require_safe
from django.views.static import serve

# A hashed name never changes content, as WhiteNoise says for the files it indexed.
YEAR_SECONDS = 365 * 24 * 3600
# The name ManifestStaticFilesStorage gives a file: 12 hex digits of its hash before the
# extension. An unhashed copy (css/site.css) changes with every deploy, so only a browser's
# ordinary revalidation applies to it, never "immutable for a year".
HASHED_NAME = re.compile(r"\.[0-9a-f]{12}\.[^/.]+$")


@require_safe
def collected_later(request: HttpRequest, path: str) -> FileResponse:
    response = serve(request, path, document_root=str(settings.STATIC_ROOT))
    if response.status_code == 200 and HASHED_NAME.search(path):
        patch_cache_control(response, public=True, max_age=YEAR_SECONDS, immutable=True)
    return response
