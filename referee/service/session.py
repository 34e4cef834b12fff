"""A campaign as one tick holds it: read once, acted on by every mail and every due deadline
of the tick, its answers decided once (``answers``), and committed once.

Every write to a campaign's files goes through it, in this order:

1. each mail's and each deadline's record appended to the log (``Campaign.append``), after
   the settings and the deadline book that its commands changed (``Campaign.commit``): the
   log never holds a record whose changes are not on disk;
2. the turn files of the rounds that ended, then the answers queued (the outbox);
3. ``commit``: what changed since the last record (the deadline book's reminders told, the
   decisions asked for, a game's end in the settings), then the watermarks of what was
   queued (mailed.json), then the snapshot the next tick starts from.

A tick killed between two steps loses nothing: what comes after the log is made again from
it (the watermarks were not moved, so the answers are made again, with the same Message-IDs
the outbox knows)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from datetime import datetime
from typing import TypeVar

from ..mail.read import Incoming
from ..mail.routing import MAX_LINES, Route
from ..records import BadLine, Kind, Record
from ..settings.deadlines import stamp
from ..store import snapshots
from ..store.campaign import Campaign, CampaignError, Status, Table
from ..store.marks import Watermarks
from ..words.render import Said, say, spoken
from .commands import Commands, split
from .play import Outcome, commit, dropped_by, read_orders, reads_as_order, submit
from .site import Site

T = TypeVar("T")


class Unavailable(CampaignError):
    """A campaign that cannot be loaded this tick (its settings or its log cannot be read,
    whatever the reason): it is skipped alone, and its mail is held until it can be."""


class Sessions:
    """The campaigns one tick touches, each a session: read once (its settings, and its
    deadline book and watermarks when first asked for), its table loaded once from its
    snapshot (or its log), acted on by every mail and due deadline of the tick: every change
    a tick makes goes through these objects."""

    def __init__(self, site: Site):
        self.site = site
        self.campaigns: dict[str, Campaign] = {}
        self.tables: dict[str, Table] = {}
        self.broken: dict[str, str] = {}  # found unloadable this tick: not tried again

    def campaign(self, campaign_id: str) -> Campaign:
        if campaign_id not in self.campaigns:
            self.campaigns[campaign_id] = self.site.campaign(campaign_id)
        return self.campaigns[campaign_id]

    def table(self, campaign_id: str) -> Table:
        if campaign_id not in self.tables:
            self.tables[campaign_id] = snapshots.load(self.campaign(campaign_id))
        return self.tables[campaign_id]

    def loaded(self, campaign_id: str) -> Campaign:
        """The campaign for a mail, or Unavailable saying why it cannot be loaded: any
        failure to load is the campaign's, never the mail's, which waits for the game
        master to mend it."""
        return self._guarded(campaign_id, self.campaign)

    def loaded_table(self, campaign_id: str) -> Table:
        """The campaign's table for a mail, or Unavailable (as ``loaded``)."""
        return self._guarded(campaign_id, self.table)

    def _guarded(self, campaign_id: str, load: Callable[[str], T]) -> T:
        if campaign_id in self.broken:
            raise Unavailable(self.broken[campaign_id])
        try:
            return load(campaign_id)
        except Exception as err:
            why = str(err) if isinstance(err, CampaignError) else f"{type(err).__name__}: {err}"
            self.broken[campaign_id] = why
            self.forget(campaign_id)
            raise Unavailable(why) from err

    def commit(self, campaign_id: str, marks: Watermarks | None = None) -> None:
        """The campaign's writes once its answers are queued (see the module's docstring):
        ``marks``, the watermarks the answers moved on."""
        commit_files(self.campaign(campaign_id), self.tables.get(campaign_id), marks)

    def apply(
        self,
        mail: Incoming,
        table: Table,
        seat: int | None,
        where: Route,
        now: datetime,
        sent_anew: str | None = None,
    ) -> tuple[Outcome, Record]:
        """A player's (or the game master's, seat None) mail to a started campaign: its
        commands, then its orders, in one log record; none of them when it was ``sent_anew``
        (why it is refused)."""
        campaign = table.campaign
        commands, order_lines = (
            split(where.lines, seat is None, lambda line: reads_as_order(table.rules, line))
            if not sent_anew
            else ([], [])
        )
        done = Commands(self.site, campaign, table, seat, now).run(commands)
        record = Record(
            Kind.MAIL,
            message_id=mail.message_id,
            sender=mail.sender_address,
            seat=seat,
            subject=mail.subject,
            actions=tuple(done.actions),
        )
        if seat is not None and not sent_anew:  # what knows this mail if it comes again
            record = replace(
                record,
                # a date to come (a wrong clock) counts as now: it must not refuse the next
                date=stamp(min(mail.date, now)) if mail.date else None,
                body=mail.body_digest if where.lines else None,
            )
        assert done.outcome is not None  # a started campaign's commands have one
        outcome = done.outcome
        if sent_anew:
            record = replace(record, bad_lines=(BadLine("(all)", sent_anew),))
        elif seat is None:
            record = replace(record, ignored=tuple(order_lines))
        elif campaign.status != Status.RUNNING or (dropped := dropped_by(table, seat)) is not None:
            # no orders are taken now, or ever from a dropped player
            if order_lines:
                why = (
                    say("no_orders_now", campaign_id=campaign.id, status=campaign.status)
                    if campaign.status != Status.RUNNING
                    else say("no_orders_dropped", campaign_id=campaign.id, rule=dropped)
                )
                record = replace(record, bad_lines=(BadLine("(all)", why),))
        else:
            reading = read_orders(table.rules, order_lines)
            if where.cut:
                reading.ignored.append(say("lines_unread", count=where.cut, limit=MAX_LINES))
            passed = reading.ignored
            if not (reading.entries or reading.errors or commands):
                unread = [spoken(s) for s in set_aside(mail)]
                passed = passed + unread  # the answer says what was not read
            record = replace(
                record,
                ignored=tuple(passed),
                bad_lines=tuple(BadLine(*e) for e in reading.errors),
            )
            if reading.entries and not reading.errors:
                outcome = submit(table, seat, reading.entries)
        commit(table, outcome, record)
        if done.rebuild:
            self.replay(campaign.id)
        return outcome, record

    def replay(self, campaign_id: str) -> None:
        """Rebuild a table from its log (after a rollback)."""
        self.tables[campaign_id] = self.campaign(campaign_id).table()

    def forget(self, campaign_id: str | None = None) -> None:
        """Read a campaign (or every one) afresh from its files: after it failed half-way, or
        after a mail outside any campaign wrote to its files beside this tick's copy."""
        for cached in (self.campaigns, self.tables):
            if campaign_id is None:
                cached.clear()
            else:
                cached.pop(campaign_id, None)


def commit_files(
    campaign: Campaign, table: Table | None, marks: Watermarks | None, snapshot: bool = False
) -> None:
    """Step 3 of the module's docstring, for a campaign held by a tick or by a game master's
    command line; the snapshot when a round ended since the last (or always: ``snapshot``)."""
    if table is not None and table.over and campaign.status != Status.FINISHED:
        campaign.status = Status.FINISHED  # a tick killed before it was written
        campaign.changed()
    campaign.commit()
    if marks is not None:
        campaign.marks = marks
        if table is not None and (snapshot or snapshots.due(table)):
            snapshots.save(table, marks.floor())


def set_aside(mail: Incoming) -> list[Said]:
    """What of a mail's text was not read (quotes, a signature, a footer), as its answer
    tells it."""
    return [Said.of("set_aside", kind=a.kind, line=a.line, count=a.count) for a in mail.set_aside]
