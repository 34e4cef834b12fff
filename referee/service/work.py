"""A tick's work, once it has some (``tick`` looks first): the mails fetched taken one at a
time (``intake``), every campaign with work resolved and answered, the game masters told of
undelivered mail and of failures, the queue sent; also for ``retry``, with the quarantine as
its inbox; and a game master's command from the command line, run as a mail would be. See
``tick`` for the order of the work and why."""

from __future__ import annotations

import logging
from collections import Counter
from datetime import datetime, timedelta

from ..files import StateDamaged, crashpoint, grouped
from ..mail.inbox import Inbox, InboxError, InMail
from ..records import Action, Kind, Record
from ..store import snapshots
from ..store.campaign import CampaignError, Status
from ..store.names import WAITS
from ..store.waits import Waits
from ..words import language
from ..words.render import say
from . import timekeeping
from .answers import (
    answer,
    tell_failures,
    tell_sender,
    tell_stopped,
    tell_undelivered,
    write_turns,
)
from .commands import CAMPAIGN, CommandError, Commands, split, status_text, tell_replaced
from .failures import note_failure
from .health import campaign_summary
from .intake import Intake
from .play import advance, campaign_bot, commit
from .report import TickReport
from .session import Sessions, commit_files
from .site import Site
from .telling import next_mail
from .timekeeping import Ticking, keep_time, wake

log = logging.getLogger(__name__)


def take_and_answer(
    site: Site,
    inbox: Inbox,
    now: datetime,
    retrying: frozenset[tuple[str | None, str]] = frozenset(),
    mails: list[InMail] | None = None,
) -> TickReport:
    """A tick's work, under its lock, on the mails of ``inbox`` (the site's, or the
    quarantine's for ``retry``, whose ``retrying`` mails are taken again): ``mails``, when
    the tick has fetched them already to see whether it had work."""
    report = TickReport()
    sessions = Sessions(site)
    intake = Intake(site, sessions, now, lambda told: tell_sender(site.post, told, now), retrying)
    try:
        if mails is None:
            mails = inbox.fetch()
            crashpoint("fetched")
        report.fetched = len(mails)
        with grouped() as writes:  # raw mails, records, received: durable together
            # the mails held for campaigns that could not be read, in the order they
            # came, before any newer mail
            released = take_all(intake, site.held_mails(), report, held=True)
            done = take_all(intake, mails, report)
            crashpoint("taken")
            writes.sync()
        crashpoint("applied")
        inbox.mark_processed(done)
        site.release(released)
    finally:
        inbox.close()
    site.trim_received()
    counts = intake.counts
    report.applied, report.ignored = counts.applied, counts.ignored
    report.answered = counts.answered
    report.errors += counts.errors
    waits = Waits(site.state_dir / WAITS)
    with grouped() as writes:  # records, deadlines and the queue: durable together
        answered = resolve_all(site, sessions, counts.by_campaign, now, waits, report)
        crashpoint("answered")
        writes.sync()
    report.answered += answered
    waits.save()
    site.post.save()
    try:
        with language.reading(site.identity.language):  # the site's game masters read it
            tell_undelivered(site.post, site, site.config.game_master_addresses)
    except Exception as err:  # the notice must not stop the sending
        report.errors.append(f"the game masters' notice of undelivered mail: {err}")
        log.error("the game masters' notice of undelivered mail: %s", err)
    try:
        with language.reading(site.identity.language):
            tell_failures(site.post, site, site.config.game_master_addresses, now)
    except Exception as err:  # the summary must not stop the sending
        report.errors.append(f"the game masters' summary of failures: {err}")
        log.error("the game masters' summary of failures: %s", err)
    crashpoint("queued")
    flushed = site.outbox.flush(site.config.make_sender(), now)
    report.sent = len(flushed.sent)
    report.waiting = len(site.outbox.pending())
    if flushed.error:
        report.errors.append(
            f"sending stopped: {flushed.error} (the mail stays queued for the next tick)"
        )
    crashpoint("sent")
    return report


def take_all(
    intake: Intake, mails: list[InMail], report: TickReport, held: bool = False
) -> list[str]:
    """Take the mails one at a time; the keys of those that may be marked processed (or,
    ``held`` ones, released). A mailbox that fails meanwhile stops the taking: the rest
    wait for the next tick."""
    done = []
    for mail in mails:
        try:
            if intake.take(mail, held):
                done.append(mail.key)
        except InboxError as err:
            report.errors.append(f"reading the inbox stopped: {err}")
            log.error("reading the inbox stopped: %s", err)
            break
    return done


def resolve_all(
    site: Site,
    sessions: Sessions,
    applied: Counter[str],
    now: datetime,
    waits: Waits,
    report: TickReport,
) -> int:
    """Every campaign with work resolves and answers; returns the number of mails queued."""
    queued, ticking = 0, None
    campaign_ids = site.campaign_ids()
    waits.keep_only(campaign_ids)  # a campaign folder removed by the game master
    for campaign_id in campaign_ids:
        if campaign_id not in sessions.campaigns and waits.asleep(
            site.data_root / campaign_id, now
        ):
            continue  # nothing new, nothing due: not even loaded
        ticking = ticking or ticking_of(site, now)  # once a tick, when a campaign has work
        try:
            queued += resolve_and_answer(
                site, sessions, campaign_id, now, applied[campaign_id], waits, ticking
            )
        except Exception as err:  # that campaign waits; every other one goes on
            what = f"campaign {campaign_id}"
            told = isinstance(err, (CampaignError, StateDamaged))  # says itself what is wrong
            text = str(err) if told else f"{type(err).__name__}: {err}"
            report.errors.append(f"{what}: {text} (skipped this tick)")
            report.skipped.append(campaign_id)
            log.error(
                "%s: %s (skipped this tick)",
                what,
                text,
                exc_info=not told,
            )
            note_failure(site, what, text, now)
            timekeeping.halt(site.data_root / campaign_id, now)  # nobody can act in it
            try:
                with language.reading(site.identity.language):
                    gms = site.config.game_master_addresses
                    tell_stopped(site.post, site, gms, campaign_id, text)
            except Exception as lost:  # the notice lost, not the tick: recorded for the GMs
                log.exception("%s: its game masters could not be told", what)
                note_failure(site, f"{what}: the notice", f"{type(lost).__name__}: {lost}", now)
            sessions.forget(campaign_id)
    return queued


