"""Bots for Bus. `random_bot` picks uniformly among the legal orders; `default_bot` plays
sensibly: it grows its line towards passengers and buildings, builds targets on its line,
buys buses early and rides whenever its buses can carry someone."""

from __future__ import annotations

import random

from .board import BOARD
from .notation import Order
from .rules import NEXT_CLOCK, listed
from .state import BUS_CAP, BusState


def random_bot(s: BusState, seat: int, rng: random.Random) -> Order:
    return rng.choice(listed(s, seat))


def default_bot(s: BusState, seat: int, rng: random.Random) -> Order:
    return default_choice(s, seat, listed(s, seat), rng)


def default_choice(s: BusState, seat: int, legal: list[Order], rng: random.Random) -> Order:
    """The default bot's pick among the seat's legal orders ``legal``."""
    if len(legal) == 1:
        return legal[0]
    values = VALUES[legal[0].kind](_Context(s, seat), legal)
    # a little noise breaks ties and keeps games varied
    noise = rng.random
    best, best_value = 0, values[0] + noise() * 0.01
    for i in range(1, len(values)):
        value = values[i] + noise() * 0.01
        if value > best_value:
            best, best_value = i, value
    return legal[best]


def default_values(s: BusState, seat: int, legal: list[Order]) -> list[float]:
    """How much the default bot likes each of the legal orders (all of one kind)."""
    return VALUES[legal[0].kind](_Context(s, seat), legal)


class _Context:
    """What the heuristics need, computed once per decision."""

    def __init__(self, s: BusState, seat: int):
        self.s, self.seat = s, seat
        self.mine = s.reach[seat]
        self.next_clock = NEXT_CLOCK[s.clock]

    def carriable(self, btype: str) -> int:
        """How many passengers this seat's buses could carry if time were ``btype`` (at most
        as many as it has buses)."""
        s = self.s
        # a state's lists are replaced, never changed, when the game changes (BusState), so
        # while the seat's line, the passengers and the buildings are the same lists, what
        # its buses could carry is the same: remembered over the decisions of a round
        memo = _CARRIABLE.get(self.seat)
        if memo is None or not (
            memo[0] is s.passengers and memo[1] is s.lots and memo[2] is self.mine
        ):
            memo = _CARRIABLE[self.seat] = (s.passengers, s.lots, self.mine, {})
        known = memo[3].get(btype)
        if known is not None:
            return min(s.buses[self.seat], known)
        waiting, free = 0, 0
        passengers, lots, lots_at = s.passengers, s.lots, BOARD.lots_at
        for c in self.mine:
            diff = passengers[c]
            for i in lots_at[c]:
                if lots[i] == btype:
                    diff -= 1
            if diff > 0:
                waiting += diff
            else:
                free -= diff
        known = memo[3][btype] = min(waiting, free)
        return min(s.buses[self.seat], known)


# seat -> (passengers, lots, line crossings, btype -> passengers carriable without the bus limit)
_CARRIABLE: dict[int, tuple[list[int], list[str | None], frozenset[int], dict[str, int]]] = {}


def _action_values(ctx: _Context, legal: list[Order]) -> list[float]:
    s, seat = ctx.s, ctx.seat
    placed, markers, board = s.placed[seat], s.markers[seat], s.board
    most = max(s.buses)
    values = []
    for order in legal:
        action = order.args[0]
        if action == "pass":
            # spread 20 markers over the game: about three a round, fewer when they run short
            values.append(1.1 if placed >= 3 or markers <= 4 else 0.1)
            continue
        space = len(board[action])
        amount = most - space
        if action == "vroom":
            # the clock resolves before Vrrooomm!: it turns unless its taker stops it
            turned = ctx.carriable(ctx.next_clock)
            carry = turned if not board["clock"] else max(turned, ctx.carriable(s.clock))
            if board["clock"] == [seat]:
                carry = max(turned, ctx.carriable(s.clock))
            value = 3.0 * carry - 1.5 * board["vroom"].count(seat) - 0.3 * space
        elif action == "buses":
            cap = BUS_CAP[s.edition] or 99
            value = 2.2 if s.buses[seat] < min(cap, 4) else -1
        elif action == "line":
            amount += 1 if s.n == 5 else 0
            value = (1.6 if len(s.streets[seat]) < 12 else 0.6) if amount > 0 else -1
        elif action == "buildings":
            value = 1.3 if amount > 0 and s.any_lot_free() else -1  # a lot is free somewhere
        elif action == "passengers":
            # worth more when they arrive on one's own line
            on_line = any(st in ctx.mine for st in BOARD.stations)
            value = (1.6 if on_line else 0.8) if amount > 0 and s.supply > 0 else -1
        elif action == "clock":
            now, nxt = ctx.carriable(s.clock), ctx.carriable(ctx.next_clock)
            value = 1.2 if now >= nxt + 2 else 0.2
        else:
            value = 0.3  # start player
        values.append(value)
    return values


# what a crossing offers a line whatever happens there: its lots, and a station
_SITE = {
    c: 0.3 * len(BOARD.lots_at[c]) + (0.8 if x.station else 0) for c, x in BOARD.crossings.items()
}


def _line_values(ctx: _Context, legal: list[Order]) -> list[float]:
    s, mine, lots, lots_at = ctx.s, ctx.mine, ctx.s.lots, BOARD.lots_at
    values = []
    for order in legal:
        end = order.args[1]
        value = 0.0 if end in mine else 1.0
        built = 0
        for i in lots_at[end]:
            if lots[i]:
                built += 1
        value += 1.5 * s.passengers[end] + 0.8 * built
        value += _SITE[end]
        values.append(value)
    return values


def _build_values(ctx: _Context, legal: list[Order]) -> list[float]:
    s, mine, clock = ctx.s, ctx.mine, ctx.s.clock
    # buildings of the coming time on one's own line are where passengers will be carried
    wanted = ctx.next_clock
    values = []
    for order in legal:
        crossing, btype = order.args
        value = 2.0 if crossing in mine else 0.0
        value += 1.0 if btype == wanted else 0.5 if btype == clock else 0.0
        # a passenger standing there would just sit down in it: build where they are carried to
        values.append(value - (0.6 * s.passengers[crossing] if btype == wanted else 0))
    return values


def _passengers_values(ctx: _Context, legal: list[Order]) -> list[float]:
    return [
        sum(n for st, n in zip(BOARD.stations, o.args) if st in ctx.mine)
        - 0.01 * abs(o.args[0] - o.args[1])
        for o in legal
    ]


def _clock_values(ctx: _Context, legal: list[Order]) -> list[float]:
    s = ctx.s
    gain = ctx.carriable(s.clock) - ctx.carriable(ctx.next_clock)
    values = []
    for order in legal:
        stop = order.args[0] == "stop"
        # never take the last stone while behind: that ends the game on someone else's win
        if stop and s.clock_stones == 1 and s.score(ctx.seat) < max(s.score(p) for p in range(s.n)):
            values.append(-9.0)
        else:
            values.append((gain - 1.5) if stop else 0.0)
    return values


def _vroom_values(ctx: _Context, legal: list[Order]) -> list[float]:
    # take passengers from crossings other lines reach first, so rivals lose them
    lines, others = ctx.s.street_lines, ~(1 << ctx.seat)
    return [sum(1 for st in BOARD.streets_at[o.args[0]] if lines[st] & others) for o in legal]


VALUES = {
    "action": _action_values,
    "line": _line_values,
    "build": _build_values,
    "passengers": _passengers_values,
    "clock": _clock_values,
    "vroom": _vroom_values,
}

BOTS = {"default": default_bot, "random": random_bot}
