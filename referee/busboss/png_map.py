"""The PNG map of a Bus Boss position: the map with every route in its owners' colours, and
a side panel with the round, the companies' cash, the runs on offer and a legend.

What only the map decides (places, free routes, where each name and length stands, the
legend) is worked out and drawn once per map and process; a render draws the owned routes
over it and fills in the panel. Coordinates in this module are output pixels.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from ..maps.canvas import (
    Box,
    Ground,
    Picture,
    Point,
    Shapes,
    Sprite,
    along,
    badge,
    fixed_palette,
    pattern_sample,
    sprite_image,
    stroke,
    text_width,
)
from ..maps.styles import COLOUR_STYLES, INK, WHITE
from .engine import BusBossView
from .map import Map
from .scene import BANK_STYLE, BossScene, Company, RouteFacts, build_scene

WIDTH, HEIGHT = 1580, 1090
MAP_ORIGIN, MAP_SCALE = (46, 46), 10.0  # map position 0..100 -> 46..1046 pixels
MAP_BOX = (4, 4, 1096, HEIGHT - 4)  # names and lengths stay inside
PANEL_LEFT = 1110

ROUTE_PITCH = 7  # the copies of a doubled route lie this far apart
FREE_WIDTH = 3  # a copy nobody owns
OWNED_WIDTH = 6  # a copy a company owns
BANK_WIDTH = 5  # a copy the bank holds: dashes and gaps
BANK_DASH, BANK_GAP = 6, 10  # between the ends' centres: the round ends take BANK_WIDTH
TOWN_RADIUS = 3.5  # a town without cards
JUNCTION_RADIUS = 4.5  # a point where routes cross between towns (K9)
LENGTH_RADIUS = 7.5  # the disc of a route's length

NAME_SIZE, CARD_SIZE, SMALL_NAME_SIZE = 14, 11, 11  # SMALL: towns without cards, junctions
CHIP_HEIGHT, CHIP_PAD, CHIP_GAP = 14, 3, 2
NAME_LINE = 16

PAPER = (250, 248, 242)
ROAD = (178, 172, 160)
MUTED = (130, 126, 118)
PANEL = (238, 235, 226)
CARD_RED = (176, 30, 56)  # hearts and diamonds, as on the cards
# zlib's level for the map, as bench/busboss_png_level_bench.py measured it: the cheapest
# whose largest mail of whole games stays within 150 KB (issue 23). A Bus Boss map goes to
# every player every round; at level 9 a map cost 96 ms and the largest mail was 138 KB, at
# level 5 32 ms and 147.5 KB; level 4 (150.3 KB) and below are over
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
    _draw_panel(picture, scene)
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
    return round((a[0] + b[0]) / 2), round((a[1] + b[1]) / 2)


def marker_radius(m: Map, key: str) -> float:
    """A destination's disc grows with its cards; a town without cards is a dot, a junction
    a small ring (K9)."""
    place = m.places[key]
    if place.destination is None:
        return JUNCTION_RADIUS if place.junction else TOWN_RADIUS
    return 5 + 1.5 * len(m.destination_cards[place.destination])


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
    """What every map of `m` shows under the owned routes: free copies of every route, the
    panel's ground, its title and the legend."""
    for route in m.routes:
        for copy in range(route.copies):
            shapes.line(copy_segment(m, route.name, copy), ROAD, FREE_WIDTH)
    shapes.rectangle((PANEL_LEFT, 0, WIDTH, HEIGHT), PANEL)
    x = PANEL_LEFT + 16
    shapes.text((x, 38), "Bus Boss", 26, INK, "ls")
    shapes.text((x, 60), _fit(m.title, 15, WIDTH - x - 16), 15, MUTED, "ls")
    _legend(shapes, x, LEGEND_TOP)


def _ground(m: Map) -> Ground:
    return Ground((WIDTH, HEIGHT), PAPER, lambda shapes: _draw_ground(m, shapes))


@lru_cache(maxsize=8)  # the layout of a map's names: by far the dearest part
def _places(m: Map) -> Sprite:
    """Every place's marker, name and cards, and every route's length: a sprite of the
    whole map, to go over the routes."""
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
        centre = layout.lengths[route.name]
        shapes.circle(centre, LENGTH_RADIUS, WHITE, outline=MUTED, width=1)
        shapes.text((centre[0], centre[1] + 0.5), str(route.length), 11, INK, "mm")
    for key, label in layout.labels.items():
        _label(shapes, m, key, label)
    return sprite_image(tuple(shapes.shapes), tuple(shapes.texts))


