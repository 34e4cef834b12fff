"""Bus Boss maps (rulings K1, K9): places, destinations keyed to the 52 cards, and routes.

A route runs between two towns. A town is a destination (it carries cards) or a town without
cards; a junction is a point along two or more routes where they cross between towns, never a
route's end: buses may change route there (rule 29) and a new route may join a network there
(rule 10). A map is a YAML file (see ``maps/yorkshire.yaml`` for the commented format) with a
version: ``load_map`` takes the name of a map shipped in ``maps/`` or the path of a game
master's own file, and the version a game was started on, and checks the map whole, naming
every problem, before a game may use it.
"""

from __future__ import annotations

import heapq
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache, reduce
from importlib import resources
from itertools import chain, combinations
from operator import or_
from pathlib import Path
from typing import Any

import yaml

from ..schema import SettingsError, at_least, key_lines, load_yaml_once, read, setting

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("S", "H", "D", "C")
CARDS = tuple(rank + suit for suit in SUITS for rank in RANKS)
KEY = re.compile(r"^[a-z][a-z0-9]*$")
ROUTE_LINE = re.compile(r"^([a-z][a-z0-9]*)\s*-\s*([a-z][a-z0-9]*)\s+(-?\d+)(\s+twice)?$")
DEFAULT_MAP = "yorkshire"
FIRST_VERSION = 1  # a map file that names no version; games before maps had versions used it


@dataclass(frozen=True)
class DestinationEntry:
    cards: tuple[str, ...]
    places: dict[str, Any]  # key: [x, y]


@dataclass(frozen=True)
class TownEntry:
    name: str
    pos: Any  # [x, y]


@dataclass(frozen=True)
class JunctionEntry:
    name: str
    pos: Any  # [x, y]
    along: tuple[str, ...] = ()  # "a-b N": N spaces along the route a-b from a
    since: int = FIRST_VERSION  # the map version that added it


@dataclass(frozen=True)
class MapFile:
    """A map file's sections (``maps/yorkshire.yaml`` comments them); what only the whole
    map can tell (cards keyed once, routes between places, a connected map) is checked by
    ``parse_map``."""

    name: str
    destinations: dict[str, DestinationEntry]
    routes: tuple[str, ...]
    version: int = setting(FIRST_VERSION, check=at_least(FIRST_VERSION, "a whole number"))
    towns: dict[str, TownEntry] = setting(factory=dict)
    junctions: dict[str, JunctionEntry] = setting(factory=dict)


class MapError(ValueError):
    """A map file that cannot be played; ``problems`` lists everything wrong with it, and
    ``lines`` the line of the file each is on (None: the file as a whole)."""

    def __init__(self, source: str, problems: list[str], lines: Sequence[int | None] = ()):
        self.source = source
        self.problems = problems
        self.lines = list(lines) or [None] * len(problems)
        super().__init__(f"map {source} cannot be used:\n" + "\n".join(self.told()))

    @classmethod
    def at(cls, source: str, text: str, found: Sequence[tuple[str | int, str]]) -> MapError:
        """The problems ``found`` as (key path or line, problem), each with its line in the
        map's ``text``: that of its key path, else of the nearest section holding it."""
        lines = key_lines(text)
        return cls(source, [problem for _, problem in found], [
            where if isinstance(where, int)
            else next((lines[p] for p in _and_above(where) if p in lines), None)
            for where, _ in found
        ])  # fmt: skip

    def told(self) -> list[str]:
        """Each problem as a line of a list, with its line in the file."""
        return [
            f"  - line {line}: {problem}" if line else f"  - {problem}"
            for problem, line in zip(self.problems, self.lines)
        ]


def _and_above(path: str) -> list[str]:
    """A key path and each that holds it: 'a.b[2]', 'a.b', 'a'."""
    found = [path]
    while path:
        path = re.sub(r"(\[\d+\]|\.[^.\[]*)$", "", path)
        if path == found[-1]:
            break
        found.append(path)
    return [p for p in found if p]


