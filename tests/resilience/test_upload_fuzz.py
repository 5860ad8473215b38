"""Mutated and hostile files posted to the real upload view of a live gunicorn."""

from __future__ import annotations

import os
import random
import re
import tempfile
from pathlib import Path

import pytest
import requests
from django.test import override_settings

from clubs.models import Entry, Event, Game, Player
from tests.factories import PASSWORD, make_club, make_event, make_user
from tests.live import process_env, start_gunicorn

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.django_db(transaction=True),
    pytest.mark.timeout(180),
]

FILES = Path(__file__).resolve().parents[1] / "directors" / "importers" / "files"
SAMPLES = 60


def mutate(data: bytes, rng: random.Random) -> bytes:
    """One of the ways a file goes wrong on its way from a tournament program."""
    kind = rng.randrange(8)
    if kind == 0:  # flipped bytes
        data = bytearray(data)
        for _ in range(rng.randint(1, 20)):
            data[rng.randrange(len(data))] = rng.randrange(256)
        return bytes(data)
    if kind == 1:  # truncated
        return data[: rng.randrange(len(data))]
    lines = data.splitlines(keepends=True)
    if kind == 2 and lines:  # a line duplicated, removed or swapped
        i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
        del lines[rng.randrange(len(lines))]
        return b"".join(lines + lines[:2])
    if kind == 3:  # extreme Unicode in the middle
        junk = "".join(
            chr(rng.choice([0x202E, 0x1F600, 0x0915, 0xFFFF, 0x10FFFF, 0x0])) for _ in range(50)
        )
        cut = rng.randrange(len(data) + 1)
        return data[:cut] + junk.encode("utf-8", "surrogatepass") + data[cut:]
    if kind == 4:  # a 10,000-character line
        return data + b"001 " + b"X" * 10_000 + b"\n"
    if kind == 5:  # NUL bytes: a binary file renamed
        return b"\x00\x01\x02PK\x03\x04" + data[:200]
    if kind == 6:  # empty
        return b""
    return data.decode("latin-1").encode("utf-16")  # an odd encoding


# gunicorn runs with the real settings, so the password must use a hasher it knows.
@override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.PBKDF2PasswordHasher"])
def test_mutated_files_never_cause_a_5xx_an_orphan_row_or_a_temporary_file():
    director = make_user("fuzz@example.org")
    club = make_club(slug="fuzz", directors=[director])
    event = make_event(club, published=False)
    server, base = start_gunicorn(process_env())
    temp_before = set(os.listdir(tempfile.gettempdir()))
    rng = random.Random(2026)
    sources = sorted(FILES.iterdir())
    statuses = []
    try:
        session = requests.Session()
        login_page = session.get(f"{base}/accounts/login/", timeout=10)
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', login_page.text).group(1)
        signed_in = session.post(
            f"{base}/accounts/login/",
            data={
                "username": "fuzz@example.org",
                "password": PASSWORD,
                "csrfmiddlewaretoken": token,
            },
            headers={"Referer": f"{base}/accounts/login/"},
            timeout=10,
        )
        assert signed_in.status_code == 200 and "sessionid" in session.cookies
        upload_url = f"{base}/manage/{club.slug}/events/{event.pk}/results/upload/"
        for n in range(SAMPLES):
            source = sources[n % len(sources)]
            # Every tenth file goes in whole, so the run shows acceptance too.
            data = source.read_bytes() if n % 10 == 0 else mutate(source.read_bytes(), rng)
            if n == SAMPLES - 1:
                data = b"001 " * (800_000)  # over the 2 MB limit
            version = Event.objects.get(pk=event.pk).edit_version
            response = session.post(
                upload_url,
                data={
                    "version": version,
                    "format": "auto",
                    "csrfmiddlewaretoken": session.cookies["csrftoken"],
                },
                files={"file": (source.name, data)},
                headers={"Referer": upload_url},
                timeout=30,
                allow_redirects=False,
            )
            statuses.append(response.status_code)
    finally:
        server.terminate()
        server.wait(timeout=10)
    assert [s for s in statuses if s >= 500] == []
    assert set(statuses) <= {200, 302, 400, 413}
    assert 302 in statuses and 200 in statuses  # some files were accepted, some refused
    # Whatever was accepted is whole: every game's entries belong to its event,
    # and uploads create no players (names are confirmed later).
    assert not Game.objects.exclude(white__event=event).filter(event=event).exists()
    assert (
        not Game.objects.filter(event=event, black__isnull=False)
        .exclude(black__event=event)
        .exists()
    )
    assert (
        not Entry.objects.filter(event=event, player__isnull=False)
        .exclude(player__club=club)
        .exists()
    )
    assert Player.objects.filter(club=club).count() == 0
    leftovers = {
        name for name in set(os.listdir(tempfile.gettempdir())) - temp_before
        if name.endswith(".upload") or name.startswith("tmp")
    }  # fmt: skip
    assert leftovers == set()
