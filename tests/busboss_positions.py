"""Positions of Bus Boss on the shipped Yorkshire map, built for the tests."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from referee.busboss.engine import RULES
from referee.busboss.game import review
from referee.busboss.state import BANK_SEAT, BusBossState, new_offer
from referee.contract import IllegalOrder, Words

NAMES = ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay")
ANN, BOB, CAT, DAN = 0, 1, 2, 3


def new(players: int = 4, seed: int = 1, rulings: int | None = None) -> BusBossState:
    """A new game whose play order is seat order, for readable tests; played by the present
    rulings, or by an earlier version of them (as an old campaign is)."""
    options = {} if rulings is None else {"rulings": rulings}
    s = RULES.new_game(options, NAMES[:players], seed)
    s.order = s.previous_order = tuple(range(players))
    return s


def owning(s: BusBossState, routes: dict[int, str], bank: str = "") -> BusBossState:
    """A copy where each seat (or the bank) owns the routes named, e.g. {ANN: "leeds-york"}."""
    s = s.copy()
    owners = list(s.owners)
    for seat, names in list(routes.items()) + [(BANK_SEAT, bank)]:
        for name in names.split():
            route = s.map.route(*name.split("-"))
            assert route is not None, name
            owners[route.index] += (seat,)
    s.owners = tuple(owners)
    return s


def at_round(
    s: BusBossState,
    round_no: int,
    runs: str = "",
    since: int | None = None,
    cash: dict[int, int] | None = None,
) -> BusBossState:
    """A copy in the given round with the runs named on offer, e.g. "AS-QH KH-JC"."""
    s = s.copy()
    s.round = round_no
    s.offers = tuple(new_offer(tuple(r.split("-")), since or round_no) for r in runs.split())
    for seat, amount in (cash or {}).items():
        s.cash[seat] = amount
    return s


def order(text: str):
    [entry] = RULES.parse(text)
    [o] = entry.alternatives
    return o


def refusal(s: BusBossState, seat: int, text: str) -> str:
    """The reason the rules give for refusing the order."""
    with pytest.raises(IllegalOrder) as caught:
        RULES.apply(s, seat, order(text))
    return str(caught.value.reason)


def void(s: BusBossState, seat: int, text: str) -> list[str]:
    """K10: the pieces of the seat's order that will not count, as 'piece: reason', as the
    referee tells the player while it holds the order (the order itself is accepted)."""
    s, _ = RULES.apply(s, seat, order(text))
    return [f"{v.piece}: {v.reason}" for v in review(s, seat, s.pending[seat])]


def play(s: BusBossState, orders: dict[int, str]) -> tuple[BusBossState, list[str]]:
    """Applies each seat's order text in seat order; returns the state and all events, in
    English."""
    events: list[str] = []
    for seat, text in orders.items():
        s, more = RULES.apply(s, seat, order(text))
        events += english(more)
    return s, events


def english(events: Sequence[Words]) -> list[str]:
    """The game's events as an English reader reads them."""
    return [str(e) for e in events]


def route_owners(s: BusBossState, name: str) -> tuple[int, ...]:
    return s.owners[s.map.route(*name.split("-")).index]
