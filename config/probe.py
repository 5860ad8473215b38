"""The container's liveness probe: `python -m config.probe` exits 0 while gunicorn answers /livez.

Plain standard library, no Django: it runs every 30 s beside the web process and
must not load the project (or reach the database) to ask one question.
"""

from __future__ import annotations

import os
import sys
import urllib.request

LIVEZ_URL = "http://127.0.0.1:8000/livez"


def first_allowed_host(allowed_hosts: str) -> str:
    """Ask as the first allowed host: Django answers 400 to a Host it does not serve."""
    first = allowed_hosts.split(",")[0].strip().lstrip(".")
    return "localhost" if first in ("", "*") else first


def alive(url: str, host: str, timeout: float = 4.0) -> bool:
    request = urllib.request.Request(url, headers={"Host": host})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            status: int = response.status
            return status == 200
    except OSError:  # refused, timed out, or an error status (HTTPError is an OSError too)
        return False


def main() -> int:
    host = first_allowed_host(os.environ.get("ALLOWED_HOSTS", "localhost"))
    return 0 if alive(LIVEZ_URL, host) else 1


if __name__ == "__main__":
    sys.exit(main())
