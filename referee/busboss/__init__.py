"""Bus Boss (David Watts' postal game, rules 1.1): the rules engine, its bots, its maps of
places and routes, and their text and PNG renderings. ``GAME`` is what the shared referee
knows of it."""

from __future__ import annotations

from typing import Any, cast

from ..contract import GameDescriptor, View
from ..maps.styles import COLOUR_STYLES
from . import game
from .engine import RULES, BusBossView

# The descriptor hands this game's functions only views its own engine made: a fact of the
# registry's dispatch on view["game"] that the View type cannot carry, hence the casts.


def _text_map(view: View) -> str:
    from .scene import view_map
    from .text_map import text_map as draw

    boss_view = cast(BusBossView, view)
    return draw(boss_view, view_map(boss_view))


def _png_map(view: View) -> bytes:
    from .png_map import png_map as draw  # Pillow is loaded when a map is drawn
    from .scene import view_map

    boss_view = cast(BusBossView, view)
    return draw(boss_view, view_map(boss_view))


def player_colour(player: dict[str, Any]) -> str:
    return "#{:02x}{:02x}{:02x}".format(*COLOUR_STYLES[player["colour"]].colour)


# the player's cash decides the game; rule 40 hands a dropped player's routes to the bank;
# rules 37-39 decide for a player who missed a round
GAME = GameDescriptor(
    rules=RULES,
    measure="cash",
    text_map=_text_map,
    png_map=_png_map,
    player_colour=player_colour,
    drop=game.drop,
    drop_note="the bank takes their routes (rule 40)",
    adjudicate=game.adjudicate,
)
