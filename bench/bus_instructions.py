"""Machine instructions a decision of Bus random play, 4 players, for this tree and a base
commit in the same run (valgrind's callgrind: a count the machine's load does not move).

    python3 bench/bus_instructions.py [--base 6fe1b64] [--games 10] [--bot random]

Goal (issue 'Bus: B15, malformed orders, the strong bot's markers, a faster engine'): at
most 57,000 instructions a decision, from about 83,000 at 6fe1b64.
"""

from __future__ import annotations

import argparse
import os
import tempfile
from pathlib import Path

from engine_bench import ROOT, base_tree, instructions

GOAL = 57_000


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--base", default="6fe1b64", help="the commit to compare against")
    parser.add_argument("--games", type=int, default=10, help="games counted in each tree")
    parser.add_argument("--bot", default="random", help="the bot in every seat")
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args()
    # string hashes change a run's count by a percent or two: both trees get the same ones
    os.environ["PYTHONHASHSEED"] = "0"
    with tempfile.TemporaryDirectory() as folder:
        base = base_tree(args.base, Path(folder))
        before = instructions(base, "bus", args.bot, args.players, args.games)["decision"]
    now = instructions(ROOT, "bus", args.bot, args.players, args.games)["decision"]
    print(
        f"Bus, {args.bot} bot, {args.players} players, {args.games} games: instructions a "
        f"decision {before:,.0f} at {args.base}, {now:,.0f} now ({before / now:.2f}x fewer; "
        f"goal at most {GOAL:,}: {'met' if now <= GOAL else 'not met'})"
    )


if __name__ == "__main__":
    main()
