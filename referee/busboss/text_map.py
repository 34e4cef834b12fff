"""The plain-text map of a Bus Boss position: a schematic of the map and compact tables.

At most 78 columns of plain text (ASCII in English), for the body of a mail read in a
monospace font, its words in its reader's language and laid out as worded. Towns are
three-letter abbreviations (upper case for destinations, the towns with cards; lower case
for towns without), a junction where routes cross between towns is a +, routes are drawn
with - | / \\ or with their owners' letters, and a route's length stands in its middle where
there is room. The game's notation (route names, town keys, cards, player letters) and
names stay as they are in every language.
"""

from __future__ import annotations

from functools import lru_cache

from ..contract import Say, Wording
from ..maps.styles import COLOUR_WORDS
from ..maps.textgrid import (
    WIDTH,
    Cell,
    Column,
    Label,
    blank,
    document,
    draw_edge,
    draw_labels,
    edge_cells,
    grid_text,
    table,
    wrap,
    wrap_items,
)
from .engine import BusBossView
from .map import Map, Route
from .scene import BANK_STYLE, BossScene, RunFacts, abbreviations, build_scene, town_entries

# Map positions run 0..100 both ways; a character cell is about twice as tall as wide.
GRID_X, GRID_Y = 0.74, 0.56
GRID_COLS = round(100 * GRID_X) + 3  # a label is centred on its place
GRID_ROWS = round(100 * GRID_Y) + 1


def text_map(view: BusBossView, m: Map, word: Wording = str) -> str:
    """The whole text map for the engine's `view(state)` of a Bus Boss game on map `m`, its
    words worded by ``word``."""
    scene = build_scene(view)
    parts = [
        _header(scene, word),
        _schematic(scene, m),
        _schematic_key(scene, m, word),
        _cash(scene, word),
        _routes(scene, word),
        _runs(scene, word),
        _places(m, word),
        _junctions(m, word),
    ]
    return document([p for p in parts if p], scene.awaiting, scene.result, word)


def _header(scene: BossScene, word: Wording) -> str:
    lines = [wrap(f"{scene.title}, {scene.map_title}: {word(scene.status)}", "  ")]
    if not scene.over:
        order = ", ".join(scene.companies[s].label for s in scene.order_of_play)
        lines.append(wrap(word(Say("Order of play: {order}.", {"order": order})), "  "))
    return "\n".join(lines)


# the schematic ----------------------------------------------------------------------------


def labels(m: Map) -> dict[str, Label]:
    """(row, first column, text) of each place's label in the schematic: centred on the
    place, one column further right (a place at the left edge keeps its whole label)."""
    return {
        key: (round(p.pos[1] * GRID_Y), round(p.pos[0] * GRID_X), abbreviations(m)[key])
        for key, p in m.places.items()
        if not p.junction
    }


JUNCTION_MARK = "+"


def junction_cells(m: Map) -> dict[str, Cell]:
    """Where each junction's + stands: a cell its routes share if they share one, else the
    cell of its routes nearest to where it lies (K9)."""
    cells = route_cells(m)
    found = {}
    for key, place in m.places.items():
        if not place.junction:
            continue
        drawn = [{cell for cell, _ in cells[r.name]} for r in m.routes_through[key]]
        shared = set.intersection(*drawn) if drawn else set()
        row, col = place.pos[1] * GRID_Y, place.pos[0] * GRID_X + 1  # labels stand centred
        candidates = shared or set.union(*drawn)
        found[key] = min(candidates, key=lambda c: ((c[0] - row) ** 2 + (c[1] - col) ** 2, c))
    return found


@lru_cache(maxsize=8)
def route_cells(m: Map) -> dict[str, list[tuple[tuple[int, int], str]]]:
    """For each route by name, the schematic's cells it is drawn on, each with the character
    it has while nobody owns it."""
    cells = edge_cells(labels(m), [r.ends for r in m.routes])
    return {r.name: cells[r.ends] for r in m.routes}


