"""Failures the game masters must hear of, since no player will tell them: a mail that
could not be read or handled, a campaign skipped by a tick.

Each is appended to ``state/failures.jsonl`` when it happens. The file rotates: when it
reaches MAX_FILE, or when a failure comes in another month than its first one, it moves to
``state/failures-<when>.jsonl``, and only the newest KEEP of those are kept, so a campaign
broken for months neither fills the disk nor stops the noting.

Once a day at most, a tick mails the site's game masters (referee.yaml's
``referee.game_masters``) a short summary of the failures since the last one, by their cause
(``causes``): each cause named once, with when it was first and last seen and how often, so
a campaign broken all day is one line and a new failure beside it is not lost among its
repeats; at most ``SHOWN`` causes, then how many more there were (``answers.tell_failures``).
What was told is kept as a place in a file (``failures-told.json``: the file, by its inode,
and how far into it), so the summary reads only what is new, also across a rotation; a file
deleted, emptied or rotated by hand meanwhile (another inode, or a shorter file) is read
whole, with the rotated files written since the last summary.
"""

from __future__ import annotations

import json
import logging
import os
import re
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from ..files import append_record, instant, whole
from ..store.names import FAILURES, FAILURES_TOLD
from ..store.site import SiteFiles

log = logging.getLogger(__name__)

SHOWN = 30  # causes of failures listed in one summary
EVERY = timedelta(days=1)
MAX_ERROR = 500  # characters of one error kept
MAX_FILE = 1024 * 1024  # failures.jsonl rotates at this size (about 3,000 failures) ...
KEEP = 12  # ... or with the month; this many rotated files are kept, the oldest deleted
NAME = FAILURES
ROTATED = "failures-*.jsonl"


def note_failure(site: SiteFiles, what: str, error: str, now: datetime | None = None) -> None:
    now = now or datetime.now(UTC)
    path = site.state_dir / NAME
    rotate(path, now)
    append_record(
        path,
        {"at": now.isoformat(), "what": what, "error": " ".join(error.split())[:MAX_ERROR]},
    )


def rotate(path: Path, now: datetime) -> None:
    """Move ``path`` aside when it is full or holds another month's failures; delete the
    oldest rotated files beyond KEEP."""
    try:
        with path.open("rb") as file:
            size = os.fstat(file.fileno()).st_size
            first = file.readline(2048)
    except FileNotFoundError:
        return
    try:
        month = str(json.loads(first)["at"])[:7]
    except (ValueError, KeyError, TypeError):
        month = now.strftime("%Y-%m")  # a first line that cannot be read: by size alone
    if size < MAX_FILE and month == now.strftime("%Y-%m"):
        return
    os.replace(path, path.with_name(f"failures-{month}-{time.time_ns()}.jsonl"))
    log.info("%s rotated (%d bytes, from %s)", path, size, month)
    rotated = sorted(path.parent.glob(ROTATED), key=lambda p: (p.stat().st_mtime_ns, p.name))
    for old in rotated[:-KEEP]:
        old.unlink(missing_ok=True)


class Told:
    """Where the last summary stopped reading: the file (its inode, and its first line's
    hash, as an inode may be used again for another file) and the offset in it; when it
    went (``at``, the tick's clock) and the wall clock then. (A plain class: the tick that
    does not summarise defines it at no cost.)"""

    __slots__ = ("at", "inode", "head", "offset", "wall", "older")

    def __init__(
        self,
        at: str | None = None,
        inode: int | None = None,
        head: str = "",
        offset: int = 0,
        wall: float = 0.0,
        older: int | None = None,  # a summary of an older referee: failures told of the file
    ):
        self.at, self.inode, self.head, self.offset = at, inode, head, offset
        self.wall, self.older = wall, older

    def to_data(self) -> dict:
        return {
            "at": self.at,
            "inode": self.inode,
            "head": self.head,
            "offset": self.offset,
            "wall": self.wall,
        }


def told_of(data: dict) -> Told:
    """failures-told.json read (as an older referee wrote it too: a count of failures)."""
    if data["at"] is not None:
        instant(data["at"])
    if "count" in data:
        return Told(at=data["at"], older=whole(data["count"]))
    inode = data["inode"]
    return Told(
        at=data["at"],
        inode=None if inode is None else whole(inode, what="an inode"),
        head=str(data["head"]),
        offset=whole(data["offset"]),
        wall=float(data["wall"]),
    )


NOT_READ = (".torn", ".gz", ".bz2", ".xz", ".zst", ".Z")  # beside the failures, not them


class Found:
    """A file of failures as found."""

    __slots__ = ("path", "inode", "size", "mtime", "head")

    def __init__(self, path: Path, inode: int, size: int, mtime: float, head: str):
        self.path, self.inode, self.size, self.mtime, self.head = path, inode, size, mtime, head


