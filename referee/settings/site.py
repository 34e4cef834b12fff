"""The site configuration, ``referee.yaml``: where campaigns live, the referee's address, and
how mail comes in and goes out.

Secrets never live in the file: it names variables (``password_env``, ``token_env``) that
``referee.env`` beside it or the environment sets, read only when they are needed.
Every mistake in the file is reported at once, each with what is wrong and how to put it
right. Relative paths are relative to the file's folder.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from ..files import atomic_write, crashpoint, fsync_dir, private_folder
from ..mail.inbox import MaildirInbox, create_maildir
from ..schema import Problem, SettingsError, at_least, load_file, read, setting, within
from .checks import ROLES, Language, mail_address, player_name
from .names import CONFIG_NAME, STATE_FOLDER
from .secrets import env_file, secret

if TYPE_CHECKING:
    import ssl

    from ..mail.imap import ImapInbox
    from ..mail.outbox import MaildirSender, Outbox, Patience, SmtpSender

DEFAULT_CONFIG = """\
# referee site configuration. Relative paths are relative to this file's folder.
# Passwords and tokens are never written here: name a variable (password_env, token_env) and
# set it in referee.env beside this file (KEY=value lines, read as written, mode 0600).

data_root: games            # one folder per campaign
# language: de              # the mail's language: en (the default) or de; a campaign's
#                           #   language: and a player's `language` command come first

referee:
  address: referee@localhost  # players write here; referee+<game>.<token>@... must reach it too
  name: Referee               # the display name on the referee's mail
  # game_masters:             # may open campaigns for sign-up by mail, with a line
  #   - address: gm@example.org   #  "token <their token>" and "open bus <id> <seats>"
  #     token_env: REFEREE_GM_TOKEN

# Incoming mail. The embedded default is a local Maildir; processed mail is moved into its
# sub-folder .processed.
inbox:
  type: maildir
  path: mail/inbox
  processed_folder: processed
  # max_mail_kb: 10240        # a larger mail is not read: kept, and its sender told why

# inbox:
#   type: imap
#   host: imap.example.org
#   port: 993                 # default: 993 with tls, 143 otherwise
#   security: tls             # tls | starttls | none (none only for a server on this machine)
#   user: referee@example.org
#   password_env: REFEREE_IMAP_PASSWORD
#   folder: INBOX
#   processed_folder: processed   # created when missing
#   state: mail/imap-state.json   # UIDVALIDITY and the last UID processed
#   ca_file: /path/to/ca.pem      # only for a server with a private certificate

# Outgoing mail: queued in `queue` first, then sent. The embedded default delivers into a
# local Maildir, where a mail program (or `referee demo`) reads it.
outbox:
  type: maildir
  path: mail/outbox
  queue: mail/queue
  # an address the server refuses for now is tried again after 2 minutes, 4, 8 ... at most
  # every retry_at_most_hours; a mail still not taken give_up_days after it was queued goes
  # to <queue>/failed/, and the game master is told which mails, and why
  # retry_at_most_hours: 4   # at most 8760 (a year)
  # give_up_days: 7          # at most 3650

# outbox:
#   type: smtp
#   host: smtp.example.org
#   port: 587                 # default: 465 with tls, 587 with starttls, 25 with none
#   security: starttls        # starttls | tls | none
#   user: referee@example.org # leave out for a server that takes mail without a login
#   password_env: REFEREE_SMTP_PASSWORD
#   queue: mail/queue
#   ca_file: /path/to/ca.pem
#   retry_at_most_hours: 4
#   give_up_days: 7

