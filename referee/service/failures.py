"""Failures the game masters must hear of, since no player will tell them: a mail that
could not be read or handled, a campaign skipped by a tick.

Each is appended to ``state/failures.jsonl`` when it happens. Once a day at most, a tick mails
the site's game masters (referee.yaml's ``referee.game_masters``) a short summary of the
failures since the last one: at most ``SHOWN`` of them, then how many more there were
(``answers.tell_failures``).
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime, timedelta

from ..files import append_record, whole
from ..store.site import SiteFiles

log = logging.getLogger(__name__)

SHOWN = 30  # failures listed in one summary
EVERY = timedelta(days=1)
MAX_ERROR = 500  # characters of one error kept


MAX_FILE = 4 * 1024 * 1024  # a campaign broken for months must not fill the disk


def note_failure(site: SiteFiles, what: str, error: str, now: datetime | None = None) -> None:
    now = now or datetime.now(UTC)
    path = site.state_dir / "failures.jsonl"
    if path.exists() and path.stat().st_size > MAX_FILE:
        log.error("%s is full: %s not noted there (%s)", path, what, error)
        return
    append_record(
        path,
        {"at": now.isoformat(), "what": what, "error": " ".join(error.split())[:MAX_ERROR]},
    )


def told_of(data: dict) -> dict:
    """The summaries told so far: how many failures, and when the last went."""
    if data["at"] is not None:
        datetime.fromisoformat(data["at"])
    return {"count": whole(data["count"]), "at": data["at"]}