def failure_files(state_dir: Path) -> list[Found]:
    """Every file of failures, rotated by the referee or by hand, oldest first."""
    import hashlib  # here, not above: a site at rest has no failures, and OpenSSL's start
    # was a tenth of its idle tick's imports

    found = []
    for path in state_dir.glob("failures*.jsonl*"):
        if path.name.endswith(NOT_READ):
            continue
        try:
            with path.open("rb") as file:
                stat = os.fstat(file.fileno())
                head = hashlib.sha256(file.readline(2048)).hexdigest()[:16]
        except OSError:
            continue
        found.append(Found(path, stat.st_ino, stat.st_size, stat.st_mtime, head))
    current = state_dir / NAME
    return sorted(found, key=lambda f: (f.path == current, f.mtime, f.path.name))


def stopped_in(files: list[Found], told: Told) -> int | None:
    """Which of ``files`` the last summary stopped reading in (None: it is gone)."""
    return next(
        (i for i, f in enumerate(files) if (f.inode, f.head) == (told.inode, told.head)), None
    )


def failures_since(state_dir: Path, told: Told) -> tuple[list[dict], Told]:
    """The failures noted since ``told``, oldest first, and where this reading stopped
    (``at`` and ``wall`` left for the caller to set)."""
    files = failure_files(state_dir)
    current = [f for f in files if f.path.name == NAME]
    if told.older is not None:  # an older referee's: the failures told of failures.jsonl
        if not current:
            return [], told
        records, stop = _records(current[0].path, 0)
        skip = told.older if told.older <= len(records) else 0  # deleted by hand since
        return records[skip:], _place(current[0], stop)
    start = stopped_in(files, told)
    if start is not None:
        offset = told.offset if told.offset <= files[start].size else 0  # emptied by hand
        reads = [(files[start], offset)] + [(f, 0) for f in files[start + 1 :]]
    else:  # deleted or rotated by hand: what was written since the last summary
        reads = [(f, 0) for f in files if f.mtime > told.wall or f.path.name == NAME]
    found: list[dict] = []
    end = Told(inode=told.inode, head=told.head, offset=told.offset)
    for file, offset in reads:
        records, stop = _records(file.path, offset)
        found += records
        end = _place(file, stop)
    return found, end


def _place(file: Found, offset: int) -> Told:
    return Told(inode=file.inode, head=file.head, offset=offset)


def _records(path: Path, offset: int) -> tuple[list[dict], int]:
    """The failures in ``path`` from ``offset``, and the offset after the last whole line
    (a line torn by a crash, or being written, is read next time)."""
    try:
        with path.open("rb") as file:
            file.seek(offset)
            data = file.read()
    except OSError:
        return [], offset
    lines = data[: data.rfind(b"\n") + 1]
    records = []
    for line in lines.splitlines():
        try:
            record = json.loads(line)
        except ValueError:
            continue  # a damaged line: the rest are still told
        if isinstance(record, dict):
            records.append({k: str(record.get(k, "?")) for k in ("at", "what", "error")})
    return records, offset + len(lines)


# what tells one mail's failure from another's of the same cause: its Message-ID and sender
ONE_MAIL = re.compile(r" <[^<>]*>( from \S+)?")


def causes(failures: list[dict]) -> list[dict]:
    """``failures`` (oldest first) by their cause: what failed (a campaign, its notice, a
    mail, whichever mail it was) and the error. Each cause once, in the order first seen,
    with the first failure's ``at`` and ``what``, the ``error``, the ``last`` time and the
    ``count``."""
    found: dict[tuple[str, str], dict] = {}
    for failure in failures:
        key = (ONE_MAIL.sub("", failure["what"]), failure["error"])
        cause = found.get(key)
        if cause is None:
            found[key] = {**failure, "last": failure["at"], "count": 1}
        else:
            cause["last"] = failure["at"]
            cause["count"] += 1
    return list(found.values())


def summary_wake(state_dir: Path) -> datetime | None:
    """When the next summary may be due by the clock (a day after the last), if one was
    sent; failures noted since change the files, which a site at rest watches."""
    try:
        told = told_of(json.loads((state_dir / FAILURES_TOLD).read_bytes()))
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None
    return datetime.fromisoformat(told.at) + EVERY if told.at else None


def summary_due(state_dir: Path, game_masters: list[str], now: datetime) -> bool:
    """Whether the game masters may have a summary due (``answers.tell_failures`` decides):
    failures noted past where the last summary stopped reading, the last summary a day
    old. Asked by a tick with nothing else to do, so it reads no failure, only the files'
    sizes: it may say yes in vain (a damaged record, a file rotated by hand), never no when
    a summary is due."""
    if not game_masters:
        return False
    files = failure_files(state_dir)
    if not any(f.size for f in files):
        return False
    try:
        told = told_of(json.loads((state_dir / FAILURES_TOLD).read_bytes()))
    except FileNotFoundError:
        return True
    except (ValueError, KeyError, TypeError, AttributeError):
        return True
    if told.at and now - datetime.fromisoformat(told.at) < EVERY:
        return False
    start = stopped_in(files, told)
    if told.older is not None or start is None:
        return True  # an older referee's record, or a file moved by hand: the summary reads
    return files[start].size > told.offset or any(f.size for f in files[start + 1 :])
