"""How long the maps of a Bus position take: the median of many renders of each fixture.

    python3 bench/maps_bench.py [repeats]

Goal: a PNG map under 25 ms (median; 62-72 ms before the PNG renderer kept its ground,
sprites, text masks and palette from one map to the next). Prints per position the first
time (for the first position the process's first map: ground, fonts and palette not yet
made; for the others, the sprites and text masks this position adds) and the median time
of the PNG and of the text map, and the PNG's size.
"""
from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from referee.maps.png import png_map  # noqa: E402
from referee.maps.text import text_map  # noqa: E402
from referee.rules.bus.board import BOARD  # noqa: E402


def timed(render, view, repeats: int) -> tuple[float, float, object]:
    """(first, median) in milliseconds, and the last result."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        result = render(view, BOARD)
        times.append((time.perf_counter() - start) * 1000)
    return times[0], statistics.median(times), result


def main() -> None:
    repeats = int(sys.argv[1]) if len(sys.argv) > 1 else 21
    print(f"{'position':<10}{'png first':>10}{'png median':>11}{'png size':>10}"
          f"{'text median':>12}  (ms, KB; {repeats} renders each)")
    for path in sorted((ROOT / "tests" / "fixtures").glob("bus_view_*.json")):
        view = json.loads(path.read_text(encoding="utf-8"))
        png_first, png_median, png = timed(png_map, view, repeats)
        _, text_median, _ = timed(text_map, view, repeats)
        name = path.stem.removeprefix("bus_view_")
        print(f"{name:<10}{png_first:>10.1f}{png_median:>11.1f}{len(png) / 1024:>10.1f}"
              f"{text_median:>12.2f}")


if __name__ == "__main__":
    main()
