"""Gunicorn's access log without the secrets that some addresses carry.

A sign-in link, a sign-up or password-reset link, an invitation, a shared draft's link and an
unlisted club's secret link each hold their secret in the path, and gunicorn logs the path
(and the Referer, which repeats it on the next page). Anyone who can read the logs could
then use an unspent link, or open an unlisted club. `gunicorn.conf.py` names this logger.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from gunicorn.glogging import Logger  # type: ignore[import-untyped]  # no type hints shipped

REDACTED = "[redacted]"

# The path segment right after each of these is a secret (the password reset's after the
# user's id); see config/urls.py and members/web/page_urls.py.
_SECRET_SEGMENT = re.compile(
    r"(?P<before>/accounts/(?:signup|login/link|reset/[^/?#\s]+)/"
    r"|/invitations/"
    r"|/c/[^/?#\s]+/s/"
    # A shared draft's /results/<token>/ sits at the root; an event's .../results/upload/
    # further down holds no secret.
    r"|(?:^|\s)(?:https?://[^/\s]+)?/results/)"
    r"[^/?#\s]+"
)


def without_secrets(text: str) -> str:
    """`text` (a request line, path or referer) with every secret segment replaced."""
    return _SECRET_SEGMENT.sub(lambda match: match["before"] + REDACTED, text)


class SecretFreeLogger(Logger):  # type: ignore[misc]  # subclassing an untyped class
    """Gunicorn's logger, with the request line, path and referer passed through
    `without_secrets` before any access log line is formatted."""

    def atoms(
        self, resp: Any, req: Any, environ: dict[str, Any], request_time: dt.timedelta
    ) -> dict[str, Any]:
        atoms: dict[str, Any] = super().atoms(resp, req, environ, request_time)
        for key in ("r", "U", "f", "{referer}i", "{raw_uri}e", "{path_info}e", "{http_referer}e"):
            if isinstance(atoms.get(key), str):
                atoms[key] = without_secrets(atoms[key])
        return atoms
