"""The state of a game of Bus: plain lists and ints, cheap to copy, plain data to store."""

from __future__ import annotations

from typing import Any, Literal

from .board import BOARD
from .notation import ACTIONS, BUILDING_TYPES

Edition = Literal["2019", "1999"]
# B15: "name-head" reads `line A-B` as laid from the head at A; "either-end", how a campaign
# made before B15 read it (from B when it was illegal from A), so that its log means what it did
LineOrders = Literal["name-head", "either-end"]
# B2: spaces per action; resolution order is the order of ACTIONS
SPACES = {
    "line": 6,
    "buses": 1,
    "passengers": 6,
    "buildings": 6,
    "clock": 1,
    "vroom": 6,
    "start": 1,
}
# B6: which actions have a space free, a bit each: the key of a round's choices
ACTION_BITS = {action: 1 << i for i, action in enumerate(ACTIONS)}
EVERY_ACTION = sum(ACTION_BITS.values())
ACTION_MARKERS = 20  # B3: both editions play 20 (1999: 21 stones, one is the first bus)
BUS_CAP = {"2019": 5, "1999": None}
PASSENGERS = 15  # B3: 4 start on the central crossings, 11 in supply


def line_marker_supply(edition: str, seat: int) -> int:
    # B3: 2019 gives 25 each; 1999 has 28 sticks in three colours and 18 in two. The first
    # three seats take the long colours (with three players every colour is a long one).
    if edition == "2019":
        return 25
    return 28 if seat < 3 else 18


class BusState:
    """Everything the rules need. Players are seats 0..n-1, clockwise in seat order.

    A state is a value: the rules never change a list or dict of a state in place but give
    the state a changed copy of it (``replaced``, ``added``), so a copy need only copy the
    fields themselves and shares every list with its original until a rule replaces it."""

    FIELDS = (
        "edition",
        "names",
        "seed",
        "phase",
        "round",
        "start",
        "turn",
        "setup",
        "markers",
        "buses",
        "points",
        "stones",
        "reached",
        "score_seq",
        "line_left",
        "streets",
        "heads",
        "street_lines",
        "lots",
        "passengers",
        "supply",
        "clock",
        "clock_stones",
        "board",
        "placed",
        "passed",
        "act",
        "slot",
        "todo",
        "end_reason",
        "moves",
        "last_board",
        "line_orders",
    )
    edition: str
    names: list[str]
    seed: int
    phase: str  # setup, choose, resolve, over
    round: int
    start: int  # the start player's seat
    turn: int  # the seat choosing an action
    setup: list[tuple[int, str]]  # the setup steps left: (seat, decision kind)
    markers: list[int]  # action markers left, by seat
    buses: list[int]
    points: list[int]
    stones: list[int]  # clock stones taken
    reached: list[int]  # when each seat last scored (B13's tie-break)
    score_seq: int
    line_left: list[int]  # line markers left
    streets: list[list[int]]  # each seat's streets in the order laid
    heads: list[list[tuple[int, int]]]  # each seat's heads: (crossing, the street ending there)
    street_lines: list[int]  # per street, a bit for each seat whose line runs on it
    lots: list[str | None]  # the building on each lot
    passengers: list[int]  # by crossing label
    supply: int
    clock: str
    clock_stones: int
    board: dict[str, list[int]]  # action -> the seats on its spaces a, b, ...
    free_actions: int  # the actions of the board with a space free (ACTION_BITS, from board)
    placed: list[int]  # markers placed this round
    passed: list[bool]
    act: int  # the action resolving (an index of ACTIONS)
    slot: int  # the space of it resolving
    todo: int | None  # what the resolving space still does; None: not counted yet
    end_reason: str | None
    moves: int
    last_board: dict[str, list[int]]
    line_orders: str  # how a line order is read: LineOrders
    n: int  # the number of players, len(names)
    reach: list[frozenset[int]]  # per seat, the crossings its line touches (from streets)

    def copy(self) -> BusState:
        new = _new(BusState)
        new.__dict__ = self.__dict__.copy()
        return new

    # derived views -------------------------------------------------------------------------
    def owns(self, seat: int, street: int) -> bool:
        return bool(self.street_lines[street] >> seat & 1)

    def line_crossings(self, seat: int) -> frozenset[int]:
        return self.reach[seat]

    def buildings_of(self, crossing: int, btype: str) -> int:
        lots = self.lots
        return sum(1 for i in BOARD.lots_at[crossing] if lots[i] == btype)

    def seated(self, crossing: int) -> int:
        """B9: passengers at a crossing with free buildings of the current type go into them.
        Settling is idempotent and never undone between clock changes, so the seated count
        is always min(passengers, buildings of the current type) and need not be stored."""
        return min(self.passengers[crossing], self.buildings_of(crossing, self.clock))

    def open_zone(self) -> str | None:
        """B10: the lowest zone with a free lot, None when every lot is built."""
        try:
            return BOARD.lots[self.lots.index(None)].zone  # lots are numbered zone by zone
        except ValueError:
            return None

    def any_lot_free(self) -> bool:
        """Whether a lot is free anywhere (B13). Looked for from the last lot: the zones fill
        from A (B10), so a free lot is found soonest at the end."""
        return None in reversed(self.lots)

    def max_buses(self) -> int:
        return max(self.buses)

    def score(self, seat: int) -> int:
        return self.points[seat] - self.stones[seat]

    # plain data ----------------------------------------------------------------------------
    def to_data(self) -> dict[str, Any]:
        data = {name: getattr(self, name) for name in self.FIELDS if name != "street_lines"}
        if self.line_orders == "either-end":
            del data["line_orders"]  # the state of a game made before B15, stored as it was
        data["streets"] = [[BOARD.street_name(s) for s in line] for line in self.streets]
        data["heads"] = [[[c, BOARD.street_name(t)] for c, t in h] for h in self.heads]
        data["setup"] = [list(step) for step in self.setup]
        return _plain(data)

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> BusState:
        state = _blank()
        state.line_orders = data.get("line_orders", "either-end")
        for name in cls.FIELDS:
            if name not in ("street_lines", "line_orders"):
                value = data[name]
                setattr(
                    state,
                    name,
                    [x[:] if isinstance(x, list) else x for x in value]
                    if isinstance(value, list)
                    else {k: list(v) for k, v in value.items()}
                    if isinstance(value, dict)
                    else value,
                )
        state.names = list(data["names"])
        state.n = len(state.names)
        state.streets = [[_street(name) for name in line] for line in data["streets"]]
        state.heads = [[(c, _street(t)) for c, t in h] for h in data["heads"]]
        state.setup = [tuple(step) for step in data["setup"]]
        state.street_lines = [0] * len(BOARD.streets)
        for seat, line in enumerate(state.streets):
            for s in line:
                state.street_lines[s] |= 1 << seat
        state.reach = [
            frozenset(c for s in line for c in BOARD.streets[s]) for line in state.streets
        ]
        state.free_actions = free_actions(state.board)
        state.passengers = [int(x) for x in data["passengers"]]
        return state


