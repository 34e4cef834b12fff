"""Every message the code gives a person has its German translation, and only those: Babel's
extractor reads the messages from the code (a game's are its ``Say("...")`` literals; the
shared catalogue's are the templates' ``{% trans %}`` blocks and ``_()``, and the shared
code's ``Say``), and each catalogue is checked against them."""

import re
import string
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

import referee
from referee import registry
from referee.words.render import MAIL_WIDTH

PACKAGE_ROOT = Path(referee.__file__).parent

# (package, gettext domain): the package's messages, and its catalogue at
# <package>/locale/<language>/LC_MESSAGES/<domain>.po; the shared catalogue ("referee") holds
# the words of the templates and of the shared code, the games' their own
CATALOGUES = [("referee.bus", "bus"), ("referee.busboss", "busboss"), ("referee", "referee")]
LANGUAGES = ["de"]
# the keywords that mark a message in the code: a game's words are Say(msgid, params), a
# template's gettext's (Jinja's i18n extension: {% trans %}, _(), ngettext())
KEYWORDS = {"Say": None, "_": None, "gettext": None, "ngettext": (1, 2)}
METHODS = [("**.py", "python")]
# the templates, as the referee's environment reads them (words.render)
TEMPLATES = [("**.txt", "jinja2"), ("**.html", "jinja2")]
TEMPLATE_OPTIONS = {
    pattern: {"extensions": "jinja2.ext.i18n", "trimmed": "true"} for pattern, _ in TEMPLATES
}


def package_folder(package: str) -> Path:
    return PACKAGE_ROOT.joinpath(*package.split(".")[1:])


def extracted(package: str) -> dict[str | tuple[str, ...], str]:
    """The package's messages, each with where it was found first: the shared package's
    without its games' (each has its own catalogue), with the templates'."""
    found: dict[str | tuple[str, ...], str] = {}
    folder = package_folder(package)
    games = [(f"{g}/**", "ignore") for g in registry.names()] if package == "referee" else []
    sources = [(folder, games + METHODS, {})]
    if package == "referee":  # (the folder is a link, which the extractor would not follow)
        sources.append(((folder / "templates").resolve(), TEMPLATES, TEMPLATE_OPTIONS))
    for where, methods, options in sources:
        for file, line, message, _comments, _context in extract_from_dir(
            where, methods, options, keywords=KEYWORDS
        ):
            found.setdefault(message, f"{package}: {file}:{line}")
    return found


def msgid(message: str | tuple[str, ...]) -> str:
    """A message's id in a catalogue: a plural's is its singular."""
    return message[0] if isinstance(message, tuple) else message


def catalogue(package: str, domain: str, language: str) -> Catalog:
    path = package_folder(package) / "locale" / language / "LC_MESSAGES" / f"{domain}.po"
    with path.open("rb") as po:
        return read_po(po, locale=language)


def fields(text: str) -> list[tuple[str, str | None]]:
    """The ``{fields}`` of a wording, with their conversions (``!r``), in sorted order; a
    template's message has ``%(fields)s`` instead (Jinja's newstyle gettext), each once."""
    if "%(" in text:
        return sorted({(name, kind) for name, kind in re.findall(r"%\((\w+)\)(\w)", text)})
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
        f"{where}: {message!r}"
        for message, where in extracted(package).items()
        if not (translated.get(msgid(message)) and all(forms(translated[msgid(message)].string)))
    ]
    assert missing == [], f"{len(missing)} messages without a {language} translation"


@pytest.mark.parametrize(("package", "domain", "language"), CASES)
def test_the_catalogue_holds_no_stale_message(package, domain, language):
    """A message the code no longer says (or says otherwise) is gone from the catalogue too,
    so that a translator never keeps up wording nobody reads."""
    translated = catalogue(package, domain, language)
    in_code = extracted(package)
    stale = [m.id for m in translated if m.id and m.id not in in_code]
    # and a translation made from another wording (fuzzy) is no translation
    assert [m.id for m in translated if m.id and m.fuzzy] == []
    assert stale == [] and not translated.obsolete


@pytest.mark.parametrize(("package", "domain", "language"), CASES)
def test_a_translation_has_the_fields_of_its_message(package, domain, language):
    """A field lost or misspelt in a translation would fail only when a reader of that
    language met the message."""
    wrong = [
        (m.id, m.string)
        for m in catalogue(package, domain, language)
        for text in forms(m.string)
        if m.id and text and fields(forms(m.id)[-1]) != fields(text)
    ]
    assert wrong == []


@pytest.mark.parametrize(("package", "domain", "language"), CASES)
def test_a_translation_laid_out_in_lines_keeps_to_the_mails_width(package, domain, language):
    """A message the templates lay out in lines (a table, a paragraph of the welcome) is
    sent as it is written: each of its lines fits a mail's plain text as the English does."""
    long = [
        line
        for m in catalogue(package, domain, language)
        if m.id and "\n" in forms(m.id)[0]
        for text in forms(m.string)
        for line in text.splitlines()
        if len(line) > MAIL_WIDTH - 2
    ]
    assert long == []


def forms(text: str | tuple[str, ...]) -> tuple[str, ...]:
    """A message's or a translation's forms: one, or a plural's each."""
    return text if isinstance(text, tuple) else (text,)


# Bus's terms in German are the German rules summary's (each catalogue's glossary): the
# words it does not use, and which one mail would otherwise mix with its own
NOT_THE_SUMMARYS = ("Fahrgast", "Fahrgäste", "Haltestelle", "Linienerweiterung", "Buskauf")


@pytest.mark.parametrize(("package", "domain"), CATALOGUES)
def test_the_german_words_for_buss_things_are_the_rules_summarys(package, domain):
    """One mail says "Streckenbau" on its map and in its help alike, "Passagier" in its
    events and its help: never another German word for the same thing."""
    found = [
        (m.id, word)
        for m in catalogue(package, domain, "de")
        for word in NOT_THE_SUMMARYS
        if m.id and word in "".join(forms(m.string))
    ]
    assert found == []


def test_a_translation_that_lost_a_field_is_found():
    """The check of fields is no check of nothing: a translation without {todo}, or with a
    field spelt otherwise, or without its !r, differs from its message."""
    message = "Buildings: erect {todo} more building(s) in zone {zone}."
    assert fields(message) == [("todo", None), ("zone", None)]
    assert fields("Neue Gebäude in Zone {zone}.") != fields(message)
    assert fields("Baue {anzahl} Gebäude in Zone {zone}.") != fields(message)
    assert fields("{word} ist keine Zahl") != fields("{word!r} is not a crossing number")
