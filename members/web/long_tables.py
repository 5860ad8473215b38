"""A long table's rows put into its page after the template has rendered it.

Django's templates copy a page's text at every level a value is nested in: each `if`,
`block` and `extends` joins its parts into a new string, and marks it safe in another. The
600 KB of a 2,284-player ladder's rows were thus copied a dozen times, a fifth of the page's
time (issue 34). The template writes `ROWS_HERE` where the rows go, and `with_rows` puts
them in once. The rows themselves are built as before (members.pages.tables), escaped there;
the ladder's and the roster's come as UTF-8 bytes, most of them kept with the roster.
"""

from __future__ import annotations

from django.http import HttpResponse
from django.utils.safestring import SafeString, mark_safe

# An HTML comment: no escaped text can hold one ("<" is always escaped), so the one place
# it is found is where the template wrote it.
ROWS_HERE: SafeString = mark_safe("<!--rows-->")
_MARK = ROWS_HERE.encode()


def with_rows(response: HttpResponse, rows: str | bytes) -> HttpResponse:
    """`response` with `rows` (text, or its UTF-8 bytes) in place of ROWS_HERE (the first,
    and only, one)."""
    if response.status_code == 200 and not response.streaming:
        written = rows if isinstance(rows, bytes) else rows.encode()
        response.content = response.content.replace(_MARK, written, 1)
    return response
