"""One cron pass of the referee: read new mail, apply orders, resolve, answer, send.

Order of work, chosen so that a tick killed at any moment loses nothing and repeats nothing:
1. take the site lock (a second tick exits at once);
2. fetch new mail; for each one, store the raw mail, then route, authenticate, parse and
   apply it, and append one log record (with its Message-ID) to the campaign: that record
   is the moment the mail counts as applied, and a mail already in a log is never applied
   again;
3. mark the mail processed in the inbox (a crash before this only means seeing it again);
4. let every running campaign resolve what it can (queued orders, forced moves);
5. queue the answers the logs call for (named by deterministic Message-IDs, so a mail
   queued before the crash is not queued twice), then write the turn reports;
6. send the queue; what cannot be sent stays queued for the next tick.
"""
from __future__ import annotations

import logging
import os
import traceback
from collections import Counter
from dataclasses import dataclass, field, replace

from datetime import datetime, timezone

from . import timekeeping
from .campaign import Campaign, CampaignError, Table
from .commands import Commands, Outside, no_such_game, run_outside, split
from .deadlines import Deadlines, show, stamp
from .mail.inbox import InMail
from .mail.read import Incoming, read_mail
from .mail.routing import MAX_LINES, Route, route
from .play import Outcome, advance, read_orders, submit
from .records import BadLine, Kind, MissedDeadline, Record, RefusedCommand
from .reports import gm_notice, notice, reminder, say
from .site import Site
from .store import TickLock

log = logging.getLogger(__name__)


def crashpoint(name: str) -> None:
    """Fault injection for the crash tests: REFEREE_CRASH_AT=<name> kills the process here,
    as a power cut or `kill -9` would, with nothing flushed or cleaned up."""
    if os.environ.get("REFEREE_CRASH_AT") == name:
        os._exit(137)


@dataclass
class TickReport:
    fetched: int = 0
    applied: int = 0              # mails whose orders went into a campaign's log
    ignored: int = 0              # machine mail, duplicates
    answered: int = 0             # mails queued
    sent: int = 0
    waiting: int = 0              # still queued after sending
    errors: list[str] = field(default_factory=list)

    def summary(self) -> str:
        text = (f"fetched {self.fetched}, applied {self.applied}, ignored {self.ignored}, "
                f"queued {self.answered}, sent {self.sent}, still queued {self.waiting}")
        return text + "".join(f"\nerror: {e}" for e in self.errors)


