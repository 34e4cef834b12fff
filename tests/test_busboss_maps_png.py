"""The Bus Boss PNG map: its size, its bytes, each copy of each route in its owner's colour
(side by side on a doubled route), and keys and lengths that cover neither each other nor the
middles of routes."""

import hashlib
import io
import math
import os
import subprocess
import sys
from pathlib import Path

import pytest
from busboss_map_views import POSITIONS, bot_views, stored
from PIL import Image

from referee import maps
from referee.busboss import player_colour
from referee.busboss import png_map as png
from referee.busboss.engine import RULES
from referee.busboss.map import load_map
from referee.busboss.orders import COLOURS
from referee.busboss.png_map import HEIGHT, WIDTH, copy_centre, png_map
from referee.busboss.scene import BANK_STYLE, build_scene, view_map
from referee.maps import canvas
from referee.maps.styles import COLOUR_STYLES


def pixels(view) -> Image.Image:
    return Image.open(io.BytesIO(png_map(view, view_map(view)))).convert("RGB")


@pytest.mark.parametrize("name", POSITIONS)
def test_png_has_the_size_and_stays_under_80_kb_in_palette_mode(name):
    data = png_map(stored(name), view_map(stored(name)))
    image = Image.open(io.BytesIO(data))
    assert data.startswith(b"\x89PNG") and image.format == "PNG"
    assert image.size == (WIDTH, HEIGHT) and WIDTH <= 1200  # drawn for a phone (issue 36)
    assert image.mode == "P"
    assert len(data) < 80 * 1024


