"""Deadlines at every tick: when each awaited decision was asked for, the one reminder before
it is due, and what happens when it is missed (the campaign's policy).

The book (`deadlines.json` in the campaign folder) is the only state: per seat, the stage of
the decision it owes, when it was asked for, the time added to it (extensions, pauses) and
whether the reminder went out and the policy was applied; when the clocks stood still; and
the misses kept for the game master's daily summary.

A clock runs only while its player can act: it stands still while the campaign is paused,
while no mail can go out (the outbox's outages), and while the campaign cannot be read (a
tick skips it); the time it stood is added to the deadline, and its player is told the new
due time when it runs again.
"""

from __future__ import annotations

import hashlib
import logging
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path

from ..files import StateDamaged
from ..mail.queue import Outages
from ..records import MISSED_POLICIES, Kind, MissedDeadline, Record
from ..settings.deadlines import (
    DIGEST_AT,
    MAX_EXTENSION,
    Deadlines,
    Shown,
    absent_days,
    next_daily,
    parse_time,
    parse_when,
    reader_zone,
    show,
    stamp,
)
from ..store.book import Book, Due
from ..store.campaign import Campaign, Status, Table
from ..words.render import say
from .play import Outcome, adjudicate, commit, decide_by_bot

log = logging.getLogger(__name__)


@dataclass
class Notices:
    """What the timekeeper wants said: reminders (seat, due) and missed deadlines."""

    reminders: list = field(default_factory=list)  # (seat, due)
    missed: list = field(default_factory=list)  # (seat, due, what was done)
    moved: list = field(default_factory=list)  # (seat, due): its clock stood still
    gm: list = field(default_factory=list)  # the misses to tell the game master now (gm_news)
    applied: bool = False  # the policy applied orders: the game goes on from them

    def told_dues(self) -> list[tuple[int, datetime, bool]]:
        """The due times each player is told of (seat, due, whether their clock stood
        still): the reminders, and the new due times of the clocks that ran again."""
        reminded = [(seat, due, False) for seat, due in self.reminders]
        return reminded + [(seat, due, True) for seat, due in self.moved]


@dataclass(frozen=True)
class Clocks:
    """The times a campaign's telling reads, worked out once before it (the telling itself
    keeps no clock): when each awaited decision is due, as its player reads times
    (``dues``), and when each player on `mail digest` has their next daily mail
    (``daily``, by seat as the watermarks key it)."""

    dues: dict[int, Shown] = field(default_factory=dict)
    daily: dict[str, datetime] = field(default_factory=dict)


@dataclass(frozen=True)
class Ticking:
    """What the site tells the deadlines of a tick besides its time: the outbox's outages
    (the clocks stand still through them), how far apart ticks come (the time since the
    last one), so that a reminder whose time falls after the last tick before its deadline
    goes at that tick, and the addresses whose mail the outbox could not deliver yet (the
    clock of a player who has not got their prompt stands still)."""

    outages: Outages = field(default_factory=Outages)
    gap: timedelta = timedelta(0)
    unsent: dict[str, datetime] = field(default_factory=dict)  # address -> since when


def due_of(rules: Deadlines, campaign: Campaign, seat: int, entry: Due) -> datetime | None:
    """When the seat's decision is due: its deadline, moved on by the extensions, the pauses,
    the time its clock stood still (``Book.stops``) and by a day for every day of the
    player's absence that falls before it."""
    asked = parse_when(entry.asked)
    extra = timedelta(seconds=entry.extended + entry.paused)
    due = rules.due(asked, extra)
    absences, book = campaign.players[seat].absence, campaign.book
    while due is not None and (absences or book.stops):
        days = timedelta(days=absent_days(absences, asked, due))
        later = rules.due(asked, extra + days + book.stopped(asked, due))
        if later == due:
            break
        due = later
    return due


def extend(campaign: Campaign, hours: float, table: Table | None, now: datetime) -> None:
    """Every decision owed now moves on by ``hours``: those the same mail brought (after an
    adjudication) are entered in the book first, asked for now, so that they get it too."""
    book = campaign.book
    if table is not None:
        catch_up(book, table, now)
    rearm(campaign, now)
    for entry in book.seats.values():
        entry.extended = min(entry.extended + hours * 3600, MAX_EXTENSION.total_seconds())
        entry.reminded = False
    campaign.changed("book")


