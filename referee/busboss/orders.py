"""The order language of Bus Boss: one order a round, written on several lines.

Case does not matter, spaces around `-`, `|`, `:` and `(` are optional, `#` starts a comment.

    round 8                         the round the order is for (optional; checked when given)
    build leeds-york york-malton | leeds-harrogate | nothing
                                    a purchase (rules 8, 34, 35): routes bought together,
                                    alternatives in order of preference; `cost 16` after an
                                    alternative states its total, which is checked; a second
                                    build line is the extra build after a missed round (rule 38)
    run 7H-QS: hull-beverley-york(blue)-leeds
                                    enter the run between the destinations of 7H and QS with
                                    this journey; `(blue)` names whose route the leg arriving at
                                    york uses, needed only where several could serve (K4);
                                    a journey names the towns it passes and each junction
                                    where it changes route: york-bramham-ferrybridge (K9)
    run 2C-KS with blue: ...        a joint run with the blue player (rule 26, K6); one partner
                                    may leave out the journey: `run 2C-KS with red`
    no runs                         enter no run this operating round
    missed                          written by the referee for a missed round (rules 37-39)

A run line that ends in its colon or in a hyphen goes on in the next line (a mail wraps a long
journey so). A line of routes alone (``leeds-york``, or ``5: a-b, c-d`` as the prompts list
them by cost) or a journey alone is told how to write it, not passed over.

Rounds 1-6 take build lines only; in rounds 7-12 an order also says which runs it enters (or
`no runs`), and its build lines are bought after the runs (rule 33). A line that starts with
none of these words is no order (NotAnOrder: a greeting, passed over). Colours are the
companies' (rule 6). `format` writes the canonical form; `parse(format(o))` gives back `o`.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from ..contract import Entry, NotAnOrder, NotationError, Say
from .map import CARDS

COLOURS = ("red", "blue", "green", "yellow", "purple", "orange")  # rule 6; the default by seat
BANK = "bank"  # owner of the routes of a dropped player (rule 40)
OWNERS = COLOURS + (BANK,)

_CARD = re.compile(r"^(a|k|q|j|10|t|[2-9])([shdc])$")
_PLACE = re.compile(r"^[a-z][a-z0-9]*$")
_STOP = re.compile(r"^([a-z][a-z0-9]*)(?:\((\w+)\))?$")
_GOES_ON = re.compile(r"^\s*run\b[^#]*[:-]\s*(#.*)?$", re.IGNORECASE)
_JOURNEY = re.compile(r"^(?=.*-)[a-z][a-z0-9]*(\([a-z]+\))?(-[a-z][a-z0-9]*(\([a-z]+\))?)*-?$")
# routes alone, as the prompts list them by cost: "leeds-york", "5: a-b, c-d,"
_ROUTES = re.compile(
    r"^(?:[0-9]+\s*:\s*)?[a-z][a-z0-9]*-[a-z][a-z0-9]*(?:[\s,]+[a-z][a-z0-9]*-[a-z][a-z0-9]*)*,?$"
)


# The pieces of an order are named tuples: a bot makes several a decision, and a frozen
# dataclass's __init__ costs about twice as much
class Purchase(NamedTuple):
    """Routes bought together, each as the two place keys written."""

    routes: tuple[tuple[str, str], ...]
    cost: int | None = None  # the total the player states (rule 34), checked if given


class Build(NamedTuple):
    """One build: alternatives in order of preference (rule 35); the first that is legal
    when the player's turn comes is bought."""

    choices: tuple[Purchase, ...]


class Journey(NamedTuple):
    """Places along owned routes; ``owners[i]`` names whose route the leg into
    ``places[i + 1]`` uses (a colour or "bank"), or None where the rules settle it."""

    places: tuple[str, ...]
    owners: tuple[str | None, ...]


class RunEntry(NamedTuple):
    cards: tuple[str, str]
    partners: tuple[str, ...] = ()  # colours of joint-run partners (rule 26)
    journey: Journey | None = None

    @property
    def run(self) -> str:
        return run_name(self.cards)


ORDERS = "orders"  # every round owes one decision of this one kind


class Order(NamedTuple):
    """Everything one seat does in one round: the answer to the round's one decision."""

    part: str  # "operate": it says which runs it enters (run lines or
    # 'no runs'); "build": build lines only
    runs: tuple[RunEntry, ...] = ()
    builds: tuple[Build, ...] = ()
    round: int | None = None
    missed: bool = False

    @property
    def kind(self) -> str:
        return ORDERS


def run_name(cards: tuple[str, str]) -> str:
    return f"{cards[0]}-{cards[1]}"


