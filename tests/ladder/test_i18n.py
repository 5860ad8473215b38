"""The interface in English, Dutch, German and Hindi; who decides which one a page is in."""

import ast
import re
import shutil
import subprocess
import sys
from pathlib import Path
from urllib.parse import unquote

import pytest
from django.conf import settings
from django.test import override_settings
from django.urls import reverse
from django.utils import timezone

from clubs.models import Club
from members.web.language import accepted_languages
from tests.conftest import IN_CI
from tests.factories import make_club, new_player

ROOT = Path(__file__).resolve().parents[2]
LOCALE = ROOT / "locale"
TRANSLATED = ["nl", "de", "hi"]


# --- the catalogues ---------------------------------------------------------------------------


def po_entries(path: Path) -> list[dict]:
    """The entries of a .po file: flags, msgid, msgid_plural and every msgstr, unescaped."""
    entries: list[dict] = []
    entry: dict = {"flags": set(), "obsolete": False}
    field = None

    def finish() -> None:
        nonlocal entry
        if "msgid" in entry:
            entries.append(entry)
        entry = {"flags": set(), "obsolete": False}

    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line:
            finish()
            field = None
        elif line.startswith("#~"):
            entry["obsolete"] = True
        elif line.startswith("#,"):
            entry["flags"].update(flag.strip() for flag in line[2:].split(","))
        elif line.startswith("#"):
            continue
        elif line.startswith('"'):
            entry[field] += _unquote(line)
        else:
            keyword, _, value = line.partition(" ")
            if keyword == "msgid" and "msgid" in entry:
                finish()
            field = keyword
            entry[field] = _unquote(value)
    finish()
    return entries


def _unquote(text: str) -> str:
    return text.strip()[1:-1].encode("latin-1", "backslashreplace").decode("unicode_escape")


def msgstrs(entry: dict) -> list[str]:
    return [value for key, value in entry.items() if key.startswith("msgstr")]


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_entry_of_the_catalogue_is_translated_and_none_is_fuzzy(language):
    path = LOCALE / language / "LC_MESSAGES" / "django.po"
    entries = po_entries(path)
    assert len(entries) > 100
    header, *messages = entries
    assert header["msgid"] == "" and "fuzzy" not in header["flags"]
    assert f"Language: {language}" in header["msgstr"]
    untranslated = [e["msgid"] for e in messages if not all(msgstrs(e))]
    fuzzy = [e["msgid"] for e in messages if "fuzzy" in e["flags"]]
    assert untranslated == []
    assert fuzzy == []
    assert not [e["msgid"] for e in messages if e["obsolete"]]


PLACEHOLDER = re.compile(r"%\(\w+\)[sd]")


@pytest.mark.parametrize("language", TRANSLATED)
def test_translations_keep_their_placeholders(language):
    for entry in po_entries(LOCALE / language / "LC_MESSAGES" / "django.po")[1:]:
        source = set(PLACEHOLDER.findall(entry["msgid"] + entry.get("msgid_plural", "")))
        for text in msgstrs(entry):
            found = set(PLACEHOLDER.findall(text))
            if "msgid_plural" in entry:
                assert found <= source, entry["msgid"]  # "one game" needs no number
            else:
                assert found == source, entry["msgid"]


@pytest.mark.skipif(shutil.which("xgettext") is None, reason="needs GNU gettext (xgettext)")
def test_the_catalogues_cover_every_string_of_the_project(tmp_path):
    """makemessages on a copy of the project finds no message the catalogues lack."""
    copy = tmp_path / "project"
    shutil.copytree(
        ROOT,
        copy,
        ignore=shutil.ignore_patterns(".venv", ".git", "var", "node_modules", "*.mo", ".*cache"),
    )
    subprocess.run(
        [
            sys.executable,
            "manage.py",
            "makemessages",
            "-l",
            "nl",
            "--ignore=.venv",
            "--ignore=tests",
            "--no-obsolete",
        ],
        cwd=copy,
        check=True,
        capture_output=True,
        env={"DEBUG": "true", "PATH": "/usr/bin:/bin:/usr/local/bin"},
    )
    extracted = {e["msgid"] for e in po_entries(copy / "locale/nl/LC_MESSAGES/django.po")}
    ours = {e["msgid"] for e in po_entries(LOCALE / "nl/LC_MESSAGES/django.po")}
    assert sorted(extracted - ours) == []


