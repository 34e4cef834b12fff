"""Drawing PNG maps: shapes drawn at twice the size and reduced, for smooth edges; text
from Pillow's built-in scalable font (the same picture on any machine with the same Pillow);
one small palette per map style that keeps the flat colours exact. Coordinates are output
pixels.

A map is drawn for every campaign at every tick, so the work is not repeated: what every
map of one board shows (the `Ground`) is drawn once per process, what changes is drawn over
just the part of it it covers, each thing that recurs once as a sprite (shapes and text)
pasted wherever it stands, and each text once as a mask.

Each cron tick is a fresh process, so these static parts are also kept on disk between
processes (``StaticParts``), in the referee's cache (``referee.cache``), in files named by
the renderer's version (this module's source and Pillow's version; a ground also by its
renderer's source): a missing, unreadable or foreign file only means drawing again.
"""

from __future__ import annotations

import atexit
import contextlib
import hashlib
import io
import marshal
import math
import mmap
import os
from collections.abc import Callable, Iterable, Sequence
from functools import cache, cached_property
from itertools import combinations
from pathlib import Path
from typing import Any

import PIL
from PIL import Image, ImageDraw, ImageFont

from ..cache import cache_dir, write
from .styles import WHITE, PlayerStyle

Point = tuple[float, float]  # (x, y) in output pixels
Box = tuple[float, float, float, float]  # (left, top, right, bottom)
Colour = tuple[int, int, int]
Shape = tuple[Any, ...]  # (kind, its arguments), as Shapes keeps a shape or a text
Sprite = tuple[Image.Image, tuple[int, int]]  # an RGBA image and where its top left goes

SUPERSAMPLE = 2
BAND = 64  # output rows drawn over the ground at a time (see Ground)
HALO = 2  # pixels round the letters of a text with a halo


# A map is drawn for a phone: shown PHONE_WIDTH CSS pixels wide (a phone held upright), no
# text on it is smaller than SMALLEST_TEXT CSS pixels there (issue 36).
PHONE_WIDTH, SMALLEST_TEXT = 390, 8


def smallest_text(width: int) -> int:
    """The smallest font size (pixels) that a map ``width`` pixels wide may draw text in."""
    return math.ceil(SMALLEST_TEXT * width / PHONE_WIDTH)


@cache
def font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.load_default(size=size)  # a bitmap font only in a Pillow without FreeType


def text_width(text: str, size: int) -> float:
    return font(size).getlength(text)


class Shapes:
    """Shapes and text as the drawing code gives them (output pixels), kept in order to be
    drawn in one go at SUPERSAMPLE times the size, in pixels from `origin`. Each is a
    hashable tuple, so that a sprite is known by what it draws."""

    def __init__(self, origin: tuple[int, int] = (0, 0)):
        self.origin = origin
        self.shapes: list[Shape] = []
        self.texts: list[Shape] = []

    def _local(self, points: Iterable[Point]) -> tuple[Point, ...]:
        ox, oy = self.origin
        return tuple((x - ox, y - oy) for x, y in points)

    def line(self, points: Iterable[Point], fill: Colour, width: float) -> None:
        points = self._local(points)
        self.shapes.append(("line", points, fill, width))
        for point in points:  # round the ends so that strokes meet cleanly
            self.shapes.append(("circle", point, width / 2, fill, None, 1))

    def circle(
        self,
        centre: Point,
        radius: float,
        fill: Colour,
        outline: Colour | None = None,
        width: float = 1,
    ) -> None:
        self.shapes.append(("circle", *self._local([centre]), radius, fill, outline, width))

    def polygon(
        self, points: Iterable[Point], fill: Colour, outline: Colour | None = None, width: float = 1
    ) -> None:
        self.shapes.append(("polygon", self._local(points), fill, outline, width))

    def rectangle(
        self,
        box: Box,
        fill: Colour,
        radius: float = 0,
        outline: Colour | None = None,
        width: float = 1,
    ) -> None:
        corners = self._local([box[:2], box[2:]])
        self.shapes.append(("rectangle", corners[0] + corners[1], fill, radius, outline, width))

    def text(
        self, at: Point, text: str, size: int, fill: Colour, anchor: str, halo: Colour | None = None
    ) -> None:
        """`halo`: a colour round the letters, to read them over lines."""
        self.texts.append((*self._local([at]), text, size, fill, anchor, halo))


