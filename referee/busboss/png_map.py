"""The PNG map of a Bus Boss position: the map with every route in its owners' colours,
drawn for a phone (the map fills the picture; the companies, the runs and the key of the
towns are in the mail's text, where they reflow). Towns are written by the text map's
three-letter abbreviations, which the text map's list of towns explains.

What only the map decides (places, free routes, where each key and length stands) is worked
out and drawn once per map and process; a render draws the owned routes over it. Coordinates
in this module are output pixels.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from ..maps.canvas import (
    HALO,
    Box,
    Ground,
    Picture,
    Point,
    Shapes,
    Sprite,
    along,
    fixed_palette,
    smallest_text,
    sprite_image,
    stroke,
    text_width,
)
from ..maps.styles import COLOUR_STYLES, INK, WHITE
from .engine import BusBossView
from .map import Map
from .scene import BANK_STYLE, RouteFacts, abbreviations, build_scene

WIDTH = HEIGHT = 1000
MAP_ORIGIN, MAP_SCALE = (50, 50), 9.0  # map position 0..100 -> 50..950 pixels (whole ones)
MAP_BOX = (3, 3, WIDTH - 3, HEIGHT - 3)  # keys and lengths stay inside

# Every text on the map, in pixels: none under smallest_text(WIDTH), 8 CSS pixels on a phone
KEY_TEXT = smallest_text(WIDTH)  # a town's abbreviation
LENGTH_TEXT = smallest_text(WIDTH)  # a route's length
TEXT_SIZES = (KEY_TEXT, LENGTH_TEXT)

ROUTE_PITCH = 7  # the copies of a doubled route lie this far apart
FREE_WIDTH = 3  # a copy nobody owns
OWNED_WIDTH = 6  # a copy a company owns
BANK_WIDTH = 5  # a copy the bank holds: dashes and gaps
BANK_DASH, BANK_GAP = 6, 10  # between the ends' centres: the round ends take BANK_WIDTH
TOWN_RADIUS = 4.5  # a town without cards
JUNCTION_RADIUS = 5.5  # a point where routes cross between towns (K9)
# half the box a length's figures take (their height: a figure is 0.7 of the font size)
LENGTH_HALF_HEIGHT = round(LENGTH_TEXT * 0.7 / 2) + HALO

PAPER = (250, 248, 242)
ROAD = (178, 172, 160)
MUTED = (108, 104, 97)
# zlib's level for the map, as bench/busboss_png_level_bench.py measured it: the cheapest
# whose largest mail of whole games stays within 150 KB (issue 23). A Bus Boss map goes to
# every player every round; at level 9 a map cost 96 ms and the largest mail was 138 KB, at
# level 5 32 ms and 147.5 KB; level 4 (150.3 KB) and below are over. Drawn for a phone
# (1000 px, no panel) every level is within (level 5: 18 ms, 45 KB a map, the largest mail
# 83 KB; level 1: 15.5 ms, 58 KB, 101 KB): level 5 kept, 3 ms a map not worth a third more
# mail for every player every round
COMPRESS_LEVEL = 5


def png_map(view: BusBossView, m: Map) -> bytes:
    """The PNG map (bytes) for the engine's `view(state)` of a Bus Boss game on map `m`."""
    scene = build_scene(view)
    picture = Picture(_ground(m))
    owned = Shapes()
    for route in m.routes:
        _draw_owned(owned, m, scene.routes[route.name])
    picture.over_ground(owned)
    picture.layer(_places(m))
    return picture.png(fixed_palette(FLAT_COLOURS, TEXT_COLOURS), compress_level=COMPRESS_LEVEL)


# geometry (exposed for tests: where things are drawn) ---------------------------------------


def place_centre(m: Map, key: str) -> tuple[float, float]:
    x, y = m.places[key].pos
    return MAP_ORIGIN[0] + x * MAP_SCALE, MAP_ORIGIN[1] + y * MAP_SCALE


def copy_segment(m: Map, name: str, copy: int) -> tuple[Point, Point]:
    """The two ends of one copy of a route: copies of a doubled route run side by side, the
    first to the left of the way from its first end to its second."""
    route = m.route(*name.split("-"))
    assert route is not None, f"no route {name} on the map"
    (x0, y0), (x1, y1) = (place_centre(m, p) for p in route.ends)
    length = math.hypot(x1 - x0, y1 - y0)
    nx, ny = (y1 - y0) / length, -(x1 - x0) / length  # the left normal
    offset = ((route.copies - 1) / 2 - copy) * ROUTE_PITCH
    return (x0 + nx * offset, y0 + ny * offset), (x1 + nx * offset, y1 + ny * offset)


