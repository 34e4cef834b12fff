"""Speed of the Bus Boss engine in whole 4-player bot games, and how often the default bot
beats random ones.

    python3 bench/busboss_bench.py [--games N]

Goal (issue 'Bus Boss'): a whole 4-player game well under a second with either bot.
"""

import argparse
import random

from referee.busboss.engine import RULES
from referee.simulate import simulate


def default_against_random(count: int) -> float:
    """Share of 4-player games one default bot wins outright against three random bots."""
    default, chance = RULES.bot("default"), RULES.bot("random")
    wins = 0
    for seed in range(count):
        rng = random.Random(seed)
        s = RULES.new_game({}, ["default", "r1", "r2", "r3"], seed)
        while due := RULES.awaiting(s):
            seat = due[0].seat
            s, _ = RULES.apply(s, seat, (default if seat == 0 else chance)(s, seat, rng))
        wins += RULES.result(s).ranking[0] == (0,)
    return wins / count


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=100)
    count = parser.parse_args().games
    for bot in ("default", "random"):
        figures = simulate(RULES, 4, count, 1, bot)
        seconds = figures["seconds"]
        assert figures["illegal"] == 0 and figures["finished"] == count
        print(
            f"{bot:8s} bot, 4 players: {count / seconds:6.1f} games/s, "
            f"{seconds / count * 1000:6.1f} ms a game, "
            f"{seconds / figures['decisions'] * 1e6:6.0f} us a decision, "
            f"mean final cash {figures['mean_score']:.0f}"
        )
    print(
        f"one default bot against three random bots wins "
        f"{default_against_random(count):.0%} of games"
    )


if __name__ == "__main__":
    main()
