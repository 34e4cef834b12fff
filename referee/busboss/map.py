"""Bus Boss maps (ruling K1): places, destinations keyed to the 52 cards, and routes.

A map is a YAML file (see ``maps/yorkshire.yaml`` for the commented format). ``load_map``
takes the name of a map shipped in ``maps/`` or the path of a game master's own file and
checks it whole, naming every problem, before a game may use it.
"""

from __future__ import annotations

import heapq
import re
from collections.abc import Callable, Collection, Container, Iterable
from dataclasses import dataclass
from functools import cache, cached_property, lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

import yaml

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("S", "H", "D", "C")
CARDS = tuple(rank + suit for suit in SUITS for rank in RANKS)
KEY = re.compile(r"^[a-z][a-z0-9]*$")
ROUTE_LINE = re.compile(r"^([a-z][a-z0-9]*)\s*-\s*([a-z][a-z0-9]*)\s+(-?\d+)(\s+twice)?$")
DEFAULT_MAP = "yorkshire"


class MapError(ValueError):
    """A map file that cannot be played; ``problems`` lists everything wrong with it."""

    def __init__(self, source: str, problems: list[str]):
        lines = "\n".join(f"  - {p}" for p in problems)
        super().__init__(f"map {source} cannot be used:\n{lines}")
        self.source = source
        self.problems = problems


@dataclass(frozen=True)
class Place:
    key: str
    name: str
    pos: tuple[float, float]
    destination: str | None  # None for a junction


@dataclass(frozen=True)
class Route:
    index: int
    ends: tuple[str, str]  # place keys in alphabetical order
    length: int  # spaces, as printed on the map
    copies: int  # 2 for a doubled route (rule 12)

    @cached_property
    def name(self) -> str:
        return f"{self.ends[0]}-{self.ends[1]}"

    @cached_property
    def cost(self) -> int:
        return self.length + 2  # rule 9

    def other_end(self, place: str) -> str:
        return self.ends[1] if self.ends[0] == place else self.ends[0]


class Map:
    """A checked map. Lookups only; distances over the whole map are cached."""

    def __init__(
        self,
        key: str,
        title: str,
        places: dict[str, Place],
        destinations: dict[str, tuple[str, ...]],
        cards: dict[str, str],
        routes: list[Route],
    ):
        self.key = key
        self.title = title
        self.places = places
        self.destinations = destinations  # name -> place keys
        self.card_destination = cards  # card -> destination name
        self.destination_cards = {d: tuple(c for c in CARDS if cards[c] == d) for d in destinations}
        self.routes = tuple(routes)
        self.route_between = {r.ends: r for r in routes}
        self.routes_at = {p: tuple(r for r in routes if p in r.ends) for p in places}

    def route(self, a: str, b: str) -> Route | None:
        return self.route_between.get((a, b) if a < b else (b, a))

    def places_of_card(self, card: str) -> tuple[str, ...]:
        return self.destinations[self.card_destination[card]]

    def distance(self, card_a: str, card_b: str) -> int:
        """Shortest spaces between two cards' destinations over every route of the map (K3)."""
        spaces = _map_distance(self, self.card_destination[card_a], self.card_destination[card_b])
        assert spaces is not None  # parse_map refuses a map that is not connected
        return spaces


def _map_distance(m: Map, dest_a: str, dest_b: str) -> int | None:
    return _map_distances(m, dest_a).get(dest_b)


@cache
def _map_distances(m: Map, dest: str) -> dict[str, int]:
    """Shortest spaces over the whole map from one destination to every other: one search
    for all of them, once per map."""
    best = dict.fromkeys(m.destinations[dest], 0)
    heap = [(0, p) for p in sorted(best)]
    while heap:
        d, p = heapq.heappop(heap)
        if d > best[p]:
            continue
        for r in m.routes_at[p]:
            q, nd = r.other_end(p), d + r.length
            if nd < best.get(q, nd + 1):
                best[q] = nd
                heapq.heappush(heap, (nd, q))
    found: dict[str, int] = {}
    for p, d in best.items():
        name = m.places[p].destination
        if name is not None and d < found.get(name, d + 1):
            found[name] = d
    return found


