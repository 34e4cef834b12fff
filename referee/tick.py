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
import re
import secrets
import traceback
from collections import Counter
from dataclasses import dataclass, field

from datetime import datetime, timezone

from . import registry
from . import timekeeping
from .campaign import Campaign, CampaignError, Table
from .commands import Commands, split
from .deadlines import Deadlines, show, stamp
from .mail.inbox import InMail
from .mail.read import Incoming, read_mail
from .mail.routing import MAX_LINES, Route, route
from .play import advance, read_orders, submit
from .reports import gm_notice, help_text, notice, reminder, render
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
            self.answer_outside(mail, where)
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
        fields = {"kind": "mail", "message_id": mid, "from": mail.sender_address,
                  "seat": seat, "subject": mail.subject}
        if done.actions:
            fields["actions"] = done.actions
        outcome = done.outcome
        if gm:
            if order_lines:
                fields["ignored"] = order_lines
        elif campaign.status != "running":
            if order_lines:
                fields["bad_lines"] = [["(all)", f"campaign {campaign.id} is "
                                                 f"{campaign.status}: no orders are taken now"]]
        else:
            reading = read_orders(table.rules, order_lines)
            if where.cut:
                reading.ignored.append(f"... and {where.cut} more lines: a mail is read up "
                                       f"to {MAX_LINES} lines")
            if reading.ignored:
                fields["ignored"] = reading.ignored
            if reading.errors:
                fields["bad_lines"] = [list(e) for e in reading.errors]
            elif reading.entries:
                outcome = submit(table, seat, reading.entries)
        site.commit(table, outcome, fields)
        if done.rebuild:
            self.tables[campaign.id] = campaign.table()
        self.noted(mid, campaign.id, "applied", effect(outcome, fields))
        self.mails_in[campaign.id] += 1
        self.report.applied += 1

    def handle_open(self, mail: Incoming, campaign, seat: int | None, where: Route) -> None:
        """A mail to a campaign still open for sign-up: commands only, answered at once."""
        commands, order_lines = split(where.lines, seat is None)
        done = Commands(self.site, campaign, None, seat, self.now).run(commands)
        lines = [f"{a['line']}: {a.get('refused') or a['said']}" for a in done.actions]
        if order_lines:
            lines.append(f"{campaign.id} has not started yet: orders are taken once it has.")
        self.send_notice(mail, f"[{campaign.id}] Your mail", "\n".join(lines) or
                         "There was nothing in it for the referee.")
        self.report.applied += 1

    def noted(self, message_id: str, where: str, outcome: str, detail: str = "") -> None:
        self.site.note_received(message_id, where, outcome)
        self.received.add(message_id)
        log.info("mail %s to %s: %s%s", message_id,
                 "no campaign" if where == "-" else f"campaign {where}", outcome, detail)

    # answers outside a player's game -------------------------------------------------------
    def answer_outside(self, mail: Incoming, where: Route) -> None:
        if where.campaign_id is not None:
            shown = where.campaign_id if re.fullmatch(r"[a-z0-9-]{1,32}", where.campaign_id) \
                else "that you named"
            self.send_notice(mail, "No such game",
                             f"There is no game {shown} on this referee. Check the "
                             f"game's name in the mails you had from the referee, or send "
                             f"'list' for the games open for sign-up.")
            return
        words = [line.lower().split() for line in where.lines]
        join = next((line for line, w in zip(where.lines, words) if w[:1] == ["join"]), None)
        opening = next((line for line, w in zip(where.lines, words) if w[:1] == ["open"]),
                       None)
        if opening:
            self.open_by_mail(mail, where, opening)
        elif join:
            self.join(mail, join)
        elif any(w[:1] == ["list"] for w in words):
            self.send_notice(mail, "Games open for sign-up", self.open_games())
        elif any(w[:1] == ["help"] for w in words):
            self.send_notice(mail, "How to play by mail", help_outside())
        else:
            self.send_notice(mail, "About your mail to the referee",
                             "This mail did not name a game. Players: reply to a mail from the "
                             "referee, whose Reply-To address names your game and carries your "
                             "token. Send 'list' for the games open for sign-up, 'help' for "
                             "how to play.")

    def open_by_mail(self, mail: Incoming, where: Route, line: str) -> None:
        """A site game master opens a campaign for sign-up: `open <game> <id> <seats>
        [KEY=VALUE ...]`, with their token in a `token` line."""
        expected = self.site.config.game_master_token(mail.sender_address)
        if not (expected and where.token and secrets.compare_digest(expected, where.token)):
            self.send_notice(mail, "Not opened", "Only a game master of this referee, with "
                             "their token, can open a game by mail.")
            return
        words = line.split()
        try:
            game, campaign_id, seats = words[1].lower(), words[2].lower(), int(words[3])
            options = dict(w.split("=", 1) for w in words[4:])
        except (IndexError, ValueError):
            self.send_notice(mail, "Not opened", "Write: open <game> <id> <seats> "
                             "[KEY=VALUE ...], e.g. open bus spring-cup 4 edition=1999")
            return
        try:
            campaign = self.site.new_campaign(
                game, campaign_id, [], options=options, seats=seats,
                gm=f"{mail.sender_name or 'Game master'} <{mail.sender_address}>")
        except CampaignError as err:
            self.send_notice(mail, "Not opened", str(err))
            return
        self.send_notice(mail, f"[{campaign.id}] Opened for sign-up",
                         f"{campaign.id} ({campaign.rules.title}) is open for sign-up with "
                         f"{seats} seats. Players join with a mail to "
                         f"{self.site.identity.address} saying: join {campaign.id} as "
                         f"TheirName. Your commands for it go to "
                         f"{self.site.identity.plus(campaign.id, campaign.gm.token)}.")

    def open_games(self) -> str:
        lines = []
        for campaign_id in self.site.campaign_ids():
            campaign = self.campaign(campaign_id)
            if campaign.status == "open":
                free = campaign.seats - len(campaign.players)
                lines.append(f"  {campaign.id}: {campaign.rules.title}, {free} of "
                             f"{campaign.seats} seats free. To join: join {campaign.id} as "
                             f"YourName")
        return ("Games open for sign-up:\n" + "\n".join(lines) if lines else
                "No game is open for sign-up just now.")

    def join(self, mail: Incoming, line: str) -> None:
        words = line.split()
        campaign_id = words[1].lower() if len(words) > 1 else ""
        name = " ".join(words[3:]) if len(words) > 3 and words[2].lower() == "as" else (
            mail.sender_name or mail.sender_address.partition("@")[0])
        if not self.site.has_campaign(campaign_id) or \
                self.campaign(campaign_id).status != "open":
            self.send_notice(mail, "Not joined", f"There is no game open for sign-up named "
                             f"{campaign_id or '(none given)'}.\n\n" + self.open_games())
            return
        campaign = self.campaign(campaign_id)
        existing = campaign.seat_of_address(mail.sender_address)
        try:
            player = campaign.players[existing] if existing is not None else \
                campaign.add_player(name, mail.sender_address)
        except CampaignError as err:
            self.send_notice(mail, f"Not joined {campaign_id}", str(err))
            return
        campaign.save()
        address = self.site.identity.plus(campaign.id, player.token)
        full = len(campaign.players) == campaign.seats
        self.send_notice(
            mail, f"[{campaign.id}] You have joined {campaign.id}",
            f"Welcome, {player.name}: you have a seat in {campaign.id} "
            f"({campaign.rules.title}). Your token is {player.token}; reply to this mail or "
            f"write to {address} to play. "
            + ("The game is full and starts now." if full else
               f"The game starts when {campaign.seats} have joined "
               f"({len(campaign.players)} so far)."),
            reply_to=address)
        if full:
            self.site.start_campaign(campaign)

    def answer_unknown_player(self, mail: Incoming, campaign, where: Route) -> None:
        registered = campaign.seat_of_address(mail.sender_address)
        if registered is None:
            # a stranger learns nothing about the game, not even that it exists
            self.send_notice(mail, "Your mail to the referee",
                             "This referee could not match your mail to a player. Players: "
                             "reply to a mail from the referee; its Reply-To address carries "
                             "your token. Send 'list' for the games open for sign-up.")
            return
        player = campaign.players[registered]
        why = "a wrong token" if where.token else "no token"
        self.send_notice(
            mail, f"[{campaign.id}] Your orders were not used",
            f"Your mail to campaign {campaign.id} had {why}, so its orders were not "
            f"used. Reply to this mail (its Reply-To carries your token), or write to "
            f"{self.site.identity.plus(campaign.id, player.token)}.",
            to=player.address, reply_to=self.site.identity.plus(campaign.id, player.token))

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
                    self.site.commit(table, advance(table, robots), {"kind": "referee"})
                    if self.keep_time(table):          # a deadline's decision: go on from it
                        self.site.commit(table, advance(table, robots), {"kind": "referee"})
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
        missed = [{"seat": seat, "due": stamp(due), "done": done}
                  for seat, due, done in notices.missed]
        self.site.commit(table, outcome, {"kind": "referee", "missed": missed} if missed
                         else {"kind": "referee"})
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
                    self.site.identity, campaign, f"{name} missed a deadline",
                    f"{name}'s decision in {campaign.id} was due at {stamp(due)}: {done}.",
                    f"missed.{seat}.{stage}"))
        book.save(campaign)
        return bool(outcome.applied)


def effect(outcome, fields: dict) -> str:
    """What a mail did, for the log: its orders applied and refused, its commands, the lines
    that were bad or passed over."""
    counts = {"orders applied": len(outcome.applied), "refused": len(outcome.refusals),
              "commands": len(fields.get("actions", ())),
              "bad lines": len(fields.get("bad_lines", ())),
              "lines passed over": len(fields.get("ignored", ()))}
    shown = ", ".join(f"{what} {n}" for what, n in counts.items() if n)
    return f" ({shown})" if shown else ""


def help_outside() -> str:
    return ("This is a play-by-email referee for " + " and ".join(
        registry.get(g).title for g in registry.names()) + ".\n\n"
        "Send 'list' for the games open for sign-up, and 'join <game> as <your name>' to "
        "take a seat. Once in a game, reply to the referee's mails with your orders.\n\n"
        + "\n\n".join(help_text(g) for g in registry.names()) + "\n\n"
        + render("commands.txt"))


def tick(site: Site, now: datetime | None = None) -> TickReport:
    return Tick(site, now).run()
