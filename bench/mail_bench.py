"""The mail each player of the demo receives, here and at a base commit, in the same run:
mails, bytes, the largest mail and the widest line of plain text, per player.

    python3 bench/mail_bench.py [--base 5afe48e] [--seed 1]

The base is checked out into a temporary git worktree and its demo runs with PYTHONPATH
pointing there; both demos play the same seed, and the same code counts both mailboxes.
"""

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from base_tree import checked_out  # noqa: E402

from referee.demo import PLAYERS, MailCount, mail_counts  # noqa: E402


def run_demo(code: Path, directory: Path, seed: int) -> dict[str, MailCount]:
    env = dict(os.environ, PYTHONPATH=str(code))
    subprocess.run(
        [sys.executable, "-m", "referee", "demo", "--dir", str(directory), "--seed", str(seed)],
        cwd=code,
        env=env,
        check=True,
        stdout=subprocess.DEVNULL,
    )
    return mail_counts(directory / "mail" / "outbox")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", default="5afe48e")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        with checked_out(args.base, Path(tmp) / "base") as base:
            before = run_demo(base, Path(tmp) / "demo-base", args.seed)
            after = run_demo(ROOT, Path(tmp) / "demo-head", args.seed)
    print(f"The demo (Bus, seed {args.seed}), per player: base {args.base} -> this tree")
    print(f"{'':6}{'mails':>15}{'MB':>18}{'largest KB':>16}{'widest line':>14}")
    for name, address in PLAYERS:
        b, a = before[address], after[address]
        print(
            f"{name:<6}{b.mails:5d} -> {a.mails:3d} ({a.mails / b.mails:4.0%})"
            f"{b.bytes / 1e6:6.2f} -> {a.bytes / 1e6:5.2f} ({a.bytes / b.bytes:4.0%})"
            f"{b.largest / 1e3:6.0f} -> {a.largest / 1e3:4.0f}"
            f"{b.widest:6d} -> {a.widest:3d}"
        )


if __name__ == "__main__":
    main()
