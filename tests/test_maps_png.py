"""The PNG map: its size, its bytes, and the right colours where the renderer says it drew
each player's line, side by side where lines share a street."""

import hashlib
import io
import math
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from map_views import POSITIONS, bot_views, stored, with_lines
from PIL import Image

from referee.bus import png_map as png
from referee.bus.board import BOARD
from referee.bus.png_map import HEIGHT, WIDTH, head_centres, png_map, stroke_centre
from referee.bus.scene import STYLES, build_scene
from referee.maps import canvas


def pixels(view) -> Image.Image:
    return Image.open(io.BytesIO(png_map(view, BOARD))).convert("RGB")


@pytest.mark.parametrize("name", POSITIONS)
def test_png_has_the_size_and_stays_under_100_kb_in_palette_mode(name):
    data = png_map(stored(name), BOARD)
    image = Image.open(io.BytesIO(data))
    assert data.startswith(b"\x89PNG") and image.format == "PNG"
    assert image.size == (WIDTH, HEIGHT) and WIDTH <= 1200  # drawn for a phone (issue 36)
    assert image.mode == "P"
    assert len(data) < 100 * 1024


def test_the_same_view_gives_the_same_bytes_in_any_process():
    view = stored("middle")
    data = png_map(view, BOARD)
    assert data == png_map(stored("middle"), BOARD)
    # another interpreter with other string hashing draws the very same bytes
    script = (
        "import hashlib, json, sys; sys.path.insert(0, 'tests')\n"
        "from map_views import stored\n"
        "from referee.bus.png_map import png_map\n"
        "from referee.bus.board import BOARD\n"
        "print(hashlib.sha256(png_map(stored('middle'), BOARD)).hexdigest())"
    )
    root = Path(__file__).resolve().parents[1]
    other = subprocess.run(
        [sys.executable, "-c", script],
        cwd=root,
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONHASHSEED": "7"},
    )
    assert other.stdout.strip() == hashlib.sha256(data).hexdigest()


@pytest.mark.parametrize("name", POSITIONS)
def test_every_line_has_its_colour_on_every_street_it_uses(name):
    view = stored(name)
    image = pixels(view)
    scene = build_scene(view, BOARD)
    for street, seats in scene.street_lines.items():
        for seat in seats:
            assert (
                image.getpixel(stroke_centre(view, BOARD, street, seat)) == STYLES[seat].colour
            ), (street, seat)


def test_lines_sharing_a_street_run_side_by_side():
    # the middle position has four lines on 21-22 (Ann, Bob, Dot, Eve) and two on 15-16
    view = stored("middle")
    image = pixels(view)
    scene = build_scene(view, BOARD)
    assert scene.street_lines[(21, 22)] == (0, 1, 3, 4)
    assert scene.street_lines[(14, 15)] == (3,)
    centres = [stroke_centre(view, BOARD, (21, 22), seat) for seat in (0, 1, 3, 4)]
    assert [image.getpixel(c) for c in centres] == [STYLES[s].colour for s in (0, 1, 3, 4)]
    # in seat order, each one stroke pitch from the last, straight across the street
    a, b = png.crossing_centre(BOARD, 21), png.crossing_centre(BOARD, 22)
    along = ((b[0] - a[0]) / math.dist(a, b), (b[1] - a[1]) / math.dist(a, b))
    for p, q in zip(centres, centres[1:]):
        step = (q[0] - p[0], q[1] - p[1])
        assert math.hypot(*step) == pytest.approx(png.STROKE_PITCH, abs=1.5)
        assert abs(step[0] * along[0] + step[1] * along[1]) <= 1.5


def test_two_players_alone_on_a_street_each_keep_their_colour():
    # Ann and Cid made to share 25-26, a street nobody uses in the start position
    view = with_lines(stored("start"), {0: ("19-25-26", [19, 26]), 2: ("32-26-25", [32, 25])})
    image = pixels(view)
    ann, cid = (stroke_centre(view, BOARD, (25, 26), seat) for seat in (0, 2))
    assert image.getpixel(ann) == STYLES[0].colour
    assert image.getpixel(cid) == STYLES[2].colour
    assert math.dist(ann, cid) == pytest.approx(png.STROKE_PITCH, abs=1)


def test_a_street_without_a_line_is_plain_road():
    view = stored("start")
    image = pixels(view)
    a, b = png.crossing_centre(BOARD, 25), png.crossing_centre(BOARD, 26)
    assert image.getpixel((round((a[0] + b[0]) / 2), round((a[1] + b[1]) / 2))) == png.ROAD


