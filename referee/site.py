"""A referee site: its configuration, its campaigns, and the answers it queues.

Site files beside referee.yaml:
    state/received.jsonl   every mail taken from the inbox: Message-ID, when, where it went
    state/unrouted/        the raw mail that belongs to no campaign
    state/tick.lock        held while a tick runs
"""
from __future__ import annotations

import hashlib
import json
import logging
from dataclasses import dataclass, field
from pathlib import Path

from . import maps, timekeeping
from .campaign import Campaign, CampaignError, Step, Table, check_id
from .config import Config
from .deadlines import Deadlines, show
from .history import NoSuchTurn, history_text, turn_files
from .play import Outcome, advance
from .reports import Identity, confirmation, digest, gm_welcome, press, welcome
from .records import History, Kind, Message, Record, Replace
from .store import append_record, atomic_write, read_records

log = logging.getLogger(__name__)


@dataclass
class Watermarks:
    """How far a campaign's answers have been queued: kept in `mailed.json`."""

    confirmed: int = 0                      # mail records confirmed up to this record
    digests: dict = field(default_factory=dict)       # seat -> record reported up to
    digest_rounds: dict = field(default_factory=dict)  # seat -> round of that report
    turns: int = 0                          # turn reports written up to this record
    stages: dict = field(default_factory=dict)  # seat -> stage of the decision last prompted

    @classmethod
    def load(cls, campaign: Campaign) -> "Watermarks":
        path = campaign.root / "mailed.json"
        if not path.exists():
            return cls()
        data = json.loads(path.read_text())
        return cls(data["confirmed"], data["digests"], data["digest_rounds"], data["turns"],
                   data.get("stages", {}))

    def save(self, campaign: Campaign) -> None:
        # derived: after a crash the answers are derived again and the outbox knows them
        atomic_write(campaign.root / "mailed.json",
                     json.dumps(self.__dict__, indent=1, sort_keys=True) + "\n", durable=False)


