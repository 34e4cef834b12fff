"""Bots for Bus. `random_bot` picks uniformly among the legal orders; `default_bot` plays
sensibly: it grows its line towards passengers and buildings, builds targets on its line,
buys buses early and rides whenever its buses can carry someone."""

from __future__ import annotations

import random

from .board import BOARD
from .notation import Order
from .rules import legal_orders, next_clock
from .state import BUS_CAP, BusState


def random_bot(s: BusState, seat: int, rng: random.Random) -> Order:
    return rng.choice(legal_orders(s, seat))


def default_bot(s: BusState, seat: int, rng: random.Random) -> Order:
    legal = legal_orders(s, seat)
    if len(legal) == 1:
        return legal[0]
    value = VALUE[legal[0].kind]
    context = _Context(s, seat)
    # a little noise breaks ties and keeps games varied
    return max(legal, key=lambda o: value(context, o.args) + rng.random() * 0.01)


class _Context:
    """What the heuristics need, computed once per decision."""

    def __init__(self, s: BusState, seat: int):
        self.s, self.seat = s, seat
        self.mine = s.line_crossings(seat)

    def carriable(self, btype: str) -> int:
        """How many passengers this seat's buses could carry if time were ``btype``."""
        s, waiting, free = self.s, 0, 0
        for c in self.mine:
            diff = s.passengers[c] - s.buildings_of(c, btype)
            if diff > 0:
                waiting += diff
            else:
                free -= diff
        return min(s.buses[self.seat], waiting, free)


def _action_value(ctx: _Context, args: tuple) -> float:
    s, seat, action = ctx.s, ctx.seat, args[0]
    placed, markers = s.placed[seat], s.markers[seat]
    if action == "pass":
        # spread 20 markers over the game: about three a round, fewer when they run short
        return 1.1 if placed >= 3 or markers <= 4 else 0.1
    space = len(s.board[action])
    amount = s.max_buses() - space
    if action == "vroom":
        # the clock resolves before Vrrooomm!: it turns unless its taker stops it
        turned = ctx.carriable(next_clock(s.clock))
        carry = turned if not s.board["clock"] else max(turned, ctx.carriable(s.clock))
        if s.board["clock"] == [seat]:
            carry = max(turned, ctx.carriable(s.clock))
        return 3.0 * carry - 1.5 * s.board["vroom"].count(seat) - 0.3 * space
    if action == "buses":
        cap = BUS_CAP[s.edition] or 99
        return 2.2 if s.buses[seat] < min(cap, 4) else -1
    if action == "line":
        amount += 1 if s.n == 5 else 0
        return (1.6 if len(s.streets[seat]) < 12 else 0.6) if amount > 0 else -1
    if action == "buildings":
        return 1.3 if amount > 0 and s.free_lots() else -1
    if action == "passengers":
        # worth more when they arrive on one's own line
        on_line = any(st in ctx.mine for st in BOARD.stations)
        return (1.6 if on_line else 0.8) if amount > 0 and s.supply > 0 else -1
    if action == "clock":
        now, nxt = ctx.carriable(s.clock), ctx.carriable(next_clock(s.clock))
        return 1.2 if now >= nxt + 2 else 0.2
    return 0.3  # start player


def _line_value(ctx: _Context, args: tuple) -> float:
    s, end = ctx.s, args[1]
    value = 0.0 if end in ctx.mine else 1.0
    value += 1.5 * s.passengers[end] + 0.8 * sum(1 for i in BOARD.lots_at[end] if s.lots[i])
    value += 0.3 * len(BOARD.lots_at[end]) + (0.8 if BOARD.crossings[end].station else 0)
    return value


def _build_value(ctx: _Context, args: tuple) -> float:
    s, (crossing, btype) = ctx.s, args
    value = 2.0 if crossing in ctx.mine else 0.0
    # buildings of the coming time on one's own line are where passengers will be carried
    wanted = next_clock(s.clock)
    value += 1.0 if btype == wanted else 0.5 if btype == s.clock else 0.0
    # a passenger standing there would just sit down in it: build where they are carried to
    return value - (0.6 * s.passengers[crossing] if btype == wanted else 0)


def _passengers_value(ctx: _Context, args: tuple) -> float:
    return sum(n for st, n in zip(BOARD.stations, args) if st in ctx.mine) - 0.01 * abs(
        args[0] - args[1]
    )


def _clock_value(ctx: _Context, args: tuple) -> float:
    s = ctx.s
    gain = ctx.carriable(s.clock) - ctx.carriable(next_clock(s.clock))
    stop = args[0] == "stop"
    # never take the last stone while behind: that ends the game on someone else's win
    if stop and s.clock_stones == 1 and s.score(ctx.seat) < max(s.score(p) for p in range(s.n)):
        return -9
    return (gain - 1.5) if stop else 0.0


def _vroom_value(ctx: _Context, args: tuple) -> float:
    # take passengers from crossings other lines reach first, so rivals lose them
    s, start = ctx.s, args[0]
    return sum(1 for st in BOARD.streets_at[start] if s.street_lines[st] & ~(1 << ctx.seat))


VALUE = {
    "action": _action_value,
    "line": _line_value,
    "build": _build_value,
    "passengers": _passengers_value,
    "clock": _clock_value,
    "vroom": _vroom_value,
}

BOTS = {"default": default_bot, "random": random_bot}
