"""How long reading one mail with a 100 KB header takes (a Content-Type with thousands of
parameters, a To with thousands of addresses), here and at a baseline commit, in one run.

    python3 bench/hostile_mail_bench.py [--base 5afe48e] [--runs 20]

The baseline is checked out into a temporary git worktree and the same workload runs there
in a subprocess (its PYTHONPATH pointing at it). The stdlib parser takes seconds on such a
header; read_mail now refuses a header over 8 KB before parsing. Goal: under 50 ms.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

WORKLOAD = r"""
import json, sys, time
from referee.mail.read import read_mail

def mails():
    head = "From: Dan <dan@example.net>\r\nMessage-ID: <{}@example.net>\r\nSubject: hi\r\n"
    ctype = "; ".join(f"a{i}=b" for i in range(11000))
    to = ", ".join(f"p{i}@example.net" for i in range(5300))
    yield "100 KB Content-Type", (
        head.format("ctype") + "To: referee@example.org\r\nContent-Type: multipart/mixed; "
        + ctype + "\r\n\r\nhello\r\n").encode()
    yield "100 KB To", (head.format("to") + "To: " + to + "\r\n\r\nhello\r\n").encode()
    named = ", ".join(f'"P {i}" <p{i}@example.net>' for i in range(3600))
    yield "100 KB To, names", (head.format("named") + "To: " + named + "\r\n\r\nhi\r\n").encode()

runs = int(sys.argv[1])
out = {}
for name, raw in mails():
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        read_mail(raw, "referee@example.org")
        times.append(time.perf_counter() - start)
    out[name] = {"kb": len(raw) // 1024, "times": times}
print(json.dumps(out))
"""


def measure(tree: Path, runs: int) -> dict:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    done = subprocess.run(
        [sys.executable, "-c", WORKLOAD, str(runs)],
        env=env,
        cwd=tree,  # python -c puts the working folder first on sys.path
        capture_output=True,
        text=True,
        check=True,
        timeout=1800,
    )
    return json.loads(done.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", default="5afe48e", help="the baseline commit")
    parser.add_argument("--runs", type=int, default=20, help="reads of each mail here")
    args = parser.parse_args()
    here = measure(ROOT, args.runs)
    with tempfile.TemporaryDirectory() as tmp:
        base_tree = Path(tmp) / "base"
        subprocess.run(
            ["git", "-C", str(ROOT), "worktree", "add", "--detach", str(base_tree), args.base],
            check=True,
            capture_output=True,
        )
        try:
            base = measure(base_tree, 1)  # seconds a read there: once is enough
        finally:
            subprocess.run(
                ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(base_tree)],
                check=True,
                capture_output=True,
            )
    print(f"reading one mail (read_mail), here: median of {args.runs}; at {args.base}: one read")
    for name, found in here.items():
        now = statistics.median(found["times"]) * 1000
        then = base[name]["times"][0] * 1000
        verdict = "ok" if now < 50 else "OVER the 50 ms goal"
        print(
            f"  {name} ({found['kb']} KB mail): {now:8.2f} ms here, {then:9.1f} ms at "
            f"{args.base} ({then / now:,.0f}x) - {verdict}"
        )


if __name__ == "__main__":
    start = time.perf_counter()
    main()
    print(f"(bench took {time.perf_counter() - start:.1f} s)")
