"""Crash-safe files: atomic whole-file writes, an append-only JSON-lines log, the tick lock.

A tick may die at any instant (cron timeout, power cut). Whole files are therefore written to
a temporary file and renamed over the old one, so a reader sees the old or the new content and
never half of it; logs are appended one JSON object a line with fsync, and a last line that a
crash cut short is detected, never trusted, and kept aside for the game master to look at.

Group commit: inside ``grouped()``, durable writes are made at once but their fsyncs wait for
``Group.sync``, which makes every file touched durable with one fsync each, then every
directory touched (so a file's content is durable before its new name), before the caller
goes on to what depends on them (marking mail processed, sending). A killed process loses
nothing the kernel has been given; a power cut before the sync loses the group's writes
together, as it lost the write in progress before.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import tempfile
from collections.abc import Callable, Iterator
from datetime import datetime
from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T")


def crashpoint(name: str) -> None:
    """Fault injection for the crash tests: REFEREE_CRASH_AT=<name> kills the process here,
    as a power cut or `kill -9` would, with nothing flushed or cleaned up."""
    if os.environ.get("REFEREE_CRASH_AT") == name:
        os._exit(137)


TORN_SUFFIX = ".torn"  # where append_record keeps a torn last line it cut off

# A site's files hold players' tokens (campaign.yaml, the mail kept, the queue), the seed
# still secret (campaign.yaml) and passwords (referee.env): each is made readable by its owner
# alone, whatever the umask. What is made to be published (an archive) says so.
PRIVATE_FILE, PRIVATE_FOLDER, PUBLIC_FILE = 0o600, 0o700, 0o644


def private_folder(path: str | os.PathLike) -> Path:
    """``path``, made where missing (with its parents) for its owner alone."""
    path = Path(path)
    missing = list(itertools.takewhile(lambda folder: not folder.exists(), path.parents))
    for folder in reversed(missing):
        folder.mkdir(exist_ok=True, mode=PRIVATE_FOLDER)
    path.mkdir(exist_ok=True, mode=PRIVATE_FOLDER)  # a file in the way: FileExistsError
    return path


def private_open(path: str | os.PathLike, mode: str) -> Any:
    """``open(path, mode)`` for appending, a new file made for its owner alone."""
    fd = os.open(path, os.O_RDWR | os.O_APPEND | os.O_CREAT, PRIVATE_FILE)
    return os.fdopen(fd, mode)


class CorruptRecord(Exception):
    """A line in the middle of a log that is not a JSON object: the log was edited by hand or
    the disk is damaged. Nothing is guessed: the game master has to repair the line."""


class StateDamaged(Exception):
    """A state file the referee derives or can start afresh (what was mailed, the deadlines'
    clocks) that could not be read: it has been moved aside, and the next look starts it
    afresh. The campaign waits for that next look, and the game master hears of it."""


def read_state(path: Path, read: Callable[[Any], T]) -> T | None:
    """The JSON state file ``path`` as ``read`` makes it; None when there is none. A damaged
    file (not JSON, or not the shape ``read`` takes) is moved aside to ``<name>.damaged``,
    where the game master can look at it, and StateDamaged says so."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return None
    try:
        return read(json.loads(data))
    except (ValueError, KeyError, TypeError, AttributeError, IndexError) as err:
        aside = path.with_name(path.name + ".damaged")
        os.replace(path, aside)
        raise StateDamaged(
            f"{path} could not be read ({type(err).__name__}: {err}); it was moved to "
            f"{aside.name} and starts afresh"
        ) from None


def whole(value: Any, least: int = 0, what: str = "a count") -> int:
    """A count kept in a JSON file, which must be a number there (not true, 2.5 or "3")."""
    if isinstance(value, bool) or not isinstance(value, int) or value < least:
        raise ValueError(f"{what} {value!r} where a whole number from {least} belongs")
    return value


