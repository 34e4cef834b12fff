"""The PNG maps are drawn for a phone (issue 36): at most 1200 pixels wide, and every text on
them (crossing numbers, zone letters, players' letters, place keys, lengths) at least 8 CSS
pixels when the picture is shown 390 CSS pixels wide, as a phone held upright shows it.

The drawing code states its image width and its font sizes; these tests hold it to them: the
sizes it states, the sizes it draws in, and the letters as they come out in the picture."""

from __future__ import annotations

import io

import pytest
from busboss_map_views import stored as busboss_stored
from map_views import stored as bus_stored
from PIL import Image

from referee import maps
from referee.bus import png_map as bus_png
from referee.bus.board import BOARD
from referee.bus.scene import STYLES
from referee.busboss import png_map as busboss_png
from referee.busboss.scene import view_map
from referee.maps import canvas
from referee.maps.styles import INK

PHONE, SMALLEST = 390, 8  # CSS pixels: the width a phone shows the picture at; the least text
# A figure or a capital letter of a sans-serif face is about 0.7 of its size (Aileron, the
# maps' face, 0.70; Helvetica 0.72; Arial 0.72): text of 8 CSS pixels has figures 5.3 CSS
# pixels tall or more
FIGURE_HEIGHT = 0.66

GAMES = {
    "bus": (bus_png, lambda: bus_stored("middle")),
    "busboss": (busboss_png, lambda: busboss_stored("middle")),
}


def css(pixels: float, module) -> float:
    """`pixels` of the picture in CSS pixels, the picture shown PHONE wide."""
    return pixels * PHONE / module.WIDTH


@pytest.mark.parametrize("game", GAMES)
def test_the_stated_sizes_keep_every_text_8_css_pixels_on_a_phone(game):
    module, _ = GAMES[game]
    assert module.WIDTH <= 1200
    assert canvas.smallest_text(module.WIDTH) == min(module.TEXT_SIZES)
    for size in module.TEXT_SIZES:
        assert css(size, module) >= SMALLEST, size


@pytest.mark.parametrize("game", GAMES)
def test_every_text_a_map_draws_is_in_a_stated_size(game, monkeypatch):
    module, view = GAMES[game]
    drawn: list[tuple[str, int]] = []
    shapes_text, picture_text = canvas.Shapes.text, canvas.Picture.text

    def spied(original):
        def text(self, at, text, size, *args, **kwargs):
            drawn.append((text, size))
            return original(self, at, text, size, *args, **kwargs)

        return text

    monkeypatch.setattr(canvas.Shapes, "text", spied(shapes_text))
    monkeypatch.setattr(canvas.Picture, "text", spied(picture_text))
    for kept in (getattr(module, "_ground", None), getattr(module, "_places", None)):
        if hasattr(kept, "cache_clear"):
            kept.cache_clear()  # drawn anew, its texts with it
    image = Image.open(io.BytesIO(maps.png_map(view())))
    assert image.width == module.WIDTH
    assert drawn, "the map draws text"
    assert {size for _, size in drawn} <= set(module.TEXT_SIZES), drawn
    for kept in (getattr(module, "_ground", None), getattr(module, "_places", None)):
        if hasattr(kept, "cache_clear"):
            kept.cache_clear()  # not kept with the spy's texts


def ink_height(image: Image.Image, centre: tuple[int, int], half: int, is_ink) -> int:
    """How many rows of the disc of radius `half` about `centre` hold a pixel of ink (a disc:
    the ring round a crossing's number stays out)."""
    x0, y0 = centre
    rows = [
        dy
        for dy in range(-half, half + 1)
        if any(
            is_ink(image.getpixel((x0 + dx, y0 + dy)))
            for dx in range(-half, half + 1)
            if dx * dx + dy * dy <= half * half
        )
    ]
    return rows[-1] - rows[0] + 1 if rows else 0


def dark(pixel) -> bool:
    return sum(pixel) < 3 * 110


def light(pixel) -> bool:
    return sum(pixel) > 3 * 190


def test_bus_crossing_numbers_and_players_letters_come_out_8_css_pixels_tall():
    view = bus_stored("middle")
    image = Image.open(io.BytesIO(maps.png_map(view))).convert("RGB")
    least = SMALLEST * FIGURE_HEIGHT
    for label, crossing in BOARD.crossings.items():
        x, y = (round(v) for v in bus_png.crossing_centre(BOARD, label))
        half = (bus_png.STATION_HALF if crossing.station else bus_png.NODE_RADIUS) - 4
        height = ink_height(image, (x, y), half, light if crossing.station else dark)
        assert css(height, bus_png) >= least, (label, height)
    for player in view["players"]:
        style = STYLES[player["seat"]]
        for x, y in bus_png.head_centres(view, BOARD, player["seat"]):
            half = round(bus_png.BADGE_RADIUS) - 4
            letter = light if style.ink != INK else dark
            height = ink_height(image, (x, y), half, letter)
            assert css(height, bus_png) >= least, (style.letter, height)


def test_bus_boss_town_keys_and_lengths_come_out_8_css_pixels_tall():
    view = busboss_stored("middle")
    m = view_map(view)
    image = Image.open(io.BytesIO(maps.png_map(view))).convert("RGB")
    layout = busboss_png._layout(m)
    least = SMALLEST * FIGURE_HEIGHT

    def ink(pixel) -> bool:  # the keys' ink, darker than any route or owner's colour
        return max(pixel) < 70

    def muted(pixel) -> bool:  # lengths: grey figures on the paper and their halo
        return max(pixel) < 150 and max(pixel) - min(pixel) < 20

    capitals = [key for key in layout.labels if m.places[key].destination]
    assert capitals
    for key in capitals:
        height = rows_of(image, layout.labels[key].box, ink)
        assert css(height, busboss_png) >= least, (key, height)
    for route, at in layout.lengths.items():
        height = rows_of(image, busboss_png.length_box(m, route, at), muted)
        assert css(height, busboss_png) >= least, (route, height)


def rows_of(image: Image.Image, box, is_ink) -> int:
    """How many rows of the box hold a pixel of ink, from the first to the last."""
    x0, y0, x1, y1 = (round(v) for v in box)
    rows = [y for y in range(y0, y1) if any(is_ink(image.getpixel((x, y))) for x in range(x0, x1))]
    return rows[-1] - rows[0] + 1 if rows else 0
