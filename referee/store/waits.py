"""What each campaign of a site waits for (``state/waits.marshal``): the files its work
follows from and when its next deadline is due, so that a tick passes over a campaign with
nothing to do without reading it (and a tick with nothing to do at all reads no campaign);
and its summary as the tick left it, which `referee status` shows without reading the
campaign while its files stay as they were. The summary is kept as the JSON text `status
--json` prints, and the index as ``marshal`` data (keyed by the interpreter's version, as
``rest`` keeps its note): a site of ten thousand campaigns has its status told without
parsing or writing JSON again."""

from __future__ import annotations

import json
import marshal
import os
import sys
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path

from ..files import atomic_write, instant
from ..settings.checks import ID_PATTERN
from .names import BOOK, CAMPAIGN_FILES, MARKS

WATCHED = (*CAMPAIGN_FILES, MARKS, BOOK)  # a campaign's folder has one of the first two
FORMAT = (1, sys.version_info[:2])  # an index of another format or interpreter is not read


def fingerprint(root: str | os.PathLike) -> list:
    """The size and time of the files a campaign's work follows from (a game master's
    command from the shell changes one of them)."""
    marks: list = []
    folder = os.fspath(root)  # as text: a site of many campaigns stats them all at once
    for name in WATCHED:
        try:
            st = os.stat(f"{folder}/{name}")
        except FileNotFoundError:
            marks.append(None)
            continue
        marks.append([st.st_size, st.st_mtime_ns])
    return marks


class Waits:
    """The site's index of what each campaign waits for (``state/waits.marshal``)."""

    def __init__(self, path: Path):
        self.path = path
        try:  # a cache: without it (or with a damaged one) every campaign is looked at once
            form, entries = marshal.loads(path.read_bytes())
            if form != FORMAT:
                raise ValueError("another interpreter's index")
            self.entries: dict[str, dict] = {
                str(name): {"files": list(entry["files"]), "wake": entry["wake"], "summary": kept}
                for name, entry in entries.items()
                if (entry["wake"] is None or instant(entry["wake"]))
                and isinstance(kept := entry["summary"], str)
            }
        except (OSError, EOFError, ValueError, KeyError, TypeError, AttributeError):
            self.entries = {}

    def asleep(self, root: Path, now: datetime) -> bool:
        """Whether the campaign in ``root`` has nothing to do now: no file of it changed
        since a tick looked at it, and no deadline of it is due."""
        entry = self.entries.get(root.name)
        if entry is None or entry["files"] != fingerprint(root):
            return False
        wake = entry["wake"]
        return wake is None or now < datetime.fromisoformat(wake)

    def first_wake(self) -> datetime | None:
        """When the first deadline of any campaign is due (None: none is)."""
        wakes = [datetime.fromisoformat(e["wake"]) for e in self.entries.values() if e["wake"]]
        return min(wakes, default=None)

    def summary(self, root: Path) -> dict | None:
        """The campaign's summary as its last tick noted it, while its files are as they
        were then (None: it must be read)."""
        kept = self.kept(root.name, fingerprint(root))
        return None if kept is None else json.loads(kept)

    def kept(self, campaign_id: str, files: list) -> str | None:
        """The summary's JSON text of the campaign whose files are now ``files``
        (``fingerprint``) as its last tick noted it, while they were so then; else None."""
        entry = self.entries.get(campaign_id)
        return entry["summary"] if entry is not None and entry["files"] == files else None

    def summaries(self, data_root: Path) -> Iterator[tuple[str, str | None]]:
        """Each campaign of ``data_root`` (as ``store.site.is_campaign`` tells one) by its
        id, in order, with its summary's JSON text as ``kept`` gives it."""
        folder = os.fspath(data_root)  # as text: ten thousand folders are looked at
        for name in sorted(os.listdir(folder)):
            if ID_PATTERN.match(name):
                files = fingerprint(f"{folder}/{name}")
                if files[0] is not None or files[1] is not None:  # CAMPAIGN_FILES
                    yield name, self.kept(name, files)

    def note(self, root: Path, wake: datetime | None, summary: dict) -> None:
        """A tick has done the campaign's work; ``wake``: when its next deadline is due;
        ``summary``: what `referee status` shows of it."""
        self.entries[root.name] = {
            "files": fingerprint(root),
            "wake": wake.isoformat() if wake else None,
            "summary": json.dumps(summary),  # as `status --json` prints it
        }

    def keep_only(self, campaign_ids: list[str]) -> None:
        """Forget the campaigns no longer on the site."""
        for gone in self.entries.keys() - set(campaign_ids):
            del self.entries[gone]

    def save(self) -> None:
        atomic_write(self.path, marshal.dumps((FORMAT, self.entries)), durable=False)
