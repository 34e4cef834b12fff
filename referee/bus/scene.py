"""What a Bus map shows, worked out once from the engine's view for both renderers.

The text map and the PNG map draw the same `Scene`: player styles, the line of each player
as a path, which lines use each street, what stands at each crossing, the clock, the action
board, and what the mail says beside the PNG. Renderers only decide where and how to draw it.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..contract import ResultView, Say, Words, in_a_row
from ..maps.styles import COLOUR_STYLES, PlayerStyle
from .board import Board
from .engine import BusView
from .rules import BUILDING_NAMES

BUILDING_TYPES = ("house", "office", "pub")  # the clock turns in this order (B3)

# Action keys of the view in resolution order (B2), with the names the board prints.
ACTIONS = (
    ("line", Say("Line expansion")),
    ("buses", Say("Buses")),
    ("passengers", Say("Passengers")),
    ("buildings", Say("Buildings")),
    ("clock", Say("Clock")),
    ("vroom", Say("Vrrooomm!")),
    ("start", Say("Starting player")),
)
# a building type by its name in the view, in the plural
BUILDINGS_NAMED = {"house": Say("houses"), "office": Say("offices"), "pub": Say("pubs")}

PHASES = {
    "setup": Say("setting up"),
    "choose": Say("choosing actions"),
    "resolve": Say("resolving actions"),
    "ended": Say("as it ended"),
    "over": Say("game over"),
}


# Bus seats take these colours in turn.
STYLES = tuple(COLOUR_STYLES[name] for name in ("red", "blue", "green", "orange", "purple"))


@dataclass(frozen=True)
class Player:
    seat: int
    name: str
    style: PlayerStyle
    points: int
    stones: int
    score: int
    buses: int
    markers: int
    line_markers: int
    path: tuple[int, ...]  # crossings from one head to the other along the line
    heads: tuple[int, ...]  # () before the first line marker; equal labels for a closed circle
    start: bool  # holds the start-bus

    @property
    def ends(self) -> tuple[tuple[int, tuple[int, int]], ...]:
        """Each head with the street the line ends on there; a closed circle has both
        heads at one crossing, on its two end streets."""
        if not self.heads:
            return ()
        p = self.path
        return tuple(
            (head, (min(head, next_), max(head, next_)))
            for head, next_ in ((p[0], p[1]), (p[-1], p[-2]))
        )


@dataclass(frozen=True)
class Lot:
    zone: str
    building: str | None
    seated: bool  # a passenger sits in this building (B9)
    open: bool  # free and in the open zone (B10)


@dataclass(frozen=True)
class CrossingFacts:
    label: int
    station: bool
    lots: tuple[Lot, ...]
    seated: int
    waiting: int
    lines: tuple[int, ...]  # seats whose line passes here
    heads: tuple[int, ...]  # seats with a head here, twice for a closed circle

    @property
    def shown(self) -> bool:
        """Worth a row in the crossing table: something stands or runs here."""
        built = any(lot.building for lot in self.lots)
        return self.station or built or bool(self.seated or self.waiting or self.lines)


@dataclass(frozen=True)
class ActionRow:
    key: str
    name: Say
    spaces: int
    seats: tuple[int, ...]  # holders of spaces a, b, c ... in order


@dataclass(frozen=True)
class Scene:
    title: Say
    status: Say
    players: tuple[Player, ...]
    street_lines: dict[tuple[int, int], tuple[int, ...]]  # street -> seats on it, by seat
    crossings: dict[int, CrossingFacts]
    clock: str
    next_clock: str
    clock_stones: int
    clock_stones_total: int
    open_zone: str | None
    open_lots: tuple[int, ...]  # crossings with a free lot in the open zone, one per lot
    passenger_supply: int
    actions: tuple[ActionRow, ...]
    awaiting: tuple[Say, ...]  # who (a name, a letter) and the prompt
    result: tuple[Words, ...]  # how it ended, then the places


def line_path(streets: list[list[int]], heads: list[int]) -> tuple[int, ...]:
    """The crossings of a line in driving order from its first head to its second.

    A line is a trail (B7), so Hierholzer's walk from a head uses every street once and ends
    at the other head (or back at the same one for a closed circle)."""
    if not streets:
        return ()
    exits: dict[int, list[int]] = {}
    for a, b in reversed(streets):  # popping from the end takes streets in the order laid
        exits.setdefault(a, []).append(b)
        exits.setdefault(b, []).append(a)
    used: set[tuple[int, int]] = set()
    stack, path = [heads[0]], []
    while stack:
        here = stack[-1]
        while exits[here] and (min(here, exits[here][-1]), max(here, exits[here][-1])) in used:
            exits[here].pop()
        if exits[here]:
            there = exits[here].pop()
            used.add((min(here, there), max(here, there)))
            stack.append(there)
        else:
            path.append(stack.pop())
    path.reverse()
    return tuple(path)


def next_type(building: str) -> str:
    return BUILDING_TYPES[(BUILDING_TYPES.index(building) + 1) % len(BUILDING_TYPES)]


def build_scene(view: BusView, board: Board) -> Scene:
    """Everything both maps show, from the engine's `view(state)` and the board."""
    players = tuple(_player(p, view["start_player"]) for p in view["players"])
    names = {p.seat: p.name for p in players}

    street_lines: dict[tuple[int, int], list[int]] = {}
    for p in players:
        for a, b in view["players"][p.seat]["streets"]:
            street_lines.setdefault((min(a, b), max(a, b)), []).append(p.seat)

    crossings = _crossings(view, board, players, street_lines)
    open_lots = tuple(c.label for c in crossings.values() for lot in c.lots if lot.open)
    actions = tuple(
        ActionRow(key, name, view["action_spaces"][key], tuple(view["actions"][key]))
        for key, name in ACTIONS
    )
    awaiting = tuple(
        Say(
            "{name} ({letter}): {prompt}",
            {"name": names[a["seat"]], "letter": STYLES[a["seat"]].letter, "prompt": a["prompt"]},
        )
        for a in view["awaiting"]
    )
    phase = PHASES[view["phase"]]
    return Scene(
        title=Say("Bus ({edition} edition)", {"edition": view["edition"]}),
        status=Say("round {round}, {phase}", {"round": view["round"], "phase": phase})
        if view["round"]
        else phase,
        players=players,
        street_lines={s: tuple(sorted(seats)) for s, seats in sorted(street_lines.items())},
        crossings=crossings,
        clock=view["clock"],
        next_clock=next_type(view["clock"]),
        clock_stones=view["clock_stones"],
        clock_stones_total=view["clock_stones_total"],
        open_zone=view["open_zone"],
        open_lots=open_lots,
        passenger_supply=view["passenger_supply"],
        actions=actions,
        awaiting=awaiting,
        result=_result(view["result"], names),
    )


