"""The `referee` command's click group and subcommands: thin wrappers that parse options,
call the library and print (``cli.main`` hands every command line here but an idle tick's)."""

from __future__ import annotations

import contextlib
import json
import os
import sys
import time
from datetime import UTC
from pathlib import Path
from typing import get_args

import click

from . import registry
from .contract import MapFiles, MissedOrderRule, PlayFigures
from .files import StateDamaged
from .mail.inbox import InboxError
from .settings.checks import Language
from .settings.deadlines import POLICIES, DeadlineError, Deadlines
from .settings.site import CONFIG_NAME, ConfigError, write_default_config
from .simulate import simulate as run_simulation
from .store.campaign import CampaignError, Status, check_id
from .store.names import TICK_LOCK, TURNS
from .store.rest import LockBusy, TickLock, forget
from .ticking import EX_SOME_FAILED, SiteUnusable, log_handler, run_tick, site_at


class Failure(click.ClickException):
    """A user's mistake: printed as 'Error: ...' with exit code 1, never a traceback."""


class GameName(click.ParamType):
    """A game of the registry as it is when the command runs (a game registered after this
    module was imported can be chosen too), so the list is read at conversion, not fixed."""

    name = "game"

    def get_metavar(self, param: click.Parameter, ctx: click.Context) -> str:
        return "[" + "|".join(registry.names()) + "]"

    def convert(self, value: object, param: click.Parameter | None, ctx: click.Context | None):
        if value in registry.names():
            return value
        names = ", ".join(repr(name) for name in registry.names())
        self.fail(f"{value!r} is not one of {names}.", param, ctx)


def open_site(ctx: click.Context):
    try:
        return site_at(ctx.obj["config"])
    except SiteUnusable as err:
        raise Failure(str(err)) from None


def unwritable(what: str, err: OSError) -> Failure:
    """A command's files that could not be written (``what``: where), and why."""
    return Failure(f"cannot write {what}: {err.strerror} ({err.filename})")


def send_queued(site) -> int:
    """Send the queued mail, as a tick would; the number sent. A sender that cannot be made
    (its password's variable unset) leaves the mail queued, and the command done, said so."""
    try:
        return len(site.outbox.flush(site.config.make_sender()).sent)
    except ConfigError as err:
        click.echo(f"mail not sent: {err}; it stays queued for the next tick", err=True)
        return 0


LOCK_WAIT = 300.0  # seconds a writing command waits for a running tick to end


@contextlib.contextmanager
def writing(site):
    """A command that writes holds the tick lock, as a tick does (a tick flushing the queue
    moves the files a command would queue beside), waiting for a running tick to end."""
    give_up = time.monotonic() + LOCK_WAIT
    told = False
    while True:
        try:
            with TickLock(site.state_dir / TICK_LOCK):
                forget(site.state_dir)  # what it writes is for the next tick to look at
                yield
            return
        except LockBusy as err:
            if not told:
                who = f"pid {err.pid}, since {err.since}" if err.pid else "just starting"
                click.echo(
                    f"a tick is running ({who}): waiting for it to end, "
                    f"at most {LOCK_WAIT:g} seconds",
                    err=True,
                )
                told = True
            if time.monotonic() > give_up:
                raise Failure(
                    f"the tick still runs after {LOCK_WAIT:g} seconds: the command did "
                    "nothing; run it again when the tick has ended"
                ) from None
            time.sleep(0.2)


@click.group()
@click.version_option(package_name="referee")
@click.option(
    "--config",
    "config",
    type=click.Path(dir_okay=False, path_type=Path),
    default=lambda: os.environ.get("REFEREE_CONFIG", CONFIG_NAME),
    show_default=f"$REFEREE_CONFIG or ./{CONFIG_NAME}",
    help="the site configuration",
)
@click.option(
    "-v",
    "--verbose",
    count=True,
    help="tell on stderr what happens: -v each mail and campaign, -vv the details",
)
@click.option("-q", "--quiet", is_flag=True, help="tell only errors on stderr, not warnings")
@click.pass_context
def main(ctx: click.Context, config: Path, verbose: int, quiet: bool) -> None:
    """A play-by-email referee for Bus and Bus Boss."""
    ctx.obj = {"config": config}
    ctx.with_resource(log_handler(verbose, quiet))


