"""What the plain-text maps share: at most 78 columns of ASCII, a schematic drawn on a
grid of characters as labels joined by straight runs of - | / \\ or of owners' letters, and
tables whose columns line up under their headings in the reader's words."""

from __future__ import annotations

import math
import textwrap
from collections.abc import Hashable, Iterable, Iterator, Mapping
from typing import Literal, NamedTuple, TypeVar

from ..contract import Say, Wording, Words

WIDTH = 78  # a mail client wraps longer lines (RFC 5322 recommends 78)

Cell = tuple[int, int]  # (row, column)
Label = tuple[int, int, str]  # (row, first column, text)
Key = TypeVar("Key", bound=Hashable)  # what labels are known by: a crossing, a place


def edge_cells(
    labels: Mapping[Key, Label], edges: Iterable[tuple[Key, Key]]
) -> dict[tuple[Key, Key], list[tuple[Cell, str]]]:
    """For each edge (a, b), the cells it is drawn on from the label of a to that of b, each
    with the character it has while no owner's letter is there. No cell of a label is
    among them."""
    taken = {(r, col + i) for r, col, text in labels.values() for i in range(len(text))}

    def centre(key: Key) -> tuple[float, float]:
        r, col, text = labels[key]
        return r, col + (len(text) - 1) / 2

    return {
        (a, b): [(cell, shape) for cell, shape in raster(centre(a), centre(b)) if cell not in taken]
        for a, b in edges
    }


def raster(start: tuple[float, float], end: tuple[float, float]) -> Iterator[tuple[Cell, str]]:
    """The cells of a straight run between two points (row, column), each with the
    character that shows the step into it: - for sideways, | for up or down, / and \\ for
    both."""
    (r0, c0), (r1, c1) = start, end
    steps = max(1, math.ceil(max(abs(r1 - r0), abs(c1 - c0))))
    previous = (nearest(r0), nearest(c0))
    for i in range(1, steps):
        cell = (nearest(r0 + (r1 - r0) * i / steps), nearest(c0 + (c1 - c0) * i / steps))
        dr, dc = cell[0] - previous[0], cell[1] - previous[1]
        if dr == 0:
            shape = "-"
        elif dc == 0:
            shape = "|"
        else:
            shape = "\\" if dr * dc > 0 else "/"
        yield cell, shape
        previous = cell


def nearest(x: float) -> int:
    return math.floor(x + 0.5)  # round() would send halves to even cells and leave gaps


def blank(rows: int, columns: int) -> list[list[str]]:
    return [[" "] * columns for _ in range(rows)]


def draw_edge(grid: list[list[str]], cells: list[tuple[Cell, str]], letters: list[str]) -> None:
    """An edge by its shape, or by the letters of its owners taking turns cell by cell."""
    for i, ((r, col), shape) in enumerate(cells):
        grid[r][col] = letters[i % len(letters)] if letters else shape


def draw_labels(grid: list[list[str]], labels: Iterable[Label]) -> None:
    for r, col, text in labels:
        grid[r][col : col + len(text)] = text


def grid_text(grid: list[list[str]]) -> str:
    return "\n".join("".join(row).rstrip() for row in grid)


AWAITING = Say("Awaiting: {who}")


def document(
    parts: list[str], awaiting: Iterable[Words], result: Iterable[Words], word: Wording
) -> str:
    """A text map from its sections, a blank line between them, ending with who is awaited
    (one line each, wrapped) and the result, worded by ``word``."""
    parts = list(parts)
    if awaiting:
        parts.append("\n".join(wrap(word(Say(AWAITING.text, {"who": a})), "  ") for a in awaiting))
    if result:
        parts.append("\n".join(word(line) for line in result))
    return "\n\n".join(parts) + "\n"


def wrap(text: str, indent: str, first: str = "", soft: str = "") -> str:
    """At most WIDTH columns, broken at spaces (never inside a-b): the first line starts
    with ``first``, the others with ``indent``. Only a word longer than a line (a Bus Boss
    journey through ten towns) is broken, after one of its hyphens; a path, never. A line
    broken at a space ends with ``soft`` (within the WIDTH columns): a mail's soft line
    break (format=flowed) is a space at the end of a line."""
    lines = []
    most = WIDTH - len(soft)
    wrapped = textwrap.wrap(
        text,
        most,
        initial_indent=first,
        subsequent_indent=indent,
        break_long_words=False,
        break_on_hyphens=False,
    )
    for n, line in enumerate(wrapped):
        while len(line) > most and "/" not in line and "-" in line[len(indent) + 1 : most]:
            cut = line.rindex("-", len(indent) + 1, most) + 1
            if "-" not in line[cut:].split(" ", 1)[0] and "-" in line[len(indent) + 1 : cut - 1]:
                # what goes on names two places at least, never a place alone: it reads
                # as part of a journey
                cut = line.rindex("-", len(indent) + 1, cut - 1) + 1
            lines.append(line[:cut])
            line = indent + line[cut:]
        lines.append(line + soft if n + 1 < len(wrapped) else line)
    return "\n".join(lines)