@dataclass(frozen=True)
class Label:
    box: tuple[float, float, float, float]
    align: str  # l, m or r: how the lines of the label line up


@dataclass(frozen=True)
class Layout:
    labels: dict[str, Label]  # by place key
    lengths: dict[str, tuple[float, float]]  # the centre of each route's length disc


def _label_size(m: Map, key: str) -> tuple[float, float]:
    place = m.places[key]
    if place.destination is None:
        return text_width(place.name, SMALL_NAME_SIZE), SMALL_NAME_SIZE + 2
    cards = m.destination_cards[place.destination]
    return (
        max(text_width(place.destination, NAME_SIZE), _chips_width(cards)),
        NAME_LINE + CHIP_HEIGHT + 1,
    )


def _chips_width(cards: Sequence[str]) -> float:
    return sum(text_width(c, CARD_SIZE) + 2 * CHIP_PAD for c in cards) + CHIP_GAP * (len(cards) - 1)


def _label(shapes: Shapes, m: Map, key: str, label: Label) -> None:
    x0, y0, x1, y1 = label.box
    x = {"l": x0, "m": (x0 + x1) / 2, "r": x1}[label.align]
    place = m.places[key]
    if place.destination is None:
        shapes.text((x, y1 - 2), place.name, SMALL_NAME_SIZE, MUTED, label.align + "s", PAPER)
        return
    shapes.text(
        (x, y0 + NAME_SIZE - 1), place.destination, NAME_SIZE, INK, label.align + "s", PAPER
    )
    cards = m.destination_cards[place.destination]
    width = _chips_width(cards)
    left = {"l": x0, "m": x - width / 2, "r": x1 - width}[label.align]
    _chips(shapes, (left, y0 + NAME_LINE + 1), cards)


def _chips(shapes: Shapes, at: Point, cards: Sequence[str]) -> None:
    """Cards as small white cards with their names, hearts and diamonds in red."""
    left, top = at
    for card in cards:
        w = text_width(card, CARD_SIZE) + 2 * CHIP_PAD
        shapes.rectangle(
            (left, top, left + w, top + CHIP_HEIGHT), WHITE, radius=2.5, outline=MUTED, width=1
        )
        shapes.text(
            (left + w / 2, top + CHIP_HEIGHT / 2 + 0.5),
            card,
            CARD_SIZE,
            CARD_RED if card[-1] in "HD" else INK,
            "mm",
        )
        left += w + CHIP_GAP


# where names and lengths go ---------------------------------------------------------------

# Directions a label may stand in from its place, in order of preference: right, left,
# above, below, then the diagonals and the directions between.
DIRECTIONS = (0, 180, 270, 90, 315, 45, 225, 135, 345, 15, 195, 165, 300, 60, 240, 120)
RINGS = (3, 11, 20)  # how far a label's near side may stand from its place's disc


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
            (copy_centre(m, r.name, c), 5, 8000.0) for r in m.routes for c in range(r.copies)
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
    """Names round their places and lengths beside their routes' middles, each where it
    covers the least (see `_Obstacles`), most cards first, towns without cards and junctions
    last."""
    obstacles = _Obstacles(m)
    labels = {}
    order = sorted(m.places, key=lambda k: (m.places[k].destination is None, -len(_cards(m, k))))
    for key in order:
        (cx, cy), radius = place_centre(m, key), marker_radius(m, key)
        w, h = _label_size(m, key)
        reach = radius + RINGS[-1] + max(w, h)
        near = obstacles.near((cx - reach, cy - reach, cx + reach, cy + reach))
        best: tuple[float, Label] | None = None  # (cost, where)
        for ring, gap in enumerate(RINGS):
            for preference, degrees in enumerate(DIRECTIONS):
                sx, sy = math.cos(math.radians(degrees)), math.sin(math.radians(degrees))
                # the label's centre, so that its near side is `gap` from the disc
                lx = cx + sx * (radius + gap + w / 2)
                ly = cy + sy * (radius + gap + h / 2)
                box = (lx - w / 2, ly - h / 2, lx + w / 2, ly + h / 2)
                score = near.cost(box) + preference * 3 + ring * 60
                if best is None or score < best[0]:
                    align = "l" if sx > 0.3 else "r" if sx < -0.3 else "m"
                    best = (score, Label(box, align))
        assert best is not None  # there are places to try
        labels[key] = best[1]
        obstacles.boxes.append(best[1].box)

    lengths = {}
    r = LENGTH_RADIUS
    for route in m.routes:
        (x0, y0), (x1, y1) = (place_centre(m, p) for p in route.ends)
        length = math.hypot(x1 - x0, y1 - y0)
        ux, uy = (x1 - x0) / length, (y1 - y0) / length
        reach = (route.copies - 1) * ROUTE_PITCH / 2 + OWNED_WIDTH / 2 + r + 1.5
        mx, my = (x0 + x1) / 2, (y0 + y1) / 2
        near = obstacles.near((mx - 60, my - 60, mx + 60, my + 60))
        best_centre: tuple[float, Point] | None = None  # (cost, where)
        for preference, (away, shift, side) in enumerate(
            (a, t, s) for a in (0, 9) for t in (0, 9, -9, 18, -18, 27, -27) for s in (1, -1)
        ):
            cx = mx + uy * (reach + away) * side + ux * shift
            cy = my - ux * (reach + away) * side + uy * shift
            score = near.cost((cx - r, cy - r, cx + r, cy + r), route.name) + preference * 2
            if best_centre is None or score < best_centre[0]:
                best_centre = (score, (cx, cy))
        assert best_centre is not None  # there are places to try
        lengths[route.name] = cx, cy = best_centre[1]
        obstacles.boxes.append((cx - r, cy - r, cx + r, cy + r))
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


