"""How many answers one address may get: no mail loop can run unbounded, whatever answers.

Every answer to a mail (a confirmation, a notice outside a game, the answer to a mail that
could not be read) is counted against the address it goes to, in a sliding hour and day.
Answers to strangers (unknown senders, wrong tokens, mail outside any game) have stricter
limits than answers to players with a valid token. Over a limit, the mail is still taken
and recorded; it is only not answered. Not counted: the confirmation of a mail whose orders
moved the game on, digests and reminders: they follow the game, whose length bounds them.

The counts live in ``state/answers.json`` (derived, small: the times of the answers of the
last day, per address).
"""

from __future__ import annotations

import json
import logging
from datetime import UTC, datetime, timedelta
from pathlib import Path

from ..files import atomic_write
from ..settings.site import AnswerLimits, Audience

log = logging.getLogger(__name__)


HOUR, DAY = timedelta(hours=1), timedelta(days=1)


class AnswerBook:
    """The answers of the last day, per address and audience."""

    def __init__(self, path: Path, limits: AnswerLimits):
        self.path, self.limits = path, limits
        self.times: dict[str, list[datetime]] = {}
        if path.exists():
            try:
                data = json.loads(path.read_text())
                self.times = {k: [datetime.fromisoformat(t) for t in v] for k, v in data.items()}
            except (ValueError, TypeError, AttributeError):  # derived: start afresh
                log.warning("%s is unreadable; answer counts start afresh", path)

    def allow(self, address: str, audience: Audience, now: datetime | None = None) -> bool:
        """Whether ``address`` may have one more answer now; if so, it is counted."""
        now = now or datetime.now(UTC)
        key = f"{audience.value} {address.lower()}"
        recent = [t for t in self.times.get(key, []) if now - t < DAY]
        per_hour, per_day = self.limits.of(audience)
        if len(recent) >= per_day or sum(now - t < HOUR for t in recent) >= per_hour:
            self.times[key] = recent
            log.warning("no answer to %s: over the limit for %ss", address, audience.value)
            return False
        self.times[key] = recent + [now]
        self.save(now)
        return True

    def save(self, now: datetime) -> None:
        kept = {k: [t.isoformat() for t in v if now - t < DAY] for k, v in self.times.items()}
        atomic_write(self.path, json.dumps({k: v for k, v in kept.items() if v}), durable=False)
