"""The plain-text map of a Bus position: a schematic of the board and compact tables.

At most 100 columns of plain ASCII, for the body of a mail read in a monospace font.
"""
from __future__ import annotations

import math
from collections import Counter
import textwrap
from functools import lru_cache

from .scene import STYLES, Scene, build_scene

WIDTH = 100
# Board positions run 0..100 both ways; a character cell is about twice as tall as wide.
GRID_X, GRID_Y = 0.95, 0.46
GRID_COLS = round(100 * GRID_X) + 2  # room for a two-digit label at the right edge
GRID_ROWS = round(100 * GRID_Y) + 1


def text_map(view: dict, board) -> str:
    """The whole text map for the engine's `view(state)` of a Bus game on `board`."""
    scene = build_scene(view, board)
    parts = [
        _header(scene),
        _schematic(scene, board),
        _key(scene, board),
        _players(scene),
        _crossings(scene),
        _actions(scene),
    ]
    if scene.awaiting:
        parts.append("\n".join(_wrap("Awaiting: " + a, "  ") for a in scene.awaiting))
    if scene.result:
        parts.append("\n".join(scene.result))
    return "\n\n".join(parts) + "\n"


def _header(scene: Scene) -> str:
    lines = [f"{scene.title}: {scene.status}",
             f"Clock: {scene.clock} (next {scene.next_clock}), "
             f"{scene.clock_stones} of {scene.clock_stones_total} stones left.  "
             f"Passengers in supply: {scene.passenger_supply}."]
    if scene.open_zone:
        lots = ", ".join(f"{c} ({n} lots)" if n > 1 else str(c)
                         for c, n in Counter(scene.open_lots).items())
        lines.append(_wrap(f"Open zone {scene.open_zone}, free lots at: {lots}", "  "))
    else:
        lines.append("No free building lot is left.")
    return "\n".join(lines)


def _schematic(scene: Scene, board) -> str:
    grid = [[" "] * GRID_COLS for _ in range(GRID_ROWS)]
    cells = street_cells(board)
    # empty streets first, so that the letters of lines win where two streets touch
    for street in sorted(board.streets, key=lambda s: (s in scene.street_lines, s)):
        letters = [STYLES[s].letter for s in scene.street_lines.get(street, ())]
        for i, ((r, col), shape) in enumerate(cells[street]):
            grid[r][col] = letters[i % len(letters)] if letters else shape
    for label, (r, col) in _label_cells(board).items():
        grid[r][col:col + len(str(label))] = str(label)
    return "\n".join("".join(row).rstrip() for row in grid)


def _label_cells(board) -> dict[int, tuple[int, int]]:
    """(row, column) of the first digit of each crossing's label in the schematic."""
    return {c: (round(x.pos[1] * GRID_Y), round(x.pos[0] * GRID_X))
            for c, x in board.crossings.items()}


@lru_cache(maxsize=4)
def street_cells(board) -> dict[tuple[int, int], list[tuple[tuple[int, int], str]]]:
    """For each street, the schematic's cells (row, column) it is drawn on, from its lower
    label to its higher, each with the character it has while no line runs there."""
    labels = _label_cells(board)
    taken = {(r, col + i) for c, (r, col) in labels.items() for i in range(len(str(c)))}

    def centre(c: int) -> tuple[float, float]:
        r, col = labels[c]
        return r, col + (len(str(c)) - 1) / 2

    return {(a, b): [(cell, shape) for cell, shape in _raster(centre(a), centre(b))
                     if cell not in taken]
            for a, b in board.streets}


def _raster(start: tuple[float, float], end: tuple[float, float]):
    """The cells of a straight street between two label centres, each with the character
    that shows the step into it: - for sideways, | for up or down, / and \\ for both."""
    (r0, c0), (r1, c1) = start, end
    steps = max(1, math.ceil(max(abs(r1 - r0), abs(c1 - c0))))
    previous = (_nearest(r0), _nearest(c0))
    for i in range(1, steps):
        cell = (_nearest(r0 + (r1 - r0) * i / steps), _nearest(c0 + (c1 - c0) * i / steps))
        dr, dc = cell[0] - previous[0], cell[1] - previous[1]
        if dr == 0:
            shape = "-"
        elif dc == 0:
            shape = "|"
        else:
            shape = "\\" if dr * dc > 0 else "/"
        yield cell, shape
        previous = cell


def _nearest(x: float) -> int:
    return math.floor(x + 0.5)  # round() would send halves to even cells and leave gaps


def _key(scene: Scene, board) -> str:
    players = "  ".join(f"{p.style.letter} {p.name}" for p in scene.players)
    stations = " and ".join(str(c) for c in board.stations)
    return "\n".join([
        _wrap(f"Lines: {players}  (letters alternate on a shared street)", "  "),
        f"Numbers are crossings; stations {stations}; - | / \\ are streets without a line.",
    ])


def _players(scene: Scene) -> str:
    lines = [f"{'markers left':>68}",
             f"{'Players':<24}{'Score':>6}{'Points':>7}{'Stones':>7}{'Buses':>6}"
             f"{'action':>8}{'line':>7}  Heads"]
    for p in scene.players:
        name = p.name + (" (start)" if p.start else "")
        if not p.heads:
            heads = "-"
        elif p.heads[0] == p.heads[1]:
            heads = f"{p.heads[0]} (circle)"
        else:
            heads = f"{p.heads[0]}, {p.heads[1]}"
        lines.append(f"{p.style.letter} {name[:21]:<22}{p.score:>6}{p.points:>7}{p.stones:>7}"
                     f"{p.buses:>6}{p.markers:>8}{p.line_markers:>7}  {heads}")
        if p.path:
            lines.extend(_path_lines(p.path))
    return "\n".join(lines)


def _crossings(scene: Scene) -> str:
    lines = [f"{'Crossing':<9}{'Buildings (zone type, * seated)':<34}{'Seated':>6}"
             f"{'Waiting':>8}  {'Lines':<11}Heads"]
    for c in scene.crossings.values():
        if not c.shown:
            continue
        lots = ", ".join(f"{lot.zone} {lot.building or 'free'}{'*' if lot.seated else ''}"
                         for lot in c.lots)
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
        lines.append(f"{row.name + ' (' + row.key + ')':<25}" + " ".join(spaces))
    return "\n".join(lines)


def _path_lines(path: tuple[int, ...]) -> list[str]:
    """A line as crossings joined by dashes, broken after a dash to stay within WIDTH
    (textwrap does not break between digits)."""
    lines, line = [], "  line " + str(path[0])
    for crossing in path[1:]:
        if len(line) + 1 + len(str(crossing)) > WIDTH - 1:
            lines.append(line + "-")
            line = "       " + str(crossing)
        else:
            line += f"-{crossing}"
    return lines + [line]


def _wrap(text: str, indent: str) -> str:
    """At most WIDTH columns, broken at spaces."""
    return textwrap.fill(text, WIDTH, subsequent_indent=indent, break_long_words=False)