GETTEXT_NAMES = {"_", "gettext", "gettext_lazy", "ngettext", "ngettext_lazy", "pgettext",
                 "pgettext_lazy", "npgettext", "npgettext_lazy"}  # fmt: skip


def code_msgids() -> set[tuple[str, str]]:
    """(context, msgid) of every gettext call with a literal in the apps' Python code.

    Read with ast, which also sees a call inside an f-string: xgettext does not, so the
    makemessages test above misses those (issue 23 found "(shared first place)" so)."""
    found: set[tuple[str, str]] = set()
    for app in ("clubs", "ladder", "matching", "billing", "members", "directors", "config"):
        for path in (ROOT / app).rglob("*.py"):
            if "migrations" in path.parts:
                continue
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if not isinstance(node, ast.Call) or not node.args:
                    continue
                name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
                if name not in GETTEXT_NAMES:
                    continue
                literals = [a.value for a in node.args if isinstance(a, ast.Constant)]
                if not literals or not all(isinstance(v, str) for v in literals[:2]):
                    continue
                context = literals[0] if name.startswith(("pgettext", "npgettext")) else ""
                msgid = literals[1] if context else literals[0]
                found.add((context, msgid))
    return found


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_message_the_code_asks_for_is_translated_even_inside_an_f_string(language):
    entries = po_entries(LOCALE / language / "LC_MESSAGES" / "django.po")[1:]
    translated = {
        (e.get("msgctxt", ""), e["msgid"])
        for e in entries
        if all(msgstrs(e)) and "fuzzy" not in e["flags"]
    }
    missing = sorted(m for m in code_msgids() - translated if m[1])
    assert missing == []


# --- compiled catalogues for the page tests ---------------------------------------------------


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_committed_mo_files_are_compiled_from_their_catalogues(language, tmp_path):
    """The .mo files are committed so a fresh checkout needs no gettext; they must be current."""
    if shutil.which("msgfmt") is None:
        if IN_CI:
            pytest.fail("CI=true but msgfmt (gettext) is not installed")
        pytest.skip("msgfmt (gettext) is not installed")
    po = LOCALE / language / "LC_MESSAGES" / "django.po"
    fresh = tmp_path / "django.mo"
    subprocess.run(["msgfmt", "--check", "-o", str(fresh), str(po)], check=True)
    assert fresh.read_bytes() == po.with_suffix(".mo").read_bytes(), (
        "run: DEBUG=true .venv/bin/python manage.py compilemessages --ignore=.venv"
    )


@pytest.fixture(scope="module")
def compiled():
    # Changing LOCALE_PATHS makes Django forget the catalogues it already loaded.
    with override_settings(LOCALE_PATHS=list(settings.LOCALE_PATHS)):
        yield


@pytest.fixture
def public(db, owner, compiled):
    club = make_club(slug="knights", owner=owner, visibility=Club.Visibility.PUBLIC)
    new_player(
        club=club,
        name="Ann Alder",
        rating=1500.4,
        rated_games=30,
        provisional=False,
        last_played=timezone.localdate().replace(day=10, month=1),
        last_change=12.26,
    )
    return club


LADDER_WORD = {"en": "Ladder", "nl": "Ranglijst", "de": "Rangliste", "hi": "रैंकिंग सूची"}


def heading(response) -> str:
    return re.search(r"<h1>(.*?)</h1>", response.content.decode()).group(1)


def test_pages_are_in_english_by_default(client, public):
    response = client.get(reverse("club_page", args=[public.slug]))
    assert heading(response) == "Ladder"
    assert '<html lang="en">' in response.content.decode()


@pytest.mark.parametrize("language", ["nl", "de", "hi"])
def test_the_club_default_language_is_used_when_the_visitor_has_none(client, public, language):
    public.language = language
    public.save()
    response = client.get(reverse("club_page", args=[public.slug]))
    assert heading(response) == LADDER_WORD[language]
    assert f'<html lang="{language}">' in response.content.decode()
    assert response["Content-Language"] == language


def test_the_browsers_language_wins_over_the_clubs(client, public):
    public.language = "nl"
    public.save()
    path = reverse("club_page", args=[public.slug])
    assert heading(client.get(path, HTTP_ACCEPT_LANGUAGE="de-DE,de;q=0.9,en;q=0.5")) == "Rangliste"
    assert heading(client.get(path, HTTP_ACCEPT_LANGUAGE="en-GB,en;q=0.9")) == "Ladder"
    # A browser asking only for languages we do not offer gets the club's.
    assert heading(client.get(path, HTTP_ACCEPT_LANGUAGE="fr-FR,fr;q=0.9,*;q=0.1")) == "Ranglijst"