class Site:
    def __init__(self, config: Config):
        self.config = config
        self.root = Path(config.path).parent
        self.data_root = Path(config.data_root)
        self.identity = Identity(config.referee_address, config.referee_name)
        self.outbox = config.make_outbox()
        self.state_dir = self.root / "state"
        self.state_dir.mkdir(parents=True, exist_ok=True)
        self.data_root.mkdir(parents=True, exist_ok=True)

    # campaigns -----------------------------------------------------------------------------
    def campaign_ids(self) -> list[str]:
        return sorted(p.name for p in self.data_root.iterdir()
                      if (p / "campaign.yaml").exists())

    def campaign(self, campaign_id: str) -> Campaign:
        check_id(campaign_id)
        root = self.data_root / campaign_id
        if not (root / "campaign.yaml").exists():
            known = ", ".join(self.campaign_ids()) or "none yet"
            raise CampaignError(f"no campaign {campaign_id!r} (campaigns: {known})")
        return Campaign.load(root)

    def has_campaign(self, campaign_id: str) -> bool:
        try:
            check_id(campaign_id)
        except CampaignError:
            return False
        return (self.data_root / campaign_id / "campaign.yaml").exists()

    def new_campaign(self, game: str, campaign_id: str, players: list[str], seed=None,
                     options=None, seats: int | None = None, gm: str | None = None,
                     settings: dict | None = None) -> Campaign:
        """A new campaign, started at once, or open for sign-up when ``seats`` is given."""
        campaign = Campaign.create(self.data_root, campaign_id, game, players, seed, options,
                                   seats, gm, settings)
        log.info("campaign %s created: %s, %s", campaign.id, campaign.rules.title, campaign.status)
        if campaign.gm:
            self.queue(campaign, gm_welcome(self.identity, campaign))
        if campaign.status == "running":
            self.start_campaign(campaign)
        return campaign

    def start_campaign(self, campaign: Campaign) -> Table:
        """The game begins: a welcome to every player with their token and the seed's
        fingerprint, and the first prompt to whoever acts first."""
        campaign.status = "running"
        campaign.seats = None
        campaign.check_game()
        campaign.save()
        table = campaign.table()
        self.commit(table, advance(table, set(campaign.robots)), Record(Kind.REFEREE))
        for seat in range(len(campaign.players)):
            self.queue(campaign, welcome(self.identity, table, seat))
        seats = range(len(campaign.players))
        marks = Watermarks(digests={str(s): len(table.steps) for s in seats},
                           digest_rounds={str(s): table.round for s in seats})
        marks.save(campaign)
        log.info("campaign %s started: %s", campaign.id,
                 ", ".join(p.name for p in campaign.players))
        return table

    # the log -------------------------------------------------------------------------------
    def commit(self, table: Table, outcome: Outcome, base: Record) -> Step | None:
        """Append ``base`` with ``outcome``'s orders as a record, when it changes anything."""
        record = outcome.record(base)
        if not record.changes_anything():
            return None
        record = table.campaign.append(record, len(table.steps) + 1, table.last_hash)
        # the same events, in the same order, as a replay of the record tells (Table.follow)
        events = [e for c in record.commands for e in c.effects() + c.told()]
        step = table.follow_applied(record, outcome.round,
                                    events + [e for a in outcome.applied for e in a.events])
        if table.over and table.campaign.status != "finished":
            table.campaign.status = "finished"
            table.campaign.save()
        return step

    # received mail ---------------------------------------------------------------------------
    def received_ids(self) -> set[str]:
        path = self.state_dir / "received.jsonl"
        if not path.exists():
            return set()
        records, _ = read_records(path)
        return {r["message_id"] for r in records}

    def note_received(self, message_id: str, where: str, outcome: str) -> None:
        append_record(self.state_dir / "received.jsonl",
                      {"message_id": message_id, "where": where, "outcome": outcome})

    def keep_raw(self, folder: Path, message_id: str, raw: bytes) -> Path:
        """The raw mail, stored before it counts as processed (named by its Message-ID)."""
        name = hashlib.sha256(message_id.encode()).hexdigest()[:20] + ".eml"
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / name
        if not path.exists():
            atomic_write(path, raw)
        return path

    # answers ---------------------------------------------------------------------------------
    def queue(self, campaign: Campaign | None, msg) -> None:
        """Queue a mail once: a mail with the same Message-ID queued before is not queued
        again (answers are named deterministically, so a crashed tick resends nothing)."""
        name = hashlib.sha256(str(msg["Message-ID"]).encode()).hexdigest()[:24]
        if self.outbox.contains(name):
            return
        if campaign is not None:
            atomic_write(campaign.dir("mail", "out") / f"{name}.eml", msg.as_bytes(),
                         durable=False)           # the archive copy; the queue's is durable
        self.outbox.queue(msg, name=name)

    def answer(self, table: Table) -> int:
        """Queue the mails the campaign's log calls for: confirmations, relayed messages,
        welcomes of replacement players, digests; then write the turn reports."""
        campaign = table.campaign
        marks = Watermarks.load(campaign)
        last = table.steps[-1].record.n if table.steps else 0
        dues = self.dues(table)
        queued = 0
        for step in table.steps:
            record = step.record
            if record.n <= marks.confirmed:
                continue
            for index, action in enumerate(record.actions):
                if isinstance(action, Message):
                    for seat in action.to:
                        self.queue(campaign, press(self.identity, table, record, action,
                                                   index, seat))
                        queued += 1
                elif isinstance(action, Replace):
                    self.queue(campaign, welcome(self.identity, table, action.seat,
                                                 key=str(record.n)))
                    queued += 1
            if record.kind == Kind.MAIL:
                seat = record.seat
                self.queue(campaign, confirmation(
                    self.identity, table, record, dues.get(seat),
                    self.history_for(table, record)))
                queued += 1
        marks.confirmed = last
        png = None
        awaiting = {d.seat: d for d in table.rules.awaiting(table.state)}
        for seat in range(len(campaign.players)):
            key = str(seat)
            since = marks.digests.get(key, 0)
            news = [s for s in table.steps if s.record.n > since
                    and not (s.record.kind == Kind.MAIL and s.record.seat == seat)]
            due = awaiting.get(seat)
            final = table.over and marks.stages.get(key) != "over"   # everyone gets it once
            if not news and not final:
                marks.digests[key] = last
                continue
            new_decision = due is not None and marks.stages.get(key) != due.stage
            new_round = marks.digest_rounds.get(key) != table.round
            if new_decision or new_round or final:
                png = png or maps.png_map(table.view())
                self.queue(campaign, digest(self.identity, table, seat, since, png,
                                            dues.get(seat)))
                marks.digests[key] = last
                marks.digest_rounds[key] = table.round
                marks.stages[key] = "over" if table.over else due.stage if due else None
                queued += 1
        self.write_turns(table, marks.turns)
        marks.turns = last
        marks.save(campaign)
        return queued

    def dues(self, table: Table) -> dict[int, str]:
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

    def history_for(self, table: Table, record: Record) -> str:
        """The history a mail asked for with `history` (the whole game, or one turn)."""
        asked = [c for c in record.commands if isinstance(c, History)]
        if not asked:
            return ""
        try:
            return history_text(table, asked[-1].turn)
        except NoSuchTurn as err:
            return str(err)

    def write_turns(self, table: Table, since: int) -> None:
        """The report and text map of every round touched since record ``since``, and the
        PNG map of each such round once it is over (the game at its end)."""
        rounds = sorted({s.round for s in table.steps if s.record.n > since})
        folder = table.campaign.dir("turns")
        for round_ in rounds:
            for name, content in turn_files(table, round_).items():
                # derived from the log, so written again if a crash loses them
                atomic_write(folder / name, content, durable=False)