def copy_centre(m: Map, name: str, copy: int) -> tuple[int, int]:
    """The pixel in the middle of a copy of a route: its owner's colour is there, whatever
    the pattern (patterns and dashes leave the middle showing the colour), and no name or
    length is drawn over it."""
    a, b = copy_segment(m, name, copy)
    return math.floor((a[0] + b[0]) / 2), math.floor((a[1] + b[1]) / 2)  # the pixel holding it


def marker_radius(m: Map, key: str) -> float:
    """A destination's disc grows with its cards; a town without cards is a dot, a junction
    a small ring (K9)."""
    place = m.places[key]
    if place.destination is None:
        return JUNCTION_RADIUS if place.junction else TOWN_RADIUS
    return 6 + 1.5 * len(m.destination_cards[place.destination])


# the map ----------------------------------------------------------------------------------


def _draw_owned(shapes: Shapes, m: Map, route: RouteFacts) -> None:
    for copy, owner in enumerate(route.owners):
        a, b = copy_segment(m, route.name, copy)
        clear = max(marker_radius(m, end) for end in route.ends) + 2
        if owner is BANK_STYLE:
            _dashes(shapes, a, b, clear)
        else:
            stroke(shapes, a, b, owner, OWNED_WIDTH, clear)


def _dashes(shapes: Shapes, a: Point, b: Point, clear: float) -> None:
    """The bank's grey dashes, one centred on the middle, none within `clear` of the ends."""
    length = math.dist(a, b)
    middle = length / 2
    steps = max(0, math.floor((middle - clear - BANK_DASH / 2) / (BANK_DASH + BANK_GAP)))
    for k in range(-steps, steps + 1):
        t = middle + k * (BANK_DASH + BANK_GAP)
        shapes.line(
            [along(a, b, t - BANK_DASH / 2), along(a, b, t + BANK_DASH / 2)],
            BANK_STYLE.colour,
            BANK_WIDTH,
        )


def _draw_ground(m: Map, shapes: Shapes) -> None:
    """What every map of `m` shows under the owned routes: free copies of every route."""
    for route in m.routes:
        for copy in range(route.copies):
            shapes.line(copy_segment(m, route.name, copy), ROAD, FREE_WIDTH)


def _ground(m: Map) -> Ground:
    return Ground((WIDTH, HEIGHT), PAPER, lambda shapes: _draw_ground(m, shapes))


@lru_cache(maxsize=8)  # the layout of a map's keys: by far the dearest part
def _places(m: Map) -> Sprite:
    """Every place's marker and key, and every route's length: a sprite of the whole map, to
    go over the routes."""
    shapes = Shapes()
    layout = _layout(m)
    for key in m.places:
        centre, radius = place_centre(m, key), marker_radius(m, key)
        if m.places[key].junction:
            shapes.circle(centre, radius, WHITE, outline=INK, width=1.5)
        elif m.places[key].destination is None:
            shapes.circle(centre, radius, INK)
        else:
            shapes.circle(centre, radius, WHITE, outline=INK, width=2.5)
    for route in m.routes:
        shapes.text(layout.lengths[route.name], str(route.length), LENGTH_TEXT, MUTED, "mm", PAPER)
    short = abbreviations(m)
    for key, label in layout.labels.items():
        x0, y0, x1, y1 = label.box
        x = {"l": x0, "m": (x0 + x1) / 2, "r": x1}[label.align]
        ink = MUTED if m.places[key].destination is None else INK
        shapes.text((x, (y0 + y1) / 2), short[key], KEY_TEXT, ink, label.align + "m", PAPER)
    return sprite_image(tuple(shapes.shapes), tuple(shapes.texts))


@dataclass(frozen=True)
class Label:
    box: tuple[float, float, float, float]
    align: str  # l, m or r: how the key lines up in its box


@dataclass(frozen=True)
class Layout:
    labels: dict[str, Label]  # by place key: towns, not junctions (drawn as rings alone)
    lengths: dict[str, tuple[float, float]]  # the centre of each route's length


