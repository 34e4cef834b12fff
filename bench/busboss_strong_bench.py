"""The strong Bus Boss bot from every seat, against main (or another commit) in the same run.

    python3 bench/busboss_strong_bench.py [--base main] [--games 200] [--strong-games 30]

Each tree plays in a process of its own, importing that tree's referee, one after the other:
- all-strong 4-player games: the share of seat-games that end owning at least one route, and
  each place of the first play order's share of the wins;
- one strong seat placed last in the first play order against three default seats: its
  share of the wins;
- the strong bot in one seat (rotating) against three default seats: its share of the wins
  with a 95% Wilson interval, and its CPU a decision.

Goals (issue 'A strong Bus Boss bot from every seat'): every seat owns a route in at least
99% of seat-games; the last seat wins at least half its games; the win share against three
defaults at or above 90.5% at no more CPU a decision than the base's.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
from pathlib import Path

from engine_bench import ROOT, base_tree

PLAYERS = 4


def figures(games: int, strong_games: int) -> dict:
    """The figures of this process's referee."""
    from referee.busboss.engine import RULES
    from referee.simulate import simulate, wilson

    def played(bots_of, seed: int):
        made = {name: RULES.bot(name) for name in ("strong", "default")}
        rng = random.Random(seed)
        s = RULES.new_game({}, [f"Bot {i + 1}" for i in range(PLAYERS)], seed)
        first_order, bots = s.order, bots_of(s.order)
        while due := RULES.awaiting(s):
            seat = due[0].seat
            s, _ = RULES.apply(s, seat, made[bots[seat]](s, seat, rng))
        return s, first_order, RULES.result(s)

    owning, by_place = 0, [0.0] * PLAYERS
    for seed in range(strong_games):
        s, first_order, result = played(lambda order: ["strong"] * PLAYERS, seed)
        owning += sum(1 for seat in range(PLAYERS) if s.routes_of(seat))
        for place, seat in enumerate(first_order):
            if seat in result.ranking[0]:
                by_place[place] += 1 / len(result.ranking[0])

    def last_strong(order):
        bots = ["default"] * PLAYERS
        bots[order[-1]] = "strong"
        return bots

    last_wins = 0.0
    for seed in range(games):
        s, first_order, result = played(last_strong, seed)
        if first_order[-1] in result.ranking[0]:
            last_wins += 1 / len(result.ranking[0])
    rotating = simulate(RULES, PLAYERS, games, 1, seats=["strong"] + ["default"] * 3)
    strong = rotating["bots"]["strong"]
    return {
        "owning": owning / (PLAYERS * strong_games),
        "by_place": [w / strong_games for w in by_place],
        "last_seat": last_wins / games,
        "last_seat_wilson95": wilson(last_wins / games, games),
        "win_share": strong["win_share"],
        "wilson95": strong["wilson95"],
        "cpu_ms_per_decision": strong["cpu_ms_per_decision"],
    }


def measured(tree: Path, games: int, strong_games: int) -> dict:
    run = subprocess.run(
        [sys.executable, __file__, "--worker", json.dumps([games, strong_games])],
        env=dict(os.environ, PYTHONPATH=str(tree)),
        cwd=tree,
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(run.stdout)


def report(name: str, found: dict, games: int, strong_games: int) -> None:
    low, high = found["wilson95"]
    last_low, last_high = found["last_seat_wilson95"]
    places = ", ".join(f"{share:.0%}" for share in found["by_place"])
    print(
        f"{name}:\n"
        f"  {strong_games} all-strong games: {found['owning']:.1%} of seat-games own a route; "
        f"wins by place in the first play order {places}\n"
        f"  strong last in the first play order vs 3 default, {games} games: wins "
        f"{found['last_seat']:.1%} (95% {last_low:.1%}-{last_high:.1%})\n"
        f"  strong vs 3 default, seats rotating, {games} games: wins {found['win_share']:.1%} "
        f"(95% {low:.1%}-{high:.1%}), {found['cpu_ms_per_decision']} ms CPU a decision"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--base", default="main", help="the commit to compare with")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--strong-games", type=int, default=30)
    parser.add_argument("--worker", help=argparse.SUPPRESS)  # a measuring process's job
    args = parser.parse_args()
    if args.worker:
        print(json.dumps(figures(*json.loads(args.worker))))
        return
    with tempfile.TemporaryDirectory() as folder:
        base = base_tree(args.base, Path(folder))
        before = measured(base, args.games, args.strong_games)
    now = measured(ROOT, args.games, args.strong_games)
    report(args.base, before, args.games, args.strong_games)
    report("now", now, args.games, args.strong_games)
    print(
        f"CPU a decision now / {args.base}: "
        f"{now['cpu_ms_per_decision'] / before['cpu_ms_per_decision']:.2f}"
    )


if __name__ == "__main__":
    main()