@main.command()
@click.argument("directory", type=click.Path(file_okay=False, path_type=Path), default=".")
def init(directory: Path) -> None:
    """Write a working referee.yaml in DIRECTORY on the embedded default (local Maildirs)."""
    try:
        path = write_default_config(directory)
    except ConfigError as err:
        raise Failure(str(err)) from None
    except OSError as err:
        raise unwritable(f"the site in {directory}", err) from None
    click.echo(
        f"wrote {path}; incoming mail goes to {directory / 'mail/inbox'}, "
        f"outgoing mail to {directory / 'mail/outbox'}"
    )


@main.command()
@click.argument("game", type=GameName())
@click.argument("campaign_id", metavar="ID")
@click.option(
    "--player", "players", multiple=True, help='"Name <address>", once per player, in seat order'
)
@click.option(
    "--open",
    "seats",
    type=int,
    help="open for sign-up by mail: the game starts when this many have joined",
)
@click.option("--gm", help='the game master, "Name <address>": commands by mail')
@click.option(
    "--seed", type=int, help="for a game that can be replayed exactly; random if not given"
)
@click.option(
    "--option",
    "options",
    multiple=True,
    metavar="KEY=VALUE",
    help="a game option, e.g. edition=1999",
)
@click.option("--hours", type=float, help="deadline: hours for each decision")
@click.option("--times", help="deadline: times of day instead, e.g. 08:00,20:00")
@click.option("--weekdays-only", is_flag=True, help="deadlines count weekdays only")
@click.option("--grace", type=float, help="minutes after a deadline before the policy applies")
@click.option("--timezone", help="the campaign's time zone, e.g. Europe/London")
@click.option(
    "--policy",
    type=click.Choice(POLICIES),
    help="a missed deadline: wait for the game master, let the bot decide, or "
    "the game's own rules for a missed order, where it has them",
)
@click.option(
    "--bot",
    help="the bot for dropped seats and missed deadlines (default: the game's default bot; "
    "Bus: strong searches)",
)
@click.option(
    "--rollouts", type=click.IntRange(min=1), help="a searching bot's rollouts per decision"
)
@click.option(
    "--language",
    type=click.Choice(get_args(Language)),
    help="the players' mail's language (else the site's); a player's own choice comes first",
)
@click.pass_context
def new(
    ctx,
    game,
    campaign_id,
    players,
    seats,
    gm,
    seed,
    options,
    hours,
    times,
    weekdays_only,
    grace,
    timezone,
    policy,
    bot,
    rollouts,
    language,
) -> None:
    """Create campaign ID of GAME and mail every player a welcome with their token."""
    parsed = {}
    for option in options:
        key, sep, value = option.partition("=")
        if not sep or not key:
            raise click.BadParameter(f"{option!r}: write KEY=VALUE", param_hint="--option")
        parsed[key.strip()] = value.strip()
    if not players and seats is None:
        raise click.UsageError(
            "name the players (--player, once each) or open the game for sign-up (--open N)"
        )
    if hours is not None and times:
        raise click.UsageError(
            "a deadline is hours after each decision or times of day: give --hours or "
            "--times, not both"
        )
    deadlines = {
        k: v
        for k, v in {
            "hours": hours,
            "times": times.split(",") if times else None,
            "weekdays_only": weekdays_only or None,
            "grace_minutes": grace,
            "timezone": timezone,
            "policy": policy,
        }.items()
        if v is not None
    }
    try:
        Deadlines.from_settings(deadlines)
    except DeadlineError as err:
        raise Failure(str(err)) from None
    descriptor = registry.get(game)
    if policy == "rules" and not descriptor.offers(MissedOrderRule):
        raise click.BadParameter(
            f"{descriptor.rules.title} has no rules of its own for a missed order: "
            "choose wait or bot",
            param_hint="--policy",
        )
    settings: dict = {"deadlines": deadlines} if deadlines else {}
    if bot or rollouts:
        try:
            descriptor.rules.bot(bot or "default", rollouts)
        except ValueError as err:
            raise click.BadParameter(str(err), param_hint="--bot") from None
        settings["bot"] = {"name": bot or "default", **({"rollouts": rollouts} if rollouts else {})}
    if language:
        settings["language"] = language
    site = open_site(ctx)
    with writing(site):
        try:
            campaign = site.new_campaign(
                game,
                campaign_id,
                list(players),
                seed,
                parsed,
                seats,
                gm,
                settings or None,
            )
        except CampaignError as err:
            raise Failure(str(err)) from None
        sent = send_queued(site)
    who = ", ".join(p.name for p in campaign.players) or "nobody yet"
    state = f"open for sign-up ({seats} seats)" if campaign.status == Status.OPEN else "running"
    click.echo(
        f"campaign {campaign_id}: {campaign.rules.title} for {who}, {state}, in {campaign.root}"
    )
    click.echo(f"mail: {sent} sent, {len(site.outbox.pending())} queued")


