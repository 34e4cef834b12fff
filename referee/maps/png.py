"""The PNG map of a Bus position: the board as it lies on the table, and a side panel.

Drawn at twice the size and reduced, for smooth edges, then stored with a small palette.
Only Pillow's built-in scalable font is used, so the picture is the same on any machine
with the same Pillow. Coordinates in this module are output pixels; `_Canvas` scales them.
"""
from __future__ import annotations

import io
import math
import textwrap
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from .scene import BUILDING_TYPES, STYLES, CrossingFacts, Lot, Scene, build_scene, legend

WIDTH, HEIGHT = 1460, 1020
SUPERSAMPLE = 2
MAP_ORIGIN, MAP_SCALE = (60, 60), 9.0  # board position 0..100 -> 60..960 pixels
PANEL_LEFT = 1015

NODE_RADIUS = 13         # a crossing's disc
STATION_HALF = 17        # a station's square
STROKE, STROKE_PITCH = 7, 8  # one line on a street; lines side by side are this far apart
PATTERN_PERIOD = 18      # between the white marks of a line's pattern
ITEM_DISTANCE, ITEM_DISTANCE_MAX = 35, 70  # lots and passengers: how far from the crossing
LOT_RADIUS = 11
BADGE_RADIUS = 10        # a head's lettered disc

INK = (34, 34, 34)
PAPER = (250, 248, 242)
ROAD = (214, 210, 200)
MUTED = (150, 146, 138)
PARK = (220, 235, 208)
PARK_INK = (92, 130, 70)
PANEL = (238, 235, 226)
WHITE = (255, 255, 255)
STONE = (120, 170, 200)
BUILDING_FILL = {"house": (241, 205, 160), "office": (186, 206, 228), "pub": (226, 200, 120)}


def png_map(view: dict, board) -> bytes:
    """The PNG map (bytes) for the engine's `view(state)` of a Bus game on `board`."""
    scene = build_scene(view, board)
    canvas = _Canvas()
    _draw_board(canvas, scene, board)
    _draw_panel(canvas, scene)
    return canvas.png()


# geometry (exposed for tests: where things are drawn) ---------------------------------------

def crossing_centre(board, label: int) -> tuple[float, float]:
    x, y = board.crossings[label].pos
    return MAP_ORIGIN[0] + x * MAP_SCALE, MAP_ORIGIN[1] + y * MAP_SCALE


def stroke_offset(seats: tuple[int, ...], seat: int) -> float:
    """How far (pixels, to the left of the street's direction from its lower label) the
    stroke of `seat` runs, among the lines `seats` that share the street."""
    return (seats.index(seat) - (len(seats) - 1) / 2) * STROKE_PITCH


def stroke_centre(view: dict, board, street: tuple[int, int], seat: int) -> tuple[int, int]:
    """The pixel at the middle of `seat`'s stroke on `street`: the stroke's own colour is
    there, whatever its pattern (patterns leave the middle clear)."""
    seats = build_scene(view, board).street_lines[street]
    (x0, y0), (x1, y1) = _offset_segment(board, street, stroke_offset(seats, seat))
    return round((x0 + x1) / 2), round((y0 + y1) / 2)


def head_centres(view: dict, board, seat: int) -> list[tuple[int, int]]:
    """The pixel centres of the discs that mark the heads of `seat`'s line."""
    scene = build_scene(view, board)
    return [(round(x), round(y)) for x, y in _head_marks(board, scene, scene.players[seat])]


def _offset_segment(board, street, offset):
    (x0, y0), (x1, y1) = crossing_centre(board, street[0]), crossing_centre(board, street[1])
    length = math.hypot(x1 - x0, y1 - y0)
    nx, ny = (y1 - y0) / length, -(x1 - x0) / length  # the left normal
    return (x0 + nx * offset, y0 + ny * offset), (x1 + nx * offset, y1 + ny * offset)


def _along(a, b, distance):
    """The point `distance` pixels from a towards b."""
    length = math.dist(a, b)
    return a[0] + (b[0] - a[0]) * distance / length, a[1] + (b[1] - a[1]) * distance / length


# the board ----------------------------------------------------------------------------------