@dataclass(frozen=True)
class Place:
    key: str
    name: str
    pos: tuple[float, float]
    destination: str | None  # None for a town without cards and for a junction
    junction: bool = False  # K9: a point along routes where they cross, never a route's end

    @property
    def kind(self) -> str:
        """K9: "destination" (a town with cards), "town" (one without) or "junction"."""
        if self.junction:
            return "junction"
        return "town" if self.destination is None else "destination"


@dataclass(frozen=True)
class Route:
    index: int
    ends: tuple[str, str]  # place keys in alphabetical order: the towns it joins
    length: int  # spaces, as printed on the map
    copies: int  # 2 for a doubled route (rule 12)
    junctions: tuple[tuple[str, int], ...] = ()  # (junction, spaces from ends[0]), in order
    # worked out as the route is made: plain attributes, which the searches and the building
    # read often, are read quicker than cached properties
    name: str = field(init=False, compare=False, repr=False)
    cost: int = field(init=False, compare=False, repr=False)  # rule 9
    # every place along the route with its spaces from ends[0]: its two towns and the
    # junctions between them (K9)
    stops: tuple[tuple[str, int], ...] = field(init=False, compare=False, repr=False)
    places: tuple[str, ...] = field(
        init=False, compare=False, repr=False
    )  # their keys, from ends[0]

    def __post_init__(self) -> None:
        stops = ((self.ends[0], 0), *self.junctions, (self.ends[1], self.length))
        for name, value in (
            ("name", f"{self.ends[0]}-{self.ends[1]}"),
            ("cost", self.length + 2),
            ("stops", stops),
            ("places", tuple(p for p, _ in stops)),
        ):
            object.__setattr__(self, name, value)  # (a frozen dataclass)

    def other_end(self, place: str) -> str:
        return self.ends[1] if self.ends[0] == place else self.ends[0]

    def between(self, a: str, b: str) -> tuple[str, ...]:
        """The places the route passes from a to b, both included, in that order."""
        keys = self.places
        i, j = keys.index(a), keys.index(b)
        return keys[i : j + 1] if i <= j else keys[j : i + 1][::-1]


