"""What `referee` costs as a process, beside `python -c pass`, for a baseline commit and this
tree in the same run, in a plain virtualenv as a game master makes one (`python3 -m venv`,
`pip install .`: no site-packages `.pth` file that imports anything): CPU time (the least of
several runs: the program's and the kernel's) and machine instructions (valgrind's
callgrind, which the machine's load does not move).

    python3 bench/idle_tick_bench.py [--base main] [--runs 15] [--no-instructions]

Measured: `python -c pass`; `referee --help`; `referee tick` in a site at rest (a Bus game
waiting for its players, a Bus Boss game open for sign-up, every mail sent, no deadline
due: cron's tick of most minutes); `referee status`. Each runs as the console script pip
installs runs it (``from referee.cli import main; main()``), with the tree on PYTHONPATH
(ahead of the referee pip installed, whose dependencies it uses), compiled to bytecode as an
installed referee is, on its own copy of the site, after two ticks of that tree have built
its snapshots and its indexes. Goal (issue 35): the idle tick at most 3x `python -c pass`
in instructions.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from base_tree import checked_out  # bench/ is the script's folder, first on the path

ROOT = Path(__file__).resolve().parents[1]
GOAL = 3.0

# as pip writes the `referee` console script
SCRIPT = """import re
import sys
from referee.cli import main
if __name__ == "__main__":
    sys.argv[0] = re.sub(r"(-script\\.pyw|\\.exe)?$", "", sys.argv[0])
    sys.exit(main())
"""


def make_site(root: Path) -> Path:
    sys.path[:0] = [str(ROOT), str(ROOT / "tests")]
    from sites import PLAYERS, make_site, run_tick

    site = make_site(root)
    site.new_campaign("bus", "bus1", PLAYERS, seed=1, settings={"deadlines": {"hours": 48}})
    site.new_campaign("busboss", "boss1", [], seats=4, gm="Gil <gil@example.org>")
    run_tick(site)
    return root


def plain_virtualenv(where: Path) -> str:
    """A virtualenv as README's install makes it, with this tree and its dependencies
    installed (pip install .); its interpreter."""
    subprocess.run([sys.executable, "-m", "venv", str(where)], check=True)
    pip = [str(where / "bin" / "python"), "-m", "pip", "install", "-q", str(ROOT)]
    subprocess.run(pip, check=True, capture_output=True)
    return str(where / "bin" / "python")  # (its link: the interpreter finds its venv by it)


def environment(tree: Path) -> dict[str, str]:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    env["PYTHONHASHSEED"] = "0"  # the same string hashes for every run and both trees
    # the bytecode cache on, as on a game master's server (pip compiles what it installs)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    for name in ("REFEREE_CONFIG", "REFEREE_CRASH_AT"):
        env.pop(name, None)
    return env


def cpu_ms(argv: list[str], env: dict, cwd: Path, runs: int) -> float:
    """The least CPU time (user and system) of ``runs`` runs, in ms."""
    best = float("inf")
    for _ in range(runs):
        child = subprocess.Popen(
            argv, env=env, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
        )
        _, status, usage = os.wait4(child.pid, 0)
        assert child.stderr is not None
        errors = child.stderr.read()
        child.stderr.close()
        if os.waitstatus_to_exitcode(status) != 0:
            raise SystemExit(f"{argv} failed in {cwd}:\n{errors.decode()}")
        best = min(best, usage.ru_utime + usage.ru_stime)
    return best * 1000


def instructions(argv: list[str], env: dict, cwd: Path) -> int:
    done = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *argv],
        env=env,
        cwd=cwd,
        capture_output=True,
        text=True,
        check=True,
    )
    collected = re.search(r"Collected : (\d+)", done.stderr)
    assert collected, done.stderr[-2000:]
    return int(collected.group(1))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--base", default="main", help="the commit to compare against")
    parser.add_argument("--runs", type=int, default=15, help="runs of each, the least counted")
    parser.add_argument("--no-instructions", action="store_true", help="CPU time only")
    args = parser.parse_args()
    counting = not args.no_instructions and shutil.which("valgrind") is not None
    with tempfile.TemporaryDirectory(prefix="idle-tick-") as folder:
        tmp = Path(folder)
        python = plain_virtualenv(tmp / "venv")
        base = tmp / "base"
        with checked_out(args.base, base):
            script = tmp / "referee"
            script.write_text(SCRIPT)
            made = make_site(tmp / "site")
            trees = {"base": base, "now": ROOT}
            figures: dict[str, dict[str, tuple[float, int]]] = {}
            for label, tree in trees.items():
                subprocess.run([python, "-m", "compileall", "-q", "referee"], cwd=tree, check=True)
                site = tmp / f"site-{label}"
                shutil.copytree(made, site)
                env = environment(tree)
                referee = [python, str(script)]
                for _ in range(2):  # the first may look at every campaign, and note it
                    subprocess.run(
                        [*referee, "tick"], env=env, cwd=site, check=True, capture_output=True
                    )
                runs = {
                    "python -c pass": [python, "-c", "pass"],
                    "referee --help": [*referee, "--help"],
                    "referee tick (idle)": [*referee, "tick"],
                    "referee status": [*referee, "status"],
                }
                figures[label] = {}
                for what, argv in runs.items():
                    figures[label][what] = (
                        cpu_ms(argv, env, site, args.runs),
                        instructions(argv, env, site) if counting else 0,
                    )
    print(
        f"CPU ms (least of {args.runs} runs) and instructions (millions, callgrind), "
        f"and each as a multiple of `python -c pass`, in a plain virtualenv; "
        f"baseline {args.base}, this tree {ROOT}"
    )
    print(f"{'':24s}{'baseline':>34s}{'now':>34s}")
    for what in figures["now"]:
        row = f"{what:24s}"
        for label in trees:
            ms, count = figures[label][what]
            pass_ms, pass_count = figures[label]["python -c pass"]
            row += f"{ms:9.1f} ms {ms / pass_ms:5.2f}x"
            row += f"{count / 1e6:8.1f} M {count / pass_count:5.2f}x" if counting else " " * 18
        print(row)
    ms, count = figures["now"]["referee tick (idle)"]
    pass_ms, pass_count = figures["now"]["python -c pass"]
    met = count / pass_count <= GOAL if counting else ms / pass_ms <= GOAL
    print(
        f"goal: the idle tick at most {GOAL:.0f}x `python -c pass` "
        f"({'instructions' if counting else 'CPU time'}): {'met' if met else 'not met'}"
    )


if __name__ == "__main__":
    main()
