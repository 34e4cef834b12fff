"""A campaign's deadline book, `deadlines.json`: per seat, the stage of the decision it owes,
when it was asked for, the time added to it (extensions, pauses), and whether its reminder
went out and its deadline was missed; and since when the campaign stands paused. The
timekeeping (``service.timekeeping``) keeps it; it is the only state deadlines have.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from ..files import atomic_write, read_state, whole
from ..settings.deadlines import parse_when
from .names import BOOK


@dataclass
class Due:
    """One seat's awaited decision and its deadline."""

    stage: int
    asked: str
    extended: float = 0.0  # seconds the game master added (capped)
    paused: float = 0.0  # seconds the campaign stood paused
    reminded: bool = False
    missed: bool = False


@dataclass
class Book:
    seats: dict = field(default_factory=dict)  # seat (str) -> Due
    paused_at: str | None = None

    @classmethod
    def load(cls, root: Path) -> Book:
        """The book of the campaign in ``root``; an empty one when it has none."""
        return read_state(root / BOOK, cls.from_data) or cls()

    @classmethod
    def from_data(cls, data: dict) -> Book:
        seats = {}
        for seat, v in data["seats"].items():
            parse_when(v["asked"])
            seats[str(whole(int(seat)))] = Due(
                whole(v["stage"]),
                v["asked"],
                float(v.get("extended", 0.0)),
                float(v.get("paused", 0.0)),
                bool(v.get("reminded", False)),
                bool(v.get("missed", False)),
            )
        paused_at = data.get("paused_at")
        if paused_at is not None:
            parse_when(paused_at)
        return cls(seats, paused_at)

    def save(self, root: Path) -> None:
        data = {
            "paused_at": self.paused_at,
            "seats": {k: v.__dict__ for k, v in sorted(self.seats.items())},
        }
        atomic_write(root / BOOK, json.dumps(data, indent=1) + "\n")
