"""The score chart of the archive: each player's figure (the game's measure: a score, cash)
at the end of every turn, as a line in the player's map colour.

Only the geometry is worked out here; `templates/archive/_chart.html` draws it as inline
SVG, so the pages need no script.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .. import registry
from ..contract import View
from .history import Turn, measure, standings

WIDTH, HEIGHT = 720, 280
LEFT, RIGHT, TOP, BOTTOM = 52, 16, 14, 44  # margins: the axes' labels live there
DODGE = 2.0  # px between lines of equal figures, so that none hides another


@dataclass(frozen=True)
class Line:
    name: str
    colour: str  # "#rrggbb"
    values: tuple[int, ...]  # one per turn
    points: tuple[tuple[float, float], ...]

    @property
    def final(self) -> int:
        return self.values[-1]

    @property
    def svg_points(self) -> str:
        return " ".join(f"{x:.1f},{y:.1f}" for x, y in self.points)


@dataclass(frozen=True)
class Tick:
    at: float  # x for the round axis, y for the figure axis
    label: str


@dataclass(frozen=True)
class Chart:
    measure: str
    lines: tuple[Line, ...]
    x_ticks: tuple[Tick, ...]
    y_ticks: tuple[Tick, ...]
    mark: float | None  # x of the turn a page is about
    width: int = WIDTH
    height: int = HEIGHT
    left: int = LEFT
    top: int = TOP

    @property
    def right(self) -> int:
        return self.width - RIGHT

    @property
    def bottom(self) -> int:
        return self.height - BOTTOM


def player_colour(view: View, player: dict) -> str:
    """The colour the game's maps give this player."""
    return registry.get(view["game"]).player_colour(player)


def nice_step(span: float, most: int = 6) -> int:
    """The smallest of 1, 2, 5, 10, 20, 50, ... that cuts ``span`` into at most ``most``."""
    magnitude = 10 ** max(0, math.floor(math.log10(max(span, 1) / most)))
    for factor in (1, 2, 5, 10):
        if span / (factor * magnitude) <= most:
            return factor * magnitude
    return 10 * magnitude


def score_chart(turns: list[Turn], names: list[str], mark: int | None = None) -> Chart:
    """The chart of ``turns`` (at least one), a line a seat named ``names`` (by seat: who
    played it, in turn), with the turn ``mark`` picked out."""
    rounds = [t.round for t in turns]
    figures = [[figure for _name, figure in standings(t.view)] for t in turns]
    players = turns[-1].view["players"]
    low = min(0, *(min(f) for f in figures))
    step = nice_step(max(max(f) for f in figures) - low or 1)
    low = math.floor(low / step) * step
    high = max(low + step, math.ceil(max(max(f) for f in figures) / step) * step)
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    first, last = rounds[0], rounds[-1]

    def x(round_: int) -> float:
        return LEFT + (plot_w * (round_ - first) / (last - first) if last > first else plot_w / 2)

    def y(figure: float) -> float:
        return TOP + plot_h * (high - figure) / (high - low)

    middle = (len(players) - 1) / 2
    lines = tuple(
        Line(
            names[seat],
            player_colour(turns[-1].view, p),
            tuple(f[seat] for f in figures),
            tuple((x(r), y(f[seat]) + DODGE * (seat - middle)) for r, f in zip(rounds, figures)),
        )
        for seat, p in enumerate(players)
    )
    every = max(1, math.ceil(len(rounds) / 16))  # round labels that do not crowd
    x_ticks = tuple(Tick(x(r), str(r) if r else "setup") for r in rounds[::every])
    y_ticks = tuple(Tick(y(v), str(v)) for v in range(low, high + 1, step))
    return Chart(
        measure(turns[-1].view), lines, x_ticks, y_ticks, x(mark) if mark is not None else None
    )
