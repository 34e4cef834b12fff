"""How long a tick's mail handling takes with 1,000 small mails waiting, on the real rig
(Dovecot and aiosmtpd on loopback, started here; needs dovecot-imapd and openssl).

    python3 bench/fetch_bench.py [--mails 1000]

Prints, in seconds: the bare IMAP fetch (login, search and FETCH BODY.PEEK[] of every mail),
reading them (read_mail), moving them all to the processed folder (one MOVE), and queueing
and sending the same number of answers through the outbox over SMTP.
"""

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from mailrig.rig import MailRig  # noqa: E402

from referee.mail.compose import compose  # noqa: E402
from referee.mail.imap import ImapInbox  # noqa: E402
from referee.mail.outbox import Outbox, SmtpSender  # noqa: E402
from referee.mail.read import read_mail  # noqa: E402


def small_mail(n: int) -> bytes:
    return (
        f"From: Player {n % 5} <player{n % 5}@example.test>\n"
        f"To: referee+bus1.tok{n % 5}@example.test\n"
        f"Subject: Re: [bus1] Round {n // 5}\nMessage-ID: <bench-{n}@example.test>\n"
        "Date: Mon, 03 Jun 2024 10:00:00 +0200\n\n"
        f"build {n % 36}-{(n + 1) % 36}\n\nOn Mon, Referee wrote:\n> Round {n // 5}\n"
    ).encode()


def timed(label: str, action):
    start = time.perf_counter()
    result = action()
    print(f"{label:<48} {time.perf_counter() - start:8.3f} s")
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mails", type=int, default=1000)
    count = parser.parse_args().mails
    with MailRig() as rig:
        referee = rig.add_account("referee")
        for n in range(count):
            rig.deliver(referee.address, small_mail(n))
        with tempfile.TemporaryDirectory() as state:
            inbox = ImapInbox(
                "127.0.0.1",
                rig.imap_port,
                referee.address,
                referee.password,
                security="none",
                state_path=Path(state) / "imap-state.json",
            )
            mails = timed(f"IMAP fetch of {count} mails (with login)", inbox.fetch)
            assert len(mails) == count
            incoming = timed(
                f"read_mail of {count} mails",
                lambda: [read_mail(m.raw, referee.address) for m in mails],
            )
            assert all(i.plus_tag and i.text.startswith("build") for i in incoming)
            timed(
                f"mark_processed of {count} mails (one MOVE)",
                lambda: inbox.mark_processed(m.key for m in mails),
            )
            assert timed("IMAP fetch of an empty inbox", inbox.fetch) == []
            inbox.close()

            outbox = Outbox(Path(state) / "queue")
            timed(
                f"Outbox.queue of {count} answers",
                lambda: [
                    outbox.queue(
                        compose(
                            from_address=referee.address,
                            from_name="Referee",
                            to=[i.sender_address],
                            subject=f"Re: {i.subject}",
                            text="Accepted: build\n",
                            in_reply_to=i.message_id,
                        )
                    )
                    for i in incoming
                ],
            )
            report = timed(
                f"Outbox.flush of {count} answers over SMTP",
                lambda: outbox.flush(SmtpSender("127.0.0.1", rig.smtp_port, security="none")),
            )
            assert len(report.sent) == count


if __name__ == "__main__":
    main()
