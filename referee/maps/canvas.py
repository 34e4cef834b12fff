"""Drawing PNG maps: shapes drawn at twice the size and reduced, for smooth edges; text
from Pillow's built-in scalable font (the same picture on any machine with the same Pillow);
a small palette that keeps the flat colours exact. Coordinates are output pixels.

A map is drawn for every campaign at every tick, so the work is not repeated: what every
map of one game board shows (the `Ground`) is drawn once per process, what changes is drawn
over just the part of it it covers, each small thing that recurs once as a sprite pasted
wherever it stands, and each text once as a mask.
"""
from __future__ import annotations

import io
import math
from functools import lru_cache
from typing import Callable

from PIL import Image, ImageDraw, ImageFont

from .styles import PlayerStyle

SUPERSAMPLE = 2


@lru_cache(maxsize=None)
def font(size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.load_default(size=size)


def text_width(text: str, size: int) -> float:
    return font(size).getlength(text)


class Shapes:
    """Shapes and text as the drawing code gives them (output pixels), kept in order to be
    drawn in one go at SUPERSAMPLE times the size. Each shape is a hashable tuple, so that
    a sprite is known by its shapes."""

    def __init__(self):
        self.shapes: list[tuple] = []
        self.texts: list[tuple] = []

    def line(self, points, fill, width) -> None:
        points = tuple(tuple(p) for p in points)
        self.shapes.append(("line", points, fill, width))
        for point in points:  # round the ends so that strokes meet cleanly
            self.circle(point, width / 2, fill)

    def circle(self, centre, radius, fill, outline=None, width=1) -> None:
        self.shapes.append(("circle", tuple(centre), radius, fill, outline, width))

    def polygon(self, points, fill, outline=None, width=1) -> None:
        self.shapes.append(("polygon", tuple(tuple(p) for p in points), fill, outline, width))

    def rectangle(self, box, fill, radius=0, outline=None, width=1) -> None:
        self.shapes.append(("rectangle", tuple(box), fill, radius, outline, width))

    def text(self, at, text, size, fill, anchor, halo=None) -> None:
        """`halo`: a colour round the letters, to read them over lines."""
        self.texts.append((tuple(at), text, size, fill, anchor, halo))


def extent(shapes) -> tuple[int, int, int, int]:
    """The box of whole output pixels that `shapes` may touch."""
    xs, ys = [], []
    for kind, *args in shapes:
        if kind == "line":
            points, _, width = args
            xs += [x + d for x, _ in points for d in (-width / 2, width / 2)]
            ys += [y + d for _, y in points for d in (-width / 2, width / 2)]
        elif kind == "circle":
            (x, y), radius = args[:2]
            xs += [x - radius, x + radius]
            ys += [y - radius, y + radius]
        elif kind == "polygon":
            xs += [x for x, _ in args[0]]
            ys += [y for _, y in args[0]]
        else:
            x0, y0, x1, y1 = args[0]
            xs += [x0, x1]
            ys += [y0, y1]
    return math.floor(min(xs)) - 1, math.floor(min(ys)) - 1, math.ceil(max(xs)) + 1, \
        math.ceil(max(ys)) + 1


def draw(shapes, image: Image.Image, origin: tuple[int, int]) -> None:
    """Draws `shapes` on `image`, which is SUPERSAMPLE times the size and shows the output
    from the pixel `origin` on."""
    pen = ImageDraw.Draw(image)
    ox, oy = origin

    def xy(points):
        return [((x - ox) * SUPERSAMPLE, (y - oy) * SUPERSAMPLE) for x, y in points]

    for kind, *args in shapes:
        if kind == "line":
            points, fill, width = args
            pen.line(xy(points), fill=fill, width=round(width * SUPERSAMPLE))
        elif kind == "circle":
            (x, y), radius, fill, outline, width = args
            pen.ellipse(xy([(x - radius, y - radius), (x + radius, y + radius)]), fill=fill,
                        outline=outline, width=round(width * SUPERSAMPLE))
        elif kind == "polygon":
            points, fill, outline, width = args
            pen.polygon(xy(points), fill=fill, outline=outline,
                        width=round(width * SUPERSAMPLE))
        else:
            (x0, y0, x1, y1), fill, radius, outline, width = args
            pen.rounded_rectangle(xy([(x0, y0), (x1, y1)]), radius * SUPERSAMPLE, fill=fill,
                                  outline=outline, width=round(width * SUPERSAMPLE))


class Ground:
    """What every map of one board shows under what changes, drawn once by
    `draw_ground(shapes)`: at SUPERSAMPLE times the size (`big`, to draw over) and at output
    size (`image`), with its texts."""

    def __init__(self, size: tuple[int, int], paper, draw_ground: Callable[[Shapes], None]):
        shapes = Shapes()
        draw_ground(shapes)
        self.size = size
        self.big = Image.new("RGB", (size[0] * SUPERSAMPLE, size[1] * SUPERSAMPLE), paper)
        draw(shapes.shapes, self.big, (0, 0))
        self.image = self.big.reduce(SUPERSAMPLE)
        self.texts = tuple(shapes.texts)


@lru_cache(maxsize=4096)
def sprite_image(shapes: tuple) -> tuple[Image.Image, tuple[int, int]]:
    """`shapes` drawn on a transparent ground and reduced (RGBA), and where its top left
    pixel goes."""
    x0, y0, x1, y1 = extent(shapes)
    image = Image.new("RGBA", ((x1 - x0) * SUPERSAMPLE, (y1 - y0) * SUPERSAMPLE))
    draw(shapes, image, (x0, y0))
    return image.reduce(SUPERSAMPLE), (x0, y0)


HALO = 2  # pixels round the letters


@lru_cache(maxsize=8192)
def text_mask(text: str, size: int, anchor: str, start: tuple[float, float], halo: bool = False):
    """The coverage mask of `text` as ImageDraw.text draws it at a point whose fractional
    part is `start` (with `halo`, of the letters grown by HALO pixels), and where that point
    lies in the mask."""
    face = font(size)
    grow = HALO if halo else 0
    left, top, right, bottom = face.getbbox(text, anchor=anchor)
    # a margin for the fractional start and the halo
    x, y = 2 + grow - math.floor(left), 2 + grow - math.floor(top)
    mask = Image.new("L", (x + math.ceil(right) + 3 + grow, y + math.ceil(bottom) + 3 + grow))
    ImageDraw.Draw(mask).text((x + start[0], y + start[1]), text, fill=255, font=face,
                              anchor=anchor, stroke_width=grow)
    return mask, (x, y)


class Picture:
    """A map at output size, composed over its ground. Shapes come as shapes drawn over the
    ground, or as sprites; text is always the top layer."""

    def __init__(self, ground: Ground):
        self.ground = ground
        self.image = ground.image.copy()
        self.texts = list(ground.texts)

    def over_ground(self, shapes: Shapes) -> None:
        """Draws `shapes` on the ground where they lie, as the first thing drawn: at
        SUPERSAMPLE times the size over exactly what lies under them, then reduced."""
        if not shapes.shapes:
            return
        width, height = self.ground.size
        x0, y0, x1, y1 = extent(shapes.shapes)
        x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, width), min(y1, height)
        big = self.ground.big.crop((x0 * SUPERSAMPLE, y0 * SUPERSAMPLE,
                                    x1 * SUPERSAMPLE, y1 * SUPERSAMPLE))
        draw(shapes.shapes, big, (x0, y0))
        self.image.paste(big.reduce(SUPERSAMPLE), (x0, y0))
        self.texts += shapes.texts

    def sprite(self, at, paint, *args) -> None:
        """Pastes what `paint(shapes, at, *args)` draws. `at` is moved to the nearest
        1/SUPERSAMPLE pixel, so that a thing drawn at many places is drawn once per
        process: the sprite is known by its shapes."""
        x, y = (round(v * SUPERSAMPLE) / SUPERSAMPLE for v in at)
        ox, oy = math.floor(x), math.floor(y)
        shapes = Shapes()
        paint(shapes, (x - ox, y - oy), *args)
        if shapes.shapes:
            image, (dx, dy) = sprite_image(tuple(shapes.shapes))
            self.image.paste(image, (ox + dx, oy + dy), image)
        self.texts += [((tx + ox, ty + oy), *rest) for (tx, ty), *rest in shapes.texts]

    def restore_ground(self, box) -> None:
        self.image.paste(self.ground.image.crop(box), box[:2])

    def text(self, at, text, size, fill, anchor, halo=None) -> None:
        self.texts.append((at, text, size, fill, anchor, halo))

    def png(self, flat_colours: tuple) -> bytes:
        """The picture as PNG bytes, with `flat_colours` exact in its palette."""
        for (x, y), text, size, fill, anchor, halo in self.texts:
            start = (math.modf(x)[0], math.modf(y)[0])
            for colour, grown in ((halo, True), (fill, False)) if halo else ((fill, False),):
                mask, (mx, my) = text_mask(text, size, anchor, start, grown)
                self.image.paste(colour, (int(x) - mx, int(y) - my), mask)
        out = io.BytesIO()
        # zlib's fastest level: three times as fast as the default, and the mostly flat
        # picture still packs well under the 300 KB a mail may carry
        palette(self.image, flat_colours).save(out, "PNG", compress_level=1)
        return out.getvalue()