def extent(shapes: Iterable[Shape]) -> tuple[int, int, int, int]:
    """The box of whole output pixels that `shapes` may touch."""
    return union([shape_box(shape) for shape in shapes])


def union(boxes: Sequence[tuple[int, int, int, int]]) -> tuple[int, int, int, int]:
    return (
        min(b[0] for b in boxes),
        min(b[1] for b in boxes),
        max(b[2] for b in boxes),
        max(b[3] for b in boxes),
    )


def shape_box(shape: Shape) -> tuple[int, int, int, int]:
    """The box of whole output pixels that one shape may touch."""
    kind, *args = shape
    if kind == "line":
        points, _, width = args
        half = width / 2
        xs = [x for x, _ in points]
        ys = [y for _, y in points]
        left, top, right, bottom = min(xs) - half, min(ys) - half, max(xs) + half, max(ys) + half
    elif kind == "circle":
        (x, y), radius = args[:2]
        left, top, right, bottom = x - radius, y - radius, x + radius, y + radius
    elif kind == "polygon":
        xs = [x for x, _ in args[0]]
        ys = [y for _, y in args[0]]
        left, top, right, bottom = min(xs), min(ys), max(xs), max(ys)
    else:
        left, top, right, bottom = args[0]
    return (
        math.floor(left) - 1,
        math.floor(top) - 1,
        math.ceil(right) + 1,
        math.ceil(bottom) + 1,
    )


def draw(shapes: Iterable[Shape], image: Image.Image, origin: tuple[int, int]) -> None:
    """Draws `shapes` on `image`, which is SUPERSAMPLE times the size and shows the output
    from the pixel `origin` (whole numbers) on. Lines, circles and polygons are drawn the
    same wherever the image starts: Pillow keeps only the whole part of their coordinates,
    cut toward zero, so they are given floored (above or left of the image, cutting toward
    zero would move a shape a pixel, as a band of a map sees a shape it shares with the band
    above), and floored before they are moved to the image's origin: a float moved first
    is rounded on the way (38.3 - 28.8 is 9.4999..., but 38.3 - 28.8 - 64 is -54.5), which
    drew a circle's edge a pixel apart in two bands."""
    pen = ImageDraw.Draw(image)
    ox, oy = origin[0] * SUPERSAMPLE, origin[1] * SUPERSAMPLE
    floor = math.floor

    def xy(points: Iterable[Point]) -> list[tuple[int, int]]:
        return [(floor(x * SUPERSAMPLE) - ox, floor(y * SUPERSAMPLE) - oy) for x, y in points]

    for kind, *args in shapes:
        if kind == "circle":
            (x, y), radius, fill, outline, width = args
            box = (x - radius, y - radius, x + radius, y + radius)
            pen.ellipse(
                [floor(v * SUPERSAMPLE) - o for v, o in zip(box, (ox, oy, ox, oy))],
                fill=fill,
                outline=outline,
                width=round(width * SUPERSAMPLE),
            )
        elif kind == "line":
            points, fill, width = args
            pen.line(xy(points), fill=fill, width=round(width * SUPERSAMPLE))
        elif kind == "polygon":
            points, fill, outline, width = args
            pen.polygon(xy(points), fill=fill, outline=outline, width=round(width * SUPERSAMPLE))
        else:
            # as Pillow rounds a rectangle, one that an edge of the image cuts may come out a
            # pixel off: no map draws one over its ground (see over_ground)
            (x0, y0, x1, y1), fill, radius, outline, width = args
            x0, y0, x1, y1 = (v * SUPERSAMPLE - o for v, o in zip(args[0], (ox, oy, ox, oy)))
            pen.rounded_rectangle(
                (x0, y0, x1, y1),
                radius * SUPERSAMPLE,
                fill=fill,
                outline=outline,
                width=round(width * SUPERSAMPLE),
            )


