"""Bus Boss (David Watts' postal game, rules 1.1): the rules engine, its bots, its maps of
places and routes, and their text and PNG renderings. ``GAME`` is what the shared referee
knows of it."""

from __future__ import annotations

import contextlib
from collections import Counter
from collections.abc import Mapping
from pathlib import Path
from typing import Any, cast

from ..contract import (
    GameDescriptor,
    HeldOrders,
    MapFiles,
    MissedOrderRule,
    OwnDrop,
    PinnedOptions,
    PlayFigures,
    Say,
    ShortChoices,
    SignUp,
    SignupChoice,
    View,
    Wording,
    Words,
)
from ..maps.styles import COLOUR_STYLES
from . import game, prompts
from .engine import RULES, BusBossView
from .map import DEFAULT_MAP, FIRST_VERSION, MapError, load_map, read_map_file
from .orders import COLOURS
from .signup import BusBossSignup
from .state import RULINGS, RULINGS_K1_K12

# The descriptor hands this game's functions only views its own engine made: a fact of the
# registry's dispatch on view["game"] that the View type cannot carry, hence the casts.


def _text_map(view: View, word: Wording) -> str:
    from .scene import view_map
    from .text_map import text_map as draw

    boss_view = cast(BusBossView, view)
    return draw(boss_view, view_map(boss_view), word)


def _png_map(view: View) -> bytes:
    from .png_map import png_map as draw
    from .scene import view_map

    boss_view = cast(BusBossView, view)
    return draw(boss_view, view_map(boss_view))


def _map_key(view: View) -> tuple[Words, ...]:
    from .scene import build_scene, map_key, view_map

    boss_view = cast(BusBossView, view)
    return map_key(build_scene(boss_view), view_map(boss_view))


def map_summary(path: Path) -> str:
    """A game master's map file in a line: its places, routes, cards and longest route;
    MapError naming every problem with its line."""
    m = read_map_file(path)
    kinds = Counter(place.kind for place in m.places.values())
    longest = max(m.routes, key=lambda r: (r.length, r.name))
    doubled = sum(1 for r in m.routes if r.copies > 1)
    return (
        f"{path}: ok, {m.title!r} version {m.version}: {len(m.places)} places "
        f"({kinds['destination']} with cards, {kinds['town']} without, "
        f"{kinds['junction']} junction{'s' if kinds['junction'] != 1 else ''}), "
        f"{len(m.routes)} routes ({doubled} doubled), {len(m.card_destination)} cards on "
        f"{len(m.destinations)} destinations, the longest route {longest.name} "
        f"({longest.length} spaces)"
    )


def map_preview(path: Path) -> tuple[str, bytes]:
    """A game master's map file as players will see it before anyone buys a route: its
    text map and its PNG; MapError naming every problem with its line."""
    read_map_file(path)
    view = RULES.view(game.new_game(str(path), [], 0))
    return _text_map(view, str), _png_map(view)


def player_colour(player: dict[str, Any]) -> str:
    return "#{:02x}{:02x}{:02x}".format(*COLOUR_STYLES[player["colour"]].colour)


def pin_options(options: Mapping[str, Any]) -> dict[str, Any]:
    """A new campaign keeps the version of its map and of the rulings it starts on, so
    that a later version of either does not change a game under way (K9 added junctions in
    version 2 of the map; K13-K15 changed what some orders do)."""
    pinned: dict[str, Any] = {}
    if options.get("rulings") in (None, ""):
        pinned["rulings"] = RULINGS
    if options.get("map_version") in (None, ""):
        # (a map that cannot be loaded: the campaign's check names what is wrong with it)
        with contextlib.suppress(MapError):
            pinned["map_version"] = load_map(str(options.get("map", DEFAULT_MAP))).version
    return pinned


def play_figures(start: Any, steps: Any) -> dict[int, dict[str, int]]:
    """Each seat's routes at the end (a seat that never bought ends with none)."""
    last = steps[-1][2] if steps else start
    return {seat: {"routes_owned": len(last.routes_of(seat))} for seat in range(len(last.names))}


# the player's cash decides the game; rule 40 hands a dropped player's routes to the bank;
# rules 37-39 decide for a player who missed a round; a round's orders are held until the
# round resolves (replaced by a new one); rule 6: a company name and colours at sign-up; a
# campaign from before maps had versions was played on version 1 of its map, one from before
# the rulings had versions by K1-K12
GAME = GameDescriptor(
    rules=RULES,
    measure="cash",
    text_map=_text_map,
    png_map=_png_map,
    map_key=_map_key,
    player_colour=player_colour,
    capabilities=(
        OwnDrop(game.drop, Say("the bank takes their routes (rule 40)"), game.left),
        MissedOrderRule(game.adjudicate),
        HeldOrders(game.held),
        ShortChoices(prompts.short_choices),
        SignUp(
            (
                SignupChoice(
                    "company", '"Vale Motors"', Say("your bus company's name (rule 6)"), True
                ),
                SignupChoice(
                    "colours",
                    "red,blue,green",
                    Say(
                        "the colours of your routes, first choice first, of {colours} (rule 6)",
                        {"colours": ", ".join(COLOURS)},
                    ),
                    aliases=("colour", "colors", "color"),
                ),
            ),
            BusBossSignup,
        ),
        PinnedOptions(
            pin_options, unpinned={"map_version": FIRST_VERSION, "rulings": RULINGS_K1_K12}
        ),
        PlayFigures(play_figures),
        MapFiles(map_summary, map_preview),
    ),
)