# How much mail anyone can make the referee send (so that no auto-responder starts an
# endless mail loop, and no flood of forged mail turns the referee against others). Answers
# to one address; stricter to strangers (unknown senders, wrong tokens), and a budget for
# all strangers together; a player's messages relayed to others; observers of one game
# (each confirms by a reply from their address). `referee check` shows the limits in force.
# limits:
#   per_hour: 10              # answers to one player (or game master) an hour
#   per_day: 60
#   strangers_per_hour: 3     # answers to one stranger's address an hour
#   strangers_per_day: 8
#   strangers_site_per_hour: 30   # answers to all strangers together an hour
#   messages_per_hour: 10     # `message ...` lines one player may have relayed an hour
#   observers_per_game: 20    # observers one game may have
"""

# referee.env as `referee init` writes it: every line a comment until a password is needed
DEFAULT_ENV = """\
# The site's passwords and tokens, one KEY=value a line, each value as written (no shell
# reads this file: nothing in it is run or expanded). referee.yaml names the variables
# (password_env, token_env). Keep this file its owner's alone (mode 0600).
# REFEREE_IMAP_PASSWORD=...
# REFEREE_SMTP_PASSWORD=...
# REFEREE_GM_TOKEN=...
# The cron wrapper's own settings may go here too (see README: Running a site):
# REFEREE_PING_URL=https://...
"""


class Audience(Enum):
    PLAYER = "player"  # a mail with a valid token, or a site game master's
    STRANGER = "stranger"  # an unknown sender, a wrong token, no game named


ENV_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
SECRET_KEYS = ("password", "pass", "passwd", "secret")
MAX_MAIL_KB = 10240  # orders are a few KB; with a phone photo attached, a few MB


class ConfigError(SettingsError):
    """referee.yaml is missing, unreadable or wrong; the message lists every problem."""


_mail_address = mail_address("referee@example.org")


def _referee_address(address: str) -> str:
    address = _mail_address(address)
    if "+" in address.partition("@")[0]:
        raise ValueError(
            f"{address!r} contains '+', which the referee uses for its plus-addresses "
            "(referee+<game>.<token>@...); use the address without it"
        )
    return address


def _password_env(suggested: str) -> Callable[[str | None], str | None]:
    def check(name: str | None) -> str | None:
        if name is not None and not ENV_NAME.match(name):
            raise ValueError(
                "names the environment variable that holds the password (letters, digits "
                f"and _, e.g. {suggested}), not the password itself"
            )
        return name

    return check


def _token_env(name: str) -> str:
    if not ENV_NAME.match(name):
        raise ValueError(
            "name the environment variable that holds this game master's token, e.g. "
            "token_env: REFEREE_GM_TOKEN"
        )
    return name


def _port(number: int) -> int:
    if not 1 <= number <= 65535:
        raise ValueError(f"expected a port number from 1 to 65535, found {number!r}")
    return number


def _certificate(path: Path | None) -> Path | None:
    if path is not None and not path.is_file():
        raise ValueError(f"{path} does not exist; give the path of the certificate file (PEM)")
    return path


def _refuse_secrets(section: str, key: str) -> str | None:
    """A password written into the file is refused, without repeating it."""
    if key.lower() not in SECRET_KEYS:
        return None
    suggested = {"inbox": "REFEREE_IMAP_PASSWORD", "outbox": "REFEREE_SMTP_PASSWORD"}.get(
        section, "REFEREE_PASSWORD"
    )
    return (
        f"passwords are not kept in the config file; write `password_env: {suggested}` "
        "instead and set that environment variable where the referee runs"
    )


@dataclass(frozen=True)
class GameMaster:
    """referee.game_masters: who may open campaigns by mail, with their token's variable."""

    address: str = setting(check=_mail_address)
    token_env: str = setting(check=_token_env)


@dataclass(frozen=True)
class RefereeSection:
    address: str = setting(check=_referee_address)
    # the display name on the referee's mail, held to what a player's name may be
    name: str = setting("Referee", check=player_name)
    game_masters: tuple[GameMaster, ...] = ()


@dataclass(frozen=True)
class MaildirInboxSettings:
    path: Path = Path("mail/inbox")
    processed_folder: str = "processed"
    # a larger mail is not read, only kept and answered
    max_mail_kb: int = setting(MAX_MAIL_KB, check=at_least(64, "a whole number"))
    type: Literal["maildir"] = "maildir"


@dataclass(frozen=True, kw_only=True)
class ImapSettings:
    host: str
    port: int = setting(0, check=_port)  # 0: 993 with tls, 143 otherwise
    security: Literal["tls", "starttls", "none"] = "tls"
    user: str
    password_env: str = setting(check=_password_env("REFEREE_IMAP_PASSWORD"))
    folder: str = "INBOX"
    processed_folder: str = "processed"
    state: Path = Path("mail/imap-state.json")  # UIDVALIDITY and the last UID processed
    ca_file: Path | None = setting(None, check=_certificate)
    max_mail_kb: int = setting(MAX_MAIL_KB, check=at_least(64, "a whole number"))
    type: Literal["imap"] = "imap"

    def __post_init__(self) -> None:
        if not self.port:
            object.__setattr__(self, "port", 993 if self.security == "tls" else 143)


@dataclass(frozen=True)
class Delivery:
    """Both outboxes' patience with a failing address (``Patience``)."""

    # bounded above too: a time beyond the dates the queue reckons in would stop every flush
    retry_at_most_hours: float = setting(4.0, check=within(0.05, 24 * 365, "a number of hours"))
    give_up_days: float = setting(7.0, check=within(0.05, 3650, "a number of days"))

    @property
    def patience(self) -> Patience:
        from ..mail.outbox import Patience  # (see Config.make_inbox)

        return Patience(
            at_most=timedelta(hours=self.retry_at_most_hours),
            give_up=timedelta(days=self.give_up_days),
        )