def _draw_board(canvas: "_Canvas", scene: Scene, board) -> None:
    park = [crossing_centre(board, c) for c in _park_corners(board)]
    canvas.polygon(park, fill=PARK)
    cx, cy = sum(p[0] for p in park) / 4, sum(p[1] for p in park) / 4
    canvas.text((cx, cy), "Central Park", 14, PARK_INK, "mm")

    for street in board.streets:
        width = _road_width(len(scene.street_lines.get(street, ())))
        canvas.line([crossing_centre(board, c) for c in street], ROAD, width)
    for street, seats in scene.street_lines.items():
        for seat in seats:
            _draw_stroke(canvas, board, street, seats, seat)
    for player in scene.players:
        for at in _head_marks(board, scene, player):
            _badge(canvas, at, player.style)
    for label in board.crossings:
        _draw_crossing(canvas, board, scene, scene.crossings[label])


def _node_radius(board, label: int) -> float:
    return STATION_HALF if board.crossings[label].station else NODE_RADIUS


def _road_width(lines: int) -> float:
    return max(STROKE, lines * STROKE_PITCH) + 4


def _park_corners(board) -> list[int]:
    """The central crossings in order round the park (by angle about their middle)."""
    points = {c: board.crossings[c].pos for c in board.centrals}
    mx = sum(p[0] for p in points.values()) / len(points)
    my = sum(p[1] for p in points.values()) / len(points)
    return sorted(points, key=lambda c: math.atan2(points[c][1] - my, points[c][0] - mx))


def _draw_stroke(canvas, board, street, seats, seat) -> None:
    style = STYLES[seat]
    a, b = _offset_segment(board, street, stroke_offset(seats, seat))
    canvas.line([a, b], style.colour, STROKE)
    # the pattern: white marks placed symmetrically about the middle, never on it, and
    # none where a head's disc may sit
    middle = math.dist(a, b) / 2
    clear = NODE_RADIUS + 2 * BADGE_RADIUS + 4
    for k in range(math.floor((middle - clear) / PATTERN_PERIOD + 0.5)):
        d = (k + 0.5) * PATTERN_PERIOD
        for t in (middle - d, middle + d):
            _pattern_mark(canvas, style.pattern, k, _along(a, b, t), a, b)


def _pattern_mark(canvas, pattern, k, at, a, b) -> None:
    ux, uy = (b[0] - a[0]) / math.dist(a, b), (b[1] - a[1]) / math.dist(a, b)
    x, y = at
    if pattern == "dots" or (pattern == "dash-dot" and k % 2):
        canvas.circle(at, 1.7, WHITE)
    elif pattern in ("dashes", "dash-dot"):
        canvas.line([(x - ux * 4, y - uy * 4), (x + ux * 4, y + uy * 4)], WHITE, 2)
    elif pattern == "bars":
        half = STROKE / 2
        canvas.line([(x - uy * half, y + ux * half), (x + uy * half, y - ux * half)], WHITE, 2)


def _head_marks(board, scene: Scene, player) -> list[tuple[float, float]]:
    """Where a line's heads are marked: a disc on the end street of each head, next to the
    crossing."""
    marks = []
    for head, street in player.ends:
        a, b = _offset_segment(board, street, stroke_offset(scene.street_lines[street],
                                                            player.seat))
        if street[0] != head:
            a, b = b, a
        marks.append(_along(a, b, _node_radius(board, head) + BADGE_RADIUS + 3))
    return marks


def _badge(canvas, at, style, radius=BADGE_RADIUS) -> None:
    canvas.circle(at, radius, style.colour, outline=WHITE, width=2)
    canvas.text(at, style.letter, round(radius * 1.5), WHITE, "mm")


def _draw_crossing(canvas, board, scene, facts: CrossingFacts) -> None:
    centre = crossing_centre(board, facts.label)
    items = [(_lot, lot, LOT_RADIUS * 2 + 6) for lot in facts.lots]
    if facts.waiting:
        items.append((_waiting, facts.waiting, _waiting_width(facts.waiting) + 8))
    places = _item_places(board, scene, facts.label, [span for _, _, span in items])
    for (draw, what, _), at in zip(items, places):
        draw(canvas, at, what)
    if facts.station:
        x, y = centre
        h = STATION_HALF
        canvas.rectangle((x - h, y - h, x + h, y + h), INK, radius=5)
        canvas.text(centre, str(facts.label), 15, WHITE, "mm")
    else:
        canvas.circle(centre, NODE_RADIUS, WHITE, outline=INK, width=2)
        canvas.text(centre, str(facts.label), 14, INK, "mm")


