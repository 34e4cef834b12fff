"""Incoming mail: a local Maildir (the embedded default) or an IMAP mailbox.

Both offer ``fetch(limit=None) -> list[InMail]`` (oldest first) and ``mark_processed(keys)``,
which moves the mails to a "processed" folder. A tick that dies between the two sees the same
mails again on its next run; the caller deduplicates by Message-ID, recorded in the same write
as the orders a mail carried, so every mail is applied exactly once.
"""

from __future__ import annotations

import contextlib
import functools
import json
import logging
import os
import ssl
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from imapclient import IMAPClient
from imapclient.exceptions import IMAPClientError, LoginError

from ..files import atomic_write, fsync_dir

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


class _Closing:
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
    """Make ``path`` a Maildir (cur/, new/, tmp/) if it is not one yet."""
    path = Path(path)
    for sub in ("cur", "new", "tmp"):
        (path / sub).mkdir(parents=True, exist_ok=True)
    return path


class MaildirInbox(_Closing):
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
        _log_fetched(len(mails), str(self.path))
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


FETCH_BATCH = 500  # UIDs per FETCH command: long enough to be fast, short for any server
FETCH_BYTES = 4 * 2**20  # mail bodies fetched together: few round trips, little memory


class ImapInbox(_Closing):
    """An IMAP folder read with imapclient.

    The state file keeps the folder's UIDVALIDITY and the last UID marked processed; fetch
    asks only for UIDs above it. When UIDVALIDITY changes (the folder was recreated), the
    state is void: every mail in the folder is fetched again, which is safe because processed
    mail has been moved out and the caller deduplicates by Message-ID. Fetching uses
    BODY.PEEK, so a person reading the same mailbox still sees the mail as unread."""

    def __init__(
        self,
        host: str,
        port: int,
        username: str,
        password: str,
        *,
        folder: str = "INBOX",
        processed_folder: str = "processed",
        security: str = "tls",
        state_path: str | os.PathLike,
        timeout: float = 60.0,
        ssl_context: ssl.SSLContext | None = None,
    ):
        if security not in ("tls", "starttls", "none"):
            raise ValueError(f"security must be tls, starttls or none, not {security!r}")
        self.host, self.port, self.username, self.password = host, port, username, password
        self.folder, self.processed_folder = folder, processed_folder
        self.security, self.timeout = security, timeout
        self.state_path = Path(state_path)
        self.ssl_context = ssl_context or ssl.create_default_context()
        self._client: IMAPClient | None = None
        self._uidvalidity: int | None = None
        self._sizes: dict[int, int] = {}  # uid -> size, of the mails fetched not yet read
        self._bodies: dict[int, bytes] = {}  # uid -> mail, fetched ahead of its reading

    # -- connection --
    def _connect(self) -> IMAPClient:
        if self._client is not None:
            return self._client
        where = f"the IMAP server {self.host}:{self.port}"
        try:
            client = IMAPClient(
                self.host,
                self.port,
                ssl=self.security == "tls",
                ssl_context=self.ssl_context,
                timeout=self.timeout,
            )
        except (OSError, IMAPClientError) as e:
            log.warning("cannot reach %s: %s", where, e)
            raise InboxError(f"cannot reach {where}: {e}") from e
        step = "set up STARTTLS with"
        try:
            if self.security == "starttls":
                client.starttls(self.ssl_context)
            step = "log in to"
            client.login(self.username, self.password)
            step = f"open the folder {self.folder!r} on"
            selected = client.select_folder(self.folder)
        except LoginError as e:
            _drop(client)
            log.warning("%s refused the login of %r: %s", where, self.username, _text(e))
            raise InboxError(
                f"{where} refused the login of {self.username!r} ({_text(e)}); "
                "check the inbox user and the password in its environment variable"
            ) from e
        except (OSError, IMAPClientError) as e:
            _drop(client)
            log.warning("cannot %s %s: %s", step, where, _text(e))
            raise InboxError(f"cannot {step} {where}: {_text(e)}") from e
        self._client = client
        self._uidvalidity = int(selected[b"UIDVALIDITY"])
        log.debug(
            "connected to %s as %r, folder %r (UIDVALIDITY %d)",
            where,
            self.username,
            self.folder,
            self._uidvalidity,
        )
        return client

    def close(self) -> None:
        client, self._client = self._client, None
        if client is not None:
            try:
                client.logout()
            except (OSError, IMAPClientError) as e:
                log.debug(
                    "logging out of %s:%d failed (%s): connection dropped",
                    self.host,
                    self.port,
                    _text(e),
                )
                _drop(client)

    # -- state --
    def _identity(self) -> dict:
        return {"host": self.host, "port": self.port, "user": self.username, "folder": self.folder}

    def _last_uid(self) -> int:
        """The last UID processed in this folder, 0 when the state is missing or void."""
        try:
            state = json.loads(self.state_path.read_text())
        except (FileNotFoundError, ValueError):
            return 0
        same = (
            state.get("mailbox") == self._identity()
            and state.get("uidvalidity") == self._uidvalidity
        )
        return int(state.get("last_uid", 0)) if same else 0

    def _save_last_uid(self, last_uid: int) -> None:
        state = {
            "mailbox": self._identity(),
            "uidvalidity": self._uidvalidity,
            "last_uid": last_uid,
        }
        atomic_write(self.state_path, json.dumps(state, indent=1) + "\n")

    # -- the interface --
    def fetch(self, limit: int | None = None) -> list[InMail]:
        """The new mails with their sizes; their bodies are fetched as they are read, a few
        (up to FETCH_BYTES together) at a time."""
        client = self._connect()
        last = self._last_uid()
        if not last and self.state_path.exists():  # a saved state always has a UID
            log.warning(
                "the saved state does not match %r on %s (the folder was recreated or "
                "the inbox settings changed): every mail in it is read again",
                self.folder,
                self.host,
            )
        with self._reading():
            # "n:*" always matches the highest UID, even below n: filter
            uids = sorted(u for u in client.search(["UID", f"{last + 1}:*"]) if u > last)[:limit]
            sizes: dict[int, int] = {}
            for start in range(0, len(uids), FETCH_BATCH):
                data = client.fetch(uids[start : start + FETCH_BATCH], ["RFC822.SIZE"])
                sizes.update((uid, int(d[b"RFC822.SIZE"])) for uid, d in data.items())
        self._sizes, self._bodies = sizes, {}
        mails = [
            InMail(f"{self._uidvalidity}:{uid}", sizes[uid], functools.partial(self._body, uid))
            for uid in uids
            if uid in sizes  # gone meanwhile: skipped
        ]
        _log_fetched(len(mails), f"{self.folder!r} on {self.host}")
        return mails

    def _body(self, uid: int, limit: int | None) -> bytes:
        """The mail ``uid`` (its first ``limit`` bytes): a whole mail comes from the bodies
        fetched with the mails after it, which are fetched when it is not there yet."""
        client = self._connect()
        with self._reading():
            if limit is not None:
                data = client.fetch([uid], [f"BODY.PEEK[]<0.{limit}>"])
                return data[uid][b"BODY[]<0>"] if uid in data else b""
            if uid not in self._bodies:
                batch, total = [uid], self._sizes.get(uid, 0)
                for later in sorted(u for u in self._sizes if u > uid):
                    total += self._sizes[later]
                    if total > FETCH_BYTES or len(batch) >= FETCH_BATCH:
                        break
                    batch.append(later)
                data = client.fetch(batch, ["BODY.PEEK[]"])
                self._bodies = {u: d[b"BODY[]"] for u, d in data.items()}
        body = self._bodies.pop(uid, None)  # held once: the caller keeps what it needs
        if body is None:
            raise InboxError(f"mail {uid} is gone from {self.folder!r} on {self.host}")
        return body

    @contextlib.contextmanager
    def _reading(self) -> Iterator[None]:
        try:
            yield
        except (OSError, IMAPClientError) as e:
            log.warning(
                "reading %r on %s:%d failed: %s", self.folder, self.host, self.port, _text(e)
            )
            self.close()
            raise InboxError(
                f"reading {self.folder!r} on {self.host}:{self.port} failed: {_text(e)}"
            ) from e

    def mark_processed(self, keys: Iterable[str]) -> None:
        """Move the mails to the processed folder in one command and remember the highest
        UID. Keys from before a UIDVALIDITY change are ignored: those mails come again."""
        client = self._connect()
        uids = sorted(
            int(uid)
            for validity, _, uid in (k.partition(":") for k in keys)
            if int(validity) == self._uidvalidity
        )
        if not uids:
            return
        try:
            if not client.folder_exists(self.processed_folder):
                client.create_folder(self.processed_folder)
            if client.has_capability("MOVE"):
                client.move(uids, self.processed_folder)
            else:
                client.copy(uids, self.processed_folder)
                client.delete_messages(uids)
                # a plain EXPUNGE would remove every deleted-flagged mail of the folder, not
                # only the referee's: without UIDPLUS they stay flagged, and are not fetched
                # again (the state file's last UID is past them)
                if client.has_capability("UIDPLUS"):
                    client.uid_expunge(uids)
        except (OSError, IMAPClientError) as e:
            log.warning(
                "moving processed mail to %r on %s:%d failed: %s",
                self.processed_folder,
                self.host,
                self.port,
                _text(e),
            )
            self.close()
            raise InboxError(
                f"moving processed mail to {self.processed_folder!r} on "
                f"{self.host}:{self.port} failed: {_text(e)}"
            ) from e
        self._save_last_uid(max(self._last_uid(), uids[-1]))
        log.info(
            "marked %d processed (moved to %r on %s)", len(uids), self.processed_folder, self.host
        )


def _log_fetched(count: int, where: str) -> None:
    # every quiet tick fetches nothing: that is worth a line only among the details
    log.log(logging.INFO if count else logging.DEBUG, "fetched %d from %s", count, where)


def _drop(client: IMAPClient) -> None:
    """Close a connection that failed; it may be half closed already."""
    with contextlib.suppress(OSError):
        client.shutdown()


def _text(e: Exception) -> str:
    text = str(e)
    return text[2:-1] if text.startswith(("b'", 'b"')) else text
