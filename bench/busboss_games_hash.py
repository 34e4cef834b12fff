"""A hash of many seeded Bus Boss games, random and default bots in every seat and the strong
bot in one seat, 3 to 6 players: every order's text, every line of every report and the final
state. A change meant to keep the same games (a faster engine) must print the same hash as
the commit before it.

    PYTHONHASHSEED=0 python3 bench/busboss_games_hash.py [--seeds 100]

The strong bot's choices move with Python's string hashing (it walks sets of place names), so
compare two trees under the same PYTHONHASHSEED.
"""

import argparse
import hashlib
import json
import random

from referee.busboss.engine import RULES


def game_hash(seed: int, bots: list[str]) -> str:
    made = {name: RULES.bot(name) for name in set(bots)}
    rng = random.Random(seed)
    state = RULES.new_game({}, [f"Bot {i + 1}" for i in range(len(bots))], seed)
    digest = hashlib.sha256()
    while due := RULES.awaiting(state):
        seat = due[0].seat
        order = made[bots[seat]](state, seat, rng)
        state, events = RULES.apply(state, seat, order)
        # events are Say (str() is their English, as the log keeps them)
        digest.update("\n".join([RULES.format(order), *map(str, events)]).encode())
    digest.update(json.dumps(RULES.to_data(state), sort_keys=True).encode())
    return digest.hexdigest()


def games_hash(seeds: int) -> str:
    digest = hashlib.sha256()
    for players in (3, 4, 5, 6):
        for seed in range(seeds):
            for bots in (["random"] * players, ["default"] * players):
                digest.update(game_hash(seed, bots).encode())
            if seed % 10 == 0:
                digest.update(game_hash(seed, ["strong"] + ["default"] * (players - 1)).encode())
    return digest.hexdigest()


if __name__ == "__main__":
    options = argparse.ArgumentParser(description=__doc__)
    options.add_argument("--seeds", type=int, default=100, help="seeds for each player count")
    print(games_hash(options.parse_args().seeds))
