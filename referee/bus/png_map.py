"""The PNG map of a Bus position: the board as it lies on the table, drawn for a phone (the
board fills the picture; the clock, the players and the action board are in the mail's text,
where they reflow).

Drawn on the maps' shared canvas (canvas.py), so the work is not repeated from one map to
the next: the ground (paper, park, plain roads) is drawn once per process, the lines
over just the part of it they cover, and each small thing that recurs (a crossing, a lot, a
head mark, an icon) once as a sprite that is pasted wherever it stands. Coordinates in this
module are output pixels.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import lru_cache

from ..maps.canvas import (
    Ground,
    Picture,
    Point,
    Shapes,
    along,
    badge,
    badge_radius,
    fixed_palette,
    smallest_text,
    stroke,
)
from ..maps.styles import INK, WHITE
from .board import Board
from .engine import BusView
from .scene import STYLES, CrossingFacts, Lot, Player, Scene, build_scene

WIDTH = HEIGHT = 1000
MAP_ORIGIN, MAP_SCALE = (74, 74), 8.52  # board position 0..100 -> 74..926 pixels

# Every text on the map, in pixels: none under smallest_text(WIDTH), 8 CSS pixels on a phone
CROSSING_TEXT = smallest_text(WIDTH)  # a crossing's number
ZONE_TEXT = smallest_text(WIDTH)  # a lot's zone letter
BADGE_TEXT = smallest_text(WIDTH)  # the player's letter on a head's disc
COUNT_TEXT = smallest_text(WIDTH)  # "x5": passengers waiting, when more than three
PARK_TEXT = smallest_text(WIDTH)
TEXT_SIZES = (CROSSING_TEXT, ZONE_TEXT, BADGE_TEXT, COUNT_TEXT, PARK_TEXT)

NODE_RADIUS = 17  # a crossing's disc: room for its two figures
STATION_HALF = 20  # a station's square
STROKE, STROKE_PITCH = 8, 9  # one line on a street; lines side by side are this far apart
LOT_RADIUS = 14  # room for the zone's letter
ITEM_DISTANCE = NODE_RADIUS + LOT_RADIUS + 11  # lots and passengers: how far from the crossing
ITEM_DISTANCE_MAX = 2 * ITEM_DISTANCE
BADGE_RADIUS = badge_radius(BADGE_TEXT)  # a head's lettered disc
FIGURE = 1.3  # a waiting passenger's figure, to the size it was drawn at first

PAPER = (250, 248, 242)
ROAD = (214, 210, 200)
MUTED = (150, 146, 138)
PARK = (220, 235, 208)
PARK_INK = (92, 130, 70)
BUILDING_FILL = {"house": (241, 205, 160), "office": (186, 206, 228), "pub": (226, 200, 120)}

# how far a street's road or head marks reach to either side, by (crossing, street)
Reach = dict[tuple[int, tuple[int, int]], float]


def png_map(view: BusView, board: Board) -> bytes:
    """The PNG map (bytes) for the engine's `view(state)` of a Bus game on `board`."""
    scene = build_scene(view, board)
    picture = Picture(_ground(board))
    _draw_board(picture, scene, board)
    # zlib's level 3: a fifth larger than its default (76 KB against 63 for a map in
    # mid-game; a whole game's largest mail 137 KB against 118) in under half the time (4.6 ms
    # against 11), and that deflate was a third of what a tick did for a campaign whose round
    # ended (bench/tick_costs_bench.py). (Figures of the 1460 px map with its side panel;
    # the map drawn for a phone is 66 KB against 55, its game's largest mail 101 KB.)
    return picture.png(fixed_palette(FLAT_COLOURS, TEXT_COLOURS), compress_level=3)


# geometry (exposed for tests: where things are drawn) ---------------------------------------


def crossing_centre(board: Board, label: int) -> tuple[float, float]:
    x, y = board.crossings[label].pos
    return MAP_ORIGIN[0] + x * MAP_SCALE, MAP_ORIGIN[1] + y * MAP_SCALE


def stroke_offset(seats: tuple[int, ...], seat: int) -> float:
    """How far (pixels, to the left of the street's direction from its lower label) the
    stroke of `seat` runs, among the lines `seats` that share the street."""
    return (seats.index(seat) - (len(seats) - 1) / 2) * STROKE_PITCH


def stroke_centre(
    view: BusView, board: Board, street: tuple[int, int], seat: int
) -> tuple[int, int]:
    """The pixel at the middle of `seat`'s stroke on `street`: the stroke's own colour is
    there, whatever its pattern (patterns leave the middle clear)."""
    seats = build_scene(view, board).street_lines[street]
    (x0, y0), (x1, y1) = _offset(*_ends(board, street), stroke_offset(seats, seat))
    return round((x0 + x1) / 2), round((y0 + y1) / 2)


def head_centres(view: BusView, board: Board, seat: int) -> list[tuple[int, int]]:
    """The pixel centres of the discs that mark the heads of `seat`'s line."""
    scene = build_scene(view, board)
    return [(round(x), round(y)) for x, y in _head_marks(board, scene, scene.players[seat])]


