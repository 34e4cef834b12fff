"""What a tick did, as ``referee tick``, the cron log and ``referee status`` tell it."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class TickReport:
    fetched: int = 0
    applied: int = 0  # mails whose orders went into a campaign's log
    ignored: int = 0  # machine mail, duplicates
    answered: int = 0  # mails queued
    sent: int = 0
    waiting: int = 0  # still queued after sending
    errors: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)  # campaigns that could not be played

    def summary(self) -> str:
        text = (
            f"fetched {self.fetched}, applied {self.applied}, ignored {self.ignored}, "
            f"queued {self.answered}, sent {self.sent}, still queued {self.waiting}"
        )
        return text + "".join(f"\nerror: {e}" for e in self.errors)