@dataclass(frozen=True)
class MaildirOutboxSettings(Delivery):
    path: Path = Path("mail/outbox")
    queue: Path = setting(Path("mail/queue"), compare=False)
    type: Literal["maildir"] = "maildir"


@dataclass(frozen=True, kw_only=True)
class SmtpSettings(Delivery):
    host: str
    port: int = setting(0, check=_port)  # 0: 465 with tls, 587 with starttls, 25 with none
    security: Literal["starttls", "tls", "none"] = "starttls"
    user: str | None = None  # none: a server that takes mail without a login
    password_env: str | None = setting(None, check=_password_env("REFEREE_SMTP_PASSWORD"))
    queue: Path = setting(Path("mail/queue"), compare=False)
    ca_file: Path | None = setting(None, check=_certificate)
    type: Literal["smtp"] = "smtp"

    def __post_init__(self) -> None:
        if self.user is not None and self.password_env is None:
            raise ValueError(
                "password_env: missing; name the environment variable that holds the "
                "password of `user`"
            )
        if not self.port:
            port = {"tls": 465, "starttls": 587}.get(self.security, 25)
            object.__setattr__(self, "port", port)


@dataclass(frozen=True)
class AnswerLimits:
    """referee.yaml's ``limits`` section: how much mail anyone can make the referee send.
    Answers per address (players' and game masters' own, strangers'), answers to all
    strangers together, messages a player has relayed, observers of a game."""

    per_hour: int = setting(10, check=at_least(1, "a whole number"))
    per_day: int = setting(60, check=at_least(1, "a whole number"))
    strangers_per_hour: int = setting(3, check=at_least(1, "a whole number"))
    strangers_per_day: int = setting(8, check=at_least(1, "a whole number"))
    strangers_site_per_hour: int = setting(30, check=at_least(1, "a whole number"))
    messages_per_hour: int = setting(10, check=at_least(1, "a whole number"))
    observers_per_game: int = setting(20, check=at_least(0, "a whole number"))

    def of(self, audience: Audience) -> tuple[int, int]:
        if audience == Audience.PLAYER:
            return self.per_hour, self.per_day
        return self.strangers_per_hour, self.strangers_per_day

    def summary(self) -> str:
        """The limits in force, as `referee check` shows them."""
        return (
            f"answers to a player {self.per_hour}/hour {self.per_day}/day, to a stranger "
            f"{self.strangers_per_hour}/hour {self.strangers_per_day}/day, to all strangers "
            f"{self.strangers_site_per_hour}/hour; messages relayed {self.messages_per_hour}/hour "
            f"a player; observers {self.observers_per_game} a game"
        )


@dataclass(frozen=True)
class SiteFile:
    """referee.yaml, as DEFAULT_CONFIG shows it."""

    referee: RefereeSection
    data_root: Path = Path("games")
    inbox: MaildirInboxSettings | ImapSettings = MaildirInboxSettings()
    outbox: MaildirOutboxSettings | SmtpSettings = MaildirOutboxSettings()
    limits: AnswerLimits = AnswerLimits()
    language: Language = "en"  # what the site's mail is written in, unless one chose another


@dataclass(frozen=True)
class Config:
    path: Path  # the referee.yaml read
    data_root: Path
    referee_address: str
    referee_name: str
    inbox: MaildirInboxSettings | ImapSettings
    outbox: MaildirOutboxSettings | SmtpSettings
    queue_dir: Path
    game_masters: tuple = ()  # (address, token_env): may open campaigns by mail
    limits: AnswerLimits = AnswerLimits()
    language: str = "en"  # the site's language (a campaign's or a player's own comes first)

    @property
    def game_master_addresses(self) -> list[str]:
        """The site game masters', who are told of the site's failures."""
        return [address for address, _ in self.game_masters]

    @property
    def roles(self) -> tuple[str, ...]:
        """What no player may be named like on this site (``checks.name_taken``): the
        referee's roles, and the name its mail comes from."""
        return (*ROLES, self.referee_name)

    def game_master_token(self, address: str) -> str | None:
        """The site game master's secret token (referee.env or the environment), None if
        ``address`` is not a site game master or the variable is not set."""
        for gm_address, token_env in self.game_masters:
            if gm_address == address.lower():
                return self.secret(token_env)
        return None

    def secret(self, name: str) -> str | None:
        """A password or token this file names: referee.env's, or the environment's."""
        return secret(self.path, name)

    # The mailboxes' modules are imported when a mailbox is made, each as the site needs it:
    # a tick with nothing to do on a local Maildir reads no IMAP and sends nothing, and
    # does without imapclient, ssl, smtplib and the email package.

    def make_inbox(self) -> MaildirInbox | ImapInbox:
        s = self.inbox
        if isinstance(s, MaildirInboxSettings):
            return MaildirInbox(s.path, s.processed_folder)
        from ..mail.imap import ImapInbox

        return ImapInbox(
            s.host,
            s.port,
            s.user,
            self._secret(s.password_env, "inbox"),
            folder=s.folder,
            processed_folder=s.processed_folder,
            security=s.security,
            state_path=s.state,
            ssl_context=_ssl_context(s.ca_file),
        )

    def make_sender(self) -> MaildirSender | SmtpSender:
        from ..mail.outbox import MaildirSender, SmtpSender

        s = self.outbox
        if isinstance(s, MaildirOutboxSettings):
            return MaildirSender(s.path)
        password = self._secret(s.password_env, "outbox") if s.user and s.password_env else None
        return SmtpSender(
            s.host, s.port, s.security, s.user, password, ssl_context=_ssl_context(s.ca_file)
        )

    def make_outbox(self) -> Outbox:
        from ..mail.outbox import Outbox

        return Outbox(self.queue_dir, self.outbox.patience)

    def _secret(self, env_name: str, section: str) -> str:
        value = self.secret(env_name)
        if not value:
            raise ConfigError(
                self.path,
                f"the variable {env_name} (named by {section}.password_env in {self.path}) is "
                f"not set; add the line {env_name}=<the password> to {env_file(self.path)}",
            )
        return value


