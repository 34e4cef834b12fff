"""Lines as people write them that are no orders: a near-miss of an order's first word
("biuld pub 21"), told with a suggestion, and prose (a signature, a remark), passed over."""

from __future__ import annotations

import re
from functools import cache

from .. import registry
from ..contract import Entry, NotationError
from ..mail.read import fold
from ..words.render import help_text

# what orders never hold and sentences and signatures often do
PROSE_MARKS = re.compile(r"[&!?@;]|\b(the|and|you|your|my|thanks|regards|please)\b", re.I)
EXAMPLE = re.compile(r"^ {4}([a-z]+)\b")  # an order in a game's help: four spaces, a word


def looks_like_prose(line: str) -> bool:
    """A sentence or a signature rather than an order that went wrong."""
    return bool(PROSE_MARKS.search(line)) or len(line.split()) > 8


@cache
def _verbs(game: str) -> tuple[str, ...]:
    """The first words of the orders in the game's help."""
    found = [m.group(1) for m in map(EXAMPLE.match, help_text(game).splitlines()) if m]
    return tuple(dict.fromkeys(found))


def order_verbs(rules) -> tuple[str, ...]:
    for name in registry.names():
        if registry.get(name).rules is rules:
            return _verbs(name)
    return ()


def parse(rules, text: str) -> list[Entry]:
    """A game's reading of a player's text, folded first (``fold``: full-width letters,
    any script's digits, any dash, any case), so that no game needs to know keyboards."""
    return rules.parse(fold(text))


def did_you_mean(rules, line: str) -> str | None:
    """The line with its first word made into the game's order word it nearly is (one or
    two letters off, or two swapped), when that reads as an order; else None."""
    word, _, rest = fold(line).strip().partition(" ")
    if len(word) < 3 or looks_like_prose(line):
        return None
    for verb in order_verbs(rules):
        limit = 1 if len(verb) <= 4 else 2
        # (a length that differs by more than the limit is no near miss: a 5 MB "word" is
        # not measured against every verb)
        if verb != word and abs(len(word) - len(verb)) <= limit and distance(word, verb) <= limit:
            guess = f"{verb} {rest}".strip()
            try:
                parse(rules, guess)
            except NotationError:
                continue
            return guess
    return None


def distance(a: str, b: str) -> int:
    """Edit distance, a swap of two neighbouring letters counting as one edit."""
    rows = [list(range(len(b) + 1))]
    for i, ca in enumerate(a, 1):
        row = [i]
        for j, cb in enumerate(b, 1):
            cost = min(rows[-1][j] + 1, row[j - 1] + 1, rows[-1][j - 1] + (ca != cb))
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                cost = min(cost, rows[-2][j - 2] + 1)
            row.append(cost)
        rows = [rows[-1], row]  # a swap looks two rows back, never further
    return rows[-1][-1]
