"""Orders from players into a campaign's game: queues, forced moves, refusals.

A player's mail replaces their queue with the orders it holds, in order. An order is used
when a decision of its kind is owed by that player; an entry `a | b` uses the first of its
alternatives that is legal then. In a game whose decisions are simultaneous, a player's answer
is held until everyone's is in (``GameDescriptor.held``): the first order of a new mail then
replaces the held one. When the order at the head of a queue is refused, the rest of
that queue is dropped (it was planned on top of it) and the player is told why. A decision with
exactly one legal choice is taken by the referee at once.
"""

from __future__ import annotations

import dataclasses
import random
import re
from collections.abc import Sequence, Set
from dataclasses import dataclass, field

from ..contract import (
    Bot,
    Entry,
    HeldOrders,
    IllegalOrder,
    MissedOrderRule,
    NotAnOrder,
    NotationError,
    OwnDrop,
    Say,
    Words,
)
from ..records import AppliedOrder, How, Record, RefusedOrder
from ..store.campaign import CampaignError, Status, Step, Table
from ..store.names import SETTINGS_FILE
from ..words.render import say
from .reading import did_you_mean, looks_like_prose, parse


@dataclass
class Applied:
    seat: int
    text: str
    how: How
    events: Sequence[Words]


@dataclass
class Refusal:
    seat: int
    text: str
    reason: Say
    alternatives: list[str] = field(default_factory=list)
    dropped: list[str] = field(default_factory=list)  # queued orders dropped with it


@dataclass
class Outcome:
    """What became of the orders of one mail, or of one pass of the referee."""

    applied: list[Applied] = field(default_factory=list)
    refusals: list[Refusal] = field(default_factory=list)
    queues: dict[int, list[str]] = field(default_factory=dict)  # queues changed
    round: int = 0  # the round the game was in when these orders began

    def record(self, base: Record) -> Record:
        """``base`` (who gave it, and what else it carries) with this outcome's share."""
        return dataclasses.replace(
            base,
            orders=tuple(AppliedOrder(a.seat, a.text, a.how) for a in self.applied),
            queues={seat: tuple(q) for seat, q in self.queues.items()},
            refused=tuple(
                RefusedOrder(r.seat, r.text, r.reason, tuple(r.dropped)) for r in self.refusals
            ),
        )


@dataclass
class Reading:
    """A player's lines read as orders: queue entries (canonical text), malformed orders
    (which stop the whole mail) and lines that are no orders at all (reported, passed over)."""

    entries: list[str] = field(default_factory=list)
    errors: list[tuple[str, str | Say]] = field(default_factory=list)
    ignored: list[str] = field(default_factory=list)


def read_orders(rules, lines: list[str]) -> Reading:
    """One order a line, or, for a game whose orders span lines, the lines as one order
    (passing over, and reporting, the lines that are no part of an order)."""
    reading = Reading()
    if rules.multiline_orders:
        lines = _order_lines(rules, lines, reading)
    for chunk in ["\n".join(lines)] if rules.multiline_orders and lines else lines:
        try:
            entries = parse(rules, chunk)
        except NotationError as err:
            read = _unread(rules, chunk, err, reading)
            if read is None:
                continue
            if read != chunk:
                entries = parse(rules, read)
            elif looks_like_prose(chunk):  # a signature or a remark that begins like an order
                reading.ignored.append(chunk)
                continue
            else:
                reading.errors.append((err.line or chunk, err.reason))
                continue
        for entry in entries:
            if any(rules.referee_only(o) for o in entry.alternatives):
                reading.errors.append((entry.text or chunk, "only the referee gives this order"))
            else:
                reading.entries.append(entry_text(rules, entry))
    return reading


def reads_as_order(rules, line: str) -> bool:
    """The line is an order as written, or one gone wrong or nearly written (a message
    wrapped over several lines ends before it): not prose, nor a line that does not even
    start like an order."""
    try:
        parse(rules, line)
    except NotAnOrder:
        return did_you_mean(rules, line) is not None
    except NotationError:
        return not looks_like_prose(line)
    return True


