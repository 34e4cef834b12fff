"""The site at rest: the tick lock, and the note that lets cron's tick of most minutes end
after a few system calls, whatever the number of campaigns.

A tick that finds nothing to do (``service.tick.quiet``, which looks at every campaign)
writes ``state/rest``: when the next thing falls due (a deadline, a mail resting in the
queue, a failure summary) and the size and time of each file and folder whose change can
bring work (referee.yaml, the campaigns' folder, the queue, the held mail, the failures, a
Maildir inbox). While they stand as noted and that time has not come, a tick is at rest
(``at_rest``) without reading referee.yaml or any campaign. A command that writes forgets the
note (``forget``), as does a tick with work; a tick that finds the site quiet again writes it
anew. A campaign's files edited by hand are read at its next mail or deadline.

This module imports only what the interpreter has built in (no JSON, no YAML, no logging, no
pathlib): the note is ``marshal`` data, keyed by the interpreter's version (``marshal``'s
format is its own).
"""

from __future__ import annotations

import fcntl
import marshal
import os
import sys
import time

NOTE = "rest"  # in the state folder
RESTED = "rested"  # in the state folder: when the last tick at rest ran
FOLDERS = "folders"  # in the state folder: where referee.yaml puts the site's other folders
FORMAT = (1, sys.version_info[:2])  # a note of another format or interpreter is not read


class LockBusy(Exception):
    """Another process holds the tick lock."""

    def __init__(self, message: str, pid: int | None = None, since: str | None = None):
        super().__init__(message)
        self.pid = pid
        self.since = since


def utc_stamp(seconds: float | None = None) -> str:
    """``seconds`` since the epoch (default: now) as ``datetime.isoformat`` writes a UTC
    time to the second."""
    return time.strftime("%Y-%m-%dT%H:%M:%S+00:00", time.gmtime(seconds))


class TickLock:
    """At most one tick at a time: ``with TickLock(path): ...`` raises LockBusy when another
    process holds the lock. The kernel releases a flock when its holder dies, so a crashed
    tick never leaves a stale lock behind; the file only says who holds it, for the message."""

    def __init__(self, path: str | os.PathLike):
        self.path = path
        self._fd: int | None = None

    def __enter__(self) -> TickLock:
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)  # private, as the state is
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 200, 0).decode("utf-8", "replace").split()
            os.close(fd)
            pid = int(holder[0]) if holder and holder[0].isdigit() else None
            since = holder[1] if len(holder) > 1 else None
            who = (
                f"pid {pid}, since {since}" if pid else "a process that has not written its pid yet"
            )
            raise LockBusy(
                f"another tick is running ({who}; lock file {self.path}); "
                "this one does nothing, the next run will catch up",
                pid,
                since,
            ) from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()} {utc_stamp()}\n".encode(), 0)
        self._fd = fd
        return self

    def __exit__(self, *exc) -> None:
        fd, self._fd = self._fd, None
        if fd is not None:
            os.ftruncate(fd, 0)
            os.close(fd)  # closing releases the flock


def marks(paths: list[str]) -> list:
    """The size and modification time of each of ``paths`` (None for one missing)."""
    found: list = []
    for path in paths:
        try:
            st = os.stat(path)
        except OSError:
            found.append(None)
            continue
        found.append((st.st_size, st.st_mtime_ns))
    return found


def note(state_dir: str | os.PathLike, wake: float | None, watched: list[str], **kept) -> None:
    """The site is quiet: nothing is due before ``wake`` (seconds since the epoch; None:
    nothing is due at all) while ``watched`` (paths) stay as they are now; ``kept``: what a
    tick at rest tells (``waiting``: the mails still queued) and whether the inbox is among
    ``watched`` (``inbox``: a Maildir's folders; an IMAP inbox is asked by the tick)."""
    path = os.path.join(state_dir, NOTE)
    temp = f"{path}.{os.getpid()}.tmp"
    with open(temp, "wb") as file:
        marshal.dump((FORMAT, wake, watched, marks(watched), kept), file)
    os.replace(temp, path)  # derived, made again by the next quiet tick: no fsync


def forget(state_dir: str | os.PathLike) -> None:
    """Something may have changed that the note does not watch: the next tick looks."""
    try:
        os.unlink(os.path.join(state_dir, NOTE))
    except FileNotFoundError:
        return  # none to forget


def at_rest(state_dir: str | os.PathLike, now: float, inbox: bool) -> dict | None:
    """What the note keeps (``note``'s ``kept``) when the site is at rest: its files as
    noted and nothing due by ``now``, and, with ``inbox``, the inbox among what it watched
    (a tick that has not fetched its mail asks so); None when a tick must look."""
    try:
        with open(os.path.join(state_dir, NOTE), "rb") as file:
            form, wake, watched, noted, kept = marshal.load(file)
    except (OSError, EOFError, ValueError, TypeError):
        return None  # none yet, forgotten, or not this interpreter's: a tick looks
    if form != FORMAT or (wake is not None and now >= wake):
        return None
    if (inbox and not kept.get("inbox")) or marks(watched) != noted:
        return None
    return kept


def rested(state_dir: str | os.PathLike, now: float, waiting: int) -> None:
    """A tick found the site at rest at ``now``, ``waiting`` mails still queued: ``referee
    status`` tells it as the last tick (``last_rested``)."""
    path = os.path.join(state_dir, RESTED)
    temp = f"{path}.{os.getpid()}.tmp"
    with open(temp, "w", encoding="utf-8") as file:
        file.write(f"{utc_stamp(now)} {waiting}\n")
    os.replace(temp, path)


def last_rested(state_dir: str | os.PathLike) -> tuple[str, int] | None:
    """When the last tick at rest ran (``rested``), as an ISO time, and the mails it left
    queued; None before one (or when the file does not say so)."""
    try:
        with open(os.path.join(state_dir, RESTED), encoding="utf-8") as file:
            at, waiting = file.read().split()
        return at, int(waiting)
    except (OSError, ValueError):
        return None


def note_folders(state_dir: str | os.PathLike, config: str | os.PathLike, **folders: str) -> None:
    """Where ``config`` (the site's referee.yaml, as it is now) puts the site's folders, by
    their keys (absolute paths): `referee status --json` finds them here without reading
    YAML (``folders``). Written only when it changed."""
    path = os.path.join(state_dir, FOLDERS)
    kept = (FORMAT, marks([os.fspath(config)]), folders)
    try:
        with open(path, "rb") as file:
            if marshal.load(file) == kept:
                return
    except (OSError, EOFError, ValueError, TypeError):
        pass  # none yet, or not this interpreter's: written anew
    temp = f"{path}.{os.getpid()}.tmp"
    with open(os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "wb") as file:
        marshal.dump(kept, file)  # (private, as the state is)
    os.replace(temp, path)  # derived, made again by the next command: no fsync


def folders(state_dir: str | os.PathLike, config: str | os.PathLike) -> dict[str, str] | None:
    """The site's folders as ``note_folders`` kept them, while ``config`` is as it was then;
    None when it must be read."""
    try:
        with open(os.path.join(state_dir, FOLDERS), "rb") as file:
            form, noted, kept = marshal.load(file)
    except (OSError, EOFError, ValueError, TypeError):
        return None
    if form != FORMAT or noted != marks([os.fspath(config)]) or not isinstance(kept, dict):
        return None
    return kept
