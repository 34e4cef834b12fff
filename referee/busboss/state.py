"""The state of a game of Bus Boss: plain lists, tuples and ints, cheap to copy, plain data
to store. Seats are 0..n-1; each seat's company has a colour (rule 6), by which orders name
its routes, and may have a name."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from itertools import compress
from typing import Any, NamedTuple

from ..contract import Say, Words
from ..maps.styles import COLOUR_WORDS
from .map import FIRST_VERSION, Map, Route, load_map
from .orders import BANK, COLOURS, Order, format_order, parse_order, run_name

BANK_SEAT = -1  # the owner of a dropped player's routes (rule 40)
THE_BANK = Say("the bank")
START_CASH = 100  # rule 5
LAST_ROUND = 12  # rule 2
# The rulings a game is played by, kept by a campaign from its start as the map's version is,
# so that an order in an old log means what it meant when it was played
RULINGS_K1_K12 = 1  # a journey as written; rule 20 counted the order's run lines
RULINGS = 2  # K13-K15: a journey is its routes; rule 20 counts the runs on offer entered


class Offer(NamedTuple):
    """A run on offer: its two cards, the round it was first offered (rule 21), and its name
    as orders and reports write it, '7H-QS' (made by ``new_offer``)."""

    cards: tuple[str, str]
    since: int
    name: str


def new_offer(cards: tuple[str, str], since: int) -> Offer:
    """The run of the two cards, on offer since the round."""
    return Offer(cards, since, run_name(cards))


class Ownership(NamedTuple):
    """Who owns what as sets of routes (``Map.bit``), for one tuple of owners: the routes
    with a copy to buy (free, or the bank's: rule 40), and by owner their routes and the
    routes meeting those (rule 10)."""

    owners: tuple[tuple[int, ...], ...]  # the owners these are of
    free: int
    owned: dict[int, int]
    near: dict[int, int]


class BusBossState:
    __slots__ = (
        "map_name",
        "map_version",
        "rulings",
        "map",
        "names",
        "colours",
        "companies",
        "labels",
        "seed",
        "_rng",
        "_rng_shared",
        "round",
        "cash",
        "owners",
        "ownership",
        "active",
        "round_players",
        "order",
        "previous_order",
        "pending",
        "missed",
        "extra_build",
        "offers",
        "deal",
        "last",
        "end_reason",
    )

    def __init__(
        self,
        map_name: str,
        names: list[str],
        seed: int,
        order: tuple[int, ...],
        map_version: int = FIRST_VERSION,
        colours: Sequence[str] = COLOURS,
        companies: Sequence[str | None] = (),
        rulings: int = RULINGS,
    ):
        self.map_name = map_name
        self.map_version = map_version  # the version of the map the game started on
        self.rulings = rulings
        # one Map object for a version of a map, kept: the rules read it all the time
        self.map: Map = load_map(map_name, map_version)
        self.names = tuple(names)
        self.colours = tuple(colours[: len(names)])  # rule 6: by seat, how orders name owners
        self.companies = tuple(companies) or (None,) * len(names)  # rule 6; None: unnamed
        self.labels = self.labelled()
        self.seed = seed
        self._rng = random.Random(seed)  # K8: the game's one generator
        self._rng_shared = False
        self.round = 1
        self.cash = [START_CASH] * len(names)
        self.owners: tuple[tuple[int, ...], ...] = ((),) * len(self.map.routes)
        # the owners as sets of routes: kept as routes are bought, worked out again from the
        # owners when they were set otherwise (building.ownership)
        self.ownership: Ownership | None = None
        self.active = [True] * len(names)
        self.round_players = len(names)  # K11: players in the game when the round began
        self.order = order  # rule 7 play order of this round
        self.previous_order = order
        self.pending: dict[int, Order] = {}  # orders in for this round
        self.missed = [0] * len(names)  # missed rounds in a row (rule 40)
        self.extra_build: tuple[int, ...] = ()  # seats with the extra build of rule 38
        self.offers: tuple[Offer, ...] = ()  # runs on offer this round
        self.deal: tuple[tuple[str, str], ...] = ()  # runs dealt for later rounds (K3)
        # the record of the last round resolved (its events as the round gave them:
        # ``last_record`` is the record in English, as views and the saved state keep it)
        self.last: dict[str, Any] | None = None
        self.end_reason: str | None = None

    def labelled(self) -> tuple[Say, ...]:
        """Rule 6: how reports name each company, 'Ann (red)' or 'Vale Motors (Ann, red)',
        the colour in the reader's language ('Ann (rot)'); str() gives the English, as logs
        have always kept it."""
        return tuple(
            Say("{name} ({colour})", {"name": name, "colour": COLOUR_WORDS[colour]})
            if company is None
            else Say(
                "{company} ({name}, {colour})",
                {"company": company, "name": name, "colour": COLOUR_WORDS[colour]},
            )
            for name, colour, company in zip(self.names, self.colours, self.companies)
        )

    def renamed(self, seat: int, name: str) -> BusBossState:
        """The state with ``seat``'s company run by ``name`` from now on."""
        new = self.copy()
        new.names = tuple(name if x == seat else n for x, n in enumerate(self.names))
        new.labels = new.labelled()
        return new

    def copy(self) -> BusBossState:
        new = BusBossState.__new__(BusBossState)
        new.map_name = self.map_name
        new.map_version = self.map_version
        new.rulings = self.rulings
        new.map = self.map
        new.names = self.names
        new.colours = self.colours
        new.companies = self.companies
        new.labels = self.labels
        new.seed = self.seed
        # the generator is copied only when one of the two states draws from it: most
        # copies (an order held until the round resolves) never do
        new._rng = self._rng
        new._rng_shared = self._rng_shared = True
        new.round = self.round
        new.cash = self.cash.copy()
        new.owners = self.owners
        new.ownership = self.ownership
        new.active = self.active.copy()
        new.round_players = self.round_players
        new.order = self.order
        new.previous_order = self.previous_order
        new.pending = self.pending.copy()
        new.missed = self.missed.copy()
        new.extra_build = self.extra_build
        new.offers = self.offers
        new.deal = self.deal
        new.last = self.last
        new.end_reason = self.end_reason
        return new

    @property
    def rng(self) -> random.Random:
        """The game's generator, this state's own."""
        if self._rng_shared:
            shared, self._rng = self._rng, random.Random.__new__(random.Random)
            self._rng.setstate(shared.getstate())
            self._rng_shared = False
        return self._rng

    # derived ---------------------------------------------------------------------------------
    @property
    def over(self) -> bool:
        return self.end_reason is not None

    @property
    def phase(self) -> str:
        if self.over:
            return "over"
        return "building" if self.round <= 6 else "operating"

    @property
    def kind(self) -> str:
        """The kind of decision every seat owes this round."""
        return "build" if self.round <= 6 else "operate"

    def label(self, seat: int) -> Words:
        """How reports name a company, or the bank (rule 6)."""
        return THE_BANK if seat == BANK_SEAT else self.labels[seat]

    def owner_name(self, seat: int) -> str:
        return owner_name(seat, self.colours)

    def owner_seat(self, name: str) -> int:
        return owner_seat(name, self.colours)

    def routes_of(self, seat: int) -> list[int]:
        return [i for i, owners in enumerate(self.owners) if seat in owners]

    def players_left(self) -> int:
        return sum(self.active)

    # plain data ------------------------------------------------------------------------------
    def to_data(self) -> dict[str, Any]:
        version, internal, gauss = self.rng.getstate()
        routes = self.map.routes
        return {
            "map": self.map_name,
            "map_version": self.map_version,
            "rulings": self.rulings,
            "players": list(self.names),
            "colours": list(self.colours),
            "companies": list(self.companies),
            "seed": self.seed,
            "rng": [version, list(internal), gauss],
            "round": self.round,
            "cash": list(self.cash),
            "owners": {
                routes[i].name: [self.owner_name(o) for o in owners]
                for i, owners in enumerate(self.owners)
                if owners
            },
            "active": list(self.active),
            "round_players": self.round_players,
            "order": list(self.order),
            "previous_order": list(self.previous_order),
            "pending": {str(seat): format_order(o) for seat, o in sorted(self.pending.items())},
            "missed": list(self.missed),
            "extra_build": list(self.extra_build),
            "offers": [[list(o.cards), o.since] for o in self.offers],
            "deal": [list(pair) for pair in self.deal],
            "last": self.last_record(),
            "end_reason": self.end_reason,
        }

    def last_record(self) -> dict[str, Any] | None:
        """The record of the last round resolved, its events in English, as it always was
        kept (worded only when asked for: most states are never saved or shown)."""
        if self.last is None:
            return None
        return {**self.last, "events": [str(e) for e in self.last["events"]]}

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> BusBossState:
        names = data["players"]
        s = cls(
            data["map"],
            names,
            data["seed"],
            tuple(data["order"]),
            # the data of a game from before maps had versions and companies had names
            data.get("map_version", FIRST_VERSION),
            data.get("colours", COLOURS),
            data.get("companies", ()),
            data.get("rulings", RULINGS_K1_K12),  # (data from before K13-K15)
        )
        version, internal, gauss = data["rng"]
        s.rng.setstate((version, tuple(internal), gauss))
        s.round = data["round"]
        s.cash = list(data["cash"])
        index = {r.name: r.index for r in s.map.routes}
        owners: list[tuple[int, ...]] = [()] * len(s.map.routes)
        for name, who in data["owners"].items():
            owners[index[name]] = tuple(s.owner_seat(o) for o in who)
        s.owners = tuple(owners)
        s.active = list(data["active"])
        s.round_players = data.get("round_players", sum(s.active))
        s.previous_order = tuple(data["previous_order"])
        s.pending = {
            int(seat): parse_order(text)[0].alternatives[0]
            for seat, text in data["pending"].items()
        }
        s.missed = list(data["missed"])
        s.extra_build = tuple(data["extra_build"])
        s.offers = tuple(new_offer(tuple(cards), since) for cards, since in data["offers"])
        s.deal = tuple(tuple(pair) for pair in data["deal"])
        s.last = data["last"]
        s.end_reason = data["end_reason"]
        return s


def owned_routes(
    m: Map, owners: tuple[tuple[int, ...], ...]
) -> Iterator[tuple[Route, tuple[int, ...]]]:
    """The routes somebody owns among ``owners``, each with its owners, in the map's order:
    few, most of a game, so the routes nobody owns are passed over in C."""
    return compress(zip(m.routes, owners), owners)


def owner_name(seat: int, colours: Sequence[str]) -> str:
    """The word orders name an owner by: their colour (``colours`` by seat), or "bank"."""
    return BANK if seat == BANK_SEAT else colours[seat]


def owner_seat(name: str, colours: Sequence[str]) -> int:
    """The seat whose colour (``colours`` by seat) is ``name``, or the bank's; ValueError
    for a colour nobody plays."""
    return BANK_SEAT if name == BANK else list(colours).index(name)