def _ssl_context(ca_file: Path | None) -> ssl.SSLContext:
    import ssl

    return ssl.create_default_context(cafile=str(ca_file) if ca_file else None)


def write_default_config(directory: str | os.PathLike) -> Path:
    """Write a commented referee.yaml for the embedded default (local Maildirs) into
    ``directory``, with a referee.env of comments beside it, and create its folders. An
    existing referee.yaml or referee.env is never overwritten. The file is named last, once
    its folders are made: an init killed on the way leaves no referee.yaml that the next
    init would refuse to replace."""
    directory = Path(directory)
    path = directory / CONFIG_NAME
    if path.exists():
        raise ConfigError(path, f"{path} already exists; edit it, or remove it to start again")
    directory.mkdir(parents=True, exist_ok=True)
    draft = directory / f".{CONFIG_NAME}.new"  # read for its folders, then named
    atomic_write(draft, DEFAULT_CONFIG)
    config = load_config(draft)
    for mailbox in (config.inbox, config.outbox):
        assert isinstance(mailbox, (MaildirInboxSettings, MaildirOutboxSettings))  # the default
        create_maildir(mailbox.path)
    crashpoint("init-folders")
    private_folder(config.data_root)
    config.make_outbox()  # creates the queue folders
    if not env_file(draft).exists():
        atomic_write(env_file(draft), DEFAULT_ENV)
    os.replace(draft, path)
    fsync_dir(directory)
    return path


def _shared_folders(site: SiteFile, state_dir: Path) -> list[Problem]:
    """Each folder the site keeps, named twice: an outbox Maildir that is the inbox's would
    have the referee take the mail it sends (and its players never get it), and the others
    would mix what they keep."""
    folders = {"data_root": site.data_root, "outbox.queue": site.outbox.queue}
    folders["state"] = state_dir
    for key, settings in (("inbox.path", site.inbox), ("outbox.path", site.outbox)):
        if isinstance(settings, (MaildirInboxSettings, MaildirOutboxSettings)):
            folders[key] = settings.path
    first: dict[str, str] = {}
    problems = []
    for key, folder in folders.items():
        where = os.path.normpath(os.path.abspath(folder))
        if where in first:
            message = f"must not be the same folder as {first[where]} ({where}): give each its own"
            problems.append(Problem(key, message))
        first.setdefault(where, key)
    return problems


def load_config(path: str | os.PathLike) -> Config:
    """referee.yaml read as ``SiteFile`` describes it, or ConfigError with every problem."""
    path = Path(path)
    try:
        site = read(SiteFile, load_file(path), path, path.parent, _refuse_secrets)
    except FileNotFoundError:
        raise ConfigError(
            path, f"{path} does not exist; `referee init` writes one for local Maildirs"
        ) from None
    except SettingsError as err:
        raise ConfigError(path, err.problems if err.problems[0].path else str(err)) from None
    shared = _shared_folders(site, path.parent / STATE_FOLDER)
    if shared:
        raise ConfigError(path, shared)
    return Config(
        path=path,
        data_root=site.data_root,
        referee_address=site.referee.address,
        referee_name=site.referee.name,
        inbox=site.inbox,
        outbox=site.outbox,
        queue_dir=site.outbox.queue,
        game_masters=tuple((gm.address, gm.token_env) for gm in site.referee.game_masters),
        limits=site.limits,
        language=site.language,
    )