def shortest(
    starts: Collection[str],
    targets: Container[str],
    neighbours: Callable[[str], Iterable[tuple[str, int]]],
) -> int | None:
    """Dijkstra from several start places to the nearest of ``targets``."""
    best = dict.fromkeys(starts, 0)
    heap = [(0, p) for p in sorted(starts)]
    while heap:
        d, p = heapq.heappop(heap)
        if p in targets:
            return d
        if d > best[p]:
            continue
        for q, length in neighbours(p):
            nd = d + length
            if nd < best.get(q, nd + 1):
                best[q] = nd
                heapq.heappush(heap, (nd, q))
    return None


# loading and checking ------------------------------------------------------------------------


def map_names() -> tuple[str, ...]:
    """The maps shipped with the project, by name."""
    folder = resources.files(__package__).joinpath("maps")
    return tuple(sorted(f.name[:-5] for f in folder.iterdir() if f.name.endswith(".yaml")))


@lru_cache(maxsize=16)
def load_map(name_or_path: str = DEFAULT_MAP) -> Map:
    """The map named (one shipped in maps/) or at a path (a game master's own file).
    Loaded once per process: a map must not change under a running game."""
    if name_or_path in map_names():
        text = (
            resources.files(__package__)
            .joinpath("maps", name_or_path + ".yaml")
            .read_text(encoding="utf-8")
        )
        return parse_map(text, name_or_path, name_or_path + ".yaml")
    path = Path(name_or_path)
    if not path.is_file():
        raise MapError(
            name_or_path,
            [
                f"there is no such map; the maps shipped are {', '.join(map_names())}, "
                "or give the path of a map file"
            ],
        )
    return parse_map(path.read_text(encoding="utf-8"), name_or_path, str(path))