def resolve_and_answer(
    site: Site,
    sessions: Sessions,
    campaign_id: str,
    now: datetime,
    mails: int,
    waits: Waits,
    ticking: Ticking,
) -> int:
    """A started campaign resolves what it can, keeps its deadlines (``ticking``: what the
    site tells them) and queues its answers, and its snapshot and what it waits for are
    kept; returns the number of mails queued."""
    campaign = sessions.campaign(campaign_id)
    if campaign.status == Status.OPEN:
        sessions.commit(campaign_id)  # its players' commands
        waits.note(campaign.root, None, campaign_summary(campaign, None))
        return 0
    table = sessions.table(campaign_id)
    before, notices = table.count, None
    if table.campaign.status == Status.RUNNING:
        robots = set(table.campaign.robots)
        commit(table, advance(table, robots), Record(Kind.REFEREE))
        notices = keep_time(table, now, ticking)
        if notices and notices.applied:  # a deadline's decision: go on from it
            commit(table, advance(table, robots), Record(Kind.REFEREE))
        # the decisions owed after every line of the tick (a bot's move may have made a new
        # one) are asked for now: every mail shows their due time
        timekeeping.note_asked(table, now)
    write_turns(table)  # the rounds that ended: their reports in turns/
    # every mail the campaign calls for, then what was answered, as mailed.json keeps it
    queued, marks = answer(
        site.post, table, now, notices, lambda address: status_text(site, address, table)
    )
    if notices is not None:  # the reminders told are marked once they are queued
        campaign.changed("book")
    sessions.commit(campaign_id, marks)
    # an answer held to gather with the player's next mail is looked at again next tick, a
    # player's daily mail when its day is over
    daily = timekeeping.daily_mail_due(table.campaign, marks.mailed, now)
    due = min_time(next_mail(table, marks, now, daily), wake(table, now, ticking))
    waits.note(table.campaign.root, due, campaign_summary(table.campaign, table))
    resolved = sum(len(s.record.orders) for s in table.steps_after(before))
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


def run_as_gm(site: Site, campaign_id: str, line: str, now: datetime) -> list[Action]:
    """A game master's command from the command line: logged, answered and sent as if it
    had come by mail (without a Message-ID)."""
    campaign = site.campaign(campaign_id)
    # its state files are read before anything changes: a damaged one (moved aside, to start
    # afresh) refuses the command, which then runs when given again (StateDamaged), as a
    # tick skips the campaign once, instead of being applied and left unanswered
    _ = campaign.marks, campaign.book
    commands, rest = split([line], gm=True)
    if rest or not all(c.command.allows(gm=True) for c in commands):
        raise CommandError(
            say(
                "not_a_gm_command",
                line=line,
                verbs=[c.name for c in CAMPAIGN if c.allows(gm=True)],
            )
        )
    table = snapshots.load(campaign) if campaign.status != Status.OPEN else None
    if table is not None:  # the bot the command may hand seats to, before anything changes
        campaign_bot(table)
    done = Commands(site, campaign, table, None, now).run(commands)
    if table is None:  # open for sign-up: no log to answer from
        commit_files(campaign, None, None)
        for told in tell_replaced(site, campaign, done.actions):
            tell_sender(site.post, told, now)
    # a refusal is told where the command was typed: logged, it would only be mailed back
    refused = all(action.refused for action in done.actions)
    if table is not None and done.outcome is not None and not refused:
        commit(table, done.outcome, Record(Kind.GM, actions=tuple(done.actions)))
        if done.rebuild:
            table = site.campaign(campaign_id).table()
        if table.campaign.status == Status.RUNNING:  # a dropped seat's bot plays now, as by mail
            commit(table, advance(table, set(table.campaign.robots)), Record(Kind.REFEREE))
        timekeeping.note_asked(table, now)  # a new prompt (after a rollback) has its due time
        write_turns(table)
        _, marks = answer(
            site.post, table, now, status=lambda address: status_text(site, address, table)
        )
        # the next tick starts from here, not the log
        commit_files(table.campaign, table, marks, snapshot=True)
    site.post.save()
    return done.actions


def ticking_of(site: Site, now: datetime) -> Ticking:
    """What the site tells the deadlines of this tick: the outbox's outages, the time since
    the tick before it, and the addresses whose mail waits undelivered."""
    last = site.last_tick()
    gap = now - datetime.fromisoformat(last["at"]) if last else timedelta(0)
    outbox = site.outbox
    return Ticking(outbox.outages(), max(gap, timedelta(0)), outbox.unsent())


def min_time(*times: datetime | None) -> datetime | None:
    """The earliest of the times given, None when there is none."""
    return min((t for t in times if t is not None), default=None)
