"""The plain-text map of a Bus position: a schematic of the board and compact tables.

At most 78 columns, for the body of a mail read in a monospace font, its words in its
reader's language (plain ASCII in English).
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache

from ..contract import Say, Wording
from ..maps.textgrid import WIDTH as WIDTH
from ..maps.textgrid import (
    Column,
    blank,
    document,
    draw_edge,
    draw_labels,
    edge_cells,
    grid_text,
    said,
    table,
    wrap,
    wrap_items,
)
from .board import Board
from .engine import BusView
from .rules import BUILDING_NAMES
from .scene import STYLES, Player, Scene, build_scene

# Board positions run 0..100 both ways; a character cell is about twice as tall as wide.
GRID_X, GRID_Y = 0.74, 0.46
GRID_COLS = round(100 * GRID_X) + 2  # room for a two-digit label at the right edge
GRID_ROWS = round(100 * GRID_Y) + 1


def text_map(view: BusView, board: Board, word: Wording = str) -> str:
    """The whole text map for the engine's `view(state)` of a Bus game on `board`, its
    words worded by ``word``."""
    scene = build_scene(view, board)
    parts = [
        _header(scene, word),
        _schematic(scene, board),
        _key(scene, board, word),
        _players(scene, word),
        _crossings(scene, word),
        _actions(scene, word),
    ]
    return document(parts, scene.awaiting, scene.result, word)


def _header(scene: Scene, word: Wording) -> str:
    clock = {
        "clock": BUILDING_NAMES[scene.clock],
        "next": BUILDING_NAMES[scene.next_clock],
        "stones": scene.clock_stones,
        "total": scene.clock_stones_total,
        "supply": scene.passenger_supply,
    }
    lines = [
        f"{word(scene.title)}: {word(scene.status)}",
        word(
            Say(
                "Clock: {clock} (next {next}), {stones} of {total} stones left.  "
                "Passengers in supply: {supply}.",
                clock,
            )
        ),
    ]
    if scene.open_zone:
        lots = ", ".join(
            word(Say("{crossing} ({lots} lots)", {"crossing": c, "lots": n})) if n > 1 else str(c)
            for c, n in Counter(scene.open_lots).items()
        )
        lines.append(
            word(
                Say(
                    "Open zone {zone}, free lots at: {lots}",
                    {"zone": scene.open_zone, "lots": lots},
                )
            )
        )
    else:
        lines.append(word(Say("No free building lot is left.")))
    return "\n".join(wrap(line, "  ") for line in lines)


def _schematic(scene: Scene, board: Board) -> str:
    grid = blank(GRID_ROWS, GRID_COLS)
    cells = street_cells(board)
    # empty streets first, so that the letters of lines win where two streets touch
    for street in sorted(board.streets, key=lambda s: (s in scene.street_lines, s)):
        letters = [STYLES[s].letter for s in scene.street_lines.get(street, ())]
        draw_edge(grid, cells[street], letters)
    draw_labels(grid, _labels(board).values())
    return grid_text(grid)


def _labels(board: Board) -> dict[int, tuple[int, int, str]]:
    """(row, first column, text) of each crossing's label in the schematic."""
    return {
        c: (round(x.pos[1] * GRID_Y), round(x.pos[0] * GRID_X), str(c))
        for c, x in board.crossings.items()
    }


@lru_cache(maxsize=4)
def street_cells(board: Board) -> dict[tuple[int, int], list[tuple[tuple[int, int], str]]]:
    """For each street, the schematic's cells (row, column) it is drawn on, from its lower
    label to its higher, each with the character it has while no line runs there."""
    return edge_cells(_labels(board), board.streets)


def _key(scene: Scene, board: Board, word: Wording) -> str:
    players = "  ".join(f"{p.style.letter} {p.name}" for p in scene.players)
    a, b = board.stations  # B9: passengers arrive at two stations
    lines = [
        Say("Lines: {players}  (letters alternate on a shared street)", {"players": players}),
        Say(
            "Numbers are crossings; stations {a} and {b}; - | / \\ are streets without a line.",
            {"a": a, "b": b},
        ),
    ]
    return "\n".join(wrap(word(line), "  ") for line in lines)


