"""`referee tick` as cron runs it every minute: without click, and with only what a tick
with nothing to do needs (the settings, the lock, the inbox and ``state/waits.json``), so
that a site at rest costs little more than starting Python. ``cli.main`` takes this way for
the command lines it knows (``referee [--config PATH] [-v|-q] tick``); ``console`` runs the
same ``run_tick`` for any other spelling, and shares the site's opening and the logging."""

from __future__ import annotations

import contextlib
import logging
import os
import sys
import time
from collections.abc import Iterator
from pathlib import Path

from .files import LockBusy
from .mail.inbox import InboxError
from .service.site import Site
from .service.tick import tick
from .settings.site import CONFIG_NAME, ConfigError, load_config

EX_TEMPFAIL = 75  # sysexits: try again later (another tick holds the lock)
EX_SOME_FAILED = 3  # the tick ran, but some mails or campaigns failed (each told on stderr)
# the tick could not run at all (config, inbox, a crash): 1, as every other failure
LOG_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


class SiteUnusable(Exception):
    """The site's configuration is missing or wrong: the message says what to do."""


def site_at(path: Path) -> Site:
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


@contextlib.contextmanager
def log_handler(verbose: int, quiet: bool) -> Iterator[None]:
    """The referee's loggers write to stderr while a command runs (warnings; -v: what
    became of each mail and campaign; -vv: the details; -q: errors only), stamped in UTC
    as the cron log is. The handler goes on the package's logger, not the root: the
    libraries below stay quiet (imapclient logs the IMAP conversation at DEBUG), and it
    goes when the command ends, so a next command in the same process (a test) logs to its
    own stderr."""
    levels = [logging.WARNING, logging.INFO, logging.DEBUG]
    formatter = logging.Formatter(LOG_FORMAT, datefmt="%Y-%m-%dT%H:%M:%SZ")
    formatter.converter = time.gmtime
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(formatter)
    package = logging.getLogger("referee")
    package.addHandler(handler)
    package.setLevel(logging.ERROR if quiet else levels[min(verbose, 2)])
    try:
        yield
    finally:
        package.removeHandler(handler)
        package.setLevel(logging.NOTSET)


def quick_tick(args: list[str]) -> int | None:
    """The exit status of ``referee ARGS`` when they ask for a plain tick, run here; None
    for any other command line, which click reads (with its help and its errors)."""
    config, verbose, quiet = os.environ.get("REFEREE_CONFIG", CONFIG_NAME), 0, False
    rest = list(args)
    while rest and rest[0] != "tick":
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
    if rest != ["tick"] or not config or Path(config).is_dir():
        return None  # (click says what is wrong with a folder given as the configuration)
    with log_handler(verbose, quiet):
        return run_tick(Path(config))