def _not_an_order(rules, line: str, reading: Reading) -> None:
    """A line that does not even start like an order: a near miss of one ("biuld") stops
    the mail with its suggestion, anything else (a greeting, a remark) is passed over."""
    guess = did_you_mean(rules, line)
    if guess is None:
        reading.ignored.append(line)
    else:
        reading.errors.append((line, say("did_you_mean", guess=guess)))


def _order_lines(rules, lines: list[str], reading: Reading) -> list[str]:
    """The lines of a mail that may be part of a multi-line order: a line that does not even
    start like an order is told or passed over (``_not_an_order``), a list is told."""
    kept = []
    for line in lines:
        try:
            parse(rules, line)
        except NotationError as err:
            read = _unread(rules, line, err, reading)
            if read is None:
                continue
            line = read  # a malformed line stays: the whole text says what is wrong
        kept.append(line)
    return kept


def _unread(rules, line: str, err: NotationError, reading: Reading) -> str | None:
    """What comes of a line the game does not read as it stands: the order a group of one
    says ("build house: 34"); None once a longer group is told to be a list, or a line that
    does not even start like an order is told or passed over (``_not_an_order``); else the
    line itself (malformed, or a part of an order that spans lines), for the caller."""
    listed = _listed(rules, line)
    if listed and len(listed) == 1:
        return listed[0]
    if listed:
        reading.errors.append((line, say("a_list", line=line, example=listed[0])))
        return None
    if isinstance(err, NotAnOrder):
        _not_an_order(rules, line, reading)
        return None
    return line


LISTED = re.compile(r"^(?P<head>[^:,#|]+?)\s*:\s*(?P<items>[^:#|]+)$")


def _listed(rules, line: str) -> list[str] | None:
    """The orders of a line copied from a mail that groups them (``build house: 10, 15``,
    ``line: 1-2, 1-6``), each written alone; None for a line that is no such list."""
    listed = LISTED.match(line.strip())
    items = re.split(r"[\s,]+", listed["items"].strip()) if listed else []
    if not listed or not items[0]:
        return None
    orders = [f"{listed['head']} {item}" for item in items if item]
    try:
        parse(rules, orders[0])
    except NotationError:
        return None
    return orders


def entry_text(rules, entry: Entry) -> str:
    return " | ".join(rules.format(o) for o in entry.alternatives)


def submit(table: Table, seat: int, entries: list[str]) -> Outcome:
    """A player's new orders: they replace the queue (and the first, an answer the game
    holds unresolved), then as many as fit are applied now."""
    outcome = Outcome(round=table.round)
    table.queues[seat] = list(entries)
    _drain(table, seat, How.MAIL, outcome, replacing=True)
    outcome.queues[seat] = list(table.queues[seat])
    return outcome


def dropped_by(table: Table, seat: int) -> Say | str | None:
    """How the seat left the game: by the game's own rule (``OwnDrop``: its note), or ""
    when the bot plays it; None while its player plays on."""
    if seat in table.campaign.robots:
        return ""
    own = table.descriptor.offers(OwnDrop)
    return own.note if own is not None and own.left(table.state, seat) else None


def advance(table: Table, robots: Set[int] = frozenset()) -> Outcome:
    """Everything the referee can do by itself now: queued orders, forced moves, and the
    decisions of seats the bot plays."""
    outcome = Outcome(round=table.round)
    progress = True
    while progress and not table.over:
        progress = False
        for due in table.awaiting:
            seat = due.seat
            if seat in robots:
                decide_by_bot(table, seat, outcome)
                progress = True
                break
            if table.queues.get(seat):
                before = list(table.queues[seat])
                if _drain(table, seat, How.QUEUE, outcome):
                    progress = True
                if table.queues[seat] != before:
                    outcome.queues[seat] = list(table.queues[seat])
                if progress:
                    break
            legal = table.rules.legal_orders(table.state, seat)
            if len(legal) == 1:
                _apply(table, seat, legal[0], How.FORCED, outcome)
                progress = True
                break
    return outcome