def rearm(campaign: Campaign, now: datetime, every: bool = False) -> None:
    """A decision missed under policy `wait` runs again from ``now``, as if asked for then,
    with the campaign's deadline settings as they are now: the game master changed them or
    extended the deadlines, which would else tell its player a time long past and leave the
    seat waiting for good. With ``every`` (new deadline settings), every decision owed runs
    from now under them: shorter hours would else make one asked long ago due at once."""
    book = campaign.book
    missed = [entry for entry in book.seats.values() if entry.missed or every]
    for entry in missed:
        entry.asked, entry.extended, entry.paused, entry.stopped = stamp(now), 0.0, 0.0, 0.0
        entry.missed = entry.reminded = False
    if missed:
        campaign.changed("book")


def pause(campaign: Campaign, now: datetime) -> None:
    book = campaign.book
    book.paused_at = stamp(now)
    campaign.changed("book")


def resume(campaign: Campaign, now: datetime) -> None:
    """A pause stops the deadlines: every running one moves on by the time it lasted."""
    book = campaign.book
    if book.paused_at:
        lasted = (now - parse_when(book.paused_at)).total_seconds()
        for entry in book.seats.values():
            entry.paused += max(lasted, 0)
        book.paused_at = None
    campaign.changed("book")


def digest_due(campaign: Campaign, seat: int, last: datetime) -> datetime:
    """When the daily digest of a player on `mail digest` goes, their last mail having gone
    at ``last``: at the next time of day they chose (``DIGEST_AT`` unless they said) in their
    time zone (the campaign's, if they set none)."""
    player = campaign.players[seat]
    at = parse_time(player.digest_at) if player.digest_at else DIGEST_AT
    return next_daily(last, at, reader_zone(player.timezone, campaign.config.deadlines.zone))


WAITS = MISSED_POLICIES["wait"]  # what a miss under `wait` did
SUMMARY_EVERY = timedelta(days=1)  # the game master's news of misses the policy dealt with


def gm_news(campaign: Campaign, notices: Notices, now: datetime) -> list:
    """The missed deadlines to tell the game master now, each [name, due, what was done]:
    at most one mail a tick; one the policy dealt with (a bot's move, the game's rules) is
    told at once when none was told in the last day, else kept for a summary a day after
    the last (``wake``); one that waits for them is told at once, with those kept."""
    book = campaign.book
    for seat, due, done in notices.missed:
        book.untold.append([campaign.players[seat].name, stamp(due), done])
    urgent = any(done == WAITS for _, _, done in notices.missed)
    told = book.told_gm and now < parse_when(book.told_gm) + SUMMARY_EVERY
    if not book.untold or (told and not urgent):
        return []
    news, book.untold, book.told_gm = book.untold, [], stamp(now)
    return news


def missed_notice(campaign: Campaign, news: list) -> tuple[str, str, str]:
    """The game master's one mail of missed deadlines (``gm_news``): its subject, its
    text, one line a miss, and the key of its Message-ID, from the misses themselves (a
    seat that misses again, re-armed, is told again)."""
    names = list(dict.fromkeys(name for name, _, _ in news))
    lines = [
        say("missed", name=name, campaign_id=campaign.id, due=due, done=done)
        for name, due, done in news
    ]
    key = "missed." + hashlib.sha256(repr(news).encode()).hexdigest()[:16]
    return say("subject_missed", names=names), "\n".join(lines), key


def undelivered(entry: Due, address: str, ticking: Ticking, now: datetime) -> bool:
    """Whether the mail to the player of ``entry`` waits in the outbox, undelivered: their
    clock stands still (``entry.unsent``) since that mail was queued, or since the decision
    was asked for if later."""
    since = ticking.unsent.get(address.lower())
    if since is None:
        return False
    if entry.unsent is None:
        entry.unsent = stamp(min(max(since, parse_when(entry.asked)), now))
    return True


def follow_stops(campaign: Campaign, outages: Outages, now: datetime) -> bool:
    """The book learns when the clocks stood still: the outages of the outbox, and the time
    since ``halt`` when the campaign could not be read; True while no mail can go out (the
    clocks stand still now)."""
    book = campaign.book
    for since, until in outages.past:
        book.stop(since, until)
    if outages.since is not None:
        book.halted = book.halted or stamp(outages.since)
        return True
    if book.halted is not None:
        if all(stamp(since) != book.halted for since, _ in outages.past):
            book.stop(parse_when(book.halted), now)  # the campaign could be read again now
        book.halted = None
    asked = [parse_when(entry.asked) for entry in book.seats.values()]
    book.forget_stops_before(min(asked, default=now))
    return False


