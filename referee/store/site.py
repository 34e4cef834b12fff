"""A referee site's own files beside referee.yaml, and its campaigns' folders.

games/<id>/            one folder per campaign (``store.campaign``)
state/received.jsonl   the mail taken from the inbox lately: Message-ID, sender, where it went,
                       what became of it (the newest RECENT_RECEIVED, up to twice that)
state/received-old.jsonl  the same of all mail before, which no tick reads
state/unrouted/        the raw mail that belongs to no campaign
state/held/<id>/       the raw mail for a campaign that could not be read, in the order it
                       came, until a tick can read the campaign again and applies it
state/quarantine/      the raw mail that could not be read or handled (see failures.jsonl);
                       its retried/ the mail `referee retry` took again since
state/failures.jsonl   what failed, for the game masters' daily summary (``failures``;
                       rotated to failures-<month>-<n>.jsonl)
state/answers.json     the answers of the last day per address (``limits``)
state/tick.lock        held while a tick runs
state/last-tick.json   when the last tick ran, what came of it, and when the last one went
                       well (``referee status --json`` shows it to a monitoring system)
"""

from __future__ import annotations

import json
import logging
import os
import re
from pathlib import Path
from typing import TYPE_CHECKING

from ..files import (
    append_lines,
    append_record,
    atomic_write,
    fsync_dir,
    instant,
    private_folder,
    read_records,
)
from ..settings.checks import ID_PATTERN
from .names import (
    CAMPAIGN_FILES,
    HELD,
    LAST_TICK,
    LOG,
    RECEIVED,
    RECEIVED_OLD,
    SETTINGS_FILE,
    STATE,
)
from .rest import last_rested

if TYPE_CHECKING:
    from .campaign import Campaign

log = logging.getLogger(__name__)

RECENT_RECEIVED = 20_000  # Message-IDs of taken mail a tick checks new mail against


# compiled when first used (``re`` keeps them): a tick that needs neither pays nothing
OPEN_STATUS = rb"(?m)^status:[ \t]*[\"']?open\b"
ANY_ADDRESS = rb"[\w.+-]+@[\w-]+\.[\w.-]+"


def is_campaign(folder: str | os.PathLike) -> bool:
    """A campaign's folder: named as an id, with its settings or its log in it. (Paths as
    text: a site of ten thousand campaigns asks it of each.)"""
    folder = os.fspath(folder)
    return bool(ID_PATTERN.match(os.path.basename(folder))) and any(
        os.path.exists(f"{folder}/{name}") for name in CAMPAIGN_FILES
    )


def last_tick(state_dir: Path) -> dict | None:
    """What ``SiteFiles.note_tick`` kept of the last tick (None before the first, or when
    the file cannot be read or does not hold what a tick writes: it is only told, and the
    next tick writes it afresh), or the last tick at rest (``store.rest``) when it came
    later."""
    try:
        data = json.loads((state_dir / LAST_TICK).read_bytes())
        instant(data["at"])
        if data.get("last_ok") is not None:
            instant(data["last_ok"])
        skipped = data.get("skipped", [])
        if not isinstance(data["outcome"], str) or not isinstance(skipped, list):
            raise TypeError("an outcome and a list of campaigns skipped belong here")
    except (OSError, ValueError, KeyError, TypeError):
        data = None
    rested = last_rested(state_dir)  # a tick at rest notes only that it ran
    try:
        later = rested and (data is None or instant(rested[0]) > instant(data["at"]))
    except ValueError:
        later = False
    if not rested or not later:
        return data
    at, waiting = rested
    return {"at": at, "ended": at, "outcome": "ok", "fetched": 0, "applied": 0, "sent": 0,
            "waiting": waiting, "skipped": [], "errors": [], "last_ok": at}  # fmt: skip


