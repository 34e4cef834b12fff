"""One cron pass of the referee: read new mail, apply orders, resolve, answer, send.

Order of work, chosen so that a tick killed at any moment loses nothing and repeats nothing:
1. take the site lock (a second tick exits at once); with no new mail, no campaign due
   (``state/waits.marshal``), nothing queued, no undelivered mail and no failure summary to
   tell, the tick ends there (``quiet``), having imported no game, no template engine, no
   email package (the work is in ``work``, imported when there is some);
2. fetch new mail and take each one (``intake``): store the raw mail, then route,
   authenticate, parse and apply it, and append one log record (with its Message-ID) to the
   campaign: that record is the moment the mail counts as applied, and a mail already in a
   log is never applied again; the writes of all the mails are made durable together
   (``store.grouped``: one fsync per file and per directory touched);
3. mark the mail processed in the inbox (a crash before this only means seeing it again);
4. let every running campaign with work resolve what it can (queued orders, forced moves,
   the bots' seats) and keep its deadlines (``timekeeping``); a campaign with no new mail,
   no deadline due and no file changed is not even loaded, and one that is starts from its
   snapshot (``snapshots``);
5. queue the answers the logs call for (``answers``: named by deterministic Message-IDs, so
   a mail queued before the crash is not queued twice), then write the turn reports; the
   records and the queue are made durable together before anything is sent;
6. send the queue; what cannot be sent stays queued for the next tick.

This module and ``work`` only orchestrate those parts.
"""

from __future__ import annotations

import logging
import os
from datetime import UTC, datetime

from ..files import crashpoint
from ..mail.queue import RESTING, due_to_send, given_up_untold, queued, resting_until
from ..settings.site import MaildirInboxSettings
from ..store.names import FAILURES_TOLD, TICK_LOCK, WAITS
from ..store.rest import TickLock, at_rest, forget, note
from ..store.waits import Waits
from .failures import NAME, summary_due, summary_wake
from .report import TickReport
from .site import Site

log = logging.getLogger(__name__)

SHOWN_ERRORS = 10  # the errors of a tick kept in state/last-tick.json


def tick(site: Site, now: datetime | None = None) -> TickReport:
    now = now or datetime.now(UTC)
    with TickLock(site.state_dir / TICK_LOCK):
        try:
            report = look_and_work(site, now)
        except Exception as err:
            note_tick(site, now, "could not run", TickReport(errors=[str(err)]))
            raise
        note_tick(site, now, "some failed" if report.errors else "ok", report)
        return report


def look_and_work(site: Site, now: datetime) -> TickReport:
    """The tick's work, when a look at the inbox and the site finds some."""
    inbox = site.config.make_inbox()
    try:
        mails = inbox.fetch()
    except BaseException:
        inbox.close()
        raise
    crashpoint("fetched")
    if not mails and quiet(site, now):
        inbox.close()
        log.debug("nothing to do: no mail, no deadline due, nothing queued that is due")
        return TickReport(waiting=len(queued(site.config.queue_dir)))  # resting, if any
    # work to do: the mail, the games, the answers and their words are imported now, when
    # they are needed (``work`` is of this layer and never imports this module: no circle)
    from .work import take_and_answer

    forget(site.state_dir)  # the work changes what the note of a site at rest says

    return take_and_answer(site, inbox, now, mails=mails)


def quiet(site: Site, now: datetime) -> bool:
    """Whether a tick without new mail has nothing to do: every campaign asleep (no file of
    it changed since a tick looked at it, no deadline due: ``state/waits.marshal``), nothing
    queued to send (mail to addresses that rest after failing waits for its next try) or
    given up untold, no mail held for a broken campaign, no failure summary due, no campaign
    gone. It may say no in vain (the work then finds nothing), never yes when there is work.
    When the site is quiet, the note of it (``store.rest``) lets the next ticks say so
    without looking at every campaign again."""
    if at_rest(site.state_dir, now.timestamp(), inbox=False) is not None:
        return True
    queue = site.config.queue_dir
    if due_to_send(queue, now) or given_up_untold(queue):
        return False
    if site.holds_mail():
        return False  # tried each tick: the first that can read its campaign applies it
    if summary_due(site.state_dir, site.config.game_master_addresses, now):
        return False
    waits = Waits(site.state_dir / WAITS)
    campaign_ids = site.campaign_ids()
    if waits.entries.keys() - set(campaign_ids):
        return False  # a campaign folder removed: the work forgets it
    if not all(waits.asleep(site.data_root / each, now) for each in campaign_ids):
        return False
    note_rest(site, waits, now)
    return True


def note_rest(site: Site, waits: Waits, now: datetime) -> None:
    """Note the quiet site (``store.rest``): what is due first, and what may change."""
    config, state = site.config, site.state_dir
    queue = config.queue_dir
    watched = [config.path, site.data_root, queue, queue / "failed", queue / RESTING]
    watched += [site.held_dir, state / NAME, state / FAILURES_TOLD]
    inbox = isinstance(config.inbox, MaildirInboxSettings)  # an IMAP inbox is asked
    if isinstance(config.inbox, MaildirInboxSettings):
        watched += [config.inbox.path / "new", config.inbox.path / "cur"]
    wakes = [waits.first_wake(), resting_until(queue)]
    if config.game_masters:
        wakes.append(summary_wake(state))
    # a time gone by is nothing due (a resting note or a summary of a while ago): the site
    # is quiet, so whatever would be due by it is not
    wake = min((w.timestamp() for w in wakes if w is not None and w > now), default=None)
    kept = {"waiting": len(queued(queue)), "inbox": inbox}
    note(state, wake, [os.path.abspath(path) for path in watched], **kept)


def note_tick(site: Site, now: datetime, outcome: str, report: TickReport) -> None:
    """What came of a tick, for ``referee status`` and a monitoring system."""
    site.note_tick(
        {
            "at": now.isoformat(timespec="seconds"),
            "ended": datetime.now(UTC).isoformat(timespec="seconds"),
            "outcome": outcome,
            "fetched": report.fetched,
            "applied": report.applied,
            "sent": report.sent,
            "waiting": report.waiting,
            "skipped": report.skipped,
            "errors": [e.partition("\nTraceback")[0][:500] for e in report.errors[:SHOWN_ERRORS]],
        }
    )
