"""The languages a person may read the referee's mail in, and the catalogues that word it.

A reader reads their own choice (the ``language`` command, or ``language de`` when joining),
else their campaign's (``language:`` in campaign.yaml), else the site's (``language:`` in
referee.yaml), else English. The words of the templates, the message macros and the records
(``contract.Say``) are English in the code; another language's are gettext catalogues, the
shared one (``referee/locale/<lang>/LC_MESSAGES/referee.po``) and each game's own
(``<game package>/locale/<lang>/LC_MESSAGES/<game>.po``, domain the game's name), read with
Babel when a reader of that language is first written to: a tick that writes English only
imports no Babel and reads no catalogue. A message missing from a catalogue, or a catalogue
missing, reads in English.

What is worded is worded in the language being read (``reading``): each mail is rendered
inside it, for its one reader.
"""

from __future__ import annotations

import contextlib
import functools
import io
from collections.abc import Iterator
from contextvars import ContextVar
from importlib import resources
from typing import TYPE_CHECKING, Any

from .. import registry
from ..contract import Say
from ..settings.deadlines import Shown
from ..store.campaign import Campaign, Player

if TYPE_CHECKING:
    import gettext as gettext_module

ENGLISH = "en"
LANGUAGES = {"en": "English", "de": "Deutsch"}
"""The languages offered, by their code (BCP 47, as Content-Language and the HTML say)."""

# the words a person may write for a language, beside its code
_NAMES = {
    "english": "en",
    "englisch": "en",
    "german": "de",
    "deutsch": "de",
}

SHARED = "referee"  # the shared catalogue's domain (and package)

_reading: ContextVar[tuple[str, str | None]] = ContextVar("reading", default=(ENGLISH, None))


def known(written: str) -> str | None:
    """The language a person wrote ('de', 'DE', 'Deutsch', 'german'), as its code; None
    when it is not one offered."""
    word = written.strip().lower()
    return word if word in LANGUAGES else _NAMES.get(word)


def reader_language(own: str | None, campaign: str | None = None, site: str | None = None) -> str:
    """The language a reader reads: their own choice, else the campaign's, else the site's,
    else English."""
    return own or campaign or site or ENGLISH


def reading_in(
    campaign: Campaign, person: Player | None, site: str
) -> contextlib.AbstractContextManager[None]:
    """Words said inside are in the language ``person`` reads in ``campaign`` (None: one
    with no choice of their own there, an observer), on a site that writes ``site``."""
    own = person.language if person else None
    return reading(reader_language(own, campaign.config.language, site), campaign.game)


@contextlib.contextmanager
def reading(language: str, game: str | None = None) -> Iterator[None]:
    """Words said inside are in ``language``; a game's own words from ``game``'s catalogue
    before the shared one."""
    token = _reading.set((language, game))
    try:
        yield
    finally:
        _reading.reset(token)


def current() -> str:
    """The language being read."""
    return _reading.get()[0]


def gettext(message: str) -> str:
    language, game = _reading.get()
    if language == ENGLISH:
        return message
    return translations(language, game).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    language, game = _reading.get()
    if language == ENGLISH:
        return singular if n == 1 else plural
    return translations(language, game).ngettext(singular, plural, n)


def word(value: Any) -> Any:
    """A game's or a record's words (``contract.Say``) in the language being read, their
    fields worded too, and a time (``Shown``) as its readers write it; any other value as
    it is."""
    if isinstance(value, Shown):
        return value.worded(current())
    if not isinstance(value, Say):
        return value
    text = gettext(value.text)
    if not value.params:
        return text
    return text.format(**{key: word(field) for key, field in value.params.items()})


@functools.cache
def translations(language: str, game: str | None) -> gettext_module.NullTranslations:
    """The catalogues of ``language``: the game's own, falling back to the shared one,
    falling back to the English of the code."""
    import gettext as gettext_module

    shared = _catalogue(language, SHARED, SHARED) or gettext_module.NullTranslations()
    own = _catalogue(language, registry.package(game), game) if game else None
    if own is None:
        return shared
    own.add_fallback(shared)
    return own


@functools.cache  # the shared catalogue read once, for every game's
def _catalogue(language: str, package: str, domain: str) -> gettext_module.GNUTranslations | None:
    """A catalogue as Babel reads it from its .po file (no compile step), or None if there is
    none; fuzzy entries are left out, as gettext's compiler leaves them."""
    import gettext as gettext_module

    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    path = resources.files(package).joinpath("locale", language, "LC_MESSAGES", f"{domain}.po")
    if not path.is_file():
        return None
    with path.open("rb") as po:
        catalog = read_po(po, locale=language, domain=domain)
    compiled = io.BytesIO()
    write_mo(compiled, catalog)
    compiled.seek(0)
    return gettext_module.GNUTranslations(compiled)
