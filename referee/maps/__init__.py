"""Maps of a game position: plain text for the mail body, PNG for the attachment.

Each game draws its own (see its descriptor); this package holds what they share: the text
grid, the PNG canvas and the players' colours."""

from __future__ import annotations

from ..contract import View, Wording, Words
from ..registry import get


def text_map(view: View, word: Wording = str) -> str:
    """The plain-text map, its words worded by ``word`` (English by default)."""
    return get(view["game"]).text_map(view, word)


def png_map(view: View) -> bytes | None:
    """The PNG map, or None for a game that is drawn in text only."""
    draw = get(view["game"]).png_map
    return draw(view) if draw else None


def map_key(view: View) -> tuple[Words, ...]:
    """What the PNG map does not say for itself, a sentence a line (none for a game drawn in
    text only)."""
    game = get(view["game"])
    return game.map_key(view) if game.png_map else ()
