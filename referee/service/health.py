"""The site's health at a glance, for `referee status` and a monitoring system: the last tick
and what came of it, the mail waiting to go out and failing, and the mail and campaigns that
wait for the game master."""

from __future__ import annotations

from datetime import datetime

from ..store.names import QUARANTINE
from .site import Site


def health(site: Site, now: datetime) -> dict:
    """``ok`` is false when the last tick did not go well (or none ran yet); a monitoring
    system also watches ``seconds_since_last_tick``, which grows when ticks stop."""
    last = site.last_tick()
    outbox = site.outbox
    failing = outbox.failing()
    pending = outbox.pending()
    failing_mails = sum(
        1
        for name in pending
        if outbox.error_note(name) is not None
        or all(a.lower() in failing for a in outbox.outgoing(name).recipients)
    )

    def since(key: str) -> int | None:
        at = (last or {}).get(key)
        return round((now - datetime.fromisoformat(at)).total_seconds()) if at else None

    skipped = list((last or {}).get("skipped") or [])
    return {
        "ok": (last or {}).get("outcome") == "ok",
        "last_tick": last,
        "seconds_since_last_tick": since("at"),
        "seconds_since_last_ok_tick": since("last_ok"),
        "campaigns_skipped": skipped,
        "mails_waiting": len(pending),
        "mails_failing": failing_mails,
        "addresses_failing": failing,
        "mails_undelivered": sum(1 for _ in outbox.failed_dir.glob("*.eml")),
        "mails_quarantined": sum(1 for _ in (site.state_dir / QUARANTINE).glob("*.eml")),
    }