# the side panel -------------------------------------------------------------------------------

# (header, right edge of the column)
COMPANY_COLUMNS = (("Cash", 262), ("Routes", 322), ("Spaces", 382), ("Turn", 432))
COMPANIES_TOP, COMPANY_ROW, RUN_ROW = 108, 38, 21
LEGEND_TOP = 898
# rows of the panel's runs on offer (the last says how many more there are, when they are
# more): a row is about 1 KB of the picture, and the text map lists them all
RUN_ROWS = 11


def _draw_panel(picture: Picture, scene: BossScene) -> None:
    x = PANEL_LEFT + 16
    picture.text((x, 92), scene.status[0].upper() + scene.status[1:], 18, INK, "ls")
    y = _companies(picture, scene, x, COMPANIES_TOP)
    if scene.result:
        _result(picture, scene, x, y + 24)
    else:
        _runs(picture, scene, x, y + 24)


def badge_centre(row: int) -> tuple[int, int]:
    """The centre of the badge of the company in the panel's `row` (its seat)."""
    return PANEL_LEFT + 16 + 11, COMPANIES_TOP + 26 + row * COMPANY_ROW + COMPANY_ROW // 2


def _companies(picture: Picture, scene: BossScene, x: float, y: float) -> float:
    picture.text((x + 66, y + 20), "Company", 13, MUTED, "ls")
    for name, dx in COMPANY_COLUMNS:
        picture.text((x + dx, y + 20), name, 13, MUTED, "rs")
    y += 26
    turns = {seat: i + 1 for i, seat in enumerate(scene.order_of_play)}
    for row, c in enumerate(scene.companies):
        mid = badge_centre(row)[1]
        picture.sprite(badge_centre(row), badge, c.style, 11)
        picture.sprite((x + 28, mid), pattern_sample, c.style, OWNED_WIDTH)
        _company_name(picture, c, x + 66, mid)
        values = (c.cash, len(c.routes), c.spaces, turns.get(c.seat, "-"))
        for (name, dx), value in zip(COMPANY_COLUMNS, values):
            picture.text((x + dx, mid), str(value), 18 if name == "Cash" else 15, INK, "rm")
        y += COMPANY_ROW
    return y


def _company_name(picture: Picture, c: Company, x: float, mid: float) -> None:
    picture.text((x, mid - 7 if c.status else mid), _fit(c.title, 16, 150), 16, INK, "lm")
    if c.status:
        picture.text((x, mid + 10), c.status, 12, MUTED, "lm")


