"""What reading mail costs, here and at a baseline commit, in one run:
- the CPU a mail of reading the corpus of client shapes (tests/fixtures/client_shapes: the
  replies of Gmail, Outlook, GMX, Apple Mail ... in many languages, plain and HTML), all of
  them read in turn, the median of --rounds rounds; and the first mail of a fresh process
  (which reads the quote marks, quoting.yaml);
- the CPU and machine instructions a mail of reading the corpus of replies from anywhere
  (tests/reply_shapes.py: 135 replies of 27 mail programs in 48 languages to a real prompt
  of a real game), here read against the referee's own mail they answer, at the baseline as
  it reads them (with no such mail, where its reader takes none);
- one mail with a 100 KB header (a Content-Type with thousands of parameters, a To with
  thousands of addresses): the stdlib parser takes seconds on such a header; read_mail
  refuses a header over 8 KB before parsing. Goal: under 50 ms.

    python3 bench/hostile_mail_bench.py [--base 0b9ec9d] [--runs 20] [--rounds 30]

The baseline is checked out into a temporary git worktree and the same workload runs there
in a subprocess (its PYTHONPATH pointing at it), on the same mails (made here).
"""

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

SHAPES = r"""
import json, sys, time
start = time.process_time()
from referee.mail.read import read_mail
mails = [bytes.fromhex(m) for m in json.load(open(sys.argv[1]))]
read_mail(mails[0], "referee@example.org")
first = time.process_time() - start  # the import and the first mail, in a fresh process
rounds = []
for _ in range(int(sys.argv[2])):
    start = time.process_time()
    for raw in mails:
        read_mail(raw, "referee@example.org")
    rounds.append((time.process_time() - start) / len(mails))
print(json.dumps({"first": first, "rounds": rounds}))
"""

# the reply corpus: [prompt's Message-ID, the prompt's bytes, [replies]] (hex); each reply
# read against the prompt where read_mail takes the referee's own mail (``sent``)
REPLIES = r"""
import inspect, json, sys, time
from referee.mail.read import read_mail
message_id, sent, replies = json.load(open(sys.argv[1]))
sent, replies = bytes.fromhex(sent), [bytes.fromhex(r) for r in replies]
mailed = {message_id: sent}.get
args = (mailed,) if "sent" in inspect.signature(read_mail).parameters else ()
rounds = []
for _ in range(int(sys.argv[2])):
    start = time.process_time()
    for raw in replies:
        read_mail(raw, "referee@example.org", *args)
    rounds.append((time.process_time() - start) / len(replies))
print(json.dumps({"first": 0, "rounds": rounds}))
"""

# under callgrind: the reader imported (with what a tick has imported before it: YAML, the
# email and HTML parsers), then the corpus read ROUNDS times (ROUNDS 0: not even one mail)
COUNTED = r"""
import json, sys, yaml, email.policy, email.parser, html.parser
mails = [bytes.fromhex(m) for m in json.load(open(sys.argv[1]))]
from referee.mail.read import read_mail
for _ in range(int(sys.argv[2])):
    for raw in mails:
        read_mail(raw, "referee@example.org")
"""


def instructions(tree: Path, mails: Path, rounds: int, script: str = "") -> int | None:
    """The machine instructions of ``script`` (COUNTED; callgrind), or None without
    valgrind."""
    if shutil.which("valgrind") is None:
        return None
    env = {**os.environ, "PYTHONPATH": str(tree)}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    done = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable]
        + ["-c", script or COUNTED, str(mails), str(rounds)],
        env=env,
        cwd=tree,
        capture_output=True,
        text=True,
        check=True,
        timeout=1800,
    )
    found = re.search(r"Collected : (\d+)", done.stderr)
    return int(found.group(1)) if found else None


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


def corpus(path: Path) -> int:
    """The client shapes' raw mails, written to ``path`` (hex, as JSON); how many."""
    sys.path.insert(0, str(ROOT / "tests"))
    from client_shapes import raw_mail, shapes

    to = "referee+bus1.k3j4@example.org"
    mails = [raw_mail(s, to, "Mon, 03 Jun 2024 10:00:00 +0200").hex() for s in shapes()]
    path.write_text(json.dumps(mails))
    return len(mails)


def replies(path: Path) -> int:
    """The reply corpus, answering a real prompt of a real game, written to ``path``."""
    sys.path.insert(0, str(ROOT / "tests"))
    from reply_shapes import bobs_prompt, raw_mail, shapes

    with tempfile.TemporaryDirectory() as root:
        site, prompt = bobs_prompt(Path(root))
        sent = site.post.sent_mail(prompt.message_id)
    assert sent is not None
    mails = [raw_mail(s, prompt, n).hex() for n, s in enumerate(shapes(prompt))]
    path.write_text(json.dumps([prompt.message_id, sent.hex(), mails]))
    return len(mails)