class Map:
    """A checked map, with the lookups and distances the rules ask for worked out once.

    ``steps_at[p]``: from place p, each next place along each route through p, as (place,
    route, spaces); ``leg(a, b)``: the route on which a journey may go from a to b without
    stopping, and its spaces (K4, K9)."""

    def __init__(
        self,
        key: str,
        title: str,
        places: dict[str, Place],
        destinations: dict[str, tuple[str, ...]],
        cards: dict[str, str],
        routes: list[Route],
        version: int = FIRST_VERSION,
    ):
        self.key = key
        self.title = title
        self.version = version
        self.places = places
        self.destinations = destinations  # name -> place keys
        self.card_destination = cards  # card -> destination name
        self.card_places = {card: destinations[d] for card, d in cards.items()}  # -> place keys
        self.destination_cards = {d: tuple(c for c in CARDS if cards[c] == d) for d in destinations}
        self.cards_at = {  # place key -> the cards naming it: none but a destination's
            key: self.destination_cards.get(p.destination, ()) if p.destination else ()
            for key, p in places.items()
        }
        self.routes = tuple(routes)
        # sets of routes as the bits of an int, the cheapest route the lowest bit (what a
        # bot can buy is worked out each decision): a route's bit, in bit order the costs,
        # and by route the routes that share a town or junction with it (itself included)
        self.routes_by_cost = tuple(sorted(routes, key=lambda r: (r.cost, r.name)))
        self.costs = tuple(r.cost for r in self.routes_by_cost)
        self.bit = [0] * len(routes)
        for i, r in enumerate(self.routes_by_cost):
            self.bit[r.index] = 1 << i
        self.route_between = {r.ends: r for r in routes}
        self.routes_at = {p: tuple(r for r in routes if p in r.ends) for p in places}
        self.routes_through = {p: tuple(r for r in routes if p in r.places) for p in places}
        self.meeting = tuple(  # by route index
            reduce(or_, (self.bit[o.index] for p in r.places for o in self.routes_through[p]))
            for r in routes
        )
        # the routes of each byte's bits, by the byte's place in a set and its value: a set
        # is read a byte at a time, not a bit at a time
        by_cost, n = self.routes_by_cost, len(routes)
        self.routes_in_byte = tuple(
            tuple(
                tuple(by_cost[8 * i + j] for j in range(8) if value >> j & 1 and 8 * i + j < n)
                for value in range(256)
            )
            for i in range((n + 7) // 8)
        )
        steps: dict[str, list[tuple[str, Route, int]]] = {p: [] for p in places}
        # by route: each step between two places next to each other along it, both ways, as
        # (from, (to, route, spaces)): a network of owned routes is made of them
        route_steps: list[tuple[tuple[str, tuple[str, Route, int]], ...]] = []
        legs: dict[tuple[str, str], list[tuple[Route, int]]] = {}
        for r in routes:
            stops = r.stops
            along = tuple((a, b, at_b - at_a) for (a, at_a), (b, at_b) in zip(stops, stops[1:]))
            route_steps.append(
                tuple(chain.from_iterable(((a, (b, r, n)), (b, (a, r, n))) for a, b, n in along))
            )
            for a, b, spaces in along:
                steps[a].append((b, r, spaces))
                steps[b].append((a, r, spaces))
            for (a, at_a), (b, at_b) in combinations(stops, 2):
                legs.setdefault((a, b) if a < b else (b, a), []).append((r, at_b - at_a))
        self.steps_at = {p: tuple(s) for p, s in steps.items()}
        self.route_steps = tuple(route_steps)
        self.legs = legs  # every pair of places on one route; parse_map allows one route a pair
        # shortest spaces over the whole map (K3, rule 25), which the deal and every journey
        # search ask for, worked out with the map: from each destination to every place it
        # reaches, and between the destinations of each two cards
        self.to_destination = {d: _spaces_from(self, d) for d in destinations}
        nearest = {
            d: {
                other: min(spaces[p] for p in destinations[other] if p in spaces)
                for other in destinations
                if any(p in spaces for p in destinations[other])
            }
            for d, spaces in self.to_destination.items()
        }
        self.card_spaces = {
            a: {b: nearest[da][db] for b, db in cards.items() if db in nearest[da]}
            for a, da in cards.items()
        }

    def route(self, a: str, b: str) -> Route | None:
        """The route whose two towns are a and b (what a purchase names)."""
        return self.route_between.get((a, b) if a < b else (b, a))

    def leg(self, a: str, b: str) -> tuple[Route, int] | None:
        """The route that passes both a and b, and the spaces between them on it (K9: a
        junction splits the routes through it into legs)."""
        found = self.legs.get((a, b) if a < b else (b, a))
        return found[0] if found else None

    def routes_of(self, bits: int) -> list[Route]:
        """The routes of a set of them as bits (``bit``), cheapest first."""
        found: list[Route] = []
        for at, value in enumerate(bits.to_bytes(len(self.routes_in_byte), "little")):
            if value:
                found += self.routes_in_byte[at][value]
        return found

    def nth_route(self, bits: int, n: int) -> Route:
        """The route ``routes_of(bits)[n]``, without listing those after it."""
        for at, value in enumerate(bits.to_bytes(len(self.routes_in_byte), "little")):
            routes = self.routes_in_byte[at][value]
            if n < len(routes):
                return routes[n]
            n -= len(routes)
        raise IndexError(n)

    def places_of_card(self, card: str) -> tuple[str, ...]:
        return self.card_places[card]

    def distance(self, card_a: str, card_b: str) -> int:
        """Shortest spaces between two cards' destinations over every route of the map (K3),
        changing routes at towns and junctions (rule 29); parse_map refuses a map that is
        not connected."""
        return self.card_spaces[card_a][card_b]


def _spaces_from(m: Map, dest: str) -> dict[str, int]:
    """Shortest spaces over the whole map from one destination to every place it reaches:
    no journey over some of the routes is shorter."""
    best = dict.fromkeys(m.destinations[dest], 0)
    heap = [(0, p) for p in sorted(best)]
    while heap:
        d, p = heapq.heappop(heap)
        if d > best[p]:
            continue
        for q, _, spaces in m.steps_at[p]:  # along each route, to a town or a junction
            nd = d + spaces
            if nd < best.get(q, nd + 1):
                best[q] = nd
                heapq.heappush(heap, (nd, q))
    return best


# loading and checking ------------------------------------------------------------------------


def map_names() -> tuple[str, ...]:
    """The maps shipped with the project, by name."""
    folder = resources.files(__package__).joinpath("maps")
    return tuple(sorted(f.name[:-5] for f in folder.iterdir() if f.name.endswith(".yaml")))


def load_map(name_or_path: str = DEFAULT_MAP, version: int | None = None) -> Map:
    """The map named (one shipped in maps/) or at a path (a game master's own file), as it
    was in ``version`` (None: the file's own version). Loaded once per process: a map must
    not change under a running game; one Map object stands for one version of a map."""
    latest = _load_map(name_or_path, None)
    return latest if version in (None, latest.version) else _load_map(name_or_path, version)


@lru_cache(maxsize=16)
def _load_map(name_or_path: str, version: int | None) -> Map:
    if name_or_path in map_names():
        text = (
            resources.files(__package__)
            .joinpath("maps", name_or_path + ".yaml")
            .read_text(encoding="utf-8")
        )
        return parse_map(text, name_or_path, name_or_path + ".yaml", version)
    path = Path(name_or_path)
    if not path.is_file():
        raise MapError(
            name_or_path,
            [
                f"there is no such map; the maps shipped are {', '.join(map_names())}, "
                "or give the path of a map file"
            ],
        )
    return read_map_file(path, name_or_path, version)


def read_map_file(path: Path, key: str | None = None, version: int | None = None) -> Map:
    """The map in a game master's file (``key``: what games name it by, its path if not
    given), or MapError naming every problem with its line."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise MapError(str(path), ["there is no such file"]) from None
    except (OSError, UnicodeDecodeError) as err:
        raise MapError(str(path), [f"the file cannot be read: {err}"]) from None
    return parse_map(text, key or str(path), str(path), version)


def parse_map(text: str, key: str = "map", source: str = "map", version: int | None = None) -> Map:
    """A map from the text of a map file, as it was in ``version`` (None: the file's own
    version; a junction marked ``since: N`` is left out of versions before N). Raises
    MapError naming every problem, each with its line in the file where it has one."""
    try:
        data, repeated = load_yaml_once(text)
        file = read(MapFile, data, source)
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        raise MapError(
            source, [f"not readable as YAML: {e}"], [mark.line + 1 if mark else None]
        ) from None
    except SettingsError as e:
        raise MapError.at(source, text, [(p.path, str(p)) for p in e.problems]) from None
    latest = file.version
    if version is None:
        version = latest
    elif not FIRST_VERSION <= version <= latest:
        raise MapError(
            source,
            [
                f"the game was started on version {version} of this map, but the file holds "
                f"version {latest}: a map file keeps its earlier versions only by marking "
                "what each added with 'since'"
            ],
        )
    # (the key path it is at, or its line, and the problem)
    problems: list[tuple[str | int, str]] = [
        (line, f"{written!r} is written twice (first on line {first}), and only the last "
         "counts: give each key once")
        for written, line, first in repeated
    ]  # fmt: skip
    place_at: dict[str, str] = {}  # by place key, the key path of its entry

    places: dict[str, Place] = {}
    destinations: dict[str, tuple[str, ...]] = {}
    card_owner: dict[str, str] = {}

    def add_place(
        pkey: object,
        name: str,
        pos: Any,
        destination: str | None,
        where: str,
        at: str,
        junction: bool = False,
    ) -> None:
        pkey = str(pkey)
        if not KEY.match(pkey):
            problems.append(
                (
                    at,
                    f"{where}: place key {pkey!r} must be lower-case letters and digits, "
                    "starting with a letter",
                )
            )
        elif pkey in places:
            problems.append((at, f"{where}: place key {pkey!r} is used twice"))
        if not (
            isinstance(pos, (list, tuple))
            and len(pos) == 2
            and all(isinstance(v, (int, float)) and 0 <= v <= 100 for v in pos)
        ):
            problems.append(
                (
                    at,
                    f"{where}: the position of {pkey!r} must be [x, y] with numbers "
                    f"from 0 to 100, not {pos!r}",
                )
            )
            pos = (0, 0)
        places[pkey] = Place(pkey, name, (pos[0], pos[1]), destination, junction)
        place_at.setdefault(pkey, at)

    for dname, d in file.destinations.items():
        where, at = f"destination {dname}", f"destinations.{dname}"
        if not d.cards:
            problems.append((at, f"{where}: it needs at least one card"))
        for i, card in enumerate(d.cards):
            card = card.upper()
            if card not in CARDS:
                problems.append(
                    (
                        f"{at}.cards[{i}]",
                        f"{where}: {card!r} is not a playing card (write e.g. AS, 10H, QD)",
                    )
                )
            elif card in card_owner:
                problems.append(
                    (
                        f"{at}.cards[{i}]",
                        f"card {card} is keyed twice: to {card_owner[card]} and {dname}",
                    )
                )
            else:
                card_owner[card] = dname
        if not d.places:
            problems.append((at, f"{where}: it needs at least one place, as {{key: [x, y]}}"))
        for pkey, pos in d.places.items():
            pname = dname if len(d.places) == 1 else f"{dname} ({pkey})"
            add_place(pkey, pname, pos, dname, where, f"{at}.places.{pkey}")
        destinations[dname] = tuple(d.places)
    missing = [c for c in CARDS if c not in card_owner]
    if missing:
        problems.append(
            (
                "destinations",
                f"card(s) {' '.join(missing)} are keyed to no destination; "
                "each of the 52 cards must be keyed exactly once",
            )
        )

    for tkey, town in file.towns.items():
        add_place(tkey, town.name, town.pos, None, f"town {tkey}", f"towns.{tkey}")

    # K9: a junction lies along routes, a given number of spaces from one of their towns
    # (junction, town, town, spaces, where, its key path)
    along: list[tuple[str, str, str, int, str, str]] = []
    junctions = file.junctions
    towns_written_as_junctions = set()
    for jkey, j in junctions.items():
        where, at = f"junction {jkey}", f"junctions.{jkey}"
        if not j.along:
            towns_written_as_junctions.add(jkey)
            problems.append(
                (
                    at,
                    f"{where}: a junction is a point where routes cross between towns, so it "
                    "says which routes it lies along ('along: [a-b N, c-d M]', N spaces from "
                    "a); a place where routes end is a town: list it under towns (K9)",
                )
            )
            continue
        if not FIRST_VERSION <= j.since <= latest:
            problems.append(
                (
                    f"{at}.since",
                    f"{where}: 'since' is the map version that added it, from {FIRST_VERSION} "
                    f"to {latest}, not {j.since!r}",
                )
            )
            continue
        if j.since > version:
            continue  # not on the map yet in the version played
        if len(j.along) < 2:
            problems.append(
                (f"{at}.along", f"{where}: a junction lies on at least two routes (K9)")
            )
        add_place(jkey, j.name, j.pos, None, where, at, junction=True)
        for i, item in enumerate(j.along):
            found = ROUTE_LINE.match(item.strip().lower())
            if not found or found.group(4):
                problems.append(
                    (
                        f"{at}.along[{i}]",
                        f"{where}: write where it lies as 'a-b N': on the route a-b, N spaces "
                        f"from a, not {item!r}",
                    )
                )
                continue
            a, b, spaces = found.group(1), found.group(2), int(found.group(3))
            along.append((jkey, a, b, spaces, where, f"{at}.along[{i}]"))

    routes: list[Route] = []
    route_at: list[str] = []  # by route index, the key path of its line
    seen: dict[tuple[str, str], int] = {}
    if not file.routes:
        problems.append(("routes", "routes must be a list of lines like 'leeds-york 9'"))
    for number, line in enumerate(file.routes, 1):
        where, at = f"route {number} ({line!r})", f"routes[{number - 1}]"
        match = ROUTE_LINE.match(str(line).strip().lower())
        if not match:
            problems.append((at, f"{where}: write a route as 'a-b N' or 'a-b N twice'"))
            continue
        a, b, length, twice = match.group(1), match.group(2), int(match.group(3)), match.group(4)
        bad = [p for p in (a, b) if p not in places and p not in junctions]
        if bad:
            problems.append((at, f"{where}: no place {' or '.join(map(repr, bad))} on the map"))
            continue
        if towns_written_as_junctions & {a, b}:
            continue  # named once, under its junction
        at_junction = [p for p in (a, b) if p in junctions]
        if at_junction:
            problems.append(
                (
                    at,
                    f"{where}: a route runs between towns, and {at_junction[0]} is a junction, "
                    "a point along routes (K9)",
                )
            )
            continue
        if a == b:
            problems.append((at, f"{where}: a route must join two different places"))
            continue
        if length < 1:
            problems.append(
                (at, f"{where}: the length must be a whole number of spaces, at least 1")
            )
            continue
        ends = (a, b) if a < b else (b, a)
        if ends in seen:
            problems.append(
                (
                    at,
                    f"{where}: {ends[0]}-{ends[1]} is already route {seen[ends]}; "
                    "write 'twice' on one line for a doubled route (rule 12)",
                )
            )
            continue
        seen[ends] = number
        routes.append(Route(len(routes), ends, length, 2 if twice else 1))
        route_at.append(at)

    by_ends = {r.ends: r for r in routes}
    crossings: dict[int, list[tuple[str, int]]] = {}
    for jkey, a, b, spaces, where, at in along:
        route = by_ends.get((a, b) if a < b else (b, a))
        if route is None:
            problems.append((at, f"{where}: there is no route {a}-{b} for it to lie on"))
            continue
        if not 0 < spaces < route.length:
            problems.append(
                (
                    at,
                    f"{where}: on {route.name} ({route.length} spaces) it lies 1 to "
                    f"{route.length - 1} spaces from {a}, not {spaces}",
                )
            )
            continue
        spot = spaces if a == route.ends[0] else route.length - spaces
        points = crossings.setdefault(route.index, [])
        if any(other == jkey for other, _ in points):
            problems.append((at, f"{where}: it lies on {route.name} once"))
        elif any(other_spot == spot for _, other_spot in points):
            problems.append((at, f"{where}: another junction lies at that space of {route.name}"))
        else:
            points.append((jkey, spot))
    routes = [
        Route(
            r.index,
            r.ends,
            r.length,
            r.copies,
            tuple(sorted(crossings.get(r.index, []), key=lambda p: p[1])),
        )
        for r in routes
    ]
    # what the routes read so far tell of the whole: told beside the problems above, so a
    # map maker sees everything at once
    joined: dict[str, int] = {}
    for r in routes:
        for end in r.ends:
            joined[end] = joined.get(end, 0) + 1
    for pkey, place in places.items():
        if place.kind == "town" and joined.get(pkey, 0) < 2:
            problems.append(
                (
                    place_at[pkey],
                    f"town {pkey}: a town without cards must join at least two routes",
                )
            )
    if places:
        start = next(iter(places))
        reached = _reachable(places, routes, start)
        cut_off = [p for p in places if p not in reached]
        if cut_off:
            problems.append(
                (
                    place_at[cut_off[0]],
                    f"the map is not connected: no route leads from {start} "
                    f"to {', '.join(cut_off)}",
                )
            )
    if problems:
        raise MapError.at(source, text, problems)

    m = Map(key, file.name, places, destinations, card_owner, routes, version)
    for (a, b), on in m.legs.items():
        if len(on) > 1:
            problems.append(
                (
                    route_at[on[1][0].index],
                    f"{' and '.join(r.name for r, _ in on)} both pass {a} and {b}: two routes "
                    "may meet at one junction or town, not run side by side between two",
                )
            )
    if problems:
        raise MapError.at(source, text, problems)
    return m


def _reachable(places: Mapping[str, Place], routes: Sequence[Route], start: str) -> set[str]:
    """The places a bus reaches from ``start`` along the routes (and the junctions on
    them)."""
    linked: dict[str, set[str]] = {p: set() for p in places}
    for r in routes:
        for p in r.places:
            linked[p].update(r.places)
    seen, todo = {start}, [start]
    while todo:
        for q in linked[todo.pop()]:
            if q not in seen:
                seen.add(q)
                todo.append(q)
    return seen