def wrap_items(items: list[str], first: str, indent: str, separator: str = ", ") -> list[str]:
    """`first` and the items joined by `separator`, in lines of at most WIDTH columns: a
    line breaks after a separator (whose end stays on it), never inside an item. A `first`
    too long to share its line with an item (a heading in a wordier language) has its own
    lines, broken at spaces."""
    end = separator.rstrip()
    if len(first) + len(items[0]) > WIDTH - len(end):
        return [*wrap(first, indent).split("\n"), *wrap_items(items, indent, indent, separator)]
    lines, line = [], first + items[0]
    for item in items[1:]:
        if len(line) + len(separator) + len(item) > WIDTH - len(end):
            lines.append(line + end)
            line = indent + item
        else:
            line += separator + item
    return lines + [line]


# tables ---------------------------------------------------------------------------------


GAP = 2  # blanks between a column's words and the next column's


class Column(NamedTuple):
    """A column of a `table`: its heading, and how wide it is and how its cells stand."""

    heading: Words  # worded; a ``str`` is the game's notation ("a b c d e f")
    width: int = 0  # as the English map has it (a longer worded heading widens it)
    align: str = "<"  # "<" left, ">" right
    before: str = ""  # blanks before it
    # if given, the column is as wide as the longest of its heading, its cells and these
    # words, worded, and GAP blanks: the colours, all of them, so it is as wide in every game
    fits: tuple[Say, ...] | None = None


def said(words: Words, word: Wording) -> str:
    """Words worded, without the context that tells them from the game's same English word
    in another sense ("line markers left|line" beside the action "line"): a ``Say`` has no
    gettext context (msgctxt), so it goes before a bar, as gettext's sgettext has it."""
    return word(words).rpartition("|")[2]


def table(
    columns: tuple[Column, ...],
    rows: list[list[object]],
    word: Wording,
    gives_way: int | None = None,
    overflow: Literal["below", "wrapped"] | None = None,
) -> tuple[list[int], list[str]]:
    """The widths of a table's columns and its lines: the headings worded by ``word``, then
    a text a row (a row's text is more than one line where its last cell would pass WIDTH
    and ``overflow`` says where it goes: "below", on a line of its own that ends at WIDTH;
    "wrapped", broken at spaces and carried on under its column). The cells of the column
    ``gives_way`` are cut to leave a blank after them, and it narrows by as much as the
    widest line would pass WIDTH."""
    headings = [said(c.heading, word) for c in columns]
    cells_of = list(zip(*rows)) or [()] * len(columns)  # each column's cells
    widths = [_width(*column, word) for column in zip(columns, headings, cells_of)]

    def lines() -> list[str]:
        cut = rows
        if gives_way is not None:
            most = widths[gives_way] - 1
            cut = [
                [*cells[:gives_way], str(cells[gives_way])[:most], *cells[gives_way + 1 :]]
                for cells in rows
            ]
        row = _format(columns, widths)
        laid = [row.format(*headings).rstrip()]
        for cells in cut:
            line = row.format(*cells).rstrip()
            if len(line) > WIDTH and overflow == "below":
                first = _format(columns[:-1], widths).format(*cells).rstrip()
                line = f"{first}\n{cells[-1]:>{WIDTH}}"
            elif len(line) > WIDTH and overflow == "wrapped":
                line = wrap(line, " " * (sum(widths[:-1]) + sum(len(c.before) for c in columns)))
            laid.append(line)
        return laid

    laid = lines()
    if gives_way is None:
        return widths, laid
    over = max(map(len, "\n".join(laid).split("\n"))) - WIDTH
    if over > 0:
        widths[gives_way] -= over
        laid = lines()
    return widths, laid


def _width(column: Column, heading: str, cells: tuple[object, ...], word: Wording) -> int:
    """A column as wide as in English, or as its worded heading with the blanks it had
    beside it in English, GAP at most (more were room for its cells, whose words a language
    does not lengthen: names, cards); or as its `fits`."""
    if column.fits is not None:
        words = [heading, *map(str, cells), *(said(w, word) for w in column.fits)]
        return max(map(len, words)) + GAP
    room = min(GAP, max(0, column.width - len(said(column.heading, str))))
    return max(column.width, len(heading) + room)


def _format(columns: tuple[Column, ...], widths: list[int]) -> str:
    """The format of a line of cells, each aligned in its column (those given of them)."""
    return "".join(f"{c.before}{{:{c.align}{width}}}" for c, width in zip(columns, widths))
