"""What a tick did, as ``referee tick``, the cron log and ``referee status`` tell it."""

from __future__ import annotations


class TickReport:
    """(A plain class, not a dataclass: a tick at rest tells its line without importing
    dataclasses and all they import.)"""

    def __init__(
        self,
        fetched: int = 0,
        applied: int = 0,  # mails whose orders went into a campaign's log
        ignored: int = 0,  # machine mail, duplicates
        answered: int = 0,  # mails queued
        sent: int = 0,
        waiting: int = 0,  # still queued after sending
        errors: list[str] | None = None,
        skipped: list[str] | None = None,  # campaigns that could not be played
    ):
        self.fetched = fetched
        self.applied = applied
        self.ignored = ignored
        self.answered = answered
        self.sent = sent
        self.waiting = waiting
        self.errors: list[str] = errors if errors is not None else []
        self.skipped: list[str] = skipped if skipped is not None else []

    def summary(self) -> str:
        text = (
            f"fetched {self.fetched}, applied {self.applied}, ignored {self.ignored}, "
            f"queued {self.answered}, sent {self.sent}, still queued {self.waiting}"
        )
        return text + "".join(f"\nerror: {e}" for e in self.errors)
