"""The base commit a bench compares with, checked out into a temporary git worktree for the
time of a ``with`` block (its code then runs in a subprocess with PYTHONPATH pointing there)."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


@contextmanager
def checked_out(commit: str, where: Path) -> Iterator[Path]:
    subprocess.run(
        ["git", "worktree", "add", "--detach", str(where), commit],
        cwd=ROOT,
        check=True,
        capture_output=True,
    )
    try:
        yield where
    finally:
        subprocess.run(["git", "worktree", "remove", "--force", str(where)], cwd=ROOT)
