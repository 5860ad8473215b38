"""Dutch and German pages address the reader informally everywhere (issue 23): je, du."""

import re

import pytest
from django.contrib.auth.password_validation import password_validators_help_texts
from django.utils import translation

from tests.ladder.test_i18n import LOCALE, msgstrs, po_entries

# The formal pronouns, as whole words. Dutch "u"/"uw" is only ever the pronoun. German "Sie"
# and "Ihr..." capitalised mid-sentence are only the formal address; at a sentence's start
# they could be "they"/"her", so the catalogue words those sentences otherwise (a name, "die
# beiden", or lower case after a colon) rather than keep a list of exceptions here.
FORMAL = {
    "nl": re.compile(r"\b(u|uw|uzelf)\b", re.IGNORECASE),
    "de": re.compile(r"\b(Sie|Ihr|Ihre|Ihren|Ihrem|Ihrer|Ihres|Ihnen)\b"),
}
PLACEHOLDER = re.compile(r"%\(\w+\)[sd]|\{\w+\}")


def formal_translations(language: str) -> list[tuple[str, str]]:
    found = []
    for entry in po_entries(LOCALE / language / "LC_MESSAGES" / "django.po")[1:]:
        for text in msgstrs(entry):
            if FORMAL[language].search(PLACEHOLDER.sub("", text)):
                found.append((entry["msgid"], text))
    return found


@pytest.mark.parametrize("language", ["nl", "de"])
def test_no_translation_addresses_the_reader_formally(language):
    assert formal_translations(language) == []


@pytest.mark.parametrize(
    ("language", "text"),
    [
        ("nl", "Was u het niet, negeer dit bericht dan."),
        ("nl", "Kijk in Uw e-mail"),
        ("de", "Bitte versuchen Sie es später erneut."),
        ("de", "Prüfen Sie Ihre E-Mails"),
    ],
)
def test_the_check_catches_a_formal_sentence(language, text):
    assert FORMAL[language].search(text)


@pytest.mark.parametrize(
    ("language", "text"),
    [
        ("nl", "Was jij het niet, negeer dit bericht dan; je wachtwoord blijft zoals het is."),
        ("nl", "Bevestig %(u)s voordat je publiceert."),
        ("de", "Prüfe deine E-Mails"),
        ("de", "daher ist die Änderung noch nicht gespeichert: sie wird übernommen"),
    ],
)
def test_the_check_passes_an_informal_sentence(language, text):
    assert not FORMAL[language].search(PLACEHOLDER.sub("", text))


def test_djangos_password_help_under_a_new_password_is_informal_in_dutch_too():
    """The set-password forms show Django's own help texts; its Dutch says "uw"."""
    with translation.override("nl"):
        texts = [str(text) for text in password_validators_help_texts()]
    assert len(texts) == 4
    assert all(text.startswith("Je wachtwoord") for text in texts), texts
    assert not [text for text in texts if FORMAL["nl"].search(text)]
