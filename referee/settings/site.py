"""The site configuration, ``referee.yaml``: where campaigns live, the referee's address, and
how mail comes in and goes out.

Secrets never live in the file: it names environment variables (``password_env``), read only
when a mailbox is opened. Every mistake in the file is reported at once, each with what is
wrong and how to put it right. Relative paths are relative to the file's folder.
"""

from __future__ import annotations

import difflib
import os
import re
import ssl
from dataclasses import dataclass
from email.headerregistry import Address
from enum import Enum
from pathlib import Path
from typing import Any, overload

import yaml

from ..mail.inbox import ImapInbox, MaildirInbox, create_maildir
from ..mail.outbox import MaildirSender, Outbox, SmtpSender
from ..schema import load_yaml

CONFIG_NAME = "referee.yaml"

DEFAULT_CONFIG = """\
# referee site configuration. Relative paths are relative to this file's folder.
# Passwords are never written here: name an environment variable (password_env) and set it
# where the referee runs (for cron, in the wrapper script).

data_root: games            # one folder per campaign

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

# outbox:
#   type: smtp
#   host: smtp.example.org
#   port: 587                 # default: 465 with tls, 587 with starttls, 25 with none
#   security: starttls        # starttls | tls | none
#   user: referee@example.org # leave out for a server that takes mail without a login
#   password_env: REFEREE_SMTP_PASSWORD
#   queue: mail/queue
#   ca_file: /path/to/ca.pem

# How many answers one address may get (so that no auto-responder can start an endless mail
# loop); answers to strangers (unknown senders, wrong tokens) are limited more strictly.
# limits:
#   per_hour: 10
#   per_day: 60
#   strangers_per_hour: 3
#   strangers_per_day: 8
"""


class Audience(Enum):
    PLAYER = "player"  # a mail with a valid token, or a site game master's
    STRANGER = "stranger"  # an unknown sender, a wrong token, no game named


@dataclass(frozen=True)
class AnswerLimits:
    """referee.yaml's ``limits`` section: answers per address."""

    per_hour: int = 10
    per_day: int = 60
    strangers_per_hour: int = 3
    strangers_per_day: int = 8

    def of(self, audience: Audience) -> tuple[int, int]:
        if audience == Audience.PLAYER:
            return self.per_hour, self.per_day
        return self.strangers_per_hour, self.strangers_per_day


ENV_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
SECRET_KEYS = ("password", "pass", "passwd", "secret")


class ConfigError(Exception):
    """referee.yaml is missing, unreadable or wrong; the message lists every problem."""


MAX_MAIL_KB = 10240  # orders are a few KB; with a phone photo attached, a few MB


@dataclass(frozen=True)
class MaildirInboxSettings:
    path: Path
    processed_folder: str = "processed"
    max_mail_kb: int = MAX_MAIL_KB


@dataclass(frozen=True)
class ImapSettings:
    host: str
    port: int
    security: str
    user: str
    password_env: str
    folder: str
    processed_folder: str
    state: Path
    ca_file: Path | None = None
    max_mail_kb: int = MAX_MAIL_KB


@dataclass(frozen=True)
class MaildirOutboxSettings:
    path: Path


@dataclass(frozen=True)
class SmtpSettings:
    host: str
    port: int
    security: str
    user: str | None
    password_env: str | None
    ca_file: Path | None = None


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

    def game_master_token(self, address: str) -> str | None:
        """The site game master's secret token (from the environment), None if ``address``
        is not a site game master or the variable is not set."""
        for gm_address, token_env in self.game_masters:
            if gm_address == address.lower():
                return os.environ.get(token_env) or None
        return None

    def make_inbox(self) -> MaildirInbox | ImapInbox:
        s = self.inbox
        if isinstance(s, MaildirInboxSettings):
            return MaildirInbox(s.path, s.processed_folder)
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
        s = self.outbox
        if isinstance(s, MaildirOutboxSettings):
            return MaildirSender(s.path)
        password = self._secret(s.password_env, "outbox") if s.user and s.password_env else None
        return SmtpSender(
            s.host, s.port, s.security, s.user, password, ssl_context=_ssl_context(s.ca_file)
        )

    def make_outbox(self) -> Outbox:
        return Outbox(self.queue_dir)

    def _secret(self, env_name: str, section: str) -> str:
        value = os.environ.get(env_name)
        if not value:
            raise ConfigError(
                f"the environment variable {env_name} (named by {section}.password_env in "
                f"{self.path}) is not set; export {env_name}=<the password> where the referee runs"
            )
        return value