def measure(tree: Path, *args: str, workload: str = WORKLOAD) -> dict:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    done = subprocess.run(
        [sys.executable, "-c", workload, *args],
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
    parser.add_argument("--base", default="0b9ec9d", help="the baseline commit")
    parser.add_argument("--runs", type=int, default=20, help="reads of each large mail")
    parser.add_argument("--rounds", type=int, default=30, help="reads of the whole corpus")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        mails = Path(tmp) / "mails.json"
        count = corpus(mails)
        shapes_args = (str(mails), str(args.rounds))
        answers = Path(tmp) / "replies.json"
        answer_count = replies(answers)
        base_tree = Path(tmp) / "base"
        subprocess.run(
            ["git", "-C", str(ROOT), "worktree", "add", "--detach", str(base_tree), args.base],
            check=True,
            capture_output=True,
        )
        try:
            for tree in (ROOT, base_tree):  # compiled to bytecode, as installed
                subprocess.run([sys.executable, "-m", "compileall", "-q", str(tree / "referee")])
            # turn about, so that neither tree has the machine's quieter moments to itself
            firsts: dict[str, list[float]] = {"here": [], "base": []}
            rounds: dict[str, list[float]] = {"here": [], "base": []}
            for _ in range(3):
                for name, tree in (("here", ROOT), ("base", base_tree)):
                    found = measure(tree, *shapes_args, workload=SHAPES)
                    firsts[name].append(found["first"])
                    rounds[name] += found["rounds"]
            counted = {
                name: [instructions(tree, mails, n) for n in (0, 1, 6)]
                for name, tree in (("here", ROOT), ("base", base_tree))
            }
            replied = {
                name: statistics.median(
                    measure(tree, str(answers), str(args.rounds), workload=REPLIES)["rounds"]
                )
                for name, tree in (("here", ROOT), ("base", base_tree))
            }
            replied_counted = {
                name: [instructions(tree, answers, n, REPLIES) for n in (1, 3)]
                for name, tree in (("here", ROOT), ("base", base_tree))
            }
            here = measure(ROOT, str(args.runs))
            base = measure(base_tree, "1")
        finally:
            subprocess.run(
                ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(base_tree)],
                check=True,
                capture_output=True,
            )
    now, then = (statistics.median(rounds[k]) * 1e6 for k in ("here", "base"))
    print(f"reading the {count} client shapes (read_mail), CPU a mail, median of 3 x {args.rounds}")
    print(f"  here {now:7.0f} us, at {args.base} {then:7.0f} us ({now / then:.2f}x)")
    first_now, first_then = (statistics.median(firsts[k]) * 1000 for k in ("here", "base"))
    print("  a fresh process: importing the reader (and YAML, which a tick has imported for")
    print("  its settings anyway) and reading its first mail, CPU")
    print(f"  here {first_now:7.1f} ms, at {args.base} {first_then:7.1f} ms")
    if all(n is not None for found in counted.values() for n in found):
        (none, one, six), (base_none, base_one, base_six) = counted["here"], counted["base"]
        print("  machine instructions (callgrind), a mail of 5 rounds of the corpus:")
        now, then = (six - one) / 5 / count, (base_six - base_one) / 5 / count
        print(f"  here {now / 1e6:7.3f} M, at {args.base} {then / 1e6:7.3f} M ({now / then:.2f}x)")
        print("  a fresh process's first round of the corpus (the quote marks read once):")
        now, then = one - none, base_one - base_none
        more = f"{(now - then) / 1e6:+.1f} M"
        print(f"  here {now / 1e6:7.1f} M, at {args.base} {then / 1e6:7.1f} M ({more})")
    now, then = replied["here"] * 1e6, replied["base"] * 1e6
    print(f"reading the {answer_count} replies from anywhere (read_mail), CPU a mail, median")
    print(f"  here (against the referee's mail) {now:7.0f} us, at {args.base} {then:7.0f} us")
    if all(n is not None for found in replied_counted.values() for n in found):
        (one, three), (base_one, base_three) = replied_counted["here"], replied_counted["base"]
        now, then = (three - one) / 2 / answer_count, (base_three - base_one) / 2 / answer_count
        print("  machine instructions (callgrind), a mail of 2 rounds of the corpus:")
        print(f"  here {now / 1e6:7.3f} M, at {args.base} {then / 1e6:7.3f} M ({now / then:.2f}x)")
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