def instant(value: Any, what: str = "a time") -> datetime:
    """A time kept in a JSON file, which must be written there as the referee writes one:
    ISO 8601 with its offset. One without (a hand edit) cannot be compared with the clock,
    and would stop whatever compared it, so it is refused here with the rest."""
    moment = datetime.fromisoformat(value) if isinstance(value, str) else None
    if moment is None or moment.utcoffset() is None:
        raise ValueError(f"{what} {value!r} where an ISO time with its offset belongs")
    return moment


class Group:
    """The files and directories a group of writes touched, in order, each once."""

    def __init__(self) -> None:
        self.files: dict[Path, None] = {}
        self.dirs: dict[Path, None] = {}

    def sync(self) -> None:
        """Make every write of the group durable: the files first, then the directories."""
        for path in self.files:
            with contextlib.suppress(FileNotFoundError):  # replaced and gone since: nothing to keep
                fd = os.open(path, os.O_RDONLY)
                try:
                    os.fsync(fd)
                finally:
                    os.close(fd)
        crashpoint("synced-files")
        for directory in self.dirs:
            fsync_dir(directory)
        self.files.clear()
        self.dirs.clear()


_group: Group | None = None


@contextlib.contextmanager
def grouped() -> Iterator[Group]:
    """Durable writes inside are synced together by the group's ``sync`` (and at the end)."""
    global _group
    outer, _group = _group, Group()
    group = _group
    try:
        yield group
        group.sync()
    finally:
        _group = outer


def _note(group: Group, path: Path, new_name: bool) -> None:
    """A file written in a group (and, when ``new_name``, its name) is made durable with it."""
    group.files[path] = None
    if new_name:
        group.dirs[path.parent] = None


def fsync_dir(directory: str | os.PathLike) -> None:
    """Make a rename or a new file in ``directory`` durable."""
    fd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def atomic_write(
    path: str | os.PathLike,
    data: bytes | str,
    temp_dir: str | os.PathLike | None = None,
    durable: bool = True,
    new_mode: int = PRIVATE_FILE,
) -> None:
    """Replace ``path`` by ``data`` (str is written as UTF-8) all at once.

    The temporary file lives in ``temp_dir`` (default: the target's directory; it must be on the
    same file system, as a Maildir's tmp/ is). An existing file keeps its permissions; a new one
    gets ``new_mode`` (its owner's alone, unless it is made to be published).
    ``durable=False`` skips the fsyncs, for files that are derived from durable ones and made
    again after a crash (a reader still sees the old file or the new one, never a mix)."""
    path = Path(path)
    if isinstance(data, str):
        data = data.encode("utf-8")
    try:
        mode = path.stat().st_mode & 0o777
    except FileNotFoundError:
        mode = new_mode
    fd, temp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=temp_dir or path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fchmod(f.fileno(), mode)
            if durable and _group is None:
                os.fsync(f.fileno())
        os.replace(temp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temp)
        raise
    if durable:
        if _group is None:
            fsync_dir(path.parent)
        else:
            _note(_group, path, new_name=True)


def second_name(source: str | os.PathLike, path: str | os.PathLike, data: bytes) -> None:
    """Replace ``path`` by the file ``source``, whose bytes are ``data``, all at once: a hard
    link, so that a mail kept in two folders takes its room once, or where the file system
    cannot link (another file system, or one without links) a copy, not durable (for files
    derived from a durable one, as ``atomic_write``'s ``durable=False``)."""
    path = Path(path)
    temp = path.with_name(f".{path.name}.link")
    with contextlib.suppress(FileNotFoundError):
        os.unlink(temp)  # left by a try that died before its rename
    try:
        os.link(source, temp)
    except OSError:
        atomic_write(path, data, durable=False)
        return
    os.replace(temp, path)


def _encode_record(record: dict) -> bytes:
    if not isinstance(record, dict):
        raise TypeError(f"a record is a dict, not {type(record).__name__}")
    return (json.dumps(record, ensure_ascii=False) + "\n").encode("utf-8")


