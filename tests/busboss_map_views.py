"""The Bus Boss positions the map tests draw: engine views stored as JSON (see
fixtures/make_map_views.py), and the seeded bot games they come from."""

from __future__ import annotations

import json
import random
from pathlib import Path

from referee.busboss import game as busboss_game
from referee.busboss.engine import RULES

FIXTURES = Path(__file__).resolve().parent / "fixtures"
POSITIONS = ("start", "middle", "end")
NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay"]


def bot_views(players: int, seed: int, absent: int | None = None, away_from: int = 99):
    """Every view of a game the default bot plays for all seats (``bot_states``)."""
    for state in bot_states(players, seed, absent, away_from):
        yield RULES.view(state)


def bot_states(players: int, seed: int, absent: int | None = None, away_from: int = 99):
    """Every state of a game the default bot plays for all seats, one after each order. The
    seat `absent` sends nothing from round `away_from` on: its rounds are adjudicated as
    missed (rules 37-39) and after two in a row the game master drops it (rule 40)."""
    state = RULES.new_game({}, NAMES[:players], seed)
    bot, rng = RULES.bot("default"), random.Random(seed)
    yield state
    while due := RULES.awaiting(state):
        seat = due[0].seat
        if seat == absent and state.round >= away_from:
            if state.missed[seat] == 2:
                state, _ = busboss_game.drop(state, seat)
            else:
                state, _ = RULES.apply(state, seat, busboss_game.adjudicate(state, seat))
        else:
            state, _ = RULES.apply(state, seat, bot(state, seat, rng))
        yield state


def stored(name: str) -> dict:
    return json.loads((FIXTURES / f"busboss_view_{name}.json").read_text(encoding="utf-8"))
