"""A director through the test client: signed in, posting forms as a browser sends them, each
step timed with its number of queries."""

from __future__ import annotations

import re
import statistics
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from bench.kit.measure import row, table_head

if TYPE_CHECKING:
    from clubs.models import User


def signed_in(user: User):
    """A test client signed in as `user`."""
    from django.test import Client

    client = Client()
    client.force_login(user)
    return client


def post_form(client, url: str, data: dict[str, str]):
    """A form without a file, as a browser sends it: the test client's default, multipart,
    takes Django over a second to parse for the 6,000 fields of 2,000 names."""
    from django.utils.http import urlencode

    return client.post(url, urlencode(data), content_type="application/x-www-form-urlencoded")


def page(response) -> str:
    """A response's status and size, for the table; anything but 200 or 302 stops the bench."""
    assert response.status_code in {200, 302}, (response.status_code, response.content[:300])
    return f"{response.status_code}, {len(response.content) // 1024} KiB"


class Steps:
    """Steps measured in turn, each with the queries of its last run: the table they make."""

    def __init__(self) -> None:
        self.rows: list[tuple[str, list[float], int, str]] = []

    def measure(
        self,
        step: str,
        work: Callable[[], Any],
        note: Callable[[Any], str] = lambda value: "",
        *,
        runs: int = 1,
        undo: Callable[[], object] | None = None,
    ) -> Any:
        """`work` run `runs` times (`undo` untimed after each); returns its last value."""
        from django.db import connection
        from django.test.utils import CaptureQueriesContext

        times, queries, value = [], 0, None
        for _ in range(runs):
            with CaptureQueriesContext(connection) as captured:
                start = time.perf_counter()
                value = work()
                times.append(time.perf_counter() - start)
            queries = len(captured.captured_queries)
            if undo is not None:
                undo()
        self.rows.append((step, times, queries, note(value)))
        return value

    def print_table(self, ms_heading: str = "ms") -> None:
        """step | median ms | queries | response, as Markdown."""
        print(table_head("step", ms_heading, "queries", "response", align="lrrl"))
        for step, times, queries, note in self.rows:
            print(row(step, f"{statistics.median(times) * 1000:,.0f}", queries, note))


_INPUT = re.compile(r"<input [^>]*>")
_SELECT = re.compile(r'<select name="([^"]+)"[^>]*>(.*?)</select>', re.S)


def _attr(tag: str, name: str) -> str | None:
    found = re.search(rf'{name}="([^"]*)"', tag)
    return found.group(1) if found else None


def form_fields(html: str, action: str) -> dict[str, str]:
    """What a browser would send for the form posting to `action`, unchanged (radios as
    checked)."""
    import html as html_lib

    form = html[html.index(f'<form method="post" action="{action}"') :]
    form = form[: form.index("</form>")]
    data: dict[str, str] = {}
    for tag in _INPUT.findall(form):
        name, kind = _attr(tag, "name"), _attr(tag, "type")
        if name is None or (kind == "radio" and " checked" not in tag):
            continue
        data[name] = html_lib.unescape(_attr(tag, "value") or "")
    for name, options in _SELECT.findall(form):
        chosen = re.search(r'<option value="([^"]*)" selected', options)
        data[name] = chosen.group(1) if chosen else ""
    return data


def names_form(html: str, action: str) -> dict[str, str]:
    """The names form with every name decided: the checked choice, else a new player."""
    data = form_fields(html, action)
    for name in [name for name, value in data.items() if not value]:
        if name.startswith("decision_"):  # a select per name (earlier pages: radios)
            data[name] = "new"
    for tag in _INPUT.findall(html):
        name = _attr(tag, "name") or ""
        if name.startswith("decision_") and not data.get(name):
            data[name] = "new"
    return data