_new = object.__new__


def _blank() -> BusState:
    """A state without fields, to be given them. It holds them in a dict of its own from the
    start: had the class's instances ever held their fields inline, Python would make room
    for as many in every state made after (every copy), to throw it away."""
    state = _new(BusState)
    state.__dict__ = {}
    return state


def free_actions(board: dict[str, list[int]]) -> int:
    """The actions of ``board`` with a space free (B6), a bit each (ACTION_BITS)."""
    return sum(bit for action, bit in ACTION_BITS.items() if len(board[action]) < SPACES[action])


def replaced(values: list, index: int, value: Any) -> list:
    """A copy of ``values`` with one item replaced: how the rules change a state's list."""
    values = values[:]
    values[index] = value
    return values


def added(values: list[int], index: int, amount: int) -> list[int]:
    """A copy of ``values`` with ``amount`` added to one item."""
    values = values[:]
    values[index] += amount
    return values


def _street(name: str) -> int:
    a, b = (int(x) for x in name.split("-"))
    street = BOARD.street(a, b)
    assert street is not None, f"no street {name} on the board"
    return street


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def new_state(
    edition: str, names: list[str], seed: int, start: int, line_orders: str = "name-head"
) -> BusState:
    """The board set up (B3, B14) before the first building: the caller draws the start player."""
    s = _blank()
    n = len(names)
    s.edition, s.names, s.seed, s.n = edition, list(names), seed, n
    s.line_orders = line_orders
    s.phase, s.round, s.start, s.turn = "setup", 0, start, start
    order = [(start + i) % n for i in range(n)]
    s.setup = (
        [(p, "build") for p in order for _ in range(2)]
        + [(p, "line") for p in order]
        + [(p, "line") for p in reversed(order)]
    )
    s.markers = [ACTION_MARKERS] * n
    s.buses = [1] * n
    s.points, s.stones, s.reached, s.score_seq = [0] * n, [0] * n, [0] * n, 0
    s.line_left = [line_marker_supply(edition, p) for p in range(n)]
    s.streets = [[] for _ in range(n)]
    s.reach = [frozenset()] * n
    s.heads = [[] for _ in range(n)]
    s.street_lines = [0] * len(BOARD.streets)
    s.lots = [None] * len(BOARD.lots)
    s.passengers = [0] * (max(BOARD.crossings) + 1)
    for c in BOARD.centrals:
        s.passengers[c] = 1
    s.supply = PASSENGERS - len(BOARD.centrals)
    s.clock = BUILDING_TYPES[0]
    s.clock_stones = 4 if n == 3 else 5
    s.board = {a: [] for a in ACTIONS}
    s.free_actions = EVERY_ACTION
    s.placed, s.passed = [0] * n, [False] * n
    s.act = s.slot = s.todo = 0
    s.end_reason = None
    s.moves = 0  # orders applied: each one brings a new decision
    s.last_board = {a: [] for a in ACTIONS}  # the round before's action board, for reports
    return s
