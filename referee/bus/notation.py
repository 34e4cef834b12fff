"""The order language of Bus: one order per line, case-insensitive; `a | b` gives alternatives.

    build house 15          a building (setup and the Buildings action); house, office or pub
    line 15-21              a street from the head at 15 to 21 (setup and Line Expansion);
                            `line 15-21-22` lays a path, one order per street
    action vroom            choose an action: line, buses, passengers, buildings, clock, vroom,
                            start; `action line vroom` queues two choices
    pass                    stop choosing actions this round
    passengers 11:2 26:1    new passengers at the stations (station:count)
    clock stop | clock go   stop time (take a clock stone) or let the clock turn
    vroom 15 to 21          carry a passenger from crossing 15 to a building at 21

`format` writes the canonical form; `parse(format(o))` gives back `o`.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from ..contract import Entry, NotAnOrder, NotationError, Say

BUILDING_TYPES = ("house", "office", "pub")
ACTIONS = ("line", "buses", "passengers", "buildings", "clock", "vroom", "start")


class Order(NamedTuple):
    kind: str  # the decision kind it answers: build, line, action, passengers, clock, vroom
    args: tuple  # build: (crossing, type); line/vroom: (from, to); action: (name,) or ("pass",);
    # passengers: (count at first station, count at second); clock: ("stop"|"go",)


ACTION_NAMES = {
    "line": "line",
    "lines": "line",
    "expand": "line",
    "expansion": "line",
    "line-expansion": "line",
    "bus": "buses",
    "buses": "buses",
    "passenger": "passengers",
    "passengers": "passengers",
    "building": "buildings",
    "buildings": "buildings",
    "build": "buildings",
    "clock": "clock",
    "time": "clock",
    "start": "start",
    "starting-player": "start",
    "start-player": "start",
    "startplayer": "start",
}
TYPE_NAMES = {
    "house": "house",
    "houses": "house",
    "h": "house",
    "office": "office",
    "offices": "office",
    "o": "office",
    "pub": "pub",
    "pubs": "pub",
    "p": "pub",
}
VROOM = re.compile(r"^vr+o+m+!*$")


def format_order(order: Order, stations: tuple[int, ...] = (11, 26)) -> str:
    kind, args = order
    if kind == "action":  # the most common first: most decisions choose an action
        return "pass" if args[0] == "pass" else f"action {args[0]}"
    if kind == "build":
        return f"build {args[1]} {args[0]}"
    if kind == "line":
        return f"line {args[0]}-{args[1]}"
    if kind == "passengers":
        parts = [f"{s}:{n}" for s, n in zip(stations, args) if n]
        return "passengers " + (" ".join(parts) if parts else "none")
    if kind == "clock":
        return f"clock {args[0]}"
    if kind == "vroom":
        return f"vroom {args[0]} to {args[1]}"
    raise ValueError(f"unknown order kind {kind!r}")


def parse_orders(text: str, stations: tuple[int, ...] = (11, 26)) -> list[Entry]:
    """Every non-empty line of ``text`` into entries; raises NotationError on the first bad line."""
    entries: list[Entry] = []
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        alternatives = [alt.strip() for alt in line.split("|")]
        if len(alternatives) > 1:
            options = []
            for alt in alternatives:
                parsed = _parse_line(alt, stations)
                if len(parsed) != 1:
                    raise NotationError(
                        Say("each alternative around | must be one single order"), raw
                    )
                options.append(parsed[0])
            entries.append(Entry(tuple(options), line))
        else:
            entries.extend(Entry((o,), line) for o in _parse_line(line, stations))
    return entries


def _words(line: str) -> list[str]:
    line = line.lower().replace(",", " ").replace("->", " to ").replace(">", " to ")
    line = re.sub(r"\b(line|starting|start)\s+(expansion|player)\b", r"\1-\2", line)
    return line.split()


def _number(word: str, line: str) -> int:
    # ASCII digits only: isdigit() also takes "²", which int() refuses; and no crossing or
    # count has more than a few digits, while int() refuses more than 4,300
    if not (word.isascii() and word.isdigit()) or len(word) > 6:
        raise NotationError(Say("{word!r} is not a crossing number", {"word": word}), line)
    return int(word)


def _parse_line(line: str, stations: tuple[int, ...]) -> list[Order]:
    words = _words(line)
    if not words:  # "|" alone, or an empty alternative as in "pass | |"
        raise NotationError(Say("an order is missing around '|'"), line)
    verb, rest = words[0], words[1:]
    if verb == "pass":
        if rest:
            raise NotationError(Say("'pass' takes nothing after it"), line)
        return [Order("action", ("pass",))]
    if verb in ("action", "actions", "choose", "take"):
        if not rest:
            raise NotationError(
                Say("name the action: {actions}", {"actions": ", ".join(ACTIONS)}), line
            )
        return [_action(word, line) for word in rest]
    if verb == "build":
        return [_build(rest, line)]
    if verb == "line":
        return _line(rest, line)
    if verb in ("passengers", "passenger"):
        return [_passengers(rest, line, stations)]
    if verb == "clock" or (verb in ("stop", "go") and not rest):
        return [_clock(rest if verb == "clock" else [verb], line)]
    if VROOM.match(verb):
        return [_vroom(rest, line)]
    raise NotAnOrder(
        Say(
            "not an order; orders start with build, line, action, pass, passengers, clock or vroom"
        ),
        line,
    )


def _action(word: str, line: str) -> Order:
    if word == "pass":
        return Order("action", ("pass",))
    name = "vroom" if VROOM.match(word) else ACTION_NAMES.get(word)
    if name is None:
        raise NotationError(
            Say(
                "{word!r} is not an action; the actions are {actions}",
                {"word": word, "actions": ", ".join(ACTIONS)},
            ),
            line,
        )
    return Order("action", (name,))


def _build(rest: list[str], line: str) -> Order:
    types = [TYPE_NAMES[w] for w in rest if w in TYPE_NAMES]
    numbers = [w for w in rest if w not in TYPE_NAMES and w not in ("at", "on", "a", "an")]
    if len(types) != 1 or len(numbers) != 1:
        raise NotationError(
            Say("write e.g. 'build house 15': one type (house, office, pub) and one crossing"),
            line,
        )
    return Order("build", (_number(numbers[0], line), types[0]))


def _line(rest: list[str], line: str) -> list[Order]:
    if len(rest) > 1 and not any("-" in w for w in rest):
        rest = ["-".join(rest)]  # "line 15 21 22" is a path too
    orders: list[Order] = []
    for word in rest:
        path = [_number(w, line) for w in word.split("-")]
        if len(path) < 2:
            raise NotationError(
                Say("write a street as two crossings joined by '-', e.g. 15-21"), line
            )
        orders.extend(Order("line", (a, b)) for a, b in zip(path, path[1:]))
    if not orders:
        raise NotationError(Say("name the street, e.g. 'line 15-21'"), line)
    return orders


def _passengers(rest: list[str], line: str, stations: tuple[int, ...]) -> Order:
    counts = dict.fromkeys(stations, 0)
    for word in rest:
        if word == "none":
            continue
        label, _, count = word.partition(":")
        station = _number(label, line)
        if station not in counts:
            raise NotationError(
                Say(
                    "passengers arrive at the stations {a} and {b}, not at {station}",
                    {"a": stations[0], "b": stations[1], "station": station},
                ),
                line,
            )
        counts[station] += _number(count, line) if count else 1
    return Order("passengers", tuple(counts[s] for s in stations))


def _clock(rest: list[str], line: str) -> Order:
    if rest in (["stop"], ["stops"], ["halt"]):
        return Order("clock", ("stop",))
    if rest in (["go"], ["run"], ["turn"], ["on"]):
        return Order("clock", ("go",))
    raise NotationError(Say("write 'clock stop' to stop time or 'clock go' to let it turn"), line)


def _vroom(rest: list[str], line: str) -> Order:
    numbers = [w for w in rest if w not in ("to", "from")]
    if len(numbers) == 1 and "-" in numbers[0]:
        numbers = numbers[0].split("-")
    if len(numbers) != 2:
        raise NotationError(Say("write e.g. 'vroom 15 to 21': from a crossing to a crossing"), line)
    return Order("vroom", (_number(numbers[0], line), _number(numbers[1], line)))
