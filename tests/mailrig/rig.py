"""A real mail rig on loopback for tests and benches: Dovecot serves IMAP (plain with STARTTLS,
and IMAPS) from the accounts' Maildirs, and an aiosmtpd server takes SMTP and delivers into
them.

Every address is an account whose password is ``<local part>-pw`` (Dovecot's static passdb);
its Maildir is made by its first mail or by ``add_account``. A plus
address (``referee+bus1.tok@example.test``) is delivered to the account of its base address
with the whole address in Delivered-To, as Postfix does. For the outbox tests the SMTP server
answers ``451`` to a recipient whose local part starts with ``tempfail`` (or who is in the
rig's ``tempfail`` set, for as long as a test keeps them there) and ``550`` to one that starts
with ``refuse`` or is at another domain; ``tried`` lists every recipient the server was given.

Pitfalls handled here (each was seen): Dovecot refuses uid 0 for mail, so the Maildirs belong
to ``nobody``; its auth process runs as ``dovecot`` and must read the rig's folder, so the rig
lives in a 0755 mkdtemp folder and not in pytest's 0700 tmp_path; a TCP connect is not
readiness, the ``* OK`` greeting is; the log goes to a file, printed when the start fails.
"""

from __future__ import annotations

import itertools
import mailbox
import os
import pwd
import re
import shutil
import signal
import smtplib
import socket
import ssl
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from aiosmtpd.controller import Controller
from imapclient import IMAPClient

DOMAIN = "example.test"
CONF_TEMPLATE = Path(__file__).with_name("dovecot.conf.in")


@dataclass(frozen=True)
class Account:
    address: str
    password: str
    maildir: Path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class MaildirDelivery:
    """aiosmtpd handler: each message into the Maildir of each recipient's account."""

    def __init__(self, rig: MailRig):
        self.rig = rig

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        local, _, domain = address.lower().rpartition("@")
        self.rig.tried.append(address.lower())
        if domain != DOMAIN:
            return f"550 5.1.2 <{address}>: no such domain here"
        if local.startswith("tempfail") or address.lower() in self.rig.tempfail:
            return "451 4.3.0 try again later"
        if local.startswith("refuse"):
            return f"550 5.1.1 <{address}>: no such user"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        body = envelope.original_content.replace(b"\r\n", b"\n")
        mail_from = envelope.mail_from.strip("<>")  # aiosmtpd gives the null sender as "<>"
        for rcpt in envelope.rcpt_tos:
            account = self.rig.add_account(base_address(rcpt))
            trace = f"Return-Path: <{mail_from}>\nDelivered-To: {rcpt}\nX-Original-To: {rcpt}\n"
            self.rig.deliver(account.address, trace.encode() + body)
        return "250 OK"


def base_address(address: str) -> str:
    local, _, domain = address.lower().rpartition("@")
    return f"{local.split('+', 1)[0]}@{domain}"