class SiteFiles:
    """The folders of a site: its campaigns, and what it keeps of the mail it took."""

    def __init__(self, root: Path, data_root: Path):
        self.root = root
        self.data_root = data_root
        self.state_dir = root / STATE
        self.received_count = 0  # lines in received.jsonl when this process read it
        private_folder(self.state_dir)
        private_folder(self.data_root)

    # campaigns -----------------------------------------------------------------------------
    def campaign_ids(self) -> list[str]:
        """Every campaign's id, one that cannot be read too: a folder with its settings or
        its log (a campaign.yaml moved away by mistake leaves a broken campaign, not none)."""
        with os.scandir(self.data_root) as entries:
            return sorted(e.name for e in entries if is_campaign(e.path))

    def secret_places(self) -> list[Path]:
        """The folders and files that hold the players' tokens and the seeds still secret:
        the site's state (the mail it took), the campaigns' folders and their settings."""
        places = [self.state_dir, self.data_root]
        for campaign_id in self.campaign_ids():
            root = self.data_root / campaign_id
            places += [root, root / SETTINGS_FILE, root / LOG]
        return places

    # store.campaign (the games, their settings) is imported when a campaign is read: a
    # tick with nothing to do reads none

    def campaign(self, campaign_id: str) -> Campaign:
        from .campaign import Campaign, CampaignError, check_id

        check_id(campaign_id)
        root = self.data_root / campaign_id
        if not is_campaign(root):
            known = ", ".join(self.campaign_ids()) or "none yet"
            raise CampaignError(f"no campaign {campaign_id!r} (campaigns: {known})")
        return Campaign.load(root)

    def has_campaign(self, campaign_id: str) -> bool:
        from .campaign import CampaignError, check_id

        try:
            check_id(campaign_id)
        except CampaignError:
            return False
        return is_campaign(self.data_root / campaign_id)

    def mentions(self, campaign_id: str, *words: str) -> bool:
        """Whether the campaign's settings name one of ``words`` (an address, a token) as a
        whole word, read as bytes, without parsing them: how a campaign.yaml that cannot be
        read still tells who may hear about it. When it is missing or names no address at
        all (emptied, overwritten), its log's senders tell instead."""
        root = self.data_root / campaign_id
        data = b""
        for name in CAMPAIGN_FILES:
            try:
                data = (root / name).read_bytes().lower()
            except OSError:
                continue
            if re.search(ANY_ADDRESS, data):
                break
        for word in filter(None, words):
            whole = rb"(?<![\w.+-])" + re.escape(word.lower().encode()) + rb"(?![\w.-])"
            if re.search(whole, data):
                return True
        return False

    def signup_ids(self) -> list[str]:
        """The campaigns whose settings say they are open for sign-up, found without
        parsing any (those that cannot be read are looked at by whoever reads them)."""
        found = []
        for campaign_id in self.campaign_ids():
            try:
                data = (self.data_root / campaign_id / SETTINGS_FILE).read_bytes()
            except OSError:
                continue
            if re.search(OPEN_STATUS, data):
                found.append(campaign_id)
        return found

    def campaigns_of(self, address: str) -> list[tuple[str, Campaign | None]]:
        """The campaigns ``address`` plays in or runs, each read (None: one whose files
        name the address but cannot be read); only the campaigns whose settings name it are
        parsed at all."""
        from .campaign import CampaignError

        found: list[tuple[str, Campaign | None]] = []
        for campaign_id in self.campaign_ids():
            if not self.mentions(campaign_id, address):
                continue
            try:
                campaign = self.campaign(campaign_id)
            except CampaignError:
                found.append((campaign_id, None))
                continue
            if campaign.seat_of_address(address) is not None or (
                campaign.gm is not None and campaign.gm.address == address.lower()
            ):
                found.append((campaign_id, campaign))
        return found

    # mail held for a campaign that cannot be read ------------------------------------------
    @property
    def held_dir(self) -> Path:
        return self.state_dir / HELD

    def hold(self, campaign_id: str, message_id: str, raw: bytes) -> Path:
        """Keep a mail for a campaign that cannot be read now, after those held before it."""
        folder = self.held_dir / campaign_id
        folder.mkdir(parents=True, exist_ok=True)
        numbers = [int(p.name.partition("-")[0]) for p in folder.glob("*.eml")]
        path = folder / f"{max(numbers, default=0) + 1:06d}-{raw_name(message_id)}"
        atomic_write(path, raw)
        return path

    def holds_mail(self) -> bool:
        """Whether any mail is held (without reading it)."""
        return self.held_dir.is_dir() and any(self.held_dir.glob("*/*.eml"))

    def held(self) -> list[tuple[str, Path]]:
        """The mails held (their keys, which ``release`` takes, and their files), campaign by
        campaign, each campaign's in the order they came."""
        if not self.held_dir.is_dir():
            return []
        return [
            (f"{folder.name}/{path.name}", path)
            for folder in sorted(p for p in self.held_dir.iterdir() if p.is_dir())
            for path in sorted(folder.glob("*.eml"))
        ]

    def release(self, keys: list[str]) -> None:
        """Held mails applied (or answered) at last, once that is durable."""
        folders = set()
        for key in keys:
            path = self.held_dir / key
            path.unlink(missing_ok=True)
            folders.add(path.parent)
        for folder in folders:
            if not any(folder.iterdir()):
                folder.rmdir()
            fsync_dir(folder.parent if not folder.exists() else folder)

    # received mail ---------------------------------------------------------------------------
    def received_ids(self) -> set[tuple[str | None, str]]:
        """(sender, Message-ID) of each mail taken lately; the sender is None in a line
        written before senders were kept (its Message-ID alone then stands for it)."""
        # only a guard against taking a mail twice, which the campaigns' logs also keep: a
        # damaged line stops no mail, and the game master hears of it
        damaged: list[str] = []
        records, _ = read_records(self.state_dir / RECEIVED, damaged)
        for what in damaged:
            log.error("%s", what)
        self.received_count = len(records) + len(damaged)  # its lines
        return {
            (r.get("from"), r["message_id"])
            for r in records
            if isinstance(r.get("message_id"), str)
        }

    def trim_received(self) -> None:
        """Once received.jsonl holds twice RECENT_RECEIVED lines (as counted when a tick
        read it), the older ones move to received-old.jsonl, so that a tick with mail does
        not read a log that grows with every mail the site ever took. A mail taken again
        after that long is still known to its campaign's log; one that went to no campaign
        may be answered again (within the answer limits)."""
        if self.received_count <= 2 * RECENT_RECEIVED:
            return
        path = self.state_dir / RECEIVED
        # moved as they are, a damaged line too: the old ones are durable in their new
        # place before they leave the log a tick reads (a crash between the two leaves
        # them in both, which only the archive repeats)
        lines = path.read_bytes().splitlines(keepends=True)  # a torn last one stays last
        append_lines(self.state_dir / RECEIVED_OLD, b"".join(lines[:-RECENT_RECEIVED]))
        atomic_write(path, b"".join(lines[-RECENT_RECEIVED:]))
        self.received_count = RECENT_RECEIVED

    def received_outcomes(self) -> dict[tuple[str | None, str], str]:
        """The last outcome of every mail taken (the old ones too), by (sender, Message-ID)
        as ``received_ids`` gives them."""
        outcomes: dict[tuple[str | None, str], str] = {}
        for name in (RECEIVED_OLD, RECEIVED):
            damaged: list[str] = []
            records, _ = read_records(self.state_dir / name, damaged)
            for r in records:
                if isinstance(r.get("message_id"), str) and isinstance(r.get("outcome"), str):
                    outcomes[(r.get("from"), r["message_id"])] = r["outcome"]
        return outcomes

    def last_tick(self) -> dict | None:
        """What the last tick left (``last_tick``)."""
        return last_tick(self.state_dir)

    def note_tick(self, record: dict) -> None:
        """Keep ``record`` (``at``, ``outcome``, ...) as the last tick, with ``last_ok``: the
        time of the last tick whose outcome was ok."""
        last_ok = record["at"] if record["outcome"] == "ok" else None
        if last_ok is None:
            last_ok = (self.last_tick() or {}).get("last_ok")
        data = json.dumps({**record, "last_ok": last_ok}, indent=1) + "\n"
        atomic_write(self.state_dir / LAST_TICK, data, durable=False)

    def note_received(self, message_id: str, sender: str, where: str, outcome: str) -> None:
        append_record(
            self.state_dir / RECEIVED,
            {"message_id": message_id, "from": sender, "where": where, "outcome": outcome},
        )

    def keep_raw(
        self, folder: Path, message_id: str, raw: bytes, sender: str | None = None
    ) -> Path:
        """The raw mail, stored before it counts as processed (named by its Message-ID, and
        its sender when given: another sender's mail under the same Message-ID is another
        mail)."""
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / raw_name(message_id if sender is None else f"{sender} {message_id}")
        if not path.exists():
            atomic_write(path, raw)
        return path


def raw_name(message_id: str) -> str:
    """The file name of a raw mail kept (``keep_raw``, ``hold``)."""
    import hashlib  # here, not above: OpenSSL's start was a tenth of an idle tick's imports

    return hashlib.sha256(message_id.encode()).hexdigest()[:20] + ".eml"
