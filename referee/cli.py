"""The `referee` command: thin wrappers that parse options, call the library and print."""
from __future__ import annotations

import json
import sys

import click

from . import rules as games
from .simulate import simulate as run_simulation


@click.group()
@click.version_option(package_name="referee")
def main() -> None:
    """A play-by-email referee for Bus and Bus Boss."""


@main.command()
@click.argument("game", type=click.Choice(games.names()))
@click.option("--players", "-p", type=int, default=4, show_default=True)
@click.option("--games", "-g", "count", type=click.IntRange(min=1), default=100,
              show_default=True)
@click.option("--seed", "-s", type=int, default=1, show_default=True)
@click.option("--bot", default="default", show_default=True,
              help="default plays sensibly; random picks uniformly among legal choices")
@click.option("--json", "as_json", is_flag=True, help="print one JSON object")
def simulate(game: str, players: int, count: int, seed: int, bot: str, as_json: bool) -> None:
    """Play bot-against-bot games of GAME and report what happened."""
    rules = games.get(game)
    if not rules.min_players <= players <= rules.max_players:
        raise click.BadParameter(f"{rules.title} is for {rules.min_players} to "
                                 f"{rules.max_players} players", param_hint="--players")
    try:
        rules.bot(bot)
    except ValueError as err:
        raise click.BadParameter(str(err), param_hint="--bot") from None
    with click.progressbar(length=count, label=f"{rules.title} games", file=sys.stderr,
                           hidden=not sys.stderr.isatty()) as bar:
        report = run_simulation(rules, players, count, seed, bot, bar.update)
    if as_json:
        click.echo(json.dumps(report))
        return
    click.echo(f"{report['finished']} of {report['games']} games of {rules.title} finished "
               f"in {report['seconds']} s ({players} players, bot {bot}, seed {seed})")
    click.echo(f"mean rounds {report['mean_rounds']}, mean score {report['mean_score']}, "
               f"{report['decisions']} decisions, {report['illegal']} illegal")
    for reason, n in report["end_reasons"].items():
        click.echo(f"  {n:5d}  {reason}")