def _ends(board: Board, street: tuple[int, int]) -> tuple[Point, Point]:
    return crossing_centre(board, street[0]), crossing_centre(board, street[1])


def _offset(a: Point, b: Point, offset: float) -> tuple[Point, Point]:
    """The segment a-b moved `offset` pixels to its left."""
    (x0, y0), (x1, y1) = a, b
    length = math.hypot(x1 - x0, y1 - y0)
    nx, ny = (y1 - y0) / length, -(x1 - x0) / length  # the left normal
    return (x0 + nx * offset, y0 + ny * offset), (x1 + nx * offset, y1 + ny * offset)


# the board ----------------------------------------------------------------------------------


@lru_cache(maxsize=4)
def _ground(board: Board) -> Ground:
    """The board drawn at twice the size."""
    return Ground((WIDTH, HEIGHT), PAPER, lambda shapes: _draw_ground(shapes, board))


def _draw_ground(canvas: Shapes, board: Board) -> None:
    """What every map of `board` shows under the lines: the park and the plain roads."""
    park = [crossing_centre(board, c) for c in _park_corners(board)]
    canvas.polygon(park, fill=PARK)
    cx, cy = sum(p[0] for p in park) / 4, sum(p[1] for p in park) / 4
    canvas.text((cx, cy), "Central Park", PARK_TEXT, PARK_INK, "mm")
    for street in board.streets:
        canvas.line([crossing_centre(board, c) for c in street], ROAD, _road_width(0))


def _draw_board(picture: Picture, scene: Scene, board: Board) -> None:
    roads, lines = Shapes(), Shapes()
    for street, seats in scene.street_lines.items():
        a, b = _ends(board, street)
        roads.line([a, b], ROAD, _road_width(len(seats)))  # widened to hold its lines
        for seat in seats:
            # no pattern marks where a head's disc may sit
            stroke(
                lines,
                *_offset(a, b, stroke_offset(seats, seat)),
                STYLES[seat],
                STROKE,
                NODE_RADIUS + 2 * BADGE_RADIUS + 4,
            )
    roads.shapes += lines.shapes  # the lines over the roads that hold them
    picture.over_ground(roads)
    for player in scene.players:
        for at in _head_marks(board, scene, player):
            picture.sprite(at, badge, player.style, BADGE_TEXT)
    reach = _reach(scene)
    for label in board.crossings:
        _draw_crossing(picture, board, reach, scene.crossings[label])


def _node_radius(board: Board, label: int) -> float:
    return STATION_HALF if board.crossings[label].station else NODE_RADIUS


def _road_width(lines: int) -> float:
    return max(STROKE, lines * STROKE_PITCH) + 4


def _park_corners(board: Board) -> list[int]:
    """The central crossings in order round the park (by angle about their middle)."""
    points = {c: board.crossings[c].pos for c in board.centrals}
    mx = sum(p[0] for p in points.values()) / len(points)
    my = sum(p[1] for p in points.values()) / len(points)
    return sorted(points, key=lambda c: math.atan2(points[c][1] - my, points[c][0] - mx))


def _head_marks(board: Board, scene: Scene, player: Player) -> list[Point]:
    """Where a line's heads are marked: a disc on the end street of each head, next to the
    crossing."""
    marks = []
    for head, street in player.ends:
        a, b = _offset(
            *_ends(board, street), stroke_offset(scene.street_lines[street], player.seat)
        )
        if street[0] != head:
            a, b = b, a
        marks.append(along(a, b, _node_radius(board, head) + BADGE_RADIUS + 3))
    return marks


def _draw_crossing(picture: Picture, board: Board, reach: Reach, facts: CrossingFacts) -> None:
    # (how to draw it, what it is, how wide it is)
    items: list[tuple[Callable[..., None], Lot | int, float]] = [
        (_lot, lot, LOT_RADIUS * 2 + 6) for lot in facts.lots
    ]
    if facts.waiting:
        items.append((_waiting, facts.waiting, _waiting_width(facts.waiting) + 8))
    places = _item_places(board, reach, facts.label, [span for _, _, span in items])
    for (draw, what, _), at in zip(items, places):
        picture.sprite(at, draw, what)
    picture.sprite(crossing_centre(board, facts.label), _crossing_mark, facts)


def _crossing_mark(canvas: Shapes, at: Point, facts: CrossingFacts) -> None:
    if facts.station:
        x, y = at
        h = STATION_HALF
        canvas.rectangle((x - h, y - h, x + h, y + h), INK, radius=5)
        canvas.text(at, str(facts.label), CROSSING_TEXT, WHITE, "mm")
    else:
        canvas.circle(at, NODE_RADIUS, WHITE, outline=INK, width=2)
        canvas.text(at, str(facts.label), CROSSING_TEXT, INK, "mm")


def _reach(scene: Scene) -> Reach:
    """How far each street with a line reaches to either side at each of its crossings
    (crossing, street): its road, or a head's disc on it there."""
    reach = {}
    for street, seats in scene.street_lines.items():
        for end in street:
            reach[end, street] = _road_width(len(seats)) / 2
    for player in scene.players:
        for head, street in player.ends:
            offset = abs(stroke_offset(scene.street_lines[street], player.seat))
            reach[head, street] = max(reach[head, street], offset + BADGE_RADIUS + 2)
    return reach