def _label_size(m: Map, key: str) -> tuple[float, float]:
    return text_width(abbreviations(m)[key], KEY_TEXT) + 2 * HALO, KEY_TEXT


def length_box(m: Map, name: str, centre: Point) -> Box:
    """The box a route's length takes about its centre."""
    route = m.route(*name.split("-"))
    assert route is not None, f"no route {name} on the map"
    half = text_width(str(route.length), LENGTH_TEXT) / 2 + HALO
    x, y = centre
    return x - half, y - LENGTH_HALF_HEIGHT, x + half, y + LENGTH_HALF_HEIGHT


# where names and lengths go ---------------------------------------------------------------

# Directions a label may stand in from its place, in order of preference: right, left,
# above, below, then the diagonals and the directions between.
DIRECTIONS = (0, 180, 270, 90, 315, 45, 225, 135, 345, 15, 195, 165, 300, 60, 240, 120)
RINGS = (3, 11, 20, 30, 42)  # how far a label's near side may stand from its place's disc


class _Obstacles:
    """What a name or length should not cover, each with what covering it costs: other
    names and lengths, places, routes, and the middles of routes (kept clear, so that an
    owner's colour always shows there)."""

    def __init__(self, m: Map):
        self.segments = [
            (copy_segment(m, r.name, c), r.name) for r in m.routes for c in range(r.copies)
        ]
        self.circles = [(place_centre(m, k), marker_radius(m, k) + 2, 800.0) for k in m.places]
        self.circles += [
            (copy_centre(m, r.name, c), 5 + HALO + 2, 8000.0)
            for r in m.routes
            for c in range(r.copies)
        ]
        self.boxes: list[tuple[float, float, float, float]] = []

    def near(self, region: Box) -> _Obstacles:
        """The obstacles that may touch boxes within `region` (a box), for speed."""
        near = _Obstacles.__new__(_Obstacles)
        near.segments = [
            (ab, name) for ab, name in self.segments if _touch(region, _segment_box(*ab))
        ]
        near.circles = [
            (c, r, w)
            for c, r, w in self.circles
            if _touch(region, (c[0] - r, c[1] - r, c[0] + r, c[1] + r))
        ]
        near.boxes = [b for b in self.boxes if _touch(region, b)]
        return near

    def cost(self, box: Box, own_route: str | None = None) -> float:
        if box[0] < MAP_BOX[0] or box[1] < MAP_BOX[1] or box[2] > MAP_BOX[2] or box[3] > MAP_BOX[3]:
            return math.inf
        total = sum(8000.0 + _overlap(box, other) for other in self.boxes if _overlap(box, other))
        total += sum(w for c, r, w in self.circles if _circle_hits(box, c, r))
        total += 25.0 * sum(
            _segment_hits(box, a, b, OWNED_WIDTH / 2)
            for (a, b), name in self.segments
            if name != own_route
        )
        return total


