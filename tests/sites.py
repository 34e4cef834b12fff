"""Test sites on the embedded default (local Maildirs), and mail as people write it."""

from __future__ import annotations

import json
import mailbox
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from email.utils import formatdate, make_msgid
from pathlib import Path

from click.testing import CliRunner

from referee import mailbot
from referee.cli import main
from referee.service.site import Site
from referee.service.tick import tick
from referee.settings.site import load_config, write_default_config

PLAYERS = ["Ann <ann@example.org>", "Bob <bob@example.org>", "Cid <cid@example.org>"]
ADDRESSES = ["ann@example.org", "bob@example.org", "cid@example.org"]


def make_site(root: Path, address: str = "referee@example.org") -> Site:
    path = write_default_config(root)
    text = path.read_text().replace("referee@localhost", address)
    path.write_text(text)
    return Site(load_config(path))


def bus_game(root: Path) -> tuple[Site, Mailboxes]:
    """A 3-player Bus campaign `bus1` (seed 1: Ann builds first), its welcomes sent."""
    site = make_site(root)
    site.new_campaign("bus", "bus1", PLAYERS, seed=1)
    run_tick(site)
    return site, Mailboxes(site)


def reload(site: Site) -> Site:
    return Site(load_config(site.config.path))


def with_game_master(site: Site, address: str, token_env: str) -> Site:
    """The site with a site game master (referee.yaml's game_masters), read afresh."""
    path = site.config.path
    path.write_text(
        path.read_text().replace(
            "  # game_masters:",
            f"  game_masters:\n    - address: {address}\n      token_env: {token_env}\n  #",
        )
    )
    return reload(site)


class Mailboxes:
    """The players' side of a Maildir site: what the referee sent, and mail into its inbox."""

    def __init__(self, site: Site):
        self.site = site
        self.seen: set[str] = set()

    def sent(self) -> list[EmailMessage]:
        box = mailbox.Maildir(self.site.config.outbox.path, create=False)
        return [mailbot.parse(box.get_bytes(k)) for k in sorted(box.keys())]

    def new(self, address: str | None = None) -> list[EmailMessage]:
        """Mails not looked at before (to ``address``, or to anyone)."""
        box = mailbox.Maildir(self.site.config.outbox.path, create=False)
        found = []
        for key in sorted(box.keys()):
            if key in self.seen:
                continue
            msg = mailbot.parse(box.get_bytes(key))
            if address is None or address in recipients(msg):
                self.seen.add(key)
                found.append(msg)
        return found

    def deliver(self, msg: EmailMessage | bytes) -> None:
        raw = msg if isinstance(msg, bytes) else msg.as_bytes()
        mailbox.Maildir(self.site.config.inbox.path, create=False).add(raw)


def recipients(msg: EmailMessage) -> str:
    return " ".join(str(msg[h] or "") for h in ("To", "Cc")).lower()


def text_of(msg: EmailMessage) -> str:
    """A mail's plain text as a person reads it: its flowed paragraphs joined (the one way
    the tests read the referee's mail)."""
    return mailbot.body(msg)


def lines_as_sent(msg: EmailMessage) -> list[str]:
    """The lines of a mail's plain text as they travel (format=flowed: a paragraph in
    lines of at most 78 columns), each without the space that stuffs it."""
    sent = msg.get_body(("plain",)).get_content().split("\n")
    return [line[1:] if line.startswith(" ") else line for line in sent]


def person_mail(sender: str, to: str, subject: str, text: str, **headers) -> EmailMessage:
    msg = EmailMessage(policy=policy.default)
    msg["From"] = sender
    msg["To"] = to
    msg["Subject"] = subject
    msg["Date"] = formatdate()
    msg["Message-ID"] = make_msgid(domain="example.org")
    for name, value in headers.items():
        msg[name.replace("_", "-")] = value
    msg.set_content(text)
    return msg


def reply_to(msg: EmailMessage, sender: str, orders: str) -> EmailMessage:
    """A reply with the orders on top, the whole mail quoted and a signature."""
    name = sender.partition("@")[0].title()
    return mailbot.reply(msg, name, sender, orders.splitlines())


def confirmation_reply(asked: list[EmailMessage], sender: str) -> EmailMessage:
    """The reply that confirms observing a game: to the Reply-To (with its one-time code) of
    the referee's mail among ``asked`` that asks for it (whatever its language: the code in
    its Reply-To says what it asks)."""
    [ask] = [m for m in asked if ".observe-" in str(m["Reply-To"])]
    return person_mail(sender, str(ask["Reply-To"]), f"Re: {ask['Subject']}", "Yes, please.")


def status_health(site: Site) -> dict:
    """The health `referee status --json` shows a monitoring system, which must say it
    (exit status 0) whatever the site's files hold (a warning goes to stderr)."""
    shown = CliRunner().invoke(main, ["--config", str(site.config.path), "status", "--json"])
    assert shown.exit_code == 0, (shown.output, shown.exception)
    return json.loads(shown.stdout)["health"]


def run_tick(site: Site):
    report = tick(site)
    assert not report.errors, report.errors
    return report


def parse_raw(raw: bytes) -> EmailMessage:
    return BytesParser(policy=policy.default).parsebytes(raw)


def logged(campaign) -> list[dict]:
    """A campaign's log records as the log file holds them (JSON objects)."""
    return [record.to_json() for record in campaign.records()]