def halt(root: Path, now: datetime) -> None:
    """The campaign in ``root`` cannot be read (a tick skips it): its clocks stand still
    from ``now`` until a tick reads it again. A book that cannot be read is left to the
    tick that can read the campaign (it is set aside then)."""
    try:
        book = Book.load(root)
    except StateDamaged:
        return
    if book.seats and book.halted is None and book.paused_at is None:
        book.halted = stamp(now)
        book.save(root)


def check(
    table: Table, now: datetime, settings: Deadlines, ticking: Ticking, halted: bool = False
) -> tuple[Notices, Outcome]:
    """Bring the book up to date with the decisions owed now, and act on what is due (not
    while the clocks stand still, ``halted``). The session commits the book once the
    notices are queued (so that none is lost)."""
    campaign = table.campaign
    book = campaign.book
    notices, outcome = Notices(), Outcome(round=table.round)
    applied = 0
    for key, decision in catch_up(book, table, now).items():
        entry = book.seats[key]
        due = due_of(settings, campaign, decision.seat, entry)
        if due is None or entry.missed or halted:
            continue
        if undelivered(entry, campaign.players[decision.seat].address, ticking, now):
            continue
        if entry.unsent is not None:  # delivered: the clock runs again from now
            entry.paused += max((now - parse_when(entry.unsent)).total_seconds(), 0)
            entry.unsent = None
            due = due_of(settings, campaign, decision.seat, entry) or due
            notices.moved.append((decision.seat, due))
        stood = book.stopped(parse_when(entry.asked), due).total_seconds()
        if stood > entry.stopped:  # the player is told the due time the clock moved to
            entry.stopped = stood
            notices.moved.append((decision.seat, due))
        if now >= due + settings.grace:
            entry.missed = True
            done = _apply_policy(table, decision.seat, settings.policy, outcome)
            notices.missed.append((decision.seat, due, done))
            if len(outcome.applied) > applied:  # decided: what the seat owes next is asked anew
                del book.seats[key]
            applied = len(outcome.applied)
        elif not entry.reminded and now >= settings.reminder(
            parse_when(entry.asked), due, ticking.gap
        ):
            entry.reminded = True
            notices.reminders.append((decision.seat, due))
    return notices, outcome


def catch_up(book: Book, table: Table, now: datetime) -> dict:
    """The book holds the decisions owed now, and only those: one it does not know (or knows
    at an earlier stage) is asked for ``now``. Returns the decisions owed, by seat (str)."""
    owed = {str(d.seat): d for d in table.awaiting}
    book.seats = {k: v for k, v in book.seats.items() if k in owed}
    for key, decision in owed.items():
        entry = book.seats.get(key)
        if entry is None or entry.stage != decision.stage:
            book.seats[key] = Due(decision.stage, stamp(now))
    return owed


def due_if_asked(table: Table, now: datetime) -> dict[int, datetime]:
    """When each decision owed now is due if asked for ``now`` (none without deadlines), for
    the mail that asks for it before the book enters it (a welcome: the next tick does)."""
    campaign = table.campaign
    settings = campaign.config.deadlines
    if not settings.active or campaign.status != Status.RUNNING:
        return {}
    dues = {
        d.seat: due_of(settings, campaign, d.seat, Due(d.stage, stamp(now))) for d in table.awaiting
    }
    return {seat: due for seat, due in dues.items() if due is not None}


def note_asked(table: Table, now: datetime) -> None:
    """Enter the decisions owed now in the book, asked for ``now``, after every line of the
    tick (a bot's move or a kept order may have made new ones) or of a game master's
    command line: every mail that asks for them shows their due time."""
    campaign = table.campaign
    settings = campaign.config.deadlines
    if campaign.status != Status.RUNNING or not settings.active:
        return
    book = campaign.book
    catch_up(book, table, now)
    campaign.changed("book")


def _apply_policy(table: Table, seat: int, policy: str, outcome: Outcome) -> str:
    """What the campaign's policy did for a missed decision, and what it chose (the orders
    it applied for the seat, an order of several lines on one)."""
    before = len(outcome.applied)
    if policy == "bot":
        decide_by_bot(table, seat, outcome)
        done = MISSED_POLICIES["bot"]
    elif policy == "rules" and adjudicate(table, seat, outcome):
        done = MISSED_POLICIES["rules"]
    else:
        return WAITS
    chosen = [" / ".join(a.text.splitlines()) for a in outcome.applied[before:] if a.seat == seat]
    return f"{done}: {'; '.join(chosen)}" if chosen else done


