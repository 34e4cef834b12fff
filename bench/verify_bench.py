"""The CPU `referee verify` takes on a finished Bus Boss game, this tree against a base
commit, each verifying a game its own code played (`referee demo`'s robots, by mail).

    python3 bench/verify_bench.py [--base main] [--repeats 5]

Goal (issue 35): at most half of the base's CPU. Each verify is a whole process (the
interpreter's start counted in both), after one run that fills the map caches; the figure
is the median CPU (user + system) of the repeats.
"""

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from base_tree import ROOT, checked_out

PLAY = """
import sys
from pathlib import Path
from referee.demo import run_demo
result = run_demo(Path(sys.argv[1]), seed=7, game="busboss")
assert result.finished
print(result.campaign.root)
"""


def environment(tree: Path, cache: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    return env | {"PYTHONPATH": str(tree), "REFEREE_CACHE_DIR": str(cache)}


def cpu_of(command: list[str], env: dict[str, str], cwd: Path) -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(command, env=env, cwd=cwd, capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    assert done.returncode == 0 and "verified" in done.stdout, done.stdout + done.stderr
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def verify_cpu(tree: Path, scratch: Path, repeats: int) -> float:
    env = environment(tree, scratch / "cache")
    played = subprocess.run(
        [sys.executable, "-c", PLAY, str(scratch / "site")],
        env=env,
        cwd=tree,
        capture_output=True,
        text=True,
        check=True,
    )
    root = played.stdout.split()[-1]
    command = [sys.executable, "-m", "referee", "verify", root]
    cpu_of(command, env, tree)  # the map caches filled
    return statistics.median(cpu_of(command, env, tree) for _ in range(repeats))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", default="main")
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        scratch = Path(folder)
        with checked_out(args.base, scratch / "base") as base:
            (scratch / "b").mkdir()
            base_cpu = verify_cpu(base, scratch / "b", args.repeats)
        (scratch / "t").mkdir()
        this_cpu = verify_cpu(ROOT, scratch / "t", args.repeats)
    print(f"verify of a finished Bus Boss game (CPU, median of {args.repeats}):")
    print(f"  {args.base:>8s}: {base_cpu:6.2f} s")
    print(f"  {'this':>8s}: {this_cpu:6.2f} s   ({this_cpu / base_cpu:.0%} of {args.base})")


if __name__ == "__main__":
    main()