# --- the static parts, kept on disk between processes ------------------------------------------


@cache
def _version() -> str:
    """The drawing code's version: this module and Pillow."""
    digest = hashlib.sha256(PIL.__version__.encode())
    digest.update(Path(__file__).read_bytes())
    return digest.hexdigest()[:16]


def _image_data(image: Image.Image) -> tuple:
    return image.mode, image.size, image.tobytes()


def _image(data: tuple) -> Image.Image:
    mode, size, raw = data
    return Image.frombytes(mode, tuple(size), raw)


def _read(path: Path) -> Any:
    """A cache file's content, or None when it is missing or unreadable."""
    try:
        return marshal.loads(path.read_bytes())
    except (OSError, EOFError, ValueError, TypeError):
        return None


def _mapped(path: Path, size: tuple[int, int]) -> mmap.mmap | None:
    """The pixels of an RGB image kept raw in a cache file, mapped rather than read (read
    as they are used, not copied first: a process's first map touches 16 MB less memory),
    or None when there is none of that size. Four bytes a pixel (RGBX), as Pillow keeps an
    RGB image: reading them in is a copy, where three bytes a pixel were spread out one by
    one (10 M instructions a map)."""
    try:
        with open(path, "rb") as f:
            if os.fstat(f.fileno()).st_size != size[0] * size[1] * 4:
                return None
            return mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
    except (OSError, ValueError):
        return None


def _write(path: Path, content: Any, raw: bool = False) -> None:
    write(path, content if raw else marshal.dumps(content))


def _sprite_data(sprite: Sprite) -> tuple:
    image, origin = sprite
    return _image_data(image), origin


def _sprite(data: tuple) -> Sprite:
    image, origin = data
    return _image(image), tuple(origin)


def _palette(colours: list[int]) -> Image.Image:
    palette = Image.new("P", (1, 1))
    palette.putpalette(colours)
    return palette


# what is kept of each kind of static part: (as data for the disk, back from that data)
KINDS: dict[str, tuple[Callable[[Any], Any], Callable[[Any], Any]]] = {
    "sprites": (_sprite_data, _sprite),
    "masks": (_sprite_data, _sprite),  # a text's mask and where it goes: a sprite's form
    "palettes": (lambda palette: palette.getpalette(), _palette),
}


class StaticParts:
    """The sprites, text masks and palettes made so far, by what they show: read from disk
    by the process's first map, written back at its end when it made new ones."""

    def __init__(self) -> None:
        self.tables: dict[str, dict[tuple, Any]] = {kind: {} for kind in KINDS}
        # read from disk, by kind, made an image when first used
        self.stored: dict[str, dict[tuple, Any]] = {kind: {} for kind in KINDS}
        self.loaded = self.dirty = False

    @property
    def path(self) -> Path:
        return cache_dir() / f"map-parts-{_version()}.bin"

    def load(self) -> None:
        self.loaded = True
        atexit.register(self.save)
        content = _read(self.path)
        # the file holds a table of each kind, as marshal builds it: no key is hashed twice
        if isinstance(content, dict) and all(isinstance(content.get(k), dict) for k in KINDS):
            self.stored = {kind: content[kind] for kind in KINDS}

    def save(self) -> None:
        """Write what is known (made or read) back, when this process made anything new."""
        if self.dirty:
            self.dirty = False
            content = {kind: dict(self.stored[kind]) for kind in KINDS}
            for kind, table in self.tables.items():
                as_data = KINDS[kind][0]
                kept = content[kind]
                kept.update((key, as_data(made)) for key, made in table.items() if key not in kept)
            _write(self.path, content)

    def remembered(self, kind: str, key: tuple, make: Callable[[], Any], limit: int) -> Any:
        if not self.loaded:
            self.load()
        table = self.tables[kind]
        if key not in table:
            if len(table) >= limit:
                del table[next(iter(table))]
            made = None
            kept = self.stored[kind].get(key)
            if kept is not None:
                with contextlib.suppress(TypeError, ValueError):  # a damaged file: draw again
                    made = KINDS[kind][1](kept)
            if made is None:
                made = make()
                self.dirty = True
            table[key] = made
        return table[key]


