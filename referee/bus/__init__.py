"""Bus (Splotter Spellen, 1999 and 2019 editions): the rules engine, its bots, the board, and
its text and PNG maps. ``GAME`` is what the shared referee knows of it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from ..contract import (
    GameDescriptor,
    PinnedOptions,
    PlayFigures,
    RoundEndView,
    View,
    Wording,
    Words,
)
from .board import BOARD
from .engine import RULES, BusView
from .figures import play_figures
from .scene import STYLES

# The descriptor hands this game's functions only views its own engine made: a fact of the
# registry's dispatch on view["game"] that the View type cannot carry, hence the casts.


def _text_map(view: View, word: Wording) -> str:
    from .text_map import text_map as draw

    return draw(cast(BusView, view), BOARD, word)


def _png_map(view: View) -> bytes:
    from .png_map import png_map as draw

    return draw(cast(BusView, view), BOARD)


def _map_key(view: View) -> tuple[Words, ...]:
    from .scene import build_scene, map_key

    return map_key(build_scene(cast(BusView, view), BOARD))


def player_colour(player: dict[str, Any]) -> str:
    return "#{:02x}{:02x}{:02x}".format(*STYLES[player["seat"]].colour)


def round_end_view(view: View, round_: int) -> View:
    """The engine runs on into the next round by itself: a finished round is shown as it
    ended, with that round's action board."""
    if view["round"] <= round_:
        return view
    bus_view = cast(BusView, view)
    ended: BusView = {
        **bus_view,
        "round": round_,
        "phase": "ended",
        "awaiting": [],
        "actions": bus_view["last_actions"],
    }
    return ended


def pin_options(options: Mapping[str, Any]) -> dict[str, Any]:
    """A new campaign keeps B15's reading of line orders; one made before it keeps reading
    them with either end as the head (``unpinned``), so that its log replays as played."""
    return {"line_orders": "name-head"}


GAME = GameDescriptor(
    rules=RULES,
    measure="score",
    text_map=_text_map,
    png_map=_png_map,
    map_key=_map_key,
    player_colour=player_colour,
    capabilities=(
        RoundEndView(round_end_view),
        PinnedOptions(pin_options, unpinned={"line_orders": "either-end"}),
        PlayFigures(play_figures),
    ),
)