# writing ---------------------------------------------------------------------------------------


def format_purchase(p: Purchase) -> str:
    routes, cost = p
    if not routes:
        return "nothing"
    # each route as its two places, "a-b" (most purchases are of one route)
    text = "-".join(routes[0]) if len(routes) == 1 else " ".join(map("-".join, routes))
    return text if cost is None else f"{text} cost {cost}"


def format_journey(j: Journey) -> str:
    places, owners = j
    if owners.count(None) == len(owners):  # (most journeys name no owner)
        return "-".join(places)
    # (loops, not comprehensions, here and in format_order: each comprehension is a call of
    # its own, and an order has a few lines, a journey a few places)
    parts = [places[0]]
    for place, owner in zip(places[1:], owners):
        parts.append(place if owner is None else f"{place}({owner})")
    return "-".join(parts)


def format_entry(e: RunEntry) -> str:
    cards, partners, journey = e
    text = f"run {run_name(cards)}"
    if partners:
        text += " with " + " ".join(partners)
    if journey is not None:
        text += ": " + format_journey(journey)
    return text


def format_order(o: Order) -> str:
    # the fields at once: read by name, a named tuple's fields are looked up one by one
    part, runs, builds, round_no, missed = o
    lines = [] if round_no is None else [f"round {round_no}"]
    if missed:
        lines.append("missed")
    for entry in runs:
        lines.append(format_entry(entry))
    if part == "operate" and not runs:
        lines.append("no runs")
    for (choices,) in builds:  # (most build lines have one alternative)
        lines.append(
            "build "
            + (
                format_purchase(choices[0])
                if len(choices) == 1
                else " | ".join(map(format_purchase, choices))
            )
        )
    return "\n".join(lines)


# reading ---------------------------------------------------------------------------------------


def parse_order(text: str) -> list[Entry]:
    """The whole text as one order (one Entry with one alternative)."""
    round_no, missed, no_runs = None, False, False
    runs: list[RunEntry] = []
    builds: list[Build] = []
    for raw in _run_lines_joined(text.splitlines()):
        line = " ".join(raw.split("#", 1)[0].lower().split())
        if not line:
            continue
        word, _, rest = line.partition(" ")
        if word == "round":
            if not (rest.isascii() and rest.isdigit()) or len(rest) > 6:
                raise NotationError(Say("write the round as a number, e.g. 'round 8'"), raw)
            if round_no is not None and int(rest) != round_no:
                raise NotationError(Say("one round's orders at a time"), raw)
            round_no = int(rest)
        elif line == "missed":
            missed = True
        elif line in ("no runs", "no run"):
            no_runs = True
        elif word == "run":
            runs.append(_parse_entry(rest, raw))
        elif word in ("build", "buy"):
            builds.append(_parse_build(rest, raw))
        elif _JOURNEY.match(line) and not _ROUTES.match(line):
            raise NotationError(
                Say(
                    "'{line}' is a journey: write it after its run, 'run 7H-QS: {journey}'",
                    {"line": raw.strip(), "journey": line},
                ),
                raw,
            )
        elif _ROUTES.match(line):  # copied from the mail's list of routes to buy
            first = re.split(r"[\s,]+", line.partition(":")[2] or line)
            raise NotationError(
                Say(
                    "'{line}' names routes: buy one with 'build {route}'",
                    {"line": raw.strip(), "route": next(filter(None, first))},
                ),
                raw,
            )
        else:  # a greeting or a remark: the referee passes it over and says so
            raise NotAnOrder(
                Say("not a Bus Boss order; lines start with round, build, run or 'no runs'"), raw
            )
    if no_runs and runs:
        raise NotationError(Say("'no runs' together with run lines: keep one or the other"))
    part = "operate" if runs or no_runs else "build"
    if part == "build" and not builds and not missed and round_no is not None:
        raise NotationError(
            Say(
                "no orders found: 'round {round}' only names the round; write the order "
                "under it, 'build ...' in rounds 1-6, 'run ...' or 'no runs' in rounds 7-12",
                {"round": round_no},
            )
        )
    if part == "build" and not builds and not missed:
        raise NotationError(
            Say(
                "no orders found: write 'build ...' in rounds 1-6, "
                "'run ...' or 'no runs' in rounds 7-12"
            )
        )
    order = Order(part, tuple(runs), tuple(builds), round_no, missed)
    return [Entry((order,), text)]


