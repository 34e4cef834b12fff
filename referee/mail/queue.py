"""What waits in the outbox's queue, and what it gave up untold, told without the outbox's
senders and the email package (``outbox`` imports them): a tick with nothing to do asks only
this."""

from __future__ import annotations

import json
import logging
import os
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from ..files import private_folder

log = logging.getLogger(__name__)

FAILING = "addresses.json"
"""The queue's note of the addresses the server refuses for now (``outbox.FailingAddresses``)."""

RESTING = "resting.json"
"""The queue's note of the mails its last flush left resting (every address of each failing,
none due for its next try) and until when: ``{"mails": [names], "until": ISO time}``."""


OUTAGE = "outage.json"
"""The queue's note of the times no mail could go out at all (the server not reached, the
login refused, the outbox Maildir not written): ``{"since": ISO time or null, "past":
[[since, until], ...]}``, the outage going on if any, and the last ``KEPT_OUTAGES`` that
ended. Deadlines stand still through them: a player cannot act on a mail not sent."""
KEPT_OUTAGES = 50  # a deadline runs at most a few weeks: these reach back far enough


@dataclass(frozen=True)
class Outages:
    """What ``OUTAGE`` says: since when no mail can go out (None: mail goes out), and the
    outages that ended, oldest first."""

    since: datetime | None = None
    past: tuple[tuple[datetime, datetime], ...] = ()

    def to_data(self) -> dict:
        return {
            "since": self.since.isoformat() if self.since else None,
            "past": [[a.isoformat(), b.isoformat()] for a, b in self.past[-KEPT_OUTAGES:]],
        }


def outages(queue_dir: str | os.PathLike) -> Outages:
    """The queue's ``OUTAGE`` note; none when it has none, or one that cannot be read (the
    deadlines then run through a past outage: the note is a record, not the mail)."""
    path = Path(queue_dir) / OUTAGE
    try:
        data = json.loads(path.read_bytes())
        since = data["since"]
        return Outages(
            datetime.fromisoformat(since) if since is not None else None,
            tuple((datetime.fromisoformat(a), datetime.fromisoformat(b)) for a, b in data["past"]),
        )
    except FileNotFoundError:
        return Outages()
    except (OSError, ValueError, TypeError, KeyError) as err:
        log.warning("%s cannot be read (%s): no outage is known", path, err)
        return Outages()


def make_folders(queue_dir: str | os.PathLike) -> None:
    """The queue's folder and its own (sent/, failed/, names/), made where missing; OSError
    when one cannot be (a file in the way)."""
    for folder in ("", "sent", "failed", "names"):
        private_folder(Path(queue_dir) / folder)


def queued(queue_dir: str | os.PathLike) -> list[str]:
    """Names of the messages queued in ``queue_dir`` (``<name>.eml``), oldest first."""
    return sorted(p.name for p in Path(queue_dir).glob("*.eml"))


def given_up(queue_dir: str | os.PathLike) -> list[Path]:
    """The mails the outbox gave up (``failed/<name>.eml``), oldest first."""
    return sorted((Path(queue_dir) / "failed").glob("*.eml"))


def given_up_untold(queue_dir: str | os.PathLike) -> list[Path]:
    """The mails the outbox gave up that no one was told of yet (no ``<name>.eml.told``
    beside them), oldest first."""
    return [p for p in given_up(queue_dir) if not p.with_name(f"{p.name}.told").exists()]


def resting_until(queue_dir: str | os.PathLike) -> datetime | None:
    """When the mails the last flush left resting are due again (None: no note of any)."""
    try:
        rest = json.loads((Path(queue_dir) / RESTING).read_bytes())
        return datetime.fromisoformat(rest["until"]) if rest["mails"] else None
    except (OSError, ValueError, TypeError, KeyError):
        return None


def due_to_send(queue_dir: str | os.PathLike, now: datetime) -> bool:
    """Whether the queue holds mail to try now: any, but for the very mails the last flush
    left resting (``RESTING``) until their time comes. A mail queued since, or a note that
    cannot be read, is due."""
    names = queued(queue_dir)
    if not names:
        return False
    try:
        rest = json.loads((Path(queue_dir) / RESTING).read_bytes())
        return names != rest["mails"] or now >= datetime.fromisoformat(rest["until"])
    except (OSError, ValueError, TypeError, KeyError):
        return True
