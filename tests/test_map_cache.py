"""The static parts of the PNG maps kept on disk between processes: a process that finds
them draws no sprite, text or ground again and makes the same picture; a damaged cache is
drawn again."""

import json
import mmap
from pathlib import Path

import pytest

from referee.bus import BOARD
from referee.bus import png_map as bus_png
from referee.maps import canvas, png_map
from referee.words import render

VIEW = json.loads((Path(__file__).parent / "fixtures" / "bus_view_middle.json").read_text())


def fresh_process(monkeypatch):
    """What a new process starts with: nothing drawn in memory."""
    parts = canvas.StaticParts()
    monkeypatch.setattr(canvas, "STATIC", parts)
    bus_png._ground.cache_clear()
    return parts


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("REFEREE_CACHE_DIR", str(tmp_path / "cache"))
    yield tmp_path / "cache"
    bus_png._ground.cache_clear()


def test_a_new_process_finds_the_static_parts_and_draws_the_same_map(cache, monkeypatch):
    fresh_process(monkeypatch)
    first = png_map(VIEW)
    canvas.STATIC.save()  # as the process's end does
    assert sorted(p.suffix for p in cache.iterdir()) == [".big", ".bin", ".image"]
    fresh_process(monkeypatch)

    def no_drawing(*args):
        raise AssertionError("drawn again")

    monkeypatch.setattr(canvas, "draw_sprite", no_drawing)
    monkeypatch.setattr(canvas, "draw_text_mask", no_drawing)
    drawn_on = []
    draw = canvas.draw
    monkeypatch.setattr(
        canvas, "draw", lambda s, image, o: drawn_on.append(image.size) or draw(s, image, o)
    )
    assert png_map(VIEW) == first
    ground = (bus_png.WIDTH * canvas.SUPERSAMPLE, bus_png.HEIGHT * canvas.SUPERSAMPLE)
    assert ground not in drawn_on  # the ground was read, not drawn


def test_a_damaged_cache_is_drawn_again(cache, monkeypatch):
    fresh_process(monkeypatch)
    first = png_map(VIEW)
    canvas.STATIC.save()
    for path in cache.iterdir():
        path.write_bytes(path.read_bytes()[: len(path.read_bytes()) // 2])
    parts = fresh_process(monkeypatch)
    assert png_map(VIEW) == first
    assert parts.dirty  # drawn again, to be written back whole


def test_parts_whose_pixels_are_damaged_are_drawn_again(cache, monkeypatch):
    """A parts file that reads whole but holds wrong pixels (too few for a sprite's size,
    not an image at all) costs drawing those parts again, not the map."""
    import marshal

    fresh_process(monkeypatch)
    first = png_map(VIEW)
    canvas.STATIC.save()
    (parts_file,) = cache.glob("map-parts-*.bin")
    content = marshal.loads(parts_file.read_bytes())
    for kind in ("sprites", "masks"):
        for n, key in enumerate(content[kind]):
            (mode, size, raw), origin = content[kind][key]
            content[kind][key] = ((mode, size, raw[:3]), origin) if n % 2 else "not an image"
    parts_file.write_bytes(marshal.dumps(content))
    parts = fresh_process(monkeypatch)
    assert png_map(VIEW) == first
    assert parts.dirty


def test_the_cache_files_are_named_by_the_drawing_codes_version(cache, monkeypatch):
    fresh_process(monkeypatch)
    png_map(VIEW)
    canvas.STATIC.save()
    assert all(canvas._version() in p.name for p in cache.iterdir())


def test_a_ground_file_cut_short_under_a_running_process_is_drawn_again(cache, monkeypatch):
    """The big ground is mapped from its cache file, not read: a file cut short in place
    (the cache itself only ever replaces files whole) would stop the process at the first
    read past its end, so a map finds the ground drawn again instead."""
    fresh_process(monkeypatch)
    first = png_map(VIEW)
    fresh_process(monkeypatch)
    assert png_map(VIEW) == first  # from the mapped file
    ground = bus_png._ground(BOARD)
    assert isinstance(ground.big, mmap.mmap)
    (big,) = cache.glob("*.big")
    with big.open("r+b") as f:
        f.truncate(big.stat().st_size // 2)
    assert png_map(VIEW) == first
    assert isinstance(ground.big, bytes)


def test_templates_are_compiled_once_and_a_damaged_one_is_compiled_again(cache, monkeypatch):
    """Compiling the templates a tick uses cost each tick's process about 100 ms: they are
    kept compiled in the cache, and a process finds them there."""
    import jinja2

    def fresh_env() -> jinja2.Environment:
        # no templates kept in memory: each get_template is a new process's first
        return render.ENV.overlay(bytecode_cache=render.CompiledTemplates(), cache_size=0)

    first = fresh_env().get_template("welcome.txt")
    (kept,) = (cache / "templates-i18n").iterdir()
    compiled = []
    compile_ = jinja2.Environment.compile
    monkeypatch.setattr(
        jinja2.Environment, "compile", lambda *a, **k: compiled.append(1) or compile_(*a, **k)
    )
    again = fresh_env().get_template("welcome.txt")
    assert compiled == []
    assert again.root_render_func.__code__.co_code == first.root_render_func.__code__.co_code
    kept.write_bytes(kept.read_bytes()[:40])  # cut short: compiled again, not an error
    fresh_env().get_template("welcome.txt")
    assert compiled == [1]


def test_the_cache_lives_where_the_environment_says_and_somewhere_without_a_home(
    tmp_path, monkeypatch
):
    from pathlib import Path

    from referee.cache import cache_dir

    monkeypatch.setenv("REFEREE_CACHE_DIR", str(tmp_path / "mine"))
    assert cache_dir() == tmp_path / "mine"
    monkeypatch.delenv("REFEREE_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache_dir() == tmp_path / "xdg" / "referee"
    monkeypatch.delenv("XDG_CACHE_HOME")

    def no_home() -> Path:
        raise RuntimeError("Could not determine home directory.")

    monkeypatch.setattr(Path, "home", staticmethod(no_home))
    assert cache_dir().name.startswith("referee-cache-")  # a cron job with no home still runs


def test_a_cache_that_cannot_be_written_only_costs_time(tmp_path, monkeypatch):
    """A file where the cache folder should be: maps and templates are made as if for the
    first time, every time, and nothing fails."""

    blocked = tmp_path / "not-a-folder"
    blocked.write_text("a file, not a folder")
    monkeypatch.setenv("REFEREE_CACHE_DIR", str(blocked))
    fresh_process(monkeypatch)
    first = png_map(VIEW)
    fresh_process(monkeypatch)
    assert png_map(VIEW) == first
    env = render.ENV.overlay(bytecode_cache=render.CompiledTemplates(), cache_size=0)
    assert env.get_template("welcome.txt").name == "welcome.txt"
    assert blocked.read_text() == "a file, not a folder"