def decide_by_bot(table: Table, seat: int, outcome: Outcome) -> None:
    """The campaign's bot decides for the seat (a dropped player, a missed deadline)."""
    rng = random.Random(f"{table.campaign.seed}:{table.count}:{seat}")
    order = campaign_bot(table)(table.state, seat, rng)
    _apply(table, seat, order, How.BOT, outcome)


def campaign_bot(table: Table) -> Bot:
    """The bot the game master chose in campaign.yaml for dropped seats and missed
    deadlines, the default bot if none:

        bot: strong                          # a bot the game has: default, random, strong (Bus)
        bot: {name: strong, rollouts: 200}   # with a searching bot's rollouts per decision

    Its orders are logged like anyone's: a replay never asks a bot, so changing this setting
    changes only the orders still to come."""
    setting = table.campaign.config.bot or "default"
    if isinstance(setting, dict):
        name, budget = setting.get("name", "default"), setting.get("rollouts")
    else:
        name, budget = setting, None
    if budget is not None and (not isinstance(budget, int) or isinstance(budget, bool)):
        raise CampaignError(f"{SETTINGS_FILE}: bot rollouts must be a whole number, not {budget!r}")
    try:
        return table.rules.bot(str(name), budget)
    except ValueError as err:
        raise CampaignError(f"{SETTINGS_FILE}: bot: {err}") from None


def adjudicate(table: Table, seat: int, outcome: Outcome) -> bool:
    """The game's own missed-order rule for the seat, if it has one."""
    rule = table.descriptor.offers(MissedOrderRule)
    order = rule.adjudicate(table.state, seat) if rule else None
    if order is None:
        return False
    _apply(table, seat, order, How.MISSED, outcome)
    return True


def _owed_kind(table: Table, seat: int, replacing: bool = False) -> str | None:
    """The kind of the decision the seat owes; or, when ``replacing``, of the answer the game
    holds for it unresolved, which a new order replaces."""
    for due in table.awaiting:
        if due.seat == seat:
            return due.kind
    holds = table.descriptor.offers(HeldOrders)
    kept = holds.held(table.state, seat) if replacing and holds else None
    return kept.kind if kept else None


def _drain(table: Table, seat: int, how: How, outcome: Outcome, replacing: bool = False) -> bool:
    """Use the seat's queue while its head answers the decision the seat owes (the head of a
    new mail may replace an answer the game holds, ``replacing``)."""
    queue = table.queues.get(seat, [])
    used = False
    while queue and not table.over:
        kind = _owed_kind(table, seat, replacing and not used)
        entry = table.rules.parse(queue[0])[0]
        options = [o for o in entry.alternatives if o.kind == kind]
        if not options:
            break  # its decision has not come yet
        errors: list[IllegalOrder] = []
        for order in options:
            try:
                _apply(table, seat, order, how, outcome)
                break
            except IllegalOrder as err:
                errors.append(err)
        else:
            first = errors[0]
            outcome.refusals.append(
                Refusal(
                    seat,
                    queue[0],
                    first.reason,
                    [table.rules.format(o) for o in first.alternatives],
                    dropped=queue[1:],
                )
            )
            queue.clear()
            break
        queue.pop(0)
        used = True
    table.queues[seat] = queue
    return used


def _apply(table: Table, seat: int, order, how: How, outcome: Outcome) -> None:
    table.state, events = table.rules.apply(table.state, seat, order)
    outcome.applied.append(Applied(seat, table.rules.format(order), how, events))


def commit(table: Table, outcome: Outcome, base: Record) -> Step | None:
    """Append ``base`` with ``outcome``'s orders as a record, when it changes anything."""
    record = outcome.record(base)
    if not record.changes_anything():
        return None
    record = table.campaign.append(record, table.count + 1, table.last_hash)
    # the same events, in the same order, as a replay of the record tells (Table.follow)
    events: list[Words] = []
    for command in record.commands:
        events += command.effects()
        events += command.told()
    step = table.follow_applied(
        record, outcome.round, events + [e for a in outcome.applied for e in a.events]
    )
    if table.over and table.campaign.status != Status.FINISHED:
        table.campaign.status = Status.FINISHED
        table.campaign.changed()
    return step
