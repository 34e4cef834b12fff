"""The time of one tick that takes 1,000 order mails across 50 campaigns, with the inbox on
the local Maildir and on Dovecot (IMAP), beside a bare IMAP fetch of the same mails.

    python3 bench/tick_bench.py [--campaigns 50] [--mails 1000]

Each mail is a player's reply with orders (some applied at once, most kept for later
decisions); the tick applies them, answers every one and sends the answers into a local
Maildir. The Dovecot run needs dovecot-imapd (as the tests do) and root.
"""

import argparse
import sys
import tempfile
import time
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from referee.mail.imap import ImapInbox
from referee.service.site import Site
from referee.service.tick import tick
from referee.settings.site import load_config, write_default_config

ORDERS = [
    "build house 15\nbuild pub 16",
    "build office 21\nbuild office 22",
    "action vroom\naction line",
    "line 26-27",
    "action buses\npass",
    "build pub 10\nbuild house 20",
]


def order_mails(site: Site, campaigns: int, mails: int) -> list[bytes]:
    raws = []
    for i in range(mails):
        campaign = site.campaign(f"c{i % campaigns:02d}")
        seat = (i // campaigns) % len(campaign.players)
        player = campaign.players[seat]
        msg = EmailMessage()
        msg["From"] = f"{player.name} <{player.address}>"
        msg["To"] = site.identity.plus(campaign.id, player.token)
        msg["Subject"] = f"Re: [{campaign.id}] Round 0: your turn"
        msg["Message-ID"] = make_msgid(domain="bench.example")
        msg.set_content(ORDERS[i % len(ORDERS)] + "\n\nOn Monday, Referee wrote:\n> ...\n")
        raws.append(msg.as_bytes())
    return raws


def new_site(root: Path, campaigns: int, inbox: str | None = None) -> Site:
    path = write_default_config(root)
    if inbox:
        text = path.read_text()
        start = text.index("inbox:\n  type: maildir")
        end = text.index("\n# inbox:")
        path.write_text(text[:start] + inbox + text[end:])
    site = Site(load_config(path))
    for c in range(campaigns):
        site.new_campaign(
            "bus",
            f"c{c:02d}",
            [
                f"P{c}a <p{c}a@bench.example>",
                f"P{c}b <p{c}b@bench.example>",
                f"P{c}c <p{c}c@bench.example>",
            ],
            seed=c,
        )
    tick(site)  # send the welcomes: not part of the figure
    return site


def timed_tick(site: Site) -> tuple[float, object]:
    start = time.perf_counter()
    report = tick(site)
    return time.perf_counter() - start, report


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--campaigns", type=int, default=50)
    parser.add_argument("--mails", type=int, default=1000)
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        site = new_site(Path(tmp), args.campaigns)
        import mailbox

        box = mailbox.Maildir(site.config.inbox.path, create=False)
        for raw in order_mails(site, args.campaigns, args.mails):
            box.add(raw)
        seconds, report = timed_tick(site)
        print(
            f"local Maildir: one tick of {report.fetched} order mails across "
            f"{args.campaigns} campaigns: {seconds:.2f} s "
            f"({seconds / max(report.fetched, 1) * 1000:.1f} ms a mail; "
            f"{report.applied} applied, {report.answered} answers queued, {report.sent} sent)"
        )

    try:
        from mailrig.rig import MailRig
    except ImportError as err:
        print(f"Dovecot run skipped: {err}")
        return
    with MailRig() as rig, tempfile.TemporaryDirectory() as tmp:
        referee = rig.new_account("referee")
        import os

        os.environ["REFEREE_BENCH_IMAP_PASSWORD"] = referee.password
        inbox = (
            f"inbox:\n  type: imap\n  host: 127.0.0.1\n  port: {rig.imap_port}\n"
            f"  security: none\n  user: {referee.address}\n"
            f"  password_env: REFEREE_BENCH_IMAP_PASSWORD\n"
        )
        site = new_site(Path(tmp), args.campaigns, inbox)
        text = site.config.path.read_text().replace("referee@localhost", referee.address)
        site.config.path.write_text(text)
        site = Site(load_config(site.config.path))
        raws = order_mails(site, args.campaigns, args.mails)
        for raw in raws:
            rig.deliver(referee.address, raw)
        start = time.perf_counter()
        with ImapInbox(
            "127.0.0.1",
            rig.imap_port,
            referee.address,
            referee.password,
            security="none",
            state_path=Path(tmp) / "bare-state.json",
        ) as bare:
            fetched = bare.fetch()
        bare_seconds = time.perf_counter() - start
        seconds, report = timed_tick(site)
        print(
            f"Dovecot (IMAP): one tick of {report.fetched} order mails across "
            f"{args.campaigns} campaigns: {seconds:.2f} s "
            f"({report.applied} applied, {report.answered} answers queued, {report.sent} sent)"
        )
        print(
            f"Dovecot (IMAP): a bare fetch of the same {len(fetched)} mails: {bare_seconds:.2f} s"
        )


if __name__ == "__main__":
    main()