def test_the_visitors_own_choice_wins_over_browser_and_club(client, public):
    public.language = "nl"
    public.save()
    path = reverse("club_page", args=[public.slug])
    response = client.get(reverse("choose_language", args=["hi"]), {"next": path})
    assert response.status_code == 302 and response["Location"] == path
    assert heading(client.get(path, HTTP_ACCEPT_LANGUAGE="de")) == LADDER_WORD["hi"]


def test_the_switcher_never_sends_a_visitor_off_the_site(client, public):
    for target in ["https://evil.example/", "//evil.example/", "javascript:alert(1)"]:
        response = client.get(reverse("choose_language", args=["de"]), {"next": target})
        assert response.status_code == 302 and response["Location"] == reverse("home")
    assert client.cookies["django_language"].value == "de"


def test_the_switcher_knows_only_our_four_languages(client):
    response = client.get(reverse("choose_language", args=["fr"]), {"next": "/"})
    assert response.status_code == 404
    assert "django_language" not in response.cookies


def test_every_page_has_the_language_switcher(client, public):
    player = public.players.get()
    paths = [
        reverse("home"),
        reverse("club_directory"),
        reverse("club_page", args=[public.slug]),
        reverse("club_roster", args=[public.slug]),
        reverse("club_player", args=[public.slug, player.pk]),
        reverse("club_events", args=[public.slug]),
        reverse("login"),
    ]
    for path in paths:
        html = client.get(path).content.decode()
        switcher = re.search(r'<nav class="languages".*?</nav>', html, re.S)
        assert switcher, path
        links = re.findall(
            r'<a href="/i18n/(\w+)/\?next=([^"]*)" hreflang="\w+"', switcher.group(0)
        )
        assert [code for code, _next in links] == ["en", "nl", "de", "hi"], path
        assert {unquote(back) for _code, back in links} == {path}


def test_each_language_is_offered_in_its_own_name(client, public):
    html = client.get(reverse("club_page", args=[public.slug])).content.decode()
    for name in ["English", "Nederlands", "Deutsch", "हिंदी"]:
        assert f">{name}</a>" in html


def test_dates_and_numbers_follow_the_pages_language(client, public):
    path = reverse("club_page", args=[public.slug])
    year = timezone.localdate().year
    english = client.get(path, HTTP_ACCEPT_LANGUAGE="en")
    german = client.get(path, HTTP_ACCEPT_LANGUAGE="de")
    dutch = client.get(path, HTTP_ACCEPT_LANGUAGE="nl")
    assert f"10 Jan {year}" in english.content.decode() and "+12.3" in english.content.decode()
    assert f"10. Jan. {year}" in german.content.decode() and "+12,3" in german.content.decode()
    assert f"10 jan {year}" in dutch.content.decode() and "+12,3" in dutch.content.decode()


def test_the_player_page_speaks_the_language_too(client, public):
    player = public.players.get()
    path = reverse("club_player", args=[public.slug, player.pk])
    html = client.get(path, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Gesamtbilanz" in html


def test_hindi_renders_with_the_shipped_devanagari_font(client):
    css = (ROOT / "static/css/site.css").read_text()
    faces = re.findall(r"@font-face\s*{[^}]*}", css)
    assert faces and all("Noto Sans Devanagari" in face for face in faces)
    for face in faces:
        font = re.search(r'url\("\.\./fonts/([^"]+\.woff2)"\)', face).group(1)
        assert (ROOT / "static/fonts" / font).stat().st_size > 10_000
        assert "unicode-range: U+0900-097F" in face
    assert (
        "SIL Open Font License" in (ROOT / "static/fonts/OFL-noto-sans-devanagari.txt").read_text()
    )
    assert '"Noto Sans Devanagari"' in css.split(":root", 1)[1]


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ("de-DE,de;q=0.9,en;q=0.8", ["de-DE", "de", "en"]),
        ("en;q=0.1, nl", ["nl", "en"]),
        ("fr;q=0, hi", ["hi"]),
        ("", []),
        ("nl;q=bogus, de", ["de"]),
    ],
)
def test_accept_language_is_read_by_preference(header, expected):
    assert accepted_languages(header) == expected
