"""A hash of the move logs of many seeded Bus games, random and default bots, 3 to 5 players:
a change meant to keep the same games (a faster engine) must print the same hash.

    python3 bench/bus_games_hash.py [--seeds 40]
"""

import argparse
import hashlib

from referee.bus.engine import RULES
from referee.simulate import play_game


def games_hash(seeds: int) -> str:
    digest = hashlib.sha256()
    for bot in ("random", "default"):
        for players in (3, 4, 5):
            for seed in range(seeds):
                _, log, illegal = play_game(RULES, players, seed, bot)
                assert illegal == 0
                digest.update(repr((bot, players, seed, log)).encode())
    return digest.hexdigest()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seeds", type=int, default=40)
    print(games_hash(parser.parse_args().seeds))


if __name__ == "__main__":
    main()
