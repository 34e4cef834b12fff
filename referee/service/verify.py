"""`referee verify`: is a campaign what its log says it is?

Four checks, each naming the place where it fails:
1. the seed in campaign.yaml matches the ``seed_hash`` published to the players at the start
   (so the dice were fixed before the first order);
2. the log's hash chain holds: every record is numbered in turn and its ``hash`` covers its
   content and the hash of the record before it (a record changed, removed or slipped in by
   hand breaks the chain at that record);
3. the log replays: every order in it is legal where it stands;
4. every round over has its files in turns/, each what the replay writes for that round,
   byte for byte (the round in play has none yet: they are written when it ends); a file
   that an older release wrote again under a replacement's name is kept as written, and
   named in a note.

Nothing is written: a campaign folder copied off the server can be verified as it is.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from ..files import CorruptRecord, read_records
from ..records import Handover, Holders, Record, RecordError
from ..store.campaign import (
    GENESIS,
    Campaign,
    CampaignError,
    Status,
    Table,
    record_hash,
    seed_hash,
    undone_orders,
)
from ..store.names import LOG, MARKS, SETTINGS_FILE, TURNS
from ..words.history import over, stem, turn_files


@dataclass(frozen=True)
class Finding:
    place: str  # a file, with the record or line where it matters
    problem: str

    def __str__(self) -> str:
        return f"{self.place}: {self.problem}"


@dataclass
class Verification:
    campaign_id: str
    findings: list[Finding] = field(default_factory=list)
    passed: list[str] = field(default_factory=list)  # what was checked and held
    notes: list[str] = field(default_factory=list)  # what could not be checked, and why

    @property
    def ok(self) -> bool:
        return not self.findings

    def summary(self) -> str:
        if self.ok:
            lines = [f"campaign {self.campaign_id}: verified"]
        else:
            count = len(self.findings)
            lines = [
                f"campaign {self.campaign_id}: {count} problem{'s' * (count != 1)} "
                f"(in the order found: later ones may follow from earlier ones)"
            ]
            lines += [f"  FAILED {f}" for f in self.findings]
        lines += [f"  ok     {p}" for p in self.passed]
        lines += [f"  note   {n}" for n in self.notes]
        return "\n".join(lines)


def verify(root: Path) -> Verification:
    root = Path(root)
    try:
        campaign = Campaign.load(root)
    except CampaignError as err:
        result = Verification(root.name)
        result.findings.append(Finding(SETTINGS_FILE, str(err)))
        return result
    result = Verification(campaign.id)
    check_seed(campaign, result)
    records = read_log(campaign, result)
    if records is None:
        return result
    if campaign.status == Status.OPEN:  # no game yet: players are still joining
        if records:
            result.findings.append(
                Finding(LOG, f"holds {len(records)} records before the game started")
            )
        result.notes.append("the campaign is open for sign-up: there is no game to replay yet")
        return result
    check_chain(campaign, records, result)
    table = replay(campaign, records, result)
    if table is not None:
        check_turns(campaign, table, result)
    return result


def check_seed(campaign: Campaign, result: Verification) -> None:
    published = campaign.config.seed_hash
    if published is None:
        result.notes.append(
            f"{SETTINGS_FILE} has no seed_hash (the campaign was made before "
            "seeds were published): the seed is not checked"
        )
    elif str(published) != seed_hash(campaign.id, campaign.seed):
        result.findings.append(
            Finding(
                SETTINGS_FILE,
                f"the seed does not match the seed_hash {published} "
                f"published at the start: the seed or its hash was changed",
            )
        )
    else:  # the seed itself is not shown: it is secret until the end
        result.passed.append("the seed matches the published seed_hash")


def read_log(campaign: Campaign, result: Verification) -> list[dict] | None:
    try:
        records, torn = read_records(campaign.log_path)
    except CorruptRecord as err:
        result.findings.append(Finding(LOG, str(err)))
        return None
    if torn:
        result.notes.append(f"{torn} (a tick was cut short; the next tick sets it aside)")
    return records


def check_chain(campaign: Campaign, records: list[dict], result: Verification) -> None:
    """Each record checked against the stored hash of the one before it, so a changed
    record is named and the records after it still check."""
    before = len(result.findings)
    previous_hash, previous = GENESIS, 0
    for record in records:
        number = record.get("n")
        place = f"{LOG} record {number}"
        if not isinstance(number, int) or number <= previous:
            result.findings.append(
                Finding(
                    f"{LOG} after record {previous}",
                    f"a record numbered {number!r} comes "
                    f"next: records were copied, reordered or slipped in by hand",
                )
            )
        elif number > previous + 1:
            missing = (
                f"record {previous + 1} is"
                if number == previous + 2
                else f"records {previous + 1} to {number - 1} are"
            )
            result.findings.append(
                Finding(
                    place, f"{missing} missing before it (it comes right after record {previous})"
                )
            )
        elif "hash" not in record:
            result.findings.append(Finding(place, "has no hash, so it cannot be checked"))
        elif record["hash"] != record_hash(previous_hash, record):
            result.findings.append(
                Finding(
                    place,
                    f"its content does not match its hash {record['hash']}: it was "
                    f"changed after it was written (it now reads: {describe(record)})",
                )
            )
        previous_hash = record.get("hash", previous_hash)
        previous = max(previous, number) if isinstance(number, int) else previous
    answered = last_answered(campaign)
    if answered > previous:
        result.findings.append(
            Finding(
                LOG,
                f"ends at record {previous}, but {MARKS} shows that "
                f"record {answered} was answered: records were removed from the end",
            )
        )
    if len(result.findings) == before:
        result.passed.append(f"the hash chain of {len(records)} log records holds")


def describe(record: dict) -> str:
    """The part of a record a reader can compare with the mail it came from."""
    orders = "; ".join(f"seat {seat}: {text!r}" for seat, text, *_how in record.get("orders", ()))
    return f"orders {orders}" if orders else json.dumps(record, ensure_ascii=False)[:120]


def last_answered(campaign: Campaign) -> int:
    """The last record the site answered (mailed.json): the log cannot end before it."""
    path = campaign.root / MARKS
    try:
        marks = json.loads(path.read_text())
        return max(
            [marks.get("confirmed", 0), marks.get("turns", 0), *marks.get("digests", {}).values()]
        )
    except (FileNotFoundError, ValueError, TypeError, AttributeError):
        return 0


def replay(campaign: Campaign, records: list[dict], result: Verification) -> Table | None:
    read: list[Record] = []
    for data in records:
        try:
            read.append(Record.from_json(data))
        except RecordError as err:
            not_replayed(campaign, data, err, result)
            return None
    table = Table.starting(campaign, read)
    table.undone = undone_orders(read)  # as the referee replays it: rollbacks hold
    for data, record in zip(records, read):
        try:
            table.follow(record)
        except (CampaignError, RecordError) as err:
            not_replayed(campaign, data, err, result)
            return None
    undone = len(table.undone)
    ended = table.rules.result(table.state)
    result.passed.append(
        f"the log replays: {table.orders_replayed} orders, all legal"
        + (f" ({undone} undone by rollbacks, not replayed)" if undone else "")
        + f", to round {table.round}"
        + (f", the end ({ended.reason})" if ended else "")
    )
    return table


def not_replayed(campaign: Campaign, data: dict, err: Exception, result: Verification) -> None:
    problem = str(err).removeprefix(f"{campaign.log_path}: ")
    result.findings.append(Finding(f"{LOG} record {data.get('n')}", problem))
    result.notes.append("the turn reports are not checked: the log does not replay")


def check_turns(campaign: Campaign, table: Table, result: Verification) -> None:
    folder = campaign.root / TURNS
    rounds = sorted({s.round for s in table.steps})
    expected = files_over(table)
    present = {p.name for p in folder.glob("round-*")} if folder.is_dir() else set()
    # the round in play: its files are written when it ends (an older referee wrote them at
    # every order, and a rollback may have reopened a round written): not checked till then
    in_play = {
        n for r in rounds if not over(table, r) for n in present if n.startswith(f"{stem(r)}.")
    }
    if in_play:
        result.notes.append(
            "the files of the round in play are not checked (they are written when it ends): "
            + ", ".join(f"turns/{name}" for name in sorted(in_play))
        )
    present -= in_play
    before = len(result.findings)
    renamed: list[str] = []  # as an older release wrote them again after a replacement
    older: dict[str, str | bytes] | None = None
    for name, content in expected.items():
        place = f"turns/{name}"
        if name not in present:
            result.findings.append(Finding(place, "is missing (the replay writes it)"))
            continue
        found = (folder / name).read_bytes()
        if found == as_bytes(content):
            continue
        if older is None:
            older = written_renamed(campaign, table)
        if name in older and found == as_bytes(older[name]):
            renamed.append(place)
        else:
            result.findings.append(Finding(place, difference(found, as_bytes(content))))
    if renamed:
        result.notes.append(
            "written again under the names the players have now by a release that did so "
            "after a replacement (the log says who played each move): " + ", ".join(renamed)
        )
    for name in sorted(present - expected.keys()):
        result.findings.append(Finding(f"turns/{name}", "is no file the log's replay writes"))
    if len(result.findings) == before:
        result.passed.append(
            f"the {len(expected)} files in turns/ are what the replay writes"
            + (f" ({len(renamed)} of them under the names of now, see below)" if renamed else "")
        )


def as_bytes(content: str | bytes) -> bytes:
    return content.encode("utf-8") if isinstance(content, str) else content


class NamedAsNow(Table):
    """The game as releases before this one replayed it once a seat had been replaced:
    every seat under the name of its player now, from the start."""

    def hand_over(self, handover: Handover) -> None:
        """The newcomer's name was the seat's from the start."""

    @property
    def holders(self) -> Holders:
        return Holders(self.campaign.names(), [])


def written_renamed(campaign: Campaign, table: Table) -> dict[str, str | bytes]:
    """The files of every round over as a release before this one wrote them again after a
    replacement; none when no seat was replaced."""
    handovers = [c.handover() for s in table.steps for c in s.record.commands]
    if not any(h and not h.bot for h in handovers):  # a dropped seat's bot kept its name
        return {}
    return files_over(NamedAsNow(campaign).follow_all([s.record for s in table.steps]))


def files_over(table: Table) -> dict[str, str | bytes]:
    """The files of every round over, as the replay writes them."""
    return {
        name: content
        for round_ in sorted({s.round for s in table.steps})
        if over(table, round_)
        for name, content in turn_files(table, round_).items()
    }


def difference(found: bytes, wanted: bytes) -> str:
    """Where a file departs from the replay: the first line that differs, for text."""
    try:
        found_lines = found.decode("utf-8").splitlines()
        wanted_lines = wanted.decode("utf-8").splitlines()
    except UnicodeDecodeError:
        return "differs from the map the log's replay draws"
    for number, (a, b) in enumerate(zip(found_lines, wanted_lines), start=1):
        if a != b:
            return f"line {number} reads {a!r} where the log's replay gives {b!r}"
    return (
        f"has {len(found_lines)} lines where the log's replay gives {len(wanted_lines)} "
        f"(the first {min(len(found_lines), len(wanted_lines))} agree)"
    )