def keep_time(table: Table, now: datetime, ticking: Ticking) -> Notices | None:
    """One tick's deadlines for a running campaign: the reminders due, the new due times of
    clocks that stood still (``ticking``: the outbox's outages), and the policy for every decision
    missed (its orders committed to the log). None when it keeps no
    deadlines. The answers stage tells what the notices say; the session commits the book
    once they are queued, so that none is lost."""
    settings = table.campaign.config.deadlines
    if not settings.active:
        return None
    halted = follow_stops(table.campaign, ticking.outages, now)
    notices, outcome = check(table, now, settings, ticking, halted)
    missed = tuple(MissedDeadline(seat, stamp(due), done) for seat, due, done in notices.missed)
    commit(table, outcome, Record(Kind.REFEREE, missed=missed))
    notices.applied = bool(outcome.applied)
    notices.gm = gm_news(table.campaign, notices, now)
    for seat, due, done in notices.missed:
        name = table.campaign.players[seat].name
        log.info(
            "campaign %s: %s missed the deadline of %s: %s",
            table.campaign.id,
            name,
            stamp(due),
            done,
        )
    return notices


def wake(table: Table, now: datetime, ticking: Ticking) -> datetime | None:
    """When the campaign's deadlines next need a tick: its earliest reminder or missed
    deadline to come (``now`` for a decision the book does not know yet); None when it keeps
    no deadlines now."""
    campaign = table.campaign
    settings = campaign.config.deadlines
    if campaign.status != Status.RUNNING or not settings.active:
        return None
    book = campaign.book
    if book.halted is not None or any(e.unsent for e in book.seats.values()):
        return now  # looked at every tick until the clocks run again
    times = []
    for decision in table.awaiting:
        entry = book.seats.get(str(decision.seat))
        if entry is None or entry.stage != decision.stage:
            return now
        due = due_of(settings, campaign, decision.seat, entry)
        if due is None or entry.missed:
            continue
        times.append(due + settings.grace)
        if not entry.reminded:
            times.append(settings.reminder(parse_when(entry.asked), due, ticking.gap))
    if book.untold and book.told_gm:  # the game master's summary of misses
        times.append(parse_when(book.told_gm) + SUMMARY_EVERY)
    return min(times, default=None)


def first_due(table: Table, seat: int) -> Shown | None:
    """When the first of the decisions the game waits for is due, as ``seat`` reads times:
    for a player whose own answer is in, when the round can resolve at the latest."""
    campaign = table.campaign
    settings = campaign.config.deadlines
    if not settings.active or campaign.status != Status.RUNNING:
        return None
    book = campaign.book
    times = [
        due_of(settings, campaign, int(key), entry)
        for key, entry in book.seats.items()
        if not entry.missed
    ]
    first = min((t for t in times if t is not None), default=None)
    return show(first, campaign.players[seat].timezone, settings.zone) if first else None


def clocks(table: Table, mailed: dict[str, str], now: datetime) -> Clocks:
    """The campaign's clocks after every line of the tick (``Clocks``); ``mailed``: when
    each player's last mail went (the watermarks' ``mailed``)."""
    return Clocks(dues(table), daily_mail_due(table.campaign, mailed, now))


def daily_mail_due(
    campaign: Campaign, mailed: dict[str, str], now: datetime
) -> dict[str, datetime]:
    """When each player on `mail digest` has their next daily mail: now, if they had none."""
    return {
        str(seat): digest_due(campaign, seat, datetime.fromisoformat(mailed[str(seat)]))
        if str(seat) in mailed
        else now
        for seat, player in enumerate(campaign.players)
        if player.mail == "digest"
    }


def dues(table: Table) -> dict[int, Shown]:
    """When each awaited decision is due, as each player reads times (none while paused or
    while no mail can go out: the deadlines stand still, and the players are told when they
    run again; none for a decision missed that waits for the game master, nor for one whose
    mail waits undelivered)."""
    campaign = table.campaign
    settings = campaign.config.deadlines
    book = campaign.book
    if not settings.active or campaign.status == Status.PAUSED or book.halted:
        return {}
    shown = {}
    for key, entry in book.seats.items():
        if entry.missed or entry.unsent:  # waits for the game master, or for its mail
            continue
        due = due_of(settings, campaign, int(key), entry)
        if due is not None:
            shown[int(key)] = show(due, campaign.players[int(key)].timezone, settings.zone)
    return shown