def _item_places(board, scene, label: int, spans: list[float]) -> list[tuple[float, float]]:
    """Where the things round a crossing go (each `span` pixels wide): in the gaps between
    its streets, narrowed by the lines and head marks on them. Each thing goes to the gap
    that can hold it closest to the crossing; the things of a gap stand side by side on an
    arc, as far out as they need to fit."""
    here = crossing_centre(board, label)
    # how far each street reaches to either side: its road, or a head's disc on it here
    reach = {street: _road_width(len(seats)) / 2 for street, seats in scene.street_lines.items()}
    for player in scene.players:
        for head, street in player.ends:
            if head == label:
                offset = abs(stroke_offset(scene.street_lines[street], player.seat))
                reach[street] = max(reach[street], offset + BADGE_RADIUS + 2)
    streets = []
    for s in board.streets_at[label]:
        there = crossing_centre(board, board.other_end(s, label))
        half = reach.get(board.streets[s], _road_width(0) / 2)
        streets.append((math.atan2(there[1] - here[1], there[0] - here[0]),
                        math.atan2(half, ITEM_DISTANCE)))
    streets.sort()
    gaps = []
    for (angle, half), (following, following_half) in zip(streets, streets[1:] + streets[:1]):
        width = (following - angle) % (2 * math.pi) or 2 * math.pi
        gaps.append((angle + half, max(0.1, width - half - following_half)))
    members: list[list[int]] = [[] for _ in gaps]

    def distance(gap: int, extra: float = 0) -> float:
        arc = sum(spans[j] for j in members[gap]) + extra
        return min(ITEM_DISTANCE_MAX, max(ITEM_DISTANCE, arc / gaps[gap][1]))

    for j, span in enumerate(spans):
        members[min(range(len(gaps)), key=lambda g: (distance(g, span), g))].append(j)
    places: list[tuple[float, float]] = [here] * len(spans)
    for g, ((start, width), items) in enumerate(zip(gaps, members)):
        radius = distance(g)
        angle = start + (width - sum(spans[j] for j in items) / radius) / 2
        for j in items:
            angle += spans[j] / 2 / radius
            places[j] = (here[0] + radius * math.cos(angle), here[1] + radius * math.sin(angle))
            angle += spans[j] / 2 / radius
    return places


def _lot(canvas, at, lot: Lot) -> None:
    if lot.building is None:
        canvas.circle(at, LOT_RADIUS, WHITE, outline=INK if lot.open else MUTED,
                      width=3 if lot.open else 1)
        canvas.text(at, lot.zone, 13, INK if lot.open else MUTED, "mm")
        return
    _building(canvas, at, lot.building, LOT_RADIUS + 1)
    canvas.text((at[0], at[1] + 2), lot.zone, 12, INK, "mm")
    if lot.seated:
        canvas.circle((at[0] + LOT_RADIUS, at[1] - LOT_RADIUS + 1), 5, INK,
                      outline=WHITE, width=2)


def _building(canvas, at, building: str, s: float) -> None:
    """House: a roofed pentagon; office: a tall block; pub: a diamond."""
    x, y = at
    if building == "house":
        points = [(x - s, y + s), (x + s, y + s), (x + s, y - s * 0.2), (x, y - s * 1.15),
                  (x - s, y - s * 0.2)]
    elif building == "office":
        w = s * 0.72
        points = [(x - w, y + s), (x + w, y + s), (x + w, y - s * 1.15), (x - w, y - s * 1.15)]
    else:
        r = s * 1.25
        points = [(x, y - r), (x + r, y), (x, y + r), (x - r, y)]
    canvas.polygon(points, BUILDING_FILL[building], outline=INK, width=2)


def _waiting_width(count: int) -> float:
    return 12 * count if count <= 3 else 36


def _waiting(canvas, at, count: int) -> None:
    """Standing figures, up to three; more are one figure and a count."""
    x, y = at
    shown = count if count <= 3 else 1
    for i in range(shown):
        _figure(canvas, (x + (i - (shown - 1) / 2) * 12 - (7 if count > 3 else 0), y))
    if count > 3:
        canvas.text((x + 1, y + 1), f"x{count}", 13, INK, "lm")


def _figure(canvas, at) -> None:
    x, y = at
    canvas.circle((x, y - 6.5), 3.8, INK)
    canvas.polygon([(x - 5, y + 8), (x + 5, y + 8), (x + 4, y - 1.5), (x - 4, y - 1.5)], INK)


# the side panel -------------------------------------------------------------------------------

def _draw_panel(canvas, scene: Scene) -> None:
    x = PANEL_LEFT + 10
    canvas.rectangle((PANEL_LEFT, 0, WIDTH, HEIGHT), PANEL)
    canvas.text((x, 36), scene.title, 26, INK, "ls")
    canvas.text((x, 62), scene.status.capitalize(), 17, INK, "ls")
    y = _clock(canvas, scene, x, 80)
    y = _players(canvas, scene, x, y + 20)
    y = _action_board(canvas, scene, x, y + 22)
    y = _legend(canvas, scene, x, y + 22)
    for paragraph in scene.awaiting + scene.result:
        for line in textwrap.wrap(paragraph, 56, subsequent_indent="    "):
            y += 22
            canvas.text((x, y), line, 15, INK, "ls")


