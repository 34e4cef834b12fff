"""Speed of both rules engines and their bots, this tree's code against a base commit in the
same run, and the strong Bus bot against the default bot (issue 'Engines fast enough to
search, and a Bus bot worth facing').

    python3 bench/engine_bench.py [--base 6fe1b64] [--games 100] [--repeats 3]
                                  [--instruction-games 10] [--strong-games 400]
                                  [--rollouts 200] [--jobs 2] [--record FILE] [--first N]
                                  [--busboss-strong-games 200]

Speed: CPU time of whole bot games, every seat played by the same bot, 3, 4 and 5 players,
per decision and per game. The base commit is taken out with `git archive` into a temporary
folder, and each measurement runs in a fresh process importing either that copy or this
tree, base and now one after the other, so both meet the same machine in the same run.
Each pair runs `--repeats` times and the best of each is kept, as timeit does: on a shared
machine other load only ever adds time, and from one run to the next it moved a figure by
up to 40%. The
strong bot, which the base lacks, plays one game of each size in one seat.

Strong bot: four-player games with one strong seat (seat = game number mod 4, so every seat
is played in turn) and three default seats, the strong bot at `--rollouts` a decision. A win
is first place alone; a tie for first counts as a share. A default seat's share is what is
left, divided by three (25% each by chance). The games are spread over `--jobs` processes.
A game is a function of its number, so a long match can be cut short and resumed: `--record
FILE` keeps each finished game and takes those already there; `--first N` starts a runner at
game N, for another process or machine to share the work; `--games 0` skips the speed part.

Instructions: the same games counted under valgrind's callgrind, base and this tree in the
same run, per decision (Bus) and per game (Bus Boss): the figures the machine's load does not
move. Python's string hashing is seeded the same for both (PYTHONHASHSEED=0), as it moves a
count by a few tenths of a percent from one process to the next; and neither writes bytecode,
so that both runs compile the same modules.

Bus Boss strong bot: ``referee simulate busboss --seats strong,default,default,default``'s
figures, four-player games whose seats rotate: its win share with a 95% Wilson interval and
its CPU a decision.

Goals (done when): Bus random bot, 4 players, at most 12 us a decision (about 3x the base);
default bot game at most 4 ms; Bus Boss random game at most 5 ms, and at most 20 M
instructions (about 32 M at 6fe1b64); the strong Bus bot wins at least 50% of 400 games at
200 rollouts a decision; the strong Bus Boss bot at least 60% of 200 games against three
default seats, at most 0.5 s CPU a decision.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from io import BytesIO
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WARM_UP = 3  # games played first and not counted: maps loaded, caches filled
SPEED = [  # (game, bot, games relative to --games)
    ("bus", "random", 1.0),
    ("bus", "default", 1.0),
    ("busboss", "random", 0.3),
    ("busboss", "default", 0.3),
]


def measure(game: str, bot: str, players: int, games: int) -> dict:
    """CPU time of ``games`` bot games in this process (whichever referee it imports)."""
    import importlib

    from referee.simulate import play_game

    rules = importlib.import_module(f"referee.{game}.engine").RULES
    for seed in range(10_000, 10_000 + WARM_UP):
        play_game(rules, players, seed, bot)
    decisions = 0
    start = time.process_time()
    for seed in range(games):
        _, log, illegal = play_game(rules, players, seed, bot)
        assert illegal == 0, f"{game} {bot}: an illegal order"
        decisions += len(log)
    seconds = time.process_time() - start
    if not games:  # (a run that only loads and warms up: see ``instructions``)
        return {"ms_game": 0.0, "us_decision": 0.0, "decisions": 0}
    return {
        "ms_game": seconds / games * 1e3,
        "us_decision": seconds / decisions * 1e6,
        "decisions": decisions,
    }


def instructions(root: Path, game: str, bot: str, players: int, games: int) -> dict:
    """Machine instructions a game and a decision under valgrind's callgrind, which counts
    them the same however loaded the machine is: a run of ``games`` games less a run that
    only loads the code and plays the warm-up games."""

    def run(count: int) -> tuple[int, dict]:
        done = subprocess.run(
            ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable]
            + [__file__, "--measure", json.dumps([game, bot, players, count])],
            # (no bytecode written: else the first run compiles and writes it, the second
            # reads it, and their difference is no longer the games')
            env=dict(
                os.environ, PYTHONPATH=str(root), PYTHONHASHSEED="0", PYTHONDONTWRITEBYTECODE="1"
            ),
            cwd=root,
            capture_output=True,
            text=True,
            check=True,
        )
        collected = re.search(r"Collected : (\d+)", done.stderr)
        assert collected, done.stderr[-2000:]
        return int(collected.group(1)), json.loads(done.stdout.strip().splitlines()[-1])

    (empty, _), (full, figures) = run(0), run(games)
    spent = full - empty
    return {"game": spent / games, "decision": spent / figures["decisions"]}


def in_process(root: Path, game: str, bot: str, players: int, games: int) -> dict:
    """``measure`` in a fresh Python importing the referee under ``root``."""
    env = dict(os.environ, PYTHONPATH=str(root))
    job = json.dumps([game, bot, players, games])
    out = subprocess.run(
        [sys.executable, __file__, "--measure", job],
        env=env,
        cwd=root,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return json.loads(out.strip().splitlines()[-1])


def base_tree(commit: str, folder: Path) -> Path:
    """The referee package of ``commit``, taken out into ``folder``."""
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", "--format=tar", commit, "referee"],
        capture_output=True,
        check=True,
    ).stdout
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(folder, filter="data")
    return folder


# the issue's goals, 4 players: (game, bot, figure, goal, what the base did where the issue
# was written); a goal's ratio to that base is what carries over to another machine
GOALS = [
    ("bus", "random", "us_decision", 12.0, 35.0),
    ("bus", "default", "ms_game", 4.0, 10.9),
    ("busboss", "random", "ms_game", 5.0, 14.0),
]
# instruction goals, 4 players: (game, bot, per, goal)
# issue 24's goals in instructions: Bus random play per decision, Bus Boss random play per game
INSTRUCTION_GOALS = {("bus", "random", "decision"): 57e3, ("busboss", "random", "game"): 20e6}
BUSBOSS_STRONG_GOAL = 0.60  # win share against three default seats


def speed(base: Path, commit: str, games: int, repeats: int) -> None:
    print(
        f"CPU time of whole games, base {commit} against this tree, each in its own process;\n"
        f"base and now run in turn {repeats} times, the best of each kept (load from anything "
        "else on the machine only ever adds time)"
    )
    print(
        f"{'game':8s} {'bot':8s} {'pl':>2s}   {'base ms/game':>12s} {'now ms/game':>11s}"
        f"   {'base us/dec':>11s} {'now us/dec':>10s}   {'faster':>6s}"
    )
    found = {}
    for game, bot, share in SPEED:
        for players in (3, 4, 5):
            count = max(5, round(games * share))
            runs = [
                (
                    in_process(base, game, bot, players, count),
                    in_process(ROOT, game, bot, players, count),
                )
                for _ in range(repeats)
            ]
            before = min((r[0] for r in runs), key=lambda r: r["ms_game"])
            now = min((r[1] for r in runs), key=lambda r: r["ms_game"])
            found[game, bot, players] = before, now
            print(
                f"{game:8s} {bot:8s} {players:2d}   {before['ms_game']:12.2f} "
                f"{now['ms_game']:11.2f}   {before['us_decision']:11.1f} "
                f"{now['us_decision']:10.1f}   {before['ms_game'] / now['ms_game']:5.2f}x",
                flush=True,
            )
    print(
        "\nGoals, 4 players. The issue's figures were taken on the machine where it was "
        "written;\nthe speed-up over the base, measured here in the same run, is what "
        "carries over to this one."
    )
    for game, bot, figure, goal, issue_base in GOALS:
        before, now = found[game, bot, 4]
        unit = "us a decision" if figure == "us_decision" else "ms a game"
        wanted, got = issue_base / goal, before[figure] / now[figure]
        print(
            f"{game:8s} {bot:8s} {now[figure]:6.2f} {unit} (goal {goal:g}: "
            f"{'met' if now[figure] <= goal else 'not met'}), {got:.2f}x the base "
            f"(goal {wanted:.2f}x, {issue_base:g} -> {goal:g}: "
            f"{'met' if got >= wanted else 'not met'})"
        )


def instruction_speed(base: Path, games: int) -> None:
    """The goals' figures as instruction counts: the speed-up that the machine's load does
    not move (CPU time on a shared machine does, both ways)."""
    if shutil.which("valgrind") is None:
        print("\n(valgrind is not installed: no instruction counts)")
        return
    print(
        f"\nThe same, 4 players, in machine instructions (valgrind's callgrind; {games} games each)"
    )
    print(f"{'game':8s} {'bot':8s}   {'base':>11s} {'now':>11s}   {'fewer':>6s}")
    for game, bot, figure, goal, issue_base in GOALS:
        per = "decision" if figure == "us_decision" else "game"  # as the goal is set
        before = instructions(base, game, bot, 4, games)[per]
        now = instructions(ROOT, game, bot, 4, games)[per]
        wanted = INSTRUCTION_GOALS.get((game, bot, per))
        scale, unit = (1e3, "K") if per == "decision" else (1e6, "M")  # a decision: thousands
        goal_text = (
            f"goal {wanted / scale:g} {unit}: {'met' if now <= wanted else 'not met'}"
            if wanted
            else f"goal {issue_base / goal:.2f}x"
        )
        print(
            f"{game:8s} {bot:8s}   {before / scale:9.2f} {unit} {now / scale:9.2f} {unit}   "
            f"{before / now:5.2f}x a {per} ({goal_text})",
            flush=True,
        )


def strong_speed(rollouts: int) -> None:
    """The strong bot has no base to compare with: one game of each size, one strong seat."""
    print(
        f"\nThe strong bot at {rollouts} rollouts, one seat of a game, the default bot in the rest"
    )
    for players in (3, 4, 5):
        game = strong_game(players, players, rollouts)
        print(
            f"bus      strong   {players:2d}   {game['seconds']:8.2f} s a game, "
            f"{game['search_seconds'] / game['decisions'] * 1e3:6.1f} ms a decision of the "
            f"strong bot ({game['decisions']} in the game, forced ones included)",
            flush=True,
        )


def strong_game(seed: int, players: int, rollouts: int) -> dict:
    """One game: the strong bot in seat ``seed % players``, the default bot in the others."""
    from referee.bus.engine import RULES

    strong, default = RULES.bot("strong", rollouts), RULES.bot("default")
    seat_of_strong = seed % players
    state = RULES.new_game({}, [f"Bot {i + 1}" for i in range(players)], seed)
    rng = random.Random(seed)
    searching = decisions = 0
    started = time.process_time()
    while due := RULES.awaiting(state):
        seat = due[0].seat
        if seat == seat_of_strong:
            legal = RULES.legal_orders(state, seat)
            clock = time.process_time()
            order = strong(state, seat, rng)
            searching += time.process_time() - clock
            decisions += 1
            assert order in legal, "the strong bot gave an illegal order"
        else:
            order = default(state, seat, rng)
        state, _ = RULES.apply(state, seat, order)
    result = RULES.result(state)
    assert result is not None
    first = result.ranking[0]
    return {
        "seat": seat_of_strong,
        "share": 1 / len(first) if seat_of_strong in first else 0.0,
        "alone": first == (seat_of_strong,),
        "score": result.scores[seat_of_strong],
        "others": [x for p, x in enumerate(result.scores) if p != seat_of_strong],
        "seconds": time.process_time() - started,
        "search_seconds": searching,
        "decisions": decisions,
    }


def strong_match(
    games: int, players: int, rollouts: int, jobs: int, record: Path | None = None, first: int = 0
) -> None:
    print(
        f"\nThe strong bot at {rollouts} rollouts a decision in one seat, the default bot in "
        f"the other {players - 1}: {games} games of {players} players, {jobs} processes",
        flush=True,
    )
    # every game is a function of its number: games recorded by an earlier run (--record)
    # are taken from the record, and the rest are played and added to it
    done: dict[int, dict] = {}
    if record and record.exists():
        for line in record.read_text().splitlines():
            game = json.loads(line)
            if (game["players"], game["rollouts"]) == (players, rollouts) and game["game"] < games:
                done[game["game"]] = game
        print(f"  {len(done)} games taken from {record}", flush=True)
    todo = [g for g in range(first, games) if g not in done]
    with ProcessPoolExecutor(jobs) as pool:
        futures = {pool.submit(strong_game, g, players, rollouts): g for g in todo}
        for future in as_completed(futures):
            game = {"game": futures[future], "players": players, "rollouts": rollouts}
            game.update(future.result())
            done[game["game"]] = game
            if record:
                with record.open("a") as f:
                    f.write(json.dumps(game) + "\n")
            if len(done) % 10 == 0:
                won = sum(r["share"] for r in done.values()) / len(done)
                print(f"  after {len(done)} games: won {won:.1%}", flush=True)
    results = list(done.values())
    games = len(results)
    share = sum(r["share"] for r in results) / games
    alone = sum(r["alone"] for r in results) / games
    margin = 1.96 * math.sqrt(share * (1 - share) / games)
    default_share = (1 - share) / (players - 1)
    mean_strong = sum(r["score"] for r in results) / games
    mean_default = sum(sum(r["others"]) for r in results) / (games * (players - 1))
    decisions = sum(r["decisions"] for r in results)
    print(
        f"  over {games} games the strong bot wins {share:.1%} (+-{margin:.1%} at 95%; "
        f"alone {alone:.1%}); "
        f"a default seat {default_share:.1%}; by chance {1 / players:.0%}"
    )
    print(f"  mean final score: strong {mean_strong:.2f}, default {mean_default:.2f}")
    print(
        f"  CPU: {sum(r['seconds'] for r in results) / games:.2f} s a game, "
        f"{sum(r['search_seconds'] for r in results) / decisions * 1e3:.0f} ms a decision of "
        f"the strong bot ({decisions / games:.0f} a game, forced ones included)"
    )


def busboss_strong(games: int) -> None:
    """The strong Bus Boss bot in one seat of four, the default bot in the others, the seats
    rotating (``referee simulate``'s figures)."""
    from referee.busboss.engine import RULES
    from referee.simulate import simulate

    seats = ["strong", "default", "default", "default"]
    print(f"\nBus Boss: {games} four-player games, seats {','.join(seats)} rotating", flush=True)
    report = simulate(RULES, 4, games, 1, seats=seats)
    for name, figures in report["bots"].items():
        low, high = figures["wilson95"]
        print(
            f"  {name:8s} {figures['win_share']:6.1%} of the wins (95% {low:.1%}-{high:.1%}), "
            f"mean score {figures['mean_score']:.1f}, "
            f"{figures['cpu_ms_per_decision']:.2f} ms CPU a decision"
        )
    strong = report["bots"]["strong"]
    print(
        f"  goal: the strong bot wins at least {BUSBOSS_STRONG_GOAL:.0%} "
        f"({'met' if strong['win_share'] >= BUSBOSS_STRONG_GOAL else 'not met'}), at most "
        f"500 ms a decision ({'met' if strong['cpu_ms_per_decision'] <= 500 else 'not met'}); "
        f"{report['illegal']} illegal orders"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--base", default="6fe1b64", help="the commit to compare against")
    parser.add_argument("--games", type=int, default=100, help="Bus games per speed figure")
    parser.add_argument("--repeats", type=int, default=3, help="runs of each speed figure")
    parser.add_argument(
        "--instruction-games", type=int, default=10, help="games counted under valgrind (0: none)"
    )
    parser.add_argument("--strong-games", type=int, default=400)
    parser.add_argument("--strong-players", type=int, default=4)
    parser.add_argument("--rollouts", type=int, default=200)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument(
        "--record", type=Path, help="a file of finished strong games: resumes a run cut short"
    )
    parser.add_argument(
        "--first", type=int, default=0, help="play strong games from this number on (--record)"
    )
    parser.add_argument(
        "--busboss-strong-games", type=int, default=200, help="Bus Boss strong bot games (0: none)"
    )
    parser.add_argument("--measure", help=argparse.SUPPRESS)  # a measuring process's job
    args = parser.parse_args()
    if args.measure:
        print(json.dumps(measure(*json.loads(args.measure))))
        return
    sys.path.insert(0, str(ROOT))  # this tree's referee, whatever is installed
    if args.games or args.instruction_games:  # (--games 0: the instruction counts alone)
        with tempfile.TemporaryDirectory() as folder:
            base = base_tree(args.base, Path(folder))
            if args.games:
                speed(base, args.base, args.games, args.repeats)
            if args.instruction_games:
                instruction_speed(base, args.instruction_games)
    if args.games:
        strong_speed(args.rollouts)
    if args.busboss_strong_games:
        busboss_strong(args.busboss_strong_games)
    if args.strong_games:
        strong_match(
            args.strong_games,
            args.strong_players,
            args.rollouts,
            args.jobs,
            args.record,
            args.first,
        )


if __name__ == "__main__":
    main()