def _player(p: dict, start_seat: int) -> Player:
    return Player(
        seat=p["seat"],
        name=p["name"],
        style=STYLES[p["seat"]],
        points=p["points"],
        stones=p["stones"],
        score=p["score"],
        buses=p["buses"],
        markers=p["markers"],
        line_markers=p["line_markers"],
        path=line_path(p["streets"], p["heads"]),
        heads=tuple(p["heads"]),
        start=p["seat"] == start_seat,
    )


def _crossings(
    view: BusView,
    board: Board,
    players: tuple[Player, ...],
    street_lines: dict[tuple[int, int], list[int]],
) -> dict[int, CrossingFacts]:
    passengers = {p["crossing"]: p for p in view["passengers"]}
    lots_at: dict[int, list[dict]] = {}
    for lot in view["lots"]:
        lots_at.setdefault(lot["crossing"], []).append(lot)
    facts = {}
    for label, crossing in sorted(board.crossings.items()):
        here = passengers.get(label, {"seated": 0, "waiting": 0})
        # B9: seated passengers fill buildings of the clock's type; which ones does not matter
        seats_left = here["seated"]
        lots = []
        for lot in lots_at.get(label, []):
            seated = seats_left > 0 and lot["building"] == view["clock"]
            seats_left -= seated
            lots.append(
                Lot(
                    lot["zone"],
                    lot["building"],
                    seated,
                    lot["building"] is None and lot["zone"] == view["open_zone"],
                )
            )
        lines = sorted(
            {s for street, seats in street_lines.items() if label in street for s in seats}
        )
        heads = tuple(p.seat for p in players for h in p.heads if h == label)
        facts[label] = CrossingFacts(
            label,
            crossing.station,
            tuple(lots),
            here["seated"],
            here["waiting"],
            tuple(lines),
            heads,
        )
    return facts


