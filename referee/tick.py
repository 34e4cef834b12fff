"""One cron pass of the referee: read new mail, apply orders, resolve, answer, send.

Order of work, chosen so that a tick killed at any moment loses nothing and repeats nothing:
1. take the site lock (a second tick exits at once);
2. fetch new mail and take each one (``intake``): store the raw mail, then route,
   authenticate, parse and apply it, and append one log record (with its Message-ID) to the
   campaign: that record is the moment the mail counts as applied, and a mail already in a
   log is never applied again;
3. mark the mail processed in the inbox (a crash before this only means seeing it again);
4. let every running campaign resolve what it can (queued orders, forced moves, the bots'
   seats) and keep its deadlines (``timekeeping``);
5. queue the answers the logs call for (``answers``: named by deterministic Message-IDs, so
   a mail queued before the crash is not queued twice), then write the turn reports;
6. send the queue; what cannot be sent stays queued for the next tick.

This module only orchestrates those parts.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import UTC, datetime

from .answers import answer
from .campaign import CampaignError, Status
from .intake import Intake, OpenCampaigns
from .play import advance
from .records import Kind, Record
from .site import Site
from .store import TickLock, crashpoint
from .timekeeping import keep_time

log = logging.getLogger(__name__)


@dataclass
class TickReport:
    fetched: int = 0
    applied: int = 0  # mails whose orders went into a campaign's log
    ignored: int = 0  # machine mail, duplicates
    answered: int = 0  # mails queued
    sent: int = 0
    waiting: int = 0  # still queued after sending
    errors: list[str] = field(default_factory=list)

    def summary(self) -> str:
        text = (
            f"fetched {self.fetched}, applied {self.applied}, ignored {self.ignored}, "
            f"queued {self.answered}, sent {self.sent}, still queued {self.waiting}"
        )
        return text + "".join(f"\nerror: {e}" for e in self.errors)


def tick(site: Site, now: datetime | None = None) -> TickReport:
    now = now or datetime.now(UTC)
    report = TickReport()
    with TickLock(site.state_dir / "tick.lock"):
        open_campaigns = OpenCampaigns(site)
        intake = Intake(site, open_campaigns, now)
        inbox = site.config.make_inbox()
        try:
            mails = inbox.fetch()
            report.fetched = len(mails)
            crashpoint("fetched")
            done = [m.key for m in mails if intake.take(m)]
            crashpoint("applied")
            inbox.mark_processed(done)
        finally:
            inbox.close()
        counts = intake.counts
        report.applied, report.ignored = counts.applied, counts.ignored
        report.answered, report.errors = counts.answered, list(counts.errors)
        for campaign_id in site.campaign_ids():
            try:
                report.answered += resolve_and_answer(
                    site, open_campaigns, campaign_id, now, counts.by_campaign[campaign_id]
                )
            except CampaignError as err:
                report.errors.append(f"campaign {campaign_id}: {err}")
                log.error("campaign %s: %s", campaign_id, err)
        crashpoint("queued")
        flushed = site.outbox.flush(site.config.make_sender())
        report.sent = len(flushed.sent)
        report.waiting = len(site.outbox.pending())
        if flushed.error:
            report.errors.append(
                f"sending stopped: {flushed.error} (the mail stays queued for the next tick)"
            )
        crashpoint("sent")
    return report


def resolve_and_answer(
    site: Site, open_campaigns: OpenCampaigns, campaign_id: str, now: datetime, mails: int
) -> int:
    """A started campaign resolves what it can, keeps its deadlines and queues its answers;
    returns the number of mails queued."""
    if open_campaigns.campaign(campaign_id).status == Status.OPEN:
        return 0
    table = open_campaigns.table(campaign_id)
    steps, queued = len(table.steps), 0
    if table.campaign.status == Status.RUNNING:
        robots = set(table.campaign.robots)
        site.commit(table, advance(table, robots), Record(Kind.REFEREE))
        applied, queued = keep_time(site, table, now)
        if applied:  # a deadline's decision: go on from it
            site.commit(table, advance(table, robots), Record(Kind.REFEREE))
    queued += answer(site, table, now)
    resolved = sum(len(s.record.orders) for s in table.steps[steps:])
    log.log(
        logging.INFO if mails or resolved or queued else logging.DEBUG,
        "campaign %s (%s): mails applied %d, orders resolved %d, mails queued %d",
        campaign_id,
        table.campaign.status,
        mails,
        resolved,
        queued,
    )
    return queued
