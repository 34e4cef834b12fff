"""What waits in the outbox's queue, and what it gave up untold, told without the outbox's
senders and the email package (``outbox`` imports them): a tick with nothing to do asks only
this."""

from __future__ import annotations

import os
from pathlib import Path


def queued(queue_dir: str | os.PathLike) -> list[str]:
    """Names of the messages queued in ``queue_dir`` (``<name>.eml``), oldest first."""
    return sorted(p.name for p in Path(queue_dir).glob("*.eml"))


def given_up_untold(queue_dir: str | os.PathLike) -> list[Path]:
    """The mails the outbox gave up (``failed/<name>.eml``) that no one was told of yet (no
    ``<name>.eml.told`` beside them), oldest first."""
    failed = Path(queue_dir) / "failed"
    return [p for p in sorted(failed.glob("*.eml")) if not (failed / f"{p.name}.told").exists()]