def _runs(picture: Picture, scene: BossScene, x: float, y: float) -> None:
    if not scene.runs:
        picture.text((x, y), scene.no_runs, 16, INK, "ls")
        return
    again = sum(r.reoffered for r in scene.runs)
    picture.text((x, y), f"Runs on offer: {len(scene.runs)}", 16, INK, "ls")
    picture.text(
        (x + 444, y), f"{again} offered again; enter up to {scene.entry_limit}", 13, MUTED, "rs"
    )
    y += 8
    room = min(RUN_ROWS, math.floor((LEGEND_TOP - 30 - y) / RUN_ROW))
    shown = scene.runs if len(scene.runs) <= room else scene.runs[: room - 1]
    for run in shown:
        mid = y + RUN_ROW / 2
        picture.sprite((x, mid - CHIP_HEIGHT / 2), _chips, run.cards)
        room = 444 - 78 - (90 if run.reoffered else 0)
        picture.text(
            (x + 78, mid),
            _fit(f"{run.destinations[0]} - {run.destinations[1]}", 14, room),
            14,
            INK,
            "lm",
        )
        if run.reoffered:
            picture.text((x + 444, mid), f"since round {run.since}", 12, MUTED, "rm")
        y += RUN_ROW
    if len(shown) < len(scene.runs):
        picture.text(
            (x, y + RUN_ROW / 2),
            f"and {len(scene.runs) - len(shown)} more: see the text map",
            13,
            MUTED,
            "lm",
        )


def _fit(text: str, size: int, width: float) -> str:
    """The text, cut short with ... where it is wider than `width` pixels."""
    if text_width(text, size) <= width:
        return text
    while text and text_width(text + "...", size) > width:
        text = text[:-1]
    return text.rstrip() + "..."


def _result(picture: Picture, scene: BossScene, x: float, y: float) -> None:
    for i, line in enumerate(scene.result):
        picture.text((x, y + i * 24), line, 18 if i == 0 else 16, INK, "ls")


def _legend(shapes: Shapes, x: float, y: float) -> None:
    shapes.text((x, y), "Legend", 16, INK, "ls")
    rows = (
        (_legend_destination, "a destination and its cards: a run joins two cards' towns"),
        (_legend_town, "a town without cards"),
        (_legend_junction, "a junction: routes cross; buses change and routes join there"),
        (_legend_length, "a route's length in spaces; it costs its length + 2"),
        (_legend_free, "a free route; a doubled route (one copy each)"),
        (_legend_bank, "a route of the bank's (a dropped player's, rule 40)"),
        (_legend_owned, "a company's route: its colour and pattern, as above"),
    )
    for i, (paint, sentence) in enumerate(rows):
        mid = y + 20 + i * 24
        paint(shapes, (x + 28, mid))
        shapes.text((x + 70, mid), sentence, 13, INK, "lm")


def _legend_destination(shapes: Shapes, at: Point) -> None:
    shapes.circle((at[0] - 18, at[1]), 6.5, WHITE, outline=INK, width=2.5)
    _chips(shapes, (at[0] - 7, at[1] - CHIP_HEIGHT / 2), ("KS",))


def _legend_town(shapes: Shapes, at: Point) -> None:
    shapes.circle(at, TOWN_RADIUS, INK)


def _legend_junction(shapes: Shapes, at: Point) -> None:
    x, y = at
    shapes.line([(x - 16, y - 10), (x + 16, y + 10)], ROAD, FREE_WIDTH)
    shapes.line([(x - 16, y + 10), (x + 16, y - 10)], ROAD, FREE_WIDTH)
    shapes.circle(at, JUNCTION_RADIUS, WHITE, outline=INK, width=1.5)


def _legend_length(shapes: Shapes, at: Point) -> None:
    shapes.circle(at, LENGTH_RADIUS, WHITE, outline=MUTED, width=1)
    shapes.text((at[0], at[1] + 0.5), "4", 11, INK, "mm")


def _legend_free(shapes: Shapes, at: Point) -> None:
    x, y = at
    shapes.line([(x - 24, y), (x - 6, y)], ROAD, FREE_WIDTH)
    for dy in (-ROUTE_PITCH / 2, ROUTE_PITCH / 2):
        shapes.line([(x + 4, y + dy), (x + 24, y + dy)], ROAD, FREE_WIDTH)


def _legend_bank(shapes: Shapes, at: Point) -> None:
    _dashes(shapes, (at[0] - 24, at[1]), (at[0] + 24, at[1]), 0)


def _legend_owned(shapes: Shapes, at: Point) -> None:
    stroke(shapes, (at[0] - 24, at[1]), (at[0] + 24, at[1]), COLOUR_STYLES["blue"], OWNED_WIDTH, 0)


# every colour drawn flat (the palette keeps these exact), and the colours text is drawn in
FLAT_COLOURS = (
    INK,
    PAPER,
    ROAD,
    MUTED,
    PANEL,
    WHITE,
    CARD_RED,
    BANK_STYLE.colour,
    *(style.colour for style in COLOUR_STYLES.values()),
)
TEXT_COLOURS = (INK, MUTED, CARD_RED, WHITE, PAPER)
