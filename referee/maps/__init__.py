"""Maps of a game position: plain text for the mail body, PNG for the attachment.

``text_map(view)`` and ``png_map(view)`` pick the renderers of the view's game."""
from __future__ import annotations


def _renderers(game: str):
    if game == "bus":
        from ..rules.bus.board import BOARD
        from .png import png_map
        from .text import text_map
        return BOARD, text_map, png_map
    raise ValueError(f"no maps for the game {game!r}")


def text_map(view: dict) -> str:
    board, text, _png = _renderers(view["game"])
    return text(view, board)


def png_map(view: dict) -> bytes:
    board, _text, png = _renderers(view["game"])
    return png(view, board)
