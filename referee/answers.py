"""The answers a campaign's log calls for, derived from it: confirmations of mails, relayed
messages, welcomes of replacement players, digests, and the files of turns/.

Nothing here decides anything about the game. What was answered is kept as watermarks
(mailed.json); they are derived data: after a crash the answers are derived again, and the
outbox recognises a mail it queued before by its Message-ID, so none goes out twice.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from . import maps, timekeeping
from .campaign import Campaign, Table
from .deadlines import Deadlines, show
from .history import NoSuchTurn, history_text, turn_files
from .limits import Audience
from .records import History, Kind, Message, Record, Replace
from .reports import confirmation, digest, press, welcome
from .store import atomic_write

if TYPE_CHECKING:
    from .site import Site


@dataclass
class Watermarks:
    """How far a campaign's answers have been queued: kept in `mailed.json`."""

    confirmed: int = 0  # mail records confirmed up to this record
    digests: dict = field(default_factory=dict)  # seat -> record reported up to
    digest_rounds: dict = field(default_factory=dict)  # seat -> round of that report
    turns: int = 0  # turn reports written up to this record
    stages: dict = field(default_factory=dict)  # seat -> stage of the decision last prompted

    @classmethod
    def load(cls, campaign: Campaign) -> Watermarks:
        path = campaign.root / "mailed.json"
        if not path.exists():
            return cls()
        data = json.loads(path.read_text())
        return cls(
            data["confirmed"],
            data["digests"],
            data["digest_rounds"],
            data["turns"],
            data.get("stages", {}),
        )

    def floor(self) -> int:
        """The earliest record an answer may still report from."""
        return min([self.confirmed, self.turns, *self.digests.values()])

    def save(self, campaign: Campaign) -> None:
        # derived: after a crash the answers are derived again and the outbox knows them
        atomic_write(
            campaign.root / "mailed.json",
            json.dumps(self.__dict__, indent=1, sort_keys=True) + "\n",
            durable=False,
        )


def answer(site: Site, table: Table) -> int:
    """Queue the mails the campaign's log calls for: confirmations, relayed messages,
    welcomes of replacement players, digests; then write the turn reports."""
    campaign = table.campaign
    marks = Watermarks.load(campaign)
    last = table.count
    due_at = dues(table)
    queued = 0
    for step in table.steps_after(marks.confirmed):
        record = step.record
        for index, action in enumerate(record.actions):
            if isinstance(action, Message):
                for seat in action.to:
                    site.queue(campaign, press(site.identity, table, record, action, index, seat))
                    queued += 1
            elif isinstance(action, Replace):
                site.queue(campaign, welcome(site.identity, table, action.seat, key=str(record.n)))
                queued += 1
        if record.kind == Kind.MAIL and (
            # a mail whose orders moved the game on is always confirmed (the game's length
            # bounds those); any other counts against the limit, so that an auto-responder
            # with the token is answered a few times, not for ever
            record.orders
            or not record.sender
            or site.answer_book.allow(record.sender, Audience.PLAYER)
        ):
            due_by = due_at.get(record.seat) if record.seat is not None else None
            site.queue(
                campaign,
                confirmation(site.identity, table, record, due_by, history_for(table, record)),
            )
            queued += 1
    marks.confirmed = last
    png = None
    awaiting = {d.seat: d for d in table.rules.awaiting(table.state)}
    for seat in range(len(campaign.players)):
        key = str(seat)
        since = marks.digests.get(key, 0)
        news = [
            s
            for s in table.steps_after(since)
            if not (s.record.kind == Kind.MAIL and s.record.seat == seat)
        ]
        due = awaiting.get(seat)
        final = table.over and marks.stages.get(key) != "over"  # everyone gets it once
        if not news and not final:
            marks.digests[key] = last
            continue
        new_decision = due is not None and marks.stages.get(key) != due.stage
        new_round = marks.digest_rounds.get(key) != table.round
        if new_decision or new_round or final:
            png = png or maps.png_map(table.view())
            site.queue(campaign, digest(site.identity, table, seat, since, png, due_at.get(seat)))
            marks.digests[key] = last
            marks.digest_rounds[key] = table.round
            marks.stages[key] = "over" if table.over else due.stage if due else None
            queued += 1
    renamed = any(
        isinstance(a, Replace)
        for s in table.steps
        if s.record.n > marks.turns
        for a in s.record.actions
    )  # a seat's new name shows in every round's report, as the replay shows it
    write_turns(campaign.table() if renamed else table, 0 if renamed else marks.turns)
    marks.turns = last
    marks.save(campaign)
    return queued


def dues(table: Table) -> dict[int, str]:
    """When each awaited decision is due, as each player reads times."""
    campaign = table.campaign
    settings = Deadlines.from_settings(campaign.settings.get("deadlines"))
    if not settings.active:
        return {}
    book = timekeeping.Book.load(campaign)
    shown = {}
    for key, entry in book.seats.items():
        due = timekeeping.due_of(settings, campaign, int(key), entry)
        if due is not None:
            shown[int(key)] = show(due, campaign.players[int(key)].timezone, settings.zone)
    return shown


def history_for(table: Table, record: Record) -> str:
    """The history a mail asked for with `history` (the whole game, or one turn)."""
    asked = [c for c in record.commands if isinstance(c, History)]
    if not asked:
        return ""
    try:
        return history_text(table, asked[-1].turn)
    except NoSuchTurn as err:
        return str(err)


def write_turns(table: Table, since: int) -> None:
    """The report and text map of every round touched since record ``since``, and the
    PNG map of each such round once it is over (the game at its end)."""
    rounds = sorted({s.round for s in table.steps_after(since)})
    folder = table.campaign.dir("turns")
    for round_ in rounds:
        for name, content in turn_files(table, round_).items():
            # derived from the log, so written again if a crash loses them
            atomic_write(folder / name, content, durable=False)