STATIC = StaticParts()


class Ground:
    """What every map of one board shows under what changes, drawn once by
    `draw_ground(shapes)`: at output size (`picture`, and `texts` to go on top), and the part
    that is drawn over, the first `drawn_width` pixels from the left (all by default), at
    SUPERSAMPLE times the size (`band`). The rest is flat `background`. A ground drawn
    before, by any process, is read from the disk cache, known by the shapes it draws.

    Both are kept as pixels (`big`, `pixels`), mapped from their cache files: a process's
    first map reads what it uses as it uses it, and copies nothing first. A map draws over
    the big ground a band of BAND rows at a time, each copied into the same small image
    (`band`): an image of the whole part a map covers, four times the picture and of another
    size for every map, would cost its memory's first touch again and again."""

    def __init__(
        self,
        size: tuple[int, int],
        paper: Colour,
        draw_ground: Callable[[Shapes], None],
        drawn_width: int | None = None,
        background: Colour | None = None,
    ):
        shapes = Shapes()
        draw_ground(shapes)
        width, height = size
        self.size, self.drawn_width = size, drawn_width or width
        self.paper, self.background = paper, background or paper
        self.shapes, self.texts = tuple(shapes.shapes), tuple(shapes.texts)
        self.canvas: Image.Image | None = None  # what band copies into
        drawn = repr((size, paper, self.drawn_width, background, shapes.shapes, self.texts))
        name = f"ground-{_version()}-{hashlib.sha256(drawn.encode()).hexdigest()[:16]}"
        self.big_size = (self.drawn_width * SUPERSAMPLE, height * SUPERSAMPLE)
        kept = [
            _mapped(cache_dir() / f"{name}.{part}", s)
            for part, s in (("big", self.big_size), ("image", size))
        ]
        if kept[0] and kept[1]:
            self.big: mmap.mmap | bytes = kept[0]
            self.pixels: mmap.mmap | bytes = kept[1]
            return
        self.big, self.pixels = self._draw()
        _write(cache_dir() / f"{name}.big", self.big, raw=True)
        _write(cache_dir() / f"{name}.image", self.pixels, raw=True)

    def _draw(self) -> tuple[bytes, bytes]:
        """The pixels of the big ground and of the ground at output size, drawn."""
        big = Image.new("RGB", self.big_size, self.paper)
        draw(self.shapes, big, (0, 0))
        image = Image.new("RGB", self.size, self.background)
        image.paste(big.reduce(SUPERSAMPLE), (0, 0))
        return big.tobytes("raw", "RGBX"), image.tobytes("raw", "RGBX")

    def picture(self) -> Image.Image:
        """A new image of the ground at output size, to draw a map on."""
        # not cleared first (as Image.frombytes would): every pixel is filled just below
        image = Image.new("RGB", self.size, None)
        image.frombytes(memoryview(self._whole(self.pixels)), "raw", "RGBX")
        return image

    @cached_property
    def image(self) -> Image.Image:
        """The ground at output size, kept: what a map puts back where it asks for it."""
        return self.picture()

    def band(self, top: int) -> Image.Image:
        """The big ground of the BAND output rows from ``top`` on (within the picture), the
        whole drawn width, in the one image that every band is copied into."""
        row = self.big_size[0] * 4
        size = (self.big_size[0], BAND * SUPERSAMPLE)
        if self.canvas is None:
            self.canvas = Image.new("RGB", size, None)  # not cleared: filled just below
        start = top * SUPERSAMPLE * row
        band = memoryview(self._whole(self.big))[start : start + size[1] * row]
        self.canvas.frombytes(band, "raw", "RGBX")
        return self.canvas

    def _whole(self, pixels: mmap.mmap | bytes) -> mmap.mmap | bytes:
        """``pixels`` (``big`` or ``pixels``), or, where its file was cut short or grown under
        this process (the cache replaces its files whole, by a rename, which a mapping does
        not see), both drawn again: reading past the end of a mapped file would stop the
        process."""
        if isinstance(pixels, mmap.mmap) and pixels.size() != len(pixels):
            was_big = pixels is self.big
            self.big, self.pixels = self._draw()
            return self.big if was_big else self.pixels
        return pixels


