"""Outgoing mail: the on-disk outbox queue, and the two ways to send.

Nothing is sent straight away: ``Outbox.queue`` writes a message to disk first, and
``Outbox.flush`` sends what is queued, in order. A message that cannot be sent now stays
queued with the error noted beside it and is tried again by a later flush; one the server
refuses for good moves to ``failed/`` with the reason, so it never blocks the queue. Delivery
is at least once: a crash between a send and its move to ``sent/`` sends that message again.

An address the server refuses for now (a full mailbox, greylisting, a domain whose server is
down) backs off: it is tried again after 2 minutes, then 4, 8 ... up to ``Patience.at_most``
(``addresses.json`` keeps each failing address); a mail still refused that way
``Patience.give_up`` after it was queued is given up: it moves to ``failed/`` as one refused
for good does, and ``undelivered`` lists it until the game master has been told. A server
that cannot be reached, or refuses the login, is not an address's fault: the whole queue
waits for it, and nothing is given up for it. A mail the server takes for some recipients
and refuses for others is queued again for those alone, and goes the same way.

A mail is composed once: the bytes queued are the bytes sent, and what the sender needs
besides them (the envelope) is kept beside them in ``names/``; the outbox does not parse its
own mail back (but for mail queued by an older referee, whose headers it reads).
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import itertools
import json
import logging
import os
import re
import smtplib
import socket
import ssl
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from email.parser import BytesHeaderParser, BytesParser
from email.utils import getaddresses, parseaddr
from pathlib import Path
from typing import Protocol

from ..files import atomic_write, crashpoint, fsync_dir, instant, second_name, whole
from .email_policy import POLICY
from .queue import (
    FAILING,
    OUTAGE,
    RESTING,
    Outages,
    given_up_untold,
    make_folders,
    outages,
    queued,
)

log = logging.getLogger(__name__)


# --- senders -----------------------------------------------------------------------------


class SendError(Exception):
    """A message was not sent. ``permanent``: the server refused this message for good (do
    not retry it). ``stop``: nothing can be sent now (server down, login refused): keep
    everything queued and try again later."""

    def __init__(
        self,
        reason: str,
        permanent: bool = False,
        stop: bool = False,
        addresses: tuple[str, ...] = (),
    ):
        super().__init__(reason)
        self.reason = reason
        self.permanent = permanent
        self.stop = stop
        self.addresses = addresses  # the recipients refused, when the server named them


@dataclass(frozen=True)
class OutMail:
    """A mail as it is queued and sent: its bytes, composed once, and its envelope."""

    data: bytes
    sender: str
    recipients: tuple[str, ...]
    message_id: str = ""
    subject: str = ""

    @classmethod
    def of(cls, msg: EmailMessage) -> OutMail:
        """``msg`` serialised once, with the envelope read from its headers."""
        return cls.from_headers(msg.as_bytes(), msg)

    @classmethod
    def from_headers(cls, data: bytes, headers: EmailMessage) -> OutMail:
        fields = [str(v) for k in ("To", "Cc", "Bcc") for v in headers.get_all(k, [])]
        return cls(
            data,
            parseaddr(str(headers.get("Sender") or headers.get("From") or ""))[1],
            tuple(dict.fromkeys(a for _, a in getaddresses(fields) if a)),
            str(headers.get("Message-ID", "")),
            str(headers.get("Subject", "")),
        )

    def envelope(self) -> dict:
        return {
            "from": self.sender,
            "to": list(self.recipients),
            "message_id": self.message_id,
            "subject": self.subject,
        }


class Sender(Protocol):
    """Used as ``with sender: sender.send(mail)``; ``send`` returns the recipients refused
    (address -> server's answer) when the message went to the others."""

    def __enter__(self) -> Sender: ...
    def __exit__(self, *exc) -> None: ...
    def send(self, mail: OutMail) -> dict[str, str]: ...


_unique = itertools.count()


def unique_name() -> str:
    """A file name that sorts by creation time and is unique on this host (Maildir style)."""
    now = time.time_ns()
    seconds, micros = now // 10**9, now % 10**9 // 1000
    return f"{seconds}.M{micros:06d}P{os.getpid()}Q{next(_unique)}.{socket.gethostname()}"


class MaildirSender:
    """The embedded default: "sends" by delivering into a local Maildir (e.g. mail/outbox),
    where the demo, a test or a local mail program reads it."""

    def __init__(self, path: str | os.PathLike):
        self.path = Path(path)

    def __enter__(self) -> MaildirSender:
        try:
            for sub in ("tmp", "new", "cur"):
                (self.path / sub).mkdir(parents=True, exist_ok=True)
        except OSError as e:  # as a server that cannot be reached: all of it waits
            raise SendError(self._cannot_write(e), stop=True) from e
        return self

    def __exit__(self, *exc) -> None:
        pass

    def send(self, mail: OutMail) -> dict[str, str]:
        try:
            atomic_write(self.path / "new" / unique_name(), mail.data, temp_dir=self.path / "tmp")
        except OSError as e:
            raise SendError(self._cannot_write(e), stop=True) from e
        return {}

    def _cannot_write(self, err: OSError) -> str:
        return f"cannot write to the outbox Maildir {self.path}: {err}"


class SmtpSender:
    """Sends over SMTP with STARTTLS (``security="starttls"``, usually port 587), TLS from
    the start (``"tls"``, port 465) or, only for a server on the same machine, ``"none"``."""

    def __init__(
        self,
        host: str,
        port: int,
        security: str = "starttls",
        username: str | None = None,
        password: str | None = None,
        timeout: float = 30.0,
        ssl_context: ssl.SSLContext | None = None,
    ):
        if security not in ("starttls", "tls", "none"):
            raise ValueError(f"security must be starttls, tls or none, not {security!r}")
        self.host, self.port, self.security = host, port, security
        self.username, self.password = username, password
        self.timeout = timeout
        self.ssl_context = ssl_context or ssl.create_default_context()
        self._smtp: smtplib.SMTP | None = None

    def __enter__(self) -> SmtpSender:
        where = f"the SMTP server {self.host}:{self.port}"
        try:
            smtp: smtplib.SMTP
            if self.security == "tls":
                smtp = smtplib.SMTP_SSL(
                    self.host, self.port, timeout=self.timeout, context=self.ssl_context
                )
            else:
                smtp = smtplib.SMTP(self.host, self.port, timeout=self.timeout)
            try:
                if self.security == "starttls":
                    smtp.starttls(context=self.ssl_context)
                if self.username:
                    smtp.login(self.username, self.password or "")
            except BaseException:
                smtp.close()
                raise
        except smtplib.SMTPAuthenticationError as e:
            raise SendError(
                f"{where} refused the login of {self.username!r} ({_answer(e)}); "
                "check the outbox user and the password in its environment variable",
                stop=True,
            ) from e
        except smtplib.SMTPNotSupportedError as e:
            raise SendError(
                f"{where} does not offer {'STARTTLS' if self.security == 'starttls' else 'AUTH'} "
                f"({e}); check the outbox security setting",
                stop=True,
            ) from e
        except (OSError, smtplib.SMTPException) as e:
            raise SendError(f"cannot reach {where}: {e}", stop=True) from e
        self._smtp = smtp
        log.debug("connected to %s (%s)", where, self.security)
        return self

    def __exit__(self, *exc) -> None:
        smtp, self._smtp = self._smtp, None
        if smtp is not None:
            try:
                smtp.quit()
            except (OSError, smtplib.SMTPException):
                smtp.close()

    def send(self, mail: OutMail) -> dict[str, str]:
        if self._smtp is None:
            raise RuntimeError("SmtpSender.send outside its `with` block")
        international = not all(a.isascii() for a in (mail.sender, *mail.recipients))
        try:
            if international and not self._smtp.has_extn("smtputf8"):
                raise smtplib.SMTPNotSupportedError(
                    "an international address needs a server that offers SMTPUTF8"
                )
            refused = self._smtp.sendmail(
                mail.sender,
                list(mail.recipients),
                BARE_LF.sub(b"\r\n", mail.data),  # SMTP's lines end in CRLF
                mail_options=["SMTPUTF8", "BODY=8BITMIME"] if international else [],
            )
        except smtplib.SMTPRecipientsRefused as e:
            answers = {rcpt: _code_text(code, text) for rcpt, (code, text) in e.recipients.items()}
            permanent = all(code >= 500 for code, _ in e.recipients.values())
            raise SendError(
                "every recipient was refused: "
                + "; ".join(f"{rcpt}: {answer}" for rcpt, answer in answers.items()),
                permanent=permanent,
                addresses=tuple(answers),
            ) from e
        except smtplib.SMTPSenderRefused as e:
            # 552: this message is too big; other refusals of the sender concern every message
            raise SendError(
                f"the server refused the sender {e.sender}: {_answer(e)}",
                permanent=e.smtp_code == 552,
                stop=e.smtp_code != 552,
            ) from e
        except smtplib.SMTPResponseException as e:
            raise SendError(
                f"the server refused the message: {_answer(e)}", permanent=e.smtp_code >= 500
            ) from e
        except smtplib.SMTPNotSupportedError as e:  # e.g. an international address without SMTPUTF8
            raise SendError(f"the server cannot take this message: {e}", permanent=True) from e
        except (OSError, smtplib.SMTPException) as e:  # connection lost
            raise SendError(
                f"the connection to {self.host}:{self.port} failed: {e}", stop=True
            ) from e
        return {rcpt: _code_text(code, text) for rcpt, (code, text) in refused.items()}


def _name_of(file_name: str) -> str:
    """The name its queuer gave a mail (``Outbox.queue``), from its file name."""
    return file_name.removesuffix(".eml").partition("-")[2]


def _queued_at(file_name: str) -> datetime:
    """When a mail was queued, from its file name (``Outbox.queue``'s stamp)."""
    try:
        return datetime.strptime(file_name[:21], "%Y%m%dT%H%M%S%f").replace(tzinfo=UTC)
    except ValueError:  # not named by this outbox: as if queued now
        return datetime.now(UTC)


BARE_LF = re.compile(rb"(?<!\r)\n")


def _code_text(code: int, text: bytes | str) -> str:
    return f"{code} {text.decode('utf-8', 'replace') if isinstance(text, bytes) else text}"


def _answer(e: smtplib.SMTPResponseException) -> str:
    return _code_text(e.smtp_code, e.smtp_error)


# --- the queue ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Patience:
    """How long the outbox goes on trying a failing address: the wait before the next try
    doubles from ``first`` up to ``at_most``; a mail still not taken ``give_up`` after it
    was queued is given up (referee.yaml's outbox.retry_at_most_hours, give_up_days)."""

    first: timedelta = timedelta(minutes=2)
    at_most: timedelta = timedelta(hours=4)
    give_up: timedelta = timedelta(days=7)

    def wait(self, failures: int) -> timedelta:
        """The wait after ``failures`` tries in a row that failed."""
        return min(self.first * 2 ** min(max(failures - 1, 0), 30), self.at_most)


class FailingAddresses:
    """``addresses.json`` in the queue: each address the server refused for now, since when,
    how many tries in a row, the last answer, and when it is tried next. Derived: a file or
    an address's note that cannot be read starts afresh (the address is then only tried
    sooner)."""

    def __init__(self, path: Path, patience: Patience):
        self.path, self.patience = path, patience
        self.changed = False
        self.known: dict[str, dict] = {}
        try:
            data = json.loads(path.read_bytes())
            notes = data.items()
        except FileNotFoundError:
            return
        except (ValueError, AttributeError):
            log.warning("%s is unreadable; failing addresses are tried afresh", path)
            return
        for address, note in notes:
            try:
                self.known[address.lower()] = _failing_note(note)
            except (ValueError, TypeError, KeyError, AttributeError):
                log.warning("%s: the note of %r is unreadable; it is tried afresh", path, address)

    def resting(self, recipients: Iterable[str], now: datetime) -> bool:
        """Whether every recipient is failing and none is due for its next try."""
        return now < self.next_try(recipients)

    def next_try(self, recipients: Iterable[str]) -> datetime:
        """When the first of the recipients is due for its next try (at once for one that
        is not failing)."""
        notes = [self.known.get(address.lower()) for address in recipients]
        failing = [note for note in notes if note is not None]
        if not notes or len(failing) < len(notes):
            return datetime.min.replace(tzinfo=UTC)
        return min(datetime.fromisoformat(note["next"]) for note in failing)

    def failed(self, addresses: Iterable[str], error: str, now: datetime) -> None:
        for address in addresses:
            note = self.known.get(address.lower()) or {"since": now.isoformat(), "failures": 0}
            failures = note["failures"] + 1
            self.known[address.lower()] = {
                "since": note["since"],
                "failures": failures,
                "last": now.isoformat(),
                "next": (now + self.patience.wait(failures)).isoformat(),
                "error": error,
            }
            log.info(
                "%s failing since %s (%d tries): next try at %s",
                address,
                note["since"],
                failures,
                self.known[address.lower()]["next"],
            )
        self.changed = True

    def took(self, addresses: Iterable[str]) -> None:
        for address in addresses:
            if self.known.pop(address.lower(), None) is not None:
                log.info("%s takes mail again", address)
                self.changed = True

    def last_error(self, recipients: Iterable[str]) -> str:
        return "; ".join(
            f"{address}: {self.known[address.lower()]['error']}"
            for address in recipients
            if address.lower() in self.known
        )

    def save(self) -> None:
        if self.changed:
            atomic_write(self.path, json.dumps(self.known, indent=1) + "\n", durable=False)
            self.changed = False


def _failing_note(note: dict) -> dict:
    """A failing address's note as ``FailingAddresses.failed`` writes it, checked."""
    for key in ("since", "last", "next"):
        instant(note[key])
    return {
        "since": note["since"],
        "failures": whole(note["failures"], 1, "a number of tries"),
        "last": note["last"],
        "next": note["next"],
        "error": str(note["error"]),
    }


@dataclass
class FlushReport:
    sent: list[str] = field(default_factory=list)
    waiting: list[tuple[str, str]] = field(
        default_factory=list
    )  # (name, error): retried by a later flush
    failed: list[tuple[str, str]] = field(default_factory=list)  # (name, reason): moved to failed/
    refused: dict[str, dict[str, str]] = field(default_factory=dict)  # sent, but not to these
    error: str | None = None  # why the flush stopped early, if it did


@dataclass(frozen=True)
class Undelivered:
    """A mail in ``failed/``: its envelope, what it was about (the name its queuer gave,
    e.g. a campaign), when it was queued, and why it was not delivered."""

    file_name: str
    mail: OutMail
    about: str
    queued: datetime
    reason: str


class Outbox:
    """``queue_dir`` holds the queued messages (``<name>.eml``, in sending order, with a
    ``<name>.eml.error`` note after a failed attempt), ``sent/`` what was sent (kept, with a
    ``.refused`` note when some recipients were refused) and ``failed/`` what a server refused
    for good (with a ``.reason`` note)."""

    def __init__(self, queue_dir: str | os.PathLike, patience: Patience = Patience()):
        self.dir = Path(queue_dir)
        self.sent_dir = self.dir / "sent"
        self.failed_dir = self.dir / "failed"
        self.names_dir = self.dir / "names"
        self.patience = patience
        make_folders(self.dir)

    def queue(
        self,
        mail: OutMail | EmailMessage,
        name: str | None = None,
        about: str = "",
        since: datetime | None = None,
        copy: Path | None = None,
    ) -> str:
        """Write ``mail`` to the queue (atomically, durably) and return its file name. Its
        ``name`` (chosen by the caller, unique per mail) is kept in ``names/`` with the
        envelope, so that ``contains`` recognises the same mail queued again, whatever became
        of it. The mail is written before its name: a crash between the two can repeat a
        mail, never lose it; so the name is not fsynced on its own (a power cut that loses it
        can only repeat a mail, and its envelope is then read from the mail's headers).
        ``about``: what the mail concerns, for whoever is told it was not delivered;
        ``since``: when it was first queued, if before now (it is given up counting from
        then); ``copy``: a second name of the file, kept whatever becomes of the queued one
        (``second_name``), made before the mail's name so that a mail queued has it."""
        if isinstance(mail, EmailMessage):
            mail = OutMail.of(mail)
        name = name or unique_name()
        stamp = f"{since or datetime.now(UTC):%Y%m%dT%H%M%S%f}"
        file_name = f"{stamp}-{name}.eml"
        atomic_write(self.dir / file_name, mail.data)
        if copy is not None:
            second_name(self.dir / file_name, copy, mail.data)
        atomic_write(
            self.names_dir / name,
            json.dumps({"file": file_name, **mail.envelope(), "about": about}),
            durable=False,
        )
        log.debug(
            "queued %s: %s to %s, %r", file_name, mail.message_id, mail.recipients, mail.subject
        )
        return file_name

    def contains(self, name: str) -> bool:
        """Whether a mail was queued under ``name`` (it may have been sent since)."""
        return (self.names_dir / name).exists()

    def kept(self, name: str) -> bytes | None:
        """The bytes of the mail queued under ``name``, waiting, sent or given up; None when
        no mail was, or it is no longer kept."""
        try:
            file_name = json.loads((self.names_dir / name).read_bytes())["file"]
            if not isinstance(file_name, str) or Path(file_name).name != file_name:
                return None
            return self._find(file_name).read_bytes()
        except (OSError, ValueError, KeyError, TypeError):
            return None

    def pending(self) -> list[str]:
        """Names of the queued messages, oldest first."""
        return queued(self.dir)

    def read(self, name: str) -> EmailMessage:
        return BytesParser(policy=POLICY).parsebytes((self._find(name)).read_bytes())

    def outgoing(self, file_name: str, folder: Path | None = None) -> OutMail:
        """A queued mail as it is sent: its bytes, and the envelope kept when it was queued."""
        return self._kept(file_name, folder)[0]

    def _kept(self, file_name: str, folder: Path | None = None) -> tuple[OutMail, str]:
        """A mail of the queue (or of ``folder``) and what it is about."""
        data = ((folder or self.dir) / file_name).read_bytes()
        name = _name_of(file_name)
        try:
            kept = json.loads((self.names_dir / name).read_bytes())
            sender, to = kept["from"], kept["to"]
            message_id, subject = kept["message_id"], kept["subject"]
            if not isinstance(to, list) or not to:
                raise TypeError(f"recipients {to!r} where a list of addresses belongs")
            if not all(isinstance(text, str) for text in (sender, *to, message_id, subject)):
                raise TypeError(f"{kept!r} where an envelope of texts belongs")
            mail = OutMail(data, sender, tuple(to), message_id, subject)
            return mail, str(kept.get("about") or "")
        except (FileNotFoundError, ValueError, KeyError, TypeError):
            # queued by an older referee, or its envelope damaged: the mail's headers tell
            headers = BytesHeaderParser(policy=POLICY).parsebytes(data)
            return OutMail.from_headers(data, headers), ""

    def failing(self) -> dict[str, dict]:
        """The addresses failing now: since when, tries, the last error, the next try."""
        return FailingAddresses(self.dir / FAILING, self.patience).known

    def undelivered(self) -> list[Undelivered]:
        """The mails in ``failed/`` whose queuer has not been told yet (``mark_told``)."""
        found = []
        for path in given_up_untold(self.dir):
            mail, about = self._kept(path.name, self.failed_dir)
            try:
                reason = (self.failed_dir / f"{path.name}.reason").read_text(errors="replace")
                reason = reason.strip()
            except FileNotFoundError:
                reason = "(no reason kept)"
            found.append(Undelivered(path.name, mail, about, _queued_at(path.name), reason))
        return found

    def bounced(self, name: str, address: str, reason: str) -> bool:
        """A report came back after the mail queued under ``name`` was sent: ``address``
        never got it. The mail goes to ``failed/`` too (it stays in ``sent/``), with the
        ``reason``, for its queuer to be told as of mail given up (``undelivered``); once
        for each address, and only for a mail this outbox sent to it (so that a forged
        report cannot have an address taken for dead). True when it did."""
        try:
            file_name = str(json.loads((self.names_dir / name).read_bytes())["file"])
            mail, _ = self._kept(file_name, self.sent_dir)
        except (OSError, ValueError, KeyError, TypeError):
            return False  # not a mail sent by this outbox
        if address not in (r.lower() for r in mail.recipients):
            return False
        told = self.failed_dir / f"{hashlib.sha256(address.encode()).hexdigest()[:24]}.bounced"
        if told.exists() or (self.failed_dir / file_name).exists():
            return False
        atomic_write(self.failed_dir / f"{file_name}.reason", reason + "\n")
        second_name(self.sent_dir / file_name, self.failed_dir / file_name, mail.data)
        atomic_write(told, address + "\n", durable=False)
        log.warning("%s to %s came back undelivered: %s", file_name, address, reason)
        return True

    def mark_told(self, file_name: str) -> None:
        atomic_write(self.failed_dir / f"{file_name}.told", b"", durable=False)

    def error_note(self, name: str) -> dict | None:
        """Why a queued message is still waiting: ``attempts`` (flushes that did not send
        it), ``last_attempt`` (time) and ``error``; None if no flush has failed on it. A
        note that cannot be read still tells that one did, and counts afresh."""
        path = self.dir / f"{name}.error"
        try:
            note = json.loads(path.read_bytes())
            return {
                "attempts": whole(note["attempts"], 1, "a number of attempts"),
                "last_attempt": instant(note["last_attempt"]).isoformat(timespec="seconds"),
                "error": str(note["error"]),
            }
        except FileNotFoundError:
            return None
        except (ValueError, TypeError, KeyError):
            log.warning("%s is unreadable; its attempts are counted afresh", path)
            return {"attempts": 0, "last_attempt": None, "error": f"{path.name} is unreadable"}

    def flush(self, sender: Sender, now: datetime | None = None) -> FlushReport:
        """Send every queued message in order, but those to addresses that rest after
        failing (see the class and module notes)."""
        report = FlushReport()
        names = self.pending()
        if not names:
            return report
        now = now or datetime.now(UTC)
        failing = FailingAddresses(self.dir / FAILING, self.patience)
        resting: dict[str, datetime] = {}  # name -> when it is next to be tried
        try:
            with sender:
                self._send_all(sender, names, report, failing, now, resting)
        except SendError as e:  # raised while connecting: nothing was tried
            report.error = e.reason
            self._hold(names, e.reason, report, now)
        finally:
            failing.save()
            # a note only when every mail left waits on its addresses, none on the server
            self._note_resting(resting if len(resting) == len(report.waiting) else {})
            self._note_outage(report, now)
            # the moves are made durable once, here: one lost by a crash only means a resend
            for d in (self.sent_dir, self.failed_dir, self.dir):
                fsync_dir(d)
        if report.error:
            log.warning(
                "sending stopped: %s (%d mails stay queued for the next try)",
                report.error,
                len(report.waiting),
            )
        log.info(
            "sent %d, still queued %d, refused for good %d",
            len(report.sent),
            len(report.waiting),
            len(report.failed),
        )
        return report

    def _send_all(
        self,
        sender: Sender,
        names: list[str],
        report: FlushReport,
        failing: FailingAddresses,
        now: datetime,
        resting: dict[str, datetime],
    ) -> None:
        for i, name in enumerate(names):
            mail, about = self._kept(name)
            if failing.resting(mail.recipients, now):
                why = failing.last_error(mail.recipients)
                if not self._give_up(name, why, report, now):
                    report.waiting.append((name, why))
                    resting[name] = self._due_again(name, mail, failing)
                continue
            try:
                refused = sender.send(mail)
            except SendError as e:
                if e.permanent:
                    log.warning(
                        "%s to %s refused for good, moved to failed/: %s",
                        name,
                        mail.recipients,
                        e.reason,
                    )
                    self._move(name, self.failed_dir, "reason", e.reason)
                    report.failed.append((name, e.reason))
                elif e.stop:  # this one and all after it wait for the next flush
                    report.error = e.reason
                    self._hold(names[i:], e.reason, report, now)
                    return
                else:  # these addresses rest a while; the mail is given up when too old
                    failing.failed(e.addresses or mail.recipients, e.reason, now)
                    if not self._give_up(name, e.reason, report, now):
                        log.warning(
                            "%s to %s not sent, tried again later: %s",
                            name,
                            mail.recipients,
                            e.reason,
                        )
                        self._hold([name], e.reason, report, now)
                        resting[name] = self._due_again(name, mail, failing)
                continue
            failing.took(a for a in mail.recipients if a not in refused)
            if refused:
                self._again(name, mail, about, refused, failing, now)
            crashpoint("delivered")  # sent, not yet moved to sent/: the next flush resends it
            self._move(
                name, self.sent_dir, "refused", json.dumps(refused, indent=1) if refused else None
            )
            report.sent.append(name)
            log.debug("sent %s: %s to %s", name, mail.message_id, mail.recipients)
            if refused:
                log.warning(
                    "%s was sent, but not to %s",
                    name,
                    "; ".join(f"{rcpt} ({answer})" for rcpt, answer in refused.items()),
                )
                report.refused[name] = refused

    def _again(
        self,
        name: str,
        mail: OutMail,
        about: str,
        refused: dict[str, str],
        failing: FailingAddresses,
        now: datetime,
    ) -> None:
        """A mail the server took for some recipients and refused for others is queued
        again for those alone, as queued first: one refused for now rests and is tried
        again as every failing address is (given up in the end, and the game master told),
        one refused for good is found so at its next try and kept in failed/ and told of as
        every mail refused for good is."""
        for address, answer in refused.items():
            if not answer.startswith("5"):
                failing.failed([address], answer, now)
        again = dataclasses.replace(mail, recipients=tuple(refused))
        digest = hashlib.sha256(" ".join(sorted(refused)).encode()).hexdigest()[:8]
        self.queue(again, f"{_name_of(name)}-to-{digest}", about, since=_queued_at(name))

    def _due_again(self, name: str, mail: OutMail, failing: FailingAddresses) -> datetime:
        """When a mail left resting must be looked at again: its first address's next try,
        or the time it is given up, whichever comes first."""
        return min(failing.next_try(mail.recipients), _queued_at(name) + self.patience.give_up)

    def _note_resting(self, resting: dict[str, datetime]) -> None:
        """``RESTING``: the mails this flush left, when each of them rests, and till when;
        none, when any of them is due at the next flush (the queue is then work)."""
        note = self.dir / RESTING
        if resting:
            text = json.dumps(
                {"mails": sorted(resting), "until": min(resting.values()).isoformat()}
            )
            atomic_write(note, text + "\n", durable=False)
        else:
            with contextlib.suppress(FileNotFoundError):
                note.unlink()

    def _note_outage(self, report: FlushReport, now: datetime) -> None:
        """``OUTAGE``: a flush that could send nothing at all (``report.error``) begins an
        outage, if none is going on; one that reached the server ends it."""
        known = outages(self.dir)
        if report.error and known.since is None:
            log.warning("no mail can go out since %s: %s", now.isoformat(), report.error)
            noted = Outages(now, known.past)
        elif not report.error and known.since is not None:
            log.warning("mail goes out again: no mail went out from %s", known.since.isoformat())
            noted = Outages(None, (*known.past, (known.since, now)))
        else:
            return
        atomic_write(self.dir / OUTAGE, json.dumps(noted.to_data()) + "\n")

    def unsent(self) -> dict[str, datetime]:
        """The recipients of the queued mails a flush tried and could not deliver (lower
        case), each with when the first of those mails was queued: a player whose mail
        cannot reach them cannot act on it."""
        found: dict[str, datetime] = {}
        for name in self.pending():
            if not (self.dir / f"{name}.error").exists():
                continue
            queued_at = _queued_at(name)
            for address in self._kept(name)[0].recipients:
                key = address.lower()
                found[key] = min(found.get(key, queued_at), queued_at)
        return found

    def outages(self) -> Outages:
        """When no mail could go out: the outage going on, and the last ones that ended."""
        return outages(self.dir)

    def _give_up(self, name: str, why: str, report: FlushReport, now: datetime) -> bool:
        """A mail queued ``patience.give_up`` ago and refused for now ever since moves to
        failed/; True when it did."""
        if now - _queued_at(name) < self.patience.give_up:
            return False
        days = self.patience.give_up / timedelta(days=1)
        reason = f"not delivered in {days:g} days; the last answer: {why}"
        log.warning("%s given up, moved to failed/: %s", name, reason)
        self._move(name, self.failed_dir, "reason", reason)
        report.failed.append((name, reason))
        return True

    def _hold(self, names: Iterable[str], reason: str, report: FlushReport, now: datetime) -> None:
        for name in names:
            self._note_error(name, reason, now)
            report.waiting.append((name, reason))

    def _note_error(self, name: str, error: str, now: datetime) -> None:
        previous = self.error_note(name) or {}
        note = {
            "attempts": previous.get("attempts", 0) + 1,
            "last_attempt": now.isoformat(timespec="seconds"),
            "error": error,
        }
        atomic_write(self.dir / f"{name}.error", json.dumps(note, indent=1) + "\n")

    def _move(self, name: str, to: Path, note_kind: str, note: str | None) -> None:
        if note is not None:
            atomic_write(to / f"{name}.{note_kind}", note + "\n")
        os.replace(self.dir / name, to / name)
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self.dir / f"{name}.error")

    def _find(self, name: str) -> Path:
        for d in (self.dir, self.sent_dir, self.failed_dir):
            if (d / name).exists():
                return d / name
        raise FileNotFoundError(f"no message {name} in the outbox {self.dir}")
