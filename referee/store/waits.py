"""What each campaign of a site waits for (``state/waits.json``): the files its work follows
from and when its next deadline is due, so that a tick passes over a campaign with nothing to
do without reading it (and a tick with nothing to do at all reads no campaign); and its
summary as the tick left it, which `referee status` shows without reading the campaign while
its files stay as they were."""

from __future__ import annotations

import json
import os
from datetime import datetime
from pathlib import Path

from ..files import atomic_write, instant
from .names import BOOK, LOG, MARKS, SETTINGS_FILE

WATCHED = (SETTINGS_FILE, LOG, MARKS, BOOK)


def fingerprint(root: Path) -> list:
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
    """The site's index of what each campaign waits for (``state/waits.json``)."""

    def __init__(self, path: Path):
        self.path = path
        try:  # a cache: without it (or with a damaged one) every campaign is looked at once,
            # as is one an older referee noted without its summary
            self.entries: dict[str, dict] = {
                str(name): {"files": list(entry["files"]), "wake": entry["wake"], "summary": kept}
                for name, entry in json.loads(path.read_bytes()).items()
                if (entry["wake"] is None or instant(entry["wake"]))
                and isinstance(kept := entry["summary"], dict)
            }
        except (FileNotFoundError, ValueError, KeyError, TypeError, AttributeError):
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
        entry = self.entries.get(root.name)
        if entry is None or entry["files"] != fingerprint(root):
            return None
        return entry["summary"]

    def note(self, root: Path, wake: datetime | None, summary: dict) -> None:
        """A tick has done the campaign's work; ``wake``: when its next deadline is due;
        ``summary``: what `referee status` shows of it."""
        self.entries[root.name] = {
            "files": fingerprint(root),
            "wake": wake.isoformat() if wake else None,
            "summary": summary,
        }

    def keep_only(self, campaign_ids: list[str]) -> None:
        """Forget the campaigns no longer on the site."""
        for gone in self.entries.keys() - set(campaign_ids):
            del self.entries[gone]

    def save(self) -> None:
        atomic_write(self.path, json.dumps(self.entries, separators=(",", ":")), durable=False)