def parse_map(text: str, key: str = "map", source: str = "map") -> Map:
    """A map from the text of a map file; raises MapError naming every problem."""
    problems: list[str] = []
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as e:
        raise MapError(source, [f"not readable as YAML: {e}"]) from None
    if not isinstance(data, dict):
        raise MapError(
            source, ["the file must hold the sections name, destinations, junctions and routes"]
        )
    for section in ("name", "destinations", "routes"):
        if section not in data:
            problems.append(f"the section '{section}' is missing")
    unknown = set(data) - {"name", "destinations", "junctions", "routes"}
    if unknown:
        problems.append(
            f"unknown section(s) {', '.join(sorted(map(str, unknown)))}; "
            "the sections are name, destinations, junctions and routes"
        )
    if problems:
        raise MapError(source, problems)

    places: dict[str, Place] = {}
    destinations: dict[str, tuple[str, ...]] = {}
    card_owner: dict[str, str] = {}

    def add_place(pkey: object, name: str, pos: Any, destination: str | None, where: str) -> None:
        pkey = str(pkey)
        if not KEY.match(pkey):
            problems.append(
                f"{where}: place key {pkey!r} must be lower-case letters and digits, "
                "starting with a letter"
            )
        elif pkey in places:
            problems.append(f"{where}: place key {pkey!r} is used twice")
        if not (
            isinstance(pos, (list, tuple))
            and len(pos) == 2
            and all(isinstance(v, (int, float)) and 0 <= v <= 100 for v in pos)
        ):
            problems.append(
                f"{where}: the position of {pkey!r} must be [x, y] with numbers "
                f"from 0 to 100, not {pos!r}"
            )
            pos = (0, 0)
        places[pkey] = Place(pkey, name, (pos[0], pos[1]), destination)

    dests = data["destinations"]
    if not isinstance(dests, dict) or not dests:
        raise MapError(
            source, ["destinations must map each destination's name to its cards and places"]
        )
    for dname, d in dests.items():
        dname = str(dname)
        where = f"destination {dname}"
        if not isinstance(d, dict) or set(d) != {"cards", "places"}:
            problems.append(f"{where}: write it as {{cards: [...], places: {{key: [x, y]}}}}")
            continue
        cards = d["cards"] if isinstance(d["cards"], list) else []
        if not cards:
            problems.append(f"{where}: it needs at least one card")
        for card in cards:
            card = str(card).upper()
            if card not in CARDS:
                problems.append(f"{where}: {card!r} is not a playing card (write e.g. AS, 10H, QD)")
            elif card in card_owner:
                problems.append(f"card {card} is keyed twice: to {card_owner[card]} and {dname}")
            else:
                card_owner[card] = dname
        dplaces = d["places"] if isinstance(d["places"], dict) else {}
        if not dplaces:
            problems.append(f"{where}: it needs at least one place, as {{key: [x, y]}}")
        for pkey, pos in dplaces.items():
            pname = dname if len(dplaces) == 1 else f"{dname} ({pkey})"
            add_place(pkey, pname, pos, dname, where)
        destinations[dname] = tuple(str(p) for p in dplaces)
    missing = [c for c in CARDS if c not in card_owner]
    if missing:
        problems.append(
            f"card(s) {' '.join(missing)} are keyed to no destination; "
            "each of the 52 cards must be keyed exactly once"
        )

    junctions = data.get("junctions") or {}
    if not isinstance(junctions, dict):
        problems.append("junctions must map each junction's key to {name: ..., pos: [x, y]}")
        junctions = {}
    for jkey, j in junctions.items():
        if not isinstance(j, dict) or set(j) != {"name", "pos"}:
            problems.append(f"junction {jkey}: write it as {{name: ..., pos: [x, y]}}")
            continue
        add_place(jkey, str(j["name"]), j["pos"], None, f"junction {jkey}")

    routes: list[Route] = []
    seen: dict[tuple[str, str], int] = {}
    lines = data["routes"] if isinstance(data["routes"], list) else []
    if not lines:
        problems.append("routes must be a list of lines like 'leeds-york 9'")
    for number, line in enumerate(lines, 1):
        where = f"route {number} ({line!r})"
        match = ROUTE_LINE.match(str(line).strip().lower())
        if not match:
            problems.append(f"{where}: write a route as 'a-b N' or 'a-b N twice'")
            continue
        a, b, length, twice = match.group(1), match.group(2), int(match.group(3)), match.group(4)
        bad = [p for p in (a, b) if p not in places]
        if bad:
            problems.append(f"{where}: no place {' or '.join(map(repr, bad))} on the map")
            continue
        if a == b:
            problems.append(f"{where}: a route must join two different places")
            continue
        if length < 1:
            problems.append(f"{where}: the length must be a whole number of spaces, at least 1")
            continue
        ends = (a, b) if a < b else (b, a)
        if ends in seen:
            problems.append(
                f"{where}: {ends[0]}-{ends[1]} is already route {seen[ends]}; "
                "write 'twice' on one line for a doubled route (rule 12)"
            )
            continue
        seen[ends] = number
        routes.append(Route(len(routes), ends, length, 2 if twice else 1))
    if problems:
        raise MapError(source, problems)

    m = Map(key, str(data["name"]), places, destinations, card_owner, routes)
    for pkey, place in places.items():
        if place.destination is None and len(m.routes_at[pkey]) < 2:
            problems.append(f"junction {pkey}: a junction must join at least two routes")
    reached = _reachable(m, next(iter(places)))
    cut_off = [p for p in places if p not in reached]
    if cut_off:
        problems.append(
            f"the map is not connected: no route leads from {next(iter(places))} "
            f"to {', '.join(cut_off)}"
        )
    if problems:
        raise MapError(source, problems)
    return m


def _reachable(m: Map, start: str) -> set[str]:
    seen, todo = {start}, [start]
    while todo:
        p = todo.pop()
        for r in m.routes_at[p]:
            q = r.other_end(p)
            if q not in seen:
                seen.add(q)
                todo.append(q)
    return seen
