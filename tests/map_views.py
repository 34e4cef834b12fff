"""The Bus positions the map tests draw: engine views stored as JSON (see
fixtures/make_map_views.py), and a small hand-made view for cases no stored game shows."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path

from referee.bus.engine import RULES

FIXTURES = Path(__file__).resolve().parent / "fixtures"
POSITIONS = ("start", "middle", "end")
NAMES = ["Ann", "Bob", "Cid", "Dot", "Eve"]


def bot_views(players: int, seed: int):
    """Every view of a game the default bot plays for all seats, one after each order."""
    state = RULES.new_game({}, NAMES[:players], seed)
    bot, rng = RULES.bot("default"), random.Random(seed)
    yield RULES.view(state)
    while due := RULES.awaiting(state):
        seat = due[0].seat
        state, _ = RULES.apply(state, seat, bot(state, seat, rng))
        yield RULES.view(state)


def stored(name: str) -> dict:
    return json.loads((FIXTURES / f"bus_view_{name}.json").read_text(encoding="utf-8"))


def with_lines(view: dict, lines: dict[int, tuple[str, list[int]]]) -> dict:
    """A copy of `view` whose players have other lines: seat -> (path like '15-21-22',
    heads). Streets are laid in path order."""
    view = copy.deepcopy(view)
    for seat, (path, heads) in lines.items():
        crossings = [int(c) for c in path.split("-")]
        view["players"][seat]["streets"] = [sorted(pair) for pair in zip(crossings, crossings[1:])]
        view["players"][seat]["heads"] = heads
    return view
