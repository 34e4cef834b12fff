"""Bus (Splotter Spellen, 1999 and 2019 editions) as a pure rules engine: see
``referee/contract.py``."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..contract import Bot, Entry, Result, View, check_setup, progress_view
from . import rules
from .board import BOARD
from .bot import BOTS
from .notation import ACTIONS, Order, parse_orders
from .search import ROLLOUTS, strong_bot
from .state import SPACES, BusState, Edition, LineOrders, new_state


class BusView(View):
    """What ``BusRules.view`` shows besides the keys of every game's view.

    lots: {crossing, zone, building} per lot; passengers: {crossing, seated, waiting} per
    crossing with any; actions, last_actions: action -> the seats on its spaces this round
    and the round before; action_spaces: action -> its number of spaces."""

    edition: str
    start_player: int
    clock: str
    clock_stones: int
    clock_stones_total: int
    lots: list[dict[str, Any]]
    open_zone: str | None
    passengers: list[dict[str, Any]]
    passenger_supply: int
    actions: dict[str, list[int]]
    last_actions: dict[str, list[int]]
    action_spaces: dict[str, int]


@dataclass(frozen=True)
class BusOptions:
    """What a campaign may set: the edition played, and how a line order names its head
    (B15; a campaign made before it keeps "either-end", ``PinnedOptions``)."""

    edition: Edition = "2019"
    line_orders: LineOrders = "name-head"


class BusRules:
    name = "bus"
    title = "Bus"
    min_players, max_players = 3, 5
    multiline_orders = False
    options = BusOptions

    def new_game(self, options: Mapping[str, Any], players: Sequence[str], seed: int) -> BusState:
        chosen: BusOptions = check_setup(self, options, players)
        start = random.Random(seed).randrange(len(players))  # B14
        return new_state(chosen.edition, list(players), seed, start, chosen.line_orders)

    awaiting = staticmethod(rules.awaiting)

    def legal_orders(self, state: BusState, seat: int) -> list[Order]:
        return rules.legal_orders(state, seat)

    def prompt_lines(self, state: BusState, seat: int) -> list[str]:
        return [self.format(o) for o in rules.legal_orders(state, seat)]

    def referee_only(self, order: Order) -> bool:
        return False

    def parse(self, text: str) -> list[Entry]:
        return parse_orders(text, BOARD.stations)

    format = staticmethod(rules.order_text)

    # any object may come as an order: rules.apply refuses what is no Bus order (IllegalOrder)
    apply = staticmethod(rules.apply)

    def bot(self, name: str = "default", budget: int | None = None) -> Bot:
        """``budget``: the strong bot's rollouts per decision (default ``search.ROLLOUTS``)."""
        if name == "strong":
            return strong_bot(ROLLOUTS if budget is None else budget)
        try:
            return BOTS[name]
        except KeyError:
            raise ValueError(
                f"no Bus bot {name!r}; the bots are {', '.join(BOTS)}, strong"
            ) from None

    def rename(self, state: BusState, seat: int, name: str) -> BusState:
        renamed = state.copy()
        renamed.names = [name if x == seat else n for x, n in enumerate(state.names)]
        return renamed

    def to_data(self, state: BusState) -> dict[str, Any]:
        return state.to_data()

    def from_data(self, data: dict[str, Any]) -> BusState:
        return BusState.from_data(data)

    def result(self, state: BusState) -> Result | None:
        if state.phase != "over":
            return None
        assert state.end_reason is not None  # set with the phase "over"
        return Result(
            rules.Ending[state.end_reason.upper()],
            tuple(state.score(p) for p in range(state.n)),
            tuple(tuple(place) for place in rules.ranking(state)),
        )

    def round(self, state: BusState) -> int:
        return state.round

    def view(self, s: BusState, seat: int | None = None) -> BusView:
        # Bus hides nothing: every seat, and everyone else, sees the whole table alike
        result = self.result(s)
        return {
            "game": "bus",
            "edition": s.edition,
            "round": s.round,
            "phase": "setup" if s.phase == "setup" else s.phase,
            "players": [
                {
                    "seat": p,
                    "name": s.names[p],
                    "points": s.points[p],
                    "stones": s.stones[p],
                    "score": s.score(p),
                    "buses": s.buses[p],
                    "markers": s.markers[p],
                    "line_markers": s.line_left[p],
                    "streets": [list(BOARD.streets[st]) for st in s.streets[p]],
                    "heads": [c for c, _ in s.heads[p]],
                }
                for p in range(s.n)
            ],
            "start_player": s.start,
            "clock": s.clock,
            "clock_stones": s.clock_stones,
            "clock_stones_total": 4 if s.n == 3 else 5,
            "lots": [
                {"crossing": lot.crossing, "zone": lot.zone, "building": s.lots[lot.index]}
                for lot in BOARD.lots
            ],
            "open_zone": s.open_zone(),
            "passengers": [
                {"crossing": c, "seated": s.seated(c), "waiting": s.passengers[c] - s.seated(c)}
                for c in sorted(BOARD.crossings)
                if s.passengers[c]
            ],
            "passenger_supply": s.supply,
            "actions": {a: list(s.board[a]) for a in ACTIONS},
            "last_actions": {a: list(s.last_board[a]) for a in ACTIONS},
            "action_spaces": dict(SPACES),
            **progress_view(self.awaiting(s), result),
        }


RULES = BusRules()
