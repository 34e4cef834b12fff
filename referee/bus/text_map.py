"""The plain-text map of a Bus position: a schematic of the board and compact tables.

At most 78 columns of plain ASCII, for the body of a mail read in a monospace font.
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache

from ..contract import Wording
from ..maps.textgrid import WIDTH as WIDTH
from ..maps.textgrid import (
    blank,
    document,
    draw_edge,
    draw_labels,
    edge_cells,
    grid_text,
    wrap,
    wrap_items,
)
from .board import Board
from .engine import BusView
from .scene import STYLES, Scene, build_scene

# Board positions run 0..100 both ways; a character cell is about twice as tall as wide.
GRID_X, GRID_Y = 0.74, 0.46
GRID_COLS = round(100 * GRID_X) + 2  # room for a two-digit label at the right edge
GRID_ROWS = round(100 * GRID_Y) + 1


def text_map(view: BusView, board: Board, word: Wording = str) -> str:
    """The whole text map for the engine's `view(state)` of a Bus game on `board`, its
    words worded by ``word``."""
    scene = build_scene(view, board)
    parts = [
        _header(scene),
        _schematic(scene, board),
        _key(scene, board),
        _players(scene),
        _crossings(scene),
        _actions(scene),
    ]
    return document(parts, scene.awaiting, scene.result, word)


def _header(scene: Scene) -> str:
    lines = [
        f"{scene.title}: {scene.status}",
        f"Clock: {scene.clock} (next {scene.next_clock}), "
        f"{scene.clock_stones} of {scene.clock_stones_total} stones left.  "
        f"Passengers in supply: {scene.passenger_supply}.",
    ]
    if scene.open_zone:
        lots = ", ".join(
            f"{c} ({n} lots)" if n > 1 else str(c) for c, n in Counter(scene.open_lots).items()
        )
        lines.append(wrap(f"Open zone {scene.open_zone}, free lots at: {lots}", "  "))
    else:
        lines.append("No free building lot is left.")
    return "\n".join(lines)


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


def _key(scene: Scene, board: Board) -> str:
    players = "  ".join(f"{p.style.letter} {p.name}" for p in scene.players)
    stations = " and ".join(str(c) for c in board.stations)
    return "\n".join(
        [
            wrap(f"Lines: {players}  (letters alternate on a shared street)", "  "),
            f"Numbers are crossings; stations {stations}; - | / \\ are streets without a line.",
        ]
    )


def _players(scene: Scene) -> str:
    lines = [
        f"{'markers left':>68}",
        f"{'Players':<24}{'Score':>6}{'Points':>7}{'Stones':>7}{'Buses':>6}"
        f"{'action':>8}{'line':>7}  Heads",
    ]
    for p in scene.players:
        name = p.name + (" (start)" if p.start else "")
        if not p.heads:
            heads = "-"
        elif p.heads[0] == p.heads[1]:
            heads = f"{p.heads[0]} (circle)"
        else:
            heads = f"{p.heads[0]}, {p.heads[1]}"
        lines.append(
            f"{p.style.letter} {name[:21]:<22}{p.score:>6}{p.points:>7}{p.stones:>7}"
            f"{p.buses:>6}{p.markers:>8}{p.line_markers:>7}  {heads}"
        )
        if p.path:
            lines.extend(_path_lines(p.path))
    return "\n".join(lines)


def _crossings(scene: Scene) -> str:
    lines = [
        f"{'Crossing':<9}{'Buildings (zone type, * seated)':<34}{'Seated':>6}"
        f"{'Waiting':>8}  {'Lines':<11}Heads"
    ]
    for c in scene.crossings.values():
        if not c.shown:
            continue
        lots = ", ".join(
            f"{lot.zone} {lot.building or 'free'}{'*' if lot.seated else ''}" for lot in c.lots
        )
        what = "station" if c.station else lots
        letters = _letters(c.lines)
        heads = _letters(c.heads)
        lines.append(f"{c.label:>6}   {what:<34}{c.seated:>6}{c.waiting:>8}  {letters:<11}{heads}")
    return "\n".join(lines)


def _letters(seats: tuple[int, ...]) -> str:
    return " ".join(STYLES[s].letter for s in seats) or "-"


def _actions(scene: Scene) -> str:
    lines = [f"{'Actions':<25}" + " ".join("abcdef")]
    for row in scene.actions:
        spaces = [STYLES[s].letter for s in row.seats]
        spaces += ["."] * (row.spaces - len(spaces))
        lines.append(f"{f'{row.name} ({row.key})':<25}" + " ".join(spaces))
    return "\n".join(lines)


def _path_lines(path: tuple[int, ...]) -> list[str]:
    """A line as crossings joined by dashes, broken after a dash to stay within WIDTH."""
    return wrap_items([str(c) for c in path], "  line ", "       ", "-")