def _parse_line(line: bytes) -> dict | None:
    """The record on a line, or None if the line is not a complete JSON object."""
    try:
        record = json.loads(line.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return None
    return record if isinstance(record, dict) else None


def _last_line_start(f, size: int) -> int:
    """Offset of the last line of a file that ends with a newline (scans back in blocks)."""
    end = size - 1  # the final newline itself
    pos = end
    while pos > 0:
        step = min(8192, pos)
        f.seek(pos - step)
        block = f.read(step)
        nl = block.rfind(b"\n")
        if nl >= 0:
            return pos - step + nl + 1
        pos -= step
    return 0


def _torn_tail_offset(f) -> int | None:
    """Where a torn or corrupt last line of the log starts, or None when the log is sound."""
    size = f.seek(0, os.SEEK_END)
    if size == 0:
        return None
    f.seek(size - 1)
    if f.read(1) != b"\n":
        # no final newline: the last write did not finish; find where that line starts
        f.seek(0)
        data = f.read()
        return data.rfind(b"\n") + 1
    start = _last_line_start(f, size)
    f.seek(start)
    line = f.read(size - start)
    if line.strip() and _parse_line(line) is None:
        return start
    return None


def append_record(path: str | os.PathLike, record: dict) -> None:
    """Append ``record`` as one JSON line and fsync it.

    A torn last line left by an earlier crash is first cut off (its bytes are appended to
    ``<path>.torn`` so nothing is lost); otherwise the new record would follow half a line and
    the log would be corrupt in the middle. The record it held was never committed: whatever
    wrote it (a mail's orders) is redone by the next tick."""
    append_lines(path, _encode_record(record))


def append_lines(path: str | os.PathLike, lines: bytes) -> None:
    """``append_record`` for lines as they are (whole lines, each ending in a newline),
    such as lines moved from another log."""
    path = Path(path)
    new = not path.exists()
    with private_open(path, "a+b") as f:
        torn_at = _torn_tail_offset(f)
        if torn_at is not None:
            f.seek(torn_at)
            torn = f.read()
            with private_open(path.with_name(path.name + TORN_SUFFIX), "ab") as aside:
                aside.write(torn if torn.endswith(b"\n") else torn + b"\n")
                aside.flush()
                os.fsync(aside.fileno())
            f.truncate(torn_at)
        f.write(lines)  # "a" mode: always at the end
        f.flush()
        if _group is None:
            os.fsync(f.fileno())
    if _group is not None:
        _note(_group, path, new_name=new)
    elif new:
        fsync_dir(path.parent)


def read_records(
    path: str | os.PathLike, damaged: list[str] | None = None
) -> tuple[list[dict], str | None]:
    """All records of a log, and a description of a torn last line (None if there is none).

    A missing file is an empty log. A line that is not a JSON object anywhere but last raises
    CorruptRecord naming the file and the line number; or, for a log that only helps (given
    ``damaged``), is passed over and described there."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return [], None
    lines = data.split(b"\n")
    complete, tail = lines[:-1], lines[-1]  # tail: bytes after the last newline
    records: list[dict] = []
    torn = None
    for number, line in enumerate(complete, start=1):
        if not line.strip():
            continue
        record = _parse_line(line)
        if record is None:
            if number == len(complete) and not tail:
                torn = (
                    f"{path}: line {number} is not a complete record and was not used: "
                    f"{_preview(line)}"
                )
                break
            what = (
                f"{path}: line {number} is not a JSON object: {_preview(line)}. "
                "Only the last line may be damaged by a crash; repair or remove this line by hand."
            )
            if damaged is None:
                raise CorruptRecord(what)
            damaged.append(what)
            continue
        records.append(record)
    if tail.strip():
        torn = (
            f"{path}: line {len(complete) + 1} was cut short (no line end) and was not used: "
            f"{_preview(tail)}"
        )
    return records, torn


def _preview(line: bytes, limit: int = 80) -> str:
    text = line.decode("utf-8", "replace")
    return repr(text if len(text) <= limit else text[:limit] + "...")