def _layout(m: Map) -> Layout:
    """Keys round their places and lengths beside their routes' middles, each where it
    covers the least (see `_Obstacles`), most cards first, towns without cards last."""
    obstacles = _Obstacles(m)
    labels = {}
    towns = [k for k in m.places if not m.places[k].junction]
    order = sorted(towns, key=lambda k: (m.places[k].destination is None, -len(_cards(m, k))))
    for key in order:
        (cx, cy), radius = place_centre(m, key), marker_radius(m, key)
        w, h = _label_size(m, key)
        reach = radius + RINGS[-1] + max(w, h)
        near = obstacles.near((cx - reach, cy - reach, cx + reach, cy + reach))
        best: tuple[float, Label] | None = None  # (cost, where)
        # in order of what they cost before what they cover (a ring costs more than any
        # direction): none after one whose cost the best's beats is tried
        for penalty, gap, degrees in (
            (ring * 60 + preference * 3, gap, degrees)
            for ring, gap in enumerate(RINGS)
            for preference, degrees in enumerate(DIRECTIONS)
        ):
            if best is not None and best[0] <= penalty:
                break
            sx, sy = math.cos(math.radians(degrees)), math.sin(math.radians(degrees))
            # the label's centre, so that its near side is `gap` from the disc
            lx = cx + sx * (radius + gap + w / 2)
            ly = cy + sy * (radius + gap + h / 2)
            box = (lx - w / 2, ly - h / 2, lx + w / 2, ly + h / 2)
            score = near.cost(box) + penalty
            if best is None or score < best[0]:
                align = "l" if sx > 0.3 else "r" if sx < -0.3 else "m"
                best = (score, Label(box, align))
        assert best is not None  # there are places to try
        labels[key] = best[1]
        obstacles.boxes.append(best[1].box)

    lengths = {}
    for route in m.routes:
        (x0, y0), (x1, y1) = (place_centre(m, p) for p in route.ends)
        length = math.hypot(x1 - x0, y1 - y0)
        ux, uy = (x1 - x0) / length, (y1 - y0) / length
        (bx0, by0, bx1, by1) = length_box(m, route.name, (0, 0))
        # from the route's middle line to the box's centre: the box's half across the route
        across = abs(uy) * (bx1 - bx0) / 2 + abs(ux) * (by1 - by0) / 2
        reach = (route.copies - 1) * ROUTE_PITCH / 2 + OWNED_WIDTH / 2 + across + 1.5
        mx, my = (x0 + x1) / 2, (y0 + y1) / 2
        near = obstacles.near((mx - 90, my - 90, mx + 90, my + 90))
        best_centre: tuple[float, Point] | None = None  # (cost, where)
        # beside the route's middle, or further from it; where the map is crowded, on the
        # route itself, a way off its middle (which keeps its owners' colours in view)
        beside = [
            (reach + a, t * s, side)
            for a in (0, 10, 20)
            for t in (0, 12, 24, 36, 48)
            for s in (1, -1)
            for side in (1, -1)
        ]
        on = [(0.0, length * t * s, 0) for t in (0.25, 0.32, 0.18) for s in (1, -1)]
        for preference, (away, shift, side) in enumerate(beside + on):
            if best_centre is not None and best_centre[0] <= preference * 2:
                break  # (as for the keys)
            cx = mx + uy * away * side + ux * shift
            cy = my - ux * away * side + uy * shift
            score = near.cost(length_box(m, route.name, (cx, cy)), route.name) + preference * 2
            if best_centre is None or score < best_centre[0]:
                best_centre = (score, (cx, cy))
        assert best_centre is not None  # there are places to try
        lengths[route.name] = best_centre[1]
        obstacles.boxes.append(length_box(m, route.name, best_centre[1]))
    return Layout(labels, lengths)


def _segment_box(a: Point, b: Point) -> Box:
    return min(a[0], b[0]), min(a[1], b[1]), max(a[0], b[0]), max(a[1], b[1])


def _cards(m: Map, key: str) -> tuple[str, ...]:
    destination = m.places[key].destination
    return m.destination_cards[destination] if destination else ()


def _overlap(a: Box, b: Box) -> float:
    """The area two boxes share."""
    return max(0.0, min(a[2], b[2]) - max(a[0], b[0])) * max(0.0, min(a[3], b[3]) - max(a[1], b[1]))


def _touch(a: Box, b: Box) -> bool:
    """Whether two boxes meet at all."""
    return min(a[2], b[2]) >= max(a[0], b[0]) and min(a[3], b[3]) >= max(a[1], b[1])


def _circle_hits(box: Box, centre: Point, radius: float) -> bool:
    x = min(max(centre[0], box[0]), box[2])
    y = min(max(centre[1], box[1]), box[3])
    return math.hypot(centre[0] - x, centre[1] - y) < radius


def _segment_hits(box: Box, a: Point, b: Point, half: float) -> bool:
    """Whether the segment a-b, `half` pixels thick to either side, touches the box
    (Liang-Barsky clipping against the box grown by `half`)."""
    x0, y0, x1, y1 = box[0] - half, box[1] - half, box[2] + half, box[3] + half
    dx, dy = b[0] - a[0], b[1] - a[1]
    low, high = 0.0, 1.0
    for p, q in ((-dx, a[0] - x0), (dx, x1 - a[0]), (-dy, a[1] - y0), (dy, y1 - a[1])):
        if p == 0:
            if q < 0:
                return False
        else:
            t = q / p
            if p < 0:
                low = max(low, t)
            else:
                high = min(high, t)
            if low > high:
                return False
    return True


# every colour drawn flat (the palette keeps these exact), and the colours text is drawn in
FLAT_COLOURS = (
    INK,
    PAPER,
    ROAD,
    MUTED,
    WHITE,
    BANK_STYLE.colour,
    *(style.colour for style in COLOUR_STYLES.values()),
)
TEXT_COLOURS = (INK, MUTED, PAPER)
