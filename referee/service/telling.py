"""What each person of a campaign is told at a tick, as plain values: a pure function of the
log and the clock, with no mail server, no file and no words in it (``tell``).

Its inputs: the records nobody was told of yet (past the watermarks of ``mailed.json``), the
table after every line of the tick (mails, kept orders, bots, deadlines), each player's
settings (mail volume), this tick's deadline notices and the clock. Its output: the
``Letter`` of each mail to send, and the watermarks moved on. ``answers`` writes the letters
in words and queues them.

Who hears of a record is said by the record (``Record.letters``: a message, a replacement, a
drop, observers sent away, a missed deadline); what every player is told of the game (a
report, an answer to their mail, a short notice of the game master's actions) is decided
here, one seat at a time, for every kind of record alike.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from ..records import GAME_MASTER, Kind, Letter, Record
from ..store.campaign import Step, Table
from ..store.marks import Watermarks
from .timekeeping import Notices


@dataclass
class Telling:
    """The mails a tick sends for one campaign, and how far its people have been told."""

    letters: list[Letter] = field(default_factory=list)
    marks: Watermarks = field(default_factory=Watermarks)


def tell(
    table: Table,
    marks: Watermarks,
    now: datetime,
    notices: Notices | None = None,
    daily: Mapping[str, datetime] | None = None,
) -> Telling:
    """Every mail the campaign calls for now (see the module's docstring); ``marks`` is left
    as it was: the telling returns the watermarks moved on. ``daily``: when each player on
    `mail digest` has their next daily mail (``timekeeping.Clocks``)."""
    campaign = table.campaign
    marks = copy.deepcopy(marks)
    told = Telling(marks=marks)
    letters = told.letters
    last = table.count
    if notices:
        book = campaign.book.seats
        letters += [
            Letter("reminder", seat, (seat, book[str(seat)].stage), moved=moved)
            for seat, _, moved in notices.told_dues()
        ]
        if notices.gm:  # the misses the timekeeper tells the game master now, in one mail
            letters += [Letter("missed", GAME_MASTER, tuple(map(tuple, notices.gm)))]
    if table.set_aside:
        letters += [Letter("set_aside", GAME_MASTER, (last,))]
    # what happened since the earliest watermark, read once for everyone
    kept = [n - 1 for numbers in marks.held.values() for n in numbers]
    steps = table.steps_after(min([marks.confirmed, *marks.digests.values(), *kept]))
    held = _held(steps, marks)
    told_everyone = False  # a game master's action: everyone gets a report
    told_alone: set[int] = set()  # seats told in a mail of their own (a welcome, a drop)
    for step in _after(steps, marks.confirmed):
        record = step.record
        own = record.letters()
        letters += own
        for letter in own:
            if letter.to is not None and letter.kind in ("welcome", "dropped"):
                told_alone.add(letter.to)
            if letter.kind == "welcome":  # a newcomer comes into a game under way: the map
                marks.pictured[str(letter.to)] = table.round
        commands = record.commands
        told_everyone |= any(c.tells_everyone for c in commands)
        if any(c.asks_again for c in commands):
            marks.stages.clear()  # the awaited players are asked again
        if record.missed and campaign.config.lateness_notice:
            told_everyone = True
        if record.kind == Kind.MAIL:
            held[record.seat] = [*held.get(record.seat, []), record]
    marks.confirmed = last
    for seat in range(len(campaign.players)):
        letters += _tell_seat(
            table, steps, marks, seat, held, told_everyone, told_alone, now, daily or {}
        )
    letters += [
        Letter("confirmation", GAME_MASTER, (r.n,), reads=(r.n,))
        for r in held.pop(GAME_MASTER, [])  # the game master's mails: answered at once
    ]
    marks.held = {str(seat): [r.n for r in reads] for seat, reads in held.items() if reads}
    letters += _tell_game_master(table, marks)
    letters += _tell_observers(table, marks)
    return told


def _after(steps: list[Step], n: int) -> list[Step]:
    """What the records after record ``n`` did, of the ``steps`` read."""
    return [s for s in steps if s.record.n > n]


def _held(steps: list[Step], marks: Watermarks) -> dict[int | None, list[Record]]:
    """The mails whose answers wait (for the player's next mail, or their daily mail)."""
    records = {s.record.n: s.record for s in steps}
    return {
        int(key): [records[n] for n in numbers if n in records]
        for key, numbers in marks.held.items()
    }


def _tell_seat(
    table: Table,
    steps: list[Step],
    marks: Watermarks,
    seat: int,
    held: dict[int | None, list[Record]],
    told_everyone: bool,
    told_alone: set[int],
    now: datetime,
    daily: Mapping[str, datetime],
) -> list[Letter]:
    """One player's mail, if anything concerns them: a report (with the answers to their
    mails read since) when they have a new decision, a new round or the result, a short
    notice of the game master's actions when that is all that happened, else an answer to
    their mail; or nothing yet, while their answer may wait."""
    campaign = table.campaign
    last = table.count
    key = str(seat)
    reads = held.pop(seat, [])
    since = marks.digests.get(key, 0)
    news = [s for s in _after(steps, since) if not own_mail(s, seat)]
    due = next((d for d in table.awaiting if d.seat == seat), None)
    final = table.over and marks.stages.get(key) != "over"  # everyone gets it once
    if not news and not reads and not final:
        marks.digests[key] = last
        return []
    new_decision = due is not None and marks.stages.get(key) != due.stage
    brief = told_briefly(news)
    if brief and not (reads or final or new_decision):
        # the game master's actions that did not move the game: a short mail, no map
        marks.digests[key] = last
        if seat in told_alone:
            return []
        ask = any(a.asks_again for a in brief)  # asked again after a pause
        told = tuple(s.record.n for s in news if s.events)
        return [Letter("told", seat, (news[-1].record.n, seat), reads=told, since=since, asks=ask)]
    gather = timedelta(minutes=campaign.config.gather_minutes)
    new_round = bool(news) and (told_everyone or marks.digest_rounds.get(key) != table.round)
    waiting = [s.record for s in news[:1]] + reads
    if (
        new_round
        and not (new_decision or final or told_everyone)
        and _may_wait(waiting, now, gather)
    ):
        new_round = False  # a report with nothing to decide waits for the next mail
    choice = campaign.players[seat].mail
    if choice == "brief" and not (new_decision or final or told_everyone):
        new_round = False  # the player asked for decisions and results only
        if all(_plain(r) for r in reads):
            held[seat] = reads  # accepted orders: told with the next decision
            return []
    if choice == "digest" and not (final or new_decision) and now < daily.get(key, now):
        held[seat] = reads  # one mail a day: everything since goes in the next one
        return []
    if new_decision or new_round or final:
        # the picture once a round (and with the result); the text map in every mail
        pictured = final or marks.pictured.get(key) != table.round
        if pictured:
            marks.pictured[key] = table.round
        marks.digests[key] = last
        marks.digest_rounds[key] = table.round
        marks.stages[key] = "over" if table.over else due.stage if due else None
        marks.mailed[key] = now.isoformat()
        return [
            Letter(
                "digest", seat, (last, seat), reads=_numbers(reads), since=since, pictured=pictured
            )
        ]
    if reads and (due is not None or not _may_wait(reads, now, gather)):
        marks.mailed[key] = now.isoformat()
        return [Letter("confirmation", seat, (reads[-1].n,), reads=_numbers(reads))]
    if reads:
        held[seat] = reads  # answered with the player's next mail
    return []


def own_mail(step: Step, seat: int) -> bool:
    return step.record.kind == Kind.MAIL and step.record.seat == seat


def _numbers(records: list[Record]) -> tuple[int, ...]:
    return tuple(r.n for r in records)


def _tell_game_master(table: Table, marks: Watermarks) -> list[Letter]:
    """The game master learns of the end of the game (the result and the seed), once."""
    if table.campaign.gm is None or not table.over or marks.stages.get("gm") == "over":
        return []
    marks.stages["gm"] = "over"
    return [Letter("game_over", GAME_MASTER, (table.count,))]


def _tell_observers(table: Table, marks: Watermarks) -> list[Letter]:
    """The report of each round that ended since the last one, and the result, to the
    campaign's observers (what every player can read: no token, no private press)."""
    done = table.round + 1 if table.over else table.round  # the rounds that are over
    if marks.observed is None:
        marks.observed = done - 1  # observers join from the round in play
    letters = [
        Letter("observed", GAME_MASTER, (round_, address), index=round_, address=address)
        for round_ in range(marks.observed + 1, done)
        for address in table.campaign.config.observers
    ]
    marks.observed = max(marks.observed, done - 1)
    return letters


def told_briefly(news: list[Step]) -> list:
    """The game master's actions of ``news`` to tell briefly, when they are all that
    happened in it (every other step told nothing); else none."""
    actions = []
    for step in news:
        record = step.record
        quiet = [c for c in record.commands if c.brief and not c.effects()]
        if quiet and not record.orders and not record.missed:
            actions += quiet
        elif step.events:
            return []
    return actions


def next_mail(
    table: Table, marks: Watermarks, now: datetime, daily: Mapping[str, datetime]
) -> datetime | None:
    """When the campaign's answers next need a tick of their own: at once when an answer
    waits for the player's next mail (or the gather time), else when a player who gets one
    mail a day (``daily``: when it goes) has theirs held; None when nothing waits."""
    later = {key: due for key, due in daily.items() if now < due}
    times = [now for key, reads in marks.held.items() if reads and key not in later]
    times += [
        due
        for key, due in later.items()
        if marks.held.get(key) or table.steps_after(marks.digests.get(key, 0))
    ]
    return min(times, default=None)


def _may_wait(records: list[Record], now: datetime, gather: timedelta) -> bool:
    """Whether answers about these records may wait for a later mail: each record is only
    accepted orders (or news), and the first is younger than the campaign's gather time."""
    if not records or not gather:
        return False
    if any(r.kind == Kind.MAIL and not _plain(r) for r in records):
        return False
    first = datetime.fromisoformat(records[0].at.replace("Z", "+00:00"))
    return now - first < gather


def _plain(record: Record) -> bool:
    """A mail whose answer would only say that its orders were accepted."""
    return bool(record.orders) and not (
        record.bad_lines or record.refused or record.actions or any(record.queues.values())
    )
