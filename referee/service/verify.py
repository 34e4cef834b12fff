"""`referee verify`: is a campaign what its log says it is?

Five checks, each naming the place where it fails:
1. the seed in campaign.yaml matches the ``seed_hash`` published to the players at the start
   (so the dice were fixed before the first order);
2. the log's hash chain holds: every record is numbered in turn and its ``hash`` covers its
   content and the hash of the record before it (a record changed, removed or slipped in by
   hand breaks the chain at that record);
3. the log replays: every order in it is legal where it stands;
4. the campaign's state (running or finished) is the replay's;
5. every round over has its files in turns/, each as the referee wrote it: its SHA-256 as
   recorded in turns/hashes.json when it was written, at a log record whose chain hash is
   still the log's (a file of an earlier release that
   recorded none is compared with today's rendering, and a difference is only a note: the
   words and maps change between releases, the game does not). The round in play has no
   files yet: they are written when it ends.

Nothing is written: a campaign folder copied off the server can be verified as it is.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path

from ..files import CorruptRecord, read_records
from ..records import Record, RecordError
from ..store.campaign import (
    GENESIS,
    TURN_HASHES,
    TURNS,
    Campaign,
    CampaignError,
    Status,
    Table,
    record_hash,
    seed_hash,
    undone_orders,
)
from ..store.names import LOG, MARKS, SETTINGS_FILE
from ..words.history import over, stem, turn_files


@dataclass(frozen=True)
class Finding:
    place: str  # a file, with the record or line where it matters
    problem: str
    record: int | None = None  # the log record the chain breaks at, for the turn files

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
        check_status(campaign, table, result)
        check_turns(campaign, table, records, result)
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
                    previous + 1,
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
                    place,
                    f"{missing} missing before it (it comes right after record {previous})",
                    previous + 1,
                )
            )
        elif "hash" not in record:
            result.findings.append(Finding(place, "has no hash, so it cannot be checked", number))
        elif record["hash"] != record_hash(previous_hash, record):
            result.findings.append(
                Finding(
                    place,
                    f"its content does not match its hash {record['hash']}: it was "
                    f"changed after it was written (it now reads: {describe(record)})",
                    number,
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


def check_status(campaign: Campaign, table: Table, result: Verification) -> None:
    """campaign.yaml says the game is over exactly when its replay ends."""
    finished = campaign.status == Status.FINISHED
    if finished != table.over:
        result.findings.append(
            Finding(
                SETTINGS_FILE,
                f"its status is {campaign.status.value}, but the log's replay "
                + ("has not reached the end" if finished else "ends the game"),
            )
        )


def not_replayed(campaign: Campaign, data: dict, err: Exception, result: Verification) -> None:
    problem = str(err).removeprefix(f"{campaign.log_path}: ")
    result.findings.append(Finding(f"{LOG} record {data.get('n')}", problem))
    result.notes.append("the turn reports are not checked: the log does not replay")


def check_turns(
    campaign: Campaign, table: Table, records: list[dict], result: Verification
) -> None:
    """Every round over has its report and text map (and its PNG, where one was written),
    each as the referee wrote it: its SHA-256 as recorded then (turns/hashes.json), written
    at a record whose chain hash is the log's, so that what a later release words or draws
    otherwise is no failure. A file an earlier release wrote without recording its hash is
    compared with today's rendering, and a difference is a note."""
    folder = campaign.root / TURNS
    present = {p.name for p in folder.glob("round-*")} if folder.is_dir() else set()
    recorded = campaign.turn_hashes()
    chain = {r.get("n"): r.get("hash") for r in records}
    broken = min((f.record for f in result.findings if f.record is not None), default=None)
    rounds = sorted({s.round for s in table.steps})
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
    closed = [r for r in rounds if over(table, r)]
    names = {
        r: {f"{stem(r)}.txt", f"{stem(r)}.map.txt"}
        | {n for n in present | recorded.keys() if n.startswith(f"{stem(r)}.")}
        for r in closed
    }
    before = len(result.findings)
    rendered: dict[int, dict[str, str | bytes]] = {}
    held, unrecorded, after_break = 0, [], []
    for round_, name in ((r, n) for r in closed for n in sorted(names[r])):
        place, written = f"turns/{name}", recorded.get(name)
        if name not in present:
            result.findings.append(Finding(place, "is missing (the replay writes it)"))
        elif written is None:
            unrecorded.append((round_, name))
        elif hashlib.sha256(data := (folder / name).read_bytes()).hexdigest() != written.sha256:
            changed = (
                f"was changed after the referee wrote it (its SHA-256 is not the one in "
                f"turns/{TURN_HASHES})"
            )
            today = rendering(table, round_, name, rendered)
            if today is not None and data != today:
                changed += f": {difference(data, today)}"
            result.findings.append(Finding(place, changed))
        elif chain.get(written.record) != written.log_hash:
            result.findings.append(
                Finding(
                    place,
                    f"was written at log record {written.record}, which is no longer the "
                    f"record it was (its chain hash was {written.log_hash}): the log was "
                    f"changed before it",
                )
            )
        elif broken is not None and written.record >= broken:
            after_break.append((round_, name))  # the chain cannot vouch: the replay must
        else:
            held += 1
    written_names = set().union(*names.values()) if names else set()
    for name in sorted(present - in_play - written_names):
        result.findings.append(Finding(f"turns/{name}", "is no file the log's replay writes"))
    for round_, name in after_break:
        found = (folder / name).read_bytes()
        wanted = rendering(table, round_, name, rendered)
        if found != wanted:
            result.findings.append(
                Finding(
                    f"turns/{name}",
                    f"was written after record {broken}, where the hash chain breaks, and "
                    f"differs from the log's replay: {difference(found, wanted or b'')}",
                )
            )
        else:
            held += 1
    if len(result.findings) == before and held:
        result.passed.append(f"the {held} files in turns/ are as the referee wrote them")
    compare_with_today(folder, table, unrecorded, rendered, result)


def rendering(
    table: Table, round_: int, name: str, rendered: dict[int, dict[str, str | bytes]]
) -> bytes | None:
    """The file ``name`` of ``round_`` as today's referee writes it (None: it writes no such
    file); ``rendered`` keeps each round's files drawn once."""
    if round_ not in rendered:
        rendered[round_] = turn_files(table, round_)
    content = rendered[round_].get(name)
    return None if content is None else as_bytes(content)


def compare_with_today(
    folder: Path,
    table: Table,
    unrecorded: list[tuple[int, str]],
    rendered: dict[int, dict[str, str | bytes]],
    result: Verification,
) -> None:
    """Files written before their hashes were recorded, each compared with what today's
    referee writes for its round: the game replays the same, but the words and maps of
    another release may differ, which proves nothing wrong."""
    if not unrecorded:
        return
    same = 0
    for round_, name in unrecorded:
        found, wanted = (folder / name).read_bytes(), rendering(table, round_, name, rendered)
        if found == wanted:
            same += 1
        else:
            why = "it writes no such file" if wanted is None else difference(found, wanted)
            result.notes.append(
                f"turns/{name} was written by an earlier release (no hash recorded) and "
                f"differs from today's rendering, which words or draws it otherwise: {why}"
            )
    if same:
        result.passed.append(
            f"{same} of the {len(unrecorded)} files in turns/ written before their hashes "
            f"were recorded are what today's referee writes"
        )


def as_bytes(content: str | bytes) -> bytes:
    return content.encode("utf-8") if isinstance(content, str) else content


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
