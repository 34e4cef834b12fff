"""`referee tick` as cron runs it every minute: without click, and, for a site at rest
(``store.rest``), with nothing but the lock and the note of what the site waits for, so
that such a tick costs little more than starting Python. ``cli.main`` takes this way for
the command lines it knows (``referee [--config PATH] [-v|-q] tick``); ``console`` runs the
same ``run_tick`` for any other spelling, and shares the site's opening and the logging."""

from __future__ import annotations

import os
import sys
import time

from .service.report import TickReport
from .settings.names import CONFIG_NAME, STATE_FOLDER
from .store.names import TICK_LOCK
from .store.rest import LockBusy, TickLock, at_rest, rested

TYPE_CHECKING = False  # typing is not imported at rest: mypy reads this name as its own
if TYPE_CHECKING:
    from pathlib import Path

    from .service.site import Site

EX_TEMPFAIL = 75  # sysexits: try again later (another tick holds the lock)
EX_SOME_FAILED = 3  # the tick ran, but some mails or campaigns failed (each told on stderr)
# the tick could not run at all (config, inbox, a crash): 1, as every other failure
LOG_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"

# A tick at rest (``store.rest``) ends before anything below is imported: the settings'
# loader and YAML, the site, logging, JSON. Each function that needs them imports them.


class SiteUnusable(Exception):
    """The site's configuration is missing or wrong: the message says what to do."""


def site_at(path: Path) -> Site:
    from .service.site import Site
    from .settings.site import ConfigError, load_config

    try:
        config = load_config(path)
    except FileNotFoundError:
        raise SiteUnusable(
            f"no site configuration at {path}: run `referee init` in the site's "
            f"folder, or give --config PATH (or set REFEREE_CONFIG)"
        ) from None
    except ConfigError as err:
        raise SiteUnusable(str(err)) from None
    try:
        return Site(config)
    except OSError as err:  # a folder the site keeps that cannot be made (a file there)
        raise SiteUnusable(
            f"cannot use {err.filename} as a folder of the site ({err.strerror}): "
            f"mend the paths in {path}, or move what is in the way"
        ) from None


def run_tick(config: Path) -> int:
    """One tick of the site ``config`` names, told on stdout (and its errors on stderr);
    the exit status: 0 when all went well, EX_SOME_FAILED when some mails or campaigns
    failed, 1 when the tick could not run, EX_TEMPFAIL when another tick is running."""
    from .mail.inbox import InboxError
    from .service.tick import tick
    from .settings.site import ConfigError

    try:
        report = tick(site_at(config))
    except LockBusy as err:
        print(f"referee tick: {err}", file=sys.stderr)
        return EX_TEMPFAIL
    except (SiteUnusable, ConfigError, InboxError) as err:  # the inbox is read again next tick
        print(f"Error: {err}", file=sys.stderr)  # as click tells a user's mistake
        return 1
    print(report.summary())
    for error in report.errors:
        print(f"referee tick: {error}", file=sys.stderr)
    return EX_SOME_FAILED if report.errors else 0


class log_handler:  # (named as the function it was: ``with log_handler(...):``)
    """The referee's loggers write to stderr while a command runs (warnings; -v: what
    became of each mail and campaign; -vv: the details; -q: errors only), stamped in UTC
    as the cron log is. The handler goes on the package's logger, not the root: the
    libraries below stay quiet (imapclient logs the IMAP conversation at DEBUG), and it
    goes when the command ends, so a next command in the same process (a test) logs to its
    own stderr."""

    def __init__(self, verbose: int, quiet: bool):
        import logging

        levels = [logging.WARNING, logging.INFO, logging.DEBUG]
        formatter = logging.Formatter(LOG_FORMAT, datefmt="%Y-%m-%dT%H:%M:%SZ")
        formatter.converter = time.gmtime
        self.handler = logging.StreamHandler(sys.stderr)
        self.handler.setFormatter(formatter)
        self.package = logging.getLogger("referee")
        self.level = logging.ERROR if quiet else levels[min(verbose, 2)]

    def __enter__(self) -> None:
        self.package.addHandler(self.handler)
        self.package.setLevel(self.level)

    def __exit__(self, *exc: object) -> None:
        self.package.removeHandler(self.handler)
        self.package.setLevel(0)  # NOTSET


def rest_tick(config: str) -> int | None:
    """The exit status of a tick of the site ``config`` names when it is at rest (told as
    every tick is), or of one that finds another running; None when a tick must look."""
    state_dir = os.path.join(os.path.dirname(os.path.abspath(config)), STATE_FOLDER)
    try:
        with TickLock(os.path.join(state_dir, TICK_LOCK)):
            now = time.time()
            kept = at_rest(state_dir, now, inbox=True)
            if kept is None:
                return None
            rested(state_dir, now, kept["waiting"])
    except LockBusy as err:
        print(f"referee tick: {err}", file=sys.stderr)
        return EX_TEMPFAIL
    except OSError:
        return None  # no state folder (yet): the tick says what is wrong
    print(TickReport(waiting=kept["waiting"]).summary())
    return 0


def options(args: list[str], command: str) -> tuple[str, int, bool, list[str]] | None:
    """What ``referee ARGS`` asks of ``command`` run without click: the configuration's path,
    -v's count, -q, and the arguments after the command; None when ARGS hold anything else
    before it (click reads them, with its help and its errors)."""
    config, verbose, quiet = os.environ.get("REFEREE_CONFIG", CONFIG_NAME), 0, False
    rest = list(args)
    while rest and rest[0] != command:
        arg = rest.pop(0)
        if arg in ("-q", "--quiet"):
            quiet = True
        elif arg == "--verbose" or (arg.startswith("-v") and set(arg[1:]) == {"v"}):
            verbose += 1 if arg == "--verbose" else len(arg) - 1
        elif arg == "--config" and rest:
            config = rest.pop(0)
        elif arg.startswith("--config="):
            config = arg.partition("=")[2]
        else:
            return None
    if not rest or not config or os.path.isdir(config):
        return None  # (click says what is wrong with a folder given as the configuration)
    return config, verbose, quiet, rest[1:]


def quick_tick(args: list[str]) -> int | None:
    """The exit status of ``referee ARGS`` when they ask for a plain tick, run here; None
    for any other command line."""
    asked = options(args, "tick")
    if asked is None or asked[3]:
        return None
    config, verbose, quiet, _ = asked
    resting = rest_tick(config) if verbose < 2 else None  # -vv: the details of a look
    if resting is not None:
        return resting
    from pathlib import Path

    with log_handler(verbose, quiet):
        return run_tick(Path(config))