def test_the_same_view_gives_the_same_bytes_in_any_process():
    view = stored("middle")
    data = maps.png_map(view)
    assert data == png_map(stored("middle"), view_map(view))
    # another interpreter with other string hashing draws the very same bytes
    script = (
        "import hashlib, sys; sys.path.insert(0, 'tests')\n"
        "from busboss_map_views import stored\n"
        "from referee.maps import png_map\n"
        "print(hashlib.sha256(png_map(stored('middle'))).hexdigest())"
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


def assert_every_copy_shows_who_owns_it(view):
    """The middle of each copy of each route: its owner's colour (the bank's grey after
    rule 40), or the plain road when free."""
    image, m = pixels(view), view_map(view)
    for route in build_scene(view).routes.values():
        for copy in range(route.copies):
            owner = route.owners[copy].colour if copy < len(route.owners) else png.ROAD
            assert image.getpixel(copy_centre(m, route.name, copy)) == owner, (route.name, copy)


@pytest.mark.parametrize("name", POSITIONS)
def test_the_middle_of_every_copy_of_every_route_shows_who_owns_it(name):
    assert_every_copy_shows_who_owns_it(stored(name))


def test_every_round_of_a_six_player_game_with_a_dropped_player_shows_the_owners():
    views = list(bot_views(6, seed=3, absent=2, away_from=4))
    assert views[-1]["bank_routes"] and views[-1]["result"]
    for view in views[:: len(views) // 12]:
        assert_every_copy_shows_who_owns_it(view)


def test_a_doubled_route_bought_twice_shows_both_owners_side_by_side():
    view = stored("middle")
    image, m = pixels(view), view_map(view)
    owners = {r["name"]: r["owners"] for r in view["routes"]}
    for name, (first, second) in (
        ("bradford-leeds", ("yellow", "red")),
        ("leeds-york", ("red", "bank")),
    ):
        assert owners[name] == [first, second]
        a, b = copy_centre(m, name, 0), copy_centre(m, name, 1)
        colours = [
            COLOUR_STYLES[o].colour if o != "bank" else BANK_STYLE.colour for o in (first, second)
        ]
        assert [image.getpixel(a), image.getpixel(b)] == colours
        # one route pitch apart, straight across the route
        ends = [png.place_centre(m, p) for p in name.split("-")]
        along = (
            (ends[1][0] - ends[0][0]) / math.dist(*ends),
            (ends[1][1] - ends[0][1]) / math.dist(*ends),
        )
        step = (b[0] - a[0], b[1] - a[1])
        assert math.hypot(*step) == pytest.approx(png.ROUTE_PITCH, abs=1.5)
        assert abs(step[0] * along[0] + step[1] * along[1]) <= 1.5


def test_the_bank_s_routes_are_grey_dashes():
    view = stored("middle")
    image, m = pixels(view), view_map(view)
    assert "huddersfield-rochdale" in view["bank_routes"]
    a, b = png.copy_segment(m, "huddersfield-rochdale", 0)
    samples = [
        image.getpixel((round(a[0] + (b[0] - a[0]) * t / 40), round(a[1] + (b[1] - a[1]) * t / 40)))
        for t in range(12, 29)
    ]
    # grey dashes, with the free road showing in the gaps, and only their blends between
    assert BANK_STYLE.colour in samples and png.ROAD in samples
    for sample in samples:
        assert all(
            min(g, r) <= v <= max(g, r) for v, g, r in zip(sample, BANK_STYLE.colour, png.ROAD)
        ), sample


@pytest.mark.parametrize("name", ["yorkshire", "example"])
def test_keys_and_lengths_cover_neither_each_other_nor_a_route_s_middle(name):
    m = load_map(name, None)
    layout = png._layout(m)
    boxes = [label.box for label in layout.labels.values()]
    boxes += [png.length_box(m, route, at) for route, at in layout.lengths.items()]
    towns = [key for key, place in m.places.items() if not place.junction]
    assert sorted(layout.labels) == sorted(towns) and len(layout.lengths) == len(m.routes)
    middles = [copy_centre(m, r.name, c) for r in m.routes for c in range(r.copies)]
    for i, box in enumerate(boxes):
        assert png.MAP_BOX[0] <= box[0] and box[2] <= png.MAP_BOX[2]
        assert png.MAP_BOX[1] <= box[1] and box[3] <= png.MAP_BOX[3]
        assert all(png._overlap(box, other) == 0 for other in boxes[i + 1 :]), box
        # with the halo round its letters, a pixel more than the box
        assert not any(png._circle_hits(box, middle, canvas.HALO + 2) for middle in middles), box
    for key, label in layout.labels.items():
        x0, y0, x1, y1 = label.box
        cx, cy = png.place_centre(m, key)
        nearest = (min(max(cx, x0), x1), min(max(cy, y0), y1))
        assert math.dist((cx, cy), nearest) <= png.marker_radius(m, key) + png.RINGS[-1] + 1
    for route, (x, y) in layout.lengths.items():
        assert math.dist((x, y), copy_centre(m, route, 0)) < 80


def test_a_game_master_s_own_map_is_drawn_too(tmp_path):
    # four towns of 13 cards each round a town without cards (K9); short keys get numbered
    # abbreviations
    suits = {"north": "S", "east": "H", "south": "D", "west": "C"}
    ranks = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
    where = {"north": [50, 0], "east": [100, 50], "south": [50, 100], "west": [0, 50]}
    lines = ["name: The Square", "destinations:"]
    for town, suit in suits.items():
        key = town[0] + "1" if town == "north" else town
        cards = ", ".join(r + suit for r in ranks)
        lines.append(f"  {town.title()}: {{cards: [{cards}], places: {{{key}: {where[town]}}}}}")
    lines += [
        "towns:",
        "  hub: {name: The Hub, pos: [50, 50]}",
        "routes:",
        "  - n1-hub 4 twice",
        "  - east-hub 5",
        "  - south-hub 6",
        "  - west-hub 3",
        "  - n1-east 9",
    ]
    path = tmp_path / "square.yaml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    view = RULES.view(RULES.new_game({"map": str(path)}, ["Ann", "Bob", "Cat"], 1))
    text = maps.text_map(view)
    assert "N00 n1 (North) AS 2S" in text and "hub hub (The Hub)" in text
    image = Image.open(io.BytesIO(maps.png_map(view)))
    assert image.size == (WIDTH, HEIGHT)
    assert image.convert("RGB").getpixel(copy_centre(view_map(view), "hub-n1", 1)) == png.ROAD


def test_a_map_does_not_depend_on_the_maps_drawn_before_it_in_the_process(tmp_path, monkeypatch):
    # the renderer keeps the map's places, the ground's pixels, sprites, text masks and palette
    # from map to map (bench/maps_bench.py); a fresh start with an empty disk cache is the
    # reference
    monkeypatch.setenv("REFEREE_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(canvas, "STATIC", canvas.StaticParts())
    for cache in (png._places, canvas.font):
        cache.cache_clear()
    first = maps.png_map(stored("middle"))
    for name in ("end", "start", "middle", "end"):
        maps.png_map(stored(name))
    assert maps.png_map(stored("middle")) == first


def test_every_bus_boss_colour_has_its_own_style_on_the_maps_and_the_chart():
    styles = [COLOUR_STYLES[colour] for colour in COLOURS]
    for part in ("letter", "colour", "pattern"):
        assert len({getattr(style, part) for style in styles}) == len(COLOURS), part
    assert BANK_STYLE.letter not in {style.letter for style in styles}
    # the score chart of the archive draws each player in the same colour (seat 3: yellow)
    assert player_colour({"seat": 3, "colour": "yellow"}) == "#f0e442"


def test_a_bus_boss_map_is_saved_at_a_cheaper_zlib_level_than_the_best():
    """Level 9 cost about 70% of a map's drawing for a few KB; the map is now saved at the
    cheapest level whose whole game's largest mail stays within 150 KB (test_mail_weight.py).
    zlib's header in the PNG's first IDAT chunk tells the level band it was made at."""
    import json
    import struct
    from pathlib import Path

    from referee import maps

    view = json.loads(
        (Path(__file__).parent / "fixtures" / "busboss_view_end.json").read_text("utf-8")
    )
    png = maps.png_map(view)
    assert png is not None
    at = png.index(b"IDAT")
    (length,) = struct.unpack(">I", png[at - 4 : at])
    flags = png[at + 5]  # FLG, after CMF
    level_band = flags >> 6  # 0 fastest, 1 fast, 2 default (6), 3 best (7 to 9)
    assert level_band < 3 and length > 0