def sprite_image(shapes: tuple[Shape, ...], texts: tuple[Shape, ...]) -> Sprite:
    """What one thing draws (see ``draw_sprite``), once per cache."""
    return STATIC.remembered("sprites", (shapes, texts), lambda: draw_sprite(shapes, texts), 1024)


def draw_sprite(shapes: tuple[Shape, ...], texts: tuple[Shape, ...]) -> Sprite:
    """What one thing draws: its shapes drawn on a transparent ground and reduced, its text
    over them (RGBA); and where its top left pixel goes."""
    placed = [
        (placed_text(at, text, size, anchor, grown), colour)
        for at, text, size, fill, anchor, halo in texts
        for colour, grown in ((halo, True), (fill, False))
        if colour is not None
    ]
    boxes = [extent(shapes)] if shapes else []
    boxes += [(x, y, x + mask.width, y + mask.height) for (mask, (x, y)), _ in placed]
    x0, y0 = min(box[0] for box in boxes), min(box[1] for box in boxes)
    x1, y1 = max(box[2] for box in boxes), max(box[3] for box in boxes)
    # drawn opaque on transparent black, so premultiplied already: reduced as such
    image = Image.new("RGBa", ((x1 - x0) * SUPERSAMPLE, (y1 - y0) * SUPERSAMPLE))
    draw(shapes, image, (x0, y0))
    image = image.reduce(SUPERSAMPLE).convert("RGBA")
    for (mask, (x, y)), colour in placed:
        ink = Image.new("RGBA", mask.size, colour)
        ink.putalpha(mask)
        image.alpha_composite(ink, (x - x0, y - y0))
    return image, (x0, y0)


def placed_text(
    at: Point, text: str, size: int, anchor: str, halo: bool = False
) -> tuple[Image.Image, tuple[int, int]]:
    """The coverage mask of `text` as ImageDraw.text draws it at `at` (with `halo`, of its
    letters grown by HALO pixels), and where the mask's top left pixel goes."""
    x, y = math.floor(at[0]), math.floor(at[1])
    mask, (mx, my) = text_mask(text, size, anchor, (at[0] - x, at[1] - y), halo)
    return mask, (x - mx, y - my)


def text_mask(
    text: str, size: int, anchor: str, start: Point, halo: bool
) -> tuple[Image.Image, tuple[int, int]]:
    """``draw_text_mask``, once per cache."""
    return STATIC.remembered(
        "masks",
        (text, size, anchor, start, halo),
        lambda: draw_text_mask(text, size, anchor, start, halo),
        4096,
    )


def draw_text_mask(
    text: str, size: int, anchor: str, start: Point, halo: bool
) -> tuple[Image.Image, tuple[int, int]]:
    """The coverage mask of `text` as ImageDraw.text draws it at a point whose fractional
    part is `start`, and where that point lies in the mask."""
    face = font(size)
    grow = HALO if halo else 0
    left, top, right, bottom = face.getbbox(text, anchor=anchor)
    # a margin for the fractional start and the halo
    x, y = 2 + grow - math.floor(left), 2 + grow - math.floor(top)
    mask = Image.new("L", (x + math.ceil(right) + 3 + grow, y + math.ceil(bottom) + 3 + grow))
    ImageDraw.Draw(mask).text(
        (x + start[0], y + start[1]), text, fill=255, font=face, anchor=anchor, stroke_width=grow
    )
    return mask, (x, y)


