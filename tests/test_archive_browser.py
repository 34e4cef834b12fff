"""The archive in a real browser: headless Chromium opens the pages from the file system,
reports no console error, no exception and no failed load, and its screenshots show the
score chart in the players' colours and the map as drawn."""

import io

import pytest
from browser import browser_or_skip
from PIL import Image, ImageChops, ImageStat
from played import played_site

from referee.service.archive import write_archive
from referee.words.chart import score_chart
from referee.words.history import turns

pytestmark = pytest.mark.slow  # a browser

# The boxes of the chart and the map on the page, and whether every image loaded.
LAYOUT = """(() => {
  const box = e => { if (!e) return null; const b = e.getBoundingClientRect();
    return {x: b.x + scrollX, y: b.y + scrollY, w: b.width, h: b.height}; };
  return {chart: box(document.querySelector("figure.chart svg")),
          map: box(document.querySelector("p.map img")),
          images: Array.from(document.images).map(i => i.complete && i.naturalWidth > 0)};
})()"""


@pytest.fixture(scope="module")
def browser():
    with browser_or_skip(width=1200, height=900) as chromium:
        yield chromium


def colour_pixels(image: Image.Image, colour: str, tolerance: int = 24) -> int:
    """How many pixels of ``image`` are within ``tolerance`` of ``colour`` (#rrggbb)."""
    want = tuple(int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return sum(
        count
        for count, pixel in image.getcolors(image.width * image.height)
        if all(abs(a - b) <= tolerance for a, b in zip(pixel, want))
    )


def crop(shot: Image.Image, box: dict) -> Image.Image:
    return shot.crop(
        (round(box["x"]), round(box["y"]), round(box["x"] + box["w"]), round(box["y"] + box["h"]))
    )


def test_the_reader_of_the_browser_sees_console_errors_exceptions_and_failed_loads(
    browser, tmp_path
):
    """The instrument itself: a page with each kind of fault, and one without."""
    bad = tmp_path / "bad.html"
    bad.write_text(
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>bad'
        '</title></head><body><img src="missing.png" alt="">'
        '<script>console.error("broken"); undefinedFunction();</script>'
        "</body></html>"
    )
    errors = browser.load(bad.as_uri()).errors
    assert "console.error: broken" in errors
    assert any(e.startswith("exception: Uncaught") for e in errors)
    assert any("ERR_FILE_NOT_FOUND" in e and "missing.png" in e for e in errors)
    good = tmp_path / "good.html"
    good.write_text(
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
        '<link rel="icon" href="data:,"><title>good</title></head>'
        '<body><p>fine</p><script>console.log("a note")</script></body></html>'
    )
    assert browser.load(good.as_uri()).errors == []


def test_the_archive_opens_cleanly_and_shows_the_chart_and_the_map(browser, tmp_path):
    site = played_site(tmp_path / "site")
    table = site.campaign("game").table()
    out = tmp_path / "archive"
    write_archive(table, out)
    played = turns(table)
    colours = [line.colour for line in score_chart(played, table.campaign.names()).lines]
    last = played[-1]
    for name in ("index.html", f"{last.stem}.html", "players.html", "round-00.html"):
        page = browser.load((out / name).as_uri(), script=LAYOUT)
        assert page.errors == [], (name, page.errors)
        assert all(page.facts["images"]), name
        shot = Image.open(io.BytesIO(page.screenshot)).convert("RGB")
        shot.save(tmp_path / f"{name}.png")
        assert shot.width == 1200 and shot.height > 600
        if name == "players.html":
            assert page.facts["chart"] is None
            continue
        chart = crop(shot, page.facts["chart"])
        assert chart.width > 600 and chart.height > 200
        for colour in colours:
            assert colour_pixels(chart, colour) > 150, (name, colour)
        if name == "index.html":
            assert page.facts["map"] is None
            continue
        # the map on the page is the PNG the referee drew, scaled to fit
        box = page.facts["map"]
        shown = crop(shot, box)
        stem = name.removesuffix(".html")
        drawn = Image.open(out / f"{stem}.png").convert("RGB").resize(shown.size, Image.LANCZOS)
        assert shown.width > 900
        assert max(ImageStat.Stat(ImageChops.difference(shown, drawn)).mean) < 8, name
        for colour in colours[:2] if stem == "round-00" else colours:
            assert colour_pixels(shown, colour) > 50, (name, colour)