@lru_cache(maxsize=8)
def length_cells(m: Map) -> dict[str, list[tuple[int, int]]]:
    """Where each route's length is written: on cells of its own that no other route or
    label uses, with a cell of the route to either side, as near its middle as can be. A
    route with no such place is left out (its length is listed under the schematic)."""
    cells = route_cells(m)
    used: dict[tuple[int, int], int] = {}
    for route_cells_ in cells.values():
        for cell, _ in route_cells_:
            used[cell] = used.get(cell, 0) + 1
    found = {}
    for route in m.routes:
        own = [cell for cell, _ in cells[route.name]]
        digits = len(str(route.length))
        middle = (len(own) - 1) / 2
        for i in sorted(range(1, len(own) - digits), key=lambda i: (abs(i - middle), i)):
            r, col = own[i]
            spot = [(r, col + k) for k in range(digits)]
            if all(used.get(c, 0) == (c in own) for c in spot) and col + digits <= GRID_COLS:
                found[route.name] = spot
                break
    return found


def _schematic(scene: BossScene, m: Map) -> str:
    grid = blank(GRID_ROWS, GRID_COLS)
    lengths = length_cells(m)
    # free routes first, so that the letters of owners win where two routes touch; owners'
    # letters take turns on the cells the length leaves
    for name in sorted(scene.routes, key=lambda n: bool(scene.routes[n].owners)):
        cells = [c for c in route_cells(m)[name] if c[0] not in lengths.get(name, ())]
        draw_edge(grid, cells, [s.letter for s in scene.routes[name].owners])
    draw_labels(
        grid,
        (
            (r, col, str(scene.routes[name].length)[i])
            for name, spot in lengths.items()
            for i, (r, col) in enumerate(spot)
        ),
    )
    draw_labels(grid, labels(m).values())
    draw_labels(grid, ((r, col, JUNCTION_MARK) for r, col in junction_cells(m).values()))
    return grid_text(grid)


def _schematic_key(scene: BossScene, m: Map, word: Wording) -> str:
    short = abbreviations(m)

    def route(r: Route) -> str:
        return f"{short[r.ends[0]]}-{short[r.ends[1]]} {r.length}"

    owners = "  ".join(f"{c.style.letter} {c.title}" for c in scene.companies)
    doubled = [route(r) for r in m.routes if r.copies > 1]
    unwritten = [route(r) for r in m.routes if r.name not in length_cells(m)]
    routes = Say(
        "Routes: {owners}  {bank} the bank;  - | / \\ free. Numbers are lengths.",
        {"owners": owners, "bank": BANK_STYLE.letter},
    )
    if any(p.junction for p in m.places.values()):
        lower = Say("lower case: towns without cards, {mark}: junctions", {"mark": JUNCTION_MARK})
        towns = [
            wrap(word(Say("Upper case: destinations (towns with cards);")), "  "),
            wrap(word(lower), "  ", "  "),
        ]
    else:
        upper = Say("Upper case: destinations (towns with cards), lower case: towns without cards.")
        towns = [wrap(word(upper), "  ")]
    lines = [
        wrap(word(routes), "  "),
        *towns,
        *wrap_items(
            doubled,
            word(Say("Doubled routes (rule 12: one copy each; letters alternate):")) + " ",
            "  ",
        ),
    ]
    if unwritten:
        lines += wrap_items(unwritten, word(Say("Lengths not written on the map:")) + " ", "  ")
    return "\n".join(lines)


# the tables -------------------------------------------------------------------------------


# a player's name, or their company's (rule 6; the key says whose), with their letter
PLAYERS = Column(Say("Players"), 20)
COMPANIES = Column(Say("Companies"), 25)
# figures right under their headings; each company's colour in a column as wide for every
# game; this round's notes, below a line they would carry past WIDTH
CASH_COLUMNS = (
    Column(Say("Colour"), fits=tuple(COLOUR_WORDS.values())),
    Column(Say("Cash"), align=">", before="  "),
    Column(Say("Routes"), align=">", before="  "),
    Column(Say("Spaces"), align=">", before="  "),
    Column(Say("This round"), before="  "),
)


def _cash(scene: BossScene, word: Wording) -> str:
    """A line a company, under the headings in the reader's language."""
    who = COMPANIES if any(c.company for c in scene.companies) else PLAYERS
    columns = (who, *CASH_COLUMNS)
    if scene.over:  # no order is awaited: what is left to say has no heading
        columns = (*columns[:-1], columns[-1]._replace(heading=""))
    rows: list[list[object]] = [
        [
            f"{c.style.letter} {c.company or c.name}",
            word(COLOUR_WORDS[c.style.colour_name]),
            c.cash,
            len(c.routes),
            c.spaces,
            word(c.status),
        ]
        for c in scene.companies
    ]
    # the names give way to longer headings rather than pass WIDTH
    return "\n".join(table(columns, rows, word, gives_way=0, overflow="below")[1])


