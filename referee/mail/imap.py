"""An IMAP folder as the referee's inbox, read with imapclient: imported only by a site
whose inbox is IMAP (``Config.make_inbox``), so that a tick on a local Maildir does without
it."""

from __future__ import annotations

import contextlib
import functools
import json
import logging
import os
import ssl
from collections.abc import Iterable, Iterator
from pathlib import Path

from imapclient import IMAPClient
from imapclient.exceptions import IMAPClientError, LoginError

from ..files import atomic_write, whole
from .inbox import Closing, InboxError, InMail, log_fetched

log = logging.getLogger(__name__)


FETCH_BATCH = 500  # UIDs per FETCH command: long enough to be fast, short for any server
FETCH_BYTES = 4 * 2**20  # mail bodies fetched together: few round trips, little memory


class ImapInbox(Closing):
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
        """The last UID processed in this folder, 0 when the state is missing, void or
        damaged (every mail left in the folder is then read again: the campaigns' logs and
        received.jsonl know those taken before)."""
        try:
            state = json.loads(self.state_path.read_bytes())
            same = (
                state.get("mailbox") == self._identity()
                and state.get("uidvalidity") == self._uidvalidity
            )
            return whole(state.get("last_uid", 0), what="a UID") if same else 0
        except FileNotFoundError:
            return 0
        except (ValueError, AttributeError) as err:
            log.warning("%s cannot be read (%s)", self.state_path, err)
            return 0

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
        log_fetched(len(mails), f"{self.folder!r} on {self.host}")
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


def _drop(client: IMAPClient) -> None:
    """Close a connection that failed; it may be half closed already."""
    with contextlib.suppress(OSError):
        client.shutdown()


def _text(e: Exception) -> str:
    text = str(e)
    return text[2:-1] if text.startswith(("b'", 'b"')) else text
