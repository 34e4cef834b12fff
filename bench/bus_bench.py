"""Speed of the Bus engine: whole bot games, decisions, and replaying a finished game's log.

    python3 bench/bus_bench.py [--games N]

Goals (issue 'Bus rules engine'): median 4-player default-bot game under 50 ms, legal-move
generation included; replay of a finished game's log under 20 ms.
"""

import argparse
import statistics
import time

from referee.bus.engine import RULES
from referee.simulate import play_game, replay


def games(bot: str, count: int):
    times, decisions, logs = [], 0, []
    for seed in range(count):
        start = time.perf_counter()
        _, log, illegal = play_game(RULES, 4, seed, bot)
        times.append(time.perf_counter() - start)
        assert illegal == 0
        decisions += len(log)
        logs.append((seed, log))
    return times, decisions, logs


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=200)
    count = parser.parse_args().games
    names = [f"Bot {i + 1}" for i in range(4)]
    for bot in ("default", "random"):
        times, decisions, logs = games(bot, count)
        total = sum(times)
        print(
            f"{bot:8s} bot, 4 players: {count / total:7.1f} games/s, "
            f"median game {statistics.median(times) * 1000:6.2f} ms, "
            f"{total / decisions * 1e6:6.1f} us/decision ({decisions / count:.0f} per game)"
        )
        if bot == "default":
            replays = []
            for seed, log in logs[:50]:
                start = time.perf_counter()
                replay(RULES, names, seed, log)
                replays.append(time.perf_counter() - start)
            print(
                f"replay of a finished game's log "
                f"({statistics.mean(len(orders) for _, orders in logs[:50]):.0f}"
                f" orders): median {statistics.median(replays) * 1000:.2f} ms"
            )


if __name__ == "__main__":
    main()
