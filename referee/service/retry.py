"""`referee retry`: the mails kept in the quarantine (state/quarantine/) taken again once
what stopped them is mended (a campaign's settings, a fault fixed by an upgrade), the way a
tick takes a new mail: each is applied exactly once, whatever happened before.

A quarantined mail is taken again while its last outcome (state/received.jsonl) is a
failure. The campaign's log guards it as it guards every mail: a mail whose Message-ID is in
the log is never applied again (a failure that came after its record was written, or a retry
killed after it). received.jsonl guards the rest: a mail whose last outcome is no longer a
failure is not taken again, only moved to quarantine/retried/ (a retry killed before that
move). A mail still failing stays where it is, with its failure noted again for the game
masters, and its sender is not answered a second time. A mail too large to read is not taken
again: only its head was kept (the whole of it is in the inbox's processed folder).
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from ..files import fsync_dir
from ..mail.inbox import InMail, read_file
from ..store.names import QUARANTINE
from ..store.site import raw_name
from .intake import FAILED, TOO_LARGE, UNREADABLE
from .report import TickReport
from .site import Site
from .work import take_and_answer


@dataclass
class Kept:
    """A mail of the quarantine: its file, its sender and Message-ID (``key``; None when no
    outcome names it yet: a tick is taking it) and its last outcome, before and after the
    retry."""

    path: Path
    key: tuple[str | None, str] | None
    before: str | None
    after: str | None = None

    @property
    def message_id(self) -> str | None:
        return self.key[1] if self.key else None

    @property
    def retried(self) -> bool:
        return failing(self.before) and not self.too_large

    @property
    def too_large(self) -> bool:
        return (self.before or "").startswith(f"{UNREADABLE}: {TOO_LARGE}")


def failing(outcome: str | None) -> bool:
    return outcome is not None and outcome.startswith((f"{FAILED}: ", f"{UNREADABLE}: "))


class Quarantine:
    """The quarantine as the inbox of one retry: ``fetch`` gives the mails to take again,
    ``mark_processed`` moves every mail whose outcome is no longer a failure to retried/."""

    def __init__(self, site: Site):
        self.site = site
        self.folder = site.state_dir / QUARANTINE
        self.retried_dir = self.folder / "retried"
        outcomes = site.received_outcomes()
        # a mail is kept under its sender and Message-ID (``Site.keep_raw``); one kept by an
        # older referee, under its Message-ID alone
        by_name = {raw_name(mid): (sender, mid) for sender, mid in outcomes}
        by_name |= {raw_name(f"{s} {mid}"): (s, mid) for s, mid in outcomes if s is not None}
        self.kept = []
        for path in sorted(self.folder.glob("*.eml"), key=lambda p: (p.stat().st_mtime, p.name)):
            key = by_name.get(path.name)
            self.kept.append(Kept(path, key, outcomes.get(key) if key else None))

    @property
    def retrying(self) -> frozenset[tuple[str | None, str]]:
        return frozenset(k.key for k in self.kept if k.retried and k.key)

    def fetch(self, limit: int | None = None) -> list[InMail]:
        taken = [k.path for k in self.kept if k.retried]
        return [InMail(p.name, p.stat().st_size, read_file(p)) for p in taken[:limit]]

    def mark_processed(self, keys: Iterable[str]) -> None:
        outcomes = self.site.received_outcomes()
        moved = False
        for kept in self.kept:
            if kept.key is None:
                continue
            kept.after = outcomes.get(kept.key)
            if kept.after is not None and not failing(kept.after):
                self.retried_dir.mkdir(exist_ok=True)
                os.replace(kept.path, self.retried_dir / kept.path.name)
                moved = True
        if moved:
            fsync_dir(self.retried_dir)
            fsync_dir(self.folder)

    def close(self) -> None:
        pass

    def __enter__(self) -> Quarantine:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def retry(site: Site, now: datetime | None = None) -> tuple[TickReport, list[Kept]]:
    """Take the quarantined mails again, and answer and send as a tick does; the caller
    holds the tick lock. Returns the tick's report and every mail of the quarantine."""
    quarantine = Quarantine(site)
    report = take_and_answer(site, quarantine, now or datetime.now(UTC), quarantine.retrying)
    return report, quarantine.kept
