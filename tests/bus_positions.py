"""Building concrete Bus positions for tests: a game set up by hand, then handed to the engine."""

from __future__ import annotations

import random

from referee.bus.board import BOARD
from referee.bus.engine import RULES, rules
from referee.bus.notation import ACTIONS, Order

NAMES = ["Ann", "Bob", "Cid", "Dot", "Eve"]


def bare(n: int = 4, edition: str = "2019", seed: int = 0):
    """A game of n players with setup skipped: no buildings, no lines, round 1 choosing."""
    s = RULES.new_game({"edition": edition}, NAMES[:n], seed)
    s.setup = []
    s.phase, s.round, s.start, s.turn = "choose", 1, 0, 0
    return s


def lay(s, seat: int, path: str) -> None:
    """Lay a line along a path like '15-21-22' without checking the rules (for positions)."""
    crossings = [int(c) for c in path.split("-")]
    saved = s.phase, s.todo
    s.phase, s.todo = "resolve", 99
    for a, b in zip(crossings, crossings[1:]):
        rules.line_expansion(s, seat, (a, b), [])
    s.phase, s.todo = saved


def build(s, crossing: int, btype: str) -> None:
    lot = next(i for i in BOARD.lots_at[crossing] if s.lots[i] is None)
    s.lots[lot] = btype


def resolving(s, action: str, seats: list[int], todo: int | None = None):
    """Put the game in the resolution of ``action`` with ``seats`` on its spaces a, b, ..."""
    for a in ACTIONS:
        s.board[a] = []
    s.board[action] = list(seats)
    s.phase, s.act, s.slot, s.todo = "resolve", ACTIONS.index(action), 0, todo
    events: list = []
    rules._run_on(s, events)
    return [str(e) for e in events]  # in English


def streets(orders) -> set[str]:
    """Legal line orders as a set of 'from-to' strings."""
    return {f"{o.args[0]}-{o.args[1]}" for o in orders}


def line_choices(s, seat: int) -> set[str]:
    return streets(RULES.legal_orders(s, seat))


def play(s, seat: int, text: str):
    """Apply the orders in ``text`` for ``seat``; returns the new state and all events, in
    English (``str()`` of each)."""
    events: list[str] = []
    for entry in RULES.parse(text):
        s, ev = RULES.apply(s, seat, entry.alternatives[0])
        events += map(str, ev)
    return s, events


def bot_game(n: int, seed: int, bot: str = "random", check=None):
    """Play a whole game with one bot for every seat; ``check(state)`` after every order."""
    s = RULES.new_game({}, NAMES[:n], seed)
    choose, rng, log = RULES.bot(bot), random.Random(seed), []
    while due := RULES.awaiting(s):
        seat = due[0].seat
        order = choose(s, seat, rng)
        s, _ = RULES.apply(s, seat, order)
        log.append((seat, RULES.format(order)))
        if check:
            check(s)
    return s, log


PASS = Order("action", ("pass",))
