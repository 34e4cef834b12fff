"""A referee site: its configuration, its campaigns, the log's commits, the mail it has
received and the mail it queues (what to answer is ``answers``).

Site files beside referee.yaml:
    state/received.jsonl   the mail taken from the inbox lately: Message-ID, where it went,
                           what became of it (the newest RECENT_RECEIVED, up to twice that)
    state/received-old.jsonl  the same of all mail before, which no tick reads
    state/unrouted/        the raw mail that belongs to no campaign
    state/quarantine/      the raw mail that could not be read or handled (see failures.jsonl)
    state/failures.jsonl   what failed, for the game masters' daily summary (``failures``)
    state/answers.json     the answers of the last day per address (``limits``)
    state/tick.lock        held while a tick runs
"""

from __future__ import annotations

import hashlib
import logging
from functools import cached_property
from pathlib import Path

from .answers import Watermarks
from .campaign import Campaign, CampaignError, Status, Step, Table, check_id
from .config import Config
from .limits import AnswerBook
from .mail.outbox import OutMail
from .play import Outcome, advance
from .records import Kind, Record
from .reports import Identity, gm_welcome, welcome
from .store import append_lines, append_record, atomic_write, read_records

log = logging.getLogger(__name__)

RECENT_RECEIVED = 20_000  # Message-IDs of taken mail a tick checks new mail against