class Picture:
    """A map at output size, composed over its ground: shapes drawn over the ground, then
    sprites, then text of its own on top."""

    def __init__(self, ground: Ground):
        self.ground = ground
        self.image = ground.picture()
        self.texts = list(ground.texts)

    def over_ground(self, shapes: Shapes) -> None:
        """Draws `shapes` over the ground as the first thing drawn: at SUPERSAMPLE times the
        size over exactly what lies under them, then reduced; a band of rows at a time,
        each band with the shapes that reach into it. Lines, circles and polygons come out
        as drawn whole (see ``draw``); a rectangle only where no band's edge cuts it."""
        if not shapes.shapes:
            return
        width, height = self.ground.drawn_width, self.image.height
        boxes = [shape_box(shape) for shape in shapes.shapes]
        x0, y0, x1, y1 = union(boxes)
        x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, width), min(y1, height)
        if x0 >= x1 or y0 >= y1:  # all of it off the drawn part
            return
        # the last band ends at the picture's foot, over rows of the band before it: drawn
        # again from the ground with the same shapes, they come out the same
        tops = [min(top, height - BAND) for top in range(y0, y1, BAND)]
        bands: list[list[Shape]] = [[] for _ in tops]
        for shape, (_, top, _, bottom) in zip(shapes.shapes, boxes):
            for i, band_top in enumerate(tops):  # in order: later shapes go over earlier
                if top < band_top + BAND and bottom > band_top:
                    bands[i].append(shape)
        for band_top, band_shapes in zip(tops, bands):
            big = self.ground.band(band_top)
            draw(band_shapes, big, (0, band_top))
            rows = min(BAND, y1 - band_top)
            box = (x0 * SUPERSAMPLE, 0, x1 * SUPERSAMPLE, rows * SUPERSAMPLE)
            self.image.paste(big.reduce(SUPERSAMPLE, box), (x0, band_top))

    def sprite(self, at: Point, paint: Callable[..., None], *args: Any) -> None:
        """Pastes what `paint(shapes, at, *args)` draws, text and all. `at` is moved to the
        nearest 1/SUPERSAMPLE pixel, so that a thing drawn at many places is drawn once
        per process: the sprite is known by what it draws."""
        at = (round(at[0] * SUPERSAMPLE) / SUPERSAMPLE, round(at[1] * SUPERSAMPLE) / SUPERSAMPLE)
        shapes = Shapes((math.floor(at[0]), math.floor(at[1])))
        paint(shapes, at, *args)
        self.layer(sprite_image(tuple(shapes.shapes), tuple(shapes.texts)), shapes.origin)

    def layer(self, sprite: Sprite, origin: tuple[int, int] = (0, 0)) -> None:
        """Pastes a sprite made beforehand (see `sprite_image`) with its origin at `origin`."""
        image, (dx, dy) = sprite
        self.image.paste(image, (origin[0] + dx, origin[1] + dy), image)

    def restore_ground(self, box: tuple[int, int, int, int]) -> None:
        """Puts the ground back in ``box``: right of its drawn part, the flat background."""
        if box[0] >= self.ground.drawn_width:
            self.image.paste(self.ground.background, box)
        else:
            self.image.paste(self.ground.image.crop(box), box[:2])

    def text(self, at: Point, text: str, size: int, fill: Colour, anchor: str) -> None:
        self.texts.append((at, text, size, fill, anchor, None))

    def png(self, palette: Image.Image, compress_level: int) -> bytes:
        """The picture as PNG bytes in `palette` (see `fixed_palette`), compressed by zlib at
        ``compress_level``: each game's map its own, as fast as its mail's weight allows."""
        for at, text, size, fill, anchor, halo in self.texts:
            for colour, grown in ((halo, True), (fill, False)):
                if colour is not None:
                    mask, place = placed_text(at, text, size, anchor, grown)
                    self.image.paste(colour, place, mask)
        out = io.BytesIO()
        # named, not given a format: Pillow then loads its PNG writer alone, not the five
        # it loads for any format named (4 ms of a process's first map)
        out.name = "map.png"
        picture = self.image.quantize(palette=palette, dither=Image.Dither.NONE)
        picture.save(out, compress_level=compress_level)
        return out.getvalue()