def _routes(scene: BossScene, word: Wording) -> str:
    lines = []
    owners: list[tuple[str, tuple[str, ...]]] = [
        (f"{c.style.letter} {c.title}", c.routes) for c in scene.companies
    ]
    if scene.bank_routes:
        bank = Say("{letter} The bank (rule 40)", {"letter": BANK_STYLE.letter})
        owners.append((word(bank), scene.bank_routes))
    for who, names in owners:
        routes = [scene.routes[n] for n in names]
        if not routes:
            continue
        doubled = Say(" (* doubled)") if any(r.copies > 1 for r in routes) else ""
        said = {"owner": who, "count": len(routes), "doubled": doubled}
        owned = (
            Say("{owner}: 1 route{doubled}", said)
            if len(routes) == 1
            else Say("{owner}: {count} routes{doubled}", said)
        )
        lines.append(word(owned))
        lines += wrap_items(
            [f"{r.name} {r.length}{'*' if r.copies > 1 else ''}" for r in routes], "  ", "  "
        )
    return "\n".join(lines) or word(Say("No routes are bought yet."))


# a run's cards ("10D-10H"), then its destinations
RUN_COLUMNS = (Column(Say("Run"), 9, before="  "), Column(Say("From - To, offered")))


def _runs(scene: BossScene, word: Wording) -> str:
    if not scene.runs:
        return word(scene.no_runs)
    said = {
        "count": len(scene.runs),
        "again": sum(r.reoffered for r in scene.runs),
        "limit": scene.entry_limit,
    }
    offer = (
        Say(
            "Runs on offer: 1 run, {again} of them offered again (rule 21); each player may"
            " enter up to {limit}.",
            said,
        )
        if len(scene.runs) == 1
        else Say(
            "Runs on offer: {count} runs, {again} of them offered again (rule 21); each player"
            " may enter up to {limit}.",
            said,
        )
    )
    rows: list[list[object]] = []
    for r in scene.runs:
        ends = [_run_end(r, i) for i in (0, 1)]
        since = word(Say("since {round}", {"round": r.since}) if r.reoffered else Say("new"))
        rows.append([r.name, f"{ends[0]} - {ends[1]}, {since}"])
    # one run a line where it fits in WIDTH, else wrapped under its ends
    return "\n".join(
        [wrap(word(offer), "  "), *table(RUN_COLUMNS, rows, word, overflow="wrapped")[1]]
    )


def _run_end(run: RunFacts, i: int) -> str:
    """A destination with its place keys where they are not just its name."""
    name, places = run.destinations[i], run.places[i]
    if len(places) == 1 and places[0] == name.lower():
        return name
    return f"{name} ({'/'.join(places)})"


def _places(m: Map, word: Wording) -> str:
    """Every town: abbreviation, key (as orders write it), name where it is not just the
    key, and cards; in two columns sorted by abbreviation."""
    entries = town_entries(m)
    half = (len(entries) + 1) // 2
    column = max(map(len, entries[:half]))
    if column + 3 + max(map(len, entries[half:]), default=0) > WIDTH:  # a map's long names
        rows = [wrap(entry, "    ") for entry in entries]
    else:
        rows = [
            f"{left:<{column}}   {right}".rstrip()
            for left, right in zip(entries[:half], entries[half:] + [""])
        ]
    heading = word(Say("Towns (abbreviation, key in orders, name, cards):"))
    return "\n".join([wrap(heading, "  ")] + rows)


def _junctions(m: Map, word: Wording) -> str:
    """Every junction (K9): its key, its name and where it lies along its routes."""
    lines = []
    for key, place in m.places.items():
        if not place.junction:
            continue
        along = [
            word(
                Say(
                    "{route} {spaces} from {place}",
                    {"route": r.name, "spaces": spaces, "place": r.ends[0]},
                )
            )
            for r in m.routes_through[key]
            for stop, spaces in r.junctions
            if stop == key
        ]
        title = "" if place.name.lower() == key else f" ({place.name})"
        on = Say(
            "{junction}: on {routes}", {"junction": f"{key}{title}", "routes": ", ".join(along)}
        )
        lines.append(wrap(word(on), "    "))
    if not lines:
        return ""
    heading = Say(
        "Junctions ({mark}: routes cross; buses change and new routes join there):",
        {"mark": JUNCTION_MARK},
    )
    return "\n".join([wrap(word(heading), "  ")] + lines)
