"""How far a campaign's answers have been queued: its watermarks, kept in `mailed.json`.

They are derived data: after a crash the answers are derived again from the log, and the
outbox recognises a mail it queued before by its Message-ID, so none goes out twice.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from ..files import atomic_write, instant, read_state, whole
from .names import MARKS


def stage_of(value: object) -> int | str | None:
    """A decision's stage as mailed.json keeps it: a count, "over" or none."""
    return value if value is None or value == "over" else whole(value)


@dataclass
class Watermarks:
    """How far a campaign's answers have been queued: kept in `mailed.json`."""

    confirmed: int = 0  # mail records confirmed up to this record
    digests: dict = field(default_factory=dict)  # seat -> record reported up to
    digest_rounds: dict = field(default_factory=dict)  # seat -> round of that report
    turns: int = 0  # turn reports written up to this record
    stages: dict = field(default_factory=dict)  # seat -> stage of the decision last prompted
    held: dict = field(default_factory=dict)  # seat -> mail records whose answer waits
    observed: int | None = None  # the last round whose report went to the observers
    pictured: dict = field(default_factory=dict)  # seat -> round of the last map sent as PNG
    mailed: dict = field(default_factory=dict)  # seat -> when its last mail went (a day then)

    @classmethod
    def load(cls, root: Path) -> Watermarks:
        """The watermarks of the campaign in ``root``; none yet when it has none."""
        return read_state(root / MARKS, cls.from_data) or cls()

    @classmethod
    def from_data(cls, data: dict) -> Watermarks:
        return cls(
            whole(data["confirmed"]),
            {str(k): whole(v) for k, v in data["digests"].items()},
            {str(k): whole(v) for k, v in data["digest_rounds"].items()},
            whole(data["turns"]),
            {str(k): stage_of(v) for k, v in data.get("stages", {}).items()},
            {str(k): [whole(n) for n in v] for k, v in data.get("held", {}).items()},
            None if data.get("observed") is None else whole(data["observed"], -1),  # -1: none yet
            {str(k): whole(v) for k, v in data.get("pictured", {}).items()},
            {str(k): instant(v).isoformat() for k, v in data.get("mailed", {}).items()},
        )

    def floor(self) -> int:
        """The earliest record an answer may still report from (a mail whose answer waits
        is read again when it goes)."""
        kept = [n - 1 for numbers in self.held.values() for n in numbers]
        return min([self.confirmed, self.turns, *self.digests.values(), *kept])

    def save(self, root: Path) -> None:
        # derived: after a crash the answers are derived again and the outbox knows them
        atomic_write(
            root / MARKS,
            json.dumps(self.__dict__, indent=1, sort_keys=True) + "\n",
            durable=False,
        )