def _run_lines_joined(lines: list[str]) -> list[str]:
    """The lines, a run line that ends in its colon or a hyphen joined with the line after
    it: a mail wraps a run whose journey is too long for a line there."""
    joined: list[str] = []
    for raw in lines:
        if joined and _GOES_ON.match(joined[-1]) and raw.strip() and raw.strip()[0] != "#":
            joined[-1] = joined[-1].split("#", 1)[0].rstrip() + raw.strip()
        else:
            joined.append(raw)
    return joined


def parse_card(word: str, raw: str) -> str:
    m = _CARD.match(word)
    if not m:
        raise NotationError(
            Say("{word!r} is not a card; write cards like 7H, 10S, QD", {"word": word}), raw
        )
    rank = "10" if m.group(1) == "t" else m.group(1).upper()
    card = rank + m.group(2).upper()
    assert card in CARDS
    return card


def _owner(word: str, raw: str) -> str:
    if word not in OWNERS:
        raise NotationError(
            Say(
                "{word!r} is not a player's colour; the colours are {colours} (and bank)",
                {"word": word, "colours": ", ".join(COLOURS)},
            ),
            raw,
        )
    return word


def _parse_entry(rest: str, raw: str) -> RunEntry:
    head, colon, route = rest.partition(":")
    head = re.sub(r"\s*-\s*", "-", head).strip()
    words = head.replace(",", " ").split()
    if not words or words[0].count("-") != 1:
        raise NotationError(Say("name the run by its two cards, e.g. 'run 7H-QS: hull-york'"), raw)
    first, second = words[0].split("-")
    cards = (parse_card(first, raw), parse_card(second, raw))
    partners: tuple[str, ...] = ()
    if len(words) > 1:
        if words[1] != "with" or len(words) == 2:
            raise NotationError(
                Say(
                    "after the cards write 'with' and the partners' colours, then ':' and "
                    "the journey"
                ),
                raw,
            )
        partners = tuple(_owner(w, raw) for w in words[2:] if w != "and")
        if BANK in partners:
            raise NotationError(Say("the bank runs no buses"), raw)
    journey = _parse_journey(route, raw) if colon and route.strip() else None
    if journey is None and not partners:
        raise NotationError(
            Say("give the journey after a colon, e.g. 'run 7H-QS: hull-york-leeds'"), raw
        )
    return RunEntry(cards, partners, journey)


def _parse_journey(text: str, raw: str) -> Journey:
    text = re.sub(r"\s*([-()])\s*", r"\1", text.strip())
    stops = [re.sub(r"\s+", "", s) for s in text.split("-")]
    if len(stops) < 2:
        raise NotationError(Say("a journey names at least two places joined by '-'"), raw)
    places, owners = [], []
    for i, stop in enumerate(stops):
        m = _STOP.match(stop)
        if not m:
            raise NotationError(
                Say(
                    "{stop!r} is not a place; write place keys as on the map, "
                    "e.g. hull-beverley-york(blue)-leeds",
                    {"stop": stop},
                ),
                raw,
            )
        places.append(m.group(1))
        if i == 0:
            if m.group(2):
                raise NotationError(
                    Say("a journey's first place has no leg before it to name an owner for"),
                    raw,
                )
        else:
            owners.append(_owner(m.group(2), raw) if m.group(2) else None)
    return Journey(tuple(places), tuple(owners))


def _parse_build(rest: str, raw: str) -> Build:
    choices = []
    for alt in re.split(r"\s*\|\s*|\s+or\s+", rest.strip()):
        choices.append(_parse_purchase(alt, raw))
    return Build(tuple(choices))


def _parse_purchase(alt: str, raw: str) -> Purchase:
    # an alternative may say its verb again, as a Bus order's do: build a-b | build c-d
    alt = re.sub(r"^build\s+", "", alt.strip())
    if alt in ("nothing", "none", "pass"):
        return Purchase(())
    cost = None
    m = re.search(r"\s*\bcost\s*([0-9]{1,6})$", alt)
    if m:
        cost, alt = int(m.group(1)), alt[: m.start()]
    words = re.sub(r"\s*-\s*", "-", alt).replace(",", " ").replace("+", " ").split()
    words = [w for w in words if w != "and"]
    if not words:
        raise NotationError(
            Say("name the routes to buy, e.g. 'build leeds-york', or 'build nothing'"), raw
        )
    routes = []
    for w in words:
        ends = w.split("-")
        if len(ends) != 2 or not all(_PLACE.match(e) for e in ends):
            raise NotationError(
                Say(
                    "{route!r} is not a route; write a route as its two places joined by '-', "
                    "e.g. leeds-york",
                    {"route": w},
                ),
                raw,
            )
        routes.append((ends[0], ends[1]))
    return Purchase(tuple(routes), cost)