class Tick:
    def __init__(self, site: Site, now: datetime | None = None):
        self.site = site
        self.now = now or datetime.now(timezone.utc)
        self.report = TickReport()
        self.tables: dict[str, Table] = {}
        self.campaigns: dict[str, Campaign] = {}
        self.received = site.received_ids()
        self.mails_in: Counter[str] = Counter()     # campaign id -> mails applied this tick

    def campaign(self, campaign_id: str) -> Campaign:
        """The campaign, read once a tick: every change goes through this one object."""
        if campaign_id not in self.campaigns:
            self.campaigns[campaign_id] = self.site.campaign(campaign_id)
        return self.campaigns[campaign_id]

    def table(self, campaign_id: str) -> Table:
        if campaign_id not in self.tables:
            self.tables[campaign_id] = self.campaign(campaign_id).table()
        return self.tables[campaign_id]

    def run(self) -> TickReport:
        site = self.site
        with TickLock(site.state_dir / "tick.lock"):
            inbox = site.config.make_inbox()
            try:
                mails = inbox.fetch()
                self.report.fetched = len(mails)
                crashpoint("fetched")
                done = [m.key for m in mails if self.take(m)]
                crashpoint("applied")
                inbox.mark_processed(done)
            finally:
                inbox.close()
            self.resolve_and_answer()
            crashpoint("queued")
            flushed = site.outbox.flush(site.config.make_sender())
            self.report.sent = len(flushed.sent)
            self.report.waiting = len(site.outbox.pending())
            if flushed.error:
                self.report.errors.append(f"sending stopped: {flushed.error} "
                                          f"(the mail stays queued for the next tick)")
            crashpoint("sent")
        return self.report

    # one mail ------------------------------------------------------------------------------
    def take(self, mail: InMail) -> bool:
        """Handle one mail; True when it may be marked processed."""
        incoming = None
        try:
            incoming = read_mail(mail.raw, self.site.identity.address)
            self.handle(incoming, mail.raw)
            return True
        except Exception as err:              # one bad campaign must not stop the others
            detail = traceback.format_exc(limit=3) if not isinstance(err, CampaignError) else ""
            self.report.errors.append(f"mail {mail.key}: {err}\n{detail}".rstrip())
            log.error("mail %s: %s (it stays in the inbox for the next tick)",
                      incoming.message_id if incoming else mail.key, err)
            return False

    def handle(self, mail: Incoming, raw: bytes) -> None:
        site, mid = self.site, mail.message_id
        if mid in self.received:
            log.info("mail %s: taken before, ignored", mid)
            self.report.ignored += 1
            return
        where = route(mail)
        if mail.automatic:
            site.keep_raw(site.state_dir / "unrouted", mid, raw)
            self.noted(mid, "-", f"ignored: {mail.automatic}")
            self.report.ignored += 1
            return
        if where.campaign_id is None or not site.has_campaign(where.campaign_id):
            site.keep_raw(site.state_dir / "unrouted", mid, raw)
            if where.campaign_id is None:
                run_outside(self.outside(mail, where), where.lines)
            else:
                no_such_game(self.outside(mail, where), where.campaign_id)
            self.noted(mid, "-", "answered outside any campaign")
            return
        campaign = self.campaign(where.campaign_id)
        site.keep_raw(campaign.dir("mail", "in"), mid, raw)
        crashpoint("stored")
        gm = campaign.is_gm_token(where.token)
        seat = None if gm else campaign.seat_of_token(where.token)
        if seat is None and not gm:
            self.answer_unknown_player(mail, campaign, where)
            self.noted(mid, campaign.id, "no valid token")
            return
        if campaign.status == "open":
            self.handle_open(mail, campaign, seat, where)
            self.noted(mid, campaign.id, "applied")
            return
        table = self.table(campaign.id)
        campaign = table.campaign
        if mid in table.seen:
            self.noted(mid, campaign.id, "applied before")
            self.report.ignored += 1
            return
        commands, order_lines = split(where.lines, gm)
        done = Commands(site, campaign, table, seat, self.now).run(commands)
        record = Record(Kind.MAIL, message_id=mid, sender=mail.sender_address, seat=seat,
                        subject=mail.subject, actions=tuple(done.actions))
        outcome = done.outcome
        if gm:
            record = replace(record, ignored=tuple(order_lines))
        elif campaign.status != "running":
            if order_lines:
                record = replace(record, bad_lines=(BadLine("(all)", say(
                    "no_orders_now", campaign_id=campaign.id, status=campaign.status)),))
        else:
            reading = read_orders(table.rules, order_lines)
            if where.cut:
                reading.ignored.append(say("lines_unread", count=where.cut, limit=MAX_LINES))
            record = replace(record, ignored=tuple(reading.ignored),
                             bad_lines=tuple(BadLine(*e) for e in reading.errors))
            if reading.entries and not reading.errors:
                outcome = submit(table, seat, reading.entries)
        site.commit(table, outcome, record)
        if done.rebuild:
            self.tables[campaign.id] = campaign.table()
        self.noted(mid, campaign.id, "applied", effect(outcome, record))
        self.mails_in[campaign.id] += 1
        self.report.applied += 1

    def handle_open(self, mail: Incoming, campaign, seat: int | None, where: Route) -> None:
        """A mail to a campaign still open for sign-up: commands only, answered at once."""
        commands, order_lines = split(where.lines, seat is None)
        done = Commands(self.site, campaign, None, seat, self.now).run(commands)
        lines = [f"{a.line}: {a.reason if isinstance(a, RefusedCommand) else a.said}"
                 for a in done.actions]
        if order_lines:
            lines.append(say("not_started_orders", campaign_id=campaign.id))
        self.send_notice(mail, say("subject_your_mail", campaign_id=campaign.id),
                         "\n".join(lines) or say("nothing_for_the_referee"))
        self.report.applied += 1

    def noted(self, message_id: str, where: str, outcome: str, detail: str = "") -> None:
        self.site.note_received(message_id, where, outcome)
        self.received.add(message_id)
        log.info("mail %s to %s: %s%s", message_id,
                 "no campaign" if where == "-" else f"campaign {where}", outcome, detail)

    # answers outside a player's game -------------------------------------------------------
    def outside(self, mail: Incoming, where: Route) -> Outside:
        def answer(subject: str, text: str, to: str | None = None,
                   reply_to: str | None = None) -> None:
            self.send_notice(mail, subject, text, to, reply_to)
        return Outside(self.site, mail.sender_name, mail.sender_address, where.token, answer)

    def answer_unknown_player(self, mail: Incoming, campaign, where: Route) -> None:
        registered = campaign.seat_of_address(mail.sender_address)
        if registered is None:
            # a stranger learns nothing about the game, not even that it exists
            self.send_notice(mail, say("subject_stranger"), say("stranger"))
            return
        player = campaign.players[registered]
        address = self.site.identity.plus(campaign.id, player.token)
        self.send_notice(mail, say("subject_not_used", campaign_id=campaign.id),
                         say("wrong_token", campaign_id=campaign.id,
                             had_token=bool(where.token), address=address),
                         to=player.address, reply_to=address)

    def send_notice(self, mail: Incoming, subject: str, text: str, to: str | None = None,
                    reply_to: str | None = None) -> None:
        to = to or mail.sender_address
        if not to:
            return
        msg = notice(self.site.identity, to, subject, text, mail.message_id,
                     key=mail.message_id, reply_to=reply_to)
        self.site.queue(None, msg)
        self.report.answered += 1

    # resolving, deadlines and answers --------------------------------------------------------
    def resolve_and_answer(self) -> None:
        for campaign_id in self.site.campaign_ids():
            try:
                if self.campaign(campaign_id).status == "open":
                    continue
                table = self.table(campaign_id)
                steps, answered = len(table.steps), self.report.answered
                if table.campaign.status == "running":
                    robots = set(table.campaign.robots)
                    self.site.commit(table, advance(table, robots), Record(Kind.REFEREE))
                    if self.keep_time(table):          # a deadline's decision: go on from it
                        self.site.commit(table, advance(table, robots), Record(Kind.REFEREE))
                self.report.answered += self.site.answer(table)
                resolved = sum(len(s.record.get("orders", ())) for s in table.steps[steps:])
                queued = self.report.answered - answered
                mails = self.mails_in[campaign_id]
                log.log(logging.INFO if mails or resolved or queued else logging.DEBUG,
                        "campaign %s (%s): mails applied %d, orders resolved %d, "
                        "mails queued %d", campaign_id, table.campaign.status, mails,
                        resolved, queued)
            except CampaignError as err:
                self.report.errors.append(f"campaign {campaign_id}: {err}")
                log.error("campaign %s: %s", campaign_id, err)

    def keep_time(self, table: Table) -> bool:
        """Deadlines: one reminder before each, the campaign's policy after it. True when
        the policy applied orders."""
        campaign = table.campaign
        settings = Deadlines.from_settings(campaign.settings.get("deadlines"))
        if not settings.active:
            return False
        book, notices, outcome = timekeeping.check(table, self.now, settings)
        missed = tuple(MissedDeadline(seat, stamp(due), done)
                       for seat, due, done in notices.missed)
        self.site.commit(table, outcome, Record(Kind.REFEREE, missed=missed))
        for seat, due in notices.reminders:
            stage = book.seats[str(seat)].stage
            shown = show(due, campaign.players[seat].timezone, settings.zone)
            self.site.queue(campaign, reminder(self.site.identity, table, seat, stage, shown))
            self.report.answered += 1
        for seat, due, done in notices.missed:
            log.info("campaign %s: %s missed the deadline of %s: %s", campaign.id,
                     campaign.players[seat].name, stamp(due), done)
            if campaign.gm:
                stage = book.seats[str(seat)].stage
                name = campaign.players[seat].name
                self.site.queue(campaign, gm_notice(
                    self.site.identity, campaign, say("subject_missed", name=name),
                    say("missed", name=name, campaign_id=campaign.id, due=stamp(due),
                        done=done), f"missed.{seat}.{stage}"))
        book.save(campaign)
        return bool(outcome.applied)


def effect(outcome: Outcome, record: Record) -> str:
    """What a mail did, for the log: its orders applied and refused, its commands, the lines
    that were bad or passed over."""
    counts = {"orders applied": len(outcome.applied), "refused": len(outcome.refusals),
              "commands": len(record.actions), "bad lines": len(record.bad_lines),
              "lines passed over": len(record.ignored)}
    shown = ", ".join(f"{what} {n}" for what, n in counts.items() if n)
    return f" ({shown})" if shown else ""


def tick(site: Site, now: datetime | None = None) -> TickReport:
    return Tick(site, now).run()
