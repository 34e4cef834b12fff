"""Checks that more than one described file asks of its values (``schema.setting(check=)``)."""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from functools import cache, lru_cache
from importlib import resources
from typing import Literal

from ..mail.headers import has_encoded_word, unprintable

Language = Literal["en", "de"]
"""The languages the referee writes in, by their codes (``words.language`` words them)."""

# an address as a person writes it into a file: local part, @, domain, nothing that belongs
# around an address (a name, brackets, a comma); mail/read.py parses what comes by mail
ADDRESS = re.compile(r"[^@\s<>()\[\],;:\"]+@[^@\s<>()\[\],;:\".]+(\.[^@\s<>()\[\],;:\".]+)*")


def mail_address(example: str) -> Callable[[str], str]:
    """A check: a mail address (kept in lower case), told with ``example`` when it is not."""

    def check(address: str) -> str:
        if not ADDRESS.fullmatch(address):
            raise ValueError(f"{address!r} is not a mail address like {example}")
        return address.lower()

    return check


# a campaign's id, also the name of its folder (the store tells campaigns by it)
ID_PATTERN = re.compile(r"^[a-z0-9][a-z0-9-]{0,31}$")


def matching(pattern: re.Pattern, what: str) -> Callable[[str], str]:
    """A check: a text ``pattern`` matches, told as not being ``what`` when it does not."""

    def check(text: str) -> str:
        if not pattern.match(text):
            raise ValueError(f"{text!r} is not {what}")
        return text

    return check


campaign_id = matching(
    ID_PATTERN,
    "a campaign id: use 1 to 32 lowercase letters, digits and dashes, starting with a letter "
    "or digit",
)

# a player's (or the game master's) token, as a mail carries it (its plus-address, read
# lowercase, and split from the campaign's id at the dot)
TOKEN_PATTERN = re.compile(r"^[a-z0-9_-]{1,64}$")
player_token = matching(
    TOKEN_PATTERN,
    "a token: use 1 to 64 lowercase letters, digits, '-' and '_' (a mail carries it in its "
    "address)",
)


NAME_MOST = 64  # characters of a player's (or a game master's) name
# the characters that turn the direction of what follows them: a name that held one could
# turn the rest of a report's line around, or pass for another player's name
DIRECTION_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def name_problem(name: str) -> str | None:
    """Why ``name`` (decoded, ``mail.headers.decoded_once``) cannot be a player's name, as
    the key of the reason told (``empty``, ``unprintable``, ``encoded``, ``too_long``), or
    None: a name goes into the headers of every mail to the campaign's players, so it holds
    no control character or line break, no encoded word, and at most NAME_MOST characters;
    and into every report, so no control of the text's direction either."""
    if not name.strip():
        return "empty"
    if unprintable(name) or not DIRECTION_CONTROLS.isdisjoint(name):
        return "unprintable"
    if has_encoded_word(name):
        return "encoded"
    if len(name) > NAME_MOST:
        return "too_long"
    return None


def player_name(name: str) -> str:
    """A check: a name as campaign.yaml keeps it (see ``name_problem``)."""
    problem = name_problem(name) if name else None
    if problem == "unprintable":
        raise ValueError(
            f"{name!r} holds a control character, a line break or a direction override"
        )
    if problem == "encoded":
        raise ValueError(f"{name!r} holds an encoded word (=?...?=): write the name itself")
    if problem == "too_long":
        raise ValueError(f"{name!r} is longer than {NAME_MOST} characters")
    return name


# what a player may not be named like, as it is the referee's own or stands for it (beside
# the site's own name, which the site's checks add)
ROLES = ("referee", "game master", "gm", "admin", "postmaster")
# whom a name was taken for (``name_taken``), as a game master reads it beside the name
WHOM = {
    "player": "another player's name",
    "gm": "the game master's name",
    "role": "a word for the referee or those who run it",
}


@cache
def _prototypes() -> dict[int, str]:
    """Unicode's table of look-alikes (UTS #39, shipped as ``confusables.json``, made from
    the table Unicode publishes by ``settings.confusables``): each character that can be
    taken for another, to the prototype it is taken for."""
    text = resources.files(__package__).joinpath("confusables.json").read_text("ascii")
    return str.maketrans(json.loads(text))


@lru_cache(maxsize=4096)  # a campaign's names are checked again at each load of its file
def skeletons(name: str) -> frozenset[str]:
    """What ``name`` looks like (its confusable skeletons, UTS #39), as written and case
    folded, its spaces, punctuation and invisible characters left out: two names that share
    one pass for each other (Аnn, with a Cyrillic А, and Ann; ANN in Greek capitals and ANN;
    Game-Master and gamemaster)."""
    kept = "".join(
        c for c in unicodedata.normalize("NFKC", name) if unicodedata.category(c)[0] not in "ZPC"
    )
    table = _prototypes()
    return frozenset(
        unicodedata.normalize("NFD", unicodedata.normalize("NFD", form).translate(table))
        for form in (kept, kept.casefold())
    )


def look_alike(name: str, others: Iterable[str]) -> str | None:
    """The first of ``others`` that ``name`` could be taken for (``skeletons``), or None."""
    own = skeletons(name)
    return next((other for other in others if not own.isdisjoint(skeletons(other))), None)


def name_taken(
    name: str,
    address: str,
    players: Iterable[tuple[str, str]],
    gm: tuple[str, str] | None,
    roles: Iterable[str] = ROLES,
) -> tuple[str, str] | None:
    """Whom a player called ``name`` (at ``address``) could be taken for: ("player", their
    name) for one of ``players`` (name, address), ("gm", their name) for the game master,
    ("role", the word) for one of ``roles``, in any script (``look_alike``); or None. A
    person is never taken for themselves (the same address: a game master who plays)."""
    address = address.lower()
    candidates = (
        ("player", [n for n, a in players if a.lower() != address]),
        ("gm", [gm[0]] if gm and gm[1].lower() != address else []),
        ("role", list(roles)),
    )
    for whom, names in candidates:
        other = look_alike(name, names)
        if other is not None:
            return whom, other
    return None


def first_taken(
    players: Sequence[tuple[str, str]], gm: tuple[str, str] | None
) -> tuple[int, tuple[str, str]] | None:
    """The first of ``players`` (name, address) whose name could be taken for an earlier
    player's, the game master's or a role's (``name_taken``): their seat and whom; None
    when none could."""
    for seat, (name, address) in enumerate(players):
        taken = name_taken(name, address, players[:seat], gm)
        if taken is not None:
            return seat, taken
    return None
