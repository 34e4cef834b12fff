"""Bus Boss (David Watts' postal game, rules 1.1 with rulings K1-K12) as a pure rules engine:
see ``referee/contract.py`` for the contract.

Decisions are simultaneous: each round every seat still in the game owes one decision,
answered by one Order holding all of that round (see ``orders.py`` for the language). An order
is held until the round resolves, and a new one replaces it; applying the last seat's order
resolves the round.

Options: ``map``, the map's name or file; ``map_version``, the version of the map the game is
played on (the file's own version when not given; a campaign keeps the version it started on);
``rulings``, the version of the project's rulings the game is played by (state.RULINGS when
not given; a campaign keeps the version it started on, so an old log replays as it was played);
``signup``, what each player chose when joining (rule 6): by seat, a dict with ``company`` (a
name) and ``colours`` (a preference list).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..contract import (
    SIGNUP,
    Bot,
    Decision,
    Entry,
    IllegalOrder,
    Result,
    Say,
    View,
    Words,
    check_setup,
    progress_view,
)
from ..schema import at_least, setting, within
from . import game
from .bots import BOTS
from .map import DEFAULT_MAP, FIRST_VERSION
from .orders import Order, format_order, parse_order
from .prompts import legal_orders, prompt_lines
from .state import BANK_SEAT, LAST_ROUND, RULINGS, RULINGS_K1_K12, BusBossState
from .strong import strong_bot


@dataclass(frozen=True)
class BusBossOptions:
    """What a campaign may set (K9: a campaign keeps the versions it began with,
    ``PinnedOptions``)."""

    map: str = DEFAULT_MAP  # a map shipped in maps/ by name, or the path of a map file
    map_version: int | None = setting(None, check=at_least(FIRST_VERSION, "a version"))
    rulings: int | None = setting(None, check=within(RULINGS_K1_K12, RULINGS, "a version"))


ALL_BOTS = {**BOTS, "strong": strong_bot}


class BusBossView(View):
    """What ``BusBossRules.view`` shows besides the keys of every game's view.

    map: the map's title; map_name, map_version: what the game's map options name
    (``load_map`` reads them); places, routes, runs: one dict each, in the map's order and
    the order of offer; bank_routes: names of the routes the bank holds; last_round: the
    record of the round resolved last, None before the first. Each player has a colour
    (rule 6) and a company: its name, or None where the player gave none. In a seat's own
    view (``view(state, seat)``), that seat's player has ``held_order``: the lines of the
    order it handed in for the round, held until the round resolves (None when it has none);
    nobody else's view shows it."""

    map: str
    map_name: str
    map_version: int
    order_of_play: list[int]
    entry_limit: int
    cash: list[int]
    places: list[dict[str, Any]]
    routes: list[dict[str, Any]]
    bank_routes: list[str]
    runs: list[dict[str, Any]]
    last_round: dict[str, Any] | None


