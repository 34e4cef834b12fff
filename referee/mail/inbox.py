"""Incoming mail: a local Maildir (the embedded default) or an IMAP mailbox (``imap``).

Both offer ``fetch(limit=None) -> list[InMail]`` (oldest first) and ``mark_processed(keys)``,
which moves the mails to a "processed" folder. A tick that dies between the two sees the same
mails again on its next run; the caller deduplicates by Message-ID, recorded in the same write
as the orders a mail carried, so every mail is applied exactly once.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from ..files import fsync_dir, private_folder

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class InMail:
    """One mail of the inbox. Its bytes are read when asked for, so that a tick holds one
    mail at a time, and a mail too large to take is never read whole."""

    key: str  # what mark_processed takes
    size: int  # bytes, as the mailbox tells it
    reader: Callable[[int | None], bytes] = field(repr=False, compare=False)

    def read(self, limit: int | None = None) -> bytes:
        """The mail's bytes, or its first ``limit`` bytes."""
        return self.reader(limit)

    @property
    def raw(self) -> bytes:
        return self.reader(None)


def read_file(path: Path) -> Callable[[int | None], bytes]:
    def read(limit: int | None) -> bytes:
        try:
            with path.open("rb") as file:
                return file.read(-1 if limit is None else limit)
        except OSError as e:  # moved away by a mail program meanwhile, or a disk error
            raise InboxError(f"cannot read {path}: {e}; it is read again next tick") from e

    return read


class Inbox(Protocol):
    """Used as ``with inbox: ...``; closing ends a connection, if there is one."""

    def fetch(self, limit: int | None = None) -> list[InMail]: ...
    def mark_processed(self, keys: Iterable[str]) -> None: ...
    def close(self) -> None: ...
    def __enter__(self) -> Inbox: ...
    def __exit__(self, *exc) -> None: ...


class Closing:
    """``with inbox:`` closes it at the end."""

    def close(self) -> None:
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class InboxError(Exception):
    """The mailbox cannot be read or changed; the message says why and what to check."""


def create_maildir(path: str | os.PathLike) -> Path:
    """Make ``path`` a Maildir (cur/, new/, tmp/) if it is not one yet: its owner's alone,
    as a player's mail holds their token."""
    path = private_folder(path)
    for sub in ("cur", "new", "tmp"):
        private_folder(path / sub)
    return path


class MaildirInbox(Closing):
    """New mail is every file in new/ and cur/ of the Maildir; processed mail is moved into
    the Maildir++ sub-folder ``.<processed_folder>`` (which Dovecot or mutt show as a folder).
    Keys are the files' unique names (without the ``:2,`` flags)."""

    def __init__(self, path: str | os.PathLike, processed_folder: str = "processed"):
        self.path = Path(path)
        self.processed = self.path / f".{processed_folder}"
        if not (self.path / "new").is_dir():
            raise InboxError(
                f"{self.path} is not a Maildir (it has no new/ folder); "
                "create it with `referee init` or point the inbox path at a Maildir"
            )

    def _files(self) -> dict[str, tuple[int, int, Path]]:
        """key -> (modification time, size, path) of every mail in new/ and cur/."""
        files = {}
        for sub in ("new", "cur"):
            for entry in os.scandir(self.path / sub):
                try:
                    if entry.is_file() and not entry.name.startswith("."):
                        st = entry.stat()
                        files[entry.name.split(":", 1)[0]] = (
                            st.st_mtime_ns,
                            st.st_size,
                            Path(entry.path),
                        )
                except FileNotFoundError:  # moved away by a mail program meanwhile
                    continue
        return files

    def fetch(self, limit: int | None = None) -> list[InMail]:
        # delivery order: the file time, then the name (Maildir names start with the time)
        files = sorted(self._files().items(), key=lambda kv: (kv[1][0], kv[0]))
        mails = [InMail(key, size, read_file(path)) for key, (_, size, path) in files[:limit]]
        log_fetched(len(mails), str(self.path))
        return mails

    def mark_processed(self, keys: Iterable[str]) -> None:
        keys = set(keys)
        if not keys:
            return
        create_maildir(self.processed)
        (self.processed / "maildirfolder").touch()
        for key, (_, _, path) in self._files().items():
            if key in keys:
                # cur/ with the flags it had: a mail program shows it as it was
                os.replace(
                    path,
                    self.processed / "cur" / (path.name if ":" in path.name else f"{path.name}:2,"),
                )
        fsync_dir(self.processed / "cur")
        for sub in ("new", "cur"):
            fsync_dir(self.path / sub)
        log.info("marked %d processed (moved to %s)", len(keys), self.processed)


def log_fetched(count: int, where: str) -> None:
    # every quiet tick fetches nothing: that is worth a line only among the details
    log.log(logging.INFO if count else logging.DEBUG, "fetched %d from %s", count, where)