class GameMasterCommand(click.Command):
    """`referee gm`, whose help lists the game master's commands from their registry (read
    when the help is asked for, so that the command line starts without it)."""

    def format_help_text(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        from .service.commands import help_lines

        super().format_help_text(ctx, formatter)
        with formatter.section("Game master's commands"):
            formatter.write_dl(help_lines(gm=True))


@main.command(cls=GameMasterCommand)
@click.argument("campaign_id", metavar="ID")
@click.argument("command", nargs=-1, required=True)
@click.pass_context
def gm(ctx, campaign_id, command) -> None:
    """Run a game master's COMMAND on campaign ID, as if it came by mail with their token
    (logged, and told to everyone it concerns)."""
    from datetime import datetime

    from .service.commands import CommandError
    from .service.work import run_as_gm
    from .words.history import NoSuchTurn

    line = " ".join(command).strip()
    if not line:
        raise click.UsageError("give a command; `referee gm --help` lists them")
    site = open_site(ctx)
    with writing(site):
        try:
            actions = run_as_gm(site, campaign_id, line, datetime.now(UTC))
        except (CampaignError, CommandError) as err:
            raise Failure(str(err)) from None
        except StateDamaged as err:
            raise Failure(f"{err}; nothing was changed: run the command again") from None
        sent = send_queued(site)
    failed = False
    for action in actions:
        if action.refused:
            failed = True
            click.echo(f"refused: {action.answer('')}")
            continue
        click.echo(action.answer(""))
        try:
            click.echo(asked_text(site, campaign_id, action), nl=False)
        except NoSuchTurn as err:
            failed = True
            click.echo(f"refused: {err}")
    click.echo(f"mail: {sent} sent, {len(site.outbox.pending())} queued")
    if failed:
        sys.exit(1)


def asked_text(site, campaign_id: str, action) -> str:
    """What `help` and `history` say is below (a mail's answer carries it; the command
    line's game master reads it here); nothing for any other command."""
    from .words.history import history_text
    from .words.render import help_text

    if action.wants == "help":
        return help_text(site.campaign(campaign_id).game) + "\n"
    if action.wants == "history":
        return history_text(started_table(site, campaign_id), action.turn)
    return ""


@main.command()
@click.argument("campaign_id", metavar="[ID]", required=False)
@click.option("--json", "as_json", is_flag=True)
@click.pass_context
def status(ctx, campaign_id, as_json) -> None:
    """The state of one campaign or of all; with --json, of the site too: its last tick and
    its mail waiting and failing, for a monitoring system (see README)."""
    from datetime import datetime

    from .service.health import Summaries, site_status

    site = open_site(ctx)
    summaries = Summaries(site)
    rows: list[dict] = []
    if campaign_id:
        try:
            rows = [summaries.of(check_id(campaign_id))]
        except CampaignError as err:
            raise Failure(str(err)) from None
    elif not as_json:  # one campaign that cannot be read does not hide the others
        rows = [summary_or_damage(summaries.of, each) for each in site.campaign_ids()]
    if as_json and campaign_id:
        click.echo(json.dumps(rows[0], indent=1))
    elif as_json:
        now = datetime.now(UTC)

        def read(each: str) -> str:
            rows.append(summary_or_damage(summaries.read, each))
            return json.dumps(rows[-1])

        click.echo(site_status(site.state_dir, site.config.queue_dir, site.data_root, now, read))
    elif not rows:
        click.echo("no campaigns yet: create one with `referee new`")
    for row in [] if as_json else rows:
        if "error" in row:
            click.echo(f"{row['id']:20s} unreadable: {row['error']}")
            continue
        if row["state"] == "open":
            joined = ", ".join(row["joined"])
            click.echo(
                f"{row['id']:20s} {row['game']:8s} {row['state']:9s} sign-up: "
                f"{len(row['joined'])} of {row['seats']} seats taken"
                + (f" ({joined})" if joined else "")
            )
            continue
        waiting = "; ".join(f"{a['player']} ({a['decision']})" for a in row["awaiting"])
        scores = ", ".join(f"{n} {s}" for n, s in row["scores"].items())
        click.echo(
            f"{row['id']:20s} {row['game']:8s} {row['state']:9s} round {row['round']:<3d}"
            f" waiting for: {waiting or '-'}   scores: {scores}"
        )
    broken = [row["id"] for row in rows if "error" in row]
    if broken:
        raise Failure(
            f"{len(broken)} campaign(s) could not be read ({', '.join(broken)}): "
            f"`referee verify {site.data_root / broken[0]}` shows what is damaged"
            + (", and so for each of the others" if len(broken) > 1 else "")
        )


def summary_or_damage(summary, campaign_id: str) -> dict:
    """``summary(campaign_id)``, or what `status` tells of a campaign that cannot be read:
    any damage is reported, not raised."""
    try:
        return summary(campaign_id)
    except Exception as err:
        return {"id": campaign_id, "state": "unreadable", "error": str(err)}


def started_table(site, campaign_id: str):
    """The game of a campaign that has one (a campaign open for sign-up has none yet)."""
    try:
        campaign = site.campaign(campaign_id)
        if campaign.status == Status.OPEN:
            raise Failure(
                f"campaign {campaign_id} is open for sign-up ({len(campaign.players)} of "
                f"{campaign.seats} seats taken): there is no game yet; it starts when every "
                f"seat is taken, or with `referee gm {campaign_id} start` once "
                f"{campaign.rules.min_players} have joined"
            )
        return campaign.table()
    except CampaignError as err:
        raise Failure(str(err)) from None


@main.command()
@click.argument("campaign_id", metavar="ID")
@click.option("--player", help="show the game as this player's report shows it")
@click.option(
    "--png",
    "png",
    type=click.Path(dir_okay=False, path_type=Path),
    help="also write the PNG map to this file",
)
@click.pass_context
def show(ctx, campaign_id, player, png) -> None:
    """Print the map, the scores and what the game waits for."""
    from . import maps
    from .words.mails import position_text

    site = open_site(ctx)
    table = started_table(site, campaign_id)
    seat = None
    if player is not None:
        seat = table.campaign.seat_of_name(player)
        if seat is None:
            raise Failure(
                f"no player {player!r} in {campaign_id}; the players are "
                + ", ".join(p.name for p in table.campaign.players)
            )
    click.echo(position_text(table, seat), nl=False)
    if png:
        picture = maps.png_map(table.view())
        if picture is None:
            raise Failure(f"{table.rules.title} has no PNG map; the text map is above")
        try:
            png.write_bytes(picture)
        except OSError as err:
            raise Failure(f"cannot write {png}: {err.strerror}") from None
        click.echo(f"wrote {png}")


@main.command()
@click.argument("campaign_id", metavar="ID")
@click.pass_context
def replay(ctx, campaign_id) -> None:
    """Rebuild a campaign's game from its log alone, each order applied as the rules allow
    (`referee verify` checks the log's hash chain and turn reports as well)."""
    site = open_site(ctx)
    table = started_table(site, campaign_id)
    undone = len(table.undone)
    result = table.rules.result(table.state)
    click.echo(
        f"{campaign_id}: {len(table.steps)} log records, "
        f"{table.orders_replayed} orders replayed"
        + (f" ({undone} undone by rollbacks, not replayed)" if undone else "")
        + f", round {table.round}, "
        + (f"finished: {result.reason}" if result else "in play")
    )
    for step in table.steps:
        for e in step.events:
            click.echo(f"  [{step.record.n}] {e}")


@main.command()
@click.option("--no-servers", is_flag=True, help="do not log in to the mail servers")
@click.pass_context
def check(ctx, no_servers: bool) -> None:
    """Check referee.yaml, every campaign (its settings and its log) and the logins to the
    mail servers; exit 1 when anything is wrong, saying what and how to mend it."""
    from .service.check import check_site

    site = open_site(ctx)  # referee.yaml: every mistake at once, or an error here
    click.echo(f"referee.yaml: ok ({site.config.path})")
    problems = 0
    for what, problem in check_site(site, servers=not no_servers):
        shown = f"ok ({site.config.limits.summary()})" if what == "limits" else "ok"
        click.echo(f"{what}: {problem or shown}")
        problems += problem is not None
    if problems:
        raise Failure(f"{problems} problem(s) found")


@main.command()
@click.pass_context
def tick(ctx) -> None:
    """One pass: read new mail, apply orders, resolve, answer and send (run it from cron).

    Exits 0 when all went well, 3 when the tick ran but some mails or campaigns failed (they
    are told on stderr, kept and summarised for the game masters), 1 when it could not run,
    75 when another tick is running."""
    status = run_tick(ctx.obj["config"])
    if status:
        sys.exit(status)


@main.command()
@click.pass_context
def retry(ctx) -> None:
    """Take the mails kept in state/quarantine/ again, once what stopped them is mended (a
    campaign's settings, a fault fixed by an upgrade): each is applied once, answered and
    sent as a tick would; one already applied is not applied again.

    Exits 0 when no mail is left failing, 3 when some still fail (each told on stderr)."""
    from datetime import datetime

    from .service.retry import retry as run_retry

    site = open_site(ctx)
    with writing(site):
        try:
            report, kept = run_retry(site, datetime.now(UTC))
        except (ConfigError, InboxError) as err:
            raise Failure(str(err)) from None
    still = 0
    for mail in kept:
        name = mail.message_id or mail.path.name
        if mail.too_large:
            click.echo(f"{name}: not taken again: {mail.before}")
        elif mail.message_id is None:
            click.echo(f"{name}: not recorded yet; the next tick takes it from the inbox")
        elif mail.after is not None and not mail.retried:
            click.echo(f"{name}: {mail.after} (taken before; moved to quarantine/retried)")
        elif mail.after is not None and mail.after != mail.before:
            click.echo(f"{name}: {mail.after}")
        else:
            still += 1
            click.echo(f"{name}: still failing")
    click.echo(
        f"quarantine: {len(kept)} mail(s), {still} still failing; "
        f"mail: {report.sent} sent, {report.waiting} queued"
    )
    if report.errors:
        for error in report.errors:
            click.echo(f"referee retry: {error}", err=True)
    if still or report.errors:
        sys.exit(EX_SOME_FAILED)


@main.command()
@click.option(
    "--dir",
    "directory",
    type=click.Path(file_okay=False, path_type=Path),
    default="demo",
    show_default=True,
    help="the demo site's folder",
)
@click.option("--seed", type=int, default=1, show_default=True)
@click.option("--game", type=GameName(), default=registry.names()[0], show_default=True)
@click.option(
    "--language",
    type=click.Choice(get_args(Language)),
    help="the language the robot players read their mail in (else the site's)",
)
def demo(directory: Path, seed: int, game: str, language: str | None) -> None:
    """Play a 4-player game by mail with robot players on local Maildirs."""
    from .demo import PLAYERS, MailCount, run_demo

    click.echo(
        f"A demo site in {directory}: four robot players read the referee's mail and "
        f"answer it by mail; a tick runs after each round of answers."
    )
    try:
        settings = {"language": language} if language else None
        result = run_demo(directory, seed, progress=click.echo, game=game, settings=settings)
    except ConfigError as err:
        raise Failure(str(err)) from None
    except OSError as err:
        raise unwritable(f"the site in {directory}", err) from None
    campaign = result.campaign
    table = campaign.table()
    click.echo(
        f"\n{'The game ended' if result.finished else 'The demo stopped'} after "
        f"{result.ticks} ticks: {result.replies} orders sent by mail, "
        f"{result.mails_read} mails read by the players."
    )
    measure = table.descriptor.measure
    click.echo(
        "Final scores: " + ", ".join(f"{p['name']} {p[measure]}" for p in table.view()["players"])
    )
    click.echo("Mail each player received (mails, bytes, the largest, the widest text line):")
    for name, address in PLAYERS:
        c = result.counts.get(address, MailCount())
        click.echo(
            f"  {name:<5} {c.mails:4d} mails {c.bytes / 1e6:6.2f} MB  largest "
            f"{c.largest / 1e3:5.0f} KB  widest {c.widest} columns"
        )
    if result.earlier:
        click.echo(
            f"  (this game's mail alone: the {result.earlier} earlier demo(s) in {directory} "
            "are kept beside it, with their mail)"
        )
    click.echo(f"\nCampaign folder: {campaign.root}")
    click.echo(f"  turn reports and maps: {campaign.root / TURNS}")
    click.echo(f"  the order log:         {campaign.log_path}")
    click.echo(f"  mail sent to players:  {campaign.root / 'mail' / 'out'}")
    click.echo(f"  players' mailbox:      {directory / 'mail' / 'outbox'}")
    if not result.finished:
        sys.exit(1)


@main.command()
@click.argument("game", type=GameName())
@click.option(
    "--players", "-p", type=int, default=4, show_default=True, help="(or as many as --seats)"
)
@click.option("--games", "-g", "count", type=click.IntRange(min=1), default=100, show_default=True)
@click.option("--seed", "-s", type=int, default=1, show_default=True)
@click.option(
    "--bot",
    default="default",
    show_default=True,
    help="default plays sensibly; random picks uniformly among legal choices; "
    "strong plays to win (Bus: it searches)",
)
@click.option(
    "--seats",
    help="one bot a seat, e.g. strong,default,default,default: the seats rotate from game "
    "to game, so every seat plays each bot, and the figures are given by bot as well as "
    "by seat",
)
@click.option(
    "--rollouts",
    type=click.IntRange(min=1),
    help="a searching bot's budget: rollouts per decision (the Bus strong bot: 100)",
)
@click.option("--json", "as_json", is_flag=True, help="print one JSON object")
@click.pass_context
def simulate(
    ctx: click.Context,
    game: str,
    players: int,
    count: int,
    seed: int,
    bot: str,
    seats: str | None,
    rollouts: int | None,
    as_json: bool,
) -> None:
    """Play bot-against-bot games of GAME and report what happened."""
    descriptor = registry.get(game)
    rules = descriptor.rules
    bots = [name.strip() for name in seats.split(",")] if seats else None
    if bots is not None:
        given = ctx.get_parameter_source("players") == click.core.ParameterSource.COMMANDLINE
        if given and players != len(bots):
            raise click.BadParameter(
                f"--seats names {len(bots)} bots for {players} players", param_hint="--seats"
            )
        players = len(bots)
    if not rules.min_players <= players <= rules.max_players:
        raise click.BadParameter(
            f"{rules.title} is for {rules.min_players} to {rules.max_players} players",
            param_hint="--seats" if bots else "--players",
        )
    for name in bots or [bot]:
        try:
            rules.bot(name, rollouts)
        except ValueError as err:
            raise click.BadParameter(str(err), param_hint="--seats" if bots else "--bot") from None
    own = descriptor.offers(PlayFigures)
    figures = own.figures if own else None
    with click.progressbar(
        length=count, label=f"{rules.title} games", file=sys.stderr, hidden=not sys.stderr.isatty()
    ) as bar:
        report = run_simulation(
            rules, players, count, seed, bot, bar.update, rollouts, bots, figures
        )
    if as_json:
        click.echo(json.dumps(report))
        return
    who = f"seats {','.join(bots)}, rotating" if bots else f"bot {bot}"
    click.echo(
        f"{report['finished']} of {report['games']} games of {rules.title} finished "
        f"in {report['seconds']} s ({players} players, {who}"
        f"{f' at {rollouts} rollouts a decision' if rollouts else ''}, seed {seed})"
    )
    click.echo(
        f"mean rounds {report['mean_rounds']}, mean score {report['mean_score']}, "
        f"{report['decisions']} decisions, {report['illegal']} illegal"
    )
    for reason, n in report["end_reasons"].items():
        click.echo(f"  {n:5d}  {reason}")
    for name, figures in report.get("bots", {}).items():
        click.echo(
            f"{name}: {figures['games']} seat-games, {played_figures(figures)}, "
            f"{figures['cpu_ms_per_decision']} ms CPU a decision{own_figures(figures)}"
        )
    for figures in report["seats"]:
        click.echo(
            f"{ordinal(figures['seat'] + 1)} to play ({figures['bot']}): {figures['games']} games, "
            f"{played_figures(figures)}{own_figures(figures)}"
        )


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th ... (a place in the order of play: six at most)."""
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(n, f"{n}th")


def played_figures(figures: dict) -> str:
    """A bot's or a seat's wins and mean score, as simulate prints them."""
    low, high = figures["wilson95"]
    return (
        f"wins {figures['win_share']:.1%} (95% {low:.1%}-{high:.1%}), "
        f"mean score {figures['mean_score']}"
    )


def own_figures(figures: dict) -> str:
    """The game's own figures (PlayFigures) of a bot or a seat, after those of every game."""
    return "".join(
        f", {figure.replace('_', ' ')} {n}"
        for figure, n in figures.items()
        if figure not in COMMON_FIGURES
    )


# the figures simulate gives every bot and seat; a game's own (PlayFigures) follow them
COMMON_FIGURES = (
    "seat",
    "bot",
    "games",
    "win_share",
    "wilson95",
    "mean_score",
    "cpu_ms_per_decision",
    "decisions",
)


@main.group(name="map")
def map_file() -> None:
    """A map of your own, for the game that plays on map files (a campaign plays it with
    --option map=FILE): check it and see it before the players do. README shows how to
    write one."""


def map_files():
    """What the game that plays on map files does with them."""
    [files] = [found for name in registry.names() if (found := registry.get(name).offers(MapFiles))]
    return files


@map_file.command(name="check")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
def map_check(file: Path) -> None:
    """Check FILE: every problem at once, each with its line (exit 1), or a summary."""
    try:
        click.echo(map_files().check(file))
    except ValueError as err:
        raise Failure(str(err)) from None


@map_file.command(name="preview")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.option(
    "--png",
    type=click.Path(dir_okay=False, path_type=Path),
    help="also draw the map in this PNG file",
)
def map_preview(file: Path, png: Path | None) -> None:
    """Print FILE's map as the players' text map shows it (and draw it with --png)."""
    try:
        text, picture = map_files().preview(file)
    except ValueError as err:
        raise Failure(str(err)) from None
    click.echo(text, nl=False)
    if png:
        try:
            png.write_bytes(picture)
        except OSError as err:
            raise unwritable(str(png), err) from None
        click.echo(f"wrote {png}")


@main.command()
@click.argument("campaign_id", metavar="ID")
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    help="where to write the site  [default: the campaign's archive/ folder]",
)
@click.pass_context
def archive(ctx, campaign_id, out) -> None:
    """Write campaign ID as a static web site that opens from the file system."""
    from .service.archive import write_archive

    site = open_site(ctx)
    table = started_table(site, campaign_id)
    out = out or table.campaign.root / "archive"
    try:
        files = write_archive(table, out)
    except OSError as err:
        raise unwritable(f"the archive to {out}", err) from None
    click.echo(f"wrote {len(files)} files to {out}; open {out / 'index.html'} in a browser")


def campaign_folder(ctx: click.Context, name: str) -> Path:
    """The folder of the site's campaign ``name``, read or not (verify tells what is wrong
    with a campaign that cannot be read)."""
    try:
        site = open_site(ctx)
    except Failure:
        raise Failure(f"no campaign folder {name}") from None
    if not site.has_campaign(name):
        known = ", ".join(site.campaign_ids()) or "none yet"
        raise Failure(f"no campaign folder {name}, and no campaign {name!r} (campaigns: {known})")
    return site.data_root / name


@main.command()
@click.argument("directory", metavar="DIRECTORY|ID", type=click.Path(path_type=Path))
@click.pass_context
def verify(ctx, directory: Path) -> None:
    """Check the campaign in DIRECTORY (or the site's campaign ID): its seed against the
    published seed hash, the hash chain of its log, the replay of every order, and its turn
    reports against the replay."""
    from .service.verify import verify as run_verify

    if not directory.is_dir():  # no such folder: a campaign of the site, by its id
        directory = campaign_folder(ctx, str(directory))
    report = run_verify(directory)
    click.echo(report.summary())
    if not report.ok:
        sys.exit(1)
