"""What waits in the outbox's queue, and what it gave up untold, told without the outbox's
senders and the email package (``outbox`` imports them): a tick with nothing to do asks only
this."""

from __future__ import annotations

import json
import os
from datetime import datetime
from pathlib import Path

RESTING = "resting.json"
"""The queue's note of the mails its last flush left resting (every address of each failing,
none due for its next try) and until when: ``{"mails": [names], "until": ISO time}``."""


def make_folders(queue_dir: str | os.PathLike) -> None:
    """The queue's folder and its own (sent/, failed/, names/), made where missing; OSError
    when one cannot be (a file in the way)."""
    for folder in ("", "sent", "failed", "names"):
        (Path(queue_dir) / folder).mkdir(parents=True, exist_ok=True)


def queued(queue_dir: str | os.PathLike) -> list[str]:
    """Names of the messages queued in ``queue_dir`` (``<name>.eml``), oldest first."""
    return sorted(p.name for p in Path(queue_dir).glob("*.eml"))


def given_up_untold(queue_dir: str | os.PathLike) -> list[Path]:
    """The mails the outbox gave up (``failed/<name>.eml``) that no one was told of yet (no
    ``<name>.eml.told`` beside them), oldest first."""
    failed = Path(queue_dir) / "failed"
    return [p for p in sorted(failed.glob("*.eml")) if not (failed / f"{p.name}.told").exists()]


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
