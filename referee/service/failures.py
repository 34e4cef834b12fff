"""Failures the game masters must hear of, since no player will tell them: a mail that
could not be read or handled, a campaign skipped by a tick.

Each is appended to ``state/failures.jsonl`` when it happens. Once a day at most, a tick mails
the site's game masters (referee.yaml's ``referee.game_masters``) a short summary of the
failures since the last one: at most ``SHOWN`` of them, then how many more there were.
"""

from __future__ import annotations

import hashlib
import json
import logging
from datetime import UTC, datetime, timedelta

from ..files import StateDamaged, append_record, atomic_write, read_records, read_state, whole
from ..mail.compose import compose
from ..schema import SettingsError, load_file
from ..words.mails import message_id
from ..words.render import render, say
from .site import Site

log = logging.getLogger(__name__)

SHOWN = 30  # failures listed in one summary
EVERY = timedelta(days=1)
MAX_ERROR = 500  # characters of one error kept


MAX_FILE = 4 * 1024 * 1024  # a campaign broken for months must not fill the disk


def note_failure(site: Site, what: str, error: str, now: datetime | None = None) -> None:
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


def mail_summary(site: Site, now: datetime) -> bool:
    """Queue the summary of the failures not told yet to the site's game masters, when there
    are any and the last summary is a day old; True when one was queued."""
    if not site.config.game_masters:
        return False
    told_path = site.state_dir / "failures-told.json"
    try:
        told = read_state(told_path, told_of) or {"count": 0, "at": None}
    except StateDamaged as err:  # told afresh: a summary may repeat, none is lost
        log.error("%s", err)
        told = {"count": 0, "at": None}
    if told["at"] and now - datetime.fromisoformat(told["at"]) < EVERY:
        return False
    failures, _ = read_records(site.state_dir / "failures.jsonl")
    new = failures[told["count"] :]
    if not new:
        return False
    text = render("failures.txt", failures=new[:SHOWN], more=len(new) - SHOWN, site=site.root)
    msg = compose(
        from_address=site.identity.address,
        from_name=site.identity.name,
        to=[address for address, _ in site.config.game_masters],
        subject=f"referee: {len(new)} failure(s) since {told['at'] or 'the start'}",
        text=text,
        message_id=message_id(site.identity, "failures", len(failures)),
    )
    site.post.queue(None, msg)
    atomic_write(told_path, json.dumps({"count": len(failures), "at": now.isoformat()}))
    log.info("failure summary (%d) queued for the game masters", len(new))
    return True


def tell_stopped(site: Site, campaign_id: str, error: str) -> None:
    """A campaign a tick had to skip: its game master (as its file names them, if it can
    still be read that far) and the site's game masters are told what is wrong, once for
    each version of its files: the mail's Message-ID comes from the error and the files'
    sizes and times, so the next ticks queue it again in vain, and a new edit that is still
    wrong is told again."""
    root = site.data_root / campaign_id
    recipients = [address for address, _ in site.config.game_masters]
    try:
        gm = (load_file(root / "campaign.yaml") or {}).get("gm") or {}
        if isinstance(gm, dict) and isinstance(gm.get("address"), str):
            recipients.insert(0, gm["address"])
    except (OSError, SettingsError, AttributeError):
        pass  # the site's game masters are told all the same
    if not recipients:
        return
    marks = [error]
    for name in ("campaign.yaml", "log.jsonl", "snapshot.json"):
        try:
            stat = (root / name).stat()
            marks.append(f"{name} {stat.st_size} {stat.st_mtime_ns}")
        except FileNotFoundError:
            marks.append(f"{name} none")
    key = hashlib.sha256("\n".join(marks).encode()).hexdigest()[:16]
    msg = compose(
        from_address=site.identity.address,
        from_name=site.identity.name,
        to=list(dict.fromkeys(recipients)),
        subject=say("subject_stopped", campaign_id=campaign_id),
        text=render("stopped.txt", campaign_id=campaign_id, error=error, site=site.root),
        message_id=message_id(site.identity, campaign_id, "stopped", key),
    )
    site.post.queue(None, msg)