def _result(result: ResultView | None, names: dict[int, str]) -> tuple[Words, ...]:
    if result is None:
        return ()
    lines: list[Words] = [Say("Game over: {reason}", {"reason": result["reason"]})]
    for place, seats in enumerate(result["ranking"], 1):
        who = ", ".join(f"{names[s]} ({STYLES[s].letter})" for s in seats)
        lines.append(f"{place}. {who}: {result['scores'][seats[0]]}")
    return tuple(lines)


def map_key(scene: Scene) -> tuple[Words, ...]:
    """What the PNG map does not say for itself, a sentence a line, for the mail beside it:
    whose line is which, the clock, the action board, and the symbols."""
    lines = in_a_row(
        (
            Say(
                "{letter} {name}: {looks}",
                {"letter": p.style.letter, "name": p.name, "looks": p.style.looks},
            )
            for p in scene.players
        ),
        "; ",
    )
    start = next((p.name for p in scene.players if p.start), None)
    markers = "; ".join(f"{p.name} {p.line_markers}" for p in scene.players)
    actions = in_a_row(
        (
            Say("{action}: {spaces}", {"action": row.name, "spaces": _spaces(row)})
            for row in scene.actions
        ),
        "; ",
    )
    zone = (
        Say(
            "open zone {zone}, {lots} free lots",
            {"zone": scene.open_zone, "lots": len(scene.open_lots)},
        )
        if scene.open_zone
        else Say("no free lots left")
    )
    clock = {
        "clock": BUILDING_NAMES[scene.clock],
        "next": BUILDING_NAMES[scene.next_clock],
        "stones": scene.clock_stones,
        "total": scene.clock_stones_total,
        "zone": zone,
        "supply": scene.passenger_supply,
    }
    return (
        Say(
            "Lines: {lines}. A disc with the letter marks a line's head (two at one crossing: a"
            " circle).",
            {"lines": lines},
        ),
        Say(
            "Line markers left: {markers}. {start} holds the start bus.",
            {"markers": markers, "start": start},
        )
        if start
        else Say("Line markers left: {markers}.", {"markers": markers}),
        Say(
            "Clock: {clock}, turns to {next} unless stopped; {stones} of {total} stones left;"
            " {zone}; {supply} passengers in supply.",
            clock,
        ),
        Say("Actions this round: {actions}.", {"actions": actions}),
        Say(
            "On the map: black squares are stations, where new passengers arrive. A roofed"
            " pentagon is a house, a tall block an office, a diamond a pub, each with its lot's"
            " zone; a white disc is a free lot (a bold ring when its zone is open); a black dot on"
            " a building, a passenger seated there ({seated} now); figures, passengers who"
            " want to leave.",
            {"seated": BUILDINGS_NAMED[scene.clock]},
        ),
    )


def _spaces(row: ActionRow) -> Words:
    """Who holds the action's spaces (their letters) and how many are free."""
    held = [" ".join(STYLES[s].letter for s in row.seats)] if row.seats else []
    free = row.spaces - len(row.seats)
    return in_a_row([*held, Say("{count} free", {"count": free})] if free > 0 else held, ", ")