class BusBossRules:
    name = "busboss"
    title = "Bus Boss"
    min_players, max_players = 3, 6
    multiline_orders = True  # a round's order: run lines, build lines, alternatives
    options = BusBossOptions

    def new_game(
        self, options: Mapping[str, Any], players: Sequence[str], seed: int
    ) -> BusBossState:
        chosen: BusBossOptions = check_setup(self, options, players)
        signup = list(options.get(SIGNUP) or [])
        choices = [
            dict(signup[x]) if x < len(signup) and signup[x] else {} for x in range(len(players))
        ]
        return game.new_game(
            chosen.map,
            list(players),
            seed,
            chosen.map_version,
            [list(c.get("colours") or ()) for c in choices],
            [c.get("company") for c in choices],
            RULINGS if chosen.rulings is None else chosen.rulings,
        )

    def awaiting(self, state: BusBossState) -> list[Decision]:
        return game.awaiting(state)

    def legal_orders(self, state: BusBossState, seat: int) -> list[Order]:
        return legal_orders(state, seat)

    def prompt_lines(self, state: BusBossState, seat: int) -> list[Words]:
        """The seat's choices in the order language, ready to copy into a reply."""
        return prompt_lines(state, seat)

    def referee_only(self, order: Order) -> bool:
        """`missed` is the referee's adjudication (rules 37-39); a player who wrote it
        would claim the extra build of rule 38."""
        return bool(order.missed)

    def parse(self, text: str) -> list[Entry]:
        return parse_order(text)

    def format(self, order: Order) -> str:
        return format_order(order)

    def apply(
        self, state: BusBossState, seat: int, order: Order
    ) -> tuple[BusBossState, list[Words]]:
        if not isinstance(order, Order):
            raise IllegalOrder(Say("{order} is not a Bus Boss order.", {"order": repr(order)}))
        try:
            return game.apply(state, seat, order)
        except IllegalOrder as refused:
            if refused.alternatives:
                raise
            raise IllegalOrder(refused.reason, legal_orders(state, seat)) from None

    def bot(self, name: str = "default", budget: int | None = None) -> Bot:
        try:
            return ALL_BOTS[name]
        except KeyError:
            raise ValueError(
                f"no Bus Boss bot {name!r}; the bots are {', '.join(ALL_BOTS)}"
            ) from None

    def rename(self, state: BusBossState, seat: int, name: str) -> BusBossState:
        return state.renamed(seat, name)

    def to_data(self, state: BusBossState) -> dict[str, Any]:
        return state.to_data()

    def from_data(self, data: dict[str, Any]) -> BusBossState:
        return BusBossState.from_data(data)

    def result(self, state: BusBossState) -> Result | None:
        return game.result(state)

    def round(self, state: BusBossState) -> int:
        return min(state.round, LAST_ROUND)

    def view(self, s: BusBossState, seat: int | None = None) -> BusBossView:
        m = s.map
        result = game.result(s)
        awaiting = game.awaiting(s)
        waiting = {d.seat for d in awaiting}
        view: BusBossView = {
            "game": "busboss",
            "map": m.title,
            "map_name": s.map_name,
            "map_version": s.map_version,
            "round": self.round(s),
            "phase": s.phase,
            "order_of_play": list(s.order),
            "entry_limit": game.entry_limit(s),
            "players": [
                {
                    "seat": x,
                    "name": s.names[x],
                    "company": s.companies[x],
                    "colour": s.colours[x],
                    "cash": s.cash[x],
                    "in_game": s.active[x],
                    "missed_in_a_row": s.missed[x],
                    "extra_build": x in s.extra_build,
                    "awaiting": x in waiting,
                    "routes": [m.routes[i].name for i in s.routes_of(x)],
                }
                for x in range(len(s.names))
            ],
            "cash": list(s.cash),
            "places": [
                {
                    "key": p.key,
                    "name": p.name,
                    "pos": list(p.pos),
                    "destination": p.destination,
                    "kind": p.kind,
                    "cards": list(m.destination_cards[p.destination]) if p.destination else [],
                }
                for p in m.places.values()
            ],
            "routes": [
                {
                    "name": r.name,
                    "ends": list(r.ends),
                    "length": r.length,
                    "cost": r.cost,
                    "copies": r.copies,
                    "junctions": [list(j) for j in r.junctions],
                    "owners": [s.owner_name(o) for o in s.owners[r.index]],
                }
                for r in m.routes
            ],
            "bank_routes": [m.routes[i].name for i in s.routes_of(BANK_SEAT)],
            "runs": [
                {
                    "name": o.name,
                    "cards": list(o.cards),
                    "destinations": [m.card_destination[c] for c in o.cards],
                    "places": [list(m.places_of_card(c)) for c in o.cards],
                    "since": o.since,
                    "reoffered": o.since < s.round,
                }
                for o in s.offers
            ],
            "last_round": s.last_record(),
            **progress_view(awaiting, result),
        }
        if seat is not None:  # the order a seat handed in is its own until the round resolves
            held = s.pending.get(seat)
            view["players"][seat]["held_order"] = (
                format_order(held._replace(round=None)).splitlines()
                if held and not s.over
                else None
            )
        return view


RULES = BusBossRules()
