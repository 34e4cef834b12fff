"""Maps of a game position: plain text for the mail body, PNG for the attachment.

``text_map(view)`` and ``png_map(view)`` pick the renderers of the view's game, and the
board or map it is played on."""
from __future__ import annotations


def _renderers(view: dict):
    game = view["game"]
    if game == "bus":
        from ..rules.bus.board import BOARD
        from .png import png_map
        from .text import text_map
        return BOARD, text_map, png_map
    if game == "busboss":
        from .busboss_png import png_map
        from .busboss_scene import view_map
        from .busboss_text import text_map
        return view_map(view), text_map, png_map
    raise ValueError(f"no maps for the game {game!r}")


def text_map(view: dict) -> str:
    board, text, _png = _renderers(view)
    return text(view, board)


def png_map(view: dict) -> bytes:
    board, _text, png = _renderers(view)
    return png(view, board)
