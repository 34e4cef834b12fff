"""The referee's cache on disk: what a fresh process would otherwise make again (each cron
tick is one), kept in ``$REFEREE_CACHE_DIR``, else ``$XDG_CACHE_HOME/referee``, else
``~/.cache/referee``. Only ever a cache: a file missing, unreadable, foreign or from another
version only means making it again, and one that cannot be written only costs that time.
A file is replaced whole by a rename, so two processes writing at once leave one complete
file or the other."""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path


def cache_dir() -> Path:
    if os.environ.get("REFEREE_CACHE_DIR"):
        return Path(os.environ["REFEREE_CACHE_DIR"])
    if os.environ.get("XDG_CACHE_HOME"):
        return Path(os.environ["XDG_CACHE_HOME"]) / "referee"
    try:
        return Path.home() / ".cache" / "referee"
    except RuntimeError:  # no home at all (a bare cron environment): the machine's temp
        return Path(tempfile.gettempdir()) / f"referee-cache-{os.getuid()}"


def write(path: Path, data: bytes) -> None:
    """Replace the cache file whole (a rename), so a reader never sees half of it."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        fd, temp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(temp, path)
    except (OSError, ValueError):  # a cache that cannot be written costs only time
        with contextlib.suppress(NameError, OSError):
            os.unlink(temp)