def fixed_palette(
    flat_colours: tuple[Colour, ...], text_colours: tuple[Colour, ...]
) -> Image.Image:
    """``make_palette``, once per cache."""
    return STATIC.remembered(
        "palettes",
        (flat_colours, text_colours),
        lambda: make_palette(flat_colours, text_colours),
        8,
    )


def make_palette(flat_colours: tuple[Colour, ...], text_colours: tuple[Colour, ...]) -> Image.Image:
    """At most 256 colours (a third of the bytes of RGB): every flat colour exactly, then
    what lies between them: each pair mixed at a quarter, a half and three quarters (the
    edges of shapes drawn at twice the size), and each text colour over each flat colour in
    eighths (smoothed text), an octree making these fit, without the colours that all but
    repeat a flat one (Pillow's lookup could take them for it). One palette for every map:
    closer to the pictures than an octree of each, and Pillow keeps the palette's colour
    lookups from one map to the next."""
    mixes = [_mix(a, b, t) for a, b in combinations(flat_colours, 2) for t in (0.25, 0.5, 0.75)]
    mixes += [
        _mix(ink, ground, i / 8)
        for ink in text_colours
        for ground in flat_colours
        if ground != ink
        for i in range(1, 8)
    ]
    swatch = Image.new("RGB", (len(mixes), 1))
    swatch.putdata(mixes)
    octree = swatch.quantize(
        256 - len(flat_colours), method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE
    ).getpalette()
    assert octree is not None  # a quantized image always has a palette
    extra = [
        v
        for r, g, b in (octree[i : i + 3] for i in range(0, len(octree), 3))
        if all((r - fr) ** 2 + (g - fg) ** 2 + (b - fb) ** 2 > 12 for fr, fg, fb in flat_colours)
        for v in (r, g, b)
    ]
    return _palette(([v for colour in flat_colours for v in colour] + extra)[:768])


def _mix(a: Sequence[int], b: Sequence[int], t: float) -> tuple[int, ...]:
    return tuple(round(x + (y - x) * t) for x, y in zip(a, b))


# players' marks: the same on every map -----------------------------------------------------

PATTERN_PERIOD = 18  # between the marks of a stroke's pattern


def along(a: Point, b: Point, distance: float) -> Point:
    """The point `distance` pixels from a towards b."""
    length = math.dist(a, b)
    return a[0] + (b[0] - a[0]) * distance / length, a[1] + (b[1] - a[1]) * distance / length


def stroke(
    canvas: Shapes, a: Point, b: Point, style: PlayerStyle, width: float, clear: float
) -> None:
    """A player's stroke from a to b: their colour, with the marks of their pattern placed
    symmetrically about the middle, never on it (the colour always shows there), and none
    within `clear` pixels of either end."""
    canvas.line([a, b], style.colour, width)
    middle = math.dist(a, b) / 2
    for k in range(math.floor((middle - clear) / PATTERN_PERIOD + 0.5)):
        d = (k + 0.5) * PATTERN_PERIOD
        for t in (middle - d, middle + d):
            pattern_mark(canvas, style, k, along(a, b, t), a, b, width)


def pattern_mark(
    canvas: Shapes, style: PlayerStyle, k: int, at: Point, a: Point, b: Point, width: float
) -> None:
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
        for shift in (0,) if pattern == "bars" else (-2.2, 2.2):
            cx, cy = x + ux * shift, y + uy * shift
            canvas.line(
                [(cx - uy * half, cy + ux * half), (cx + uy * half, cy - ux * half)],
                ink,
                1.6 if shift else 2,
            )


def badge(canvas: Shapes, at: Point, style: PlayerStyle, letter_size: int) -> None:
    """A disc in the player's colour with their letter, `letter_size` pixels."""
    canvas.circle(at, badge_radius(letter_size), style.colour, outline=WHITE, width=2)
    canvas.text(at, style.letter, letter_size, style.ink, "mm")


def badge_radius(letter_size: int) -> float:
    return letter_size / 1.5