def _clock(canvas, scene, x, y) -> float:
    """A dial with the three building types, the hand on the current one; the stones left
    on the clock; the open zone and the passenger supply."""
    centre, radius = (x + 50, y + 52), 48
    canvas.circle(centre, radius, WHITE, outline=INK, width=2)
    for i, kind in enumerate(BUILDING_TYPES):
        angle = math.radians(-90 + 120 * i)
        at = (centre[0] + 30 * math.cos(angle), centre[1] + 30 * math.sin(angle))
        _building(canvas, at, kind, 8)
        if kind == scene.clock:
            canvas.line([centre, _along(centre, at, 19)], INK, 4)
            canvas.circle(centre, 4, INK)
    tx = x + 116
    canvas.text((tx, y + 22), f"Clock: {scene.clock}", 19, INK, "ls")
    canvas.text((tx, y + 42), f"turns to {scene.next_clock} unless stopped", 14, MUTED, "ls")
    canvas.text((tx, y + 68), "Stones", 14, INK, "ls")
    for i in range(scene.clock_stones_total):
        filled = i < scene.clock_stones
        canvas.circle((tx + 62 + i * 22, y + 63), 8, STONE if filled else WHITE,
                      outline=INK, width=2 if filled else 1)
    canvas.text((tx + 62 + scene.clock_stones_total * 22, y + 68),
                f"{scene.clock_stones} left", 14, INK, "ls")
    zone = (f"Open zone {scene.open_zone}: {len(scene.open_lots)} free lots"
            if scene.open_zone else "No free lots left")
    canvas.text((tx, y + 92), zone, 14, INK, "ls")
    canvas.text((tx, y + 112), f"Passengers in supply: {scene.passenger_supply}", 14, INK, "ls")
    return y + 116


# (header, right edge of the column)
PLAYER_COLUMNS = (("Score", 200), ("Points", 246), ("Stones", 292), ("Buses", 334),
                  ("action", 378), ("line", 414))


def _players(canvas, scene, x, y) -> float:
    canvas.text((x + 392, y + 10), "markers left", 13, MUTED, "ms")
    for name, dx in PLAYER_COLUMNS:
        canvas.text((x + dx, y + 26), name, 13, MUTED, "rs")
    y += 32
    for p in scene.players:
        mid = y + 18
        _badge(canvas, (x + 11, mid), p.style, 11)
        _pattern_sample(canvas, (x + 30, mid), p.seat)
        canvas.text((x + 68, mid - (6 if p.start else 0)), _fit(p.name, 12), 17, INK, "lm")
        if p.start:
            canvas.text((x + 68, mid + 11), "start player", 12, MUTED, "lm")
        values = (p.score, p.points, p.stones, p.buses, p.markers, p.line_markers)
        for (name, dx), value in zip(PLAYER_COLUMNS, values):
            canvas.text((x + dx, mid), str(value), 20 if name == "Score" else 16, INK, "rm")
        y += 38
    return y


def _pattern_sample(canvas, at, seat) -> None:
    """A short stroke with the player's pattern, as on the board."""
    style = STYLES[seat]
    a, b = (at[0], at[1]), (at[0] + 28, at[1])
    canvas.line([a, b], style.colour, STROKE)
    _pattern_mark(canvas, style.pattern, 0, (at[0] + 8, at[1]), a, b)
    _pattern_mark(canvas, style.pattern, 1, (at[0] + 20, at[1]), a, b)


def _action_board(canvas, scene, x, y) -> float:
    canvas.text((x, y + 12), "Actions this round", 16, INK, "ls")
    for i, letter in enumerate("abcdef"):
        canvas.text((x + 170 + i * 32, y + 12), letter, 13, MUTED, "ms")
    y += 20
    for row in scene.actions:
        mid = y + 15
        canvas.text((x, mid), row.name, 15, INK, "lm")
        for i in range(row.spaces):
            at = (x + 170 + i * 32, mid)
            if i < len(row.seats):
                _badge(canvas, at, STYLES[row.seats[i]], 12)
            else:
                canvas.circle(at, 12, WHITE, outline=MUTED, width=1)
        y += 31
    return y


