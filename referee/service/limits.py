"""How much mail anyone can make the referee send: no mail loop, and no flood of forged mail,
can run unbounded, whatever answers (referee.yaml's ``limits``).

Every answer to a mail (a confirmation, a notice outside a game, the answer to a mail that
could not be read) is counted against the address it goes to, in a sliding hour and day.
Answers to strangers (unknown senders, wrong tokens, mail outside any game from an address
that plays nowhere) have stricter limits than answers to players, and all of them together
have a budget an hour, so that a flood of mail from forged addresses draws a bounded number
of answers. Over a limit, the mail is still taken and recorded; it is only not answered.
Not counted: the confirmation of a mail whose orders moved the game on, digests and
reminders: they follow the game, whose length bounds them.

A player's messages relayed to others (`message ...`) have a budget an hour of their own;
over it, the message is refused, saying when the budget frees up. An observer is added
only once a reply from their address brings back the one-time code mailed to it
(``ObserveCodes``).

The counts live in ``state/answers.json`` (derived, small: the times of the last day, per
address and kind), the codes in ``state/observe-codes.json``.
"""

from __future__ import annotations

import json
import logging
import secrets
from datetime import UTC, datetime, timedelta
from pathlib import Path

from ..files import atomic_write, instant
from ..settings.site import AnswerLimits, Audience

log = logging.getLogger(__name__)


HOUR, DAY = timedelta(hours=1), timedelta(days=1)
STRANGER = f"{Audience.STRANGER.value} "  # the keys of strangers' answers start so


class AnswerBook:
    """The answers and relayed messages of the last day, per address and kind."""

    def __init__(self, path: Path, limits: AnswerLimits):
        self.path, self.limits = path, limits
        self.times: dict[str, list[datetime]] = {}
        self.counted: datetime | None = None  # when the last answer not saved yet was counted
        if path.exists():
            try:
                data = json.loads(path.read_text())
                self.times = {str(k): [instant(t) for t in v] for k, v in data.items()}
            except (ValueError, TypeError, AttributeError):  # derived: start afresh
                log.warning("%s is unreadable; answer counts start afresh", path)

    def allow(self, address: str, audience: Audience, now: datetime | None = None) -> bool:
        """Whether ``address`` may have one more answer now; if so, it is counted. A
        stranger's counts under the budget of all strangers together too."""
        now = now or datetime.now(UTC)
        key = f"{audience.value} {address.lower()}"
        per_hour, per_day = self.limits.of(audience)
        if self.spend(key, per_hour, now, per_day) is None:
            return True
        log.warning("no answer to %s: over the limit for %ss", address, audience.value)
        return False

    def spend(
        self, key: str, per_hour: int, now: datetime, per_day: int | None = None
    ) -> datetime | None:
        """Count one more under ``key`` if its limits allow it now (None); else when the
        next one will be allowed, counting nothing."""
        recent = [t for t in self.times.get(key, []) if now - t < DAY]
        self.times[key] = recent
        last_hour = sorted(t for t in recent if now - t < HOUR)
        frees = None
        if per_day is not None and len(recent) >= per_day:
            frees = min(recent) + DAY
        elif len(last_hour) >= per_hour:
            frees = last_hour[len(last_hour) - per_hour] + HOUR
        elif key.startswith(STRANGER):
            everyone = sorted(t for k, v in self.times.items() if k.startswith(STRANGER) for t in v)
            site = [t for t in everyone if now - t < HOUR]
            most = self.limits.strangers_site_per_hour
            if len(site) >= most:
                log.warning("answers to strangers: over the site's %d an hour", most)
                frees = site[len(site) - most] + HOUR
        if frees is not None:
            return frees
        self.times[key] = recent + [now]
        self.counted = now
        return None

    def save(self) -> None:
        """Keep what was counted since the last save, once a tick has queued its answers
        (``Post.save``): a tick killed before loses its own counts, never another's."""
        now = self.counted
        if now is None:
            return
        kept = {k: [t.isoformat() for t in v if now - t < DAY] for k, v in self.times.items()}
        atomic_write(self.path, json.dumps({k: v for k, v in kept.items() if v}), durable=False)
        self.counted = None


CODE_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"
CODE_HOURS = 48  # how long a code mailed to a would-be observer holds
# a code is the token of its reply's plus-address, and says what the reply confirms:
# observe-<code> to start observing, unobserve-<code> to stop
OBSERVE_CODE, UNOBSERVE_CODE = "observe-", "unobserve-"


class ObserveCodes:
    """The one-time codes mailed to those who asked to observe a game or to stop, each for
    one game and one address (the newest asked), until it is used or CODE_HOURS have
    passed. A code is issued only when its mail goes out (within the answer limits), so
    their number is bounded too."""

    def __init__(self, path: Path):
        self.path = path
        try:
            data = json.loads(path.read_bytes())
            self.codes: dict[str, dict[str, str]] = {
                str(k): {"code": str(v["code"]), "at": str(v["at"])} for k, v in data.items()
            }
        except FileNotFoundError:
            self.codes = {}
        except (ValueError, TypeError, KeyError, AttributeError):
            log.warning("%s is unreadable; the codes mailed before no longer hold", path)
            self.codes = {}

    @staticmethod
    def new(kind: str = OBSERVE_CODE) -> str:
        """A new code, for what ``kind`` (OBSERVE_CODE, UNOBSERVE_CODE) asks."""
        return kind + "".join(secrets.choice(CODE_ALPHABET) for _ in range(10))

    def keep(self, campaign_id: str, address: str, code: str, now: datetime) -> None:
        """``code`` was mailed to ``address`` for ``campaign_id``: it holds from now."""
        self.codes[f"{campaign_id} {address.lower()}"] = {"code": code, "at": now.isoformat()}
        self.save(now)

    def use(self, campaign_id: str, address: str, code: str, now: datetime) -> bool:
        """Whether ``code`` is the one mailed to ``address`` for ``campaign_id``, and still
        holds; a code that matches is used up."""
        key = f"{campaign_id} {address.lower()}"
        kept = self.codes.get(key)
        if kept is None or not _fresh(kept, now):
            return False
        if not secrets.compare_digest(kept["code"], code.lower()):
            return False
        del self.codes[key]
        self.save(now)
        return True

    def save(self, now: datetime) -> None:
        fresh = {k: v for k, v in self.codes.items() if _fresh(v, now)}
        atomic_write(self.path, json.dumps(fresh), durable=False)


def _fresh(kept: dict[str, str], now: datetime) -> bool:
    try:
        return now - datetime.fromisoformat(kept["at"]) < timedelta(hours=CODE_HOURS)
    except (ValueError, TypeError):
        return False
