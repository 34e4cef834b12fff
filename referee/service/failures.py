"""Failures the game masters must hear of, since no player will tell them: a mail that
could not be read or handled, a campaign skipped by a tick.

Each is appended to ``state/failures.jsonl`` when it happens. Once a day at most, a tick mails
the site's game masters (referee.yaml's ``referee.game_masters``) a short summary of the
failures since the last one: at most ``SHOWN`` of them, then how many more there were
(``answers.tell_failures``).
"""

from __future__ import annotations

import json
import logging
from datetime import UTC, datetime, timedelta
from pathlib import Path

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


def summary_due(state_dir: Path, game_masters: list[str], now: datetime) -> bool:
    """Whether the game masters may have a summary due (``answers.tell_failures`` decides):
    failures noted beyond those told, the last summary a day old. Asked by a tick with
    nothing else to do, so it reads the files without judging them: a damaged one says yes,
    and the summary's own reading tells of the damage."""
    if not game_masters:
        return False
    try:
        noted = (state_dir / "failures.jsonl").read_bytes().count(b"\n")
    except FileNotFoundError:
        return False
    try:
        told = told_of(json.loads((state_dir / "failures-told.json").read_bytes()))
    except FileNotFoundError:
        return noted > 0
    except (ValueError, KeyError, TypeError, AttributeError):
        return True
    if told["at"] and now - datetime.fromisoformat(told["at"]) < EVERY:
        return False
    return noted > told["count"]