class Site:
    def __init__(self, config: Config):
        self.config = config
        self.root = Path(config.path).parent
        self.data_root = Path(config.data_root)
        self.identity = Identity(config.referee_address, config.referee_name)
        self.outbox = config.make_outbox()
        self.state_dir = self.root / "state"
        self.received_count = 0  # lines in received.jsonl when this process read it
        self.state_dir.mkdir(parents=True, exist_ok=True)
        self.data_root.mkdir(parents=True, exist_ok=True)

    # campaigns -----------------------------------------------------------------------------
    def campaign_ids(self) -> list[str]:
        return sorted(p.name for p in self.data_root.iterdir() if (p / "campaign.yaml").exists())

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

    def new_campaign(
        self,
        game: str,
        campaign_id: str,
        players: list[str],
        seed=None,
        options=None,
        seats: int | None = None,
        gm: str | None = None,
        settings: dict | None = None,
    ) -> Campaign:
        """A new campaign, started at once, or open for sign-up when ``seats`` is given."""
        campaign = Campaign.create(
            self.data_root, campaign_id, game, players, seed, options, seats, gm, settings
        )
        log.info("campaign %s created: %s, %s", campaign.id, campaign.rules.title, campaign.status)
        if campaign.gm:
            self.queue(campaign, gm_welcome(self.identity, campaign))
        if campaign.status == Status.RUNNING:
            self.start_campaign(campaign)
        return campaign

    def start_campaign(self, campaign: Campaign) -> Table:
        """The game begins: a welcome to every player with their token and the seed's
        fingerprint, and the first prompt to whoever acts first."""
        campaign.status = Status.RUNNING
        campaign.seats = None
        campaign.check_game()
        campaign.save()
        table = campaign.table()
        self.commit(table, advance(table, set(campaign.robots)), Record(Kind.REFEREE))
        for seat in range(len(campaign.players)):
            self.queue(campaign, welcome(self.identity, table, seat))
        seats = range(len(campaign.players))
        marks = Watermarks(
            digests={str(s): table.count for s in seats},
            digest_rounds={str(s): table.round for s in seats},
            # the welcomes prompt the first decisions
            stages={str(d.seat): d.stage for d in table.rules.awaiting(table.state)},
        )
        marks.save(campaign)
        log.info(
            "campaign %s started: %s", campaign.id, ", ".join(p.name for p in campaign.players)
        )
        return table

    # the log -------------------------------------------------------------------------------
    def commit(self, table: Table, outcome: Outcome, base: Record) -> Step | None:
        """Append ``base`` with ``outcome``'s orders as a record, when it changes anything."""
        record = outcome.record(base)
        if not record.changes_anything():
            return None
        record = table.campaign.append(record, table.count + 1, table.last_hash)
        # the same events, in the same order, as a replay of the record tells (Table.follow)
        events = [e for c in record.commands for e in c.effects() + c.told()]
        step = table.follow_applied(
            record, outcome.round, events + [e for a in outcome.applied for e in a.events]
        )
        if table.over and table.campaign.status != Status.FINISHED:
            table.campaign.status = Status.FINISHED
            table.campaign.save()
        return step

    # received mail ---------------------------------------------------------------------------
    def received_ids(self) -> set[str]:
        # only a guard against taking a mail twice, which the campaigns' logs also keep: a
        # damaged line stops no mail, and the game master hears of it
        damaged: list[str] = []
        records, _ = read_records(self.state_dir / "received.jsonl", damaged)
        for what in damaged:
            log.error("%s", what)
        self.received_count = len(records) + len(damaged)  # its lines
        return {r["message_id"] for r in records if isinstance(r.get("message_id"), str)}

    def trim_received(self) -> None:
        """Once received.jsonl holds twice RECENT_RECEIVED lines (as counted when a tick
        read it), the older ones move to received-old.jsonl, so that a tick with mail does
        not read a log that grows with every mail the site ever took. A mail taken again
        after that long is still known to its campaign's log; one that went to no campaign
        may be answered again (within the answer limits)."""
        if self.received_count <= 2 * RECENT_RECEIVED:
            return
        path = self.state_dir / "received.jsonl"
        # moved as they are, a damaged line too: the old ones are durable in their new
        # place before they leave the log a tick reads (a crash between the two leaves
        # them in both, which only the archive repeats)
        lines = path.read_bytes().splitlines(keepends=True)  # a torn last one stays last
        append_lines(self.state_dir / "received-old.jsonl", b"".join(lines[:-RECENT_RECEIVED]))
        atomic_write(path, b"".join(lines[-RECENT_RECEIVED:]))
        self.received_count = RECENT_RECEIVED

    def note_received(self, message_id: str, where: str, outcome: str) -> None:
        append_record(
            self.state_dir / "received.jsonl",
            {"message_id": message_id, "where": where, "outcome": outcome},
        )

    def keep_raw(self, folder: Path, message_id: str, raw: bytes) -> Path:
        """The raw mail, stored before it counts as processed (named by its Message-ID)."""
        name = hashlib.sha256(message_id.encode()).hexdigest()[:20] + ".eml"
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / name
        if not path.exists():
            atomic_write(path, raw)
        return path

    # answers ---------------------------------------------------------------------------------
    @cached_property
    def answer_book(self) -> AnswerBook:
        """How many answers each address had: one book for the whole of a tick."""
        return AnswerBook(self.state_dir / "answers.json", self.config.limits)

    def sent_by_us(self, message_id: str) -> bool:
        """Whether ``message_id`` is one of the referee's own mails (come back, e.g. through
        a list that strips the headers)."""
        return self.outbox.contains(queue_name(message_id))

    def queue(self, campaign: Campaign | None, msg) -> None:
        """Queue a mail once: a mail with the same Message-ID queued before is not queued
        again (answers are named deterministically, so a crashed tick resends nothing)."""
        name = queue_name(str(msg["Message-ID"]))
        if self.outbox.contains(name):
            return
        mail = OutMail.of(msg)  # composed once: these bytes are archived, queued and sent
        if campaign is not None:
            atomic_write(
                campaign.dir("mail", "out") / f"{name}.eml", mail.data, durable=False
            )  # the archive copy; the queue's is durable
        self.outbox.queue(mail, name=name)


def queue_name(message_id: str) -> str:
    """The outbox's name of a mail, from its Message-ID."""
    return hashlib.sha256(message_id.encode()).hexdigest()[:24]
