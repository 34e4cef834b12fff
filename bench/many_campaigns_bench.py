"""A site of ten thousand campaigns, against an empty one, for a baseline commit and this
tree in the same run, in a plain virtualenv (as bench/idle_tick_bench.py makes it): an idle
tick (cron's tick of most minutes) and `referee status --json`, in machine instructions
(valgrind's callgrind) and CPU time, beside `python -c pass`.

    python3 bench/many_campaigns_bench.py [--base main] [--campaigns 10000] [--runs 3]
                                          [--quick]

The site is built quickly: one Bus game under way (its players' first decisions asked) and
one Bus Boss game open for sign-up, made and ticked by this tree, then copied under new ids
(their settings, log, snapshot and state files; not their raw mail or turn files, which
neither a tick nor status reads). Each tree ticks its own copy twice before it is measured
(the first tick after the campaigns appear reads every one of them). `--quick` leaves out
the baseline's `status --json` under callgrind (minutes), keeping its CPU time.

Goals (issue 35): an idle tick on the big site at most 1.5x the empty site's, and
`status --json` at most 30x `python -c pass`, in instructions.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from base_tree import checked_out  # bench/ is the script's folder, first on the path
from idle_tick_bench import SCRIPT, cpu_ms, environment, instructions, plain_virtualenv

ROOT = Path(__file__).resolve().parents[1]
KEPT = ("campaign.yaml", "log.jsonl", "snapshot.json", "mailed.json", "deadlines.json")


def make_sites(tmp: Path, campaigns: int) -> tuple[Path, Path]:
    """An empty site and one of ``campaigns`` campaigns."""
    sys.path[:0] = [str(ROOT), str(ROOT / "tests")]
    from sites import PLAYERS, make_site, run_tick

    from referee.store.names import WAITS

    empty = tmp / "empty"
    make_site(empty)
    many = tmp / "many"
    site = make_site(many)
    site.new_campaign("bus", "bus", PLAYERS, seed=1, settings={"deadlines": {"hours": 48}})
    site.new_campaign("busboss", "boss", [], seats=4)
    run_tick(site)
    models = {}
    for name in ("bus", "boss"):
        folder = site.data_root / name
        models[name] = {f: (folder / f).read_bytes() for f in KEPT if (folder / f).exists()}
        shutil.rmtree(folder)
    for n in range(campaigns):
        model = "bus" if n % 2 else "boss"
        campaign_id = f"{model}{n:05d}"
        folder = site.data_root / campaign_id
        folder.mkdir()
        for name, data in models[model].items():
            if name == "campaign.yaml":
                data = data.replace(f"id: {model}\n".encode(), f"id: {campaign_id}\n".encode())
            (folder / name).write_bytes(data)
    (site.state_dir / WAITS).unlink(missing_ok=True)
    return empty, many


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--base", default="main", help="the commit to compare against")
    parser.add_argument("--campaigns", type=int, default=10000)
    parser.add_argument("--runs", type=int, default=3, help="runs of each, the least counted")
    parser.add_argument("--quick", action="store_true", help="no callgrind of base's status")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="many-campaigns-") as folder:
        tmp = Path(folder)
        python = plain_virtualenv(tmp / "venv")
        script = tmp / "referee"
        script.write_text(SCRIPT)
        empty, many = make_sites(tmp, args.campaigns)
        base = tmp / "base"
        figures: dict[str, dict[str, tuple[float, int]]] = {}
        with checked_out(args.base, base):
            for label, tree in {"base": base, "now": ROOT}.items():
                subprocess.run([python, "-m", "compileall", "-q", "referee"], cwd=tree, check=True)
                env = environment(tree)
                referee = [python, str(script)]
                sites = {}
                for kind, made in (("empty", empty), ("many", many)):
                    sites[kind] = tmp / f"{kind}-{label}"
                    shutil.copytree(made, sites[kind])
                    for _ in range(2):
                        subprocess.run(
                            [*referee, "tick"], env=env, cwd=sites[kind], check=True,
                            capture_output=True,
                        )  # fmt: skip
                runs = {
                    "python -c pass": ([python, "-c", "pass"], empty),
                    "idle tick, empty site": ([*referee, "tick"], sites["empty"]),
                    f"idle tick, {args.campaigns} campaigns": ([*referee, "tick"], sites["many"]),
                    "status --json": ([*referee, "status", "--json"], sites["many"]),
                }
                figures[label] = {}
                for what, (argv, cwd) in runs.items():
                    counted = not (args.quick and label == "base" and what == "status --json")
                    figures[label][what] = (
                        cpu_ms(argv, env, cwd, args.runs),
                        instructions(argv, env, cwd) if counted else 0,
                    )
        report(figures, args)  # before ten thousand folders are deleted, which takes minutes
        sys.stdout.flush()


def report(figures: dict[str, dict[str, tuple[float, int]]], args: argparse.Namespace) -> None:
    print(
        f"CPU ms (least of {args.runs} runs) and instructions (millions, callgrind), in a "
        f"plain virtualenv; baseline {args.base}, this tree {ROOT}"
    )
    print(f"{'':30s}{'baseline':>26s}{'now':>26s}")
    for what in figures["now"]:
        row = f"{what:30s}"
        for label in figures:
            ms, count = figures[label][what]
            row += f"{ms:10.1f} ms" + (f"{count / 1e6:11.1f} M" if count else f"{'-':>13s}")
        print(row)
    now = {what: count for what, (_, count) in figures["now"].items()}
    idle = now[f"idle tick, {args.campaigns} campaigns"] / now["idle tick, empty site"]
    status = now["status --json"] / now["python -c pass"]
    print(f"now: idle tick {idle:.2f}x the empty site's (goal: at most 1.5x)")
    print(f"now: status --json {status:.1f}x `python -c pass` (goal: at most 30x)")
    base = {what: count for what, (_, count) in figures["base"].items()}
    print(
        f"baseline: idle tick "
        f"{base[f'idle tick, {args.campaigns} campaigns'] / base['idle tick, empty site']:.2f}x"
        f" the empty site's"
        + (
            f", status --json {base['status --json'] / base['python -c pass']:.1f}x"
            if base["status --json"]
            else ""
        )
    )


if __name__ == "__main__":
    main()
