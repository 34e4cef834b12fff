"""The time `referee archive` and `referee verify` take on whole games of Bus, beside the
replay of the log that both begin with.

    python3 bench/archive_bench.py [--games 3] [--players 5]

Each game is played to its end by the default bot through the Site API on the Maildir
default (tests/played.py), with the site's answers and turn reports after every round.
"""

import argparse
import sys
import tempfile
import time
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from played import play, publish_seed_hash
from sites import make_site

from referee.service.archive import write_archive
from referee.service.verify import verify
from referee.words.history import history_text


def timed(action):
    start = time.perf_counter()
    value = action()
    return value, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--players", type=int, default=5)
    args = parser.parse_args()
    players = [f"P{i} <p{i}@bench.example>" for i in range(args.players)]
    with tempfile.TemporaryDirectory() as folder:
        site = make_site(Path(folder) / "site")
        print(
            f"{'game':8s} {'rounds':>6s} {'records':>7s} {'play':>7s} {'replay':>7s} "
            f"{'history':>7s} {'archive':>7s} {'files':>5s} {'verify':>7s}"
        )
        for seed in range(1, args.games + 1):
            table = site.new_campaign("bus", f"g{seed}", players, seed)
            publish_seed_hash(table.campaign)
            _, played = timed(partial(play, site, table, seed=seed))
            campaign = site.campaign(f"g{seed}")
            table, replay = timed(campaign.table)
            _, history = timed(partial(history_text, table))
            files, archive = timed(partial(write_archive, table, campaign.root / "archive"))
            result, checked = timed(partial(verify, campaign.root))
            assert result.ok, result.summary()
            print(
                f"g{seed:<7d} {table.round:6d} {len(table.steps):7d} {played:6.2f}s "
                f"{replay:6.3f}s {history:6.3f}s {archive:6.2f}s {len(files):5d} "
                f"{checked:6.2f}s"
            )


if __name__ == "__main__":
    main()
