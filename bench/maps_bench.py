"""How long the maps of a position take: the median of many renders of each fixture, Bus and
Bus Boss.

    python3 bench/maps_bench.py [repeats]

Goals (median): a Bus PNG map under 25 ms (62-72 ms before the PNG renderer kept its ground,
sprites, text masks and palette from one map to the next), a Bus Boss one under 50 ms.
Prints per position the first time (for the first position of a game the process's first
map of it: ground, fonts, palette and, for Bus Boss, the places' layout not yet made; for
the others, the sprites and text masks this position adds) and the median time of the PNG
and of the text map, and the PNG's size.
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from referee.maps import png_map, text_map  # noqa: E402


def timed(render, view, repeats: int) -> tuple[float, float, object]:
    """(first, median) in milliseconds, and the last result."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        result = render(view)
        times.append((time.perf_counter() - start) * 1000)
    return times[0], statistics.median(times), result


def main() -> None:
    repeats = int(sys.argv[1]) if len(sys.argv) > 1 else 21
    print(
        f"{'position':<18}{'png first':>10}{'png median':>11}{'png size':>10}"
        f"{'text first':>11}{'text median':>12}  (ms, KB; {repeats} renders each)"
    )
    for game in ("bus", "busboss"):
        for path in sorted((ROOT / "tests" / "fixtures").glob(f"{game}_view_*.json")):
            view = json.loads(path.read_text(encoding="utf-8"))
            text_first, text_median, _ = timed(text_map, view, repeats)
            png_first, png_median, png = timed(png_map, view, repeats)
            name = f"{game} {path.stem.removeprefix(f'{game}_view_')}"
            print(
                f"{name:<18}{png_first:>10.1f}{png_median:>11.1f}{len(png) / 1024:>10.1f}"
                f"{text_first:>11.1f}{text_median:>12.2f}"
            )


if __name__ == "__main__":
    main()