def _legend(canvas, scene, x, y) -> float:
    canvas.text((x, y + 12), "Legend", 16, INK, "ls")
    y += 20
    icons = (_legend_buildings, _legend_lot, _legend_waiting, _legend_seated,
             _legend_station, _legend_head)
    for draw, sentence in zip(icons, legend(scene)):
        mid = y + 13
        draw(canvas, (x + 24, mid), scene)
        canvas.text((x + 58, mid), sentence, 13, INK, "lm")
        y += 28
    return y


def _legend_buildings(canvas, at, scene) -> None:
    for i, kind in enumerate(BUILDING_TYPES):
        _building(canvas, (at[0] - 18 + i * 17, at[1]), kind, 6.5)


def _legend_lot(canvas, at, scene) -> None:
    _lot(canvas, at, Lot(scene.open_zone or "A", None, False, True))


def _legend_waiting(canvas, at, scene) -> None:
    _figure(canvas, at)


def _legend_seated(canvas, at, scene) -> None:
    _lot(canvas, at, Lot("A", scene.clock, True, False))


def _legend_station(canvas, at, scene) -> None:
    canvas.rectangle((at[0] - 9, at[1] - 9, at[0] + 9, at[1] + 9), INK, radius=3)


def _legend_head(canvas, at, scene) -> None:
    canvas.line([(at[0] - 22, at[1]), (at[0] + 4, at[1])], STYLES[0].colour, STROKE)
    _badge(canvas, (at[0] + 8, at[1]), STYLES[0])


def _fit(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[:limit - 3] + "..."


# drawing --------------------------------------------------------------------------------------

@lru_cache(maxsize=None)
def _font(size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.load_default(size=size)


class _Canvas:
    """Shapes go to an image SUPERSAMPLE times the output size and are reduced at the end;
    text is drawn after that at output size (FreeType smooths it itself, and at a quarter
    of the pixels). Takes output coordinates. Text is always the top layer."""

    def __init__(self):
        self.image = Image.new("RGB", (WIDTH * SUPERSAMPLE, HEIGHT * SUPERSAMPLE), PAPER)
        self.draw = ImageDraw.Draw(self.image)
        self.texts: list[tuple] = []

    @staticmethod
    def _xy(points):
        return [(x * SUPERSAMPLE, y * SUPERSAMPLE) for x, y in points]

    def line(self, points, fill, width) -> None:
        self.draw.line(self._xy(points), fill=fill, width=round(width * SUPERSAMPLE))
        for point in points:  # round the ends so that strokes meet cleanly
            self.circle(point, width / 2, fill)

    def circle(self, centre, radius, fill, outline=None, width=1) -> None:
        x, y = centre
        self.draw.ellipse(self._xy([(x - radius, y - radius), (x + radius, y + radius)]),
                          fill=fill, outline=outline, width=round(width * SUPERSAMPLE))

    def polygon(self, points, fill, outline=None, width=1) -> None:
        self.draw.polygon(self._xy(points), fill=fill, outline=outline,
                          width=round(width * SUPERSAMPLE))

    def rectangle(self, box, fill, radius=0) -> None:
        x0, y0, x1, y1 = box
        self.draw.rounded_rectangle(self._xy([(x0, y0), (x1, y1)]), radius * SUPERSAMPLE,
                                    fill=fill)

    def text(self, at, text, size, fill, anchor) -> None:
        self.texts.append((at, text, size, fill, anchor))

    def png(self) -> bytes:
        image = self.image.reduce(SUPERSAMPLE)
        draw = ImageDraw.Draw(image)
        for at, text, size, fill, anchor in self.texts:
            draw.text(at, text, fill=fill, font=_font(size), anchor=anchor)
        out = io.BytesIO()
        _palette(image).save(out, "PNG")
        return out.getvalue()


# every colour drawn flat; the palette keeps these exact
FLAT_COLOURS = (INK, PAPER, ROAD, MUTED, PARK, PARK_INK, PANEL, WHITE, STONE,
                *BUILDING_FILL.values(), *(style.colour for style in STYLES))


def _palette(image: Image.Image) -> Image.Image:
    """At most 256 colours (a third of the bytes of RGB) with every flat colour exact: the
    flat colours come first, an octree of the picture fills the rest, and each pixel takes
    its nearest entry."""
    octree = image.quantize(256 - len(FLAT_COLOURS), method=Image.Quantize.FASTOCTREE,
                            dither=Image.Dither.NONE)
    palette = Image.new("P", (1, 1))
    palette.putpalette([v for colour in FLAT_COLOURS for v in colour]
                       + octree.getpalette()[:3 * (256 - len(FLAT_COLOURS))])
    return image.quantize(palette=palette, dither=Image.Dither.NONE)
