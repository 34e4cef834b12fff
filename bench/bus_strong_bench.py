"""The strong Bus bot in one seat of 4-player games against three default seats: its win
share (95% interval), the markers every seat wasted (``play_figures``), and the CPU time of
its decisions; optionally a base commit's strong bot over the same games, in the same run.

    python3 bench/bus_strong_bench.py [--games 200] [--rollouts 100] [--jobs 2]
                                      [--base 6fe1b64 --base-rollouts 200 --base-games 20]

Game g puts the strong bot in seat g mod 4 (every seat in turn). A win is a share of first
place (B13; a tie for first shares it). Each tree plays in processes of its own, importing
that tree's referee, so both meet the same machine in the same run.

Goals (issue 'Bus: B15, malformed orders, the strong bot's markers, a faster engine'): no
wasted markers (0 in 100 games); at least 95% of 200 games won at no more than half the
CPU a decision of the base at its 200 rollouts.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from engine_bench import ROOT, base_tree

PLAYERS = 4


def game(number: int, rollouts: int) -> dict:
    """One game, in this process's referee: the strong seat's share of the win, wasted
    markers by seat (when the game has the figure), and the strong seat's CPU time."""
    from referee.bus import GAME
    from referee.bus.engine import RULES

    strong_seat = number % PLAYERS
    bots = [RULES.bot("default")] * PLAYERS
    bots[strong_seat] = RULES.bot("strong", rollouts)
    rng = random.Random(number)
    first = state = RULES.new_game({}, [f"Bot {i + 1}" for i in range(PLAYERS)], number)
    steps, seconds, decisions = [], 0.0, 0
    while due := RULES.awaiting(state):
        seat = due[0].seat
        started = time.process_time()
        order = bots[seat](state, seat, rng)
        if seat == strong_seat:
            seconds += time.process_time() - started
            decisions += 1
        state, _ = RULES.apply(state, seat, order)  # IllegalOrder: a bot erred
        steps.append((seat, order, state))
    result = RULES.result(state)
    assert result is not None
    figures = getattr(GAME, "play_figures", None)
    wasted = figures(first, steps) if figures else {}
    return {
        "game": number,
        "strong_seat": strong_seat,
        "share": 1 / len(result.ranking[0]) if strong_seat in result.ranking[0] else 0.0,
        "wasted": [wasted[p]["wasted_markers"] for p in range(PLAYERS)] if wasted else None,
        "seconds": seconds,
        "decisions": decisions,
    }


def play(tree: Path, numbers: list[int], rollouts: int, jobs: int) -> list[dict]:
    """The games ``numbers`` in ``jobs`` processes importing the referee under ``tree``."""
    runs = [
        subprocess.Popen(
            [sys.executable, __file__, "--worker", json.dumps([numbers[j::jobs], rollouts])],
            env=dict(os.environ, PYTHONPATH=str(tree)),
            cwd=tree,
            stdout=subprocess.PIPE,
            text=True,
        )
        for j in range(jobs)
    ]
    games = []
    for run in runs:
        out, _ = run.communicate()
        assert run.returncode == 0, "a worker failed"
        games += [json.loads(line) for line in out.splitlines()]
    return sorted(games, key=lambda g: g["game"])


def report(name: str, games: list[dict], rollouts: int) -> float:
    n = len(games)
    share = sum(g["share"] for g in games) / n
    margin = 1.96 * math.sqrt(share * (1 - share) / n)
    per_decision = sum(g["seconds"] for g in games) / sum(g["decisions"] for g in games)
    print(
        f"{name}: strong bot at {rollouts} rollouts, {n} games: wins {share:.1%} "
        f"(95% interval {max(0.0, share - margin):.1%} to {min(1.0, share + margin):.1%}), "
        f"{per_decision * 1e3:.1f} ms CPU a decision ({sum(g['decisions'] for g in games) / n:.0f}"
        f" a game, forced ones included)"
    )
    if games[0]["wasted"] is not None:
        strong = [g["wasted"][g["strong_seat"]] for g in games]
        default = [w for g in games for p, w in enumerate(g["wasted"]) if p != g["strong_seat"]]
        where = [g["game"] for g, w in zip(games, strong) if w]
        print(
            f"  wasted markers: strong {sum(strong)} in {n} games ({len(where)} games with any"
            f"{': ' + ', '.join(map(str, where)) if where else ''}); default seats "
            f"{sum(default) / len(default):.2f} a seat a game"
        )
    return per_decision


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--first", type=int, default=0, help="the first game's number")
    parser.add_argument("--rollouts", type=int, default=100)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--base", help="a commit whose strong bot plays too, for its CPU")
    parser.add_argument("--base-rollouts", type=int, default=200)
    parser.add_argument("--base-games", type=int, default=20)
    parser.add_argument("--worker", help=argparse.SUPPRESS)  # a playing process's job
    args = parser.parse_args()
    if args.worker:
        numbers, rollouts = json.loads(args.worker)
        for number in numbers:
            print(json.dumps(game(number, rollouts)), flush=True)
        return
    numbers = list(range(args.first, args.first + args.games))
    now = report("now", play(ROOT, numbers, args.rollouts, args.jobs), args.rollouts)
    if args.base:
        with tempfile.TemporaryDirectory() as folder:
            base = base_tree(args.base, Path(folder))
            games = play(base, numbers[: args.base_games], args.base_rollouts, args.jobs)
        before = report(args.base, games, args.base_rollouts)
        print(f"CPU a decision now / base: {now / before:.2f}")


if __name__ == "__main__":
    main()
