"""The websites a club lets frame its embeds and read its API across sites (issue 37): each an
origin as browsers send it in an Origin header, `https://example.org` or
`https://example.org:8443` (plain http only for a page on this computer, http://localhost,
to try an embed before it goes live).

Pure: the club settings form turns a director's lines into the list Club.embed_origins
keeps, and both the frame-ancestors header and the CORS answer compare with that list.
Every origin kept here is written into a response header, so only the characters of a
host name, a port and the scheme can pass.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

# Enough for a club's site, its old site and a test page; a header stays short.
MOST_ORIGINS = 10

_LOCAL_HOSTS = frozenset({"localhost", "127.0.0.1"})
# A DNS name (letters, digits, hyphens; an internationalised name in its xn-- form), or an
# IPv4 address: nothing a header could break on.
_LABEL = r"(?!-)[a-z0-9-]{1,63}(?<!-)"
_HOST = re.compile(rf"{_LABEL}(\.{_LABEL})*")
_DEFAULT_PORTS = {"https": 443, "http": 80}


class BadOrigin(ValueError):
    """A line that is not an origin a club may list; `reason` names what is wrong
    ("scheme", "host", "port", "path", "too_many") for the form's message."""

    def __init__(self, text: str, reason: str) -> None:
        super().__init__(f"{text!r}: {reason}")
        self.text = text
        self.reason = reason


def normal_origin(text: str) -> str:
    """The origin as a browser writes it: lower case, no default port, no trailing slash.
    Raises BadOrigin for anything else (a path, a query, a user name, a wildcard)."""
    stripped = text.strip()
    try:
        parts = urlsplit(stripped)
        port = parts.port
    except ValueError as error:  # a port that is not a number or out of range
        raise BadOrigin(stripped, "port") from error
    scheme = parts.scheme.lower()
    host = (parts.hostname or "").lower()
    if scheme not in _DEFAULT_PORTS or not parts.netloc:
        raise BadOrigin(stripped, "scheme")
    if parts.path not in ("", "/") or parts.query or parts.fragment or "?" in stripped:
        raise BadOrigin(stripped, "path")
    if parts.username is not None or parts.password is not None or not _HOST.fullmatch(host):
        raise BadOrigin(stripped, "host")
    if scheme == "http" and host not in _LOCAL_HOSTS:
        raise BadOrigin(stripped, "scheme")
    if port is None or port == _DEFAULT_PORTS[scheme]:
        return f"{scheme}://{host}"
    return f"{scheme}://{host}:{port}"


def parse_origins(text: str) -> list[str]:
    """A director's lines (or commas, or spaces) as the club's list: each origin normalised,
    once, in the order given; an empty text is an empty list."""
    origins: list[str] = []
    for word in re.split(r"[\s,]+", text.strip()):
        if not word:
            continue
        origin = normal_origin(word)
        if origin not in origins:
            origins.append(origin)
    if len(origins) > MOST_ORIGINS:
        raise BadOrigin(origins[MOST_ORIGINS], "too_many")
    return origins


def allowed_origin(origin: str | None, allowed: list[str]) -> str | None:
    """The request's Origin header when the club lists it, else None (a browser's Origin
    is already in normal form; anything else is compared as sent and so never matches)."""
    if not origin or origin == "null":
        return None
    return origin if origin in allowed else None