def _ssl_context(ca_file: Path | None) -> ssl.SSLContext:
    return ssl.create_default_context(cafile=str(ca_file) if ca_file else None)


def write_default_config(directory: str | os.PathLike) -> Path:
    """Write a commented referee.yaml for the embedded default (local Maildirs) into
    ``directory`` and create its folders. An existing referee.yaml is never overwritten."""
    directory = Path(directory)
    path = directory / CONFIG_NAME
    if path.exists():
        raise ConfigError(f"{path} already exists; edit it, or remove it to start again")
    directory.mkdir(parents=True, exist_ok=True)
    path.write_text(DEFAULT_CONFIG)
    config = load_config(path)
    for mailbox in (config.inbox, config.outbox):
        assert isinstance(mailbox, (MaildirInboxSettings, MaildirOutboxSettings))  # the default
        create_maildir(mailbox.path)
    config.data_root.mkdir(parents=True, exist_ok=True)
    config.make_outbox()  # creates the queue folders
    return path


def load_config(path: str | os.PathLike) -> Config:
    path = Path(path)
    try:
        data = load_yaml(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ConfigError(
            f"{path} does not exist; `referee init` writes one for local Maildirs"
        ) from None
    except (OSError, UnicodeDecodeError) as e:
        raise ConfigError(f"cannot read {path}: {e}") from None
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        raise ConfigError(
            f"{path} is not valid YAML{where}: {getattr(e, 'problem', None) or e}"
        ) from None
    reader = _Reader(path)
    config = reader.config(data)
    if reader.errors or config is None:
        raise ConfigError(
            f"{path} has {len(reader.errors)} problem(s):\n"
            + "\n".join(f"  - {e}" for e in reader.errors)
        )
    return config


class _Missing(Enum):
    """The default of a setting that must be given."""

    MISSING = 0


_MISSING = _Missing.MISSING


class _Reader:
    """Reads the YAML tree, collecting every problem instead of stopping at the first."""

    def __init__(self, path: Path):
        self.base = path.parent
        self.path = path
        self.errors: list[str] = []

    def config(self, data: Any) -> Config | None:
        top = self.section(data, "", {"data_root", "referee", "inbox", "outbox", "limits"})
        referee = self.section(
            self.get(top, "referee", "", {}), "referee", {"address", "name", "game_masters"}
        )
        address = self.string(referee, "address", "referee")
        if address is not None:
            self.check_address(address)
        name = self.string(referee, "name", "referee", "Referee")
        inbox = self.inbox(self.get(top, "inbox", "", {"type": "maildir"}))
        outbox_data = self.get(top, "outbox", "", {"type": "maildir"})
        outbox = self.outbox(outbox_data)
        queue = self.path_value(outbox_data, "queue", "outbox", "mail/queue")
        data_root = self.path_value(top, "data_root", "", "games")
        game_masters = self.game_masters(self.get(referee, "game_masters", "referee", []))
        limits = self.limits(self.get(top, "limits", "", {}))
        if self.errors:
            return None
        return Config(
            path=self.path,
            data_root=data_root,
            referee_address=address.lower(),
            referee_name=name,
            inbox=inbox,
            outbox=outbox,
            queue_dir=queue,
            game_masters=game_masters,
            limits=limits,
        )

    def limits(self, data: Any) -> AnswerLimits:
        """limits: answers per address and hour or day (whole numbers of at least 1)."""
        s = self.section(data, "limits", set(AnswerLimits.__dataclass_fields__))
        values = {}
        for key, default in AnswerLimits().__dict__.items():
            value = self.get(s, key, "limits", default)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                self.error("limits", key, f"expected a whole number of at least 1, found {value!r}")
            else:
                values[key] = value
        return AnswerLimits(**values)

    def game_masters(self, data: Any) -> tuple:
        """referee.game_masters: who may open campaigns by mail, each with the environment
        variable that holds their token."""
        if not isinstance(data, list):
            self.error("referee", "game_masters", "must be a list of {address, token_env}")
            return ()
        found = []
        for i, entry in enumerate(data):
            where = f"referee.game_masters[{i}]"
            entry = self.section(entry, where, {"address", "token_env"})
            address = self.string(entry, "address", where)
            token_env = self.string(entry, "token_env", where, None)
            if token_env is None or not ENV_NAME.match(token_env):
                self.error(
                    where,
                    "token_env",
                    "name the environment variable that holds this "
                    "game master's token, e.g. token_env: REFEREE_GM_TOKEN",
                )
                token_env = None
            if address and token_env:
                self.check_address(address)
                found.append((address.lower(), token_env))
        return tuple(found)

    def inbox(self, data: Any):
        kind = self.choice(data, "type", "inbox", ("maildir", "imap"), "maildir")
        if kind == "imap":
            s = self.section(
                data,
                "inbox",
                {
                    "type",
                    "host",
                    "port",
                    "security",
                    "user",
                    "password_env",
                    "folder",
                    "processed_folder",
                    "state",
                    "ca_file",
                    "max_mail_kb",
                },
            )
            security = self.choice(s, "security", "inbox", ("tls", "starttls", "none"), "tls")
            return ImapSettings(
                host=self.string(s, "host", "inbox"),
                port=self.port(s, "inbox", 993 if security == "tls" else 143),
                security=security,
                user=self.string(s, "user", "inbox"),
                password_env=self.env_name(s, "inbox", required=True) or "",
                folder=self.string(s, "folder", "inbox", "INBOX"),
                processed_folder=self.string(s, "processed_folder", "inbox", "processed"),
                state=self.path_value(s, "state", "inbox", "mail/imap-state.json"),
                ca_file=self.existing_file(s, "ca_file", "inbox"),
                max_mail_kb=self.max_mail_kb(s),
            )
        s = self.section(data, "inbox", {"type", "path", "processed_folder", "max_mail_kb"})
        return MaildirInboxSettings(
            path=self.path_value(s, "path", "inbox", "mail/inbox"),
            processed_folder=self.string(s, "processed_folder", "inbox", "processed"),
            max_mail_kb=self.max_mail_kb(s),
        )

    def max_mail_kb(self, data: dict) -> int:
        """inbox.max_mail_kb: a larger mail is not read, only kept and answered."""
        value = self.get(data, "max_mail_kb", "inbox", MAX_MAIL_KB)
        if isinstance(value, bool) or not isinstance(value, int) or value < 64:
            self.error(
                "inbox", "max_mail_kb", f"expected a whole number of at least 64, found {value!r}"
            )
            return MAX_MAIL_KB
        return value

    def outbox(self, data: Any):
        kind = self.choice(data, "type", "outbox", ("maildir", "smtp"), "maildir")
        if kind == "smtp":
            s = self.section(
                data,
                "outbox",
                {"type", "host", "port", "security", "user", "password_env", "queue", "ca_file"},
            )
            security = self.choice(s, "security", "outbox", ("starttls", "tls", "none"), "starttls")
            user = self.string(s, "user", "outbox", None)
            return SmtpSettings(
                host=self.string(s, "host", "outbox"),
                port=self.port(s, "outbox", {"tls": 465, "starttls": 587}.get(security, 25)),
                security=security,
                user=user,
                password_env=self.env_name(s, "outbox", required=user is not None),
                ca_file=self.existing_file(s, "ca_file", "outbox"),
            )
        s = self.section(data, "outbox", {"type", "path", "queue"})
        return MaildirOutboxSettings(path=self.path_value(s, "path", "outbox", "mail/outbox"))

    # -- one value each --
    def error(self, where: str, key: str, message: str) -> None:
        self.errors.append(f"{where + '.' if where else ''}{key}: {message}")

    def section(self, data: Any, where: str, known: set[str]) -> dict:
        if data is None:
            return {}
        if not isinstance(data, dict):
            self.errors.append(
                f"{where or 'the file'}: expected a section of `key: value` lines, "
                f"found {_kind(data)}"
            )
            return {}
        for key in data:
            if str(key).lower() in SECRET_KEYS:
                self.error(
                    where,
                    key,
                    "passwords are not kept in the config file; write "
                    f"`password_env: {_suggested_env(where)}` instead and "
                    "set that environment variable where the referee runs",
                )
            elif key not in known:
                close = difflib.get_close_matches(str(key), sorted(known), n=1)
                hint = (
                    f"did you mean `{close[0]}`?"
                    if close
                    else f"known settings: {', '.join(sorted(known))}"
                )
                self.error(where, key, f"unknown setting; {hint}")
        return data

    def get(self, data: dict, key: str, where: str, default: Any = _MISSING) -> Any:
        value = data.get(key) if isinstance(data, dict) else None
        if value is None:
            if default is _MISSING:
                self.error(where, key, f"missing; add `{key}: ...` to the {where or 'top'} section")
            return None if default is _MISSING else default
        return value

    # A setting that is missing or wrong is an error, and reads as its default or as an empty
    # placeholder: the file's Config is never made while there are errors.
    @overload
    def string(self, data: dict, key: str, where: str, default: None) -> str | None: ...
    @overload
    def string(
        self, data: dict, key: str, where: str, default: str | _Missing = _MISSING
    ) -> str: ...
    def string(
        self, data: dict, key: str, where: str, default: str | _Missing | None = _MISSING
    ) -> str | None:
        fallback = "" if default is _MISSING else default
        value = self.get(data, key, where, default)
        if value is None or value is default:
            return fallback
        if (
            not isinstance(value, (str, int, float))
            or isinstance(value, bool)
            or not str(value).strip()
        ):
            self.error(where, key, f"expected a text value, found {_kind(value)}")
            return fallback
        return str(value).strip()

    def choice(
        self, data: dict, key: str, where: str, options: tuple[str, ...], default: str
    ) -> str:
        value = self.string(data, key, where, default)
        if value is not None and value not in options:
            self.error(where, key, f"{value!r} is not one of: {', '.join(options)}")
            return default
        return value

    def port(self, data: dict, where: str, default: int) -> int:
        value = self.get(data, "port", where, default)
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 65535:
            self.error(where, "port", f"expected a port number from 1 to 65535, found {value!r}")
            return default
        return value

    def path_value(self, data: dict, key: str, where: str, default: str) -> Path:
        return self.base / Path(self.string(data, key, where, default)).expanduser()

    def existing_file(self, data: dict, key: str, where: str) -> Path | None:
        value = self.string(data, key, where, None)
        path = None if value is None else self.base / Path(value).expanduser()
        if path is not None and not path.is_file():
            self.error(
                where, key, f"{path} does not exist; give the path of the certificate file (PEM)"
            )
            return None
        return path

    def env_name(self, data: dict, where: str, required: bool) -> str | None:
        value = self.string(data, "password_env", where, _MISSING if required else None)
        if value and not ENV_NAME.match(value):
            self.error(
                where,
                "password_env",
                "names the environment variable that holds the password "
                f"(letters, digits and _, e.g. {_suggested_env(where)}), not the password itself",
            )
            return None
        return value

    def check_address(self, address: str) -> None:
        try:
            parsed = Address(addr_spec=address)
            valid = bool(parsed.username and parsed.domain)
        except (ValueError, IndexError):
            valid = False
        if not valid:
            self.error(
                "referee", "address", f"{address!r} is not a mail address like referee@example.org"
            )
        elif "+" in parsed.username:
            self.error(
                "referee",
                "address",
                f"{address!r} contains '+', which the referee uses for "
                "its plus-addresses (referee+<game>.<token>@...); use the address without it",
            )


def _suggested_env(section: str) -> str:
    return {"inbox": "REFEREE_IMAP_PASSWORD", "outbox": "REFEREE_SMTP_PASSWORD"}.get(
        section, "REFEREE_PASSWORD"
    )


def _kind(value: Any) -> str:
    if isinstance(value, dict):
        return "a section"
    if isinstance(value, list):
        return "a list"
    return repr(value)
