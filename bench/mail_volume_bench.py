"""How many mails, and how many bytes, a player gets over a whole 4-player game of Bus and
of Bus Boss (and the largest mail of the game) under each mail setting (`mail each`, `mail
brief`, `mail digest`), against a base commit in the same run (the base has no setting: its
figure is today's, everyone's).

    python3 bench/mail_volume_bench.py [--base 0b9ec9d] [--seed 1] [--hours 1]

Each game is played by the demo's robot players (they answer every prompt at once with the
order asked for and a few planned ahead) on local Maildirs, one tick an hour of a simulated
clock, so that a daily mail comes in its time; in a run with a setting every robot asks for
it with its first answer. The base is checked out into a temporary git worktree and plays by
the same driver (this file, run with PYTHONPATH pointing there).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path

from base_tree import ROOT, checked_out

GAMES = ("bus", "busboss")
SETTINGS = ("each", "brief", "digest")
START = datetime(2026, 11, 2, 8, 0, tzinfo=UTC)


def play(game: str, setting: str, directory: Path, seed: int, hours: float) -> dict:
    """One game played to its end (by the code on the path); per player: mails, bytes, the
    largest mail's bytes."""
    from referee import mailbot
    from referee.demo import GATHER_MINUTES, PLAYERS, Postman, RobotPlayer, mail_counts
    from referee.mail.outbox import MaildirSender, OutMail
    from referee.service.site import Site
    from referee.service.tick import tick
    from referee.settings.site import load_config, write_default_config
    from referee.store.campaign import Status

    site = Site(load_config(write_default_config(directory)))
    site.new_campaign(
        game,
        "g",
        [f"{n} <{a}>" for n, a in PLAYERS],
        seed,
        settings={"gather_minutes": GATHER_MINUTES},
    )
    postman = Postman(site.config.outbox.path)  # before the welcomes
    site.outbox.flush(site.config.make_sender())
    inbox = MaildirSender(site.config.inbox.path)
    robots = [RobotPlayer(s, n, a, site, "g", seed) for s, (n, a) in enumerate(PLAYERS)]
    asked = set()
    now = START
    ticks = 0
    while ticks < 20_000:
        ticks += 1
        post = postman.new_mail()
        for robot in robots:
            answer = mailbot.answer_latest(
                post.get(robot.address, []), robot.name, robot.address, robot.choose
            )
            if answer is not None:  # the setting goes with the first answer
                if setting != "each" and robot.seat not in asked:
                    text = answer.get_body(("plain",)).get_content()
                    answer.set_content(f"mail {setting}\n{text}")
                    asked.add(robot.seat)
                with inbox:
                    inbox.send(OutMail.of(answer))
        report = tick(site, now)
        if report.errors:
            raise RuntimeError("; ".join(report.errors))
        if site.campaign("g").status == Status.FINISHED:
            postman.new_mail()
            break
        now += timedelta(hours=hours)
    else:
        raise RuntimeError(f"{game} under '{setting}' did not end")
    counts = mail_counts(site.config.outbox.path)
    return {
        "days": round((now - START) / timedelta(days=1), 1),
        "ticks": ticks,
        "players": {a: [counts[a].mails, counts[a].bytes, counts[a].largest] for _, a in PLAYERS},
    }


def run(code: Path, game: str, setting: str, directory: Path, seed: int, hours: float) -> dict:
    env = dict(os.environ, PYTHONPATH=str(code))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    out = subprocess.run(
        [sys.executable, __file__, "--play", game, "--setting", setting, "--dir", str(directory)]
        + ["--seed", str(seed), "--hours", str(hours)],
        cwd=code,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )
    return json.loads(out.stdout.splitlines()[-1])


def per_player(result: dict) -> tuple[float, float, float]:
    """Mails and KB a player gets, on average over the four, and the KB of the game's
    largest mail."""
    rows = list(result["players"].values())
    return (
        sum(r[0] for r in rows) / len(rows),
        sum(r[1] for r in rows) / len(rows) / 1024,
        max(r[2] for r in rows) / 1024,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", default="0b9ec9d")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--hours", type=float, default=1.0, help="simulated hours a tick")
    parser.add_argument("--play", choices=GAMES, help=argparse.SUPPRESS)
    parser.add_argument("--setting", choices=SETTINGS, help=argparse.SUPPRESS)
    parser.add_argument("--dir", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.play:  # one game, by the code on PYTHONPATH
        print(json.dumps(play(args.play, args.setting, args.dir, args.seed, args.hours)))
        return
    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        with checked_out(args.base, Path(tmp) / "base") as base:
            for game in GAMES:
                where = Path(tmp) / f"{game}-base"
                results[game, "base"] = run(base, game, "each", where, args.seed, args.hours)
                for setting in SETTINGS:
                    where = Path(tmp) / f"{game}-{setting}"
                    results[game, setting] = run(ROOT, game, setting, where, args.seed, args.hours)
    print(
        f"Mail a player gets over a whole 4-player game (seed {args.seed}, a tick every "
        f"{args.hours:g} h of a simulated clock), on average over the four players:"
    )
    print(
        f"{'game':<9}{'setting':<22}{'mails':>7}{'KB':>9}{'vs base':>17}{'game days':>11}"
        f"{'largest KB':>12}"
    )
    for game in GAMES:
        base_mails, base_kb, _ = per_player(results[game, "base"])
        for setting in ("base", *SETTINGS):
            mails, kb, largest = per_player(results[game, setting])
            label = f"base {args.base}" if setting == "base" else f"mail {setting}"
            versus = "" if setting == "base" else f"{mails / base_mails:6.0%} {kb / base_kb:6.0%}"
            print(
                f"{game:<9}{label:<22}{mails:7.1f}{kb:9.0f}{versus:>17}"
                f"{results[game, setting]['days']:11.1f}{largest:12.0f}"
            )


if __name__ == "__main__":
    main()
