"""Every message the code gives a person has its German translation, and only those: Babel's
extractor reads the messages from the code (a game's are its ``Say("...")`` literals), and
each catalogue is checked against them."""

import string
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

import referee

PACKAGE_ROOT = Path(referee.__file__).parent

# (package, gettext domain): the package's messages, and its catalogue at
# <package>/locale/<language>/LC_MESSAGES/<domain>.po
CATALOGUES = [("referee.bus", "bus"), ("referee.busboss", "busboss")]
LANGUAGES = ["de"]
# the keywords that mark a message in the code: a game's words are Say(msgid, params)
KEYWORDS = {"Say": None}
METHODS = [("**.py", "python")]


def package_folder(package: str) -> Path:
    return PACKAGE_ROOT.joinpath(*package.split(".")[1:])


def extracted(package: str) -> dict[str, str]:
    """The package's messages, each with where it was found first."""
    found: dict[str, str] = {}
    folder = package_folder(package)
    for file, line, message, _comments, _context in extract_from_dir(
        folder, METHODS, keywords=KEYWORDS
    ):
        msgid = message[0] if isinstance(message, tuple) else message
        found.setdefault(msgid, f"{package}: {file}:{line}")
    return found


def catalogue(package: str, domain: str, language: str) -> Catalog:
    path = package_folder(package) / "locale" / language / "LC_MESSAGES" / f"{domain}.po"
    with path.open("rb") as po:
        return read_po(po, locale=language)


def fields(text: str) -> list[tuple[str, str | None]]:
    """The ``{fields}`` of a wording, with their conversions (``!r``), in sorted order."""
    return sorted(
        (name, conversion)
        for _, name, _, conversion in string.Formatter().parse(text)
        if name is not None
    )


CASES = [(p, d, lang) for p, d in CATALOGUES for lang in LANGUAGES]


@pytest.mark.parametrize(("package", "domain", "language"), CASES)
def test_every_message_of_the_code_has_its_translation(package, domain, language):
    translated = catalogue(package, domain, language)
    missing = [
        f"{where}: {msgid!r}"
        for msgid, where in extracted(package).items()
        if not (translated.get(msgid) and translated[msgid].string)
    ]
    assert missing == [], f"{len(missing)} messages without a {language} translation"


@pytest.mark.parametrize(("package", "domain", "language"), CASES)
def test_the_catalogue_holds_no_stale_message(package, domain, language):
    """A message the code no longer says (or says otherwise) is gone from the catalogue too,
    so that a translator never keeps up wording nobody reads."""
    translated = catalogue(package, domain, language)
    in_code = extracted(package)
    stale = [m.id for m in translated if m.id and m.id not in in_code]
    assert stale == [] and not translated.obsolete


@pytest.mark.parametrize(("package", "domain", "language"), CASES)
def test_a_translation_has_the_fields_of_its_message(package, domain, language):
    """A field lost or misspelt in a translation would fail only when a reader of that
    language met the message."""
    wrong = [
        (m.id, m.string)
        for m in catalogue(package, domain, language)
        if m.id and m.string and fields(m.id) != fields(m.string)
    ]
    assert wrong == []


def test_a_translation_that_lost_a_field_is_found():
    """The check of fields is no check of nothing: a translation without {todo}, or with a
    field spelt otherwise, or without its !r, differs from its message."""
    message = "Buildings: erect {todo} more building(s) in zone {zone}."
    assert fields(message) == [("todo", None), ("zone", None)]
    assert fields("Neue Gebäude in Zone {zone}.") != fields(message)
    assert fields("Baue {anzahl} Gebäude in Zone {zone}.") != fields(message)
    assert fields("{word} ist keine Zahl") != fields("{word!r} is not a crossing number")