HEADS = Say("Heads")  # where a line ends: its crossings, or the lines ending at a crossing
PLAYER_COLUMNS = (
    Column(Say("Players"), 24, "<"),
    Column(Say("Score"), 6, ">"),
    Column(Say("Points"), 7, ">"),
    Column(Say("Stones"), 7, ">"),
    Column(Say("the buses a player has|Buses"), 6, ">"),
    Column(Say("action markers left|action"), 8, ">"),
    Column(Say("line markers left|line"), 7, ">"),
    Column(HEADS, 0, "<", "  "),
)
MARKERS_LEFT = Say("markers left")  # over the columns of action and line markers


def _players(scene: Scene, word: Wording) -> str:
    rows: list[list[object]] = []
    for p in scene.players:
        name = word(Say("{name} (start)", {"name": p.name})) if p.start else p.name
        figures = [p.score, p.points, p.stones, p.buses, p.markers, p.line_markers]
        rows.append([f"{p.style.letter} {name}", *figures, _heads(p, word)])
    # the names give way to longer headings rather than pass WIDTH
    widths, lines = table(PLAYER_COLUMNS, rows, word, gives_way=0)
    markers = sum(widths[:-1]) + 3  # over the two columns of markers
    laid = [f"{word(MARKERS_LEFT):>{markers}}", lines[0]]
    for p, line in zip(scene.players, lines[1:]):
        laid.append(line)
        if p.path:
            laid.extend(_path_lines(p.path, word))
    return "\n".join(laid)


def _heads(p: Player, word: Wording) -> str:
    if not p.heads:
        return "-"
    if p.heads[0] == p.heads[1]:
        return word(Say("{crossing} (circle)", {"crossing": p.heads[0]}))
    return f"{p.heads[0]}, {p.heads[1]}"


CROSSING_COLUMNS = (
    Column(Say("Crossing"), 9, "<"),
    Column(Say("Buildings (zone type, * seated)"), 34, "<"),
    Column(Say("Seated"), 6, ">"),
    Column(Say("Waiting"), 8, ">"),
    Column(Say("Lines"), 11, "<", "  "),
    Column(HEADS, 0, "<"),
)


def _crossings(scene: Scene, word: Wording) -> str:
    free, station = word(Say("free")), word(Say("station"))
    rows: list[list[object]] = []
    for c in scene.crossings.values():
        if not c.shown:
            continue
        lots = ", ".join(
            f"{lot.zone} {word(BUILDING_NAMES[lot.building]) if lot.building else free}"
            f"{'*' if lot.seated else ''}"
            for lot in c.lots
        )
        what = station if c.station else lots
        rows.append(
            [f"{c.label:>6}", what, c.seated, c.waiting, _letters(c.lines), _letters(c.heads)]
        )
    # the buildings, whose column is wider than they are, give way to longer headings
    return "\n".join(table(CROSSING_COLUMNS, rows, word, gives_way=1)[1])


def _letters(seats: tuple[int, ...]) -> str:
    return " ".join(STYLES[s].letter for s in seats) or "-"


# the actions' names are as wide as the longest of them; their spaces by the letters a-f
ACTION_COLUMNS = (Column(Say("Actions"), fits=()), Column(" ".join("abcdef")))


def _actions(scene: Scene, word: Wording) -> str:
    rows: list[list[object]] = []
    for row in scene.actions:
        spaces = [STYLES[s].letter for s in row.seats]
        spaces += ["."] * (row.spaces - len(spaces))
        rows.append([f"{word(row.name)} ({row.key})", " ".join(spaces)])
    return "\n".join(table(ACTION_COLUMNS, rows, word)[1])


LINE = Say("a player's line|line")


def _path_lines(path: tuple[int, ...], word: Wording) -> list[str]:
    """A line as crossings joined by dashes, broken after a dash to stay within WIDTH."""
    first = f"  {said(LINE, word)} "
    return wrap_items([str(c) for c in path], first, " " * len(first), "-")