class MailRig:
    """``with MailRig() as rig:`` starts both servers and stops them at the end."""

    def __init__(self):
        self.root: Path | None = None
        self.imap_port = self.imaps_port = self.smtp_port = 0
        self.accounts: dict[str, Account] = {}
        self.tempfail: set[str] = set()  # addresses answered 451 for now
        self.tried: list[str] = []  # every RCPT TO the SMTP server was given
        self._lock = threading.Lock()
        self._seq = itertools.count()
        self._proc: subprocess.Popen | None = None
        self._smtp: Controller | None = None
        nobody = pwd.getpwnam("nobody")
        self.uid, self.gid = nobody.pw_uid, nobody.pw_gid

    # -- life --
    def start(self) -> MailRig:
        self.root = Path(
            tempfile.mkdtemp(prefix="mailrig-", dir=os.environ.get("MAILRIG_TMP", "/tmp"))
        )
        self.root.chmod(0o755)
        (self.root / "mail").mkdir()
        os.chown(self.root / "mail", self.uid, self.gid)
        self._make_certificate()
        self.imap_port, self.imaps_port = free_port(), free_port()
        (self.root / "dovecot.conf").write_text(
            CONF_TEMPLATE.read_text().format(
                root=self.root,
                imap_port=self.imap_port,
                imaps_port=self.imaps_port,
                uid=self.uid,
                gid=self.gid,
            )
        )
        self._proc = subprocess.Popen(
            ["dovecot", "-F", "-c", str(self.root / "dovecot.conf")],
            stdin=subprocess.DEVNULL,
            start_new_session=True,
        )
        try:
            self._wait_greeting()
            self._smtp = Controller(MaildirDelivery(self), hostname="127.0.0.1", port=free_port())
            self._smtp.start()
            self.smtp_port = self._smtp.port
        except BaseException:
            print(self.log())
            self.stop()
            raise
        return self

    def stop(self) -> None:
        if self._smtp is not None:
            self._smtp.stop()
            self._smtp = None
        if self._proc is not None:
            os.killpg(self._proc.pid, signal.SIGKILL)  # instant; SIGTERM takes about a second
            self._proc.wait()
            self._proc = None
        if self.root is not None:
            shutil.rmtree(self.root, ignore_errors=True)

    def __enter__(self) -> MailRig:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()

    def log(self) -> str:
        try:
            return (self.root / "dovecot.log").read_text()
        except (OSError, TypeError):
            return ""

    def _make_certificate(self) -> None:
        tls = self.root / "tls"
        tls.mkdir()
        subprocess.run(
            [
                "openssl",
                "req",
                "-x509",
                "-newkey",
                "ec",
                "-pkeyopt",
                "ec_paramgen_curve:prime256v1",
                "-nodes",
                "-days",
                "2",
                "-subj",
                "/CN=localhost",
                "-addext",
                "subjectAltName=IP:127.0.0.1,DNS:localhost",
                "-keyout",
                str(tls / "key.pem"),
                "-out",
                str(tls / "cert.pem"),
            ],
            check=True,
            capture_output=True,
        )

    @property
    def cert_file(self) -> Path:
        return self.root / "tls" / "cert.pem"

    @property
    def key_file(self) -> Path:
        return self.root / "tls" / "key.pem"

    def client_ssl_context(self) -> ssl.SSLContext:
        """A client context that trusts the rig's self-signed certificate (and only it)."""
        return ssl.create_default_context(cafile=str(self.cert_file))

    def server_ssl_context(self) -> ssl.SSLContext:
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(self.cert_file, self.key_file)
        return context

    def _wait_greeting(self, timeout: float = 10.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self._proc.poll() is not None:
                raise RuntimeError(f"dovecot exited with code {self._proc.returncode}")
            try:
                with socket.create_connection(("127.0.0.1", self.imap_port), timeout=1) as s:
                    if s.recv(512).startswith(b"* OK"):
                        return
            except OSError:
                pass
            time.sleep(0.02)
        raise TimeoutError(f"no IMAP greeting on port {self.imap_port}")

    # -- accounts --
    def add_account(self, name: str) -> Account:
        """The account ``name`` (an address, or a local part at example.test) with its Maildir."""
        address = (name if "@" in name else f"{name}@{DOMAIN}").lower()
        with self._lock:
            if address not in self.accounts:
                maildir = self.root / "mail" / address
                mailbox.Maildir(maildir, create=True)
                for d in (maildir, maildir / "tmp", maildir / "new", maildir / "cur"):
                    os.chown(d, self.uid, self.gid)
                self.accounts[address] = Account(address, f"{address.split('@')[0]}-pw", maildir)
            return self.accounts[address]

    def new_account(self, prefix: str = "user") -> Account:
        """A fresh account no other test uses: ``<prefix>-<n>@example.test``."""
        return self.add_account(f"{prefix}-{next(self._seq)}")

    # -- mail --
    def deliver(self, address: str, raw: bytes, folder: str | None = None) -> None:
        """Put ``raw`` straight into an account's Maildir (or a sub-folder of it), as a local
        delivery agent would: no SMTP, the bytes exactly as given."""
        account = self.add_account(address)
        maildir = account.maildir / f".{folder}" if folder else account.maildir
        if not (maildir / "new").is_dir():
            for d in (maildir, maildir / "tmp", maildir / "new", maildir / "cur"):
                d.mkdir(exist_ok=True)
                os.chown(d, self.uid, self.gid)
        name = f"{time.time_ns()}.P{os.getpid()}Q{next(self._seq)}.rig"
        with open(maildir / "tmp" / name, "wb") as f:
            f.write(raw)
            os.fchown(f.fileno(), self.uid, self.gid)
        os.rename(maildir / "tmp" / name, maildir / "new" / name)

    def send(self, raw: bytes, to: list[str] | str, mail_from: str = f"tester@{DOMAIN}") -> None:
        """Send ``raw`` over SMTP to ``to`` (the rig's SMTP server delivers it). Line ends
        become CRLF on the wire, as a mail program sends them (smtplib sends bytes as given)."""
        with smtplib.SMTP("127.0.0.1", self.smtp_port, timeout=10) as smtp:
            smtp.sendmail(
                mail_from, [to] if isinstance(to, str) else to, re.sub(rb"\r?\n", b"\r\n", raw)
            )

    def imap(self, address: str) -> IMAPClient:
        """An IMAP connection logged in to the account (plain, on loopback)."""
        account = self.add_account(address)
        client = IMAPClient("127.0.0.1", self.imap_port, ssl=False, timeout=10)
        client.login(account.address, account.password)
        return client

    def read_mails(self, address: str, folder: str = "INBOX") -> list[bytes]:
        """The mails in an account's folder over IMAP, oldest first, without marking them seen."""
        with self.imap(address) as client:
            client.select_folder(folder, readonly=True)
            uids = sorted(client.search("ALL"))
            data = client.fetch(uids, ["BODY.PEEK[]"]) if uids else {}
            return [data[uid][b"BODY[]"] for uid in uids]
