"""What each zlib level costs a Bus Boss map, and what it makes of a whole game's largest mail.

    python3 bench/busboss_png_level_bench.py [--repeats 5] [--levels 1-9]

For each level: the CPU of drawing the maps of tests/fixtures/busboss_view_*.json (median of
the repeats, the map caches warm) and their PNG sizes; then a whole four-player demo game
played by mail (`referee demo`'s robots) for each seed with the maps at that level, and the
largest mail of them.
The referee keeps the cheapest level whose largest mail stays within 150 KB
(referee/busboss/png_map.py, COMPRESS_LEVEL).
"""

import argparse
import json
import statistics
import tempfile
import time
from pathlib import Path

from referee import maps
from referee.busboss import png_map as busboss_png
from referee.demo import run_demo

ROOT = Path(__file__).resolve().parent.parent
MOST_KB = 150


def map_cost(views: list[dict], repeats: int) -> tuple[float, list[int]]:
    """Median CPU ms of one map, and each view's PNG size."""
    sizes = [len(maps.png_map(v) or b"") for v in views]  # the caches filled
    times = []
    for _ in range(repeats):
        start = time.process_time()
        for view in views:
            maps.png_map(view)
        times.append((time.process_time() - start) * 1000 / len(views))
    return statistics.median(times), sizes


def largest_mail(folder: Path, seeds: list[int]) -> int:
    """The largest mail of whole demo games, one a seed."""
    largest = 0
    for seed in seeds:
        result = run_demo(folder / str(seed), seed=seed, game="busboss")
        assert result.finished
        largest = max(largest, *(count.largest for count in result.counts.values()))
    return largest


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--levels", default="1-9")
    parser.add_argument("--seeds", default="1,2,3", help="the demo games' seeds")
    args = parser.parse_args()
    low, _, high = args.levels.partition("-")
    levels = range(int(low), int(high or low) + 1)
    paths = sorted((ROOT / "tests" / "fixtures").glob("busboss_view_*.json"))
    views = [json.loads(p.read_text(encoding="utf-8")) for p in paths]
    named = "PNG KB (" + ", ".join(p.stem.removeprefix("busboss_view_") for p in paths) + ")"
    print(f"{'level':>5s} {'map ms':>7s} {named:>28s} {'largest mail KB':>16s}")
    chosen = None
    for level in levels:
        busboss_png.COMPRESS_LEVEL = level
        cost, sizes = map_cost(views, args.repeats)
        with tempfile.TemporaryDirectory() as folder:
            largest = largest_mail(Path(folder), [int(s) for s in args.seeds.split(",")])
        fits = largest <= MOST_KB * 1024
        if fits and chosen is None:
            chosen = level
        kb = ", ".join(f"{s / 1024:.1f}" for s in sizes)
        print(f"{level:5d} {cost:7.1f} {kb:>28s} {largest / 1024:16.1f}{'' if fits else '  over'}")
    print(f"the lowest level within {MOST_KB} KB (zlib's cost grows with its level): {chosen}")


if __name__ == "__main__":
    main()