def palette(image: Image.Image, flat_colours: tuple) -> Image.Image:
    """At most 256 colours (a third of the bytes of RGB) with every flat colour exact: the
    flat colours come first, an octree of the picture fills the rest, and each pixel takes
    its nearest entry. The octree looks at every fourth pixel of every fourth row: as good
    a palette for these flat pictures, at a sixteenth of the work. Its colours that all but
    repeat a flat one are left out, or Pillow's lookup may take them for it."""
    sample = image.resize((image.width // 4, image.height // 4), Image.Resampling.NEAREST)
    octree = sample.quantize(256 - len(flat_colours), method=Image.Quantize.FASTOCTREE,
                             dither=Image.Dither.NONE).getpalette()
    extra = [octree[i:i + 3] for i in range(0, len(octree), 3)]
    extra = [v for r, g, b in extra
             if all((r - fr) ** 2 + (g - fg) ** 2 + (b - fb) ** 2 > 12
                    for fr, fg, fb in flat_colours)
             for v in (r, g, b)]
    table = Image.new("P", (1, 1))
    table.putpalette(([v for colour in flat_colours for v in colour] + extra)[:768])
    return image.quantize(palette=table, dither=Image.Dither.NONE)


# players' marks: the same on every map -----------------------------------------------------

PATTERN_PERIOD = 18  # between the marks of a stroke's pattern


def along(a, b, distance):
    """The point `distance` pixels from a towards b."""
    length = math.dist(a, b)
    return a[0] + (b[0] - a[0]) * distance / length, a[1] + (b[1] - a[1]) * distance / length


def stroke(canvas, a, b, style: PlayerStyle, width: float, clear: float) -> None:
    """A player's stroke from a to b: their colour, with the marks of their pattern placed
    symmetrically about the middle, never on it (the colour always shows there), and none
    within `clear` pixels of either end."""
    canvas.line([a, b], style.colour, width)
    middle = math.dist(a, b) / 2
    for k in range(math.floor((middle - clear) / PATTERN_PERIOD + 0.5)):
        d = (k + 0.5) * PATTERN_PERIOD
        for t in (middle - d, middle + d):
            pattern_mark(canvas, style, k, along(a, b, t), a, b, width)


def pattern_mark(canvas, style: PlayerStyle, k: int, at, a, b, width: float) -> None:
    """The k-th mark of the pattern at `at` on a stroke from a to b."""
    ux, uy = (b[0] - a[0]) / math.dist(a, b), (b[1] - a[1]) / math.dist(a, b)
    x, y = at
    pattern, ink = style.pattern, style.ink
    if pattern == "dots" or (pattern == "dash-dot" and k % 2):
        canvas.circle(at, 1.7, ink)
    elif pattern in ("dashes", "dash-dot"):
        canvas.line([(x - ux * 4, y - uy * 4), (x + ux * 4, y + uy * 4)], ink, 2)
    elif pattern in ("bars", "pairs"):
        half = width / 2
        for shift in ((0,) if pattern == "bars" else (-2.2, 2.2)):
            cx, cy = x + ux * shift, y + uy * shift
            canvas.line([(cx - uy * half, cy + ux * half), (cx + uy * half, cy - ux * half)],
                        ink, 1.6 if shift else 2)


def pattern_sample(canvas, at, style: PlayerStyle, width: float) -> None:
    """A short stroke with the player's pattern, as on the map."""
    a, b = (at[0], at[1]), (at[0] + 28, at[1])
    canvas.line([a, b], style.colour, width)
    pattern_mark(canvas, style, 0, (at[0] + 8, at[1]), a, b, width)
    pattern_mark(canvas, style, 1, (at[0] + 20, at[1]), a, b, width)


def badge(canvas, at, style: PlayerStyle, radius: float) -> None:
    """A disc in the player's colour with their letter."""
    canvas.circle(at, radius, style.colour, outline=(255, 255, 255), width=2)
    canvas.text(at, style.letter, round(radius * 1.5), style.ink, "mm")