def test_heads_are_marked_in_the_player_colour_and_a_circle_has_two_marks_at_one_crossing():
    view = stored("middle")
    image = pixels(view)
    # Dot (seat 3) closed a circle at 22 (B7): two marks, both beside crossing 22
    marks = head_centres(view, BOARD, 3)
    centre = png.crossing_centre(BOARD, 22)
    assert len(marks) == 2 and marks[0] != marks[1]
    for mark in marks:
        assert math.dist(mark, centre) < 35
        # the letter sits in the middle of the disc; its rim is the colour
        assert image.getpixel((mark[0], mark[1] - png.BADGE_RADIUS + 3)) == STYLES[3].colour
    # Ann's heads at 5 and 16
    ann = head_centres(view, BOARD, 0)
    assert [
        min(BOARD.crossings, key=lambda c: math.dist(png.crossing_centre(BOARD, c), m)) for m in ann
    ] == [5, 16]


def test_no_heads_before_the_first_line_marker():
    view = stored("start")
    view["players"][1].update(streets=[], heads=[])
    assert head_centres(view, BOARD, 1) == []
    assert pixels(view).size == (WIDTH, HEIGHT)


def test_setup_positions_draw_before_and_after_the_first_line_markers():
    views = list(bot_views(3, seed=5))
    empty = views[0]
    first_lines = next(v for v in views if all(len(p["streets"]) == 1 for p in v["players"]))
    assert all(not p["streets"] for p in empty["players"]) and empty["phase"] == "setup"
    assert pixels(empty).size == (WIDTH, HEIGHT)
    image = pixels(first_lines)
    for player in first_lines["players"]:
        street = tuple(player["streets"][0])
        centre = stroke_centre(first_lines, BOARD, street, player["seat"])
        assert image.getpixel(centre) == STYLES[player["seat"]].colour
        assert len(head_centres(first_lines, BOARD, player["seat"])) == 2


def test_a_map_does_not_depend_on_the_maps_drawn_before_it_in_the_process(tmp_path, monkeypatch):
    # the renderer keeps its ground, sprites, text masks and palette from map to map
    # (bench/maps_bench.py); the first map of a fresh process with an empty disk cache is
    # the reference
    monkeypatch.setenv("REFEREE_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(canvas, "STATIC", canvas.StaticParts())
    for cache in (png._ground, canvas.font):
        cache.cache_clear()
    first = png_map(stored("middle"), BOARD)
    for name in ("end", "start", "middle", "end"):
        png_map(stored(name), BOARD)
    assert png_map(stored("middle"), BOARD) == first


coordinate = st.floats(min_value=-30, max_value=330, allow_nan=False).map(lambda v: round(v, 1))
point = st.tuples(coordinate, coordinate)
colour = st.sampled_from([(200, 30, 30), (30, 120, 200), (20, 20, 20)])
shape = st.one_of(
    st.builds(
        lambda a, b, c, w: ("line", (a, b), c, w),
        point,
        point,
        colour,
        st.sampled_from([1.6, 2, 6, 7]),
    ),
    st.builds(
        lambda at, r, c: ("circle", at, r, c, None, 1),
        point,
        st.floats(min_value=0.5, max_value=40).map(lambda v: round(v, 1)),
        colour,
    ),
    st.builds(
        lambda ps, c: ("polygon", tuple(ps), c, None, 1),
        st.lists(point, min_size=3, max_size=6),
        colour,
    ),
)


@settings(max_examples=150, deadline=None)
@given(shapes=st.lists(shape, min_size=1, max_size=12))
# a band from row 64 cuts the circle: 38.3 - 28.8 - 64 is rounded to -54.5 as a float
@example(
    shapes=[
        ("line", ((0.0, 0.0), (0.0, 0.0)), (200, 30, 30), 1.6),
        ("circle", (0.0, 38.3), 28.8, (200, 30, 30), None, 1),
    ]
)
def test_shapes_drawn_over_the_ground_band_by_band_are_drawn_as_on_one_canvas(shapes):
    """A map draws over its ground a band of rows at a time; a shape that reaches across a
    band's edge, or off the picture, comes out pixel for pixel as drawn whole."""
    ground = canvas.Ground((300, 300), (250, 248, 242), band_test_ground)
    assert canvas.BAND < 300  # (the picture is drawn in several bands)
    picture = canvas.Picture(ground)
    drawn = canvas.Shapes()
    drawn.shapes = list(shapes)
    picture.over_ground(drawn)

    whole = Image.frombytes("RGB", ground.big_size, bytes(ground.big), "raw", "RGBX")
    canvas.draw(shapes, whole, (0, 0))
    expected = ground.picture()
    expected.paste(whole.reduce(canvas.SUPERSAMPLE), (0, 0))
    assert picture.image.tobytes() == expected.tobytes()


def band_test_ground(shapes: canvas.Shapes) -> None:
    shapes.line([(0, 150), (300, 160)], (214, 210, 200), 9)
