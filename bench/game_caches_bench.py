"""What each of the games' own caches is worth: the same work with every cache, and with one
cache at a time turned off ("The middle, redesigned", item 3: keep a cache only where a bench
shows it pays).

    python3 bench/game_caches_bench.py [--repeats 3] [--only NAME,...]

A cache here is a ``functools.lru_cache`` / ``functools.cache`` bound in a module of
``referee.bus``, ``referee.busboss`` or the map drawing helpers they share
(``referee.maps``). Turned off, every module's name for it is pointed at the function it
wraps, in a fresh process. Each process does, in this order:
- tick: what one tick asks of a game for one campaign, in a process that has done nothing
  else (as cron starts it): a game in its fourth round read back from its plain data, its
  view, text map and PNG map, and each awaited seat's prompt lines;
- random / default: whole 4-player games of the random and the default bot (Bus 20 and 4,
  Bus Boss 6 and 2);
- strong: the strong bot at its default budget: three decisions of Bus in mid-game (each
  a search), and two whole Bus Boss games of one strong seat against three default ones;
- archive: what ``referee archive`` draws in one process: the text and PNG maps of a whole
  default-bot game, every eighth decision.
Each figure is CPU milliseconds (the process's own), the least of ``--repeats`` processes.
A cache that no workload misses by more than the noise of such figures (about 5% on a shared
machine) does not pay.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GAMES = ("bus", "busboss")
WORKLOADS = ("tick", "random", "default", "strong", "archive")


def caches() -> dict[str, object]:
    """Every cache of the games' packages, by the first module:name bound to it."""
    import importlib
    import pkgutil

    bound: dict[int, list[tuple[str, str]]] = {}
    values: dict[int, object] = {}
    for package_name in ("referee.maps", *(f"referee.{game}" for game in GAMES)):
        package = importlib.import_module(package_name)
        for info in pkgutil.walk_packages(package.__path__, f"{package_name}."):
            module = importlib.import_module(info.name)
            for attr, value in vars(module).items():
                if hasattr(value, "cache_info"):
                    bound.setdefault(id(value), []).append((info.name, attr))
                    values[id(value)] = value
    found = {}
    for key, names in bound.items():  # named where it is made, if it is made in the games
        module, attr = min(names, key=lambda n: (n[0] != values[key].__module__, n))
        found[f"{module.removeprefix('referee.')}:{attr}"] = values[key]
    return dict(sorted(found.items()))


def turn_off(name: str) -> None:
    """Point every referee module's name for the cache at the function it wraps."""
    cached = caches()[name]
    plain = cached.__wrapped__  # type: ignore[attr-defined]
    for module in list(sys.modules.values()):
        if module is None or not module.__name__.startswith("referee"):
            continue
        for attr, value in list(vars(module).items()):
            if value is cached:
                setattr(module, attr, plain)


def played(rules, bot_names, seed: int, decisions: int | None = None):
    """A 4-player game of ``bot_names`` (one per seat), to its end or ``decisions``."""
    state = rules.new_game({}, ["Ann", "Bob", "Cid", "Dee"], seed)
    rng = random.Random(seed)
    bots = [rules.bot(name) for name in bot_names]
    done = 0
    while (due := rules.awaiting(state)) and (decisions is None or done < decisions):
        seat = due[0].seat
        state, _ = rules.apply(state, seat, bots[seat](state, seat, rng))
        done += 1
    return state


def work(game: str, workload: str, mid) -> None:
    from referee import registry

    descriptor = registry.get(game)
    rules = descriptor.rules
    if workload == "tick":
        state = rules.from_data(mid)
        view = rules.view(state)
        descriptor.text_map(view, str)
        if descriptor.png_map:
            descriptor.png_map(view)
        for due in rules.awaiting(state):
            rules.prompt_lines(state, due.seat)
    elif workload in ("random", "default"):
        games = {"bus": (20, 4), "busboss": (6, 2)}[game][workload == "default"]
        for seed in range(games):
            played(rules, [workload] * 4, seed)
    elif workload == "archive":
        state, rng = rules.new_game({}, ["Ann", "Bob", "Cid", "Dee"], 5), random.Random(5)
        bot, decisions = rules.bot("default"), 0
        while due := rules.awaiting(state):
            state, _ = rules.apply(state, due[0].seat, bot(state, due[0].seat, rng))
            decisions += 1
            if decisions % 8 == 0:
                view = rules.view(state)
                descriptor.text_map(view, str)
                if descriptor.png_map:
                    descriptor.png_map(view)
    elif game == "busboss":
        for seed in range(2):
            played(rules, ["strong", "default", "default", "default"], seed)
    else:
        state = rules.from_data(mid)
        strong, rng = rules.bot("strong"), random.Random(1)
        for _ in range(3):
            seat = rules.awaiting(state)[0].seat
            state, _ = rules.apply(state, seat, strong(state, seat, rng))


def worker(off: str | None) -> dict[str, float]:
    middles = json.loads(os.environ["MIDDLES"])
    caches()  # every module loaded alike (and there to be re-pointed): imports are not timed
    if off:
        turn_off(off)
    figures = {}
    for workload in WORKLOADS:
        for game in GAMES:
            start = time.process_time()
            work(game, workload, middles[game])
            figures[f"{game} {workload}"] = (time.process_time() - start) * 1000
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--only", default="", help="cache names, comma-separated")
    parser.add_argument("--worker", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker is not None:
        print(json.dumps(worker(args.worker or None)))
        return

    sys.path.insert(0, str(ROOT))
    from referee import registry

    middles = {}
    for game in GAMES:  # the fourth round (Bus Boss: its first operating round is the 7th)
        rules = registry.get(game).rules
        state = played(rules, ["default"] * 4, 7, {"bus": 60, "busboss": 26}[game])
        middles[game] = rules.to_data(state)
    names = list(caches())
    if args.only:
        names = [n for n in names if n.split(":")[1] in args.only.split(",") or n in args.only]
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "MIDDLES": json.dumps(middles),
        "PYTHONHASHSEED": "0",
    }

    def best(off: str) -> dict[str, float]:
        runs = []
        for _ in range(args.repeats):
            worker = [sys.executable, __file__, "--worker", off]
            runs.append(json.loads(subprocess.check_output(worker, env=env, text=True)))
        return {k: min(r[k] for r in runs) for k in runs[0]}

    base = best("")
    columns = list(base)
    print(f"{'CPU ms, least of ' + str(args.repeats):34}" + "".join(f"{c:>16}" for c in columns))
    print(f"{'every cache':34}" + "".join(f"{base[c]:16.1f}" for c in columns))
    for name in names:
        figures = best(name)
        cells = "".join(
            f"{figures[c]:9.1f} {100 * (figures[c] / base[c] - 1):+5.0f}%" for c in columns
        )
        print(f"{name + ' off':34}{cells}", flush=True)


if __name__ == "__main__":
    main()
