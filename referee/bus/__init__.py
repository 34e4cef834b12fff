"""Bus (Splotter Spellen, 1999 and 2019 editions): the rules engine, its bots, the board, and
its text and PNG maps. ``GAME`` is what the shared referee knows of it."""
from __future__ import annotations

from ..contract import GameDescriptor, View
from .board import BOARD
from .engine import RULES
from .scene import STYLES


def _text_map(view: View) -> str:
    from .text_map import text_map as draw
    return draw(view, BOARD)


def _png_map(view: View) -> bytes:
    from .png_map import png_map as draw  # Pillow is loaded when a map is drawn
    return draw(view, BOARD)


def player_colour(player: dict) -> str:
    return "#{:02x}{:02x}{:02x}".format(*STYLES[player["seat"]].colour)


def round_end_view(view: View, round_: int) -> View:
    """The engine runs on into the next round by itself: a finished round is shown as it
    ended, with that round's action board."""
    if view["round"] <= round_:
        return view
    ended: dict = {**view, "round": round_, "phase": "ended", "awaiting": [],
                   "actions": view["last_actions"]}       # type: ignore[typeddict-item]
    return ended  # type: ignore[return-value]


GAME = GameDescriptor(rules=RULES, measure="score", text_map=_text_map, png_map=_png_map,
                      player_colour=player_colour, round_end_view=round_end_view)