def _item_places(board: Board, reach: Reach, label: int, spans: list[float]) -> list[Point]:
    """Where the things round a crossing go (each `span` pixels wide): in the gaps between
    its streets, narrowed by the lines and head marks on them (`reach`, see `_reach`). Each
    thing goes to the gap that can hold it closest to the crossing; the things of a gap
    stand side by side on an arc, as far out as they need to fit."""
    here = crossing_centre(board, label)
    if not spans:
        return []
    streets = []
    for s in board.streets_at[label]:
        there = crossing_centre(board, board.other_end(s, label))
        half = reach.get((label, board.streets[s]), _road_width(0) / 2)
        streets.append(
            (math.atan2(there[1] - here[1], there[0] - here[0]), math.atan2(half, ITEM_DISTANCE))
        )
    streets.sort()
    gaps = []
    for (angle, half), (following, following_half) in zip(streets, streets[1:] + streets[:1]):
        width = (following - angle) % (2 * math.pi) or 2 * math.pi
        gaps.append((angle + half, max(0.1, width - half - following_half)))
    members: list[list[int]] = [[] for _ in gaps]
    arcs = [0.0] * len(gaps)  # the spans of each gap's members, added up

    def distance(gap: int, extra: float = 0) -> float:
        return min(ITEM_DISTANCE_MAX, max(ITEM_DISTANCE, (arcs[gap] + extra) / gaps[gap][1]))

    for j, span in enumerate(spans):
        gap = min(range(len(gaps)), key=lambda g: (distance(g, span), g))
        members[gap].append(j)
        arcs[gap] += span
    places: list[tuple[float, float]] = [here] * len(spans)
    for g, ((start, width), items) in enumerate(zip(gaps, members)):
        radius = distance(g)
        angle = start + (width - arcs[g] / radius) / 2
        for j in items:
            angle += spans[j] / 2 / radius
            places[j] = (here[0] + radius * math.cos(angle), here[1] + radius * math.sin(angle))
            angle += spans[j] / 2 / radius
    return places


def _lot(canvas: Shapes, at: Point, lot: Lot) -> None:
    if lot.building is None:
        canvas.circle(
            at, LOT_RADIUS, WHITE, outline=INK if lot.open else MUTED, width=3 if lot.open else 1
        )
        canvas.text(at, lot.zone, ZONE_TEXT, INK if lot.open else MUTED, "mm")
        return
    _building(canvas, at, lot.building, LOT_RADIUS + 1)
    canvas.text((at[0], at[1] + 2), lot.zone, ZONE_TEXT, INK, "mm")
    if lot.seated:
        canvas.circle((at[0] + LOT_RADIUS, at[1] - LOT_RADIUS + 1), 6, INK, outline=WHITE, width=2)


def _building(canvas: Shapes, at: Point, building: str, s: float) -> None:
    """House: a roofed pentagon; office: a tall block; pub: a diamond."""
    x, y = at
    if building == "house":
        points = [
            (x - s, y + s),
            (x + s, y + s),
            (x + s, y - s * 0.2),
            (x, y - s * 1.15),
            (x - s, y - s * 0.2),
        ]
    elif building == "office":
        w = s * 0.8
        points = [(x - w, y + s), (x + w, y + s), (x + w, y - s * 1.15), (x - w, y - s * 1.15)]
    else:
        r = s * 1.25
        points = [(x, y - r), (x + r, y), (x, y + r), (x - r, y)]
    canvas.polygon(points, BUILDING_FILL[building], outline=INK, width=2)


def _waiting_width(count: int) -> float:
    return 12 * FIGURE * count if count <= 3 else 12 * FIGURE + 26


def _waiting(canvas: Shapes, at: Point, count: int) -> None:
    """Standing figures, up to three; more are one figure and a count."""
    x, y = at
    shown = count if count <= 3 else 1
    for i in range(shown):
        _figure(canvas, (x + (i - (shown - 1) / 2) * 12 * FIGURE - (13 if count > 3 else 0), y))
    if count > 3:
        canvas.text((x - 3, y + 1), f"x{count}", COUNT_TEXT, INK, "lm")


def _figure(canvas: Shapes, at: Point) -> None:
    x, y = at
    f = FIGURE
    canvas.circle((x, y - 6.5 * f), 3.8 * f, INK)
    canvas.polygon(
        [
            (x - 5 * f, y + 8 * f),
            (x + 5 * f, y + 8 * f),
            (x + 4 * f, y - 1.5 * f),
            (x - 4 * f, y - 1.5 * f),
        ],
        INK,
    )


# every colour drawn flat, and the colours text is drawn in
FLAT_COLOURS = (
    INK,
    PAPER,
    ROAD,
    MUTED,
    PARK,
    PARK_INK,
    WHITE,
    *BUILDING_FILL.values(),
    *(style.colour for style in STYLES),
)
TEXT_COLOURS = (INK, MUTED, WHITE, PARK_INK)
